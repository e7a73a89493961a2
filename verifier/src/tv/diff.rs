//! Pairing the functions and blocks of a before/after MIR pair.
//!
//! Errors (input errors, exit 2): the files hold different functions, or a virtual register has a different
//! register bank or width in the two files (the files do not come from one llc input, so
//! their numbers do not correspond: llc renumbers virtual registers when it parses MIR). A
//! function whose blocks or successors differ (the pass changed the CFG) is paired without
//! blocks and reported `unsupported`.

use super::emit::{class_bank, class_dwords};
use super::mir::{Block, Function, Inst, MirFile, OpKind, Operand};
use crate::rules::InputError;
use std::collections::BTreeSet;

/// One block present in both files, each side with the copies its successors' PHIs make on
/// the edge out of it ([`with_phi_copies`]).
#[derive(Clone, Debug)]
pub struct BlockPair {
    /// The block number `N` of `bb.N`, the same in both files.
    pub num: u32,
    /// The block in the before-file.
    pub before: Block,
    /// The block in the after-file.
    pub after: Block,
    /// The instruction texts differ (ignoring `killed`/`dead`/`renamable` flags).
    pub changed: bool,
    /// Virtual registers used outside this block, in either file.
    pub liveout: BTreeSet<u32>,
    /// Physical registers live out of the block: successors' live-ins and the terminators'
    /// register uses, in either file (`vgpr0`, `sgpr4_sgpr5`).
    pub phys_live: BTreeSet<String>,
}

/// One function present in both files.
#[derive(Clone, Debug)]
pub struct FnPair<'a> {
    /// The function in the before-file.
    pub before: &'a Function,
    /// The function in the after-file.
    pub after: &'a Function,
    /// Its blocks, paired by number, in the before-file's order (none when the CFG changed).
    pub blocks: Vec<BlockPair>,
    /// The pass changed the function's CFG (blocks or successors): where in the after-file
    /// (block number, position) and how. Not an input error: llc's own passes do it, and tv
    /// does not check such a function yet (`unsupported`).
    pub cfg_changed: Option<(u32, crate::rules::Loc, String)>,
}

/// How the pass changed `fa`'s CFG, if it did: block numbers, or a block's successors.
fn cfg_change(
    before: &MirFile,
    fb: &Function,
    fa: &Function,
) -> Option<(u32, crate::rules::Loc, String)> {
    let nums = |f: &Function| f.blocks.iter().map(|b| b.num).collect::<BTreeSet<_>>();
    if nums(fb) != nums(fa) {
        let at = fa.blocks.first().map_or((0, fa.loc), |b| (b.num, b.loc));
        let why = format!(
            "the pass changed the CFG of `{}`: blocks {:?} before, {:?} after",
            fb.name,
            nums(fb),
            nums(fa)
        );
        return Some((at.0, at.1, why));
    }
    fb.blocks.iter().find_map(|bb| {
        let ba = fa.blocks.iter().find(|b| b.num == bb.num)?;
        (bb.successors != ba.successors).then(|| {
            let why = format!(
                "the pass changed the CFG of `{}`: bb.{} has successors {:?} in {}, {:?} here",
                fb.name, bb.num, bb.successors, before.path, ba.successors
            );
            (ba.num, ba.loc, why)
        })
    })
}

fn err(file: &MirFile, loc: crate::rules::Loc, msg: String) -> InputError {
    InputError {
        file: file.path.clone(),
        loc,
        msg,
    }
}

/// Pair the files' functions (only those in `only`, when it is not empty) and blocks.
pub fn pair<'a>(
    before: &'a MirFile,
    after: &'a MirFile,
    only: &[String],
) -> Result<Vec<FnPair<'a>>, InputError> {
    for (a, b) in [(before, after), (after, before)] {
        for f in &a.functions {
            if !b.functions.iter().any(|g| g.name == f.name) {
                return Err(err(
                    a,
                    f.loc,
                    format!(
                        "function `{}` is in {} but not in {}: the files hold different functions",
                        f.name, a.path, b.path
                    ),
                ));
            }
        }
    }
    for n in only {
        if !before.functions.iter().any(|f| &f.name == n) {
            return Err(err(
                before,
                Default::default(),
                format!("no function `{n}` in the file"),
            ));
        }
    }
    let mut out = Vec::new();
    for fb in &before.functions {
        if !only.is_empty() && !only.contains(&fb.name) {
            continue;
        }
        let fa = after
            .functions
            .iter()
            .find(|g| g.name == fb.name)
            .expect("checked above");
        correspond(before, after, fb, fa)?;
        let cfg_changed = cfg_change(before, fb, fa);
        let blocks = match cfg_changed {
            Some(_) => Vec::new(),
            None => blocks(before, after, fb, fa)?,
        };
        out.push(FnPair {
            before: fb,
            after: fa,
            blocks,
            cfg_changed,
        });
    }
    Ok(out)
}

/// Virtual registers of one number must have one bank and width in both files.
fn correspond(
    before: &MirFile,
    after: &MirFile,
    fb: &Function,
    fa: &Function,
) -> Result<(), InputError> {
    for (id, cb) in &fb.classes {
        let Some(ca) = fa.classes.get(id) else {
            continue;
        };
        if class_bank(cb) != class_bank(ca) || class_dwords(cb) != class_dwords(ca) {
            let _ = before;
            return Err(err(
                after,
                fa.loc,
                format!(
                    "virtual register %{id} of `{}` is {cb} in {} but {ca} here: the files' \
                     virtual register numbers do not correspond (make both from one input: \
                     `llc -run-pass none F.mir` and `llc -run-pass PASS F.mir`)",
                    fb.name, before.path
                ),
            ));
        }
    }
    Ok(())
}

fn blocks<'a>(
    before: &MirFile,
    after: &MirFile,
    fb: &'a Function,
    fa: &'a Function,
) -> Result<Vec<BlockPair>, InputError> {
    let nums = |f: &Function| f.blocks.iter().map(|b| b.num).collect::<BTreeSet<_>>();
    if nums(fb) != nums(fa) {
        return Err(err(
            after,
            fa.loc,
            format!(
                "the pass changed the CFG of `{}`: blocks {:?} before, {:?} after",
                fb.name,
                nums(fb),
                nums(fa)
            ),
        ));
    }
    let mut out = Vec::new();
    for bb in &fb.blocks {
        let ba = fa
            .blocks
            .iter()
            .find(|b| b.num == bb.num)
            .expect("same numbers");
        if bb.successors != ba.successors {
            return Err(err(
                after,
                ba.loc,
                format!(
                    "the pass changed the CFG of `{}`: bb.{} has successors {:?} in {}, {:?} here",
                    fb.name, bb.num, bb.successors, before.path, ba.successors
                ),
            ));
        }
        let (bb, ba) = (with_phi_copies(fb, bb), with_phi_copies(fa, ba));
        let changed = bb.insts.len() != ba.insts.len()
            || bb.insts.iter().zip(&ba.insts).any(|(x, y)| x.key != y.key);
        let mut liveout = used_outside(fb, bb.num);
        liveout.extend(used_outside(fa, bb.num));
        let mut phys_live = phys_liveout(fb, &bb);
        phys_live.extend(phys_liveout(fa, &ba));
        out.push(BlockPair {
            num: bb.num,
            before: bb,
            after: ba,
            changed,
            liveout,
            phys_live,
        });
    }
    Ok(out)
}

/// Virtual registers read by instructions of blocks other than `num` (PHI inputs included), and
/// by `num` itself when it is on a cycle: the next iteration reads what this one leaves (a
/// loop-carried value, a PHI of the block's own back edge).
fn used_outside(f: &Function, num: u32) -> BTreeSet<u32> {
    let cyclic = reachable(f, num).contains(&num);
    f.blocks
        .iter()
        .filter(|b| b.num != num || cyclic)
        .flat_map(|b| &b.insts)
        .flat_map(|i| &i.ops)
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } if !o.flags.implicit_def && !o.flags.def => Some(id),
            _ => None,
        })
        .collect()
}

/// The blocks reachable from `num`'s successors (`num` itself only through a cycle).
fn reachable(f: &Function, num: u32) -> BTreeSet<u32> {
    let succ = |n: u32| {
        f.blocks
            .iter()
            .find(|b| b.num == n)
            .map(|b| b.successors.clone())
            .unwrap_or_default()
    };
    let mut seen = BTreeSet::new();
    let mut work = succ(num);
    while let Some(n) = work.pop() {
        if seen.insert(n) {
            work.extend(succ(n));
        }
    }
    seen
}

/// Physical registers some block reachable from `num` reads before writing it there: the
/// live-outs when the function has no `liveins:` (`tracksRegLiveness: false`). An
/// over-approximation (a later block's write on the path is not followed), so sound.
fn phys_read_after(f: &Function, num: u32) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for b in f
        .blocks
        .iter()
        .filter(|b| reachable(f, num).contains(&b.num))
    {
        let mut written: BTreeSet<&str> = BTreeSet::new();
        for i in &b.insts {
            for o in &i.ops {
                if let OpKind::Phys(p) = &o.kind {
                    if !o.flags.def && !o.flags.implicit_def && !written.contains(p.as_str()) {
                        out.insert(p.clone());
                    }
                }
            }
            for d in i
                .defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
            {
                if let OpKind::Phys(p) = &d.kind {
                    written.insert(p.as_str());
                }
            }
        }
    }
    out
}

/// Physical registers live out of `b`: its successors' live-ins and its terminators' uses.
fn phys_liveout(f: &Function, b: &Block) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = f
        .blocks
        .iter()
        .filter(|s| b.successors.contains(&s.num))
        .flat_map(|s| s.liveins.iter().cloned())
        .collect();
    if !f.tracks_liveness {
        out.extend(phys_read_after(f, b.num));
    }
    if super::scc_live::live_out(f, b) {
        out.insert("scc".into());
    }
    for i in b
        .insts
        .iter()
        .filter(|i| super::lower::is_terminator(&i.opcode))
    {
        for o in &i.ops {
            if let OpKind::Phys(p) = &o.kind {
                if !o.flags.implicit_def {
                    out.insert(p.clone());
                }
            }
        }
    }
    out
}

/// `b` with, before its terminators, one `%R = COPY %V` for every PHI `%R = PHI ..., %V,
/// %bb.b, ...` of its successors: a PHI is the copy of the incoming value on the edge, so a pass
/// that changes a PHI's incoming value (or what the predecessor computes for it) changes this
/// block, where the two values are compared (`%R` is read outside the block, so it is
/// live-out). The copies carry the PHI's position.
fn with_phi_copies(f: &Function, b: &Block) -> Block {
    let mut out = b.clone();
    let mut copies = Vec::new();
    let here = format!("%bb.{}", b.num);
    let text = |o: &Operand| match &o.kind {
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        other => format!("{other:?}"),
    };
    for s in f.blocks.iter().filter(|s| b.successors.contains(&s.num)) {
        for phi in s.insts.iter().filter(|i| i.opcode == "PHI") {
            let Some(res) = phi.defs.first() else {
                continue;
            };
            for pair in phi.ops.chunks(2) {
                let [v, from] = pair else { continue };
                if from.kind != OpKind::Other(here.clone()) {
                    continue;
                }
                let mut res = res.clone();
                res.flags = Default::default();
                let mut v = v.clone();
                v.flags = Default::default();
                copies.push(Inst {
                    loc: phi.loc,
                    key: format!("{} = COPY {}", text(&res), text(&v)),
                    defs: vec![res],
                    opcode: "COPY".into(),
                    ops: vec![v],
                });
            }
        }
    }
    let at = out
        .insts
        .iter()
        .position(|i| super::lower::is_terminator(&i.opcode))
        .unwrap_or(out.insts.len());
    out.insts.splice(at..at, copies.drain(..));
    out
}
