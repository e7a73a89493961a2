//! Rule operand text: variables, immediate expressions and fields, and the register
//! operands of VALU/SALU instructions and scalar MUBUF operands (the lifter has no VALU/SALU
//! assembler; DS and MUBUF vector operands go through [`gcnsmt_lifter::parse_asm_with`]).

use super::op::Field;
use super::regkey::{Class, RegKey, VarUse};
use crate::rules::{InputError, Line, Loc, Rule};
use gcnsmt_lifter::asm::parse_reg;
use gcnsmt_lifter::RegFile;
use gcnsmt_semantics::eval::{eval_expr, Frame, MemState, Val};
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::parse::parse_expr;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::{BTreeMap, BTreeSet};

/// Every `%name` in a text.
pub fn collect_vars(text: &str, out: &mut BTreeSet<String>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 1 < b.len() && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') {
            let s = i + 1;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.insert(text[s..i].to_string());
        } else {
            i += 1;
        }
    }
}

pub(crate) fn loc_at(line: &Line, col: usize) -> Loc {
    Loc {
        line: line.loc.line,
        col: col as u32,
    }
}

/// Evaluate an immediate expression with no variables (for static range checks).
pub fn const_value(e: &Expr) -> Option<u128> {
    let mut d = gcnsmt_semantics::interp::Concrete;
    let frame = Frame::plain(Settings::default_for(Target::Gfx900));
    let mem = MemState::new(|_| gcnsmt_semantics::interp::CMem::new_wide(|_| 0), false);
    match eval_expr(
        &mut d,
        &frame,
        e,
        Some(Ty::Bits(Kind::U, 64)),
        BTreeMap::new(),
        mem,
    ) {
        Ok(Val::Bits(b, t)) if t.kind() != Some(Kind::I) || b.value >> (t.width() - 1) == 0 => {
            Some(b.value)
        }
        Ok(Val::Bits(b, t)) => Some(b.value | (u128::MAX << t.width())), // negative: out of range
        _ => None,
    }
}

/// One rule line being bound for one target: what its operands are parsed and checked
/// against, and where their errors point.
#[derive(Clone, Copy)]
pub(crate) struct LineCx<'a> {
    pub rule: &'a Rule,
    pub line: &'a Line,
    pub target: Target,
    /// The rule's immediate variables ([`super::immediate_vars`]).
    pub imms: &'a BTreeSet<String>,
    /// The mnemonic, lower case.
    pub mn: &'a str,
}

impl LineCx<'_> {
    /// An error at 1-based column `col` of the line.
    pub(crate) fn err(&self, col: usize, msg: impl Into<String>) -> InputError {
        self.rule.error(loc_at(self.line, col), msg)
    }

    /// The immediate expression `text` at column `col`. Errors: a register variable in it, a
    /// malformed expression.
    pub(crate) fn imm_expr(&self, text: &str, col: usize) -> Result<Expr, InputError> {
        let mut vars = BTreeSet::new();
        collect_vars(text, &mut vars);
        for v in &vars {
            if !self.imms.contains(v) {
                return Err(self.err(col, format!("%{v} is a register, not an immediate")));
            }
        }
        parse_expr(text).map_err(|e| {
            // Past the end (line 2 of a one-line text): point just after the text.
            let at = if e.line > 1 {
                text.len()
            } else {
                e.col as usize - 1
            };
            self.err(col + at, format!("bad immediate: {}", e.msg))
        })
    }

    /// The immediate field `name` (`offset`, values `0..=max`) written `text` at column `col`.
    /// Errors: as [`LineCx::imm_expr`], and a constant out of range.
    pub(crate) fn field(
        &self,
        name: &'static str,
        text: &str,
        col: usize,
        max: u64,
    ) -> Result<Field, InputError> {
        let expr = self.imm_expr(text, col)?;
        let mut vars = BTreeSet::new();
        collect_vars(text, &mut vars);
        if vars.is_empty() {
            match const_value(&expr) {
                Some(v) if v <= max as u128 => {}
                Some(_) => {
                    return Err(self.err(col, format!("{name}:{text} is out of range (0..={max})")))
                }
                None => return Err(self.err(col, format!("bad immediate `{text}`"))),
            }
        }
        Ok(Field {
            name,
            expr,
            max,
            loc: loc_at(self.line, col),
        })
    }

    /// The register operand `text` at column `col`, needing `count` dwords of `class`, for
    /// the operand `role` (in messages); variable uses are pushed to `uses`.
    pub(crate) fn regs(
        &self,
        text: &str,
        col: usize,
        count: u32,
        role: &str,
        class: Class,
        uses: &mut Vec<VarUse>,
    ) -> Result<Vec<RegKey>, InputError> {
        let mut op = RegOperand {
            cx: *self,
            at: loc_at(self.line, col),
            role,
            class,
            uses,
        };
        op.parse(text.trim(), count)
    }
}

/// What one register operand is parsed against: its line, role, position and class.
struct RegOperand<'a> {
    cx: LineCx<'a>,
    at: Loc,
    role: &'a str,
    class: Class,
    /// Where register-variable uses are recorded.
    uses: &'a mut Vec<VarUse>,
}

impl RegOperand<'_> {
    fn err(&self, msg: String) -> InputError {
        self.cx.rule.error(self.at, msg)
    }

    /// `t` (trimmed) as `count` dword keys: a `{...}` tuple, a `%variable`, a special register,
    /// an SGPR, or a VGPR/AGPR (tuple).
    fn parse(&mut self, t: &str, count: u32) -> Result<Vec<RegKey>, InputError> {
        if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            return self.tuple(inner, count);
        }
        if let Some(v) = t.strip_prefix('%') {
            return self.variable(t, v, count);
        }
        if let Some(keys) = self.special(t, count)? {
            return Ok(keys);
        }
        if let Some(keys) = self.sgpr(t, count)? {
            return Ok(keys);
        }
        self.vector(t, count)
    }

    /// Errors unless the class takes scalar registers (`what` names the one found).
    fn scalar_ok(&self, what: &str) -> Result<(), InputError> {
        if self.class.vector() {
            let (mn, role) = (self.cx.mn, self.role);
            Err(self.err(format!(
                "{mn} {role} needs {}, got {what}",
                self.class.name()
            )))
        } else {
            Ok(())
        }
    }

    /// `{a, b, ...}`: parts of equal width that together make `count` dwords, no key twice.
    fn tuple(&mut self, inner: &str, count: u32) -> Result<Vec<RegKey>, InputError> {
        let (mn, role) = (self.cx.mn, self.role);
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        let n = parts.len() as u32;
        if n == 0 || !count.is_multiple_of(n) {
            return Err(self.err(format!(
                "{mn} {role} needs {count} dwords; {n} parts do not divide it"
            )));
        }
        let mut out: Vec<RegKey> = Vec::new();
        for p in parts {
            let keys = self.parse(p, count / n)?;
            if keys.iter().any(|k| out.contains(k)) {
                return Err(self.err(format!("{mn} {role}: `{p}` appears twice in one tuple")));
            }
            out.extend(keys);
        }
        Ok(out)
    }

    /// `%v` (`t` with the `%`): a register variable of `count` dwords, recorded in `self.uses`.
    fn variable(&mut self, t: &str, v: &str, count: u32) -> Result<Vec<RegKey>, InputError> {
        if self.cx.imms.contains(v) {
            let (mn, role) = (self.cx.mn, self.role);
            return Err(self.err(format!(
                "%{v} is an immediate; {mn} needs a register for {role}"
            )));
        }
        if v.is_empty() || !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(self.err(format!("bad variable `{t}`")));
        }
        self.uses.push(VarUse {
            name: v.to_string(),
            class: self.class,
            dwords: count,
            loc: self.at,
        });
        Ok((0..count).map(|i| RegKey::var(v, i)).collect())
    }

    /// `m0`, `vcc`, `exec` and their halves, or `None` for any other text.
    fn special(&self, t: &str, count: u32) -> Result<Option<Vec<RegKey>>, InputError> {
        let (mn, role) = (self.cx.mn, self.role);
        let keys = match t {
            "m0" | "M0" => {
                self.scalar_ok("m0")?;
                if count != 1 {
                    return Err(self.err(format!("{mn} {role} needs {count} dwords, got m0")));
                }
                vec![RegKey::m0()]
            }
            "vcc" | "exec" => {
                self.scalar_ok(t)?;
                if count != 2 {
                    return Err(
                        self.err(format!("{mn} {role} needs {count} dword(s), got {t} (2)"))
                    );
                }
                (0..2).map(|i| scalar_key(t, i)).collect()
            }
            "vcc_lo" | "vcc_hi" | "exec_lo" | "exec_hi" => {
                self.scalar_ok(t)?;
                let (b, hi) = t.split_once('_').unwrap();
                if count != 1 {
                    return Err(self.err(format!("{mn} {role} needs {count} dwords, got {t}")));
                }
                vec![scalar_key(b, u32::from(hi == "hi"))]
            }
            _ => return Ok(None),
        };
        Ok(Some(keys))
    }

    /// `sN` or `s[A:B]`, or `None` for text that is not one.
    fn sgpr(&self, t: &str, count: u32) -> Result<Option<Vec<RegKey>>, InputError> {
        let Some(rest) = t.strip_prefix('s') else {
            return Ok(None);
        };
        let (first, last) =
            if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                let (a, b) = inner.split_once(':').unwrap_or((inner, inner));
                (a.trim().parse::<u32>().ok(), b.trim().parse::<u32>().ok())
            } else {
                (rest.parse::<u32>().ok(), rest.parse::<u32>().ok())
            };
        let (Some(a), Some(b)) = (first, last) else {
            return Ok(None);
        };
        self.scalar_ok(t)?;
        if b < a || b > 105 {
            return Err(self.err(format!("bad SGPR `{t}`")));
        }
        if b - a + 1 != count {
            let (mn, role) = (self.cx.mn, self.role);
            return Err(self.err(format!(
                "{mn} {role} needs {count} dword(s), got {t} ({})",
                b - a + 1
            )));
        }
        Ok(Some((a..=b).map(|i| scalar_key("s", i)).collect()))
    }

    /// A VGPR or AGPR (tuple) as the lifter's register parser reads it. Errors: not a register,
    /// the wrong class or width, AGPRs where not allowed, a misaligned tuple, out of range.
    fn vector(&self, t: &str, count: u32) -> Result<Vec<RegKey>, InputError> {
        let (mn, role, target, class) = (self.cx.mn, self.role, self.cx.target, self.class);
        let Some(tup) = parse_reg(t) else {
            return Err(self.err(format!("expected a register for {mn} {role}, found `{t}`")));
        };
        if class == Class::Sgpr {
            return Err(self.err(format!("{mn} {role} needs a scalar register, got {t}")));
        }
        if tup.count as u32 != count {
            return Err(self.err(format!(
                "{mn} {role} needs a {count}-register tuple, got {t} ({} register{})",
                tup.count,
                if tup.count == 1 { "" } else { "s" }
            )));
        }
        if tup.file == RegFile::A && class != Class::VgprOrAgpr {
            return Err(self.err(format!(
                "{mn} {role}: AGPRs are not allowed here on {target}"
            )));
        }
        if count > 1 && tup.first % 2 == 1 && target.needs_aligned_vgpr_tuples() {
            return Err(self.err(format!(
                "{mn} {role}: {t} is misaligned; {target} requires even-aligned register tuples"
            )));
        }
        if tup.first as u32 + count > 256 {
            return Err(self.err(format!("register `{t}` out of range")));
        }
        let base = if tup.file == RegFile::A { "a" } else { "v" };
        Ok((0..count)
            .map(|i| RegKey {
                base: base.into(),
                idx: tup.first as u32 + i,
                lane: None,
            })
            .collect())
    }
}

/// Dword `idx` of a scalar register file or special register (`s`, `vcc`, `exec`).
fn scalar_key(base: &str, idx: u32) -> RegKey {
    RegKey {
        base: base.into(),
        idx,
        lane: None,
    }
}
