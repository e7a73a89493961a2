//! Blocks with workgroup barriers (`S_BARRIER`; gfx12's `S_BARRIER_SIGNAL_IMM` and
//! `S_BARRIER_WAIT`), checked as barrier-free segments.
//!
//! tv checks one lane with no other wave running, and a barrier changes nothing in that lane's
//! registers or memory. It is where the other waves of the workgroup run: they read the LDS and
//! global memory this wave wrote before the barrier and may write any of it before this wave
//! goes on. A pass keeps that meaning only if (1) both sides run the same barriers in the same
//! order, (2) memory is equal at each barrier (no store moved across one), and (3) the code
//! after a barrier is correct for whatever memory the other waves left (no load moved across
//! one). Checking each segment between barriers as a block pair of its own gives all three: a
//! rule starts from arbitrary memory, the same on both sides, and must end with equal memory.
//! Registers belong to the lane: a register one segment defines and another segment (or block)
//! mentions is live-out of the segment, so it must be equal at the barrier.
//!
//! A definition the pass moved into another segment would be compared with an unrelated input
//! (a scheduler may move pure ALU across a barrier): such a block is `unsupported`, never
//! refuted.

use super::diff::BlockPair;
use super::lower::{defined, Unsupported};
use super::mir::{Block, Inst, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// Whether `op` is a split point: a workgroup barrier, or a call (`SI_CALL`). A call is checked
/// like a barrier without modelling the callee: memory must be equal where it runs, and
/// afterwards memory and every register it may clobber are whatever it left, the same on both
/// sides (the next segment starts from arbitrary, shared inputs), so a re-initialisation a
/// pass deleted after a call is refuted. The registers the call reads (its arguments) must be
/// equal where it runs.
///
/// Cache maintenance (`BUFFER_GL0_INV`, `BUFFER_GL1_INV`, `BUFFER_INV`, `BUFFER_WBL2`,
/// `BUFFER_WBINVL1*`) is a split point too: it changes nothing in one wave's registers and
/// memory, but an invalidate lets this wave see what other agents stored (memory is arbitrary,
/// the same on both sides, after it) and a writeback publishes what it stored (memory must be
/// equal there). Both sides must run the same cache operations in the same order, and no memory
/// access may cross one; a pass that adds, drops or reorders one is `unsupported` (which order
/// a memory model needs is not modelled).
///
/// `ATOMIC_FENCE ordering, scope` (LLVM's `fence`, which si-memory-legalizer expands after
/// register allocation into waits and cache operations) is a split point for the same reason:
/// it writes no register of the wave and no memory, and it is where other agents' stores become
/// visible to this wave (acquire) and this wave's stores to them (release). So memory must be
/// equal at it and is arbitrary, the same on both sides, after it; both sides must run the same
/// fences (ordering and scope are its operands, compared as text) in the same order.
pub fn is_barrier(op: &str) -> bool {
    matches!(
        op,
        "S_BARRIER"
            | "S_BARRIER_SIGNAL_IMM"
            | "S_BARRIER_WAIT"
            | "S_SWAPPC_B64"
            | "S_CALL_B64"
            | "ATOMIC_FENCE"
    ) || op.starts_with("SI_CALL")
        || is_cache_op(op)
}

/// Cache invalidates and writebacks (see [`is_barrier`]).
pub fn is_cache_op(op: &str) -> bool {
    matches!(
        op,
        "BUFFER_GL0_INV" | "BUFFER_GL1_INV" | "BUFFER_INV" | "BUFFER_WBL2"
    ) || op.starts_with("BUFFER_WBINVL1")
}

/// An unmodelled global memory access (`GLOBAL_ATOMIC_*`, the D16 loads and stores, an
/// unmodelled `S_LOAD` form): a split point too (docs/tv.md, "Rules added after the wrong
/// proofs of break4"). It reads and writes global memory in program order with the modelled
/// accesses, which a dropped twin would lose: at the split memory must be equal and so must
/// its operands (they are live-out of the segment before), so it reads the same bytes and
/// writes the same ones on both sides; afterwards memory and its results are arbitrary, the
/// same on both sides. Image reads have their own rule (`mimg.rs`).
pub fn is_global_twin(op: &str, target: Target) -> bool {
    use super::effects::{memory_of, Mem};
    super::opcodes::lookup(target, op).is_none()
        && !super::mimg::is_image_read(op)
        && matches!(memory_of(op), Mem::ReadsGlobal | Mem::WritesGlobal)
}

/// Whether `op` splits a block ([`is_barrier`] or [`is_global_twin`]).
pub fn is_split(op: &str, target: Target) -> bool {
    is_barrier(op) || is_global_twin(op, target)
}

/// Whether the block has a split point.
pub fn has_barrier(b: &Block, target: Target) -> bool {
    b.insts.iter().any(|i| is_split(&i.opcode, target))
}

/// Whether the block has an unmodelled global access (a split point whose memory compare may
/// report bytes it never reads: a refutation there is `unknown`).
pub fn has_global_twin(b: &Block, target: Target) -> bool {
    b.insts.iter().any(|i| is_global_twin(&i.opcode, target))
}

/// One segment pair of a block pair: the instructions between two barriers on each side.
#[derive(Clone, Debug)]
pub struct Segment {
    /// The before-side instructions (the block's successors only on the last segment).
    pub before: Block,
    /// The after-side instructions.
    pub after: Block,
    /// Virtual registers that must end equal: the block's live-outs and every register another
    /// segment of either side mentions.
    pub liveout: BTreeSet<u32>,
    /// Physical registers that must end equal: the block's and those later segments mention.
    pub phys_live: BTreeSet<String>,
    /// The instruction texts differ.
    pub changed: bool,
    /// The after-side barrier that ends the segment (`None` for the last one).
    pub barrier: Option<crate::rules::Loc>,
}

/// The segments of `b`, its split points and the length of the preamble each segment starts with.
fn cut(b: &Block, target: Target) -> (Vec<Block>, Vec<&Inst>, usize) {
    let mut segs = vec![Vec::new()];
    let mut bars = Vec::new();
    // The block's preamble (copies of pure definitions of other blocks, `ssa.rs`) starts every
    // segment: a segment's check then never reads a copied value from another segment.
    let phis = b.insts.iter().take_while(|i| i.opcode == "PHI").count();
    let preamble: Vec<Inst> = b.insts[phis..]
        .iter()
        .take_while(|i| {
            // Only copies: every definition a virtual register `ssa.rs` inlined. The block's
            // own first instruction may write a physical register only (`$exec = S_OR_B64
            // $exec, %19` after a join) and is not part of the preamble.
            let copy = |d: &super::mir::Operand| {
                matches!(d.kind, OpKind::VReg { id, .. } if b.inlined.contains(&id))
            };
            !b.inlined.is_empty() && !i.defs.is_empty() && i.defs.iter().all(copy)
        })
        .cloned()
        .collect();
    for i in &b.insts {
        if is_split(&i.opcode, target) {
            bars.push(i);
            segs.push(preamble.clone());
        } else {
            segs.last_mut()
                .expect("one segment at least")
                .push(i.clone());
        }
    }
    let n = segs.len();
    let blocks = segs
        .into_iter()
        .enumerate()
        .map(|(k, insts)| Block {
            num: b.num,
            loc: insts.first().map_or(b.loc, |i: &Inst| i.loc),
            successors: if k + 1 == n {
                b.successors.clone()
            } else {
                Vec::new()
            },
            successor_locs: Vec::new(),
            successors_listed: true,
            liveins: if k == 0 {
                b.liveins.clone()
            } else {
                Vec::new()
            },
            insts,
            inlined: b.inlined.clone(),
        })
        .collect();
    (blocks, bars, preamble.len())
}

fn vregs(b: &Block) -> BTreeSet<u32> {
    b.insts
        .iter()
        .flat_map(|i| i.defs.iter().chain(&i.ops))
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

fn phys(b: &Block) -> BTreeSet<String> {
    b.insts
        .iter()
        .flat_map(|i| i.defs.iter().chain(&i.ops))
        .filter_map(|o| match &o.kind {
            OpKind::Phys(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

/// For each virtual register, the segments that define it.
fn def_segments(segs: &[Block]) -> BTreeMap<u32, BTreeSet<usize>> {
    let mut m: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    for (k, s) in segs.iter().enumerate() {
        for r in defined(s) {
            m.entry(r).or_default().insert(k);
        }
    }
    m
}

/// Split a block pair with barriers into its segment pairs. Errors (`unsupported`): the two
/// sides run different barriers, or the pass moved a register's definition across one that
/// [`align_moved`] cannot undo.
/// `files`: the before- and after-file paths, for messages.
pub fn split(
    bp: &BlockPair,
    files: (&str, &str),
    target: Target,
) -> Result<Vec<Segment>, Unsupported> {
    for (b, file) in [(&bp.before, files.0), (&bp.after, files.1)] {
        if let Some(m) = super::calls::unknown_mask(b, file) {
            return Err(Unsupported(m));
        }
    }
    let (sb, bars_b, pre_b) = cut(&bp.before, target);
    let (sa, bars_a, pre_a) = cut(&bp.after, target);
    let keys = |v: &[&Inst]| v.iter().map(|i| i.key.clone()).collect::<Vec<_>>();
    if keys(&bars_b) != keys(&bars_a) {
        let at = bars_a.first().map_or(bp.after.loc, |i| i.loc);
        let what = if bars_a.iter().chain(&bars_b).any(|i| is_cache_op(&i.opcode)) {
            "a barrier or cache invalidate/writeback (the memory model's order is not modelled)"
        } else if bars_a
            .iter()
            .chain(&bars_b)
            .any(|i| is_global_twin(&i.opcode, target))
        {
            "an unmodelled global memory access (its order with the other accesses matters)"
        } else if bars_a.iter().chain(&bars_b).any(|i| {
            i.opcode.starts_with("SI_CALL")
                || matches!(i.opcode.as_str(), "S_SWAPPC_B64" | "S_CALL_B64")
        }) {
            "a call, or changed a call's callee, arguments or register mask"
        } else {
            "a barrier"
        };
        return Err(Unsupported(format!(
            "{}:{}:{}: the pass added, removed or reordered {what}",
            files.1, at.line, at.col
        )));
    }
    let (mut sb, mut sa) = (sb, sa);
    let ops = |v: &[&Inst]| v.iter().map(|i| i.opcode.clone()).collect::<Vec<_>>();
    align_moved(&mut sb, &mut sa, &ops(&bars_b), target);
    super::barrier_phys::align(&sb, &mut sa, &ops(&bars_b), target);
    super::barrier_phys::sink(&mut sb, &mut sa, &ops(&bars_b), target);
    carry_preserved(bp, (&mut sb, &mut sa), (pre_b, pre_a), target);
    let (db, da) = (def_segments(&sb), def_segments(&sa));
    for (r, kb) in &db {
        if let Some(ka) = da.get(r) {
            if ka != kb {
                return Err(Unsupported(format!(
                    "{}:{}:{}: the pass moved the definition of %{r} across a barrier",
                    files.1, bp.after.loc.line, bp.after.loc.col
                )));
            }
        }
    }
    // Scalar values a later segment reads are recomputed there (`barrier_remat.rs`).
    let same_exec = !super::exec::writes(&bp.before, &bp.after)
        && !(bp.before.insts.iter().chain(&bp.after.insts))
            .any(|i| super::barrier_move::is_call(&i.opcode));
    super::barrier_remat::remat(&mut sb, pre_b, target, same_exec);
    super::barrier_remat::remat(&mut sa, pre_a, target, same_exec);
    // Registers only a preamble defines, on both sides (none has a real definition here).
    let (def_b, def_a) = (defined(&bp.before), defined(&bp.after));
    let real = |b: &Block, d: &BTreeSet<u32>, r: &u32| d.contains(r) && !b.inlined.contains(r);
    let copied = |r: &u32| {
        (bp.before.inlined.contains(r) || bp.after.inlined.contains(r))
            && !real(&bp.before, &def_b, r)
            && !real(&bp.after, &def_a, r)
    };
    let mut out = Vec::new();
    for k in 0..sb.len() {
        let others = |segs: &[Block]| -> BTreeSet<u32> {
            segs.iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .flat_map(|(_, s)| vregs(s))
                .collect()
        };
        let later = |segs: &[Block]| -> BTreeSet<String> {
            segs.iter().skip(k + 1).flat_map(phys).collect()
        };
        let mut liveout = bp.liveout.clone();
        liveout.extend(others(&sb));
        liveout.extend(others(&sa));
        // Every segment computes the copied values itself (see `cut`).
        liveout.retain(|r| bp.liveout.contains(r) || !copied(r));
        // A register every later segment of both sides defines before reading it is dead here
        // (after the last segment: one the block does not leave live).
        let sides = [(&sb[..], &bars_b[..]), (&sa[..], &bars_a[..])];
        liveout.retain(|r| !super::barrier_remat::dropped(*r, k, sides, bp.liveout.contains(r)));
        let mut phys_live = bp.phys_live.clone();
        phys_live.extend(later(&sb));
        phys_live.extend(later(&sa));
        // SCC that every later segment of both sides writes before it reads it is dead here
        // (a dead SCC def the pass moved across the barrier must not be compared).
        if !bp.phys_live.contains("scc")
            && super::barrier_move::scc_written_first(&sb[k + 1..])
            && super::barrier_move::scc_written_first(&sa[k + 1..])
        {
            phys_live.remove("scc");
        }
        // What the split point ending this segment reads (a call's arguments and callee).
        for bar in bars_b.get(k).into_iter().chain(bars_a.get(k)) {
            for o in bar
                .ops
                .iter()
                .filter(|o| !o.flags.def && !o.flags.implicit_def)
            {
                match &o.kind {
                    OpKind::VReg { id, .. } => {
                        liveout.insert(*id);
                    }
                    OpKind::Phys(p) => {
                        phys_live.insert(p.clone());
                    }
                    _ => {}
                }
            }
        }
        if let Some(call) = bars_b.get(k) {
            super::calls::drop_clobbered(call, &mut phys_live, target);
        }
        // A call clobbers SCC (no AMDGPU calling convention preserves it, and the callee does
        // not read the caller's): what the segment leaves in it is never read.
        if bars_b
            .get(k)
            .is_some_and(|b| b.opcode.starts_with("SI_CALL"))
        {
            phys_live.remove("scc");
        }
        let changed = keys(&sb[k].insts.iter().collect::<Vec<_>>())
            != keys(&sa[k].insts.iter().collect::<Vec<_>>());
        out.push(Segment {
            before: sb[k].clone(),
            after: sa[k].clone(),
            liveout,
            phys_live,
            changed,
            barrier: bars_a.get(k).map(|i| i.loc),
        });
    }
    Ok(out)
}

/// After each call with a register mask, replay on each side the definitions of the preserved
/// registers the rest of the block mentions (`calls.rs`), after the segment's preamble. A cell
/// is carried only where both sides can replay its definition, from virtual registers both
/// blocks define or neither does (a register one side alone defines would be compared with an
/// unrelated input where the segment before ends).
fn carry_preserved(
    bp: &BlockPair,
    (sb, sa): (&mut [Block], &mut [Block]),
    (pre_b, pre_a): (usize, usize),
    target: Target,
) {
    let (def_b, def_a) = (defined(&bp.before), defined(&bp.after));
    let vreg_ok = |r: u32| def_b.contains(&r) == def_a.contains(&r);
    let split_at = |b: &Block, k: usize| {
        b.insts
            .iter()
            .enumerate()
            .filter(|(_, i)| is_split(&i.opcode, target))
            .nth(k - 1)
            .map(|(j, _)| j)
    };
    let mut added: Vec<(usize, Vec<Inst>, Vec<Inst>)> = Vec::new();
    for k in 1..sb.len() {
        let mut names = bp.phys_live.clone();
        names.extend(sb[k..].iter().chain(sa[k..].iter()).flat_map(phys));
        let cells = super::calls::cells_of(&names, target);
        let (Some(ub), Some(ua)) = (split_at(&bp.before, k), split_at(&bp.after, k)) else {
            continue;
        };
        let cb = super::calls::carriers(&bp.before.insts, ub, &cells, &vreg_ok, target);
        let ca = super::calls::carriers(&bp.after.insts, ua, &cells, &vreg_ok, target);
        let pick = |m: &BTreeMap<String, usize>, other: &BTreeMap<String, usize>, b: &Block| {
            let js: BTreeSet<usize> = m
                .iter()
                .filter(|(c, _)| other.contains_key(*c))
                .map(|(_, j)| *j)
                .collect();
            js.into_iter()
                .map(|j| b.insts[j].clone())
                .collect::<Vec<_>>()
        };
        added.push((k, pick(&cb, &ca, &bp.before), pick(&ca, &cb, &bp.after)));
    }
    for (k, cb, ca) in added {
        for (seg, pre, c) in [(&mut sb[k], pre_b, cb), (&mut sa[k], pre_a, ca)] {
            let at = pre.min(seg.insts.len());
            seg.insts.splice(at..at, c);
        }
    }
}

/// A scheduler may move pure instructions across a barrier (llc-22 hoists the
/// `V_READFIRSTLANE_B32`s of LLVM's schedule-barrier.mir above its `S_BARRIER`). For a register
/// defined in different segments on the two sides, hoist its later definitions on either side
/// to the end of the earliest segment, when that is the same computation there: each defining
/// instruction may be moved there ([`barrier_move::movable`]: pure, or an invariant scalar
/// load), every register it reads is defined by then, and nothing between reads the register
/// or touches a physical register it writes. Otherwise the block stays as it is (and [`split`]
/// reports the move). `bars`: the opcodes of the split points, the same on both sides.
fn align_moved(sb: &mut [Block], sa: &mut [Block], bars: &[String], target: Target) {
    for _ in 0..64 {
        let (db, da) = (def_segments(sb), def_segments(sa));
        let moved = db.iter().find_map(|(r, kb)| {
            let ka = da.get(r)?;
            (ka != kb).then(|| (*r, (*kb.iter().chain(ka).min().expect("non-empty"))))
        });
        let Some((r, k)) = moved else { return };
        let (mut b2, mut a2) = (sb.to_vec(), sa.to_vec());
        if !(hoist(&mut b2, r, k, bars, target) && hoist(&mut a2, r, k, bars, target)) {
            return;
        }
        sb.clone_from_slice(&b2);
        sa.clone_from_slice(&a2);
    }
}

fn reads(i: &Inst, r: u32) -> bool {
    i.ops.iter().any(|o| {
        matches!(o.kind, OpKind::VReg { id, .. } if id == r)
            && !o.flags.def
            && !o.flags.implicit_def
    })
}

/// Move the instructions of segments after `k` that define `r` to the end of segment `k`, in
/// order; `false` (nothing to trust) when that might change what they compute.
fn hoist(segs: &mut [Block], r: u32, k: usize, bars: &[String], target: Target) -> bool {
    let tmpl = Block {
        insts: Vec::new(),
        ..segs[0].clone()
    };
    let defines = |i: &Inst| {
        let one = Block {
            insts: vec![i.clone()],
            ..tmpl.clone()
        };
        defined(&one).contains(&r)
    };
    let mut moved = Vec::new();
    // A reader of `r` before one of its later definitions would see that definition early.
    let mut read = false;
    // The instructions a moved one jumps over (its physical registers must be untouched there).
    let mut skipped: Vec<Inst> = Vec::new();
    // The split points a moved instruction jumps over.
    let mut crossed: Vec<&str> = Vec::new();
    for (j, seg) in segs.iter_mut().enumerate().skip(k + 1) {
        crossed.extend(bars.get(j - 1).map(String::as_str));
        let mut keep = Vec::new();
        for i in std::mem::take(&mut seg.insts) {
            if !defines(&i) {
                read |= reads(&i, r);
                skipped.push(i.clone());
                keep.push(i);
                continue;
            }
            if read || !super::barrier_move::movable(&i, &skipped, &crossed, target) {
                return false;
            }
            moved.push(i);
        }
        seg.insts = keep;
    }
    // Everything the moved instructions read (but `r`) must be defined by the end of segment k.
    // A value the block's preamble copies (`cut`) is defined, the same, at the start of every
    // segment.
    let later: BTreeSet<u32> = segs[k + 1..].iter().flat_map(defined).collect();
    let copied = &segs[k].inlined;
    let ok = moved.iter().all(|i| {
        i.ops.iter().all(|o| match o.kind {
            OpKind::VReg { id, .. } if !o.flags.def && !o.flags.implicit_def => {
                id == r || !later.contains(&id) || copied.contains(&id)
            }
            _ => true,
        })
    });
    segs[k].insts.extend(moved);
    ok
}

/// A refutation of a block split at an unmodelled global access is `unknown`: the split
/// compares all of memory where the access runs, and the next segment starts from arbitrary
/// memory, while the access reads and writes only its own address (a store another store
/// overwrites after it is dead on hardware when the addresses differ).
pub fn twin_refutation(v: &mut super::cmd::BlockVerdict, twin: bool) {
    if twin && v.verdict == "refuted" {
        v.verdict = "unknown";
        let r = v.reason.take().unwrap_or_default();
        v.reason = Some(format!(
            "{r} (memory compared at an unmodelled global access, which may not read it)"
        ));
    }
}
