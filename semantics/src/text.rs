//! A value domain whose values are pseudocode text: running a semantics function (the
//! cross-lane ones of [`crate::wave`]) over named inputs prints what it computes, so `gcnsmt
//! lift` shows the very function the checks evaluate rather than a description of it.
//!
//! Constants fold (through [`crate::interp::Concrete`], so folding is the interpreter's
//! arithmetic), and `ite`/`&&`/`||` with a known condition keep only the arm taken; what is
//! left prints with every compound term in parentheses. Widths are tracked as in any domain.

use crate::domain::{BvOp, CmpOp, Domain, FpOp};
use crate::interp::Concrete;
use crate::ty::FpFmt;

/// A bit-vector of `width` bits: a known constant or an expression over named inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TBv {
    /// A known value (low `width` bits).
    Const(u128, u32),
    /// Pseudocode text and its width in bits.
    Expr(String, u32),
}

/// A boolean: known, or pseudocode text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TBool {
    /// A known value.
    Const(bool),
    /// Pseudocode text.
    Expr(String),
}

/// The text domain (stateless).
#[derive(Default)]
pub struct Text;

impl Text {
    /// A named `width`-bit input, printed as `name`.
    pub fn var(name: impl Into<String>, width: u32) -> TBv {
        TBv::Expr(name.into(), width)
    }
    /// A named boolean input, printed as `name`.
    pub fn flag(name: impl Into<String>) -> TBool {
        TBool::Expr(name.into())
    }
    /// `x` as pseudocode, without its outermost parentheses.
    pub fn show(x: &TBv) -> String {
        let s = bv_text(x);
        strip_parens(&s).to_string()
    }
}

fn strip_parens(s: &str) -> &str {
    // Only when the first `(` closes at the very end.
    if !(s.starts_with('(') && s.ends_with(')')) {
        return s;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 < s.len() {
                    return s;
                }
            }
            _ => {}
        }
    }
    &s[1..s.len() - 1]
}

fn bv_text(x: &TBv) -> String {
    match x {
        TBv::Const(v, _) if *v < 10 => v.to_string(),
        TBv::Const(v, _) => format!("{v:#x}"),
        TBv::Expr(s, _) => s.clone(),
    }
}

fn bool_text(b: &TBool) -> String {
    match b {
        TBool::Const(v) => v.to_string(),
        TBool::Expr(s) => s.clone(),
    }
}

fn w(x: &TBv) -> u32 {
    match x {
        TBv::Const(_, w) | TBv::Expr(_, w) => *w,
    }
}

fn bits(v: u128, width: u32) -> crate::interp::Bits {
    Concrete.bv(v, width)
}

fn from_bits(b: crate::interp::Bits) -> TBv {
    TBv::Const(b.value, b.width)
}

fn symbol(op: BvOp) -> &'static str {
    match op {
        BvOp::Add => "+",
        BvOp::Sub => "-",
        BvOp::Mul => "*",
        BvOp::UDiv => "/",
        BvOp::URem => "%",
        BvOp::SDiv => "/s",
        BvOp::SRem => "%s",
        BvOp::And => "&",
        BvOp::Or => "|",
        BvOp::Xor => "^",
        BvOp::Shl => "<<",
        BvOp::LShr => ">>",
        BvOp::AShr => ">>s",
    }
}

impl Domain for Text {
    type Bv = TBv;
    type Bool = TBool;
    /// A memory is its name or the text of its writes.
    type Mem = String;

    fn bv(&mut self, value: u128, width: u32) -> TBv {
        from_bits(bits(value, width))
    }
    fn boolean(&mut self, b: bool) -> TBool {
        TBool::Const(b)
    }
    fn width(&self, x: &TBv) -> u32 {
        w(x)
    }
    fn op(&mut self, op: BvOp, a: &TBv, b: &TBv) -> TBv {
        match (a, b) {
            (TBv::Const(x, wx), TBv::Const(y, wy)) => {
                from_bits(Concrete.op(op, &bits(*x, *wx), &bits(*y, *wy)))
            }
            // x + 0, x - 0, x | 0, x ^ 0, shifts by 0: x.
            (_, TBv::Const(0, _))
                if matches!(
                    op,
                    BvOp::Add | BvOp::Sub | BvOp::Or | BvOp::Xor | BvOp::Shl | BvOp::LShr
                ) =>
            {
                a.clone()
            }
            _ => TBv::Expr(
                format!("({} {} {})", bv_text(a), symbol(op), bv_text(b)),
                w(a),
            ),
        }
    }
    fn not(&mut self, a: &TBv) -> TBv {
        match a {
            TBv::Const(v, wd) => from_bits(Concrete.not(&bits(*v, *wd))),
            TBv::Expr(s, wd) => TBv::Expr(format!("~{s}"), *wd),
        }
    }
    fn cmp(&mut self, op: CmpOp, a: &TBv, b: &TBv) -> TBool {
        if let (TBv::Const(x, wx), TBv::Const(y, wy)) = (a, b) {
            return TBool::Const(Concrete.cmp(op, &bits(*x, *wx), &bits(*y, *wy)));
        }
        let s = match op {
            CmpOp::Eq => "==",
            CmpOp::Ult => "<",
            CmpOp::Ule => "<=",
            CmpOp::Slt => "<s",
            CmpOp::Sle => "<=s",
        };
        TBool::Expr(format!("({} {s} {})", bv_text(a), bv_text(b)))
    }
    fn extract(&mut self, a: &TBv, hi: u32, lo: u32) -> TBv {
        match a {
            TBv::Const(v, wd) => from_bits(Concrete.extract(&bits(*v, *wd), hi, lo)),
            _ if lo == 0 && hi + 1 == w(a) => a.clone(),
            TBv::Expr(s, _) => TBv::Expr(format!("{s}[{hi}:{lo}]"), hi - lo + 1),
        }
    }
    fn concat(&mut self, hi: &TBv, lo: &TBv) -> TBv {
        match (hi, lo) {
            (TBv::Const(x, wx), TBv::Const(y, wy)) => {
                from_bits(Concrete.concat(&bits(*x, *wx), &bits(*y, *wy)))
            }
            _ => TBv::Expr(
                format!("{{ {}, {} }}", bv_text(hi), bv_text(lo)),
                w(hi) + w(lo),
            ),
        }
    }
    fn zext(&mut self, a: &TBv, by: u32) -> TBv {
        match a {
            TBv::Const(v, wd) => TBv::Const(*v, wd + by),
            TBv::Expr(s, wd) => TBv::Expr(s.clone(), wd + by),
        }
    }
    fn sext(&mut self, a: &TBv, by: u32) -> TBv {
        match a {
            TBv::Const(v, wd) => from_bits(Concrete.sext(&bits(*v, *wd), by)),
            TBv::Expr(s, wd) => TBv::Expr(format!("{s}.i{}", wd + by), wd + by),
        }
    }
    fn ite(&mut self, c: &TBool, a: &TBv, b: &TBv) -> TBv {
        match c {
            TBool::Const(true) => a.clone(),
            TBool::Const(false) => b.clone(),
            _ if a == b => a.clone(),
            TBool::Expr(s) => TBv::Expr(
                format!("({} ? {} : {})", strip_parens(s), bv_text(a), bv_text(b)),
                w(a),
            ),
        }
    }
    fn ite_bool(&mut self, c: &TBool, a: &TBool, b: &TBool) -> TBool {
        match c {
            TBool::Const(true) => a.clone(),
            TBool::Const(false) => b.clone(),
            _ if a == b => a.clone(),
            TBool::Expr(s) => TBool::Expr(format!("({s} ? {} : {})", bool_text(a), bool_text(b))),
        }
    }
    fn ite_mem(&mut self, c: &TBool, a: &String, b: &String) -> String {
        match c {
            TBool::Const(true) => a.clone(),
            TBool::Const(false) => b.clone(),
            _ if a == b => a.clone(),
            TBool::Expr(s) => format!("({s} ? {a} : {b})"),
        }
    }
    fn and(&mut self, a: &TBool, b: &TBool) -> TBool {
        match (a, b) {
            (TBool::Const(false), _) | (_, TBool::Const(false)) => TBool::Const(false),
            (TBool::Const(true), x) | (x, TBool::Const(true)) => x.clone(),
            (TBool::Expr(x), TBool::Expr(y)) => TBool::Expr(format!("({x} && {y})")),
        }
    }
    fn or(&mut self, a: &TBool, b: &TBool) -> TBool {
        match (a, b) {
            (TBool::Const(true), _) | (_, TBool::Const(true)) => TBool::Const(true),
            (TBool::Const(false), x) | (x, TBool::Const(false)) => x.clone(),
            (TBool::Expr(x), TBool::Expr(y)) => TBool::Expr(format!("({x} || {y})")),
        }
    }
    fn lnot(&mut self, a: &TBool) -> TBool {
        match a {
            TBool::Const(v) => TBool::Const(!v),
            TBool::Expr(s) => TBool::Expr(format!("!{s}")),
        }
    }
    fn known(&self, b: &TBool) -> Option<bool> {
        match b {
            TBool::Const(v) => Some(*v),
            TBool::Expr(_) => None,
        }
    }
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &TBv, b: &TBv) -> TBv {
        let name = match op {
            FpOp::Add => "add",
            FpOp::Sub => "sub",
            FpOp::Mul => "mul",
        };
        TBv::Expr(
            format!("fp_{name}({}, {})", bv_text(a), bv_text(b)),
            fmt.width(),
        )
    }
    fn fma(&mut self, fmt: FpFmt, a: &TBv, b: &TBv, c: &TBv) -> TBv {
        TBv::Expr(
            format!("fma({}, {}, {})", bv_text(a), bv_text(b), bv_text(c)),
            fmt.width(),
        )
    }
    fn load(&mut self, m: &String, addr: &TBv) -> TBv {
        TBv::Expr(format!("{m}[{}]", strip_parens(&bv_text(addr))), 8)
    }
    fn store(&mut self, m: &String, addr: &TBv, byte: &TBv) -> String {
        format!("{m}{{{} := {}}}", bv_text(addr), bv_text(byte))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold_and_known_conditions_pick_an_arm() {
        let mut d = Text;
        let x = Text::var("X", 32);
        let four = d.bv(4, 32);
        let two = d.bv(2, 32);
        let s = d.op(BvOp::Add, &x, &four);
        let q = d.op(BvOp::LShr, &s, &two);
        assert_eq!(Text::show(&q), "(X + 4) >> 2");
        let c = d.cmp(CmpOp::Eq, &two, &two);
        assert_eq!(d.ite(&c, &x, &four), x);
        let e = Text::flag("EXEC[1]");
        let t = d.ite(&e, &x, &four);
        assert_eq!(Text::show(&t), "EXEC[1] ? X : 4");
        // 0x10 + 0xff at 8 bits wraps as the interpreter computes it.
        let a = d.bv(0x10, 8);
        let b = d.bv(0xff, 8);
        assert_eq!(d.op(BvOp::Add, &a, &b), TBv::Const(0x0f, 8));
    }
}
