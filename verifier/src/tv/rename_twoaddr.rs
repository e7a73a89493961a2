//! What `twoaddressinstruction` writes, in the renaming checker (`rename.rs`): the
//! before-function rewritten into the after-function's shapes, each rewrite an equivalence.
//!
//! - A `REG_SEQUENCE` lowered into sub-register copies (`%94:vreg_64 = REG_SEQUENCE %3,
//!   %subreg.sub0, %7, %subreg.sub1` -> `undef %94.sub0:vreg_64 = COPY %3`, `%94.sub1 = COPY
//!   %7`): the before-instruction becomes those copies, in operand order, `undef` sources
//!   skipped, the first copy `undef` (`IMPLICIT_DEF` when every source is `undef`). The copies
//!   give each named sub-register its source's value and leave the other dwords undefined, as
//!   the `REG_SEQUENCE` leaves the dwords of its `undef` sources (TwoAddressInstructionPass's
//!   `eliminateRegSequence`).
//! - A tied operand made explicit (`%37 = V_WRITELANE_B32 %34, $m0, %35` -> `%37 = COPY %35`,
//!   `%37 = V_WRITELANE_B32 %34, $m0, %37`): `D = COPY x; D = OP(.., D, ..)` reads in `OP` the
//!   value `x` had, as `D = OP(.., x, ..)` does, when `OP`'s other operands do not name `D`
//!   (a whole-register `COPY` copies every lane, so lanes `OP` keeps hold `x` too).
//!
//! Only rewrites the after-file asks for are made (its `REG_SEQUENCE`'s register defined by
//! `undef` sub-register copies and by no `REG_SEQUENCE`; a `COPY` right before the after's
//! same instruction): the renaming checker then compares the result with the after-file as
//! it compares any pair.

use super::mir::{Block, Function, Inst, OpFlags, OpKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

fn def_vreg(i: &Inst) -> Option<(u32, Option<&str>)> {
    match i.defs.as_slice() {
        [d] => match &d.kind {
            OpKind::VReg { id, sub } => Some((*id, sub.as_deref())),
            _ => None,
        },
        _ => None,
    }
}

fn copy(at: &Inst, id: u32, sub: Option<String>, undef: bool, src: Operand) -> Inst {
    let def = Operand {
        kind: OpKind::VReg { id, sub },
        flags: OpFlags {
            undef,
            ..OpFlags::default()
        },
        loc: at.loc,
    };
    Inst {
        loc: at.loc,
        defs: vec![def],
        opcode: "COPY".into(),
        ops: vec![src],
        key: String::new(),
        mem: String::new(),
        private: false,
    }
}

/// The copies a `REG_SEQUENCE` is lowered into, or `None` if it is not one.
fn lower_reg_sequence(x: &Inst) -> Option<Vec<Inst>> {
    let (id, None) = def_vreg(x)? else {
        return None;
    };
    let names = |o: &Operand| matches!(&o.kind, OpKind::VReg { id: y, .. } if *y == id);
    if x.opcode != "REG_SEQUENCE" || !x.ops.len().is_multiple_of(2) || x.ops.iter().any(names) {
        return None;
    }
    let mut out = Vec::new();
    for k in (0..x.ops.len()).step_by(2) {
        let (src, OpKind::SubIdx(idx)) = (&x.ops[k], &x.ops[k + 1].kind) else {
            return None;
        };
        if src.flags.undef {
            continue;
        }
        let first = out.is_empty();
        out.push(copy(x, id, Some(idx.clone()), first, src.clone()));
    }
    if out.is_empty() {
        let mut d = x.clone();
        d.opcode = "IMPLICIT_DEF".into();
        d.ops.clear();
        out.push(d);
    }
    Some(out)
}

/// The after-block's instructions `D = OP(..)` right after a whole `D = COPY x`, by `D`.
fn tied_sites(a: &Block) -> BTreeMap<u32, usize> {
    let mut m = BTreeMap::new();
    for (j, w) in a.insts.windows(2).enumerate() {
        let (c, y) = (&w[0], &w[1]);
        match (def_vreg(c), def_vreg(y)) {
            (Some((id, None)), Some((id2, None)))
                if id == id2
                    && c.opcode == "COPY"
                    && !c.defs[0].flags.undef
                    && c.ops.len() == 1 =>
            {
                m.insert(id, j + 1);
            }
            _ => {}
        }
    }
    m
}

/// `x` with a tied operand made explicit as in the after-block `a` (`sites`: [`tied_sites`]).
fn untie(x: &Inst, a: &Block, sites: &BTreeMap<u32, usize>) -> Option<Vec<Inst>> {
    let (id, None) = def_vreg(x)? else {
        return None;
    };
    let whole = OpKind::VReg { id, sub: None };
    let names = |o: &Operand| matches!(&o.kind, OpKind::VReg { id: y, .. } if *y == id);
    if x.opcode == "COPY" || x.ops.iter().any(names) {
        return None;
    }
    let j = *sites.get(&id)?;
    let (c, y) = (&a.insts[j - 1], &a.insts[j]);
    if y.opcode != x.opcode || y.ops.len() != x.ops.len() {
        return None;
    }
    let tied: Vec<usize> = (0..y.ops.len())
        .filter(|&k| y.ops[k].kind == whole && x.ops[k].kind != whole)
        .collect();
    let [k] = tied.as_slice() else { return None };
    let src = &c.ops[0];
    if src.kind != x.ops[*k].kind || src.flags.undef || x.ops[*k].flags.undef {
        return None;
    }
    let mut op = x.clone();
    op.ops[*k].kind = whole;
    Some(vec![copy(x, id, None, false, x.ops[*k].clone()), op])
}

/// `bf` rewritten into the shapes of `af` (module doc).
pub fn rewrite(bf: &Function, af: &Function) -> Function {
    let mut regseq = BTreeSet::new();
    let mut subcopy = BTreeSet::new();
    for i in af.blocks.iter().flat_map(|b| b.insts.iter()) {
        match (i.opcode.as_str(), def_vreg(i)) {
            ("REG_SEQUENCE", Some((id, _))) => {
                regseq.insert(id);
            }
            ("COPY", Some((id, Some(_)))) if i.defs[0].flags.undef => {
                subcopy.insert(id);
            }
            _ => {}
        }
    }
    let mut f = bf.clone();
    for (b, a) in f.blocks.iter_mut().zip(&af.blocks) {
        let sites = tied_sites(a);
        let mut out = Vec::with_capacity(b.insts.len());
        for x in b.insts.drain(..) {
            let lowered = match def_vreg(&x) {
                Some((id, None)) if subcopy.contains(&id) && !regseq.contains(&id) => {
                    lower_reg_sequence(&x)
                }
                _ => None,
            };
            match lowered.or_else(|| untie(&x, a, &sites)) {
                Some(v) => out.extend(v),
                None => out.push(x),
            }
        }
        b.insts = out;
    }
    f
}
