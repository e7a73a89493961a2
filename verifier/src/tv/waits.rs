//! Waits and scheduling hints: no-ops for one wave's refinement where a pass only adds them.

use super::mir::Block;

/// Scheduling hints (`SCHED_BARRIER`, `SCHED_GROUP_BARRIER`, `IGLP_OPT`, `S_SETPRIO`,
/// `S_DELAY_ALU`, `S_CLAUSE`, `S_INST_PREFETCH`): they change when an instruction runs or is
/// fetched, never what one wave's registers and memory hold (AMD RDNA3.5 ISA guide, SOPP:
/// S_CLAUSE groups the next memory instructions for issue, S_INST_PREFETCH prefetches
/// instructions; the two `SCHED_*` and `IGLP_OPT` are LLVM pseudos that emit nothing).
/// Assumed: one wave's values do not depend on issue order within a clause.
fn is_hint(op: &str) -> bool {
    matches!(
        op,
        "S_DELAY_ALU"
            | "SCHED_BARRIER"
            | "SCHED_GROUP_BARRIER"
            | "IGLP_OPT"
            | "S_SETPRIO"
            | "S_CLAUSE"
            | "S_INST_PREFETCH"
    )
}

/// Waits (`S_WAITCNT*`, `S_WAITCNT_soft`, `S_WAITCNT_VSCNT*`) and `S_NOP`: a wait holds the wave
/// until earlier accesses finish, so adding one changes no value; dropping one (or moving a use
/// of a load's result above it) may let an instruction read a register before the load wrote it.
fn is_wait(op: &str) -> bool {
    op.starts_with("S_WAITCNT") || op == "S_NOP"
}

/// The block pair without what is a no-op for one wave's refinement: hints on both sides, and
/// the after-side's waits when the before-block has none (a pass that only added waits, as
/// si-memory-legalizer and si-insert-waitcnts do). Where the before-block has waits they stay
/// uninterpreted twins (the same text on both sides). Memory timing between waves is another
/// question (docs/tv.md).
pub fn without_waits(before: &Block, after: &Block) -> (Block, Block) {
    let added_only = !before.insts.iter().any(|i| is_wait(&i.opcode));
    let keep = |b: &Block, strip_waits: bool| Block {
        insts: b
            .insts
            .iter()
            .filter(|i| !(is_hint(&i.opcode) || strip_waits && is_wait(&i.opcode)))
            .cloned()
            .collect(),
        ..b.clone()
    };
    (keep(before, false), keep(after, added_only))
}

/// Why the pair is not checked when the before-block has waits and the after-block moved one
/// relative to the memory accesses or to a use of a loaded value (a wait dropped, or a DS read
/// of an LDS-DMA destination moved above the wait that covers the DMA): tv runs one wave with
/// every access complete at issue, so such a move would be proved (break6 03). Waits the pass
/// only added are no-ops and left out of the comparison.
pub fn moved(before: &Block, after: &Block) -> Option<String> {
    if !before.insts.iter().any(|i| is_wait(&i.opcode)) {
        return None;
    }
    let mut budget: std::collections::BTreeMap<&str, usize> = Default::default();
    for i in before.insts.iter().filter(|i| is_wait(&i.opcode)) {
        *budget.entry(i.key.as_str()).or_default() += 1;
    }
    let b = timed(before, &mut budget.clone());
    let a = timed(after, &mut budget);
    (b != a).then(|| {
        "the pass moved or dropped a wait relative to the memory accesses or the uses of loaded \
         values around it: memory timing is not modelled (docs/timing.md)"
            .to_string()
    })
}

/// The keys of `b`'s waits (each within `budget`, the before-block's count of that wait: the
/// rest were added), memory accesses and instructions reading what an earlier access loaded.
fn timed<'b>(
    b: &'b Block,
    budget: &mut std::collections::BTreeMap<&'b str, usize>,
) -> Vec<&'b str> {
    use super::mir::OpKind;
    let cells = |k: &OpKind| -> Vec<String> {
        match k {
            OpKind::Phys(p) => p.split('_').map(|c| format!("${c}")).collect(),
            OpKind::VReg { id, .. } => vec![format!("%{id}")],
            _ => vec![],
        }
    };
    let mut hot: std::collections::BTreeSet<String> = Default::default();
    let mut out = Vec::new();
    for i in &b.insts {
        let op = i.opcode.as_str();
        if is_wait(op) {
            if let Some(n) = budget.get_mut(i.key.as_str()).filter(|n| **n > 0) {
                *n -= 1;
                out.push(i.key.as_str());
            }
            continue;
        }
        let memory = [
            "DS_",
            "BUFFER_",
            "GLOBAL_",
            "FLAT_",
            "SCRATCH_",
            "S_LOAD",
            "S_BUFFER_",
        ]
        .iter()
        .chain(&[
            "S_STORE",
            "S_SCRATCH",
            "IMAGE_",
            "TBUFFER_",
            "S_ATOMIC",
            "S_DCACHE",
        ])
        .any(|p| op.starts_with(p));
        let reads_loaded = i
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
            .any(|o| cells(&o.kind).iter().any(|c| hot.contains(c)));
        if memory || reads_loaded {
            out.push(i.key.as_str());
        }
        if memory {
            let written = i.defs.iter().chain(i.ops.iter().filter(|o| o.flags.def));
            for d in written {
                hot.extend(cells(&d.kind));
            }
        }
    }
    out
}
