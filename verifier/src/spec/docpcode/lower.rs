//! The document dialect's tree written out in the notation of `semantics/pcode/`, so that the
//! one semantics parser and IR give it meaning. What has no meaning there (loops over lanes,
//! lambdas, fields such as `.X`, float conversions other than the NaN tests below) is an
//! [`Outside`] with the reason.
//!
//! Readings (each the only one the notation allows, or said where it picks one):
//! - `x op= e` is `x = x op (e)`; `x++`/`Increment x` is `x = x + 1`.
//! - `declare` only announces a variable; an array `declare R : 32'U[2]` makes `R[k]` the
//!   k-th 32-bit part, `R[32k+31 : 32k]`.
//! - `LDS[a]` is `MEM[a]`; an untyped `MEM[a]` has the access type the entry gives elsewhere
//!   (a typed access, or the type of the value it stores: CDNA's `MEM[ADDR] = dst.b32`).
//! - A variable whose first use assigns a bit range (`dst[15 : 0].f16 = ...`) starts at zero,
//!   as wide as its highest range.
//! - `S0`/`S1` (the operand names of older guides) are `ADDR` and `DATA`.
//! - A float literal is its IEEE bits: `1.0F` binary32, `0.0` binary64 (C's rule).
//! - `abs(x.fN)` clears the sign bit; `sign(x)` is `signbit(x)`; `isNAN(64'F(x))` is
//!   `isNAN(x)` and `32'F(cvtToQuietNAN(64'F(x.f32)))` is `cvtToQuietNAN(x.f32)` (widening
//!   keeps NaN-ness, and quieting commutes with the round trip).
//! - `signext(x.iN)` is the signed view itself.
//! - `{a, b} + c`: the concatenation is as wide as its parts together (`{OFFSET1, OFFSET0}`:
//!   16 bits) and the sum as wide as its widest operand, as everywhere in the notation.

use super::ast::{Expr, Stmt, StmtKind};
use super::lex::{FloatLit, IntLit};
use gcnsmt_semantics::ty::Ty;
use std::collections::{HashMap, HashSet};

/// Why a parsed text has no meaning in the semantics IR: 1-based line and reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Outside {
    /// 1-based line within the entry's text.
    pub line: u32,
    /// Why.
    pub reason: String,
}

/// The lowered text, one statement per line, and for each of its lines the entry line it
/// came from (so that errors on it point into the document).
pub struct Lowered {
    /// Text in the notation of `semantics/pcode/`.
    pub text: String,
    /// `lines[k]`: the document line of lowered line k+1.
    pub lines: Vec<u32>,
}

/// Write `stmts` in the semantics notation.
///
/// Errors: the first construct outside the IR.
pub fn lower(stmts: &[Stmt]) -> Result<Lowered, Outside> {
    let mut l = L {
        arrays: HashMap::new(),
        mem_ty: mem_type(stmts),
        widths: range_widths(stmts),
        assigned: HashSet::new(),
        line: 1,
    };
    let mut text = Vec::new();
    let mut lines = Vec::new();
    for s in stmts {
        l.line = s.line;
        for out in l.stmt(s)? {
            text.push(out);
            lines.push(s.line);
        }
    }
    Ok(Lowered {
        text: text.join(";\n"),
        lines,
    })
}

struct L {
    /// Declared arrays: name to element width.
    arrays: HashMap<String, u32>,
    /// The type an untyped `MEM[...]` takes (see the module docs).
    mem_ty: Option<String>,
    /// Highest bit written by each name's bit-range assignments.
    widths: HashMap<String, u32>,
    /// Names assigned so far (a first slice assignment starts the name at zero).
    assigned: HashSet<String>,
    line: u32,
}

fn is_mem(e: &Expr) -> bool {
    matches!(e, Expr::Name(n) if n == "MEM" || n == "LDS")
}

/// The entry's memory access type: the first typed access, else the type of a stored value.
fn mem_type(stmts: &[Stmt]) -> Option<String> {
    let mut typed = None;
    let mut stored = None;
    walk(stmts, &mut |s| {
        if let StmtKind::Assign { lhs, rhs, .. } = &s.kind {
            for e in [lhs, rhs] {
                visit(e, &mut |x| {
                    if let Expr::Dot(b, t) = x {
                        if matches!(&**b, Expr::Index(m, _) if is_mem(m)) && typed.is_none() {
                            typed = Some(t.clone());
                        }
                    }
                });
            }
            if let (Expr::Index(m, _), Expr::Dot(_, t)) = (lhs, rhs) {
                if is_mem(m) && stored.is_none() && Ty::parse_suffix(t).is_some() {
                    stored = Some(t.clone());
                }
            }
        }
    });
    typed.or(stored)
}

fn walk(stmts: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in stmts {
        f(s);
        match &s.kind {
            StmtKind::If(arms, els) => {
                for (_, b) in arms {
                    walk(b, f);
                }
                walk(els, f);
            }
            StmtKind::For { body, .. } | StmtKind::Function(_, _, body) => walk(body, f),
            _ => {}
        }
    }
}

fn visit(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    match e {
        Expr::Cast { e, .. } | Expr::Dot(e, _) | Expr::Unary(_, e) => visit(e, f),
        Expr::Index(a, b) | Expr::Binary(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        Expr::Range(a, b, c) | Expr::Cond(a, b, c) => {
            visit(a, f);
            visit(b, f);
            visit(c, f);
        }
        Expr::Call(_, xs) | Expr::Tuple(xs) | Expr::Concat(xs) => {
            xs.iter().for_each(|x| visit(x, f));
        }
        _ => {}
    }
}

/// A constant expression's value (bounds of ranges, indices).
fn konst(e: &Expr) -> Option<i128> {
    Some(match e {
        Expr::Int(IntLit { value, .. }) | Expr::Sized { value, .. } => {
            i128::try_from(*value).ok()?
        }
        Expr::Binary(op, a, b) => {
            let (a, b) = (konst(a)?, konst(b)?);
            match *op {
                "+" => a + b,
                "-" => a - b,
                "*" => a * b,
                _ => return None,
            }
        }
        _ => return None,
    })
}

impl L {
    fn out(&self, reason: impl Into<String>) -> Outside {
        Outside {
            line: self.line,
            reason: reason.into(),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<Vec<String>, Outside> {
        self.line = s.line;
        Ok(match &s.kind {
            StmtKind::Declare { name, width, count } => {
                if count.is_some() {
                    self.arrays.insert(name.clone(), *width);
                }
                Vec::new()
            }
            StmtKind::Assign { lhs, op, rhs } => self.assign(lhs, *op, rhs)?,
            StmtKind::Step { target, delta } => {
                let op = if *delta > 0 { "+" } else { "-" };
                self.assign(target, Some(op), &konst_expr(1))?
            }
            StmtKind::If(arms, els) => {
                let mut t = String::new();
                for (k, (c, b)) in arms.iter().enumerate() {
                    let kw = if k == 0 { "if" } else { "elsif" };
                    t += &format!("{kw} {} then\n{}\n", self.expr(c)?, self.block(b)?);
                }
                if !els.is_empty() {
                    t += &format!("else\n{}\n", self.block(els)?);
                }
                vec![t + "endif"]
            }
            StmtKind::For { var, .. } => {
                return Err(self.out(format!(
                    "a loop (`for {var} ...`): the semantics IR has no loops, and the loops of these entries run over lanes or a stack"
                )))
            }
            StmtKind::Break => return Err(self.out("`break` outside the semantics IR")),
            StmtKind::Return(_) | StmtKind::Function(..) => {
                return Err(self.out("a function definition: the semantics IR has no user functions"))
            }
            StmtKind::Expr(e) => return Err(self.out(format!("a call as a statement: `{}`", short(e)))),
            StmtKind::Table(_) => {
                return Err(self.out("a lookup table, not code: no operation to compare"))
            }
        })
    }

    fn block(&mut self, b: &[Stmt]) -> Result<String, Outside> {
        let mut out = Vec::new();
        for s in b {
            out.extend(self.stmt(s)?);
        }
        Ok(out.join(";\n"))
    }

    fn assign(&mut self, lhs: &Expr, op: Option<&str>, rhs: &Expr) -> Result<Vec<String>, Outside> {
        if !assignable(lhs) {
            return Err(self.out(format!(
                "assignment to `{}`: a register file or value set the IR has no name for",
                short(lhs)
            )));
        }
        let target = self.expr(lhs)?;
        let value = match op {
            None => self.expr(rhs)?,
            Some(op) => format!("{target} {op} ({})", self.expr(rhs)?),
        };
        let mut pre = Vec::new();
        // A first assignment to a bit range of a new name starts it at zero, as wide as the
        // highest range the entry assigns to it.
        if let Some((name, ranged)) = target_name(lhs) {
            if ranged && !self.assigned.contains(&name) && !is_input(&name) {
                let hi = self.widths.get(&name).copied().unwrap_or(31);
                pre.push(format!("{name} = {}'0", hi + 1));
            }
            self.assigned.insert(name);
        }
        pre.push(format!("{target} = {value}"));
        Ok(pre)
    }

    fn expr(&mut self, e: &Expr) -> Result<String, Outside> {
        Ok(match e {
            Expr::Int(IntLit { value, hex, suffix }) => {
                let v = if *hex {
                    format!("0x{value:x}")
                } else {
                    value.to_string()
                };
                format!("{v}{suffix}")
            }
            Expr::Float(FloatLit { value, single }) => {
                if *single {
                    format!("(32'{}).f32", (*value as f32).to_bits())
                } else {
                    format!("(64'{}).f64", value.to_bits())
                }
            }
            Expr::Sized { width, value } => format!("{width}'{value}"),
            Expr::Cast { width, kind, e } => self.cast(*width, *kind, e)?,
            Expr::Name(n) => match n.as_str() {
                "S0" => "ADDR".into(),
                "S1" => "DATA".into(),
                "MEM" | "LDS" => return Err(self.out("`MEM` without an address")),
                _ if n.contains(' ') => return Err(self.out(format!("prose operand `{n}`"))),
                _ => n.clone(),
            },
            Expr::Dot(b, t) => {
                if Ty::parse_suffix(t).is_none() {
                    return Err(self.out(format!(
                        "`.{t}` is a field (of a format's channels or a register's parts), not a type the IR has"
                    )));
                }
                match &**b {
                    Expr::Index(m, a) if is_mem(m) => format!("MEM[{}].{t}", self.expr(a)?),
                    _ => format!("{}.{t}", self.atom(b)?),
                }
            }
            Expr::Index(b, i) => self.index(b, i)?,
            Expr::Range(b, hi, lo) => {
                let (Some(h), Some(l)) = (konst(hi), konst(lo)) else {
                    return Err(self.out("a bit range with bounds that are not constants"));
                };
                format!("{}[{h}:{l}]", self.atom(b)?)
            }
            Expr::Call(f, args) => self.call(f, args)?,
            Expr::Tuple(_) => {
                return Err(
                    self.out("several values assigned at once `(a, b)` (a multi-register result)")
                )
            }
            Expr::Concat(parts) => {
                let ps: Result<Vec<_>, _> = parts.iter().map(|p| self.expr(p)).collect();
                let ps = ps?;
                if ps.len() == 1 {
                    format!("({})", ps[0])
                } else {
                    format!("{{ {} }}", ps.join(", "))
                }
            }
            Expr::Unary(op, a) => format!("{op}{}", self.atom(a)?),
            Expr::Binary(op, a, b) => format!("({} {op} {})", self.expr(a)?, self.expr(b)?),
            Expr::Cond(c, a, b) => format!(
                "({} ? {} : {})",
                self.expr(c)?,
                self.expr(a)?,
                self.expr(b)?
            ),
            Expr::Lambda(..) => {
                return Err(self.out("a lambda: the semantics IR has no user functions"))
            }
        })
    }

    /// `e` as something a postfix (`.u32`, `[3:0]`) applies to.
    fn atom(&mut self, e: &Expr) -> Result<String, Outside> {
        let s = self.expr(e)?;
        Ok(match e {
            Expr::Name(_) | Expr::Dot(..) | Expr::Range(..) | Expr::Index(..) | Expr::Call(..) => s,
            _ => format!("({s})"),
        })
    }

    fn index(&mut self, b: &Expr, i: &Expr) -> Result<String, Outside> {
        if is_mem(b) {
            let Some(t) = self.mem_ty.clone() else {
                return Err(self.out("`MEM[...]` with no access type anywhere in the entry"));
            };
            return Ok(format!("MEM[{}].{t}", self.expr(i)?));
        }
        let Some(k) = konst(i) else {
            return Err(self.out(format!(
                "`{}[...]` indexed by a variable (a lane or register number)",
                short(b)
            )));
        };
        if let Expr::Name(n) = b {
            if let Some(w) = self.arrays.get(n) {
                let lo = k * i128::from(*w);
                return Ok(format!("{n}[{}:{lo}]", lo + i128::from(*w) - 1));
            }
        }
        Ok(format!("{}[{k}]", self.atom(b)?))
    }

    fn cast(&mut self, width: u32, kind: char, e: &Expr) -> Result<String, Outside> {
        match kind {
            'I' | 'U' | 'B' => Ok(format!(
                "({}).{}{width}",
                self.expr(e)?,
                kind.to_ascii_lowercase()
            )),
            'F' => match e {
                // 32'F(cvtToQuietNAN(64'F(x.f32))): quieting commutes with the round trip.
                Expr::Call(f, a) if f == "cvtToQuietNAN" && a.len() == 1 => match &a[0] {
                    Expr::Cast {
                        kind: 'F', e: x, ..
                    } if float_width(x) == Some(width) => {
                        Ok(format!("cvtToQuietNAN({})", self.expr(x)?))
                    }
                    _ => Err(self.out("a float conversion `N'F(..)`: the semantics IR has none")),
                },
                _ => Err(self.out("a float conversion `N'F(..)`: the semantics IR has none")),
            },
            _ => Err(self.out(format!("a cast `{width}'{kind}(..)` of unknown kind"))),
        }
    }

    fn call(&mut self, f: &str, args: &[Expr]) -> Result<String, Outside> {
        let one = args.len() == 1;
        match f {
            "isNAN" | "isQuietNAN" | "isSignalNAN" if one => {
                // Widening a float keeps whether it is a NaN.
                let x = match &args[0] {
                    Expr::Cast { kind: 'F', e, .. } if float_width(e).is_some() => &**e,
                    x => x,
                };
                Ok(format!("{f}({})", self.expr(x)?))
            }
            // Widening a signed view extends its sign already.
            "signext" if one && matches!(&args[0], Expr::Dot(_, t) if t.starts_with('i')) => {
                self.atom(&args[0])
            }
            "sign" if one => Ok(format!("signbit({})", self.expr(&args[0])?)),
            "abs" if one => {
                let Some(w) = float_width(&args[0]) else {
                    return Err(
                        self.out("`abs` of a value whose float width the text does not give")
                    );
                };
                let x = self.atom(&args[0])?;
                Ok(format!("({{ 1'0, {x}.b{w}[{}:0] }}).f{w}", w - 2))
            }
            _ => {
                let a: Result<Vec<_>, _> = args.iter().map(|x| self.expr(x)).collect();
                Ok(format!("{f}({})", a?.join(", ")))
            }
        }
    }
}

/// The width of `x.fN` / `x.bfN`, as written.
fn float_width(e: &Expr) -> Option<u32> {
    match e {
        Expr::Dot(_, t) if t.starts_with('f') => t[1..].parse().ok(),
        _ => None,
    }
}

/// The name an assignment writes, and whether it writes a bit range of it.
fn target_name(lhs: &Expr) -> Option<(String, bool)> {
    let inner = match lhs {
        Expr::Dot(b, _) => &**b,
        e => e,
    };
    match inner {
        Expr::Range(b, _, _) => match &**b {
            Expr::Name(n) => Some((n.clone(), true)),
            _ => None,
        },
        Expr::Name(n) => Some((n.clone(), false)),
        _ => None,
    }
}

/// Whether the IR can assign to `lhs`: a name, a bit range, a view or an element of one, or
/// memory.
fn assignable(lhs: &Expr) -> bool {
    match lhs {
        Expr::Name(_) => true,
        Expr::Dot(b, _) | Expr::Range(b, _, _) | Expr::Index(b, _) => is_mem(b) || assignable(b),
        _ => false,
    }
}

/// The highest bit each name's bit-range assignments write (`dst[31 : 16].f16 = ...`: 31).
fn range_widths(stmts: &[Stmt]) -> HashMap<String, u32> {
    let mut m: HashMap<String, u32> = HashMap::new();
    walk(stmts, &mut |s| {
        if let StmtKind::Assign { lhs, .. } = &s.kind {
            let inner = match lhs {
                Expr::Dot(b, _) => &**b,
                e => e,
            };
            if let Expr::Range(b, hi, _) = inner {
                if let (Expr::Name(n), Some(h)) = (&**b, konst(hi)) {
                    let e = m.entry(n.clone()).or_default();
                    *e = (*e).max(h.clamp(0, 1023) as u32);
                }
            }
        }
    });
    m
}

/// Names the comparison binds before the text runs (operands and results).
fn is_input(n: &str) -> bool {
    n.chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn konst_expr(v: u128) -> Expr {
    Expr::Int(IntLit::dec(v, "U"))
}

/// A short description of an expression for a reason text.
fn short(e: &Expr) -> String {
    match e {
        Expr::Name(n) => n.clone(),
        Expr::Call(f, _) => format!("{f}(..)"),
        Expr::Index(b, _) | Expr::Dot(b, _) | Expr::Range(b, _, _) => short(b),
        Expr::Concat(ps) => {
            let ps: Vec<String> = ps.iter().map(short).collect();
            format!("{{{}}}", ps.join(", "))
        }
        _ => "an expression".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse;
    use super::*;

    fn low(s: &str) -> String {
        lower(&parse(s).unwrap().stmts).unwrap().text
    }

    #[test]
    fn compound_and_untyped_memory() {
        assert_eq!(
            low("tmp = MEM[ADDR];\nMEM[ADDR] = dst.b32; x += 1U"),
            "tmp = MEM[ADDR].b32;\nMEM[ADDR].b32 = dst.b32;\nx = x + (1U)"
        );
    }

    #[test]
    fn arrays_and_new_slices() {
        assert_eq!(
            low("declare R : 32'U[2];\nR[1] = LDS[A].u32;\ndst[31 : 16].f16 = x"),
            "R[63:32] = MEM[A].u32;\ndst = 32'0;\ndst[31:16].f16 = x"
        );
    }

    #[test]
    fn float_literals_are_their_bits() {
        // 1.0 in binary32 is 0x3f800000 = 1065353216 (IEEE 754: exponent 127, fraction 0).
        assert_eq!(low("x = 1.0F"), "x = (32'1065353216).f32");
    }

    #[test]
    fn loops_are_outside_with_their_line() {
        let b = parse("a = 1;\nfor i in 0 : 3 do\nb = 2\nendfor").unwrap();
        assert_eq!(lower(&b.stmts).err().map(|o| o.line), Some(2));
    }
}
