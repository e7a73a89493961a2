//! Canonical MIR before pairing: full-register copies between virtual registers are
//! propagated function-wide, and LLT annotations (`%5(s32)`) are dropped from the comparison
//! text.
//!
//! Why: a pass such as si-fold-operands deletes `%0 = COPY %5` and rewrites a use in another
//! block to `%5`. Checked block by block, the later block would compare `%0` with `%5` without
//! knowing they are equal. In SSA form `%0 = COPY %5` (same register bank and width, no
//! sub-registers) means `%0` equals `%5` wherever `%0` is read, so every use of `%0` may read
//! `%5` instead; after that the rewritten block is unchanged.

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, OpKind};
use std::collections::BTreeMap;

/// Rewrite `f` in place (see the module documentation).
pub fn canonicalize(f: &mut Function) {
    let defs = def_counts(f);
    let stable = Stable::new(f);
    let same = |a: u32, b: u32| match (f.classes.get(&a), f.classes.get(&b)) {
        (Some(x), Some(y)) => {
            class_bank(x) == class_bank(y)
                && class_dwords(x) == class_dwords(y)
                && class_dwords(x).is_some()
        }
        _ => false,
    };
    let mut map: BTreeMap<u32, u32> = BTreeMap::new();
    for (k, blk) in f.blocks.iter().enumerate() {
        for i in &blk.insts {
            let Some((a, b)) = copy_of(i) else {
                continue;
            };
            // Both registers defined once (MIR may be out of SSA: llc accepts a register
            // defined twice, and then `%a` equals `%b` only until `%b` is written again).
            let once = |r: &u32| defs.get(r).copied().unwrap_or(0) <= 1;
            if defs.get(&a) == Some(&1)
                && once(&b)
                && a != b
                && same(a, b)
                && stable.at(k, b, i.opcode == "PHI")
            {
                map.insert(a, b);
            }
        }
    }
    let resolve = |mut x: u32| {
        let mut n = 0;
        while let Some(&y) = map.get(&x) {
            x = y;
            n += 1;
            if n > map.len() {
                break; // a cycle cannot occur in SSA; stop rather than loop
            }
        }
        x
    };
    let re = regex::Regex::new(r"%(\d+)\b").expect("valid regex");
    let llt = regex::Regex::new(r"(%\d+(?:\.[A-Za-z0-9_]+)?)\([^)]*\)").expect("valid regex");
    for b in &mut f.blocks {
        for i in &mut b.insts {
            let mut changed = false;
            for o in &mut i.ops {
                if let OpKind::VReg { id, .. } = &mut o.kind {
                    let r = resolve(*id);
                    if r != *id {
                        *id = r;
                        changed = true;
                    }
                }
            }
            let key = llt.replace_all(&i.key, "$1").into_owned();
            i.key = if changed {
                rewrite_uses(&re, &key, &resolve)
            } else {
                key
            };
        }
    }
}

/// How often each virtual register of `f` is defined.
fn def_counts(f: &Function) -> BTreeMap<u32, usize> {
    let mut defs: BTreeMap<u32, usize> = BTreeMap::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let flagged = i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def);
        for d in i.defs.iter().chain(flagged) {
            if let OpKind::VReg { id, .. } = d.kind {
                *defs.entry(id).or_default() += 1;
            }
        }
    }
    defs
}

/// Read each piece of a `REG_SEQUENCE` result, and each sub-register copy, as what it was
/// built from ([`pieces`]) in both functions, before [`canonicalize`] (so `%43 = COPY
/// %22.sub0`, now `%43 = COPY %6`, propagates too). A file's entry is used when the other file
/// has the same entry or does not define the register at all: each file's rewrite is justified
/// by its own definition, and rewriting one file alone while the other defines the register
/// otherwise (twoaddressinstruction lowers every `REG_SEQUENCE` to sub-register copies) would
/// make the other file's unchanged reads look different. A register the other file no longer
/// defines is one the pass deleted (si-fold-operands folding `%21 = COPY %18.sub0` into its
/// user): the other file reads it nowhere it can be compared with.
pub fn pieces_pair(before: &mut Function, after: &mut Function) {
    let of = |f: &Function| pieces(f, &def_counts(f), &Stable::new(f));
    let (pb, pa) = (of(before), of(after));
    let (db, da) = (def_counts(before), def_counts(after));
    let keep = |mine: &BTreeMap<Key, Piece>,
                other: &BTreeMap<Key, Piece>,
                odefs: &BTreeMap<u32, usize>| {
        mine.iter()
            .filter(|(k, v)| other.get(k) == Some(v) || !odefs.contains_key(&k.0))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<BTreeMap<Key, Piece>>()
    };
    let (kb, ka) = (keep(&pb, &pa, &da), keep(&pa, &pb, &db));
    for (f, m) in [(before, &kb), (after, &ka)] {
        for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
            subst_pieces(i, m);
        }
    }
}

/// A register read, `(register, sub-register index)`, and the register read it equals.
type Key = (u32, Option<String>);
type Piece = (u32, Option<String>);

/// The reads of `f` that equal another register's (part): a piece of a `REG_SEQUENCE`,
/// `%22:vreg_64 = REG_SEQUENCE %6, %subreg.sub0, %28, %subreg.sub1` gives `(22, sub0) -> %6`,
/// and a sub-register copy, `%21:sreg_32 = COPY %18.sub0` gives `(21, whole) -> %18.sub0`.
/// Like a full copy (both are one copy per dword, every lane: MIR's meaning, which the
/// two-address pass and the coalescer rely on), in SSA `%22.sub0` equals `%6` wherever it is
/// read: taken when the result is defined once, the source register at most once, the source
/// is in the same register bank and exactly as wide as the index (a VGPR piece of an SGPR
/// tuple, or the reverse, is no such copy), and the source is stable at the definition
/// (`Stable::at`: no temporal divergence). Before 2026-12-06 peephole-opt's rewrite of
/// `COPY %22.sub0` to `COPY %6` in the block after an `SI_END_CF` compared two unrelated
/// inputs, and si-fold-operands' deleted `%21 = COPY %18.sub0` was compared at a barrier
/// (breaker 16's 05).
fn pieces(f: &Function, defs: &BTreeMap<u32, usize>, stable: &Stable) -> BTreeMap<Key, Piece> {
    let width = |id: u32, sub: &Option<String>| match sub {
        // Only whole dwords (`sub0`, `sub1_sub2`): `hi16`/`lo16` halves are not copies of a
        // 32-bit register, and the lowering models a half only where the MIR names it.
        Some(s) => s
            .split('_')
            .all(|p| {
                p.strip_prefix("sub")
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .then(|| s.split('_').count() as u32),
        None => f.classes.get(&id).and_then(|c| class_dwords(c)),
    };
    let bank = |id: u32| f.classes.get(&id).map(|c| class_bank(c));
    let fits = |r: u32, rsub: &Option<String>, src: &super::mir::Operand, k: usize| {
        let OpKind::VReg { id, sub } = &src.kind else {
            return None;
        };
        let ok = width(*id, sub).is_some()
            && width(*id, sub) == width(r, rsub)
            && bank(*id).is_some()
            && bank(*id) == bank(r)
            && defs.get(id).copied().unwrap_or(0) <= 1
            && *id != r
            && stable.at(k, *id, false)
            && !src.flags.undef;
        ok.then(|| (*id, sub.clone()))
    };
    let mut out = BTreeMap::new();
    for (k, blk) in f.blocks.iter().enumerate() {
        for i in &blk.insts {
            let [d] = i.defs.as_slice() else {
                continue;
            };
            let OpKind::VReg { id: r, sub: None } = d.kind else {
                continue;
            };
            if defs.get(&r) != Some(&1) {
                continue;
            }
            match (i.opcode.as_str(), i.ops.as_slice()) {
                ("COPY", [src]) if matches!(src.kind, OpKind::VReg { sub: Some(_), .. }) => {
                    if let Some(p) = fits(r, &None, src, k) {
                        out.insert((r, None), p);
                    }
                }
                ("REG_SEQUENCE", ops) if ops.len().is_multiple_of(2) => {
                    for pair in ops.chunks(2) {
                        let OpKind::SubIdx(idx) = &pair[1].kind else {
                            continue;
                        };
                        let key = (r, Some(idx.clone()));
                        if let Some(p) = fits(r, &key.1, &pair[0], k) {
                            out.insert(key, p);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Read every use of `i` that `subs` names as what it equals (operands and comparison text;
/// definitions are left alone).
fn subst_pieces(i: &mut super::mir::Inst, subs: &BTreeMap<Key, Piece>) {
    if subs.is_empty() {
        return;
    }
    let look = |id: u32, sub: Option<&str>| {
        let start: Key = (id, sub.map(str::to_string));
        let mut at = start.clone();
        for _ in 0..8 {
            match subs.get(&at) {
                Some(p) => at = p.clone(),
                None => break,
            }
        }
        (at != start).then_some(at)
    };
    let mut changed = false;
    for o in i
        .ops
        .iter_mut()
        .filter(|o| !o.flags.def && !o.flags.implicit_def)
    {
        if let OpKind::VReg { id, sub } = &o.kind {
            if let Some((r, t)) = look(*id, sub.as_deref()) {
                o.kind = OpKind::VReg { id: r, sub: t };
                changed = true;
            }
        }
    }
    if !changed {
        return;
    }
    let re = regex::Regex::new(r"%(\d+)(?:\.([A-Za-z0-9_]+))?").expect("valid regex");
    let (head, tail) = match i.key.find(" = ") {
        Some(at) => i.key.split_at(at),
        None => ("", i.key.as_str()),
    };
    let tail = re.replace_all(tail, |c: &regex::Captures| {
        let id: u32 = c[1].parse().unwrap_or(u32::MAX);
        match look(id, c.get(2).map(|m| m.as_str())) {
            Some((r, Some(t))) => format!("%{r}.{t}"),
            Some((r, None)) => format!("%{r}"),
            None => c[0].to_string(),
        }
    });
    i.key = format!("{head}{tail}");
}

/// `%a = COPY %b`, or a PHI all of whose incoming values are `%b` or `%a` itself (what
/// opt-phis removes), between whole virtual registers.
fn copy_of(i: &super::mir::Inst) -> Option<(u32, u32)> {
    let [d] = i.defs.as_slice() else {
        return None;
    };
    let OpKind::VReg { id: a, sub: None } = d.kind else {
        return None;
    };
    let value = |o: &super::mir::Operand| match o.kind {
        OpKind::VReg { id, sub: None } => Some(id),
        _ => None,
    };
    match i.opcode.as_str() {
        "COPY" if i.ops.len() == 1 => Some((a, value(&i.ops[0])?)),
        "PHI" if !i.ops.is_empty() => {
            let mut vals = i.ops.iter().step_by(2).map(value);
            let mut b = None;
            for v in vals.by_ref() {
                match (v?, b) {
                    (v, _) if v == a => {}
                    (v, None) => b = Some(v),
                    (v, Some(w)) if v == w => {}
                    _ => return None,
                }
            }
            b.map(|b| (a, b))
        }
        _ => None,
    }
}

/// Where a copy's source keeps one value for every lane while the copy's block can run again:
/// the copy's block is on no CFG cycle, or the source is defined in the same block or outside
/// the copy's cycle. Otherwise a lane that left a loop early holds the copy of an older
/// iteration's value than the source holds now (temporal divergence), and the two differ.
struct Stable {
    comp: Vec<usize>,
    cyclic: Vec<bool>,
    def_block: BTreeMap<u32, usize>,
}

impl Stable {
    fn new(f: &Function) -> Stable {
        let super::fn_index::Cfg { comp, cyclic, .. } = super::fn_index::Cfg::new(f);
        let mut def_block = BTreeMap::new();
        for (k, b) in f.blocks.iter().enumerate() {
            for i in &b.insts {
                for d in &i.defs {
                    if let OpKind::VReg { id, .. } = d.kind {
                        def_block.insert(id, k);
                    }
                }
            }
        }
        Stable {
            comp,
            cyclic,
            def_block,
        }
    }

    /// `phi`: the copy is a PHI, which reads its incoming values on the edges into block `k`,
    /// so a source defined in `k` itself is the previous iteration's.
    fn at(&self, k: usize, src: u32, phi: bool) -> bool {
        !self.cyclic[k]
            || match self.def_block.get(&src) {
                Some(&d) => (d == k && !phi) || self.comp[d] != self.comp[k],
                // A function argument or a register never defined: one value throughout.
                None => true,
            }
    }
}

/// Replace use operands in an instruction's text (right of the first ` = `).
fn rewrite_uses(re: &regex::Regex, key: &str, resolve: &dyn Fn(u32) -> u32) -> String {
    let (head, tail) = match key.find(" = ") {
        Some(at) => key.split_at(at),
        None => ("", key),
    };
    let tail = re.replace_all(tail, |c: &regex::Captures| {
        let id: u32 = c[1].parse().unwrap_or(u32::MAX);
        format!("%{}", resolve(id))
    });
    format!("{head}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tv::mir;

    #[test]
    fn copies_propagate_across_blocks() {
        let text = "---
name: f
registers:
  - { id: 0, class: vgpr_32 }
  - { id: 5, class: vgpr_32 }
  - { id: 6, class: vreg_64 }
body: |
  bb.0:
    successors: %bb.1
    %5:vgpr_32(s32) = COPY $vgpr0
    %0:vgpr_32 = COPY %5(s32)
    %6:vreg_64 = COPY %5
  bb.1:
    DS_WRITE_B32_gfx9 %0, %0, 260, 0, implicit $exec
    S_ENDPGM 0
...
";
        let mut m = mir::parse("f.mir", text).unwrap();
        canonicalize(&mut m.functions[0]);
        let b1 = &m.functions[0].blocks[1].insts[0];
        assert_eq!(b1.key, "DS_WRITE_B32_gfx9 %5, %5, 260, 0, implicit $exec");
        assert_eq!(b1.ops[0].kind, OpKind::VReg { id: 5, sub: None });
        // The defining copy stays; its LLT annotation leaves the comparison text.
        assert_eq!(
            m.functions[0].blocks[0].insts[1].key,
            "%0:vgpr_32 = COPY %5"
        );
    }
}
