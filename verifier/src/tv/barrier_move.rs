//! Which instructions a pass may move across a barrier (`barrier.rs`, `align_moved`).
//!
//! A barrier (and the other split points) orders memory, not one lane's register
//! computations: an instruction whose result depends only on registers computes the same
//! value on either side of it. So a definition the pass moved across one is checked as if it
//! had stayed where the other side has it, when it is:
//! - pure (`effects::is_pure`: no memory, no trap), or
//! - a scalar load whose memory operand is `invariant` (LLVM `MachineMemOperand::MOInvariant`,
//!   from `!invariant.load` or a kernel-argument load: LangRef says the location holds the same
//!   value wherever it is dereferenceable, so no other wave changes it at a barrier; this is
//!   LLVM's own guarantee, which tv takes on trust like the rest of the memory operand),
//!
//! and the physical registers it touches are safe to move across the instructions it jumps
//! over: it may read EXEC (any half) and MODE only if none of those writes them, and it may
//! write SCC only if none of them reads or writes SCC and no call is among the split points it
//! crosses (a call clobbers SCC; a workgroup barrier, a fence, a cache operation and a global
//! access leave it alone). Any other physical register keeps the block `unsupported`.

use super::mir::{Block, Inst, OpKind};
use gcnsmt_semantics::target::Target;

/// The family a physical register name belongs to for this check (EXEC's halves are EXEC).
fn family(p: &str) -> &str {
    if p.starts_with("exec") {
        "exec"
    } else {
        p
    }
}

/// The physical registers `i` reads and writes, as families.
fn phys(i: &Inst) -> (Vec<&str>, Vec<&str>) {
    let (mut r, mut w) = (Vec::new(), Vec::new());
    for (n, o) in i.defs.iter().chain(&i.ops).enumerate() {
        if let OpKind::Phys(p) = &o.kind {
            if n < i.defs.len() || o.flags.def || o.flags.implicit_def {
                w.push(family(p));
            } else {
                r.push(family(p));
            }
        }
    }
    (r, w)
}

/// An invariant scalar load (see the module documentation).
fn invariant_load(i: &Inst) -> bool {
    i.opcode.starts_with("S_LOAD_")
        && i.mem.contains("invariant")
        && i.mem.contains("load")
        && !i.mem.contains("store")
}

/// A call (`SI_CALL*`, `S_SWAPPC_B64`, `S_CALL_B64`).
pub(super) fn is_call(op: &str) -> bool {
    op.starts_with("SI_CALL") || matches!(op, "S_SWAPPC_B64" | "S_CALL_B64")
}

/// Whether `i` may be moved back over `skipped` (the instructions between its new and old
/// places) and the split points `crossed` (see the module documentation).
pub fn movable(i: &Inst, skipped: &[Inst], crossed: &[&str], target: Target) -> bool {
    let invariant = invariant_load(i);
    if !(super::effects::is_pure(&i.opcode, target) || invariant) {
        return false;
    }
    if invariant && crossed.iter().any(|b| is_call(b)) {
        return false;
    }
    let (reads, writes) = phys(i);
    let written: Vec<&str> = skipped.iter().flat_map(|j| phys(j).1).collect();
    let mentioned: Vec<&str> = skipped
        .iter()
        .flat_map(|j| {
            let (r, w) = phys(j);
            r.into_iter().chain(w)
        })
        .collect();
    let read_ok = reads
        .iter()
        .all(|p| matches!(*p, "exec" | "mode") && !written.contains(p));
    let write_ok = writes
        .iter()
        .all(|p| *p == "scc" && !mentioned.contains(p) && !crossed.iter().any(|b| is_call(b)));
    read_ok && write_ok
}

/// Whether, running `segs` in order, SCC is written before anything reads it (or never
/// mentioned): then its value where they start is never read.
pub fn scc_written_first(segs: &[Block]) -> bool {
    for i in segs.iter().flat_map(|s| &s.insts) {
        let (r, w) = phys(i);
        if r.contains(&"scc") {
            return false;
        }
        if w.contains(&"scc") {
            return true;
        }
    }
    true
}
