//! Wait states of hardware hazards (breaker 11, case 05).
//!
//! Some instruction pairs need wait states between a write and a read because the hardware does
//! not interlock them: AMD's ISA guides list them in "Manually Inserted Wait States (NOPs)"
//! (Vega ISA guide section 4.5, RDNA ISA guide section 4.5), e.g. "VALU writes VCC (including
//! v_div_scale) -> V_DIV_FMAS reads VCC: 4", "VALU writes SGPR -> V_{READ,WRITE}LANE using that
//! SGPR as the lane select: 4", "VALU writes SGPR -> VMEM reads that SGPR: 5", "S_SETREG ->
//! S_GETREG: 2", "SALU writes M0 -> GDS, S_SENDMSG, S_MOVREL, LDS add-TID, V_INTERP: 1", "VALU
//! writes EXEC -> VALU DPP op: 5". LLVM's `GCNHazardRecognizer` (the pass
//! `post-RA-hazard-rec`) inserts `S_NOP`s where the order needs them. tv's block model has no
//! time: an `S_NOP` is a no-op and the order of independent instructions is free. So once the
//! recognizer has run, a pass that moves a write next to such a reader, or moves or drops an
//! `S_NOP`, could be proved while the hardware reads a stale value.
//!
//! The rule (setting `hazards=CHECK`, the default): in a post-RA pair (no virtual registers),
//! the pair is `unsupported` when the after-block
//! - shortens the wait states between the two instructions around an `S_NOP` run of the
//!   before-block (an `S_NOP` moved or dropped, or the instructions moved), or
//! - brings a hazard-sensitive instruction ([`sensitive`]) closer to the last write of a
//!   register it reads (in the block, or the block start when none is in it), counted in wait
//!   states as LLVM's `getNumWaitStates` counts them, up to [`HORIZON`], or
//! - brings a write of a register closer to the block end when a successor has a
//!   hazard-sensitive instruction reading it (the recognizer looks across blocks).
//!
//! Why that suffices: the before-block is assumed hazard-free (as the model already assumes it
//! runs as written); each hazard the list covers is a write followed by a read of the same
//! register within a number of wait states no larger than [`HORIZON`], so an after-block whose
//! every such distance is at least the before-block's (or at least the horizon) keeps every
//! hazard resolved. Instructions outside the list are assumed to need no wait states (the
//! list is the guides' table and LLVM's recognizer's hazards as far as they are named here).
//! `hazards=LATER` (the recognizer runs after the pass; `--pipeline` uses it for the passes
//! before `post-RA-hazard-rec`) skips the rule. A pair with virtual registers runs before
//! register allocation, long before the recognizer, and is never checked.

use super::diff::{BlockPair, FnPair};
use super::mir::{Block, Inst, OpKind};
use crate::check::Hazards;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::{BTreeMap, BTreeSet};

/// Distances at or beyond this many wait states are never a hazard: at least the longest wait
/// the guides list (MFMA results on gfx90a/gfx940: 18 wait states).
pub const HORIZON: u32 = 20;

/// Whether `op` is in the hazard list as a reader (docs/tv.md, "Hazards, WWM and flat
/// scratch"): the guides' table and LLVM `GCNHazardRecognizer`'s checks (`checkDivFMasHazards`,
/// `checkRWLaneHazards`, `checkSetRegHazards`, `checkGetRegHazards`, `checkRFEHazards`,
/// `checkVMEMHazards`, `checkSMRDHazards`, `checkDPPHazards`, `checkReadM0Hazards`,
/// `checkInlineAsmHazards`, `checkMAIHazards`, `checkPermlaneHazards`).
pub fn sensitive(op: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "V_DIV_FMAS",
        "V_READLANE",
        "V_WRITELANE",
        "V_READFIRSTLANE",
        "V_PERMLANE",
        "V_MOVREL",
        "V_INTERP",
        "V_MFMA",
        "V_SMFMAC",
        "V_ACCVGPR",
        "S_SETREG",
        "S_GETREG",
        "S_RFE",
        "S_SENDMSG",
        "S_TTRACEDATA",
        "S_MOVREL",
        "S_SET_GPR_IDX",
        "S_LOAD_",
        "S_BUFFER_LOAD",
        "BUFFER_",
        "TBUFFER_",
        "IMAGE_",
        "GLOBAL_",
        "SCRATCH_",
        "FLAT_",
        "DS_GWS",
        "DS_ORDERED",
        "LDS_",
        "INLINEASM",
    ];
    PREFIXES.iter().any(|p| op.starts_with(p)) || op.contains("_dpp") || op.contains("ADDTID")
}

/// Wait states `i` takes, as LLVM's `GCNHazardRecognizer::getNumWaitStates` counts them:
/// `S_NOP n` is `n + 1`, a meta instruction 0, every other 1. What is not surely an ISA
/// instruction counts 0 (fewer wait states only makes the rule stricter).
fn wait_states(i: &Inst, t: Target) -> u32 {
    if i.opcode == "S_NOP" {
        let n = match i.ops.first().map(|o| &o.kind) {
            Some(OpKind::Imm(n)) => *n as u32,
            _ => 0,
        };
        // SIMM16[2:0] on gfx6/gfx7, SIMM16[3:0] from gfx8 on (the guides' S_NOP).
        let mask = if t.gen() <= Gen::Gfx7 { 7 } else { 15 };
        return (n & mask) + 1;
    }
    const ISA: &[&str] = &[
        "S_", "V_", "DS_", "BUFFER_", "TBUFFER_", "GLOBAL_", "FLAT_", "SCRATCH_", "IMAGE_", "EXP",
    ];
    let meta = ["S_WAITCNT_DEPCTR_soft"];
    u32::from(ISA.iter().any(|p| i.opcode.starts_with(p)) && !meta.contains(&i.opcode.as_str()))
}

/// The register cells a hazard of `i` may concern: what it reads, but EXEC only for DPP
/// ("VALU writes EXEC -> DPP: 5"; every vector instruction reads EXEC, and no other listed
/// hazard is on it) and only scalar registers for memory instructions (their hazards are on
/// SGPRs and M0: "VALU writes SGPR -> VMEM reads that SGPR").
fn reads(i: &Inst, t: Target) -> BTreeSet<String> {
    let uses = i
        .ops
        .iter()
        .filter(|o| !o.flags.implicit_def && !o.flags.def);
    let op = i.opcode.as_str();
    let dpp = op.contains("_dpp") || op.contains("DPP");
    let memory = [
        "BUFFER_", "TBUFFER_", "IMAGE_", "GLOBAL_", "SCRATCH_", "FLAT_", "S_LOAD_",
    ]
    .iter()
    .any(|p| op.starts_with(p))
        || op.starts_with("S_BUFFER_LOAD");
    let vector = |c: &String| c.starts_with('v') || c.starts_with('a');
    let keep = |c: &String| (dpp || !c.starts_with("exec")) && !(memory && vector(c));
    cells(uses.map(|o| &o.kind), t)
        .into_iter()
        .filter(keep)
        .collect()
}

/// The register cells `i` writes (explicit and implicit definitions).
fn writes(i: &Inst, t: Target) -> BTreeSet<String> {
    let implicit = i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def);
    cells(i.defs.iter().chain(implicit).map(|o| &o.kind), t)
}

fn cells<'a>(ops: impl Iterator<Item = &'a OpKind>, t: Target) -> BTreeSet<String> {
    ops.filter_map(|k| match k {
        OpKind::Phys(p) => super::emit::phys(p, t).ok(),
        _ => None,
    })
    .flatten()
    .collect()
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

/// Whether the rule concerns the pair: post-RA with an `S_NOP` or a hazard-sensitive
/// instruction (the verdict then names the setting).
pub fn relevant(fp: &FnPair, bp: &BlockPair) -> bool {
    let has = |b: &Block| {
        b.insts
            .iter()
            .any(|i| i.opcode == "S_NOP" || sensitive(&i.opcode))
    };
    post_ra(fp, bp) && (has(&bp.before) || has(&bp.after))
}

/// Each instruction's (key, occurrence) with a value, for matching the two sides.
fn keyed<T>(b: &Block, mut f: impl FnMut(usize) -> Option<T>) -> BTreeMap<(String, usize), T> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (n, i) in b.insts.iter().enumerate() {
        let k = seen.entry(i.key.as_str()).or_default();
        if let Some(v) = f(n) {
            out.insert((i.key.clone(), *k), v);
        }
        *k += 1;
    }
    out
}

/// Per instruction: the wait-state time it issues at (the sum of the wait states before it).
fn times(b: &Block, t: Target) -> Vec<u32> {
    let mut at = 0;
    b.insts
        .iter()
        .map(|i| {
            let now = at;
            at += wait_states(i, t);
            now
        })
        .collect()
}

/// For each hazard-sensitive instruction and register cell it reads: the distance, in wait
/// states, from the last write of the cell (the block start when none is in the block),
/// capped at HORIZON.
fn reader_distances(b: &Block, t: Target) -> BTreeMap<(String, usize, String), u32> {
    let at = times(b, t);
    let per_inst = keyed(b, |n| {
        let i = &b.insts[n];
        if !sensitive(&i.opcode) {
            return None;
        }
        let last = |c: &String| {
            let m = (0..n).rev().find(|&m| writes(&b.insts[m], t).contains(c));
            let gap = m.map_or(at[n], |m| {
                at[n].saturating_sub(at[m] + wait_states(&b.insts[m], t))
            });
            (c.clone(), gap.min(HORIZON))
        };
        Some(reads(i, t).iter().map(last).collect::<Vec<_>>())
    });
    let mut out = BTreeMap::new();
    for ((k, occ), regs) in per_inst {
        for (c, d) in regs {
            out.insert((k.clone(), occ, c), d);
        }
    }
    out
}

/// Each instruction's position by its (key, occurrence).
fn positions(b: &Block) -> BTreeMap<(String, usize), usize> {
    keyed(b, Some)
}

/// Where an `S_NOP` run separates two instructions: (the instruction before the run, or none
/// at the block start; the one after it; the wait states between them).
type NopGap = (Option<(String, usize)>, (String, usize), u32);

fn nop_gaps(b: &Block, t: Target) -> Vec<NopGap> {
    let at = times(b, t);
    let pos = positions(b);
    let key_at: BTreeMap<usize, (String, usize)> =
        pos.iter().map(|(k, n)| (*n, k.clone())).collect();
    let mut out = Vec::new();
    for n in 1..b.insts.len() {
        if b.insts[n].opcode == "S_NOP" || b.insts[n - 1].opcode != "S_NOP" {
            continue;
        }
        let x = (0..n).rev().find(|&m| b.insts[m].opcode != "S_NOP");
        let from = x.map_or(0, |m| at[m] + wait_states(&b.insts[m], t));
        out.push((
            x.map(|m| key_at[&m].clone()),
            key_at[&n].clone(),
            at[n] - from,
        ));
    }
    out
}

/// Whether `a` keeps at least the wait states of each of `b`'s `S_NOP` gaps between the same
/// two instructions: the first gap it shortens.
fn shortened_gap(b: &Block, a: &Block, t: Target) -> Option<String> {
    let (at, pos) = (times(a, t), positions(a));
    for (x, y, gap) in nop_gaps(b, t) {
        let Some(&ny) = pos.get(&y) else {
            return Some(y.0);
        };
        let from = match &x {
            None => Some(0),
            Some(x) => pos
                .get(x)
                .filter(|&&nx| nx < ny)
                .map(|&nx| at[nx] + wait_states(&a.insts[nx], t)),
        };
        if from.is_none_or(|f| at[ny] - f < gap) {
            return Some(y.0);
        }
    }
    None
}

/// The distance from the last write of each of `regs` to the end of the block, capped.
fn end_distance(b: &Block, t: Target, regs: &BTreeSet<String>) -> BTreeMap<String, u32> {
    let at = times(b, t);
    let end = b
        .insts
        .last()
        .map_or(0, |i| at[at.len() - 1] + wait_states(i, t));
    let mut out = BTreeMap::new();
    for c in regs {
        let m = (0..b.insts.len())
            .rev()
            .find(|&m| writes(&b.insts[m], t).contains(c));
        if let Some(m) = m {
            let gap = end.saturating_sub(at[m] + wait_states(&b.insts[m], t));
            out.insert(c.clone(), gap.min(HORIZON));
        }
    }
    out
}

/// Registers a hazard-sensitive instruction reads in a successor of block `num`.
fn successor_reads(fp: &FnPair, num: u32, t: Target) -> BTreeSet<String> {
    let f = fp.after;
    let Some(b) = f.blocks.iter().find(|b| b.num == num) else {
        return BTreeSet::new();
    };
    let succ = f.blocks.iter().filter(|s| b.successors.contains(&s.num));
    let insts = succ.flat_map(|s| &s.insts);
    insts
        .filter(|i| sensitive(&i.opcode))
        .flat_map(|i| reads(i, t))
        .collect()
}

/// Why the pair is unsupported under `mode`, if it is (module doc).
pub fn check(fp: &FnPair, bp: &BlockPair, t: Target, mode: Hazards) -> Option<String> {
    if mode == Hazards::Later || !relevant(fp, bp) && successor_reads(fp, bp.num, t).is_empty() {
        return None;
    }
    if !post_ra(fp, bp) {
        return None;
    }
    let (b, a) = (&bp.before, &bp.after);
    let tail = "(wait states of hardware hazards are not modelled; `--set hazards=LATER` if \
                LLVM's hazard recognizer runs after the pass)";
    if let Some(y) = shortened_gap(b, a, t) {
        return Some(format!(
            "the pass moved or dropped the S_NOP before `{y}` {tail}"
        ));
    }
    let (db, da) = (reader_distances(b, t), reader_distances(a, t));
    for (k, d) in &da {
        let was = db.get(k).copied();
        if *d < was.unwrap_or(HORIZON) {
            let was = was.map_or("not there".into(), |w| format!("{w}"));
            return Some(format!(
                "`{}` is {d} wait states after a write of {} (it reads it), {was} before the \
                 pass {tail}",
                k.0, k.2
            ));
        }
    }
    let regs = successor_reads(fp, bp.num, t);
    let (eb, ea) = (end_distance(b, t, &regs), end_distance(a, t, &regs));
    for (c, d) in &ea {
        if *d < eb.get(c).copied().unwrap_or(HORIZON) {
            return Some(format!(
                "the pass moved a write of {c} closer to the block end, and a successor's \
                 hazard-sensitive instruction reads it {tail}"
            ));
        }
    }
    None
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
    (fp, bp, t, mode): (&FnPair, &BlockPair, Target, Hazards),
    path: &str,
) {
    if *verdict == "proved" {
        if let Some(why) = check(fp, bp, t, mode) {
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
