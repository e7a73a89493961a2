//! SSA dominance of virtual-register uses (breaker 18's 06). In SSA form every use of a
//! virtual register is dominated by its single definition: an earlier instruction of the same
//! block or a dominating block; a PHI operand is read at the end of its incoming block, so the
//! definition must dominate that block. tv leans on this: `canon.rs` reads `%0` as `%5` after
//! `%0 = COPY %5` everywhere `%0` is read, which is right only where the copy dominates the
//! read. A COPY sunk below a use of its result (or above its source's definition) would
//! otherwise be proved although the use reads whatever the register holds (llc-22 then
//! stores the kernel's `$vgpr0`). llc-22's `-verify-machineinstrs` does not find these
//! (without live intervals it checks only registers live into the entry block), so tv's
//! reader does: an input error at the use.
//!
//! Checked: functions whose header does not say `isSSA: false` (llc-22 writes it; a file
//! without it is SSA to llc when no register is defined twice), registers defined exactly
//! once, uses without `undef`, in blocks the entry reaches. Out of SSA (after
//! phi-elimination) a register defined once may be read on a path from the entry that does
//! not pass its definition (an undefined value, as a PHI's `undef` operand leaves it), so
//! those files are not checked.

use super::{ErrFn, Function, Inst, OpKind, Operand};
use crate::rules::InputError;
use crate::tv::dom::{dominators, DomTree};
use std::collections::BTreeMap;

/// A definition's place: (block position, instruction position).
type Place = (usize, usize);

/// Check `f` (see the module documentation).
pub(super) fn check(f: &Function, err: ErrFn) -> Result<(), InputError> {
    if f.meta.is_ssa == Some(false) || f.blocks.is_empty() {
        return Ok(());
    }
    let mut defs: BTreeMap<u32, Vec<Place>> = BTreeMap::new();
    for (k, b) in f.blocks.iter().enumerate() {
        for (j, i) in b.insts.iter().enumerate() {
            for id in defined(i) {
                defs.entry(id).or_default().push((k, j));
            }
        }
    }
    let pos: BTreeMap<u32, usize> = (f.blocks.iter().enumerate())
        .map(|(k, b)| (b.num, k))
        .collect();
    let succ = crate::tv::dom::successors(f, |n| pos.get(&n).copied());
    let idom = dominators(&succ);
    let tree = DomTree::new(&idom);
    let reached = |k: usize| idom[k].is_some();
    // The definition at `d` is available at the end of block `k`, or before instruction `j`.
    let covers = |d: Place, k: usize, j: Option<usize>| match j {
        Some(j) if d.0 == k => d.1 < j,
        _ => reached(d.0) && tree.dominates(d.0, k),
    };
    for (k, b) in f.blocks.iter().enumerate().filter(|(k, _)| reached(*k)) {
        for (j, i) in b.insts.iter().enumerate() {
            for (o, at) in uses(i, &pos) {
                let OpKind::VReg { id, .. } = o.kind else {
                    continue;
                };
                let Some(&[d]) = defs.get(&id).map(Vec::as_slice) else {
                    continue;
                };
                let ok = match at {
                    Some(p) => !reached(p) || covers(d, p, None),
                    None => covers(d, k, Some(j)),
                };
                if !ok {
                    let def = &f.blocks[d.0].insts[d.1];
                    return Err(err(
                        o.loc.line as usize - 1,
                        o.loc.col as usize - 1,
                        format!(
                            "%{id} is read here, but its definition (bb.{}, line {}) does not \
                             dominate this use{}: in SSA form a register is defined before \
                             every read of it",
                            f.blocks[d.0].num,
                            def.loc.line,
                            match at {
                                Some(p) => format!(" (a PHI operand from bb.{})", f.blocks[p].num),
                                None => String::new(),
                            }
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The virtual registers `i` defines: explicit definitions and `def`/`implicit-def` operands.
fn defined(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    let flagged = i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def);
    i.defs.iter().chain(flagged).filter_map(|o| match o.kind {
        OpKind::VReg { id, .. } => Some(id),
        _ => None,
    })
}

/// The register uses of `i` that matter, each with the block position a PHI operand is read
/// at the end of (`None`: read by `i` itself). `undef` uses read no value.
fn uses<'a>(i: &'a Inst, pos: &BTreeMap<u32, usize>) -> Vec<(&'a Operand, Option<usize>)> {
    let live = |o: &&Operand| !(o.flags.def || o.flags.implicit_def || o.flags.undef);
    if i.opcode != "PHI" {
        return i.ops.iter().filter(live).map(|o| (o, None)).collect();
    }
    let mut out = Vec::new();
    for pair in i.ops.chunks(2) {
        let [v, b] = pair else { continue };
        let Some(p) = super::cfg::block_ref(b).and_then(|n| pos.get(&n).copied()) else {
            continue;
        };
        if live(&v) {
            out.push((v, Some(p)));
        }
    }
    out
}
