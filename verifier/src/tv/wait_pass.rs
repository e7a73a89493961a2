//! `gcnsmt tv --pass si-insert-waitcnts` (docs/tv.md, docs/timing.md): the pass only adds,
//! strengthens or relaxes waits, so the before-MIR runs with every access complete at issue
//! and the after-MIR with every completion schedule its counters allow. The after-function is
//! checked by the waitcnt analysis (`wait_mir.rs`); a block whose instructions are the
//! before-block's apart from waits is then decided by it:
//!
//! - a hazard in the block (an instruction reads or overwrites a register or LDS before the
//!   access writing or reading it completes, on some schedule): `refuted`, the schedule in the
//!   reason (which access is issued where, which waits it survives, where it is still pending);
//! - else, an instruction whose counters are not known in the function: `unknown` (the
//!   analysis stops its paths there);
//! - else `proved`: with no hazard every register and LDS read sees what it sees when every
//!   access completes at issue, which is the before's semantics, and the other instructions
//!   are the same.
//!
//! A block that differs in other instructions keeps the ordinary tv verdict (one wave, waits
//! as no-ops), but a hazard in it still refutes it. The check runs for `--pass
//! si-insert-waitcnts`, and for two files when the before-function has no counter wait but
//! soft ones (`S_WAITCNT_soft`, which si-insert-waitcnts rewrites) and the after-function has
//! one: only that pass turns MIR without waits into MIR with them.

use super::cmd::BlockVerdict;
use super::mir::{self, MirFile};
use super::wait_mir;
use crate::timing::analysis::Obligation;
use crate::timing::check::FnReport;
use crate::timing::classify::Action;
use crate::timing::classify::Settings;
use gcnsmt_lifter::counters::{self, MemFamily};
use gcnsmt_semantics::target::{Gen, Target};

/// The pass this module decides.
pub const PASS: &str = "si-insert-waitcnts";

/// Waits and what only changes issue timing: `S_WAITCNT*` (soft ones too), gfx12
/// `S_WAIT_*`, `S_DELAY_ALU`.
fn is_wait(op: &str) -> bool {
    op.starts_with("S_WAITCNT") || op.starts_with("S_WAIT_") || op == "S_DELAY_ALU"
}

/// A counter wait that is not soft (the pass's output, not the memory legalizer's requests
/// `S_WAITCNT_soft` and `S_WAITCNT_lds_direct`, which si-insert-waitcnts rewrites).
fn is_hard_wait(op: &str) -> bool {
    is_wait(op) && !op.ends_with("_soft") && !matches!(op, "S_DELAY_ALU" | "S_WAITCNT_lds_direct")
}

fn has_hard_wait(f: &mir::Function) -> bool {
    f.blocks
        .iter()
        .any(|b| b.insts.iter().any(|i| is_hard_wait(&i.opcode)))
}

/// Whether the two blocks are the same instructions apart from waits, memory operands
/// included: the wait analysis reads them (a FLAT access whose operands say global counts like
/// GLOBAL, `wait_mir::flat_not_lds`), so an after-file that changed one would be judged by its
/// own claim (breaker 16's 03).
fn same_but_waits(b: &mir::Block, a: &mir::Block) -> bool {
    let keys = |x: &mir::Block| -> Vec<(String, String)> {
        x.insts
            .iter()
            .filter(|i| !is_wait(&i.opcode))
            .map(|i| (without_waitexp(i), i.mem.clone()))
            .collect()
    };
    keys(b) == keys(a)
}

/// An instruction's key, for a VINTERP (`V_INTERP_*_inreg*`, gfx11+) without its `waitexp`
/// operand: that field is a wait (si-insert-waitcnts lowers it, "ExpCnt can be merged into
/// VINTERP"), which the after-side analysis reads (`wait_mir::vinterp_wait`); the before runs
/// with every access complete at issue, where it changes nothing. It is the last explicit
/// operand: the last immediate before the implicit operands.
fn without_waitexp(i: &mir::Inst) -> String {
    if !(i.opcode.starts_with("V_INTERP_") && i.opcode.contains("_inreg")) {
        return i.key.clone();
    }
    let mut pieces: Vec<&str> = i.key.split(", ").collect();
    let explicit = pieces
        .iter()
        .position(|p| p.starts_with("implicit"))
        .unwrap_or(pieces.len());
    if explicit > 1 && pieces[explicit - 1].trim().parse::<i64>().is_ok() {
        pieces.remove(explicit - 1);
    }
    pieces.join(", ")
}

/// The before-function's memory-ordering waits (si-memory-legalizer's `S_WAITCNT_soft` and
/// `S_WAITCNT_lds_direct`), placed before the after-instruction that follows each (blocks
/// that differ only in waits), by line; and the blocks whose request cannot be placed (a soft
/// wait that does not decode, or one at a block's end with nothing after it).
fn obligations(
    t: Target,
    fb: &mir::Function,
    fa: &mir::Function,
) -> (Vec<(u32, Obligation)>, Vec<u32>) {
    let (mut out, mut unplaced) = (Vec::new(), Vec::new());
    for bb in &fb.blocks {
        let Some(ba) = fa.blocks.iter().find(|b| b.num == bb.num) else {
            continue;
        };
        if !same_but_waits(bb, ba) {
            continue;
        }
        let next: Vec<u32> = ba
            .insts
            .iter()
            .filter(|i| !is_wait(&i.opcode))
            .map(|i| i.loc.line)
            .collect();
        // The waits of the after-block before each of its non-wait instructions (and at its end).
        let mut after_waits: Vec<Vec<&str>> = vec![Vec::new()];
        for i in &ba.insts {
            if is_wait(&i.opcode) {
                after_waits.last_mut().expect("one").push(&i.key);
            } else {
                after_waits.push(Vec::new());
            }
        }
        let mut j = 0;
        for i in &bb.insts {
            if !is_wait(&i.opcode) {
                j += 1;
                continue;
            }
            let ob = if i.opcode == "S_WAITCNT_lds_direct" {
                let waits = counters::effects(t, MemFamily::LdsDma)
                    .iter()
                    .map(|e| (e.counter, 0))
                    .collect();
                Some(Obligation {
                    waits,
                    lds_only: true,
                    faulting_only: false,
                    why: "S_WAITCNT_lds_direct of the before-file (si-memory-legalizer)".into(),
                })
            } else if i.opcode.ends_with("_soft") {
                match wait_mir::mir_wait(t, i) {
                    Some(Ok(Action::Wait(waits))) => Some(Obligation {
                        waits,
                        lds_only: false,
                        faulting_only: false,
                        why: format!("`{}` of the before-file (si-memory-legalizer)", i.key),
                    }),
                    _ => {
                        unplaced.push(bb.num);
                        None
                    }
                }
            } else if i.opcode == "S_WAITCNT" && t.gen() == Gen::Gfx12 {
                // gfx12's legacy wait: read by the least it waits for (classify.rs), but it may
                // order more (stores, as `s_wait_idle`). SIInsertWaitcnts leaves it as written,
                // so the after-block must have it, unchanged, at the same place.
                if !after_waits
                    .get(j)
                    .is_some_and(|w| w.contains(&i.key.as_str()))
                {
                    unplaced.push(bb.num);
                }
                None
            } else {
                // A hard wait the before-file already has (the program's
                // `llvm.amdgcn.s.waitcnt`, the wait LLVM puts after `DS_GWS_*`): the pass
                // treats it as "required for correctness" and only merges it into a
                // neighbouring wait or strengthens it (SIInsertWaitcnts
                // `applyPreexistingWaitcnt`: only a soft wait may be simplified or erased;
                // gfx12 leaves a legacy `S_WAITCNT` as written), never weakens or drops it.
                match wait_mir::mir_wait(t, i) {
                    Some(Ok(Action::Wait(waits))) if !waits.is_empty() => Some(Obligation {
                        waits,
                        lds_only: false,
                        faulting_only: false,
                        why: format!("`{}` of the before-file (a hard wait)", i.key),
                    }),
                    Some(Err(_)) => {
                        unplaced.push(bb.num);
                        None
                    }
                    _ => None,
                }
            };
            match (ob, next.get(j)) {
                (Some(ob), Some(line)) => out.push((*line, ob)),
                (Some(_), None) => unplaced.push(bb.num),
                (None, _) => {}
            }
        }
    }
    (out, unplaced)
}

/// Decide the verdicts of the waitcnt pass in `out` (see the module comment). `pass`: the
/// `--pass` name, if any; `after_text`: the after-file (for `isEntryFunction`).
pub fn apply(
    pass: Option<&str>,
    (before, after): (&MirFile, &MirFile),
    after_text: &str,
    out: &mut [BlockVerdict],
) {
    if pass.is_some_and(|p| p != PASS) {
        return;
    }
    let kernels = wait_mir::entry_function_names(after_text);
    for fa in &after.functions {
        let Some(fb) = before.functions.iter().find(|f| f.name == fa.name) else {
            continue;
        };
        if pass.is_none() && (has_hard_wait(fb) || !has_hard_wait(fa)) {
            continue;
        }
        let mut targets: Vec<String> = out
            .iter()
            .filter(|v| v.function == fa.name)
            .map(|v| v.target.clone())
            .collect();
        targets.dedup();
        for t in targets.iter().filter_map(|t| Target::parse(t)) {
            let kernel = kernels.contains(&fa.name);
            let (obs, unplaced) = obligations(t, fb, fa);
            let report = wait_mir::check_mir_ordered(t, fa, (kernel, Settings::default()), &obs);
            let verdicts = out
                .iter_mut()
                .filter(|v| v.function == fa.name && v.target == t.name());
            match report {
                Ok(r) => decide(fb, fa, (&r, &unplaced), verdicts),
                Err(e) => {
                    for v in verdicts {
                        v.verdict = "error";
                        v.reason = Some(format!("waitcnt: {}:{}: {}", e.line, e.col, e.msg));
                    }
                }
            }
        }
    }
}

/// The verdicts of one function on one target from its waitcnt report.
fn decide<'v>(
    fb: &mir::Function,
    fa: &mir::Function,
    (r, unplaced): (&FnReport, &[u32]),
    verdicts: impl Iterator<Item = &'v mut BlockVerdict>,
) {
    for v in verdicts {
        let (Some(bb), Some(ba)) = (
            fb.blocks.iter().find(|b| b.num == v.block),
            fa.blocks.iter().find(|b| b.num == v.block),
        ) else {
            continue;
        };
        let lines: Vec<usize> = ba.insts.iter().map(|i| i.loc.line as usize).collect();
        let hazards: Vec<String> = r
            .hazards
            .iter()
            .filter(|h| lines.contains(&h.at.line))
            .map(|h| {
                let from = h.access.as_ref().map(|a| a.line).unwrap_or(0);
                if h.kind.starts_with("ordering") || h.kind == "vccz" {
                    return format!(
                        "memory-ordering wait dropped ({}): line {}: `{}` runs with `{}` \
                         (line {from}) pending on {} or not waited for; schedule: {}",
                        h.why.as_deref().unwrap_or("a memory-ordering wait"),
                        h.at.line,
                        h.at.text,
                        h.access_desc.trim_matches('`'),
                        h.counter,
                        h.schedule.join("; ")
                    );
                }
                format!(
                    "timing hazard ({}): line {}: `{}` {} {} before `{}` (line {from}) completed \
                     ({} may be pending); schedule: {}",
                    h.kind,
                    h.at.line,
                    h.at.text,
                    if h.kind == "read" { "reads" } else { "writes" },
                    h.regs,
                    h.access_desc.trim_matches('`'),
                    h.counter,
                    h.schedule.join("; ")
                )
            })
            .collect();
        if !hazards.is_empty() {
            // Registers are exact in MIR; LDS is one region and FLAT may reach LDS only by
            // assumption: such a hazard may not be real, so it is `unknown`, not a refutation.
            let real = r
                .hazards
                .iter()
                .filter(|h| lines.contains(&h.at.line))
                .any(|h| !rests_on_abstraction(h));
            v.verdict = if real { "refuted" } else { "unknown" };
            v.changed = true;
            v.counterexample = Some(hazards.join("\n"));
            v.reason = Some(hazards[0].clone());
        } else if same_but_waits(bb, ba) && v.changed {
            if unplaced.contains(&v.block) {
                v.verdict = "unknown";
                v.reason = Some(
                    "a wait of the before-block (soft, lds_direct, or gfx12's legacy \
                     S_WAITCNT, which must stay as written) could not be placed in the \
                     after-block"
                        .into(),
                );
            } else if let Some(u) = r.unknown.first() {
                v.verdict = "unknown";
                v.reason = Some(format!(
                    "waitcnt: `{}` (line {}): its wait counters are not known",
                    u.text, u.line
                ));
            } else {
                v.verdict = "proved";
                v.reason = None;
            }
        }
    }
}

/// A hazard that rests on an over-approximation: LDS as one region (the two LDS accesses may
/// not overlap), a FLAT access pending on its LDS counter, or out of order on its memory
/// counter (it may not reach LDS), or an
/// access the caller left pending (it writes "every register"), or gfx1250 xcnt (modelled out
/// of order for want of a source; llc-22 waits `s_wait_xcnt 1` as if it were in order), or a
/// memory-ordering wait held up only by an access that may not count on its counter (a cache
/// invalidate: LLVM's memory model waits for the accesses before it, not for it), or one that
/// passes a wait only because an access that may count on the counter is taken as not (gfx12
/// `GLOBAL_INV` on loadcnt: LLVM counts it). (An expcnt hazard at a V_INTERP is real: its own
/// `wait_exp` field is read, `wait_mir::vinterp_wait`.)
fn rests_on_abstraction(h: &crate::timing::check::HazardReport) -> bool {
    // A FLAT access that may reach LDS is modelled out of order on its memory counter too; one
    // that does not (LLVM's memory operands, when llc dropped or never had them) completes in
    // order there, so a schedule that passes a wait on it out of order is not a witness.
    let flat = h.access_desc.contains("FLAT_")
        && (matches!(h.counter, "lgkmcnt" | "dscnt")
            || h.schedule
                .iter()
                .any(|s| s.contains("completes out of order")));
    let maybe = h.schedule.iter().any(|s| s.contains("(taken as not:"));
    h.regs.contains("LDS")
        || flat
        || maybe
        || h.access.is_none()
        || h.counter == "xcnt"
        || h.kind == "ordering-maybe"
}
