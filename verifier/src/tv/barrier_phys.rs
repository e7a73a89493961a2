//! Instructions on physical registers that a post-RA pass moved across a split point
//! (`barrier.rs`): postmisched hoists pure VALU work such as `$vcc = V_CMP_LT_U32_e32 16,
//! $vgpr0` above an `S_BARRIER` (breaker 17's 12, breaker 18's 01). The segment checks would
//! compare the moved definition's register at the barrier with a value the other side computes
//! only after it, a false refutation. [`align`] moves such an after-side instruction back into
//! the segment the before-side has it in, when that cannot change what the after-file
//! computes:
//! - the instruction is pure (`effects::is_pure`) and names no virtual register (those are
//!   `barrier::align_moved`'s);
//! - no split point it crosses is a call (a call clobbers registers);
//! - no instruction it jumps over writes a 32-bit unit (`alloc_ops::units`: tuples and their
//!   parts alias) the moved instruction reads, or reads or writes a unit it writes; a register
//!   whose units are not known (a 16-bit half) keeps it where it is.
//!
//! Then the reordered after-file computes what the after-file computes (the same instructions
//! on the same values, only independent ones exchanged; a barrier, fence or cache operation
//! touches no register), so checking it is checking the after-file.

use super::alloc_ops::units;
use super::mir::{Block, Inst, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// The 32-bit units `i` reads and writes; `None` when one is not known or `i` names a virtual
/// register.
fn touched(i: &Inst) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
    let (mut r, mut w) = (BTreeSet::new(), BTreeSet::new());
    for (n, o) in i.defs.iter().chain(&i.ops).enumerate() {
        match &o.kind {
            OpKind::VReg { .. } => return None,
            OpKind::Phys(p) => {
                let us = units(p).ok()?;
                if n < i.defs.len() || o.flags.def || o.flags.implicit_def {
                    w.extend(us);
                } else {
                    r.extend(us);
                }
            }
            _ => {}
        }
    }
    Some((r, w))
}

/// Whether `i` may be moved over `skipped` and the split points `crossed` (module docs).
fn movable(i: &Inst, skipped: &[&Inst], crossed: &[String], target: Target) -> bool {
    if !super::effects::is_pure(&i.opcode, target)
        || crossed.iter().any(|b| super::barrier_move::is_call(b))
    {
        return false;
    }
    let Some((reads, writes)) = touched(i) else {
        return false;
    };
    skipped.iter().all(|j| match touched(j) {
        Some((jr, jw)) => {
            jw.is_disjoint(&reads) && jw.is_disjoint(&writes) && jr.is_disjoint(&writes)
        }
        None => false,
    })
}

/// How often `key` occurs in `b`.
fn count(b: &Block, key: &str) -> usize {
    b.insts.iter().filter(|i| i.key == key).count()
}

/// One move: an after-side instruction in a segment that has more of its text than the
/// before-side's, put back into the nearest segment that has fewer.
fn one_move(sb: &[Block], sa: &mut [Block], bars: &[String], target: Target) -> bool {
    for ka in 0..sa.len() {
        for pos in 0..sa[ka].insts.len() {
            let key = sa[ka].insts[pos].key.clone();
            if count(&sa[ka], &key) <= count(&sb[ka], &key) {
                continue;
            }
            let short = |k: &usize| count(&sb[*k], &key) > count(&sa[*k], &key);
            let Some(kb) = (0..sa.len()).filter(short).min_by_key(|k| k.abs_diff(ka)) else {
                continue;
            };
            let i = sa[ka].insts[pos].clone();
            let (skipped, crossed): (Vec<&Inst>, &[String]) = if kb < ka {
                let mut s: Vec<&Inst> = sa[kb + 1..ka].iter().flat_map(|b| &b.insts).collect();
                s.extend(&sa[ka].insts[..pos]);
                (s, &bars[kb..ka])
            } else {
                let mut s: Vec<&Inst> = sa[ka].insts[pos + 1..].iter().collect();
                s.extend(sa[ka + 1..kb].iter().flat_map(|b| &b.insts));
                (s, &bars[ka..kb])
            };
            if !movable(&i, &skipped, crossed, target) {
                continue;
            }
            sa[ka].insts.remove(pos);
            if kb < ka {
                sa[kb].insts.push(i);
            } else {
                sa[kb].insts.insert(0, i);
            }
            return true;
        }
    }
    false
}

/// One sink: an instruction of side `sx` that segment `k` has more of than the other side's
/// segment `k` (so the other side does not compute it there) and that nothing after it in
/// its segment reads, moved to the start of segment `k + 1`.
fn one_sink(sx: &mut [Block], sy: &[Block], bars: &[String], target: Target) -> bool {
    for k in 0..sx.len().saturating_sub(1) {
        for pos in (0..sx[k].insts.len()).rev() {
            let key = sx[k].insts[pos].key.clone();
            if count(&sx[k], &key) <= count(&sy[k], &key) {
                continue;
            }
            let i = sx[k].insts[pos].clone();
            let skipped: Vec<&Inst> = sx[k].insts[pos + 1..].iter().collect();
            if !movable(&i, &skipped, &bars[k..=k], target) {
                continue;
            }
            sx[k].insts.remove(pos);
            sx[k + 1].insts.insert(0, i);
            return true;
        }
    }
    false
}

/// Sink, on each side, the instructions the other side does not compute in the same segment
/// past the split point that ends it (si-optimize-exec-masking on wave32 deletes a
/// `$vcc_lo = V_CMP` before an `S_BARRIER` whose only reader, after it, became a `V_CMPX`:
/// breaker 18's 07). The same independence argument as [`align`]'s: an instruction that
/// nothing later in its segment reads or overwrites, and whose operands nothing there writes,
/// gives the same results at the start of the next segment (the split point, not a call,
/// touches no register). So each side still computes what it computed, and the value it
/// defined is no longer compared at the split point, where the other side never had it.
pub(super) fn sink(sb: &mut [Block], sa: &mut [Block], bars: &[String], target: Target) {
    if sb.len() != sa.len() || bars.len() + 1 < sa.len() {
        return;
    }
    for _ in 0..64 {
        if !one_sink(sb, sa, bars, target) && !one_sink(sa, sb, bars, target) {
            return;
        }
    }
}

/// Move the after-side's moved instructions back (module docs). `bars`: the opcodes of the
/// split points, the same on both sides (`bars[k]` ends segment `k`).
pub(super) fn align(sb: &[Block], sa: &mut [Block], bars: &[String], target: Target) {
    if sb.len() != sa.len() || bars.len() + 1 < sa.len() {
        return;
    }
    for _ in 0..64 {
        if !one_move(sb, sa, bars, target) {
            return;
        }
    }
}
