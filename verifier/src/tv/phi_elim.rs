//! PHIs that `phi-node-elimination` lowered into copies, put back in the after-file.
//!
//! LLVM's PHIElimination replaces `%R = PHI %X1, %bb.1, %X2, %bb.2` in block J by a copy
//! `%R = COPY %N` at J's top, where `%N` is a new register, and a copy `%N = COPY %Xp` (or
//! `%N = IMPLICIT_DEF` for an `undef` incoming value) at the end of each predecessor p. Compared
//! block by block with the before-file, where J reads the PHI's result as an input and the
//! predecessors compare the incoming values on the edges (`diff.rs`), the lowered form reads a
//! register the before-file does not have, and every block involved is a false refutation.
//!
//! So the after-file's copies are turned back into the PHI when that is exact. `%R = COPY %N`
//! at J's top (among J's PHIs and other such copies) becomes `%R = PHI %Xp, %bb.p, ...` and the
//! predecessors' definitions of `%N` are dropped, when:
//! - `%N` does not occur in the before-file (a register phi-node-elimination made), is read only
//!   by that copy, and is defined only in J's predecessors, at most once in each;
//! - each definition is `%N = COPY %Xp`, placed before the predecessor's first terminator with
//!   no write of `%Xp`, `%N` or EXEC between it and that terminator: so it copies the value
//!   `%Xp` has at the end of the edge, under the edge's EXEC, which is where and how tv reads a
//!   PHI's incoming value (the copies `diff.rs` puts before the first terminator);
//! - a predecessor without a definition, or with `%N = IMPLICIT_DEF`, is one whose incoming
//!   value the before-file's PHI marks `undef`: the after-file then carries a stale or undefined
//!   value on that edge, which any value of the `undef` refines, so the before-file's operand is
//!   used for it;
//! - J's predecessors are the blocks the before-file's PHI names.
//!
//! Since `%N` is written only at the ends of J's predecessors and read only at J's top, the
//! value J reads is the one the last predecessor copied, the PHI's value; the rewrite keeps the
//! after-file's meaning. Anything else is left as it is (and refuted or proved as before).

use super::mir::{Block, Function, Inst, OpKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

/// Put the PHIs that phi-node-elimination lowered back into `after` (see the module comment).
pub fn restore(before: &Function, after: &mut Function) {
    let phis = before_phis(before);
    if phis.is_empty() {
        return;
    }
    let known = registers(before);
    let preds = predecessors(after);
    let (defs, reads) = sites(after);
    let mut plans = Vec::new();
    for (j, blk) in after.blocks.iter().enumerate() {
        for (k, i) in blk.insts.iter().enumerate() {
            let Some((r, n)) = top_copy(i).filter(|(_, n)| !known.contains(n)) else {
                continue;
            };
            // The copy becomes a PHI at the block's top, so nothing before it may name `%R` or
            // `%N` (AMDGPU puts them after `SI_END_CF`, whose EXEC write does not matter: a
            // COPY writes the whole register, as everywhere in tv).
            let earlier = &blk.insts[..k];
            if earlier.iter().any(|e| e.opcode != "PHI" && names(e, r, n)) {
                continue;
            }
            if reads.get(&n).map_or(0, |v| v.len()) != 1 {
                continue;
            }
            let Some(phi) = phis.get(&(blk.num, r)) else {
                continue;
            };
            let no_defs = Vec::new();
            let sites = defs.get(&n).unwrap_or(&no_defs);
            // A definition in J itself (J is its own predecessor) must come after the read.
            if sites.iter().any(|&(b, at)| b == j && at <= k) {
                continue;
            }
            if let Some(plan) = plan(after, phi, &preds, blk.num, sites, n) {
                plans.push((j, k, plan));
            }
        }
    }
    apply(after, plans);
}

/// What one restored PHI needs: the PHI itself and the definitions of `%N` to drop.
struct Plan {
    phi: Inst,
    drop: Vec<(usize, usize)>,
}

fn plan(
    after: &Function,
    phi: &Inst,
    preds: &BTreeMap<u32, BTreeSet<u32>>,
    join: u32,
    sites: &[(usize, usize)],
    n: u32,
) -> Option<Plan> {
    let incoming: Vec<(&Operand, u32)> = phi
        .ops
        .chunks(2)
        .map(|p| match p {
            [v, Operand {
                kind: OpKind::Other(b),
                ..
            }] => Some((v, b.strip_prefix("%bb.")?.parse().ok()?)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let named: BTreeSet<u32> = incoming.iter().map(|&(_, p)| p).collect();
    if preds.get(&join) != Some(&named) || named.len() != incoming.len() {
        return None;
    }
    let mut by_pred: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for &(b, k) in sites {
        if by_pred.insert(after.blocks[b].num, (b, k)).is_some() {
            return None;
        }
    }
    if by_pred.keys().any(|p| !named.contains(p)) {
        return None;
    }
    let mut ops = Vec::new();
    for &(v, p) in &incoming {
        let def = by_pred.get(&p).map(|&(b, k)| (&after.blocks[b], k));
        let value = match def {
            Some((blk, k)) if blk.insts[k].opcode == "COPY" => edge_copy(blk, k, n)?,
            Some((blk, k)) if v.flags.undef && blk.insts[k].opcode == "IMPLICIT_DEF" => v.clone(),
            None if v.flags.undef => v.clone(),
            _ => return None,
        };
        ops.push(value);
        ops.push(Operand {
            kind: OpKind::Other(format!("%bb.{p}")),
            flags: Default::default(),
            loc: phi.loc,
        });
    }
    let same = ops.iter().zip(&phi.ops).all(|(a, b)| a.kind == b.kind);
    let mut out = phi.clone();
    if !same {
        out.key = format!(
            "{} = PHI {}",
            lhs(&phi.key),
            ops.iter().map(text).collect::<Vec<_>>().join(", ")
        );
    }
    out.ops = ops;
    Some(Plan {
        phi: out,
        drop: by_pred.into_values().collect(),
    })
}

/// The value `%N = COPY %X` at `blk.insts[k]` copies on the edge, if nothing between it and the
/// first terminator writes `%X`, `%N` or EXEC.
fn edge_copy(blk: &Block, k: usize, n: u32) -> Option<Operand> {
    let copy = &blk.insts[k];
    let [x] = copy.ops.as_slice() else {
        return None;
    };
    let OpKind::VReg { id: xid, .. } = x.kind else {
        return None;
    };
    if x.flags.undef || x.flags.implicit || x.flags.def {
        return None;
    }
    let term = blk
        .insts
        .iter()
        .position(|i| super::lower::is_terminator(&i.opcode))
        .unwrap_or(blk.insts.len());
    if k >= term {
        return None;
    }
    let clobbers = blk.insts[k + 1..term].iter().any(|i| {
        written(i).any(|o| match &o.kind {
            OpKind::VReg { id, .. } => *id == xid || *id == n,
            OpKind::Phys(p) => p.starts_with("exec"),
            _ => false,
        })
    });
    if clobbers {
        return None;
    }
    let mut v = x.clone();
    v.flags = Default::default();
    Some(v)
}

/// Replace each planned copy by its PHI (moved in front of the block's other instructions, as
/// MIR keeps PHIs first) and drop the predecessors' definitions.
fn apply(after: &mut Function, plans: Vec<(usize, usize, Plan)>) {
    let mut gone: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut new_phis: BTreeMap<usize, Vec<(usize, Inst)>> = BTreeMap::new();
    for (j, k, p) in plans {
        gone.insert((j, k));
        gone.extend(p.drop);
        new_phis.entry(j).or_default().push((k, p.phi));
    }
    for (b, blk) in after.blocks.iter_mut().enumerate() {
        let old = std::mem::take(&mut blk.insts);
        let mut head: Vec<Inst> = Vec::new();
        let mut rest: Vec<Inst> = Vec::new();
        for (k, i) in old.into_iter().enumerate() {
            if !gone.contains(&(b, k)) {
                if i.opcode == "PHI" {
                    head.push(i)
                } else {
                    rest.push(i)
                }
            }
        }
        if let Some(v) = new_phis.remove(&b) {
            head.extend(v.into_iter().map(|(_, i)| i));
        }
        head.extend(rest);
        blk.insts = head;
    }
}

/// `%R = COPY %N` with whole registers: `(R, N)`.
fn top_copy(i: &Inst) -> Option<(u32, u32)> {
    if i.opcode != "COPY" {
        return None;
    }
    let ([d], [s]) = (i.defs.as_slice(), i.ops.as_slice()) else {
        return None;
    };
    match (&d.kind, &s.kind) {
        (OpKind::VReg { id: r, sub: None }, OpKind::VReg { id: n, sub: None })
            if !s.flags.undef && !d.flags.undef =>
        {
            Some((*r, *n))
        }
        _ => None,
    }
}

/// Whether `i` reads or writes `%r` or `%n`.
fn names(i: &Inst, r: u32, n: u32) -> bool {
    i.defs
        .iter()
        .chain(&i.ops)
        .any(|o| matches!(o.kind, OpKind::VReg { id, .. } if id == r || id == n))
}

/// The before-file's PHIs by (block, result register).
fn before_phis(f: &Function) -> BTreeMap<(u32, u32), Inst> {
    let mut out = BTreeMap::new();
    for b in &f.blocks {
        for i in b.insts.iter().take_while(|i| i.opcode == "PHI") {
            if let Some(OpKind::VReg { id, sub: None }) = i.defs.first().map(|d| &d.kind) {
                out.insert((b.num, *id), i.clone());
            }
        }
    }
    out
}

/// Every virtual register a function names.
fn registers(f: &Function) -> BTreeSet<u32> {
    let ops = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .flat_map(|i| i.defs.iter().chain(&i.ops));
    let mut out: BTreeSet<u32> = ops
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    out.extend(f.classes.keys());
    out
}

fn predecessors(f: &Function) -> BTreeMap<u32, BTreeSet<u32>> {
    let mut out: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for b in &f.blocks {
        for s in &b.successors {
            out.entry(*s).or_default().insert(b.num);
        }
    }
    out
}

/// Per virtual register: where it is written and where it is read, as (block, instruction).
type Sites = BTreeMap<u32, Vec<(usize, usize)>>;

fn sites(f: &Function) -> (Sites, Sites) {
    let (mut defs, mut reads) = (Sites::new(), Sites::new());
    for (b, blk) in f.blocks.iter().enumerate() {
        for (k, i) in blk.insts.iter().enumerate() {
            for o in written(i) {
                if let OpKind::VReg { id, .. } = o.kind {
                    defs.entry(id).or_default().push((b, k));
                }
            }
            let read = i
                .ops
                .iter()
                .filter(|o| !o.flags.def && !o.flags.implicit_def);
            for o in read {
                if let OpKind::VReg { id, .. } = o.kind {
                    reads.entry(id).or_default().push((b, k));
                }
            }
        }
    }
    (defs, reads)
}

fn written(i: &Inst) -> impl Iterator<Item = &Operand> {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
}

/// The left-hand side of an instruction key (`%4:vgpr_32`).
fn lhs(key: &str) -> &str {
    key.split(" = ").next().unwrap_or(key)
}

fn text(o: &Operand) -> String {
    match &o.kind {
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        OpKind::Phys(p) => format!("${p}"),
        OpKind::Imm(v) => v.to_string(),
        OpKind::SubIdx(s) => format!("%subreg.{s}"),
        OpKind::Other(s) => s.clone(),
    }
}
