//! Whether SCC is live out of a block: some path from the block's end reads SCC before an
//! instruction writes it (a successor's `liveins: $scc`, an `implicit $scc` use, the
//! `S_CBRANCH_SCC*` terminators). MIR before register allocation lists no live-ins, so the
//! successors' code is read; a block that neither reads nor writes SCC passes the question on
//! to its own successors. A `dead` flag is not trusted (the pass under test sets them).

use super::mir::Block;

/// Whether SCC is live out of `b` (its terminators' reads included), given whether it is live
/// into each successor ([`live_in`]; `None` for a successor that is not a block of the
/// function, which is assumed to read SCC).
pub fn live_out(b: &Block, succ_live_in: impl IntoIterator<Item = Option<bool>>) -> bool {
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
    succ_live_in.into_iter().any(|l| l != Some(false))
}

/// Per block of `blocks` (with successors `succ`, as positions): whether SCC is live into
/// it. That is a path from the block through blocks that neither read nor write SCC to one
/// that lists `$scc` as a live-in or reads SCC before writing it, or to a successor outside
/// the function (`open`, assumed to read SCC); found backwards from those blocks in one pass
/// over the edges, so linear in the function's size.
pub fn live_in(blocks: &[Block], succ: &[Vec<usize>], open: &[bool]) -> Vec<bool> {
    let first_touch = |b: &Block| {
        b.insts
            .iter()
            .find(|i| super::scc::reads(i) || super::scc::writes(i))
            .map(super::scc::reads)
    };
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for (u, ss) in succ.iter().enumerate() {
        for &v in ss {
            pred[v].push(u);
        }
    }
    let touch: Vec<Option<bool>> = blocks.iter().map(first_touch).collect();
    let mut live: Vec<bool> = (0..blocks.len())
        .map(|v| {
            blocks[v].liveins.iter().any(|r| r == "scc")
                || touch[v] == Some(true)
                || (touch[v].is_none() && open[v])
        })
        .collect();
    let mut work: Vec<usize> = (0..blocks.len()).filter(|&v| live[v]).collect();
    while let Some(v) = work.pop() {
        for &u in &pred[v] {
            // A block that writes SCC first (or reads it, already live) ends the path.
            if !live[u] && touch[u].is_none() {
                live[u] = true;
                work.push(u);
            }
        }
    }
    live
}
