//! `undef` flags and deleted undefined definitions in the renaming checker (`rename.rs`):
//! what `detect-dead-lanes` and `processimpdefs` do, checked function-wide (issue 28).
//!
//! Undefined values (docs/tv.md, "Undefined values and dead lanes"): a dword written by
//! `IMPLICIT_DEF`, or by a copy-like instruction (`COPY`, `REG_SEQUENCE`, `INSERT_SUBREG`,
//! `PHI`) from an `undef` operand or from an undefined dword, holds an undefined value, and
//! each read of it yields an arbitrary value, independently of other reads (LLVM's own reading:
//! `processimpdefs` makes every use of an `IMPLICIT_DEF` `undef` one by one, and the register
//! allocator gives such a value no register, so two reads may see different garbage).
//!
//! An `undef` flag the pass added to a use is accepted when
//! - (1, *undefined*) the before-file's value there is undefined: a virtual register none of
//!   whose read dwords any definition in the before-file may give a defined value (a
//!   flow-insensitive over-approximation, [`defined`]), or a physical register whose last
//!   write before the use in its block is a deletable undefined definition of exactly it
//!   ([`phys_undefined`]); then the after-read (arbitrary) is one of the values the
//!   before-read may give;
//! - (2, *dead*) the use is an operand of a copy-like after-instruction whose destination
//!   dwords it feeds no after-instruction ever reads for anything but another copy into
//!   dwords no one reads ([`used`], an over-approximation of the dwords any effect depends on):
//!   no effect of the after-function depends on the value read there, so the after-function
//!   with the flag has the effects of the after-function without it.

use super::alloc_ops::{units, Ctx, Side};
use super::mir::{Function, Inst, OpKind, Operand};
use std::collections::BTreeSet;

/// An `undef` use the pass added: block position, before- and after-instruction indices,
/// and the operand's index in both instructions' `ops` (the renaming checker pairs operands
/// by position).
#[derive(Clone, Copy, Debug)]
pub struct Added {
    /// The block's position in both functions.
    pub block: usize,
    /// The before-instruction's index in its block.
    pub before: usize,
    /// The after-instruction's index in its block.
    pub after: usize,
    /// The operand's index in `ops`.
    pub op: usize,
}

/// One copy-like move: destination dword, source dword, the source operand's index in `ops`.
type Move = (String, String, usize);

fn vreg_id(n: &str) -> Option<u32> {
    n.trim_start_matches("A%")
        .trim_start_matches('%')
        .split('.')
        .next()?
        .parse()
        .ok()
}

fn reads(o: &Operand) -> bool {
    !o.flags.def && !o.flags.implicit_def && !matches!(o.kind, OpKind::Other(_) | OpKind::Imm(_))
}

/// The dword moves of a copy-like instruction whose destination is one virtual register, or
/// `None` (not copy-like, a physical destination, a source the dword model does not name).
fn moves(cx: &Ctx, side: Side, i: &Inst) -> Option<Vec<Move>> {
    let [d] = i.defs.as_slice() else {
        return None;
    };
    let OpKind::VReg { .. } = d.kind else {
        return None;
    };
    let dst = cx.lanes(side, d).ok()??;
    let whole = cx.whole(side, d).unwrap_or_else(|| dst.clone());
    let src = |k: usize| -> Option<Vec<String>> {
        let o = i.ops.get(k)?;
        matches!(o.kind, OpKind::VReg { .. } | OpKind::Phys(_))
            .then(|| cx.lanes(side, o).ok().flatten())?
    };
    let pair = |to: &[String], k: usize, out: &mut Vec<Move>| -> Option<()> {
        let s = src(k)?;
        (s.len() == to.len()).then_some(())?;
        out.extend(to.iter().zip(s).map(|(t, s)| (t.clone(), s, k)));
        Some(())
    };
    let at = |idx: &OpKind| -> Option<Vec<String>> {
        let OpKind::SubIdx(s) = idx else { return None };
        let mut o = d.clone();
        let OpKind::VReg { id, .. } = d.kind else {
            return None;
        };
        o.kind = OpKind::VReg {
            id,
            sub: Some(s.clone()),
        };
        cx.lanes(side, &o).ok().flatten()
    };
    let mut out = Vec::new();
    match i.opcode.as_str() {
        "COPY" => pair(&dst, 0, &mut out)?,
        "PHI" => {
            for k in (0..i.ops.len()).step_by(2) {
                pair(&dst, k, &mut out)?;
            }
        }
        "REG_SEQUENCE" if matches!(d.kind, OpKind::VReg { sub: None, .. }) => {
            for k in (0..i.ops.len()).step_by(2) {
                pair(&at(&i.ops.get(k + 1)?.kind)?, k, &mut out)?;
            }
        }
        "INSERT_SUBREG" if dst == whole && i.ops.len() == 3 => {
            let part = at(&i.ops[2].kind)?;
            let rest: Vec<String> = dst.iter().filter(|n| !part.contains(n)).cloned().collect();
            let s0 = src(0)?;
            (s0.len() == dst.len()).then_some(())?;
            for (t, s) in dst.iter().zip(s0) {
                if rest.contains(t) {
                    out.push((t.clone(), s, 0));
                }
            }
            pair(&part, 1, &mut out)?;
        }
        _ => return None,
    }
    Some(out)
}

/// Dwords and whole registers (those whose dwords cannot be named).
#[derive(Default)]
pub struct Set {
    dwords: BTreeSet<String>,
    whole: BTreeSet<u32>,
}

impl Set {
    fn has(&self, n: &str) -> bool {
        self.dwords.contains(n) || vreg_id(n).is_some_and(|id| self.whole.contains(&id))
    }
    fn add_operand(&mut self, cx: &Ctx, side: Side, o: &Operand) -> bool {
        let OpKind::VReg { id, .. } = o.kind else {
            return false;
        };
        match cx.lanes(side, o) {
            Ok(Some(v)) => v.into_iter().fold(false, |c, n| self.dwords.insert(n) | c),
            _ => self.whole.insert(id),
        }
    }
}

fn insts(f: &Function) -> impl Iterator<Item = &Inst> {
    f.blocks.iter().flat_map(|b| b.insts.iter())
}

/// The after-dwords some effect may depend on: every dword a non-copy-like instruction reads
/// (any operand, `undef` or not: over-approximating), and the sources of copies into such
/// dwords, to a fixed point.
fn used(cx: &Ctx) -> Set {
    let mut s = Set::default();
    let mut edges = Vec::new();
    for i in insts(cx.after) {
        match moves(cx, Side::After, i) {
            Some(m) => edges.extend(m),
            None => {
                for o in i.ops.iter().filter(|o| reads(o)) {
                    s.add_operand(cx, Side::After, o);
                }
            }
        }
    }
    let mut again = true;
    while again {
        again = false;
        for (d, src, _) in &edges {
            if s.has(d) && !s.has(src) {
                again |= s.dwords.insert(src.clone());
            }
        }
    }
    s
}

/// The before-dwords that may hold a defined value: written by any instruction but
/// `IMPLICIT_DEF` and copies of undefined values; dwords of registers the file never defines
/// count as defined.
pub fn defined(cx: &Ctx) -> Set {
    let mut s = Set::default();
    let mut edges = Vec::new();
    let mut written = BTreeSet::new();
    for i in insts(cx.before) {
        let defs = i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def));
        for o in defs {
            if let OpKind::VReg { id, .. } = o.kind {
                written.insert(id);
            }
        }
        if i.opcode == "IMPLICIT_DEF" {
            continue;
        }
        match moves(cx, Side::Before, i) {
            Some(m) => edges.extend(m.into_iter().filter(|(_, _, k)| !i.ops[*k].flags.undef)),
            None => {
                let defs = i
                    .defs
                    .iter()
                    .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def));
                for o in defs {
                    s.add_operand(cx, Side::Before, o);
                }
            }
        }
    }
    s.whole
        .extend(cx.before.classes.keys().filter(|id| !written.contains(id)));
    let mut again = true;
    while again {
        again = false;
        for (d, src, _) in &edges {
            let phys = vreg_id(src).is_none();
            if (phys || s.has(src)) && !s.has(d) {
                again |= s.dwords.insert(d.clone());
            }
        }
    }
    s
}

/// A before-instruction that only writes undefined values to registers: `IMPLICIT_DEF`, or a
/// copy-like instruction all of whose sources are `undef` or undefined (`defined`).
fn undefined_def(cx: &Ctx, def: &Set, i: &Inst) -> bool {
    if i.defs.len() != 1 || i.ops.iter().any(|o| o.flags.def || o.flags.implicit_def) {
        return false;
    }
    if i.opcode == "IMPLICIT_DEF" {
        return i.ops.is_empty();
    }
    if !matches!(
        i.opcode.as_str(),
        "COPY" | "REG_SEQUENCE" | "PHI" | "INSERT_SUBREG"
    ) {
        return false;
    }
    i.ops.iter().filter(|o| reads(o)).all(|o| {
        o.flags.undef
            || matches!(o.kind, OpKind::VReg { .. })
                && matches!(cx.lanes(Side::Before, o), Ok(Some(v)) if v.iter().all(|n| !def.has(n)))
    })
}

/// Physical `undef` use at before-instruction `k` of `block`: the last write before it in the
/// block of any of its units is an undefined definition of exactly its units, and nothing in
/// between may write them (no register mask, no other def of an overlapping unit).
fn phys_undefined(cx: &Ctx, def: &Set, block: usize, k: usize, o: &Operand) -> bool {
    let OpKind::Phys(p) = &o.kind else {
        return false;
    };
    let Ok(want) = units(p) else {
        return false;
    };
    for i in cx.before.blocks[block].insts[..k].iter().rev() {
        if i.ops
            .iter()
            .any(|o| matches!(&o.kind, OpKind::Other(t) if t.starts_with("csr_")))
            || i.opcode.contains("CALL")
            || i.opcode.starts_with("INLINEASM")
        {
            return false;
        }
        let defs = i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def));
        for d in defs {
            let OpKind::Phys(q) = &d.kind else { continue };
            let Ok(got) = units(q) else { return false };
            if got.iter().any(|u| want.contains(u)) {
                return got == want && undefined_def(cx, def, i);
            }
        }
    }
    false
}

/// Whether the before-instruction `i` may be missing from the after-file: it only writes
/// undefined values (`processimpdefs` deletes such definitions). The before-value of what it
/// writes is undefined after it, so whatever the after-registers hold there refines it.
pub fn deletable(cx: &Ctx, def: &Set, i: &Inst) -> bool {
    undefined_def(cx, def, i)
}

/// Check every added `undef` use (module doc); `Err` names the first one neither undefined
/// nor dead.
pub fn justify(cx: &Ctx, def: &Set, added: &[Added]) -> Result<(), String> {
    if added.is_empty() {
        return Ok(());
    }
    let used = used(cx);
    for a in added {
        let bi = &cx.before.blocks[a.block].insts[a.before];
        let ai = &cx.after.blocks[a.block].insts[a.after];
        let x = &bi.ops[a.op];
        let undefined = match x.kind {
            OpKind::Phys(_) => phys_undefined(cx, def, a.block, a.before, x),
            _ => matches!(cx.lanes(Side::Before, x), Ok(Some(v)) if v.iter().all(|n| !def.has(n))),
        };
        let dead = || {
            moves(cx, Side::After, ai).is_some_and(|m| {
                let mine: Vec<&Move> = m.iter().filter(|(_, _, k)| *k == a.op).collect();
                !mine.is_empty() && mine.iter().all(|(d, _, _)| !used.has(d))
            })
        };
        if !undefined && !dead() {
            return Err(format!(
                "line {}: an `undef` use of {:?} reads no value, and the value is defined and \
                 read",
                ai.loc.line, ai.ops[a.op].kind
            ));
        }
    }
    Ok(())
}
