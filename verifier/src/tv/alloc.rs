//! The register-allocation checker (issue 29): validates a function pair across passes that
//! rename registers (`register-coalescer`, `greedy`, `virtregrewriter`) the way Cranelift's
//! regalloc2 checker validates its allocator. Both functions are walked block by block in
//! lockstep over one CFG, with an abstract state (`alloc_state.rs`) saying which before-value
//! each after-location holds. Instructions match one to one (same opcode, same non-register
//! operands) except moves: copies only the before-file makes (coalesced away), copies, spills
//! and rematerialised constants only the after-file makes. Every register the after-file
//! reads must hold the value the before-file reads there. The soundness argument is in
//! docs/tv.md, "Register-allocation checker". When anything does not match, the checker says
//! nothing ([`check`] returns why) and the block checks run as before.

use super::alloc_image as image;
use super::alloc_ops::{self, Ctx, Side};
use super::alloc_state::State;
use super::alloc_step as step;
use super::mir::{Block, Function, Inst, OpKind};
use std::collections::BTreeMap;

/// Rematerialisable definitions: the instruction's text -> the dwords of every before-virtual
/// register all of whose definitions are that instruction (one def, no register inputs but
/// EXEC, no other effect).
type Remat = BTreeMap<String, Vec<Vec<String>>>;

/// The opcodes a rematerialised definition may have.
const REMAT: &[&str] = &[
    "S_MOV_B32",
    "S_MOV_B64",
    "S_MOVK_I32",
    "S_MOV_B64_IMM_PSEUDO",
    "V_MOV_B32_e32",
    "V_MOV_B32_e64",
    "V_MOV_B64_e32",
    "V_MOV_B64_e64",
    "V_MOV_B64_PSEUDO",
    "V_ACCVGPR_WRITE_B32_e64",
    "AV_MOV_B32_IMM_PSEUDO",
    "AV_MOV_B64_IMM_PSEUDO",
];

fn remat_key(i: &Inst) -> Option<String> {
    let [d] = i.defs.as_slice() else {
        return None;
    };
    let pure = i.ops.iter().all(|o| match &o.kind {
        OpKind::Phys(p) => p == "exec" && o.flags.implicit && !o.flags.implicit_def,
        OpKind::VReg { .. } => false,
        _ => !o.flags.def,
    });
    // Moves of an immediate only: an instruction without register inputs may still depend on
    // where it runs (`S_GETPC_B64`, `S_MEMTIME`), which a copy elsewhere would not repeat.
    let moves = !REMAT.contains(&i.opcode.as_str());
    let reg = matches!(d.kind, OpKind::VReg { .. } | OpKind::Phys(_));
    (pure && reg && !moves).then(|| {
        let ops: Vec<&OpKind> = i.ops.iter().map(|o| &o.kind).collect();
        format!("{} {ops:?}", i.opcode)
    })
}

/// How one before-virtual register is defined, for [`remat_table`].
#[derive(Clone, PartialEq)]
enum Def {
    /// By a rematerialisable instruction of this text.
    Key(String),
    /// By a full `COPY` of this virtual register.
    Copy(u32),
    /// Otherwise.
    Other,
}

fn remat_table(cx: &Ctx) -> Remat {
    let mut defs: BTreeMap<u32, Vec<Def>> = BTreeMap::new();
    for i in cx.before.blocks.iter().flat_map(|b| &b.insts) {
        for d in i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        {
            let OpKind::VReg { id, sub } = &d.kind else {
                continue;
            };
            let src = i.uses().next().map(|o| &o.kind);
            let k = match (sub, remat_key(i), src) {
                (None, Some(k), _) => Def::Key(k),
                (None, None, Some(OpKind::VReg { id: w, sub: None })) if i.opcode == "COPY" => {
                    Def::Copy(*w)
                }
                _ => Def::Other,
            };
            defs.entry(*id).or_default().push(k);
        }
    }
    // A register every definition of which is the instruction, or a full copy of a register
    // every definition of which is (transitively), holds its value wherever it is defined.
    let mut key: BTreeMap<u32, String> = BTreeMap::new();
    loop {
        let mut grew = false;
        for (id, ds) in &defs {
            if key.contains_key(id) {
                continue;
            }
            let of = |d: &Def| match d {
                Def::Key(k) => Some(k.clone()),
                Def::Copy(w) => key.get(w).cloned(),
                Def::Other => None,
            };
            let Some(Some(k)) = ds.first().map(of) else {
                continue;
            };
            if ds.iter().all(|d| of(d).as_ref() == Some(&k)) {
                key.insert(*id, k);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut out = Remat::new();
    for (id, k) in key {
        let o = super::mir::Operand {
            kind: OpKind::VReg { id, sub: None },
            flags: Default::default(),
            loc: Default::default(),
        };
        if let Ok(Some(names)) = cx.lanes(Side::Before, &o) {
            out.entry(k).or_default().push(names);
        }
    }
    out
}

/// Walk one block pair from state `s`; the state at its end.
fn walk(cx: &Ctx, remat: &Remat, bb: &Block, ab: &Block, mut s: State) -> Result<State, String> {
    let (mut i, mut j) = (0, 0);
    let (bi, ai) = (&bb.insts, &ab.insts);
    loop {
        if let (Some(b), Some(a)) = (bi.get(i), ai.get(j)) {
            if let Some(t) = same_phys_copy(cx, &s, (b, a), (bb.num, i as u32)) {
                s = t;
                (i, j) = (i + 1, j + 1);
                continue;
            }
        }
        if let Some(a) = ai.get(j) {
            if alloc_ops::unmodelled(&a.opcode) {
                return Err(format!("line {}: {} is not followed", a.loc.line, a.opcode));
            }
            if a.opcode == "KILL" {
                j += 1;
                continue;
            }
            if a.opcode == "IMPLICIT_DEF" {
                for d in &a.defs {
                    for l in cx.lanes(Side::After, d)?.unwrap_or_default() {
                        s.set(&l, Default::default());
                    }
                }
                j += 1;
                continue;
            }
            if let Some(m) = step::move_lanes(cx, Side::After, a) {
                let (d, r) = m?;
                step::after_move(cx, &mut s, a, &d, &r);
                j += 1;
                continue;
            }
        }
        if let Some(b) = bi.get(i) {
            if alloc_ops::unmodelled(&b.opcode) {
                return Err(format!("line {}: {} is not followed", b.loc.line, b.opcode));
            }
            if b.opcode == "KILL" {
                i += 1;
                continue;
            }
            if b.opcode == "IMPLICIT_DEF" {
                for d in &b.defs {
                    for n in cx.lanes(Side::Before, d)?.unwrap_or_default() {
                        if n.starts_with("exec_") {
                            return Err(format!("line {}: EXEC made undefined", b.loc.line));
                        }
                        s.forget(&n);
                        s.valid.insert(n, super::alloc_state::Guard::none());
                    }
                }
                i += 1;
                continue;
            }
            if let Some(m) = step::move_lanes(cx, Side::Before, b) {
                let (d, r) = m?;
                if d.iter().any(|n| n.starts_with("exec_")) {
                    return Err(format!("line {}: a copy into EXEC", b.loc.line));
                }
                let (_, undef_dst) = step::undef_flags(cx, Side::Before, b);
                step::before_move(cx, &mut s, &d, &r, &undef_dst);
                i += 1;
                continue;
            }
        }
        match (bi.get(i), ai.get(j)) {
            (None, None) => return Ok(s),
            (Some(b), Some(a)) => {
                let site = (bb.num, i as u32);
                let mut trial = s.clone();
                let snap = cx.image.as_ref().map(|m| m.borrow().clone());
                let konst = remat_key(b)
                    .map(|k| step::konst_facts(cx, &trial, &k, b))
                    .unwrap_or_default();
                let narrow = step::narrows_exec(b) || super::alloc_call::narrows_via_copy(bb, i);
                let r = step::matched(cx, &mut trial, (b, a), site, narrow);
                if r.is_ok() {
                    step::add_konst(&mut trial, konst);
                }
                if let (Err(_), Some(m), Some(snap)) = (&r, &cx.image, snap) {
                    // A failed match records no edit.
                    *m.borrow_mut() = snap;
                }
                match r {
                    Ok(()) => {
                        s = trial;
                        i += 1;
                    }
                    // An instruction the after-file adds: a rematerialised constant, a
                    // constant write (kept in an image), or the pair really differs.
                    Err(e) => match rematerialise(cx, remat, &mut s, a) {
                        Some(()) => {}
                        None if cx.image.is_some()
                            && b.opcode != a.opcode
                            && image::constant_write(a) =>
                        {
                            image::insert(cx, &mut s, a, Some(b.loc.line))?;
                        }
                        None => return Err(e),
                    },
                }
                j += 1;
            }
            (None, Some(a)) => {
                rematerialise(cx, remat, &mut s, a).ok_or_else(|| {
                    format!("line {}: {} only in the after-file", a.loc.line, a.opcode)
                })?;
                j += 1;
            }
            (Some(b), None) => {
                return Err(format!(
                    "line {}: {} only in the before-file",
                    b.loc.line, b.opcode
                ));
            }
        }
    }
}

/// A `COPY` into the same physical register in both files (a call's argument, `$vgpr31 =
/// COPY %44`), matched as one instruction when its source holds the before-source: the
/// register then holds its new before-value on every lane it is defined on. As two one-sided
/// moves, the after-move would drop what the register held on the lanes EXEC leaves alone,
/// its own old value, which the before-move keeps there. Not in image mode (refuting).
fn same_phys_copy(cx: &Ctx, s: &State, (b, a): (&Inst, &Inst), site: (u32, u32)) -> Option<State> {
    let phys = |i: &Inst| matches!(i.defs.first().map(|d| &d.kind), Some(OpKind::Phys(_)));
    let same = a.opcode == "COPY"
        && b.opcode == "COPY"
        && phys(a)
        && a.defs.first().map(|d| &d.kind) == b.defs.first().map(|d| &d.kind);
    if !same || cx.image.is_some() {
        return None;
    }
    let mut t = s.clone();
    step::matched(cx, &mut t, (b, a), site, false).ok()?;
    Some(t)
}

/// `a` as a rematerialised definition, if it is one.
fn rematerialise(cx: &Ctx, remat: &Remat, s: &mut State, a: &Inst) -> Option<()> {
    let key = remat_key(a)?;
    let names = remat.get(&key)?;
    let dst = cx.lanes(Side::After, a.defs.first()?).ok()??;
    let names: Vec<Vec<String>> = names
        .iter()
        .filter(|n| n.len() == dst.len())
        .cloned()
        .collect();
    if names.is_empty() {
        return None;
    }
    let d = a.defs.first()?;
    if d.flags.undef {
        for l in cx.whole(Side::After, d).unwrap_or_default() {
            s.set(&l, Default::default());
        }
    }
    step::remat(cx, s, &key, &dst, &names);
    Some(())
}

/// The CFG is the same, and no spill slot is touched but by spills.
fn shapes(bf: &Function, af: &Function) -> Result<(), String> {
    let cfg = |f: &Function| -> Vec<(u32, Vec<u32>)> {
        f.blocks
            .iter()
            .map(|b| (b.num, b.successors.clone()))
            .collect()
    };
    if cfg(bf) != cfg(af) {
        return Err("the CFG changed".into());
    }
    for f in [bf, af] {
        let insts = || f.blocks.iter().flat_map(|b| &b.insts);
        let slot = |o: &super::mir::Operand| match &o.kind {
            OpKind::Other(t) if t.starts_with("%stack.") => Some(t.clone()),
            _ => None,
        };
        let spilled: Vec<String> = insts()
            .filter(|i| alloc_ops::spill(&i.opcode).is_some())
            .flat_map(|i| i.ops.iter().filter_map(slot))
            .collect();
        for i in insts().filter(|i| alloc_ops::spill(&i.opcode).is_none()) {
            if let Some(t) = i.ops.iter().filter_map(slot).find(|t| spilled.contains(t)) {
                return Err(format!(
                    "line {}: spill slot {t} used by {}",
                    i.loc.line, i.opcode
                ));
            }
        }
    }
    Ok(())
}

/// Check one function pair: `Ok` when every after-instruction reads the before-values its
/// before-instruction reads (the after-function refines the before-function), else why the
/// checker could not follow it (a real allocation bug, or a transformation it does not know).
pub fn check(bf: &Function, af: &Function) -> Result<(), String> {
    check_at(bf, af, false).map_err(|f| f.why)
}

/// Where the checker stopped: the block (index into the functions' blocks, `None` when the
/// pair's shape differs) with its entry state, reached from the entry along `path` (block
/// numbers) over edges whose out-states the entry state joins, so every fact of that state
/// holds on that path.
pub struct Fail {
    /// Why, as [`check`] says it.
    pub why: String,
    /// The block's index.
    pub block: Option<usize>,
    /// Its entry state.
    pub entry: State,
    /// Block numbers from the function's entry to the block.
    pub path: Vec<u32>,
}

/// [`check`], saying where it stopped.
/// The most entries the checker's block states may hold, summed over every join it makes:
/// its states keep every name defined so far, so a function of n blocks in a chain costs
/// about n² of them in time and memory (issue 33: 3,000 blocks took gigabytes). Past the
/// budget the checker gives up, which is sound: the function goes to the block checks, as any
/// function the checker cannot follow. The largest function of tests/data/tv stays far below
/// it (see docs/tv.md).
const MAX_STATE_WORK: usize = 500_000;

/// `lenient`: early-clobber overlaps are read-then-write (for refuting only, never proving).
pub fn check_at(bf: &Function, af: &Function, lenient: bool) -> Result<(), Box<Fail>> {
    let fail = |why: String| Fail {
        why,
        block: None,
        entry: State::entry(),
        path: Vec::new(),
    };
    shapes(bf, af).map_err(|w| Box::new(fail(w)))?;
    let cx = Ctx {
        before: bf,
        after: af,
        image: None,
        lenient,
    };
    let remat = remat_table(&cx);
    let n = bf.blocks.len();
    let index: BTreeMap<u32, usize> = bf
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.num, k))
        .collect();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, b) in bf.blocks.iter().enumerate() {
        for s in &b.successors {
            let t = *index
                .get(s)
                .ok_or_else(|| Box::new(fail("a successor that is no block".into())))?;
            preds[t].push(k);
        }
    }
    let mut ins: Vec<Option<State>> = vec![None; n];
    let mut outs: Vec<Option<State>> = vec![None; n];
    // The predecessor a block was first reached from (a tree: it was reached earlier).
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let entry = State::entry();
    let mut work = 0usize;
    for _round in 0..(4 * n + 8) {
        let mut changed = false;
        for k in 0..n {
            let mut from: Vec<&State> = preds[k].iter().filter_map(|&p| outs[p].as_ref()).collect();
            if k == 0 {
                from.push(&entry);
            }
            if from.is_empty() {
                continue;
            }
            if parent[k].is_none() && k != 0 {
                parent[k] = preds[k].iter().copied().find(|&p| outs[p].is_some());
            }
            let num = bf.blocks[k].num;
            let s = State::join(&from, num);
            work += s.locs.len() + s.valid.len();
            if work > MAX_STATE_WORK {
                return Err(Box::new(fail(format!(
                    "too large to follow: its block states hold over {MAX_STATE_WORK} \
                     entries in all"
                ))));
            }
            if ins[k].as_ref() == Some(&s) {
                continue;
            }
            match walk(&cx, &remat, &bf.blocks[k], &af.blocks[k], s.clone()) {
                Ok(out) => outs[k] = Some(out),
                Err(e) => {
                    let mut path = vec![num];
                    let mut at = k;
                    while let Some(p) = parent[at].filter(|_| path.len() <= n) {
                        path.push(bf.blocks[p].num);
                        at = p;
                    }
                    path.reverse();
                    return Err(Box::new(Fail {
                        why: format!("bb.{num}: {e}"),
                        block: Some(k),
                        entry: s,
                        path,
                    }));
                }
            }
            ins[k] = Some(s);
            changed = true;
        }
        if !changed {
            if std::env::var_os("GCNSMT_ALLOC_DEBUG").is_some() {
                eprintln!("alloc: {}: state work {work}", bf.name);
            }
            return Ok(());
        }
    }
    Err(Box::new(fail("no fixed point".into())))
}

/// The image edits of block `k` walked from `entry` in image mode (`alloc_image.rs`).
pub fn image_of(
    bf: &Function,
    af: &Function,
    k: usize,
    entry: State,
) -> Result<image::Image, String> {
    let cx = Ctx {
        before: bf,
        after: af,
        image: Some(Default::default()),
        lenient: true,
    };
    let remat = remat_table(&cx);
    walk(&cx, &remat, &bf.blocks[k], &af.blocks[k], entry)?;
    Ok(cx.image.map(|i| i.into_inner()).unwrap_or_default())
}
