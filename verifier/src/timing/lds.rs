//! LDS hazards of one wave (docs/timing.md, "LDS hazards"). LDS is one unit, as if it were a
//! register (`RegSet::lds`), unless alias information were available (it is not: neither the
//! `.s` file nor the memory operands are trusted), so any two LDS accesses may overlap: an
//! over-approximation that can only add hazards.
//!
//! - An LDS-DMA load (`buffer_load_* ... lds`, `global_load_lds_*`; MIR `*_LDS_*`) writes LDS
//!   asynchronously, at M0-based addresses, until it completes on vmcnt (loadcnt on gfx12):
//!   it *writes* the LDS unit at completion, like a load writes its destination. A DS access
//!   (or a FLAT access that may reach LDS) of LDS while it may be pending is a hazard: it may
//!   read the old contents, or its write may be lost under the DMA's.
//! - DS accesses are ordered among themselves within a wave ([CLRX] "return data in order"),
//!   but not with the DMA path (LLVM #207473: "asynchronous VMEM->LDS direct loads ... are
//!   unordered even within a single wavefront", and the `lgkmcnt(0)` that orders LDS before
//!   a later LDS DMA): a DS access *holds* the LDS unit until it completes on its counter, so an
//!   LDS-DMA load issued while it may be pending is a hazard (its write may land first).
//! - Two LDS-DMA loads complete in issue order on their counter; the later one's write is
//!   assumed to land later (as LLVM's `VmemType` rule assumes for registers), so no hazard.

use super::classify::Access;
use super::regs::RegSet;
use gcnsmt_lifter::counters::{Counter, MemFamily};

/// The counter on which `a`'s LDS part completes: its DS counter (lgkmcnt, or dscnt on gfx12).
fn lds_counter(a: &Access) -> Option<Counter> {
    a.effects
        .iter()
        .find(|e| matches!(e.counter, Counter::Lgkm | Counter::Ds))
        .map(|e| e.counter)
}

/// Add the LDS unit to `a`: written by an LDS-DMA load; read by a DS access that returns
/// data; held by every DS access (and a FLAT access that may reach LDS) until its DS counter.
/// `reads_lds`: the DS access reads LDS (a load or an atomic; a store only writes it).
pub fn add_lds(a: &mut Access, reads_lds: bool) {
    let lds = RegSet::lds();
    match a.family {
        MemFamily::LdsDma => a.writes.union(&lds),
        MemFamily::Lds | MemFamily::FlatLoad | MemFamily::FlatStore => {
            if reads_lds {
                a.reads.union(&lds);
            }
            // Only where the held sources have no counter of their own (gfx1250 FLAT holds its
            // sources until xcnt): there the DMA-after-FLAT case is not modelled.
            match (a.held_until, lds_counter(a)) {
                (None, Some(c)) => {
                    a.held = lds.clone();
                    a.held_until = Some(c);
                }
                (Some(h), Some(c)) if h == c => a.held.union(&lds),
                _ => {}
            }
        }
        _ => {}
    }
}
