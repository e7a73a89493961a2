//! Single-value PHIs in the renaming checker (`rename.rs`): what `opt-phis` removes
//! (`%19:vgpr_32 = PHI %16, %bb.4`, or a PHI whose every incoming value is, through
//! whole-register copies and such PHIs, one register), its uses renamed to that register.
//!
//! Soundness (docs/tv.md, "Single-value PHIs"): in SSA form (the before-file of opt-phis is
//! SSA: each register here has exactly one definition, checked), a register `r` defined by a
//! PHI all of whose incoming values are `v` (or by a whole-register `COPY` of `v` in the same
//! register file) holds `v`'s value wherever `r` is read: the read is dominated by `r`'s
//! definition, which reads `v` on every edge, and no new run of `v`'s definition can come
//! between them (such a path would reach the read without passing `r`'s definition). This is
//! SSA copy propagation, per thread (MIR's meaning of a PHI before phi-node-elimination; a
//! whole-register `COPY` copies every lane, as elsewhere in tv). So replacing every read of
//! `r` by `v` keeps every value read; the PHI is then read nowhere, and deleting it changes no
//! effect. Only PHIs whose register the after-file names nowhere are treated so.

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, Inst, OpKind};
use std::collections::{BTreeMap, BTreeSet};

fn def_ids(i: &Inst) -> impl Iterator<Item = (u32, bool)> + '_ {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .filter_map(|o| match &o.kind {
            OpKind::VReg { id, sub } => Some((*id, sub.is_none())),
            _ => None,
        })
}

struct Web<'a> {
    f: &'a Function,
    defs: BTreeMap<u32, Vec<&'a Inst>>,
}

impl Web<'_> {
    /// Whether `a` and `b` hold values of the same shape: one register file, whole dwords,
    /// as many.
    fn same_file(&self, a: u32, b: u32) -> bool {
        let (Some(x), Some(y)) = (self.f.classes.get(&a), self.f.classes.get(&b)) else {
            return false;
        };
        let dw = (class_dwords(x), class_dwords(y));
        class_bank(x) == class_bank(y) && dw.0.is_some() && dw.0 == dw.1
    }

    /// The only definition of `r`, if it has exactly one.
    fn def(&self, r: u32) -> Option<&Inst> {
        match self.defs.get(&r)?.as_slice() {
            [i] => Some(i),
            _ => None,
        }
    }

    /// The source of `v`'s definition if that is a whole-register `COPY` of a register in the
    /// same file defined exactly once (one level, as opt-phis looks through copies), else `v`.
    fn skip_copy(&self, v: u32) -> u32 {
        let Some(i) = self.def(v) else { return v };
        let whole = i.defs.len() == 1 && i.defs[0].kind == (OpKind::VReg { id: v, sub: None });
        let rest = i
            .ops
            .iter()
            .skip(1)
            .all(|o| o.flags.implicit && !o.flags.implicit_def);
        match i.ops.first().map(|o| (&o.kind, o.flags.undef)) {
            Some((OpKind::VReg { id, sub: None }, false))
                if i.opcode == "COPY" && whole && !i.defs[0].flags.undef && rest =>
            {
                match self.def(*id).is_some() && self.same_file(*id, v) {
                    true => *id,
                    false => v,
                }
            }
            _ => v,
        }
    }

    /// The one value a PHI defining `r` (whole) has on every edge: each incoming register
    /// with one `COPY` looked through, or, where that is a PHI, its own single value (a
    /// chain, no cycle: past a depth of 16, `None`).
    fn source(&self, r: u32, i: &Inst, depth: u32) -> Option<u32> {
        let [d] = i.defs.as_slice() else { return None };
        if depth > 16 || d.kind != (OpKind::VReg { id: r, sub: None }) || d.flags.undef {
            return None;
        }
        if i.opcode != "PHI" {
            return None;
        }
        let mut v = None;
        for k in (0..i.ops.len()).step_by(2) {
            let o = &i.ops[k];
            let OpKind::VReg { id, sub: None } = o.kind else {
                return None;
            };
            if o.flags.undef || id == r || !self.same_file(id, r) {
                return None;
            }
            let w = self.skip_copy(id);
            let def = self.def(w)?;
            let x = match def.opcode == "PHI" {
                true => self.source(w, def, depth + 1)?,
                false => w,
            };
            if v.is_some_and(|v| v != x) {
                return None;
            }
            v = Some(x);
        }
        v
    }
}

/// The PHIs of `bf` to delete, each with the register its reads become: single-value PHIs
/// (module doc) whose register `af` names nowhere.
pub fn single_value(bf: &Function, af: &Function) -> BTreeMap<u32, u32> {
    let named: BTreeSet<u32> = af
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .flat_map(|i| i.defs.iter().chain(&i.ops))
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    let mut defs: BTreeMap<u32, Vec<&Inst>> = BTreeMap::new();
    let mut partial = BTreeSet::new();
    for i in bf.blocks.iter().flat_map(|b| b.insts.iter()) {
        for (id, whole) in def_ids(i) {
            defs.entry(id).or_default().push(i);
            if !whole {
                partial.insert(id);
            }
        }
    }
    // Only SSA registers: one whole definition each.
    defs.retain(|id, v| v.len() == 1 && !partial.contains(id));
    let web = Web { f: bf, defs };
    let mut out = BTreeMap::new();
    for (&r, is) in &web.defs {
        if is[0].opcode != "PHI" || named.contains(&r) {
            continue;
        }
        if let Some(v) = web.source(r, is[0], 0).filter(|&v| v != r) {
            out.insert(r, v);
        }
    }
    out
}

/// `bf` with every read of a key of `subst` reading its value instead.
pub fn apply(bf: &Function, subst: &BTreeMap<u32, u32>) -> Function {
    let mut f = bf.clone();
    for i in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        for o in i
            .ops
            .iter_mut()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
        {
            if let OpKind::VReg { id, .. } = &mut o.kind {
                if let Some(&v) = subst.get(id) {
                    *id = v;
                }
            }
        }
    }
    f
}
