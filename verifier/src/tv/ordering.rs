//! Atomic orderings inside one block (breaker 10: 08, 09, 11). The block model is one wave's:
//! memory is what this wave reads and writes, so a plain load moved above an acquire load, or
//! a plain store moved below a release store, computes the same values here, yet another
//! agent that synchronises through the atomic sees the data before (or without) the flag.
//! An acquire/release/acq_rel/seq_cst access (LLVM's atomic orderings above monotonic, read
//! from the memory operand) is therefore a point the pass may not move memory accesses across:
//! each side's memory accesses between two such points must be the same instructions
//! (compared by their text), or the block is `unsupported`. Monotonic and unordered atomics
//! order nothing else and are left to the memory model as today.

use super::mir::{Block, Inst};

/// Whether `i` has a memory operand with a synchronising ordering.
fn ordered(i: &Inst) -> bool {
    i.mem
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .any(|w| super::ssa_load::ORDERING.contains(&w))
}

/// Whether `i` accesses memory: a memory operand, or an opcode the effects table does not
/// call pure.
fn accesses(i: &Inst) -> bool {
    use super::effects::{memory_of, pseudo, Mem};
    !i.mem.is_empty() || (!pseudo(&i.opcode) && memory_of(&i.opcode) != Mem::Pure)
}

/// The block's memory accesses cut at each ordered one: per segment the sorted texts of its
/// plain accesses, then the ordered access's text.
fn segments(b: &Block) -> Vec<(Vec<&str>, Option<&str>)> {
    let mut out = vec![(Vec::new(), None)];
    for i in b.insts.iter().filter(|i| accesses(i)) {
        let last = out.last_mut().expect("one segment at least");
        if ordered(i) {
            last.0.sort_unstable();
            last.1 = Some(i.key.as_str());
            out.push((Vec::new(), None));
        } else {
            last.0.push(i.key.as_str());
        }
    }
    if let Some(last) = out.last_mut() {
        last.0.sort_unstable();
    }
    out
}

/// `Err` with the reason when either block has an ordered access and the pass moved a memory
/// access across one (or changed an ordered access).
pub(super) fn check(before: &Block, after: &Block) -> Result<(), String> {
    if !before.insts.iter().chain(&after.insts).any(ordered) {
        return Ok(());
    }
    if segments(before) != segments(after) {
        return Err(
            "the pass moved a memory access across an atomic with an acquire or \
                    release ordering (the order other agents see is not modelled), or \
                    changed such an atomic"
                .into(),
        );
    }
    Ok(())
}
