//! Where the inactive lanes of a whole-wave (or whole-quad) value may be read (breaker 11,
//! case 07).
//!
//! `STRICT_WWM`/`WWM`/`STRICT_WQM`/`WQM`/`SOFT_WQM` (before si-wqm) make SIWholeQuadMode
//! compute their source, and the chain of instructions that defines it, with more lanes
//! enabled (AMDGPUUsage; IntrinsicsAMDGPU.td, `llvm.amdgcn.strict.wwm`: "the value is computed
//! in whole wave mode"). The models (`exec.rs`, docs/tv.md) give such a result lane L's value
//! of its source only for an active lane L; the lanes that are inactive outside the region
//! hold values the model does not have. They are read by an instruction that reads other lanes
//! regardless of EXEC (`V_READLANE_B32 %wwm, 63`, DPP, permutes, swizzles), or by any reader
//! in another block. So a block pair is `unsupported` when, on either side, a whole-wave value
//! -- a mode copy's result (and its `COPY`s), or a value of the chain that defines a mode
//! copy's source in the block -- is read by such an instruction, is used outside the block,
//! or the chain reaches a value defined in another block or reads EXEC explicitly (in the
//! region EXEC is not what the model reads).

use super::mir::{Block, Inst, OpKind};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `op` reads lanes other than its own, whatever EXEC says (or reads the inactive
/// lanes of its source: `V_SET_INACTIVE`).
pub(super) fn cross_lane(op: &str) -> bool {
    super::xlane::uninterpreted(op)
        || op.contains("_dpp")
        || op.contains("DPP")
        || [
            "V_READLANE",
            "V_WRITELANE",
            "V_READFIRSTLANE",
            "V_PERMLANE",
            "DS_SWIZZLE",
            "DS_PERMUTE",
            "DS_BPERMUTE",
            "V_SET_INACTIVE",
            "V_SWAP",
        ]
        .iter()
        .any(|p| op.starts_with(p))
}

fn vreg_uses(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.ops.iter().filter_map(|o| match o.kind {
        OpKind::VReg { id, .. } if !o.flags.implicit_def && !o.flags.def => Some(id),
        _ => None,
    })
}

fn vreg_defs(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.defs.iter().filter_map(|o| match o.kind {
        OpKind::VReg { id, .. } => Some(id),
        _ => None,
    })
}

/// Why `b`'s whole-wave values may be read in an inactive lane, if they may (module doc).
/// `liveout`: virtual registers used outside the block.
pub fn inactive_read(
    b: &Block,
    classes: &BTreeMap<u32, String>,
    liveout: &BTreeSet<u32>,
) -> Option<(usize, &'static str)> {
    let copies: Vec<usize> = (0..b.insts.len())
        .filter(|&n| super::exec::is_mode_copy(&b.insts[n].opcode))
        .collect();
    if copies.is_empty() {
        return None;
    }
    let def_at = |id: u32| (0..b.insts.len()).find(|&n| vreg_defs(&b.insts[n]).any(|d| d == id));
    let mut whole: BTreeSet<u32> = BTreeSet::new();
    // Backward: the chains that define the mode copies' sources run whole-wave.
    let mut work: Vec<u32> = copies
        .iter()
        .flat_map(|&n| vreg_uses(&b.insts[n]))
        .collect();
    let mut chain = None;
    while let Some(id) = work.pop() {
        if !whole.insert(id) {
            continue;
        }
        let Some(n) = def_at(id) else {
            chain = chain.or(Some((copies[0], "its source is computed in another block")));
            continue;
        };
        let i = &b.insts[n];
        let exec = i
            .uses()
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")));
        if exec {
            chain = chain.or(Some((
                n,
                "it reads EXEC, which the region sets to all lanes",
            )));
        }
        work.extend(vreg_uses(i));
    }
    // Forward: the mode copies' results and their plain copies.
    for (n, i) in b.insts.iter().enumerate() {
        let is_copy = i.opcode == "COPY" && vreg_uses(i).any(|u| whole.contains(&u));
        if super::exec::is_mode_copy(&i.opcode) || is_copy {
            whole.extend(vreg_defs(i));
        }
        // A COPY into an SGPR is a V_READFIRSTLANE (si-fix-sgpr-copies), which reads lane 0
        // when EXEC is zero.
        let scalar = |d: u32| classes.get(&d).is_some_and(|c| c.starts_with('s'));
        let to_sgpr = i.opcode == "COPY"
            && (vreg_defs(i).any(scalar)
                || i.defs
                    .iter()
                    .any(|d| matches!(&d.kind, OpKind::Phys(p) if p.starts_with("sgpr"))));
        if (cross_lane(&i.opcode) || to_sgpr) && vreg_uses(i).any(|u| whole.contains(&u)) {
            return Some((n, "it reads other lanes of a whole-wave value"));
        }
    }
    let out = whole.iter().any(|id| liveout.contains(id));
    chain.or(out.then_some((copies[0], "a whole-wave value is used in another block")))
}
