//! Bit-precise taint of the ops whose result bits each depend on known source bits
//! (`taint.rs`): bitwise ops, shifts and bit-field extracts by constants, moves, copies and
//! register sequences (dword by dword), packs and 16-bit halves, and selects whose condition is
//! untainted. A mask bit set means the bit may depend on an uninterpreted or undefined value.
//!
//! Each rule follows from the op's definition in AMD's ISA guides (RDNA3 / CDNA3, "Scalar ALU"
//! and "Vector ALU" operations): `D = S0 & S1` has bit k from bit k of each source, so it is
//! tainted where either source's bit k is (and clean where an immediate AND clears it or an
//! immediate OR sets it); `D = S0 << S1[4:0]` moves source bit k to k + S1; `S_BFE_U32` is
//! `(S0 >> offset) & ((1 << width) - 1)`; a select takes each bit from one source, so its
//! result bit is tainted only where a source's is, as long as the condition is untainted.
//! Anything else (an add: carries move taint up; a register shift amount; modifiers) is not
//! answered here and gets the whole-value rule.

use super::emit::{self, Side};
use super::half16;
use super::mir::{Inst, OpKind, Operand};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeMap;

/// Tainted bits of each 32-bit rule cell of one side (absent: clean).
pub type Masks = BTreeMap<String, u32>;

/// Every bit.
pub const ALL: u32 = u32::MAX;

/// The mask of a cell (0 when it was never tainted).
pub fn get(m: &Masks, cell: &str) -> u32 {
    m.get(cell).copied().unwrap_or(0)
}

/// What an instruction's destination cells get: a strong update of whole cells, or one
/// 16-bit half of a cell (the other half keeps its mask).
pub enum Update {
    /// (cell, its new mask) for each explicit destination cell.
    Cells(Vec<(String, u32)>),
    /// (cell, high half?, the half's new 16-bit mask).
    Half(String, bool, u32),
}

/// A source operand: an immediate, or a register's cells' masks.
enum Src {
    Imm(u32),
    Reg(Vec<u32>),
}

impl Src {
    /// The masks of `n` dwords (an immediate: clean; a register of another width: `None`).
    fn masks(&self, n: usize) -> Option<Vec<u32>> {
        match self {
            Src::Imm(_) => Some(vec![0; n]),
            Src::Reg(m) => (m.len() == n).then(|| m.clone()),
        }
    }
    fn one(&self) -> Option<u32> {
        self.masks(1).map(|m| m[0])
    }
}

/// One instruction's context: its side, the target and the side's masks so far.
pub struct Cx<'a> {
    pub side: &'a Side<'a>,
    pub target: Target,
    pub masks: &'a Masks,
}

impl Cx<'_> {
    fn src(&self, o: &Operand) -> Option<Src> {
        match &o.kind {
            // A 32-bit op reads an immediate's low 32 bits.
            OpKind::Imm(v) => Some(Src::Imm(*v as u32)),
            OpKind::VReg { .. } | OpKind::Phys(_) if !half16::is16(self.side, o) => {
                let cells = emit::dwords(self.side, o, self.target).ok()?;
                Some(Src::Reg(cells.iter().map(|c| get(self.masks, c)).collect()))
            }
            _ => None,
        }
    }

    /// The explicit destination's cells (one full register, not a half).
    fn dest(&self, i: &Inst) -> Option<Vec<String>> {
        let d = i.defs.first()?;
        if i.defs.len() != 1 || half16::is16(self.side, d) {
            return None;
        }
        emit::dwords(self.side, d, self.target).ok()
    }
}

/// The update of `i`'s destination, when `i` is one of the ops this module knows and its
/// operands have the expected shape; `None`: the whole-value rule. `clean(o)`: operand `o`
/// (an implicit use, a select's condition) is untainted; every operand that is not a data
/// source must be.
pub fn update(cx: &Cx, i: &Inst, clean: &dyn Fn(&Operand) -> bool) -> Option<Update> {
    let implicit_clean = i
        .ops
        .iter()
        .filter(|o| o.flags.implicit && !o.flags.implicit_def && !o.flags.def)
        .all(clean);
    if !implicit_clean {
        return None;
    }
    if half16::handles(cx.side, i) {
        return halves(cx, i);
    }
    let uses: Vec<&Operand> = i.uses().collect();
    let op = i.opcode.as_str();
    let base = op
        .strip_suffix("_e32")
        .or_else(|| op.strip_suffix("_e64"))
        .unwrap_or(op);
    let d = cx.dest(i)?;
    if matches!(base, "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG") {
        return sequence(cx, i, &uses, d).map(Update::Cells);
    }
    let srcs: Vec<Src> = uses.iter().map(|o| cx.src(o)).collect::<Option<Vec<_>>>()?;
    let n = d.len();
    let out: Vec<u32> = match (base, srcs.as_slice()) {
        ("COPY" | "S_MOV_B32" | "V_MOV_B32" | "S_MOV_B64" | "V_READFIRSTLANE_B32", [s]) => {
            s.masks(n)?
        }
        ("S_NOT_B32" | "V_NOT_B32" | "S_NOT_B64", [s]) => s.masks(n)?,
        (b, [x, y]) if bitwise2(b) => {
            let (mx, my) = (x.masks(n)?, y.masks(n)?);
            let mut out: Vec<u32> = mx.iter().zip(&my).map(|(a, b)| a | b).collect();
            // An immediate AND clears, an immediate OR sets, bits whatever the other source.
            if n == 1 {
                for (s, other) in [(x, my[0]), (y, mx[0])] {
                    if let Src::Imm(c) = s {
                        match b {
                            "S_AND_B32" | "V_AND_B32" => out[0] = other & c,
                            "S_OR_B32" | "V_OR_B32" => out[0] = other & !c,
                            _ => {}
                        }
                    }
                }
            }
            out
        }
        ("V_OR3_B32" | "V_XOR3_B32" | "V_AND_OR_B32" | "V_BFI_B32", [x, y, z]) if n == 1 => {
            vec![x.one()? | y.one()? | z.one()?]
        }
        ("S_LSHL_B32", [x, Src::Imm(s)]) | ("V_LSHLREV_B32", [Src::Imm(s), x]) if n == 1 => {
            vec![x.one()? << (s & 31)]
        }
        ("S_LSHR_B32", [x, Src::Imm(s)]) | ("V_LSHRREV_B32", [Src::Imm(s), x]) if n == 1 => {
            vec![x.one()? >> (s & 31)]
        }
        // The sign bit is copied into the vacated bits: its taint with it.
        ("S_ASHR_I32", [x, Src::Imm(s)]) | ("V_ASHRREV_I32", [Src::Imm(s), x]) if n == 1 => {
            vec![((x.one()? as i32) >> (s & 31)) as u32]
        }
        ("S_BFE_U32" | "S_BFE_I32", [x, Src::Imm(f)]) if n == 1 => {
            // S1[4:0] is the offset, S1[22:16] the width.
            vec![bfe(
                x.one()?,
                f & 31,
                (f >> 16) & 0x7f,
                base == "S_BFE_I32",
            )?]
        }
        ("V_BFE_U32" | "V_BFE_I32", [x, Src::Imm(o), Src::Imm(w)]) if n == 1 => {
            vec![bfe(x.one()?, o & 31, w & 31, base == "V_BFE_I32")?]
        }
        ("S_SEXT_I32_I8", [x]) if n == 1 => vec![bfe(x.one()?, 0, 8, true)?],
        ("S_SEXT_I32_I16", [x]) if n == 1 => vec![bfe(x.one()?, 0, 16, true)?],
        ("S_PACK_LL_B32_B16", [x, y]) if n == 1 => vec![(x.one()? & 0xffff) | (y.one()? << 16)],
        ("S_PACK_LH_B32_B16", [x, y]) if n == 1 => {
            vec![(x.one()? & 0xffff) | (y.one()? & 0xffff_0000)]
        }
        ("S_PACK_HL_B32_B16", [x, y]) if n == 1 => vec![(x.one()? >> 16) | (y.one()? << 16)],
        ("S_PACK_HH_B32_B16", [x, y]) if n == 1 => {
            vec![(x.one()? >> 16) | (y.one()? & 0xffff_0000)]
        }
        ("S_CSELECT_B32" | "S_CSELECT_B64" | "V_CNDMASK_B32", [x, y]) => {
            // The condition (SCC, VCC) is an implicit use, checked clean above.
            x.masks(n)?
                .iter()
                .zip(&y.masks(n)?)
                .map(|(a, b)| a | b)
                .collect()
        }
        ("V_CNDMASK_B32", [Src::Imm(0), x, Src::Imm(0), y, _])
            if op.ends_with("_e64") && n == 1 && clean(uses[4]) =>
        {
            vec![x.one()? | y.one()?]
        }
        _ => return None,
    };
    Some(Update::Cells(d.into_iter().zip(out).collect()))
}

/// `sub0` -> [0]; `sub2_sub3` -> [2, 3] (the dwords a sub-register index names).
fn sub_indices(s: &str) -> Option<Vec<usize>> {
    s.split('_')
        .map(|p| p.strip_prefix("sub").and_then(|d| d.parse().ok()))
        .collect()
}

/// REG_SEQUENCE (each part's dwords into the indexed dwords), INSERT_SUBREG (the base's
/// dwords, then the part's) and EXTRACT_SUBREG (the indexed dwords), as the lowering moves
/// them dword by dword.
fn sequence(cx: &Cx, i: &Inst, uses: &[&Operand], d: Vec<String>) -> Option<Vec<(String, u32)>> {
    // A dword no part writes keeps the value (and mask) it had.
    let mut out: Vec<u32> = d.iter().map(|c| get(cx.masks, c)).collect();
    let masks = |o: &Operand| match cx.src(o)? {
        Src::Reg(m) => Some(m),
        Src::Imm(_) => None,
    };
    let index = |o: &Operand| match &o.kind {
        OpKind::SubIdx(x) => sub_indices(x),
        _ => None,
    };
    let parts: &[&Operand] = match i.opcode.as_str() {
        "EXTRACT_SUBREG" => {
            let [s, x] = uses else { return None };
            let (m, k) = (masks(s)?, index(x)?);
            let picked: Option<Vec<u32>> = k.iter().map(|k| m.get(*k).copied()).collect();
            let picked = picked?;
            return (picked.len() == d.len()).then(|| d.into_iter().zip(picked).collect());
        }
        "INSERT_SUBREG" => {
            let base = masks(uses.first()?)?;
            if base.len() != d.len() {
                return None;
            }
            out = base;
            &uses[1..]
        }
        _ => uses,
    };
    for pair in parts.chunks(2) {
        let [s, x] = pair else { return None };
        let (m, k) = (masks(s)?, index(x)?);
        if m.len() != k.len() {
            return None;
        }
        for (k, m) in k.iter().zip(m) {
            *out.get_mut(*k)? = m;
        }
    }
    Some(d.into_iter().zip(out).collect())
}

/// The two-source bitwise ops (each result bit from the sources' same bit).
fn bitwise2(b: &str) -> bool {
    let ops = [
        "AND", "OR", "XOR", "XNOR", "NAND", "NOR", "ANDN2", "ORN2", "AND_NOT1", "OR_NOT1",
    ];
    let scalar = |w: &str| ops.iter().any(|o| b == format!("S_{o}_{w}").as_str());
    scalar("B32")
        || scalar("B64")
        || matches!(b, "V_AND_B32" | "V_OR_B32" | "V_XOR_B32" | "V_XNOR_B32")
}

/// The mask of a bit-field extract of `width` bits at `offset`, sign-extended if `signed`:
/// `None` for the edge cases (width 0, or a field past bit 31) the whole-value rule takes.
fn bfe(m: u32, offset: u32, width: u32, signed: bool) -> Option<u32> {
    if width == 0 || offset + width > 32 {
        return None;
    }
    let field = if width == 32 {
        m
    } else {
        (m >> offset) & ((1u32 << width) - 1)
    };
    let top = field >> (width - 1) & 1 != 0;
    Some(if signed && top && width < 32 {
        field | !((1u32 << width) - 1)
    } else {
        field
    })
}

/// The 16-bit mask of half `h` of its cell.
fn half_mask(cx: &Cx, h: &half16::Half) -> u32 {
    let m = get(cx.masks, &h.cell);
    if h.hi {
        m >> 16
    } else {
        m & 0xffff
    }
}

/// Copies between halves, half-built cells and True16 ops (`half16.rs`): a half moved keeps its
/// mask; bits 31:16 a widening copy or a REG_SEQUENCE without `hi16` leaves undefined are
/// tainted; a True16 op's result half is tainted if any source half is.
fn halves(cx: &Cx, i: &Inst) -> Option<Update> {
    let (side, t) = (cx.side, cx.target);
    let d = i.defs.first()?;
    let uses: Vec<&Operand> = i.uses().collect();
    match i.opcode.as_str() {
        "COPY" => {
            let s = half16::half(side, uses.first()?, t).ok()?;
            let m = half_mask(cx, &s);
            if half16::is16(side, d) {
                let dh = half16::half(side, d, t).ok()?;
                return Some(Update::Half(dh.cell, dh.hi, m));
            }
            let [c] = emit::dwords(side, d, t).ok()?.try_into().ok()?;
            Some(Update::Cells(vec![(c, m | 0xffff_0000)]))
        }
        "REG_SEQUENCE" => {
            let [c] = emit::dwords(side, d, t).ok()?.try_into().ok()?;
            // A half no part writes keeps the cell's old value: undefined.
            let (mut lo, mut hi) = (0xffffu32, 0xffffu32);
            for pair in uses.chunks(2) {
                let [s, x] = pair else { return None };
                let OpKind::SubIdx(x) = &x.kind else {
                    return None;
                };
                let m = half_mask(cx, &half16::half(side, s, t).ok()?);
                match x.as_str() {
                    "lo16" => lo = m,
                    "hi16" => hi = m,
                    _ => return None,
                }
            }
            Some(Update::Cells(vec![(c, lo | hi << 16)]))
        }
        op if op.ends_with("_t16_e64") => {
            let dh = half16::half(side, d, t).ok()?;
            let mut any = false;
            for o in &uses {
                match &o.kind {
                    OpKind::Imm(_) => {}
                    _ => any |= half_mask(cx, &half16::half(side, o, t).ok()?) != 0,
                }
            }
            Some(Update::Half(dh.cell, dh.hi, if any { 0xffff } else { 0 }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_extracts_move_the_field_and_its_sign() {
        // Bits 31:16 tainted; bits 23:16 as the field: all 8 tainted, the rest clean.
        assert_eq!(bfe(0xffff_0000, 16, 8, false), Some(0xff));
        // Bits 7:0 of the same value: clean.
        assert_eq!(bfe(0xffff_0000, 0, 8, false), Some(0));
        // A signed field whose top bit (bit 15) is tainted spreads into bits 31:8.
        assert_eq!(bfe(0x0000_8000, 8, 8, true), Some(0xffff_ff80));
        assert_eq!(bfe(0x0000_8000, 8, 8, false), Some(0x80));
        // Width 0 and a field past bit 31 are left to the whole-value rule.
        assert_eq!(bfe(1, 0, 0, false), None);
        assert_eq!(bfe(1, 20, 16, false), None);
    }

    #[test]
    fn only_bitwise_ops_take_the_union() {
        for op in [
            "S_XOR_B32",
            "S_AND_NOT1_B64",
            "S_ORN2_B32",
            "V_XOR_B32",
            "V_AND_B32",
        ] {
            assert!(bitwise2(op), "{op}");
        }
        for op in [
            "S_ADD_U32",
            "V_ADD_U32",
            "S_LSHL_B32",
            "V_XAD_U32",
            "S_AND_SAVEEXEC_B64",
        ] {
            assert!(!bitwise2(op), "{op}");
        }
    }
}
