//! 16-bit register halves (gfx11+ True16): MIR `vgpr_16` registers, the sub-registers `lo16` /
//! `hi16` of a 32-bit register, physical `$vgpr0_lo16` / `$vgpr0_hi16`, and the `_t16` VALU ops
//! that read and write them.
//!
//! One register file: a half is bits 15:0 (`lo16`) or 31:16 (`hi16`) of the 32-bit cell that
//! names the whole register (LLVM `SIRegisterInfo.td`: `VGPR_32` registers are made of the
//! 16-bit `VGPR_LO16`/`VGPR_HI16` sub-registers `lo16`/`hi16`; the same for SGPRs). A virtual
//! `vgpr_16` register is the low half of its own cell `%rN_0` (a virtual register is abstract;
//! only its 16 bits are ever read). A 16-bit write keeps the other half (AMD RDNA3 ISA guide,
//! VOP3 OPSEL: a 16-bit result is written to the half op_sel[3] picks, the other half is
//! preserved), so every write here is a `v_mov_b16` / True16 op with `op_sel` naming the halves,
//! or for an SGPR destination an `s_pack_*_b32_b16` that rebuilds the cell from its halves.
//!
//! A COPY that widens (a 32-bit destination from a half) defines bits 15:0 only; bits 31:16 keep
//! the destination cell's old value, an unconstrained input, which is one of the values the
//! hardware may leave there (so a proof holds for all of them), while a refutation that rests on
//! those bits is `unknown` ([`partial_def`] feeds `taint.rs`).

use super::emit::{self, class_bank, class_dwords, Side};
use super::mir::{Inst, OpKind, Operand};
use gcnsmt_semantics::target::Target;

/// One 16-bit half: the 32-bit cell (rule variable or register) and whether it is bits 31:16.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Half {
    /// The cell's rule name (`%r5_0`, `v0`, `%phys_v0`).
    pub cell: String,
    /// The high half.
    pub hi: bool,
    /// `v` or `s`.
    pub bank: char,
}

/// Whether a register class is 16 bits wide (`vgpr_16`, `vgpr_16_lo128`).
pub fn class16(cls: &str) -> bool {
    cls.split('_')
        .skip(1)
        .find_map(|p| p.parse::<u32>().ok())
        .is_some_and(|b| b == 16)
}

/// The rule cells a register class takes: its dwords, or one cell for a 16-bit class.
pub fn class_cells(cls: &str) -> Option<u32> {
    class_dwords(cls).or(class16(cls).then_some(1))
}

/// Whether operand `o` names a 16-bit half by itself (not a 32-bit register read in a 16-bit
/// slot).
pub fn is16(side: &Side, o: &Operand) -> bool {
    match &o.kind {
        OpKind::VReg { id, sub } => {
            matches!(sub.as_deref(), Some("lo16" | "hi16"))
                || sub.is_none() && side.classes.get(id).is_some_and(|c| class16(c))
        }
        OpKind::Phys(p) => p.ends_with("_lo16") || p.ends_with("_hi16"),
        _ => false,
    }
}

/// The half a register operand names; a 32-bit register (no sub-register) read in a 16-bit
/// slot is its low half (the VOP3 16-bit source without op_sel).
pub fn half(side: &Side, o: &Operand, target: Target) -> Result<Half, String> {
    match &o.kind {
        OpKind::VReg { id, sub } => {
            let cls = side
                .classes
                .get(id)
                .ok_or_else(|| format!("%{id} has no register class"))?;
            let hi = match sub.as_deref() {
                None => false,
                Some("lo16") => false,
                Some("hi16") => true,
                Some(s) => return Err(format!("sub-register {s} of a 16-bit operand")),
            };
            let ok = if sub.is_some() {
                class_dwords(cls) == Some(1)
            } else {
                class16(cls) || class_dwords(cls) == Some(1)
            };
            if !ok {
                return Err(format!("%{id} of class {cls} as a 16-bit operand"));
            }
            let bank = match class_bank(cls) {
                'a' => 'v',
                b => b,
            };
            Ok(Half {
                cell: format!("%r{id}_0"),
                hi,
                bank,
            })
        }
        OpKind::Phys(p) => {
            let (base, hi) = match (p.strip_suffix("_lo16"), p.strip_suffix("_hi16")) {
                (Some(b), _) => (b, false),
                (_, Some(b)) => (b, true),
                _ => (p.as_str(), false),
            };
            if !(base.starts_with("vgpr") || base.starts_with("sgpr")) {
                return Err(format!("${p} as a 16-bit operand is not modelled"));
            }
            let whole = Operand {
                kind: OpKind::Phys(base.to_string()),
                ..o.clone()
            };
            let cells = emit::dwords(side, &whole, target)?;
            let [cell] = cells.as_slice() else {
                return Err(format!("${p} is not one 32-bit register"));
            };
            Ok(Half {
                cell: cell.clone(),
                hi,
                bank: if base.starts_with("vgpr") { 'v' } else { 's' },
            })
        }
        other => Err(format!("expected a 16-bit register, found {other:?}")),
    }
}

/// The rule cells of a register operand naming a half (for the taint analysis).
pub fn cells(side: &Side, o: &Operand, target: Target) -> Option<Vec<String>> {
    is16(side, o).then(|| half(side, o, target).ok().map(|h| vec![h.cell]))?
}

/// Whether `i` is lowered here: a True16 op or a copy pseudo with a 16-bit operand or index.
pub fn handles(side: &Side, i: &Inst) -> bool {
    if i.opcode.contains("_t16") || i.opcode.contains("_fake16") {
        return true;
    }
    matches!(
        i.opcode.as_str(),
        "COPY" | "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG"
    ) && i.ops.iter().any(|o| {
        is16(side, o) || matches!(&o.kind, OpKind::SubIdx(s) if s == "lo16" || s == "hi16")
    })
}

fn bit(b: bool) -> u8 {
    u8::from(b)
}

/// `d`'s half `dh` := `s` (a VGPR destination: `v_mov_b16`, the other half kept).
fn mov16(d: &str, dh: bool, s: &Half) -> String {
    format!(
        "v_mov_b16 {d}, {} op_sel:[{},{}]",
        s.cell,
        bit(s.hi),
        bit(dh)
    )
}

/// SGPR cell `d`'s half `dh` := SGPR half `s`, the other half of `d` kept (S_PACK_xy puts
/// S0's half x in bits 15:0 and S1's half y in bits 31:16).
fn pack16(d: &str, dh: bool, s: &Half) -> String {
    match (dh, s.hi) {
        (false, false) => format!("s_pack_lh_b32_b16 {d}, {}, {d}", s.cell),
        (false, true) => format!("s_pack_hh_b32_b16 {d}, {}, {d}", s.cell),
        (true, false) => format!("s_pack_ll_b32_b16 {d}, {d}, {}", s.cell),
        (true, true) => format!("s_pack_lh_b32_b16 {d}, {d}, {}", s.cell),
    }
}

/// The one 32-bit cell of a destination register that is not a half.
fn cell32(side: &Side, d: &Operand, target: Target) -> Result<(String, char), String> {
    let cells = emit::dwords(side, d, target)?;
    let [c] = cells.as_slice() else {
        return Err("a 16-bit part of a register wider than 32 bits is not modelled".into());
    };
    let bank = if emit::is_vgpr_dest(side, d) {
        'v'
    } else {
        's'
    };
    Ok((c.clone(), bank))
}

/// Write half `dh` of cell `d` (bank `db`) from `s`.
fn write(d: &str, db: char, dh: bool, s: &Half) -> Result<Vec<String>, String> {
    match (db, s.bank) {
        ('v', _) => Ok(vec![mov16(d, dh, s)]),
        ('s', 's') => Ok(vec![pack16(d, dh, s)]),
        // A VGPR half into an SGPR: the first lane's 32 bits, then its half in place
        // (`firstlane.rs` renames the source to the first lane's copy when it is not uniform).
        ('s', _) if !dh => {
            let mut out = vec![format!("v_readfirstlane_b32 {d}, {}", s.cell)];
            if s.hi {
                out.push(format!("s_pack_hh_b32_b16 {d}, {d}, {d}"));
            }
            Ok(out)
        }
        _ => Err("a VGPR half into an SGPR high half is not modelled".into()),
    }
}

/// The first VGPR-to-SGPR copy of a 16-bit half in `side` whose source is not uniform by
/// construction (`firstlane.rs` reads lane F's copy of it), as `file:line:col`: a refutation
/// of the block is then kept only where it holds with F = L (`lanef.rs`), since LLVM bases
/// si-fix-sgpr-copies' per-lane rewrite of such a copy on its source being uniform.
pub fn nonuniform_read(side: &Side, target: Target) -> Option<String> {
    side.block.insts.iter().enumerate().find_map(|(n, i)| {
        let half = i.opcode == "COPY"
            && super::firstlane::to_sgpr_copy(side, i)
            && i.uses().next().is_some_and(|s| is16(side, s));
        (half && !super::firstlane::uniform_at(side, i, n, target))
            .then(|| super::lower::at(side, i))
    })
}

/// The rule lines of `i` (one [`handles`] accepts).
pub fn lower(side: &Side, i: &Inst, target: Target) -> Result<Vec<String>, String> {
    let uses: Vec<&Operand> = i.uses().collect();
    let d = i.defs.first().ok_or("missing definition")?;
    match i.opcode.as_str() {
        "COPY" => {
            let s = uses.first().ok_or("missing source")?;
            if !is16(side, s) {
                return Err("a COPY of a 32-bit register into a 16-bit one is not modelled".into());
            }
            let s = half(side, s, target)?;
            if is16(side, d) {
                let dh = half(side, d, target)?;
                if dh.bank != 'v' {
                    return Err("a copy into an SGPR half is not modelled".into());
                }
                return write(&dh.cell, 'v', dh.hi, &s);
            }
            // A 32-bit destination from a half: bits 15:0 (see the module comment).
            let (c, b) = cell32(side, d, target)?;
            write(&c, b, false, &s)
        }
        "REG_SEQUENCE" => {
            let (c, b) = cell32(side, d, target)?;
            let mut out = Vec::new();
            for pair in uses.chunks(2) {
                let [s, idx] = pair else {
                    return Err("operands do not come in (register, index) pairs".into());
                };
                let hi = match &idx.kind {
                    OpKind::SubIdx(x) if x == "lo16" => false,
                    OpKind::SubIdx(x) if x == "hi16" => true,
                    _ => return Err("a REG_SEQUENCE mixing 16-bit and other indices".into()),
                };
                if !is16(side, s) {
                    return Err("a 32-bit register as a 16-bit REG_SEQUENCE part".into());
                }
                let h = half(side, s, target)?;
                // Not routed through `firstlane.rs`: a VGPR part of an SGPR would be lane L's.
                if b == 's' && h.bank == 'v' {
                    return Err("a VGPR half as part of an SGPR reads the first lane".into());
                }
                out.extend(write(&c, b, hi, &h)?);
            }
            Ok(out)
        }
        op if op.ends_with("_t16_e64") => alu(side, i, &uses, target),
        op => Err(format!("{op} with 16-bit operands is not modelled")),
    }
}

/// A True16 VOP3 op: `src0_modifiers, src0, [src1_modifiers, src1,] [clamp,] op_sel` (llc-22),
/// the halves given by the registers. Modifiers, clamp and the op_sel immediate must be 0.
fn alu(side: &Side, i: &Inst, uses: &[&Operand], target: Target) -> Result<Vec<String>, String> {
    let Some(super::opcodes::MirOp::Alu {
        mnemonic,
        srcs,
        trailing,
        ..
    }) = super::opcodes::lookup(target, &i.opcode)
    else {
        return Err("not modelled".into());
    };
    let (srcs, n) = (srcs as usize, 2 * srcs as usize + trailing as usize);
    if uses.len() != n {
        return Err(format!("expected {n} operands, found {}", uses.len()));
    }
    let zero = |o: &Operand| matches!(o.kind, OpKind::Imm(0));
    if !uses.iter().step_by(2).take(srcs).all(|o| zero(o)) {
        return Err("source modifiers of a True16 op are not modelled".into());
    }
    if !uses[2 * srcs..].iter().all(|o| zero(o)) {
        return Err("clamp / op_sel immediates of a True16 op are not modelled".into());
    }
    let d = half(side, i.defs.first().ok_or("missing vdst")?, target)?;
    if d.bank != 'v' || !is16(side, i.defs.first().ok_or("missing vdst")?) {
        return Err("a True16 result must be a 16-bit VGPR".into());
    }
    let mut texts = Vec::new();
    let mut sel = Vec::new();
    for n in 0..srcs {
        let o = uses[2 * n + 1];
        if let OpKind::Imm(v) = o.kind {
            texts.push(v.to_string());
            sel.push(0);
        } else {
            let h = half(side, o, target)?;
            texts.push(h.cell);
            sel.push(bit(h.hi));
        }
    }
    sel.push(bit(d.hi));
    let sel: Vec<String> = sel.iter().map(u8::to_string).collect();
    Ok(vec![format!(
        "{mnemonic} {}, {} op_sel:[{}]",
        d.cell,
        texts.join(", "),
        sel.join(",")
    )])
}

/// The cell whose bits 31:16 `i` leaves undefined (a widening COPY, a REG_SEQUENCE missing its
/// `hi16` part, a VGPR `hi16` copied into an SGPR, whose high half the lowering fills with the
/// same 16 bits).
pub fn partial_def(side: &Side, i: &Inst, target: Target) -> Option<String> {
    if !handles(side, i) {
        return None;
    }
    let d = i.defs.first()?;
    if is16(side, d) {
        return None;
    }
    let uses: Vec<&Operand> = i.uses().collect();
    let full = i.opcode == "REG_SEQUENCE"
        && uses
            .iter()
            .any(|o| matches!(&o.kind, OpKind::SubIdx(x) if x == "hi16"));
    if full {
        return None;
    }
    cell32(side, d, target).ok().map(|(c, _)| c)
}

/// Whether `i` reads operand `o` as a low half only (a 16-bit source of a True16 op or copy).
pub fn reads_lo_only(side: &Side, i: &Inst, o: &Operand, target: Target) -> bool {
    handles(side, i)
        && !o.flags.def
        && matches!(o.kind, OpKind::VReg { .. } | OpKind::Phys(_))
        && half(side, o, target).is_ok_and(|h| !h.hi)
}

/// Where either side reads the first lane of a non-uniform 16-bit half.
pub fn either_read(sb: &Side, sa: &Side, t: Target) -> Option<String> {
    nonuniform_read(sb, t).or_else(|| nonuniform_read(sa, t))
}
