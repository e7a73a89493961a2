//! Scalar values that cross a split point of one block (`barrier.rs`): a definition in an
//! earlier segment that a later segment reads is copied in front of every later segment of its
//! side, so the value need not be compared where the segments meet.
//!
//! Why: the segments of a block are checked one by one, and a register one segment defines and
//! a later one reads is compared at the split point between them. When a pass replaced that
//! register on one side by an equal value of another block (`%38 = S_MOV_B32 1` in the loop
//! body before, `%25 = S_MOV_B32 1` of the preheader after early-machinelicm), the after-side
//! has no `%38` and the compare reports a difference that no execution shows.
//!
//! Which definitions (per side): a scalar ALU instruction (`S_*`, pure by
//! `effects::is_pure`) that is the only definition of its register in the block, whose
//! register operands have no definition in the block but in the preamble (copied into every
//! segment by `cut`) or by another such instruction, which reads no physical register, and
//! which writes no physical register but SCC.
//!
//! Why it is sound. The copy computes the same function of the same operands as the original:
//! the operands are virtual registers defined only outside the block (their value is fixed for
//! the block's whole run), by the preamble, or by copied instructions (inductively equal), and
//! nothing in the block writes them; the instruction reads no physical register, so nothing a
//! later segment or a split point changes can change its result. Re-running it at the start of
//! a later segment gives the register the value it already has, so that side's behaviour is
//! unchanged. It may write SCC only where that segment writes SCC before reading it (the copy's
//! SCC is then never read). A register so copied into every later segment of each side that
//! mentions it is computed there; comparing it at the split point adds nothing
//! ([`dropped`]).

use super::mir::{Block, Inst, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// The virtual registers `i` defines (explicit and `def`-flagged).
fn defs(i: &Inst) -> Vec<u32> {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// The virtual registers `i` reads.
fn reads(i: &Inst) -> Vec<u32> {
    i.ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def)
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// Whether `i`'s physical operands allow a copy: none read (but `implicit $exec` where
/// `exec_read`), only SCC written. `Some(writes SCC)` when allowed.
fn phys_ok(i: &Inst, exec_read: bool) -> Option<bool> {
    let mut scc = false;
    for (n, o) in i.defs.iter().chain(&i.ops).enumerate() {
        if let OpKind::Phys(p) = &o.kind {
            let write = n < i.defs.len() || o.flags.def || o.flags.implicit_def;
            if !write && exec_read && o.flags.implicit && p == "exec" {
                continue;
            }
            if !write || p != "scc" {
                return None;
            }
            scc = true;
        }
    }
    Some(scc)
}

/// Whether the segment writes SCC before anything in it reads SCC (and writes it at all).
fn scc_written_in(seg: &Block) -> bool {
    for i in &seg.insts {
        let mut read = false;
        let mut write = false;
        for (n, o) in i.defs.iter().chain(&i.ops).enumerate() {
            if let OpKind::Phys(p) = &o.kind {
                if p == "scc" {
                    if n < i.defs.len() || o.flags.def || o.flags.implicit_def {
                        write = true;
                    } else {
                        read = true;
                    }
                }
            }
        }
        if read {
            return false;
        }
        if write {
            return true;
        }
    }
    false
}

/// Copy the eligible definitions of each segment into the later segments of the same side
/// (after the preamble of `pre` instructions). `same_exec`: no instruction of either block
/// (terminators aside, which end the last segment) writes EXEC and none is a call, so EXEC is
/// the block's entry value wherever a segment starts: then a pure VALU op (`V_MOV_B32_e32 0,
/// implicit $exec`, breaker 15's 08: machine-cse reusing a VALU constant across `S_BARRIER`)
/// is copied too. Re-run at a later segment it writes the same active lanes the same function
/// of the same operands; its inactive lanes keep the segment's free starting value, which a
/// proof covers for every value (the one-lane model has no inactive lane L).
pub fn remat(segs: &mut [Block], pre: usize, target: Target, same_exec: bool) {
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for (k, s) in segs.iter().enumerate() {
        // The preamble repeats in every segment: count it once.
        let skip = if k == 0 { 0 } else { pre.min(s.insts.len()) };
        for i in &s.insts[skip..] {
            for d in defs(i) {
                *count.entry(d).or_default() += 1;
            }
        }
    }
    let preamble: BTreeSet<u32> = segs
        .first()
        .map(|s| s.insts.iter().take(pre).flat_map(defs).collect())
        .unwrap_or_default();
    let mut copied = BTreeSet::new();
    // Copies already inserted after the preamble of each segment (not picked again). The
    // preamble's length is taken before any insertion: a segment shorter than `pre` would
    // otherwise count the copies as preamble and skip past its end (a panic on gemm_tiled).
    let mut inserted = vec![0usize; segs.len()];
    let pre_len: Vec<usize> = segs.iter().map(|s| pre.min(s.insts.len())).collect();
    for k in 0..segs.len() {
        let skip = pre_len[k] + inserted[k];
        let mut picked: Vec<Inst> = Vec::new();
        for i in segs[k].insts[skip..].iter() {
            let ds = defs(i);
            let Some(scc) = phys_ok(i, same_exec) else {
                continue;
            };
            let valu = same_exec
                && i.opcode.starts_with("V_")
                && matches!(
                    super::opcodes::lookup(target, &i.opcode),
                    Some(super::opcodes::MirOp::Alu { .. })
                );
            let eligible = (i.opcode.starts_with("S_") || valu)
                && super::effects::is_pure(&i.opcode, target)
                && !super::effects::is_terminator(&i.opcode)
                && !ds.is_empty()
                && ds.iter().all(|d| count.get(d) == Some(&1))
                && reads(i)
                    .iter()
                    .all(|r| !count.contains_key(r) || preamble.contains(r) || copied.contains(r))
                && (!scc || segs[k + 1..].iter().all(scc_written_in));
            if eligible {
                copied.extend(ds);
                picked.push(i.clone());
            }
        }
        for (j, later) in segs.iter_mut().enumerate().skip(k + 1) {
            let at = pre_len[j] + inserted[j];
            later.insts.splice(at..at, picked.iter().cloned());
            inserted[j] += picked.len();
        }
    }
}

/// Whether register `r` is dead where segment `k` ends on one side: in the later segments and
/// the split points between them (`bars[j]` ends segment `j`), in order, its first mention is
/// a definition; with no mention, whether it is not live out of the block (`liveout`).
fn dead_after(r: u32, k: usize, segs: &[Block], bars: &[&Inst], liveout: bool) -> bool {
    let seq = segs
        .iter()
        .enumerate()
        .skip(k + 1)
        .flat_map(|(j, s)| s.insts.iter().chain(bars.get(j).copied()));
    for i in seq {
        if reads(i).contains(&r) {
            return false;
        }
        if defs(i).contains(&r) {
            return true;
        }
    }
    !liveout
}

/// Whether `r` need not be compared where segment `k` ends: its value there is read by no later
/// segment or split point of either side (each defines it first, the copies [`remat`] made
/// included), and it is not the block's live-out value.
pub fn dropped(r: u32, k: usize, sides: [(&[Block], &[&Inst]); 2], liveout: bool) -> bool {
    sides
        .iter()
        .all(|(segs, bars)| dead_after(r, k, segs, bars, liveout))
}
