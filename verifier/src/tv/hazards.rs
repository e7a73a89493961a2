//! Wait states of hardware hazards (breaker 11, case 05; breaker 13, cases 01-04).
//!
//! Some instruction pairs need wait states between them because the hardware does not
//! interlock them: AMD's ISA guides list them in "Manually Inserted Wait States (NOPs)" (Vega
//! ISA guide section 4.5, RDNA ISA guide section 4.5), e.g. "VALU writes VCC -> V_DIV_FMAS: 4",
//! "FLAT/GLOBAL/BUFFER store of more than 64 bits -> VALU writes its data VGPRs: 1"; LLVM's
//! `GCNHazardRecognizer` (the pass `post-RA-hazard-rec`) knows more (RDNA's VMEM-to-scalar-write
//! and gfx11's transcendental-use hazards) and inserts `S_NOP`s or `S_WAITCNT_DEPCTR`s where
//! the order needs them. tv's block model has no time: an `S_NOP` is a no-op and the order of
//! independent instructions is free. So once the recognizer has run, a pass that moves two
//! instructions closer together, or adds one next to another, could be proved while the
//! hardware reads a stale or a too-new value.
//!
//! A list of hazards is a losing game (breaker 13 found three the old list missed, and a
//! fourth two blocks away), so the rule (setting `hazards=CHECK`, the default) needs none: in
//! a post-RA pair (no virtual registers) a proof stands only when the after-block is the
//! before-block's instructions, in the same order, with at most
//! - instructions that emit no code ([`meta`]) added, dropped or moved, and
//! - instructions that only wait ([`inert`]: `S_NOP`, the `S_WAITCNT`/`S_WAIT_` family,
//!   `S_DELAY_ALU`, `V_NOP`; no register operand but `sgpr_null`) added.
//!
//! Anything else (an instruction dropped, including an `S_NOP`; two instructions reordered;
//! an instruction added that reads or writes a register, or is a branch, a memory access...)
//! is `unsupported`, wherever in the block it is: a block's distance to instructions of other
//! blocks, at any depth, changes only through its first and last instructions, but no fixed
//! depth is needed when no change at all is allowed.
//!
//! Why that suffices: the before-function is assumed hazard-free (as the model already
//! assumes it runs as written). The pairing of blocks already demands the same CFG (else the
//! function is `unsupported`), and unchanged blocks are identical, so every path through the
//! after-function is the matching before-path with only inert and meta instructions added
//! (and meta ones dropped). Every hazard LLVM or the guides name is a pair of instructions
//! (writer, reader) closer than some number of wait states, VALUs or instructions of a kind,
//! or with no resolving instruction (`S_WAITCNT_DEPCTR`, a VALU, a VMEM...) between them:
//! added instructions only lengthen such distances and never remove a resolving one, and an
//! inert instruction is neither the writer nor the reader of any of them (it has no register
//! operand, is no memory access, branch, `S_SETREG`, `S_SETPRIO`, export or message). A
//! hazard of the after-function would then be a hazard of the before-function.
//! `hazards=LATER` (the recognizer runs after the pass; `--pipeline` uses it for the passes
//! before `post-RA-hazard-rec`) skips the rule. A pair with virtual registers runs before
//! register allocation, long before the recognizer, and is never checked.

use super::diff::{BlockPair, FnPair};
use super::mir::{Block, Inst, OpKind};
use crate::check::Hazards;
use gcnsmt_semantics::target::Target;

/// Whether `op` emits no machine code (LLVM's `MachineInstr::isMetaInstruction`, and a
/// `BUNDLE` header, whose bundled instructions are checked one by one): dropping, adding or
/// moving it changes no distance between instructions the hardware runs. `DBG_` lines never
/// reach a block (`mir.rs`).
pub fn meta(op: &str) -> bool {
    matches!(
        op,
        "KILL"
            | "IMPLICIT_DEF"
            | "CFI_INSTRUCTION"
            | "EH_LABEL"
            | "GC_LABEL"
            | "ANNOTATION_LABEL"
            | "LIFETIME_START"
            | "LIFETIME_END"
            | "PSEUDO_PROBE"
            | "FAKE_USE"
            | "BUNDLE"
            | "SCHED_BARRIER"
            | "SCHED_GROUP_BARRIER"
            | "IGLP_OPT"
            | "WAVE_BARRIER"
    ) || op.starts_with("DBG_")
}

/// Whether adding `i` can create no hazard: it only waits (`S_NOP`, `S_WAITCNT`,
/// `S_WAITCNT_VSCNT`/`_DEPCTR`/..., gfx12's `S_WAIT_*`, `S_DELAY_ALU`, `V_NOP`) and names no
/// register but `sgpr_null` (the unused SGPR of `S_WAITCNT_VSCNT undef $sgpr_null, 0`) and the
/// EXEC every VALU reads implicitly. These are the instructions LLVM's hazard recognizer itself
/// inserts as fixes; none is the writer or the reader of a hazard.
pub fn inert(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    let nop = matches!(op, "V_NOP_e32" | "V_NOP_e64");
    let waits = op == "S_NOP"
        || op.starts_with("S_WAITCNT")
        || op.starts_with("S_WAIT_")
        || op == "S_DELAY_ALU";
    let no_reg = |o: &super::mir::Operand| match &o.kind {
        OpKind::Phys(r) => {
            let exec_use = nop && r == "exec" && o.flags.implicit && !o.flags.def;
            !o.flags.implicit_def && (r == "sgpr_null" || exec_use)
        }
        OpKind::VReg { .. } => false,
        _ => true,
    };
    (waits || nop) && i.defs.is_empty() && i.ops.iter().all(no_reg)
}

/// Whether the pair runs after register allocation: no virtual register but the frame-index
/// inputs tv itself made (`frame.rs`).
fn post_ra(fp: &FnPair, bp: &BlockPair) -> bool {
    let made = &fp.before.frame.inputs;
    let vreg = |b: &Block| {
        b.insts
            .iter()
            .flat_map(|i| i.defs.iter().chain(&i.ops))
            .any(|o| matches!(o.kind, OpKind::VReg { id, .. } if !made.contains_key(&id)))
    };
    !vreg(&bp.before) && !vreg(&bp.after)
}

/// Whether the rule concerns the pair (the verdict then names the setting): every post-RA
/// pair, since any change of order could be a hazard.
pub fn relevant(fp: &FnPair, bp: &BlockPair) -> bool {
    post_ra(fp, bp)
}

/// The first change of `b` into `a` the rule does not allow (module doc), as a phrase. The
/// instructions that emit code are matched in order, greedily: an after-instruction equal to
/// the next unmatched before-instruction is that instruction (matching the earliest equal one
/// is never worse: an unmatched equal one would be inert just the same); one that is not must
/// be inert; every before-instruction must be matched.
fn disallowed_change(b: &Block, a: &Block) -> Option<String> {
    let real = |blk: &Block| -> Vec<usize> {
        (0..blk.insts.len())
            .filter(|&n| !meta(&blk.insts[n].opcode))
            .collect()
    };
    let (rb, ra) = (real(b), real(a));
    let mut next = 0;
    for &n in &ra {
        let i = &a.insts[n];
        if next < rb.len() && b.insts[rb[next]].key == i.key {
            next += 1;
            continue;
        }
        if inert(i) {
            continue;
        }
        let in_a = |k: &str| ra.iter().any(|&n| a.insts[n].key == k);
        if let Some(p) = rb.get(next).map(|&m| &b.insts[m]).filter(|p| !in_a(&p.key)) {
            return Some(format!(
                "the pass dropped `{}` (line {} of the before-file)",
                p.opcode, p.loc.line
            ));
        }
        let how = if rb.iter().any(|&m| b.insts[m].key == i.key) {
            "moved"
        } else {
            "added"
        };
        return Some(format!(
            "the pass {how} `{}` (line {})",
            i.opcode, i.loc.line
        ));
    }
    rb.get(next).map(|&m| {
        let i = &b.insts[m];
        let how = if ra.iter().any(|&n| a.insts[n].key == i.key) {
            "moved"
        } else {
            "dropped"
        };
        format!(
            "the pass {how} `{}` (line {} of the before-file)",
            i.opcode, i.loc.line
        )
    })
}

/// Why the pair is unsupported under `mode`, if it is (module doc).
pub fn check(fp: &FnPair, bp: &BlockPair, mode: Hazards) -> Option<String> {
    if mode == Hazards::Later || !post_ra(fp, bp) {
        return None;
    }
    let why = disallowed_change(&bp.before, &bp.after)?;
    Some(format!(
        "{why}: that can bring two instructions closer than a hardware hazard allows, in the \
         block or across its edges (wait states of hardware hazards are not modelled; `--set \
         hazards=LATER` if LLVM's hazard recognizer runs after the pass)"
    ))
}

/// Take `hazards=...` out of the `--set` list: tv's own setting (the others are the machine's,
/// shared with `verify`).
pub fn take_setting(settings: &mut Vec<(String, String)>) -> Result<Hazards, String> {
    match settings.iter().position(|(n, _)| n == "hazards") {
        Some(at) => {
            Hazards::parse(&settings.remove(at).1).map_err(|e| format!("error: --set: {e}"))
        }
        None => Ok(Hazards::Check),
    }
}

/// A checked block's verdict, reason and settings under the rule: only a proof rests on the
/// order's timing (a refutation's values differ anyway), so a proof the rule rejects becomes
/// `unsupported`; otherwise the setting joins the verdict's settings where it concerns the
/// block.
pub fn settle(
    (verdict, reason, settings): (&mut &'static str, &mut Option<String>, &mut Option<String>),
    (fp, bp, _, mode): (&FnPair, &BlockPair, Target, Hazards),
    path: &str,
) {
    if *verdict == "proved" {
        // Hardware state the model does not follow, which only a proof rests on: wait states,
        // VCCZ (`vccz.rs`), MODE set in another block (`mode.rs`).
        let why = check(fp, bp, mode)
            .or_else(|| super::vccz::changed(fp, bp))
            .or_else(|| super::mode::written_elsewhere(fp, bp));
        if let Some(why) = why {
            (*verdict, *reason, *settings) = ("unsupported", Some(format!("{path}: {why}")), None);
            return;
        }
    }
    note(settings, fp, bp, mode);
}

/// The setting is an assumption of every checked post-RA block it concerns: add it to the
/// verdict's settings.
fn note(settings: &mut Option<String>, fp: &FnPair, bp: &BlockPair, mode: Hazards) {
    if let (Some(st), true) = (settings, relevant(fp, bp)) {
        *st += &format!(", hazards={}", mode.name());
    }
}
