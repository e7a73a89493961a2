//! SDWA forms (`V_ADD_U32_sdwa`, `V_CNDMASK_B32_sdwa`) of the modelled VOP1/VOP2 ops, lowered
//! as the plain op between modelled selects, sign extensions and masks.
//!
//! MIR operands (`VOPInstructions.td` `getInsSDWA`; checked with llc-22 -show-mc-encoding on
//! gfx802, gfx900 and gfx1030): `vdst = OP src0_modifiers, src0, [src1_modifiers, src1,] clamp,
//! [omod,] dst_sel, dst_unused, src0_sel, [src1_sel]` (omod only for the f32 ops), then
//! `implicit $vcc` for `V_CNDMASK_B32_sdwa` and, with UNUSED_PRESERVE, `implicit %old(tied-def
//! 0)`: the register whose other bits the result keeps.
//!
//! Semantics (AMD Vega ISA guide, "SDWA" and the VOP_SDWA field table: SRC*_SEL, SRC*_SEXT,
//! SRC*_NEG, SRC*_ABS, DST_SEL, DST_UNUSED, CLAMP): each source is the selected byte, word or
//! dword of the operand, zero-extended, or sign-extended with SEXT (integer ops); the f32 ops
//! and v_cndmask_b32 take abs and neg instead (bit 31 cleared, then flipped). The op's 32-bit
//! result goes to the DST_SEL field of vdst; the other bits are 0 (UNUSED_PAD), the field's
//! sign above it and 0 below (UNUSED_SEXT), or the tied old value's (UNUSED_PRESERVE).
//!
//! Source modifiers in MIR (llc-22: LLVM 22 `SISrcMods`): NEG 1, ABS 2, SEXT 16 (encoded as
//! the SDWA SEXT bit 3 of the select byte). llc-22's encoder drops NEG/ABS on the integer ops
//! and SEXT on the float ones; here any bit the op does not take is `unsupported`, as are
//! clamp, omod, a select on an f32 op's source (what the float unit makes of a byte is not
//! modelled), and the carry ops.

use super::emit::{self, imm_text, Side};
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use gcnsmt_semantics::target::{Gen, Target};

/// Rule variables holding an SDWA lowering's intermediate values; declared `Dead:`.
pub const TMP_PREFIX: &str = "sdwa_";

/// What the source modifiers of an SDWA op mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModKind {
    /// Integer ops: SEXT.
    Int,
    /// f32 ops: NEG and ABS, and an `omod` operand after `clamp`.
    Float,
    /// `V_CNDMASK_B32`: NEG and ABS (llc-22 encodes them, drops SEXT), no omod; reads vcc.
    Cndmask,
}

/// A modelled SDWA opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdwaOp {
    /// The plain op's llvm-mc mnemonic (`v_add_u32`).
    pub mnemonic: &'static str,
    /// Explicit sources (1 for VOP1, 2 for VOP2; the cndmask mask is vcc, not counted).
    pub srcs: u8,
    /// What its source modifiers are.
    pub kind: ModKind,
}

/// The VOP1/VOP2 ops whose SDWA form is modelled, with their modifier kind (the kinds as
/// llc-22's encoder treats them, gfx900).
const OPS: &[(&str, ModKind)] = &[
    ("V_MOV_B32", ModKind::Int),
    ("V_AND_B32", ModKind::Int),
    ("V_OR_B32", ModKind::Int),
    ("V_XOR_B32", ModKind::Int),
    ("V_LSHLREV_B32", ModKind::Int),
    ("V_LSHRREV_B32", ModKind::Int),
    ("V_ASHRREV_I32", ModKind::Int),
    ("V_ADD_U32", ModKind::Int),
    ("V_SUB_U32", ModKind::Int),
    ("V_ADD_F32", ModKind::Float),
    ("V_MUL_F32", ModKind::Float),
    ("V_CNDMASK_B32", ModKind::Cndmask),
];

/// The SDWA op a MIR opcode names on `target` (gfx8 to gfx10: SDWA is gone from gfx11 on).
pub fn lookup(target: Target, opcode: &str) -> Option<SdwaOp> {
    let base = opcode.strip_suffix("_sdwa")?;
    if !(Gen::Gfx8..=Gen::Gfx10).contains(&target.gen()) {
        return None;
    }
    let (_, kind) = OPS.iter().find(|(n, _)| *n == base)?;
    match opcodes::lookup(target, &format!("{base}_e32"))? {
        MirOp::Alu {
            mnemonic,
            srcs,
            sdst: false,
            wide: 0,
            pseudo: false,
            ..
        } => Some(SdwaOp {
            mnemonic,
            srcs: if *kind == ModKind::Cndmask { 2 } else { srcs },
            kind: *kind,
        }),
        _ => None,
    }
}

/// SDWA_SEL (SdwaSel in LLVM's `SIDefines.h`): bit offset and width of the selected field.
fn sel(v: i64) -> Result<(u32, u32), String> {
    Ok(match v {
        0..=3 => (8 * v as u32, 8),
        4 => (0, 16),
        5 => (16, 16),
        6 => (0, 32),
        _ => return Err(format!("SDWA select {v} is not BYTE_0..DWORD")),
    })
}

/// DstUnused (LLVM `SIDefines.h`): what the bits outside the destination field hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DstUnused {
    Pad,
    Sext,
    Preserve,
}

/// Fresh rule variables for one instruction's intermediate values.
struct Tmps<'a> {
    i: &'a Inst,
    n: usize,
    out: Vec<String>,
}

impl Tmps<'_> {
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!(
            "%{TMP_PREFIX}{}_{}_{}",
            self.i.loc.line, self.i.loc.col, self.n
        )
    }
    fn emit(&mut self, line: String) {
        self.out.push(line);
    }
}

fn imm(o: Option<&&Operand>, what: &str) -> Result<i64, String> {
    match o.map(|o| &o.kind) {
        Some(OpKind::Imm(v)) => Ok(*v),
        _ => Err(format!("expected the {what} immediate")),
    }
}

/// One source: its value moved into a temporary, then selected, extended and modified.
fn source(
    t: &mut Tmps,
    side: &Side,
    op: &SdwaOp,
    o: &Operand,
    mods: i64,
    sel_v: i64,
    target: Target,
) -> Result<String, String> {
    const NEG: i64 = 1;
    const ABS: i64 = 2;
    const SEXT: i64 = 16;
    let allowed = match op.kind {
        ModKind::Int => SEXT,
        ModKind::Float | ModKind::Cndmask => NEG | ABS,
    };
    if mods & !allowed != 0 {
        return Err(format!(
            "source modifiers {mods:#x} are not modelled for this op"
        ));
    }
    let (off, width) = sel(sel_v)?;
    if op.kind == ModKind::Float && width != 32 {
        return Err("a byte or word select on an f32 source is not modelled".into());
    }
    let v = match o.kind {
        // SDWA has no literal: only inline constants (gfx9+) are encodable.
        OpKind::Imm(x) if (-16..=64).contains(&x) => imm_text(x),
        OpKind::Imm(x) => return Err(format!("SDWA source {x} is not an inline constant")),
        _ => {
            let d = emit::dwords(side, o, target)?;
            let [d] = d.as_slice() else {
                return Err("an SDWA source has more than one register".into());
            };
            d.clone()
        }
    };
    let mut cur = t.fresh();
    t.emit(format!("v_mov_b32 {cur}, {v}"));
    if width < 32 {
        // The field moved to the top, then shifted down with zeros or its sign bit.
        let (up, down) = (32 - off - width, 32 - width);
        let shr = if mods & SEXT != 0 {
            "v_ashrrev_i32"
        } else {
            "v_lshrrev_b32"
        };
        let a = t.fresh();
        t.emit(format!("v_lshlrev_b32 {a}, {up}, {cur}"));
        let b = t.fresh();
        t.emit(format!("{shr} {b}, {down}, {a}"));
        cur = b;
    }
    for (bit, line) in [
        (ABS, "v_and_b32 {d}, 0x7fffffff, {s}"),
        (NEG, "v_xor_b32 {d}, 0x80000000, {s}"),
    ] {
        if mods & bit != 0 {
            let d = t.fresh();
            t.emit(line.replace("{d}", &d).replace("{s}", &cur));
            cur = d;
        }
    }
    Ok(cur)
}

/// Lower an SDWA instruction (see the module documentation).
pub fn lower(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
    op: &SdwaOp,
) -> Result<Vec<String>, String> {
    let mut t = Tmps {
        i,
        n: 0,
        out: Vec::new(),
    };
    let two = op.srcs == 2;
    // Operand indices: (modifiers, register) per source, then clamp, [omod,] dst_sel,
    // dst_unused, src0_sel, [src1_sel].
    let clamp_at = 2 * usize::from(op.srcs);
    let omod = usize::from(op.kind == ModKind::Float);
    let dsel_at = clamp_at + 1 + omod;
    let n_ops = dsel_at + 3 + usize::from(two);
    if uses.len() != n_ops {
        return Err(format!(
            "{}expected {n_ops} operands, found {}",
            super::emit::MALFORMED,
            uses.len()
        ));
    }
    if imm(uses.get(clamp_at), "clamp")? != 0 {
        return Err("clamp is not modelled".into());
    }
    if omod == 1 && imm(uses.get(clamp_at + 1), "omod")? != 0 {
        return Err("omod is not modelled".into());
    }
    let (doff, dwidth) = sel(imm(uses.get(dsel_at), "dst_sel")?)?;
    let unused = match imm(uses.get(dsel_at + 1), "dst_unused")? {
        0 => DstUnused::Pad,
        1 => DstUnused::Sext,
        2 => DstUnused::Preserve,
        v => return Err(format!("dst_unused {v} is not PAD, SEXT or PRESERVE")),
    };
    let mut srcs = Vec::new();
    for n in 0..usize::from(op.srcs) {
        let mods = imm(uses.get(2 * n), "source modifier")?;
        let sel_v = imm(uses.get(dsel_at + 2 + n), "source select")?;
        srcs.push(source(
            &mut t,
            side,
            op,
            uses[2 * n + 1],
            mods,
            sel_v,
            target,
        )?);
    }
    if op.kind == ModKind::Cndmask {
        if !super::alu64::implicit_vcc(i, target, false) {
            return Err("V_CNDMASK_B32_sdwa does not read `implicit $vcc`".into());
        }
        srcs.push(super::alu64::vcc(side, target));
    }
    let def = i.defs.first().ok_or("missing vdst")?;
    let vdst = match emit::dwords(side, def, target)?.as_slice() {
        [d] => d.clone(),
        _ => return Err("an SDWA destination has more than one register".into()),
    };
    let old = preserved(side, i, target, unused)?;
    let full = dwidth == 32;
    let r = if full { vdst.clone() } else { t.fresh() };
    t.emit(format!("{} {r}, {}", op.mnemonic, srcs.join(", ")));
    if full {
        return Ok(t.out);
    }
    // The field at the top of a dword, then shifted down to its place with zeros or its sign
    // (UNUSED_SEXT), then up to the field's offset: the bits below are 0 either way.
    let (a, b) = (t.fresh(), t.fresh());
    let shr = if unused == DstUnused::Sext {
        "v_ashrrev_i32"
    } else {
        "v_lshrrev_b32"
    };
    t.emit(format!("v_lshlrev_b32 {a}, {}, {r}", 32 - dwidth));
    t.emit(format!("{shr} {b}, {}, {a}", 32 - dwidth));
    match old {
        None => t.emit(format!("v_lshlrev_b32 {vdst}, {doff}, {b}")),
        Some(old) => {
            let (c, k) = (t.fresh(), t.fresh());
            t.emit(format!("v_lshlrev_b32 {c}, {doff}, {b}"));
            let keep = !(((1u64 << dwidth) - 1) << doff) as u32;
            t.emit(format!(
                "v_and_b32 {k}, {}, {old}",
                imm_text(i64::from(keep))
            ));
            t.emit(format!("v_or_b32 {vdst}, {k}, {c}"));
        }
    }
    Ok(t.out)
}

/// UNUSED_PRESERVE: the tied implicit use (the value whose other bits vdst keeps).
fn preserved(
    side: &Side,
    i: &Inst,
    target: Target,
    unused: DstUnused,
) -> Result<Option<String>, String> {
    if unused != DstUnused::Preserve {
        return Ok(None);
    }
    let tied: Vec<&Operand> = i
        .ops
        .iter()
        .filter(|o| {
            let vgpr = matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vgpr"));
            o.flags.implicit && (vgpr || matches!(o.kind, OpKind::VReg { .. }))
        })
        .collect();
    let [o] = tied.as_slice() else {
        return Err("UNUSED_PRESERVE without exactly one tied old value".into());
    };
    match emit::dwords(side, o, target)?.as_slice() {
        [d] => Ok(Some(d.clone())),
        _ => Err("the preserved value has more than one register".into()),
    }
}
