//! Whether SCC is live out of a block: some path from the block's end reads SCC before an
//! instruction writes it (a successor's `liveins: $scc`, an `implicit $scc` use, the
//! `S_CBRANCH_SCC*` terminators). MIR before register allocation lists no live-ins, so the
//! successors' code is read; a block that neither reads nor writes SCC passes the question on
//! to its own successors. A `dead` flag is not trusted (the pass under test sets them).

use super::mir::{Block, Function};
use std::collections::BTreeSet;

/// Whether SCC is live out of `b` in `f` (its terminators' reads included).
pub fn live_out(f: &Function, b: &Block) -> bool {
    let terms = b
        .insts
        .iter()
        .filter(|i| super::lower::is_terminator(&i.opcode));
    for i in terms {
        if super::scc::reads(i) {
            return true;
        }
        if super::scc::writes(i) {
            return false;
        }
    }
    let mut seen = BTreeSet::new();
    let mut work: Vec<u32> = b.successors.clone();
    while let Some(n) = work.pop() {
        if !seen.insert(n) {
            continue;
        }
        let Some(s) = f.blocks.iter().find(|s| s.num == n) else {
            // An unknown block: assume it reads SCC.
            return true;
        };
        if s.liveins.iter().any(|r| r == "scc") {
            return true;
        }
        match s
            .insts
            .iter()
            .find(|i| super::scc::reads(i) || super::scc::writes(i))
        {
            Some(i) if super::scc::reads(i) => return true,
            Some(_) => {}
            None => work.extend(&s.successors),
        }
    }
    false
}
