//! A virtual register that the pass moved from a VGPR class to an SGPR class of the same width
//! (si-fix-sgpr-copies: `%35:vgpr_32 = COPY killed %32` of a uniform `%32:sreg_32`, read by a
//! `V_MAD_U64_U32_e64`, becomes `%35:sgpr_32 = COPY killed %32`, and the VALU op reads the SGPR;
//! breaker 14's FA-01).
//!
//! The block checks give a register one shape on both sides, so where it is sound the
//! after-function's register is given back its before-class ([`undo`]): its definition
//! `%35:sgpr_32 = COPY %32` becomes `%35:vgpr_32 = COPY %32`, a `v_mov_b32` of the SGPR under
//! EXEC. Only where the after-function reads `%35` exactly as a VGPR with that value would be
//! read ([`why_not`]):
//!
//! - its one definition is a whole-register `COPY` of an SGPR (virtual, or `$sgprN`);
//! - every read is an explicit operand of a lane-local VALU instruction in the definition's
//!   block, after it, with no instruction in between that may change EXEC (an EXEC definition,
//!   inline assembly, a call, a branch pseudo);
//! - lane-local: its result in lane l depends on the operand in lane l only, and an inactive
//!   lane's results do not depend on it. Not: lane reads and writes, DPP, permutes,
//!   `V_SET_INACTIVE`, matrix ops (they read other lanes), indirect moves, interpolation,
//!   tied operands (the old value's inactive lanes survive in the result);
//! - the function computes nothing in whole-wave or whole-quad mode (WWM/WQM pseudos) and has
//!   nothing si-wqm may run with helper lanes (image ops, interpolation, DPP, permutes).
//!
//! *Sound:* the SGPR holds one value `x`; the VGPR holds `x` in every lane active at the copy
//! and an unknown value elsewhere. A read under the same EXEC in a lane-local op happens only in
//! lanes that ran the copy, where both hold `x`, and an inactive lane's result is unchanged
//! either way; nothing else reads the register. So the rewritten function computes what the
//! after-function computes in every register but `%35` itself, which nothing else reads.
//! Anything else (a read in another block or a PHI, a read across an EXEC change, a
//! cross-lane read, a class change from SGPR to VGPR or to another width) is not rewritten:
//! the pairing reports it (`diff.rs`: `unsupported`, or an input error).

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, Inst, MirFile, OpKind};

/// `cb` (before) to `ca` (after) is the change this module may undo: a VGPR class (not a lane
/// mask `vreg_1`, not AGPR or `av_*`) to an SGPR class of the same number of dwords.
pub(super) fn moved(cb: &str, ca: &str) -> bool {
    (cb.starts_with("vgpr_") || cb.starts_with("vreg_"))
        && class_bank(ca) == 's'
        && class_dwords(cb).is_some()
        && class_dwords(cb) == class_dwords(ca)
}

/// Opcodes that make a function compute in whole-wave or whole-quad mode somewhere, or that
/// si-wqm may run with helper lanes (image ops, interpolation, pixel-shader live masks, lane
/// permutes): there a reader may run in lanes the MIR's EXEC does not show. Coarse on purpose.
fn wave_mode(op: &str) -> bool {
    op.contains("WWM")
        || op.contains("WQM")
        || op.contains("_dpp")
        || op.contains("DPP")
        || [
            "V_SET_INACTIVE",
            "IMAGE_",
            "V_INTERP",
            "LDS_PARAM",
            "LDS_DIRECT",
            "SI_PS_LIVE",
            "SI_LIVE_MASK",
            "DS_SWIZZLE",
            "DS_PERMUTE",
            "DS_BPERMUTE",
            "SI_WHOLE_WAVE",
            "SI_INIT_WHOLE_WAVE",
        ]
        .iter()
        .any(|p| op.starts_with(p))
}

/// A VALU op whose lane l result depends only on its operands' lane l, and whose inactive
/// lanes' results do not depend on them.
fn lane_local(op: &str) -> bool {
    op.starts_with("V_")
        && !super::wwm::cross_lane(op)
        && ![
            "V_MFMA",
            "V_SMFMAC",
            "V_WMMA",
            "V_SWMMAC",
            "V_MOVREL",
            "V_INDIRECT",
            "V_INTERP",
            "V_PERMLANE",
        ]
        .iter()
        .any(|p| op.starts_with(p))
}

/// `i` may change EXEC (or the lanes later instructions run in).
fn may_change_exec(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    super::exec::writes_exec(i)
        || op.starts_with("INLINEASM")
        || op.contains("CALL")
        || op.starts_with("S_CBRANCH")
        || op.starts_with("S_SETPC")
        || op.starts_with("S_SWAPPC")
        || op.starts_with("SI_")
}

fn names(i: &Inst, id: u32) -> bool {
    i.defs
        .iter()
        .chain(&i.ops)
        .any(|o| matches!(o.kind, OpKind::VReg { id: r, .. } if r == id))
}

fn defines(i: &Inst, id: u32) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .any(|o| matches!(o.kind, OpKind::VReg { id: r, .. } if r == id))
}

/// Why the after-function `fa`'s SGPR `%id` cannot be read as a VGPR (module doc), if it
/// cannot.
pub(super) fn why_not(fa: &Function, id: u32) -> Option<String> {
    let all = || fa.blocks.iter().flat_map(|b| &b.insts);
    if let Some(i) = all().find(|i| wave_mode(&i.opcode)) {
        return Some(format!(
            "the function computes in whole-wave or whole-quad mode ({})",
            i.opcode
        ));
    }
    let defs: Vec<(usize, usize)> = fa
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(b, bl)| bl.insts.iter().enumerate().map(move |(k, i)| (b, k, i)))
        .filter(|(_, _, i)| defines(i, id))
        .map(|(b, k, _)| (b, k))
        .collect();
    let [(b, k)] = defs[..] else {
        return Some(format!("it has {} definitions", defs.len()));
    };
    let block = &fa.blocks[b];
    let d = &block.insts[k];
    let src_sgpr = match d.uses().collect::<Vec<_>>()[..] {
        [s] => match &s.kind {
            OpKind::VReg { id: s, .. } => fa.classes.get(s).is_some_and(|c| class_bank(c) == 's'),
            OpKind::Phys(p) => p.starts_with("sgpr"),
            _ => false,
        },
        _ => false,
    };
    let whole = matches!(d.defs[..], [ref o] if o.kind == OpKind::VReg { id, sub: None });
    if d.opcode != "COPY" || !whole || !src_sgpr || d.ops.len() != 1 {
        return Some("its definition is not a whole-register COPY of an SGPR".into());
    }
    // Every read: in this block, after the definition, with EXEC unchanged since.
    for (bn, bl) in fa.blocks.iter().enumerate() {
        for (n, i) in bl.insts.iter().enumerate() {
            if !names(i, id) || (bn == b && n == k) {
                continue;
            }
            if bn != b || n < k {
                return Some(format!(
                    "it is read outside its definition's block or before it ({} in bb.{})",
                    i.opcode, bl.num
                ));
            }
            if let Some(w) = block.insts[k + 1..n].iter().find(|j| may_change_exec(j)) {
                return Some(format!(
                    "EXEC may change ({}) before its read by {}",
                    w.opcode, i.opcode
                ));
            }
            let only_explicit = i.ops.iter().all(|o| {
                !matches!(o.kind, OpKind::VReg { id: r, .. } if r == id)
                    || !(o.flags.implicit || o.flags.def || o.flags.implicit_def)
            });
            if !lane_local(&i.opcode) || !only_explicit || i.key.contains("tied-def") {
                return Some(format!(
                    "{} reads it other than as a lane-local VALU operand",
                    i.opcode
                ));
            }
        }
    }
    None
}

/// The after-file with each register [`moved`] from a VGPR to an SGPR class, and read only as
/// [`why_not`] allows, given its before-class back (the others' reasons in `bank_refused`);
/// `None` if there is none.
pub(super) fn undo(before: &MirFile, after: &MirFile) -> Option<MirFile> {
    let mut out = after.clone();
    let mut any = false;
    for fa in &mut out.functions {
        let Some(fb) = before.functions.iter().find(|f| f.name == fa.name) else {
            continue;
        };
        let mut ids: Vec<(u32, String, String)> = Vec::new();
        for (id, cb) in &fb.classes {
            let Some(ca) = fa.classes.get(id).filter(|ca| moved(cb, ca)) else {
                continue;
            };
            // The reason is kept: the pairing reports it after canonicalisation, which may
            // propagate the SGPR copy and so remove the reads that broke a condition.
            match why_not(fa, *id) {
                Some(why) => _ = fa.bank_refused.insert(*id, why),
                None => ids.push((*id, cb.clone(), ca.clone())),
            }
            any = true;
        }
        for (id, cb, ca) in ids {
            fa.classes.insert(id, cb.clone());
            for i in fa.blocks.iter_mut().flat_map(|b| &mut b.insts) {
                if defines(i, id) {
                    let (from, to) = (format!("%{id}:{ca}"), format!("%{id}:{cb}"));
                    i.key = i.key.replacen(&from, &to, 1);
                }
            }
        }
    }
    any.then_some(out)
}
