//! Loads whose cache policies differ within a block pair (issue 28): the loads with a policy
//! are kept uninterpreted, so a proof never rests on a policy load and a plain load of the same
//! address returning the same value (docs/tv.md, "How a block pair is checked", item 9).
//!
//! Before, a block pair whose loads had different policies (`glc` next to plain loads) had every
//! access compared with every other, and any difference between them was `unsupported` ("an
//! access lost cache policy glc slc while another kept it"): a pass could move a use from a
//! `glc` load to a plain load of the same address, which the memory model (no caches) cannot
//! tell apart (breaker7 02). Every pass that changed anything in such a block was refused.
//!
//! Now, when every load with a policy has a same-text twin on the other side (as multisets) and
//! no instruction that may write memory comes before the last of them on either side, each one
//! is renamed to an opcode the lowering does not model ([`effects::PINNED`], pure in
//! [`effects::memory_of`]) and takes the uninterpreted path (docs/tv.md, assumption 2): its
//! inputs (address registers, V#, EXEC) are compared where it runs and its result is a fresh
//! value both sides share. Soundness: with no write before it, the load reads the memory of the
//! block's start, the same on both sides, at the same address, with the same instruction text
//! (policy included): both sides' twins read the same bytes the same way, so one shared value
//! (universally quantified) stands for the real one. The plain loads keep their memory
//! semantics; a use moved from a policy load to a plain one now rests on the fresh value,
//! which the taint analysis reports as `unknown`, never `proved`. The policies of the remaining
//! accesses (plain loads, stores) go through [`super::cpol::cache_policy`] as before.

use super::cpol;
use super::effects;
use super::mir::{Block, Inst};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// [`cpol::cache_policy`] of the pair, after [`pin`] where it applies: then the blocks to lower
/// are the renamed ones (`Strip` carries them, their remaining policies stripped or not).
pub fn policy(before: &Block, after: &Block, target: Target) -> cpol::Policy {
    let Some((b, a)) = pin(before, after, target) else {
        return cpol::cache_policy(before, after, target);
    };
    match cpol::cache_policy(&b, &a, target) {
        cpol::Policy::Keep => cpol::Policy::Strip(Box::new((b, a))),
        p => p,
    }
}

/// The block pair with its policy loads renamed to uninterpreted twins, when the loads of the
/// pair have more than one policy and the conditions above hold; `None` otherwise (the pair is
/// then checked as it is).
pub fn pin(before: &Block, after: &Block, target: Target) -> Option<(Block, Block)> {
    let policies: BTreeSet<i64> = before
        .insts
        .iter()
        .chain(&after.insts)
        .filter_map(|i| cpol::load_policy(i, target))
        .collect();
    if policies.len() <= 1 {
        return None;
    }
    let pinned = |i: &Inst| cpol::load_policy(i, target).is_some_and(|p| p != 0);
    let keys = |b: &Block| {
        let mut k: Vec<String> = b
            .insts
            .iter()
            .filter(|i| pinned(i))
            .map(|i| i.key.clone())
            .collect();
        k.sort_unstable();
        k
    };
    if keys(before) != keys(after) {
        return None;
    }
    for b in [before, after] {
        let Some(last) = b.insts.iter().rposition(pinned) else {
            continue;
        };
        // Nothing up to the last policy load (itself included) may write memory: each policy
        // load then reads the memory the block starts with.
        let quiet = b.insts[..=last]
            .iter()
            .all(|i| effects::writes(i, target) == (false, false) && !i.private);
        if !quiet {
            return None;
        }
    }
    let rename = |b: &Block| {
        let mut b = b.clone();
        for i in b.insts.iter_mut().filter(|i| pinned(i)) {
            let op = format!("{}{}", effects::PINNED, i.opcode);
            i.key = i.key.replacen(&i.opcode, &op, 1);
            i.opcode = op;
        }
        b
    };
    Some((rename(before), rename(after)))
}
