//! Pairing the functions and blocks of a before/after MIR pair.
//!
//! Errors (input errors, exit 2): the files hold different functions, or a virtual register has a different
//! register bank in the two files (the files do not come from one llc input, so their numbers
//! do not correspond: llc renumbers virtual registers when it parses MIR), except a lane mask
//! `vreg_1` that si-i1-copies gave the wave-mask class (`FnPair::lane_masks`). A function whose
//! blocks or successors differ (the pass changed the CFG), or one of whose virtual registers
//! changed its width in one bank (`register-coalescer` joining `%70:vreg_64` into a
//! `vreg_96`), or moved from a VGPR to an SGPR class where `bank.rs` could not read it as the
//! VGPR it was, is paired without blocks and reported `unsupported`.

use super::emit::{class_bank, class_dwords};
use super::fn_index::FnIndex;
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
    /// Physical registers live out of the block: successors' live-ins, in either file
    /// (`vgpr0`, `sgpr4_sgpr5`); the terminators' register uses are added by `lower::lower`.
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
    /// The pass changed the function's CFG (blocks or successors) or the width of one of its
    /// virtual registers: where in the after-file (block number, position) and how. Not an
    /// input error: llc's own passes do it, and the block checks, which give a register one
    /// shape on both sides, do not check such a function (`unsupported`).
    pub cfg_changed: Option<(u32, crate::rules::Loc, String)>,
    /// `inactive.rs`'s finding for the function pair (the side, line and opcode of an
    /// instruction that may widen EXEC in a callable function), found once: it reads the
    /// whole function, and asking it per proved block made a function of many changed blocks
    /// quadratic (issue 33). Owned, so that `FnPair` stays covariant in `'a`.
    pub widening: std::sync::OnceLock<Option<(&'static str, u32, String)>>,
    /// Virtual registers that are the lane-mask class `vreg_1` before and a wave-mask SGPR
    /// class after ([`LANE_MASK_CLASSES`]), with that class: si-i1-copies gives every `vreg_1`
    /// its wave's mask class (LLVM `SILowerI1Copies.cpp`, `setRegClass(.., getBoolRC())`).
    /// The class must be the checked target's (`targets::lane_masks`); the lowering does
    /// not split `vreg_1`, so a block that reads or writes one before is `unsupported`.
    pub lane_masks: std::collections::BTreeMap<u32, String>,
}

/// The SGPR classes si-i1-copies may give a `vreg_1`, and their wave size: llc-22 writes
/// `sreg_64` (wave64) and `sreg_32` (wave32), the classes of `getBoolRC()`; `*_xexec` are
/// the same masks with EXEC (and M0) excluded, which a later constraint may leave.
pub const LANE_MASK_CLASSES: [(&str, u32); 4] = [
    ("sreg_64", 64),
    ("sreg_64_xexec", 64),
    ("sreg_32", 32),
    ("sreg_32_xm0_xexec", 32),
];

/// `cb` (before) to `ca` (after) is si-i1-copies' lowering of a lane mask: the wave size of
/// `ca`, if it is.
pub fn lane_mask_wave(cb: &str, ca: &str) -> Option<u32> {
    let (_, wave) = LANE_MASK_CLASSES.iter().find(|(c, _)| *c == ca)?;
    (cb == "vreg_1").then_some(*wave)
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
    let succ = fb.blocks.iter().find_map(|bb| {
        let ba = fa.blocks.iter().find(|b| b.num == bb.num)?;
        (bb.successors != ba.successors).then(|| {
            let why = format!(
                "the pass changed the CFG of `{}`: bb.{} has successors {:?} in {}, {:?} here",
                fb.name, bb.num, bb.successors, before.path, ba.successors
            );
            (ba.num, ba.loc, why)
        })
    });
    // Which successor a block falls through to is part of the CFG (breaker 18's 05): the
    // layout decides it, not the `successors:` line.
    let fall = |f: &Function, n: u32| {
        let k = f.blocks.iter().position(|b| b.num == n)?;
        f.fallthrough(k)
    };
    let fall = || {
        fa.blocks.iter().find_map(|ba| {
            let (x, y) = (fall(fb, ba.num), fall(fa, ba.num));
            let show = |v: Option<u32>| v.map_or("nothing".into(), |n| format!("bb.{n}"));
            (x != y).then(|| {
                let why = format!(
                    "the pass changed the CFG of `{}`: bb.{} falls through to {} in {}, to {} \
                     here",
                    fb.name,
                    ba.num,
                    show(x),
                    before.path,
                    show(y)
                );
                (ba.num, ba.loc, why)
            })
        })
    };
    // The frame objects and function info later passes lay the frame out by (breaker 18's 04).
    let meta = || {
        super::frame_meta::change(&fb.meta, &fa.meta, &|r| mentions(fa, r)).map(|why| {
            let at = fa.blocks.first().map_or((0, fa.loc), |b| (b.num, b.loc));
            let why = format!(
                "the pass changed the frame or function info of `{}` ({why}): prologepilog and \
                 later passes emit other code for it, which the block checks do not see",
                fb.name
            );
            (at.0, at.1, why)
        })
    };
    succ.or_else(fall).or_else(meta)
}

/// `f`'s instructions name physical register `r` or one of its parts (`sgpr96` of
/// `sgpr96_sgpr97_sgpr98_sgpr99`; a tuple that contains one of them counts too).
pub(super) fn mentions(f: &Function, r: &str) -> bool {
    let parts: Vec<&str> = r.split('_').filter(|p| !p.is_empty()).collect();
    let named = |t: &str| parts.iter().any(|p| t.split('_').any(|q| q == *p));
    let mut ops = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .flat_map(|i| i.defs.iter().chain(&i.ops));
    ops.any(|o| matches!(&o.kind, OpKind::Phys(t) if named(t)))
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
        let lane_masks = (fb.classes.iter())
            .filter_map(|(id, cb)| {
                let ca = fa.classes.get(id)?;
                lane_mask_wave(cb, ca).map(|_| (*id, ca.clone()))
            })
            .collect();
        let cfg_changed = match correspond(before, after, fb, fa)? {
            Some(why) => Some(why),
            None => cfg_change(before, fb, fa),
        };
        let blocks = match cfg_changed {
            Some(_) => Vec::new(),
            None => blocks(before, after, fb, fa)?,
        };
        out.push(FnPair {
            before: fb,
            after: fa,
            blocks,
            cfg_changed,
            widening: Default::default(),
            lane_masks,
        });
    }
    Ok(out)
}

/// Virtual registers of one number must have one bank in both files (an input error if not).
/// One whose width changed in its bank (the coalescer widened it to hold a joined register)
/// makes the function `unsupported`: where and why.
fn correspond(
    before: &MirFile,
    after: &MirFile,
    fb: &Function,
    fa: &Function,
) -> Result<Option<(u32, crate::rules::Loc, String)>, InputError> {
    let mut widened = None;
    for (id, cb) in &fb.classes {
        let Some(ca) = fa.classes.get(id) else {
            continue;
        };
        // The files correspond here: the pass lowered a lane mask (`FnPair::lane_masks`).
        if lane_mask_wave(cb, ca).is_some() {
            continue;
        }
        if super::bank::moved(cb, ca) {
            // Valid llc output (si-fix-sgpr-copies) that `bank::undo` could not read as the
            // VGPR it was: not checked.
            if widened.is_some() {
                continue;
            }
            let at = fa.blocks.first().map_or((0, fa.loc), |b| (b.num, b.loc));
            let why = (fa.bank_refused.get(id).cloned())
                .or_else(|| super::bank::why_not(fa, *id))
                .unwrap_or_else(|| "its reads could not be followed".into());
            let why = format!(
                "virtual register %{id} of `{}` is {cb} in {} but {ca} here, and {why}: \
                 not read as the VGPR it was (docs/tv.md, \"A register moved to an SGPR\")",
                fb.name, before.path
            );
            widened = Some((at.0, at.1, why));
            continue;
        }
        // A lane mask becomes nothing but a wave mask (`vreg_1` has no dwords to compare).
        if class_bank(cb) != class_bank(ca) || (cb != ca && (cb == "vreg_1" || ca == "vreg_1")) {
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
        if class_dwords(cb) != class_dwords(ca) && widened.is_none() {
            let at = fa.blocks.first().map_or((0, fa.loc), |b| (b.num, b.loc));
            let why = format!(
                "virtual register %{id} of `{}` is {cb} in {} but {ca} here: the pass changed \
                 its width (the block checks give a register one shape on both sides)",
                fb.name, before.path
            );
            widened = Some((at.0, at.1, why));
        }
    }
    Ok(widened)
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
    let (ib, ia) = (FnIndex::new(fb), FnIndex::new(fa));
    let mut out = Vec::new();
    for bb in &fb.blocks {
        let ba = ia.block(bb.num).expect("same numbers");
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
        let (bb, ba) = (with_phi_copies(&ib, bb), with_phi_copies(&ia, ba));
        // A changed float MODE changes what every float instruction computes (breaker 10: 03):
        // every block is then checked, and the check refuses the mode change.
        let changed = fb.mode != fa.mode
            || bb.insts.len() != ba.insts.len()
            || bb
                .insts
                .iter()
                .zip(&ba.insts)
                .any(|(x, y)| x.key != y.key || x.mem != y.mem);
        // Only the registers the pair mentions can matter to its check; asking for those keeps
        // the sets as small as the blocks.
        let ids: BTreeSet<u32> = vregs(&bb).chain(vregs(&ba)).collect();
        let mut liveout = ib.used_outside(bb.num, ids.iter().copied());
        liveout.extend(ia.used_outside(bb.num, ids.iter().copied()));
        // A register only a preamble defines here is defined for real elsewhere (`ssa.rs`).
        let own =
            |b: &Block, id: u32| !b.inlined.contains(&id) && vregs_defined(b).any(|d| d == id);
        liveout.retain(|&id| {
            !(bb.inlined.contains(&id) || ba.inlined.contains(&id)) || own(&bb, id) || own(&ba, id)
        });
        let c = fb.c_convention && fa.c_convention;
        let mut phys_live = phys_liveout(fb, &ib, &bb, c);
        phys_live.extend(phys_liveout(fa, &ia, &ba, c));
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

/// Every virtual register `b` defines.
fn vregs_defined(b: &Block) -> impl Iterator<Item = u32> + '_ {
    b.insts
        .iter()
        .flat_map(|i| {
            i.defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        })
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
}

/// Every virtual register `b` names (defined or read).
fn vregs(b: &Block) -> impl Iterator<Item = u32> + '_ {
    b.insts
        .iter()
        .flat_map(|i| i.defs.iter().chain(&i.ops))
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
}

/// Physical registers live out of `b`: its successors' live-ins and its terminators' uses,
/// and when the function has no live-in lists (`tracksRegLiveness: false`), every physical
/// register a block reachable from `b` reads before writing it there (an over-approximation:
/// a later block's write on the path is not followed, so sound).
fn phys_liveout(f: &Function, ix: &FnIndex, b: &Block, c: bool) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = ix
        .successors(b)
        .into_iter()
        .flat_map(|s| s.liveins.iter().cloned())
        .collect();
    if !f.tracks_liveness {
        out.extend(ix.phys_read_after(b.num));
    }
    if ix.scc_live_out(b) {
        out.insert("scc".into());
    }
    if ix.returns {
        out.extend(returns_writes(f, b, c));
    }
    // The terminators' register uses are added by the lowering (`lower::with_term_reads`), of
    // the blocks it checks: where `cf_lower` expands a `*_term` op into the plain op its uses
    // are read inside the rule, not after the block.
    out
}

/// In a function that returns to a caller (a return terminator: `SI_RETURN`,
/// `S_SETPC_B64_return*`, `SI_TCRETURN*`; a kernel ends in `S_ENDPGM`, a shader's
/// `SI_RETURN_TO_EPILOG` hands the epilog only the registers it names), every physical register
/// `b` writes but SCC and VCC: the caller reads the callee-saved ones (`$vgpr40`, the frame
/// pointer `$sgpr33`, the stack pointer `$sgpr32`; which ones depends on the calling
/// convention: llc-22 saves `s5` in an `amdgpu_gfx` function, not in a C one) after the return,
/// and which of them a later block writes again is not followed (break4 05). SCC and VCC are
/// clobbered by every convention (llc-22 saves neither around an inline-asm clobber). Sound
/// and coarse: a caller-saved register a pass changed is compared too, except in a C function,
/// whose caller-saved registers `csr.rs` knows.
///
/// Whether the function returns is asked once per function (`FnIndex::returns`): asking it
/// per block made pairing quadratic in the blocks (issue 33).
fn returns_writes(f: &Function, b: &Block, c: bool) -> BTreeSet<String> {
    b.insts
        .iter()
        .flat_map(|i| {
            i.defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        })
        .filter_map(|o| match &o.kind {
            // NULL keeps nothing (its writes are discarded) for the caller to read.
            OpKind::Phys(p) if p != "scc" && p != "sgpr_null" && !p.starts_with("vcc") => {
                Some(p.clone())
            }
            _ => None,
        })
        .filter(|p| !super::csr::clobbered_by_c_return(c, f, p))
        .collect()
}

/// `b` with, before its terminators, one `%R = COPY %V` for every PHI `%R = PHI ..., %V,
/// %bb.b, ...` of its successors: a PHI is the copy of the incoming value on the edge, so a pass
/// that changes a PHI's incoming value (or what the predecessor computes for it) changes this
/// block, where the two values are compared (`%R` is read outside the block, so it is
/// live-out). The copies carry the PHI's position.
fn with_phi_copies(ix: &FnIndex, b: &Block) -> Block {
    let mut out = b.clone();
    let mut copies = Vec::new();
    let here = format!("%bb.{}", b.num);
    let text = |o: &Operand| match &o.kind {
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        other => format!("{other:?}"),
    };
    for s in ix.successors(b) {
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
                    mem: String::new(),
                    private: false,
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

impl FnPair<'_> {
    /// Whether the pair spans register assignment (greedy + virtregrewriter): the before
    /// function has virtual registers and the after-function has more `renamable` physical
    /// register operands, the flag only the virtual register rewriter sets. Which physical
    /// register holds which virtual one is not in the MIR (it is in greedy's VirtRegMap), so
    /// comparing them is not modelled: their blocks are `unsupported`, never a refutation that
    /// compares a virtual register with an unrelated physical one.
    pub fn assigns_registers(&self) -> bool {
        let renamable = |f: &crate::tv::mir::Function| {
            f.blocks
                .iter()
                .flat_map(|b| &b.insts)
                .flat_map(|i| i.defs.iter().chain(&i.ops))
                .filter(|o| o.flags.renamable)
                .count()
        };
        // Frame-index inputs (`frame.rs`) are registers of no class in the file.
        let classes = self.before.classes.len() - self.before.frame.inputs.len();
        classes > 0 && renamable(self.after) > renamable(self.before)
    }
}

/// A block pair's content hash for `--shard`: BLAKE3 (hex) of the function's name, the
/// target and both blocks as parsed.
pub fn block_key(fp: &FnPair, bp: &BlockPair, t: gcnsmt_semantics::target::Target) -> String {
    let text = format!("{}\0{t}\0{:?}\0{:?}", fp.before.name, bp.before, bp.after);
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

#[cfg(test)]
mod tests {
    /// A chain of `n` blocks, block k computing `%(k+1) = %k + %k` (as
    /// scripts/tv_many_blocks.py writes it).
    fn chain(n: u32) -> String {
        let mut s = String::from("---\nname: f\ntracksRegLiveness: true\nbody: |\n");
        for k in 0..n {
            s += &format!("  bb.{k}:\n");
            if k + 1 < n {
                s += &format!("    successors: %bb.{}\n", k + 1);
            }
            s += &format!(
                "    %{}:vgpr_32 = V_ADD_U32_e32 %{k}, %{k}, implicit $exec\n",
                k + 1
            );
        }
        s + "    S_ENDPGM 0\n...\n"
    }

    /// The live-out sets are as small as the blocks (issue 33: each held every register read
    /// anywhere else, 2,000 blocks made 4 million entries and 10,000 blocks 2.1 GB). By hand:
    /// block k defines `%(k+1)`, read by block k+1 only, and reads `%k`, defined before it, so
    /// each live-out set is `{k, k+1}` minus what only block k reads: `{k+1}` (the last block's
    /// result is read nowhere: empty).
    #[test]
    fn live_out_sets_hold_only_the_blocks_registers() {
        let n = 2000;
        let f = super::super::mir::parse("c.mir", &chain(n)).unwrap();
        let pairs = super::pair(&f, &f, &[]).unwrap();
        let blocks = &pairs[0].blocks;
        assert_eq!(blocks.len(), n as usize);
        for (k, b) in blocks.iter().enumerate() {
            let want: Vec<u32> = if k + 1 < n as usize {
                vec![k as u32 + 1]
            } else {
                vec![]
            };
            assert_eq!(
                b.liveout.iter().copied().collect::<Vec<_>>(),
                want,
                "bb.{k}"
            );
        }
    }

    /// A block on a cycle keeps live out what its next iteration reads. By hand: bb.1 is a
    /// self-loop; its PHI `%1` is an input of bb.1 set on the edges (`%1 = COPY %0` at bb.0's
    /// end, `%1 = COPY %2` at bb.1's end) and read by the add, so `%1` is live out of both
    /// bb.0 and bb.1. `%0` and `%2` are read only by those edge copies, in the block that
    /// defines them, so neither is live out; bb.2 names no register.
    #[test]
    fn a_block_on_a_cycle_keeps_what_its_next_iteration_reads() {
        let text = "---\nname: f\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    successors: %bb.1\n    %0:vgpr_32 = V_MOV_B32_e32 0, implicit $exec\n  bb.1:\n    successors: %bb.1, %bb.2\n    %1:vgpr_32 = PHI %0, %bb.0, %2, %bb.1\n    %2:vgpr_32 = V_ADD_U32_e32 %1, %1, implicit $exec\n    S_CBRANCH_VCCNZ %bb.1, implicit $vcc\n  bb.2:\n    S_ENDPGM 0\n...\n";
        let f = super::super::mir::parse("c.mir", text).unwrap();
        let pairs = super::pair(&f, &f, &[]).unwrap();
        let live = |k: usize| {
            pairs[0].blocks[k]
                .liveout
                .iter()
                .copied()
                .collect::<Vec<_>>()
        };
        assert_eq!(live(0), [1]);
        assert_eq!(live(1), [1]);
        assert_eq!(live(2), Vec::<u32>::new());
    }
}
