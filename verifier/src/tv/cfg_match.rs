//! Block matching across two CFG changes that do not change what a function computes: block
//! renumbering and the split of a critical edge (docs/tv.md, "Changed CFGs: renumbered blocks
//! and split edges").
//!
//! tv checks a function block by block, which needs the two files to have the same blocks
//! with the same successors. Two passes before register allocation change that without
//! changing the program:
//! - `unreachable-mbb-elimination` (and others) call `MachineFunction::RenumberBlocks`: the
//!   blocks keep their layout order and are numbered 0, 1, 2, ... in it. A block number is
//!   only a name: renaming the after-file's blocks by a bijection, applied to every reference
//!   (successor lists, branch targets, PHI operands), gives the same program. The bijection
//!   used pairs the blocks in layout order (so the entry block and every fall-through stay
//!   what they are); it is accepted only when it makes the two CFGs equal (every block the
//!   same successors), so a pass that moved blocks is still reported as a changed CFG.
//! - `machine-sink` splits a critical edge P -> S by a new block N (one predecessor P, one
//!   successor S), into which it may sink pure instructions. N is merged back into P: its
//!   instructions go before P's first terminator, P's branch to N becomes a branch to S, S's
//!   PHIs name P instead of N, and when P fell through to N it gets N's `S_BRANCH` to S.
//!   The merged program computes the same as the split one: on the edge to S it runs the same
//!   instructions in the same order (nothing P's terminators write is read by them); on P's
//!   other edges it also runs N's instructions, which are pure (no memory, no trap, no physical
//!   register written) and define virtual registers nobody reads there (each is defined once
//!   and read only in N or by S's PHIs on the edge from N). N must be new (a number the
//!   before-file does not have) and S must not already be a successor of P.
//!
//! A conditional branch followed by `S_BRANCH` is also written in one form on both sides:
//! `S_CBRANCH_SCC0 %bb.A; S_BRANCH %bb.B` goes to A when SCC is 0 and to B otherwise, exactly
//! what `S_CBRANCH_SCC1 %bb.B; S_BRANCH %bb.A` does (machine-sink inverts the branch when it
//! places N after P).

use super::effects::{is_pure, is_terminator};
use super::mir::{Block, Function, Inst, MirFile, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// The files with each function whose CFG the pass only renumbered or split (see the module
/// documentation) rewritten to the before-file's blocks; `None` when there is none.
/// `fallback`: the targets of a function without `"target-cpu"` (every one must agree that a
/// moved instruction is pure).
pub fn normalize(
    before: &MirFile,
    after: &MirFile,
    fallback: Option<&[Target]>,
) -> Option<(MirFile, MirFile)> {
    let (mut b, mut a) = (before.clone(), after.clone());
    let mut any = false;
    for fa in a.functions.iter_mut() {
        let Some(fb) = b.functions.iter_mut().find(|g| g.name == fa.name) else {
            continue;
        };
        if same_cfg(fb, fa) {
            continue;
        }
        let targets = match &fb.target_cpu {
            Some(cpu) => Target::parse(cpu).into_iter().collect(),
            None => fallback.unwrap_or_default().to_vec(),
        };
        if targets.is_empty() {
            continue;
        }
        if let Some((nb, na)) = match_fn(fb, fa, &targets) {
            *fb = nb;
            *fa = na;
            any = true;
        }
    }
    any.then_some((b, a))
}

fn same_cfg(fb: &Function, fa: &Function) -> bool {
    fb.blocks.len() == fa.blocks.len()
        && fb
            .blocks
            .iter()
            .zip(&fa.blocks)
            .all(|(x, y)| x.num == y.num && x.successors == y.successors)
}

/// `fb` and `fa` with `fa`'s split blocks merged and its blocks renamed, both with canonical
/// branches, when that makes the CFGs equal.
fn match_fn(fb: &Function, fa: &Function, targets: &[Target]) -> Option<(Function, Function)> {
    let (mut b, mut a) = (fb.clone(), fa.clone());
    let old: BTreeSet<u32> = b.blocks.iter().map(|x| x.num).collect();
    let merging = a.blocks.len() > b.blocks.len();
    while a.blocks.len() > b.blocks.len() {
        let n = (1..a.blocks.len()).find(|&k| {
            !old.contains(&a.blocks[k].num) && super::cfg_split::split_of(&a, k, targets).is_some()
        })?;
        super::cfg_split::merge(&mut a, n, targets)?;
    }
    if a.blocks.len() != b.blocks.len() {
        return None;
    }
    let map: BTreeMap<u32, u32> = a
        .blocks
        .iter()
        .zip(&b.blocks)
        .map(|(x, y)| (x.num, y.num))
        .collect();
    if map.iter().any(|(k, v)| k != v) {
        rename_blocks(&mut a, &map);
    }
    for f in [&mut b, &mut a] {
        f.blocks.iter_mut().for_each(canonical_branch);
    }
    // machine-sink may also sink a definition out of a block into a successor, which the
    // block-by-block check compares where the block ends (a false alarm): with a merged
    // split, every block must still define what it defined before.
    let sunk = merging
        && b.blocks
            .iter()
            .zip(&a.blocks)
            .any(|(x, y)| !super::lower::defined(x).is_subset(&super::lower::defined(y)));
    if sunk {
        return None;
    }
    for k in 0..b.blocks.len() {
        let set = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
        let (x, y) = (&b.blocks[k], &a.blocks[k]);
        if x.num != y.num
            || set(&x.successors) != set(&y.successors)
            || exits(&b, k) != exits(&a, k)
        {
            return None;
        }
        let y = &mut a.blocks[k];
        // The order of a successor list carries only branch probabilities.
        y.successors.clone_from(&x.successors);
    }
    Some((b, a))
}

/// Where block `k` of `f` goes, in order: its terminators' targets, then its fall-through
/// block when it has one. Equal lists on both sides mean the blocks were paired with the same
/// roles (a block swapped in the layout would pair a branch target with a fall-through).
fn exits(f: &Function, k: usize) -> Vec<u32> {
    let b = &f.blocks[k];
    let mut v: Vec<u32> = b
        .insts
        .iter()
        .filter(|i| is_terminator(&i.opcode))
        .filter_map(target_of)
        .collect();
    if !b.insts.last().is_some_and(ends_flow) {
        v.extend(f.blocks.get(k + 1).map(|n| n.num));
    }
    v
}

/// `text` with every `%bb.N` whose N is in `map` renamed.
pub(super) fn rename_text(text: &str, map: &BTreeMap<u32, u32>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find("%bb.") {
        out.push_str(&rest[..k + 4]);
        rest = &rest[k + 4..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<u32>().ok().and_then(|n| map.get(&n)) {
            Some(m) => out.push_str(&m.to_string()),
            None => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

/// Rename the block references of one instruction.
pub(super) fn rename_inst(i: &mut Inst, map: &BTreeMap<u32, u32>) {
    for o in i.ops.iter_mut() {
        if let OpKind::Other(t) = &mut o.kind {
            if t.starts_with("%bb.") {
                *t = rename_text(t, map);
            }
        }
    }
    i.key = rename_text(&i.key, map);
}

/// Rename every block of `f` by `map` (numbers, successors, branch targets, PHI operands).
fn rename_blocks(f: &mut Function, map: &BTreeMap<u32, u32>) {
    let get = |n: u32| map.get(&n).copied().unwrap_or(n);
    for b in f.blocks.iter_mut() {
        b.num = get(b.num);
        b.successors.iter_mut().for_each(|s| *s = get(*s));
        b.insts.iter_mut().for_each(|i| rename_inst(i, map));
    }
}

/// The block target of a branch.
pub(super) fn target_of(i: &Inst) -> Option<u32> {
    i.ops.iter().find_map(|o| match &o.kind {
        OpKind::Other(t) => t.strip_prefix("%bb.")?.parse().ok(),
        _ => None,
    })
}

/// `S_CBRANCH_SCC0 %bb.A; S_BRANCH %bb.B` as `S_CBRANCH_SCC1 %bb.B; S_BRANCH %bb.A` (the
/// same decisions, see the module documentation).
fn canonical_branch(b: &mut Block) {
    let n = b.insts.len();
    if n < 2 || b.insts[n - 2].opcode != "S_CBRANCH_SCC0" || b.insts[n - 1].opcode != "S_BRANCH" {
        return;
    }
    let (Some(x), Some(y)) = (target_of(&b.insts[n - 2]), target_of(&b.insts[n - 1])) else {
        return;
    };
    let swap = BTreeMap::from([(x, y), (y, x)]);
    let cond = &mut b.insts[n - 2];
    cond.opcode = "S_CBRANCH_SCC1".into();
    cond.key = cond.key.replacen("S_CBRANCH_SCC0", "S_CBRANCH_SCC1", 1);
    rename_inst(cond, &swap);
    rename_inst(&mut b.insts[n - 1], &swap);
}

/// Whether `i` ends its block's fall-through (an unconditional branch or a return).
pub(super) fn ends_flow(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    matches!(op, "S_BRANCH" | "S_ENDPGM" | "SI_TCRETURN")
        || op.starts_with("SI_RETURN")
        || op.starts_with("S_SETPC_B64_return")
}

/// Whether `i` may be moved out of a split block (pure, virtual registers only but EXEC and
/// MODE reads).
pub(super) fn sinkable(i: &Inst, targets: &[Target]) -> bool {
    !is_terminator(&i.opcode)
        && targets.iter().all(|t| is_pure(&i.opcode, *t))
        && i.defs
            .iter()
            .chain(&i.ops)
            .enumerate()
            .all(|(k, o)| match &o.kind {
                OpKind::Phys(p) => {
                    let def = k < i.defs.len() || o.flags.def || o.flags.implicit_def;
                    !def && (p.starts_with("exec") || p == "mode")
                }
                _ => true,
            })
}
