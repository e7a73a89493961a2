//! SCC, the scalar condition code, as one bit of state per block side.
//!
//! tv keeps SCC in the rule variable `%scc`, always 0 or 1 (the input is normalised where a side
//! starts), and declares the machine's own SCC (`verify`'s, which the SALU lines emitted here
//! also write) dead in every rule it lowers (`lower.rs`). Each SALU op that writes SCC per AMD's
//! pseudocode (AMD Vega ISA guide, SOP1/SOP2/SOPC/SOPK opcodes; the RDNA guides alike) sets it
//! with the modelled VALU compare of the condition (`v_cmp_* mask; v_cndmask_b32 0, 1;
//! v_readfirstlane_b32`: one lane, so the lane's bit is the condition), and each reader (the
//! `S_CSELECT_*` selects, the `S_CBRANCH_SCC*` terminators through the live-out compare)
//! reads it. SCC live into the block is a shared input; SCC live out of it (some path from the
//! block reads it before writing it, in either file: [`super::scc_live`]) must end equal.
//! An op that writes SCC without a modelled formula (`S_ADDC_U32`'s kin) leaves the block
//! `unsupported` when its SCC is read in the block or live out; an unmodelled instruction on
//! the uninterpreted path reads `%scc` as a compared input and writes a fresh shared value.

use super::emit::{dwords, imm_text, src, tuple, Side};
use super::mir::{Inst, OpKind, Operand};
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::BTreeSet;

/// The rule variable holding SCC.
pub const VAR: &str = "%scc";

/// Declare the machine's SCC dead in a lowered rule's `Dead:` registers. tv keeps SCC in
/// [`VAR`], written by formulas of its own and compared where it is live; `verify`'s SCC, which
/// the SALU lines tv emits (its scratch compares among them) also write, is then neither an
/// input nor compared, and tv's queries are the ones it asked before `verify` modelled SCC.
pub fn machine_scc_dead(dead_regs: &mut Vec<(String, crate::rules::Loc)>) {
    dead_regs.push(("scc".to_string(), crate::rules::Loc::default()));
}
/// Prefix of the scratch variables of SCC formulas (all declared dead).
pub const TEMP: &str = "scc_t";

/// Fresh scratch variables for one side.
pub struct Temps {
    target: Target,
    side: char,
    n: usize,
    /// Build conditions from SALU ops alone (`scc_scalar.rs`): the EXEC model.
    scalar: bool,
}

impl Temps {
    /// No scratch variables used yet. `side` (`b`, `a`) keeps the two sides' scratch variables
    /// apart: a rule variable is one register of both sides, and one side's VGPR scratch must
    /// not be the other's SGPR. `scalar`: the EXEC model, where no lane need be active.
    pub fn new(target: Target, side: char, scalar: bool) -> Self {
        Temps {
            target,
            side,
            n: 0,
            scalar,
        }
    }

    fn var(&mut self) -> String {
        self.n += 1;
        format!("%{TEMP}{}{}", self.side, self.n)
    }

    /// A fresh scratch variable (declared dead).
    pub fn fresh(&mut self) -> String {
        self.var()
    }

    /// A fresh 64-bit input of this side alone, named `%pc<side><n>` for the counterexample
    /// (`pcrel.rs`): the other side's names differ, so the two are independent.
    pub fn pc(&mut self) -> [String; 2] {
        self.n += 1;
        let r = format!("%pc{}{}", self.side, self.n);
        [format!("{r}_0"), format!("{r}_1")]
    }

    /// A lane mask: one SGPR on wave32, a pair on wave64.
    fn mask(&mut self) -> String {
        let t = self.var();
        if wave_size(self.target) == 64 {
            format!("{{{t}_0, {t}_1}}")
        } else {
            t
        }
    }

    fn scalar_lines(
        &mut self,
        f: impl FnOnce(&mut super::scc_scalar::Scalar) -> Result<(), String>,
    ) -> Result<Vec<String>, String> {
        let mut var = || self.var();
        let mut s = super::scc_scalar::Scalar {
            var: &mut var,
            out: Vec::new(),
        };
        f(&mut s)?;
        Ok(s.out)
    }

    /// `dst` (an SGPR or `%scc`) = 1 if the 32-bit compare `cmp a, b` holds in this lane, else 0.
    pub fn bool_of(
        &mut self,
        dst: &str,
        cmp: &str,
        a: &str,
        b: &str,
    ) -> Result<Vec<String>, String> {
        if self.scalar {
            let (a, b) = ([a.to_string()], [b.to_string()]);
            return self.scalar_lines(|s| s.bool_of(dst, cmp, &a, &b));
        }
        Ok(self.vector_bool(dst, cmp, a, b))
    }

    /// [`Temps::bool_of`] of a 64-bit compare (`v_cmp_ne_u64`, `v_cmp_lt_u64`).
    pub fn bool_of64(
        &mut self,
        dst: &str,
        cmp: &str,
        a: &[String; 2],
        b: &[String; 2],
    ) -> Result<Vec<String>, String> {
        if self.scalar {
            return self.scalar_lines(|s| s.bool_of(dst, cmp, a, b));
        }
        // A 64-bit zero is the inline constant 0, not a register pair.
        let text = |x: &[String; 2]| match x {
            [lo, hi] if lo == "0" && hi == "0" => "0".to_string(),
            _ => tuple(x),
        };
        Ok(self.vector_bool(dst, cmp, &text(a), &text(b)))
    }

    fn vector_bool(&mut self, dst: &str, cmp: &str, a: &str, b: &str) -> Vec<String> {
        let (m, v) = (self.mask(), self.var());
        vec![
            format!("{cmp} {m}, {a}, {b}"),
            format!("v_cndmask_b32 {v}, 0, 1, {m}"),
            format!("v_readfirstlane_b32 {dst}, {v}"),
        ]
    }

    /// `dst` = SCC ? `set` : `clear`.
    fn select(&mut self, dst: &str, set: &str, clear: &str) -> Vec<String> {
        if self.scalar {
            let lines = self.scalar_lines(|s| {
                s.select(dst, VAR, set, clear);
                Ok(())
            });
            return lines.unwrap_or_default();
        }
        let (m, v) = (self.mask(), self.var());
        vec![
            format!("v_cmp_ne_u32 {m}, 0, {VAR}"),
            format!("v_cndmask_b32 {v}, {clear}, {set}, {m}"),
            format!("v_readfirstlane_b32 {dst}, {v}"),
        ]
    }

    /// `%scc` = (`%scc` != 0): any input or fresh value as the bit it stands for.
    pub fn normalize(&mut self) -> Vec<String> {
        self.bool_of(VAR, "v_cmp_ne_u32", "0", VAR)
            .unwrap_or_default()
    }
}

/// How a modelled ALU op (the opcode table's or [`lower`]'s) sets SCC, per AMD's pseudocode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Formula {
    /// `SCC = D != 0` on a 32-bit result (logic ops, `S_LSHL_B32`, `S_BCNT1_I32_B64`).
    NonZero,
    /// `SCC = D.u64 != 0` (the 64-bit logic ops and `S_LSHL_B64`).
    NonZero64,
    /// `S_ADD_U32`: the carry out.
    Carry,
    /// `S_ADD_I32`: signed overflow.
    Overflow,
    /// `S_LSHL<N>_ADD_U32`: the carry out of `(S0 << N) + S1` taken at 64 bits.
    ShiftAddCarry(u8),
    /// Written by [`lower`] itself (compares), or not written (`S_BITSET*`, `S_CSELECT*`).
    Own,
}

fn formula(op: &str) -> Option<Formula> {
    let logic = |w: &str| {
        [
            "S_AND_", "S_OR_", "S_XOR_", "S_ANDN2_", "S_ORN2_", "S_NAND_", "S_NOR_", "S_XNOR_",
            "S_LSHL_",
        ]
        .iter()
        .any(|p| op.strip_prefix(p) == Some(w))
    };
    Some(match op {
        // The right shifts set SCC = (D != 0) too (AMD Vega ISA guide, S_LSHR_B32, S_ASHR_I32).
        _ if logic("B32") || matches!(op, "S_BCNT1_I32_B64" | "S_LSHR_B32" | "S_ASHR_I32") => {
            Formula::NonZero
        }
        _ if logic("B64") => Formula::NonZero64,
        "S_ADD_U32" => Formula::Carry,
        "S_ADD_I32" | "S_ADDK_I32" => Formula::Overflow,
        "S_LSHL1_ADD_U32" => Formula::ShiftAddCarry(1),
        "S_LSHL2_ADD_U32" => Formula::ShiftAddCarry(2),
        "S_LSHL3_ADD_U32" => Formula::ShiftAddCarry(3),
        "S_LSHL4_ADD_U32" => Formula::ShiftAddCarry(4),
        _ if is_scc_op(op) => Formula::Own,
        _ => return None,
    })
}

/// The ops this module lowers itself: compares, selects, bit set/test and the negated logic
/// ops (`S_ANDN2_B32` ...), none of which the opcode table has.
pub fn is_scc_op(op: &str) -> bool {
    super::scc_carry::handles(op)
        || cmp32(op).is_some()
        || cmpk(op).is_some()
        || matches!(
            op,
            "S_CMP_EQ_U64"
                | "S_CMP_LG_U64"
                | super::pcrel::OPCODE
                | "S_CSELECT_B32"
                | "S_CSELECT_B64"
                | "S_BITCMP0_B32"
                | "S_BITCMP1_B32"
                | "S_BITSET0_B32"
                | "S_BITSET1_B32"
                | "S_BITSET0_B64"
                | "S_BITSET1_B64"
        )
        || negated(op).is_some()
}

/// `S_CMP_{EQ,LG,GT,GE,LT,LE}_{I32,U32}` -> the VALU compare of the same relation.
fn cmp32(op: &str) -> Option<String> {
    let rest = op.strip_prefix("S_CMP_")?;
    let (rel, ty) = rest.split_once('_')?;
    let ty = match ty {
        "I32" => "i32",
        "U32" => "u32",
        _ => return None,
    };
    Some(format!("v_cmp_{}_{}", relation(rel)?, eq_unsigned(rel, ty)))
}

/// Equality does not depend on signedness, and the VALU has only `v_cmp_eq/ne_u32`'s
/// semantics entry: an `I32` equality compares as `u32` (AMD Vega ISA guide: S_CMP_EQ_I32 and
/// S_CMP_EQ_U32 are both `SCC = (S0 == S1)`).
fn eq_unsigned<'a>(rel: &str, ty: &'a str) -> &'a str {
    if matches!(rel, "EQ" | "LG") {
        "u32"
    } else {
        ty
    }
}

fn relation(rel: &str) -> Option<&'static str> {
    Some(match rel {
        "EQ" => "eq",
        "LG" => "ne",
        "GT" => "gt",
        "GE" => "ge",
        "LT" => "lt",
        "LE" => "le",
        _ => return None,
    })
}

/// `S_CMPK_*_{I32,U32} src, imm16`: (the compare, whether SIMM16 is sign-extended).
fn cmpk(op: &str) -> Option<(String, bool)> {
    let rest = op.strip_prefix("S_CMPK_")?;
    let (rel, ty) = rest.split_once('_')?;
    let (t, signed) = match ty {
        "I32" => ("i32", true),
        "U32" => ("u32", false),
        _ => return None,
    };
    Some((
        format!("v_cmp_{}_{}", relation(rel)?, eq_unsigned(rel, t)),
        signed,
    ))
}

/// The negated logic ops: (32-bit op of the first stage, whether the second source is
/// inverted first, whether the result is inverted), and the width in dwords.
fn negated(op: &str) -> Option<(&'static str, bool, bool, usize)> {
    let (base, n) = if let Some(b) = op.strip_suffix("_B32") {
        (b, 1)
    } else {
        (op.strip_suffix("_B64")?, 2)
    };
    let (m, inv_src, inv_res) = match base {
        "S_ANDN2" | "S_AND_NOT1" => ("s_and_b32", true, false),
        "S_ORN2" | "S_OR_NOT1" => ("s_or_b32", true, false),
        "S_NAND" => ("s_and_b32", false, true),
        "S_NOR" => ("s_or_b32", false, true),
        "S_XNOR" => ("s_xor_b32", false, true),
        _ => return None,
    };
    Some((m, inv_src, inv_res, n))
}

/// Whether `i` writes SCC (an `implicit-def $scc`, `dead` or not: a dead flag is the pass's
/// claim, which tv does not trust).
pub fn writes(i: &Inst) -> bool {
    i.ops
        .iter()
        .any(|o| is_scc(o) && (o.flags.implicit_def || o.flags.def))
}

/// Whether `i` reads SCC.
pub fn reads(i: &Inst) -> bool {
    i.ops
        .iter()
        .any(|o| is_scc(o) && !o.flags.implicit_def && !o.flags.def)
}

fn is_scc(o: &Operand) -> bool {
    matches!(&o.kind, OpKind::Phys(p) if p == "scc")
}

/// For each instruction of the side, whether the SCC it writes is read: by a later reader
/// before the next write, or at the block's end when SCC is live out.
pub fn used(insts: &[Inst], live_out: bool) -> Vec<bool> {
    let mut out = vec![false; insts.len()];
    let mut pending: Option<usize> = None;
    for (k, i) in insts.iter().enumerate() {
        if reads(i) {
            if let Some(w) = pending.take() {
                out[w] = true;
            }
        }
        if writes(i) {
            pending = Some(k);
        }
    }
    if let (Some(w), true) = (pending, live_out) {
        out[w] = true;
    }
    out
}

/// The 64-bit value of a source: its two dwords, or an immediate materialised in two scratch
/// SGPRs (as the hardware reads an inline constant or a literal below 2^31; other 32-bit
/// literals are refused as in [`super::wide`], and so is a value over 32 bits, which only
/// gfx1250 encodes and [`super::wide::encoded_after`] does not rewrite for these ops).
fn src64(
    side: &Side,
    o: &Operand,
    target: Target,
    t: &mut Temps,
    out: &mut Vec<String>,
) -> Result<[String; 2], String> {
    match o.kind {
        OpKind::Imm(v) => {
            if i32::try_from(v).is_err() && u32::try_from(v).is_err() {
                return Err(format!("the 64-bit literal {v} is not modelled"));
            }
            let h = super::wide::imm64(v, false)?;
            let r = t.var();
            let names = [format!("{r}_0"), format!("{r}_1")];
            for k in 0..2 {
                out.push(format!(
                    "s_mov_b32 {}, {}",
                    names[k],
                    imm_text(i64::from(h[k]))
                ));
            }
            Ok(names)
        }
        _ => match dwords(side, o, target)?.as_slice() {
            [lo, hi] => Ok([lo.clone(), hi.clone()]),
            _ => Err("a 64-bit source needs two dwords".into()),
        },
    }
}

fn uses(i: &Inst) -> Vec<&Operand> {
    i.uses().collect()
}

/// Lower one of the ops of [`is_scc_op`]; `Ok(None)` for any other opcode.
pub fn lower(
    side: &Side,
    i: &Inst,
    target: Target,
    t: &mut Temps,
) -> Result<Option<Vec<String>>, String> {
    let op = i.opcode.as_str();
    let u = uses(i);
    let arg = |k: usize| -> Result<&Operand, String> {
        u.get(k)
            .copied()
            .ok_or_else(|| "missing source".to_string())
    };
    let dst = || -> Result<Vec<String>, String> {
        dwords(side, i.defs.first().ok_or("missing definition")?, target)
    };
    let mut out = Vec::new();
    if let Some(cmp) = cmp32(op) {
        let (a, b) = (src(side, arg(0)?, target)?, src(side, arg(1)?, target)?);
        return Ok(Some(t.bool_of(VAR, &cmp, &a, &b)?));
    }
    if let Some((cmp, signed)) = cmpk(op) {
        let a = src(side, arg(0)?, target)?;
        let OpKind::Imm(v) = arg(1)?.kind else {
            return Err("expected the 16-bit immediate".into());
        };
        let ok = if signed {
            i16::try_from(v).is_ok()
        } else {
            u16::try_from(v).is_ok()
        };
        if !ok {
            return Err(format!("{v} does not fit SIMM16"));
        }
        return Ok(Some(t.bool_of(VAR, &cmp, &a, &imm_text(v))?));
    }
    match op {
        super::pcrel::OPCODE => out = super::pcrel::lower(side, i, target, t)?,
        _ if super::scc_carry::handles(op) => out = super::scc_carry::lower(side, i, target, t)?,
        "S_CMP_EQ_U64" | "S_CMP_LG_U64" => {
            // SOPC 64-bit compares exist from gfx8 on (AMD GCN3 ISA guide).
            if target.gen() < Gen::Gfx8 {
                return Err(format!("{op} does not exist on {target}"));
            }
            let a = src64(side, arg(0)?, target, t, &mut out)?;
            let b = src64(side, arg(1)?, target, t, &mut out)?;
            let cmp = if op == "S_CMP_EQ_U64" {
                "v_cmp_eq_u64"
            } else {
                "v_cmp_ne_u64"
            };
            out.extend(t.bool_of64(VAR, cmp, &a, &b)?);
        }
        "S_BITCMP0_B32" | "S_BITCMP1_B32" => {
            // SCC = (S0.u[S1.u[4:0]] == 0) resp. == 1: the bit by SALU shift and mask (no
            // VALU op: in the EXEC model lane L may be off, and SALU runs regardless).
            let (a, b) = (src(side, arg(0)?, target)?, src(side, arg(1)?, target)?);
            let (x, v) = (t.var(), t.var());
            out.push(format!("s_lshr_b32 {x}, {a}, {b}"));
            out.push(format!("s_and_b32 {v}, {x}, 1"));
            let cmp = if op == "S_BITCMP0_B32" {
                "v_cmp_eq_u32"
            } else {
                "v_cmp_ne_u32"
            };
            out.extend(t.bool_of(VAR, cmp, &v, "0")?);
        }
        "S_CSELECT_B32" => {
            let (a, b) = (src(side, arg(0)?, target)?, src(side, arg(1)?, target)?);
            let d = dst()?;
            let [d] = d.as_slice() else {
                return Err("a 32-bit result needs one dword".into());
            };
            out.extend(t.select(d, &a, &b));
        }
        "S_CSELECT_B64" => {
            let mut pre = Vec::new();
            let a = src64(side, arg(0)?, target, t, &mut pre)?;
            let b = src64(side, arg(1)?, target, t, &mut pre)?;
            out.extend(pre);
            let d = dst()?;
            if d.len() != 2 {
                return Err("a 64-bit result needs two dwords".into());
            }
            // Both halves select on the SCC read before either is written (a source may be the
            // destination).
            let s = [t.var(), t.var()];
            for k in 0..2 {
                out.extend(t.select(&s[k], &a[k], &b[k]));
            }
            for k in 0..2 {
                out.push(format!("s_mov_b32 {}, {}", d[k], s[k]));
            }
        }
        _ if op.starts_with("S_BITSET") => out.extend(bitset(side, i, target, t)?),
        _ => match negated(op) {
            Some(n) => out.extend(negated_lines(side, i, target, t, n)?),
            None => return Ok(None),
        },
    }
    Ok(Some(out))
}

/// `S_BITSET0/1_B32/B64 D, S0`: D.u[S0[4:0]] (B64: S0[5:0]) = 0 resp. 1; SCC is not written.
/// MIR: `D = S_BITSET0_B32 S0, D(tied)`.
fn bitset(side: &Side, i: &Inst, target: Target, t: &mut Temps) -> Result<Vec<String>, String> {
    let op = i.opcode.as_str();
    let u = uses(i);
    let (Some(bit), Some(old)) = (u.first(), u.get(1)) else {
        return Err("expected the bit and the tied destination".into());
    };
    let d = dwords(side, i.defs.first().ok_or("missing definition")?, target)?;
    let old = dwords(side, old, target)?;
    let n = if op.ends_with("_B64") { 2 } else { 1 };
    if d.len() != n || old.len() != n {
        return Err("the destination's width does not match".into());
    }
    let set = op.starts_with("S_BITSET1");
    let mut out = Vec::new();
    // The mask with the one bit, per dword.
    let mask: Vec<String> = match bit.kind {
        OpKind::Imm(v) => {
            let m = 1u64 << (v as u64 & (32 * n as u64 - 1));
            (0..n)
                .map(|k| imm_text(i64::from((m >> (32 * k)) as u32)))
                .collect()
        }
        _ if n == 1 => {
            let s = src(side, bit, target)?;
            let r = t.var();
            out.push(format!("s_lshl_b32 {r}, 1, {s}"));
            vec![r]
        }
        _ => {
            let s = src(side, bit, target)?;
            let r = t.var();
            out.push(format!("s_lshl_b64 {{{r}_0, {r}_1}}, 1, {s}"));
            vec![format!("{r}_0"), format!("{r}_1")]
        }
    };
    for k in 0..n {
        if set {
            out.push(format!("s_or_b32 {}, {}, {}", d[k], old[k], mask[k]));
        } else {
            let inv = t.var();
            out.push(format!("s_xor_b32 {inv}, {}, -1", mask[k]));
            out.push(format!("s_and_b32 {}, {}, {inv}", d[k], old[k]));
        }
    }
    Ok(out)
}

/// `S_ANDN2 S0 & ~S1`, `S_ORN2 S0 | ~S1`, `S_NAND ~(S0 & S1)`, `S_NOR ~(S0 | S1)`, `S_XNOR
/// ~(S0 ^ S1)`, per dword into scratch variables first (a source may be the destination);
/// SCC (`D != 0`) is set by [`write`].
fn negated_lines(
    side: &Side,
    i: &Inst,
    target: Target,
    t: &mut Temps,
    (m, inv_src, inv_res, n): (&str, bool, bool, usize),
) -> Result<Vec<String>, String> {
    let u = uses(i);
    let mut out = Vec::new();
    let mut srcs: Vec<Vec<String>> = Vec::new();
    for o in u.iter().take(2) {
        srcs.push(if n == 2 {
            src64(side, o, target, t, &mut out)?.to_vec()
        } else {
            vec![src(side, o, target)?]
        });
    }
    let d = dwords(side, i.defs.first().ok_or("missing definition")?, target)?;
    if srcs.len() != 2 || d.len() != n {
        return Err("expected two sources and a result of the op's width".into());
    }
    let res: Vec<String> = (0..n).map(|_| t.var()).collect();
    for k in 0..n {
        let mut b = srcs[1][k].clone();
        if inv_src {
            let x = t.var();
            out.push(format!("s_xor_b32 {x}, {b}, -1"));
            b = x;
        }
        out.push(format!("{m} {}, {}, {b}", res[k], srcs[0][k]));
        if inv_res {
            out.push(format!("s_xor_b32 {0}, {0}, -1", res[k]));
        }
    }
    for k in 0..n {
        out.push(format!("s_mov_b32 {}, {}", d[k], res[k]));
    }
    Ok(out)
}

/// The SCC lines of a lowered op that writes SCC: (before the op's own lines, after them).
/// `used`: something reads this SCC value ([`used`]); an op without a formula is refused then.
pub fn write(
    side: &Side,
    i: &Inst,
    target: Target,
    t: &mut Temps,
    used: bool,
) -> Result<(Vec<String>, Vec<String>), String> {
    let op = i.opcode.as_str();
    let f = formula(op);
    if f == Some(Formula::Own) || !writes(i) && f.is_none() {
        return Ok((Vec::new(), Vec::new()));
    }
    let Some(f) = f else {
        if used {
            return Err(format!("{op}: its SCC result is read and not modelled"));
        }
        return Ok((Vec::new(), Vec::new()));
    };
    let d = || dwords(side, i.defs.first().ok_or("missing definition")?, target);
    let u = uses(i);
    let two = || -> Result<(String, String), String> {
        match u.as_slice() {
            [a, b, ..] => Ok((src(side, a, target)?, src(side, b, target)?)),
            _ => Err("expected two sources".into()),
        }
    };
    let mut pre = Vec::new();
    let mut post = Vec::new();
    match f {
        Formula::NonZero => {
            let d = d()?;
            post = t.bool_of(VAR, "v_cmp_ne_u32", &d[0], "0")?;
        }
        Formula::NonZero64 => {
            let d = d()?;
            let [lo, hi] = d.as_slice() else {
                return Err("a 64-bit result needs two dwords".into());
            };
            post = t.bool_of64(
                VAR,
                "v_cmp_ne_u64",
                &[lo.clone(), hi.clone()],
                &["0".into(), "0".into()],
            )?;
        }
        Formula::Carry => {
            // The carry of a + b is (a + b mod 2^32) < a, computed before the op (the
            // destination may be a source).
            let (a, b) = two()?;
            let (sum, c) = (t.var(), t.var());
            pre.push(format!("s_add_u32 {sum}, {a}, {b}"));
            pre.extend(t.bool_of(&c, "v_cmp_lt_u32", &sum, &a)?);
            post.push(format!("s_mov_b32 {VAR}, {c}"));
        }
        Formula::Overflow => {
            // Signed overflow: a and b have one sign and the sum the other, i.e. the sign bit
            // of (a ^ sum) & (b ^ sum).
            let (a, b) = two()?;
            let (sum, x, y, c) = (t.var(), t.var(), t.var(), t.var());
            pre.push(format!("s_add_u32 {sum}, {a}, {b}"));
            pre.push(format!("s_xor_b32 {x}, {a}, {sum}"));
            pre.push(format!("s_xor_b32 {y}, {b}, {sum}"));
            pre.push(format!("s_and_b32 {x}, {x}, {y}"));
            pre.extend(t.bool_of(&c, "v_cmp_lt_i32", &x, "0")?);
            post.push(format!("s_mov_b32 {VAR}, {c}"));
        }
        Formula::ShiftAddCarry(n) => {
            // (a << n) + b >= 2^32 exactly when a bit of a is shifted out (a >> (32 - n) != 0)
            // or the 32-bit add of (a << n mod 2^32) and b carries (sum < a << n); computed
            // before the op, whose destination may be a source.
            let (a, b) = two()?;
            let (out, lo, sum) = (t.var(), t.var(), t.var());
            let (c1, c2, c) = (t.var(), t.var(), t.var());
            pre.push(format!("s_lshr_b32 {out}, {a}, {}", 32 - n));
            pre.push(format!("s_lshl_b32 {lo}, {a}, {n}"));
            pre.push(format!("s_add_u32 {sum}, {lo}, {b}"));
            pre.extend(t.bool_of(&c1, "v_cmp_lt_u32", &sum, &lo)?);
            pre.extend(t.bool_of(&c2, "v_cmp_ne_u32", &out, "0")?);
            pre.push(format!("s_or_b32 {c}, {c1}, {c2}"));
            post.push(format!("s_mov_b32 {VAR}, {c}"));
        }
        Formula::Own => {}
    }
    Ok((pre, post))
}

/// Whether instruction `n` of `side` is a wave-width SALU logic op (`S_AND_B64` on wave64,
/// `S_AND_B32` on wave32...) that may read a lane mask: the pair makes one (`vcmp`: a V_CMP or
/// V_CMPX on either side) or the op reads `$exec` / `$vcc` or a register the block made from
/// them. Its SCC (`mask != 0`) is a cross-lane value the one-lane model cannot compute: lane L
/// always runs and sees only its own bit, while the wave may run the block with EXEC = 0.
pub fn reads_mask(side: &Side, n: usize, target: Target, vcmp: bool) -> bool {
    let wave64 = super::emit::phys("exec", target).is_ok_and(|c| c.len() == 2);
    let suffix = if wave64 { "_B64" } else { "_B32" };
    let op = side.block.insts[n].opcode.as_str();
    let logic = [
        "S_AND_",
        "S_OR_",
        "S_XOR_",
        "S_ANDN2_",
        "S_ORN2_",
        "S_NAND_",
        "S_NOR_",
        "S_XNOR_",
        "S_NOT_",
        "S_AND_NOT1_",
        "S_OR_NOT1_",
    ];
    let is_logic = op
        .strip_suffix(suffix)
        .is_some_and(|p| logic.contains(&format!("{p}_").as_str()));
    if !is_logic {
        return false;
    }
    if vcmp {
        return true;
    }
    let key = |o: &Operand| -> Vec<String> {
        match &o.kind {
            OpKind::VReg { id, .. } => vec![format!("%{id}")],
            OpKind::Phys(p) if p.starts_with("exec") || p.starts_with("vcc") => {
                vec!["mask".to_string()]
            }
            OpKind::Phys(p) => super::emit::phys(p, target).unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    let mut tainted: BTreeSet<String> = BTreeSet::from(["mask".to_string()]);
    for i in &side.block.insts[..=n] {
        let reads = i
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
            .filter(|o| !(o.flags.implicit && matches!(&o.kind, OpKind::Phys(p) if p == "exec")))
            .any(|o| key(o).iter().any(|k| tainted.contains(k)));
        if std::ptr::eq(i, &side.block.insts[n]) {
            return reads;
        }
        if reads {
            for d in i
                .defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.implicit_def))
            {
                tainted.extend(key(d));
            }
        }
    }
    false
}
