//! LDS DMA (`BUFFER_LOAD_*_LDS_*`: a buffer load whose data goes to LDS at `M0[15:0] +
//! offset + lane * 4`, not to a register) and the order of LDS accesses around it.
//!
//! tv lowers an LDS DMA load as a write of LDS where it is issued (the semantics of
//! `buffer_load_dword ... lds`, `machine/buffer.rs`). The hardware writes LDS when the data
//! returns (VMcnt counts it); the program waits (`S_WAITCNT vmcnt`) before an LDS access that
//! depends on it. tv assumes those waits are right (docs/tv.md, "waits") and compares one wave's
//! values in program order. A pass that moves an LDS access across an LDS DMA load changes
//! which of them a wait orders, which that assumption does not cover: such a block is
//! `unsupported` (the timing check, issue 30, owns it).

use super::mir::{Block, Inst};
use super::opcodes::{self, MirOp};
use gcnsmt_semantics::target::Target;

/// Whether `i` is an LDS DMA load (a MUBUF `_LDS_` form), modelled or not; the GLOBAL forms
/// (`GLOBAL_LOAD_LDS_*`, gfx1250's `GLOBAL_LOAD_ASYNC_TO_LDS_*` and
/// `GLOBAL_STORE_ASYNC_FROM_LDS_*`) are effects elsewhere (`effects.rs`).
pub fn is_lds_dma(i: &Inst, target: Target) -> bool {
    match opcodes::lookup(target, &i.opcode) {
        Some(MirOp::Mubuf { lds, .. }) => lds,
        _ => i.opcode.starts_with("BUFFER_") && i.opcode.contains("_LDS_"),
    }
}

/// Whether `i` may read or write LDS other than by LDS DMA: a DS op or a FLAT access (the
/// aperture decides).
fn touches_lds(i: &Inst) -> bool {
    i.opcode.starts_with("DS_") || i.opcode.starts_with("FLAT_")
}

/// For each LDS DMA load of `b`, in order, the texts of the other LDS accesses before it.
fn epochs(b: &Block, target: Target) -> Vec<Vec<&str>> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for i in &b.insts {
        if is_lds_dma(i, target) {
            let mut s = seen.clone();
            s.sort_unstable();
            out.push(s);
        } else if touches_lds(i) {
            seen.push(&i.key);
        }
    }
    out
}

/// The reason a block pair is `unsupported` when an LDS access is not on the same side of
/// each LDS DMA load on both sides (or the sides run different numbers of them). Accesses are
/// named by their text, so a pass that merges LDS accesses before an LDS DMA load is refused
/// too (sound, coarse).
pub fn reordered(before: &Block, after: &Block, target: Target) -> Option<String> {
    let (eb, ea) = (epochs(before, target), epochs(after, target));
    if eb.is_empty() && ea.is_empty() || eb == ea {
        return None;
    }
    Some(
        "an LDS access moved across an LDS DMA load (which writes LDS asynchronously; the \
         order its waits give is not modelled)"
            .into(),
    )
}
