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
