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
    let mut defs: BTreeMap<u32, usize> = BTreeMap::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let flagged = i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def);
        for d in i.defs.iter().chain(flagged) {
            if let OpKind::VReg { id, .. } = d.kind {
                *defs.entry(id).or_default() += 1;
            }
        }
    }
    let same = |a: u32, b: u32| match (f.classes.get(&a), f.classes.get(&b)) {
        (Some(x), Some(y)) => {
            class_bank(x) == class_bank(y)
                && class_dwords(x) == class_dwords(y)
                && class_dwords(x).is_some()
        }
        _ => false,
    };
    let stable = Stable::new(f);
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
