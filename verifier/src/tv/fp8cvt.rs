//! `V_CVT_SCALEF32_PK_FP8_F16_e64` (gfx950): two f16 values to OCP E4M3 fp8 with a scale,
//! written to one 16-bit half of the destination (docs/tv.md, "Scaled fp8 conversion").
//!
//! The semantics entry (semantics/pcode/alu.pcode, `f16_to_fp8_scale` in
//! semantics/src/eval/fp8.rs) is exact on part of its inputs only and undefined elsewhere,
//! so a rule that runs it can refute but not prove (`check::partial`). tv therefore keeps
//! the instruction uninterpreted wherever it can (the same text on both sides: a
//! deterministic function of equal inputs, which proves), and lowers it with the entry only
//! when the pass changed it ([`retag`], from `cmd.rs`): then a refutation stands and anything
//! else is `unknown`.
//!
//! MIR operands (llc-22 for gfx950, `llvm.amdgcn.cvt.scalef32.pk.fp8.f16`): `src0_modifiers,
//! src0, src1_modifiers, src1, vdst_in, op_sel`, vdst tied to vdst_in (the half not written
//! keeps vdst_in's bits). The VOP3 op_sel bits live in the modifiers: `src0_modifiers` bit 3
//! (SISrcMods::DST_OP_SEL, 8) writes the high half; llc-22 prints `V_CVT_SCALEF32_PK_FP8_F16_e64
//! 8, ...` as `op_sel:[0,0,1]` and sets it for the intrinsic's `i1 true`. The trailing `op_sel`
//! immediate is not encoded (llc-22 prints the same instruction for 0, 1 and 8 there). Modelled:
//! src0_modifiers 0 or 8, src1_modifiers 0 (no neg/abs: what they do to a packed f16 source
//! is not in the pseudocode; no source op_sel), trailing op_sel 0.

use super::emit::{self, Side};
use super::lower::{self, Lowered, Unsupported};
use super::mir::{Block, OpKind};
use crate::check::{Cex, Verdict};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// The registers that must end equal (`cmd.rs`): virtual, physical.
type Live<'a> = (&'a BTreeSet<u32>, &'a BTreeSet<String>);

/// The MIR opcode.
pub const OPCODE: &str = "V_CVT_SCALEF32_PK_FP8_F16_e64";

/// The opcode [`retag`] gives the instruction where the pass changed it: lowered with the
/// semantics entry (`lower::modelled`, `emit::lower_inst`).
pub const MODELLED: &str = "V_CVT_SCALEF32_PK_FP8_F16_e64.modelled";

/// Whether an `Unsupported` reason is the uninterpreted path's refusal of a changed
/// conversion (`lower::unmodelled`), which [`retag`] answers.
pub fn changed(reason: &str) -> bool {
    reason.contains(&format!("{OPCODE} is not modelled and the pass changed it"))
}

/// `b` with every conversion retagged [`MODELLED`] (`None`: it has none).
pub fn retag(b: &Block) -> Option<Block> {
    if !b.insts.iter().any(|i| i.opcode == OPCODE) {
        return None;
    }
    let mut out = b.clone();
    for i in out.insts.iter_mut().filter(|i| i.opcode == OPCODE) {
        i.opcode = MODELLED.to_string();
    }
    Some(out)
}

/// `sides` with every conversion retagged (`None`: neither has one).
fn retagged<'a>((b, a): (&Side<'a>, &Side<'a>)) -> Option<(Option<Block>, Option<Block>)> {
    let r = (retag(b.block), retag(a.block));
    (r.0.is_some() || r.1.is_some()).then_some(r)
}

/// [`lower::lower`] of a block pair; where the pass changed a conversion (the uninterpreted
/// path refuses it), the pair with its conversions retagged [`MODELLED`].
pub(super) fn lower_pair(
    name: &str,
    (b, a): (&Side, &Side),
    live: Live,
    t: Target,
    how: lower::How,
) -> Result<Lowered, Unsupported> {
    match lower::lower(name, b, a, live.0, live.1, t, how) {
        Err(u) if changed(&u.0) => {
            let Some((rb, ra)) = retagged((b, a)) else {
                return Err(u);
            };
            let b = Side {
                block: rb.as_ref().unwrap_or(b.block),
                ..b.clone()
            };
            let a = Side {
                block: ra.as_ref().unwrap_or(a.block),
                ..a.clone()
            };
            lower::lower(name, &b, &a, live.0, live.1, t, how)
        }
        r => r,
    }
}

/// A refutation that rested on an uninterpreted conversion (the same text on both sides, its
/// inputs computed differently), checked again with the conversions lowered by the entry:
/// a `refuted` there is real (`check::partial`). Not where the first check needed a recheck
/// of its own (DPP, a first-lane read of a non-uniform half: `cmd::checked_dpp`).
pub(super) fn confirm(
    p: &super::cmd::Pair,
    name: &str,
    (sb, sa): (&Side, &Side),
    live: Live,
) -> Option<(Lowered, Box<Cex>, String)> {
    let (rb, ra) = retagged((sb, sa))?;
    let dpp = |s: &Side| s.block.insts.iter().any(|i| super::dpp::is_dpp(&i.opcode));
    let half = |s: &Side| super::half16::nonuniform_read(s, p.t).is_some();
    if dpp(sb) || dpp(sa) || half(sb) || half(sa) {
        return None;
    }
    let b = Side {
        block: rb.as_ref().unwrap_or(sb.block),
        ..sb.clone()
    };
    let a = Side {
        block: ra.as_ref().unwrap_or(sa.block),
        ..sa.clone()
    };
    let l = lower::lower(name, &b, &a, live.0, live.1, p.t, p.how).ok()?;
    let Some(Ok(o)) = super::cmd::checked(&l.rule, p.t, p.opts) else {
        return None;
    };
    let Verdict::Refuted(c) = o.verdict else {
        return None;
    };
    let (verdict, reason) = super::classify::classify_refutation(&l, &c, p.fp);
    (verdict == "refuted").then(|| {
        let why = format!("{reason} (the fp8 conversions lowered by their semantics, fp8cvt.rs)");
        (l, c, why)
    })
}

/// Whether `op` is lowered here.
pub fn handles(op: &str) -> bool {
    op == MODELLED
}

/// The rule lines of one conversion: the tied old value into the destination, then the op.
pub fn lower(side: &Side, i: &super::mir::Inst, target: Target) -> Result<Vec<String>, String> {
    let uses: Vec<&super::mir::Operand> = i.uses().collect();
    let imm = |k: usize| match uses.get(k).map(|o| &o.kind) {
        Some(OpKind::Imm(v)) => Ok(*v),
        _ => Err(format!("operand {k} is not an immediate")),
    };
    if uses.len() != 6 {
        return Err(format!(
            "{}expected 6 operands, found {}",
            emit::MALFORMED,
            uses.len()
        ));
    }
    let (m0, m1, sel) = (imm(0)?, imm(2)?, imm(5)?);
    if !matches!(m0, 0 | 8) || m1 != 0 || sel != 0 {
        return Err(format!(
            "modifiers {m0}, {m1} / op_sel {sel} are not modelled (only src0_modifiers 0 \
             or 8, the destination half)"
        ));
    }
    let d = emit::dwords(side, i.defs.first().ok_or("missing vdst")?, target)?;
    let [d] = &d[..] else {
        return Err("a 32-bit destination has more than one register".into());
    };
    let s0 = emit::src(side, uses[1], target)?;
    let s1 = emit::src(side, uses[3], target)?;
    let old = emit::src(side, uses[4], target)?;
    let mut out = Vec::new();
    if old != *d {
        out.push(format!("v_mov_b32 {d}, {old}"));
    }
    let hi = if m0 == 8 { " op_sel:[0,0,1]" } else { "" };
    out.push(format!("v_cvt_scalef32_pk_fp8_f16 {d}, {s0}, {s1}{hi}"));
    Ok(out)
}
