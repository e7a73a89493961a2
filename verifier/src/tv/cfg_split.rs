//! A block that splits a critical edge, and merging it back into its predecessor
//! (`cfg_match.rs` has the soundness argument).

use super::cfg_match::{ends_flow, rename_inst, sinkable};
use super::effects::is_terminator;
use super::mir::{Block, Function, Inst, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// The virtual registers `i` defines, or reads (`defs == false`).
fn vregs(i: &Inst, defs: bool) -> BTreeSet<u32> {
    i.defs
        .iter()
        .map(|o| (o, true))
        .chain(
            i.ops
                .iter()
                .map(|o| (o, o.flags.def || o.flags.implicit_def)),
        )
        .filter(|(_, d)| *d == defs)
        .filter_map(|(o, _)| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// The physical registers (EXEC's halves as `exec`) `i` writes.
fn phys_writes(i: &Inst) -> BTreeSet<String> {
    let n = i.defs.len();
    i.defs
        .iter()
        .chain(&i.ops)
        .enumerate()
        .filter(|(k, o)| *k < n || o.flags.def || o.flags.implicit_def)
        .filter_map(|(_, o)| match &o.kind {
            OpKind::Phys(p) if p.starts_with("exec") => Some("exec".to_string()),
            OpKind::Phys(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

/// The block number of a PHI's incoming-block operand (`%bb.N`).
fn block_ref(t: &OpKind) -> Option<u32> {
    match t {
        OpKind::Other(t) => t.strip_prefix("%bb.")?.parse().ok(),
        _ => None,
    }
}

/// Whether the only reads of `r` outside block `n` are S's PHI operands for the edge from `n`.
fn used_only_via_edge(f: &Function, n: u32, s: u32, r: u32) -> bool {
    f.blocks.iter().filter(|b| b.num != n).all(|b| {
        b.insts.iter().all(|i| {
            if !vregs(i, false).contains(&r) {
                return true;
            }
            if b.num != s || i.opcode != "PHI" {
                return false;
            }
            // PHI operands come in (value, block) pairs: each read of `r` comes from `n`.
            i.ops.chunks(2).all(|c| {
                let reads_r = matches!(c[0].kind, OpKind::VReg { id, .. } if id == r);
                !reads_r || c.get(1).and_then(|b| block_ref(&b.kind)) == Some(n)
            })
        })
    })
}

/// If `f.blocks[k]` splits a critical edge: (its predecessor's index, its successor's number).
pub(super) fn split_of(f: &Function, k: usize, targets: &[Target]) -> Option<(usize, u32)> {
    let nb = &f.blocks[k];
    let (n, &[s]) = (nb.num, nb.successors.as_slice()) else {
        return None;
    };
    let preds: Vec<usize> = (0..f.blocks.len())
        .filter(|&j| f.blocks[j].successors.contains(&n))
        .collect();
    let &[p] = preds.as_slice() else {
        return None;
    };
    let pb = &f.blocks[p];
    if p == k || s == n || pb.successors.contains(&s) {
        return None;
    }
    let (last, body) = nb.insts.split_last()?;
    if last.opcode != "S_BRANCH" || super::cfg_match::target_of(last) != Some(s) {
        return None;
    }
    if !body.iter().all(|i| sinkable(i, targets)) {
        return None;
    }
    // Defined once, in N, and read only in N or by S's PHIs on the edge from N.
    let defs: BTreeSet<u32> = body.iter().flat_map(|i| vregs(i, true)).collect();
    let defined_elsewhere = f
        .blocks
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
        .flat_map(|(_, b)| b.insts.iter().flat_map(|i| vregs(i, true)))
        .any(|r| defs.contains(&r));
    if defined_elsewhere || !defs.iter().all(|&r| used_only_via_edge(f, n, s, r)) {
        return None;
    }
    // P's terminators run before N's instructions: they must not write what those read.
    let terms = terminators(pb);
    let term_defs: BTreeSet<u32> = terms.iter().flat_map(|i| vregs(i, true)).collect();
    let term_phys: BTreeSet<String> = terms.iter().flat_map(phys_writes).collect();
    let reads_ok = body.iter().all(|i| {
        vregs(i, false).is_disjoint(&term_defs)
            && i.ops.iter().all(|o| match &o.kind {
                OpKind::Phys(p) if p.starts_with("exec") => !term_phys.contains("exec"),
                OpKind::Phys(p) => !term_phys.contains(p),
                _ => true,
            })
    });
    reads_ok.then_some((p, s))
}

fn terminators(b: &Block) -> &[Inst] {
    let first = b
        .insts
        .iter()
        .position(|i| is_terminator(&i.opcode))
        .unwrap_or(b.insts.len());
    &b.insts[first..]
}

/// Merge the split block `f.blocks[k]` into its predecessor ([`split_of`] must hold).
pub(super) fn merge(f: &mut Function, k: usize, targets: &[Target]) -> Option<()> {
    let (p, s) = split_of(f, k, targets)?;
    let nb = f.blocks[k].clone();
    let n = nb.num;
    let pnum = f.blocks[p].num;
    let (branch, body) = nb.insts.split_last()?;
    let to_s = BTreeMap::from([(n, s)]);
    let pb = &mut f.blocks[p];
    let first = pb
        .insts
        .iter()
        .position(|i| is_terminator(&i.opcode))
        .unwrap_or(pb.insts.len());
    for i in pb.insts[first..].iter_mut() {
        rename_inst(i, &to_s);
    }
    pb.insts.splice(first..first, body.iter().cloned());
    // P fell through to N: it now branches to S itself.
    if p + 1 == k && !pb.insts.last().is_some_and(ends_flow) {
        pb.insts.push(branch.clone());
    }
    pb.successors.iter_mut().for_each(|x| {
        if *x == n {
            *x = s;
        }
    });
    let to_p = BTreeMap::from([(n, pnum)]);
    if let Some(sb) = f.blocks.iter_mut().find(|b| b.num == s) {
        for i in sb.insts.iter_mut().filter(|i| i.opcode == "PHI") {
            rename_inst(i, &to_p);
        }
    }
    f.blocks.remove(k);
    Some(())
}
