//! A before/after block pair -> a gcnsmt [`Rule`]: source lines = the before-block, target
//! lines = the after-block, in the assembly syntax rules use.
//!
//! Every virtual register is split into 32-bit rule variables (`%38` of class `vreg_64` is
//! `%r38_0`, `%r38_1`; `%38.sub1` is `%r38_1`), so sub-registers are plain selections and
//! tuples are brace lists. Physical registers are the concrete registers (`$vgpr0` -> `v0`).
//! COPY / REG_SEQUENCE / INSERT_SUBREG / EXTRACT_SUBREG become one move per dword;
//! IMPLICIT_DEF, PHI and KILL emit nothing (the register stays an unconstrained input).
//! `Dead:` lists every variable of a register the block defines that is not live-out.
//!
//! Instructions gcnsmt does not model (assumptions, see README "Translation validation"):
//! - terminators must be identical on both sides; their register uses are live-out;
//! - an instruction that reads no memory (a VALU/SALU op outside the modelled set) and occurs
//!   with the same text on both sides is dropped from both; the registers it reads become
//!   live-out (both sides must agree on them, so it computes the same results on both) and
//!   its results are the same fresh inputs on both sides;
//! - global-memory accesses outside the model (`S_LOAD_*_SGPR`, `S_BUFFER_LOAD_*_IMM_ci`,
//!   `GLOBAL_ATOMIC_*` and other `S_LOAD_*`/`S_BUFFER_LOAD_*`/`GLOBAL_*` forms `opcodes.rs`
//!   does not know, which never reach LDS) likewise, when they occur in the same order on
//!   both sides and no buffer instruction (which reaches global memory too) is in the block:
//!   equal inputs in the same order give the same memory and results; an unmodelled FLAT
//!   load (D16, `_SADDR`; the plain forms are modelled) only when nothing in the block writes
//!   memory;
//! - anything else unmodelled (INLINEASM, stores the model lacks, a changed unmodelled
//!   instruction) makes the block `unsupported`, naming the instruction. Barriers never reach
//!   the lowering: [`super::barrier`] splits a block at them.

pub use super::effects::is_terminator;
pub(super) use super::effects::{is_pure, memory_of, pseudo, reads_memory, writes, Mem};
use super::emit::{self, Side};
use super::mir::{Block, Inst, OpKind};
use super::opcodes::{self, MirOp};
pub use super::uninterp::UNINTERPRETED_PREFIX;
use super::xlane;
use crate::rules::{Line, Loc, Rule};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// What the lowering assumes of the function: its LDS allocation and whether identical
/// unmodelled instructions are uninterpreted functions (`--unmodelled same`).
#[derive(Clone, Copy, Debug)]
pub struct How {
    /// `"amdgpu-lds-size"` in bytes.
    pub lds_size: Option<u32>,
    /// `--unmodelled same`: an unmodelled instruction that reads no memory and has the same text
    /// on both sides is dropped and its results are the same fresh inputs on both sides; `false`
    /// makes such a block unsupported.
    pub assume_same: bool,
    /// How image reads are lowered (`mimg.rs`): shared inputs (the proof) or a fixed function
    /// (to confirm a refutation).
    pub texel: super::mimg::Texel,
}

pub use super::lowered::Lowered;

/// Why a block pair is not checked: the instruction (file:line:col) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Whether the lowering translates `i`: a copy pseudo, a 64-bit move or bitwise op, or an opcode
/// of the table, when it does not write EXEC (a single-lane check does not model EXEC: such an
/// instruction is left to the uninterpreted path, which guards later reads of EXEC). `exec`: the
/// block pair is checked in the EXEC model (`exec.rs`), which writes EXEC and lowers its ops.
pub(super) fn modelled(i: &Inst, target: Target, exec: bool) -> bool {
    let op = i.opcode.as_str();
    let writes_exec = || {
        i.defs
            .iter()
            .any(|d| matches!(&d.kind, OpKind::Phys(p) if p.starts_with("exec")))
    };
    if exec && super::xlane::uninterpreted(op) {
        return false;
    }
    (exec && super::exec::handles(op))
        || (!exec && (super::mimg::is_image_read(op) || super::dpp::is_dpp(op)))
        || (exec || !writes_exec())
            && (pseudo(op)
                || super::fp8cvt::handles(op)
                || super::wide::is_wide(op)
                || super::scc::is_scc_op(op)
                || opcodes::lookup(target, op).is_some())
}

pub(super) fn at(side: &Side, i: &Inst) -> String {
    format!("{}:{}:{}", side.file, i.loc.line, i.loc.col)
}

/// Lower a changed block pair on `target`. `liveout`: virtual registers used outside the
/// block (in either file). `lds_size`: the function's `"amdgpu-lds-size"`, a lower bound on
/// `LDS_SIZE`.
pub fn lower(
    name: &str,
    before: &Side,
    after: &Side,
    liveout: &BTreeSet<u32>,
    phys_live: &BTreeSet<String>,
    target: Target,
    how: How,
) -> Result<Lowered, Unsupported> {
    // A pass that changed the terminators (si-lower-control-flow and the exec-mask passes):
    // both sides with the control-flow pseudos expanded and the branches canonical.
    let expanded = super::cf_lower::expand_pair(before.block, after.block, target)
        .map_err(|m| Unsupported(format!("{}: {m}", after.file)))?;
    let (eb, ea);
    let (before, after) = match &expanded {
        Some((b2, a2)) => {
            eb = Side {
                block: b2,
                ..before.clone()
            };
            ea = Side {
                block: a2,
                ..after.clone()
            };
            (&eb, &ea)
        }
        None => (before, after),
    };
    let phys_live = &with_term_reads(phys_live, [before.block, after.block]);
    if before.mode != after.mode {
        // The float ops read the MODE; one per side would compare different machines.
        return Err(Unsupported(format!(
            "{}: the function's `mode:` differs between the files",
            after.file
        )));
    }
    let live = (liveout, phys_live);
    let sides = (before, after);
    let (b, a) = (before.block, after.block);
    super::frame::check(before).map_err(Unsupported)?;
    let mut claim_gap = None;
    if let Some((l, why)) = super::memop::check(b, a, super::memop::Tie::Lowered(target)) {
        let why = format!("{}:{}:{}: {why}", after.file, l.line, l.col);
        match why.split_once(super::memop::CLAIM_GAP) {
            Some((at, rest)) => claim_gap = Some(format!("{at}{rest}")),
            None => return Err(Unsupported(why)),
        }
    }
    if let Some((i, f)) = super::mi_flags::added(b, a) {
        if claim_gap.is_none() {
            let why = format!("the pass added the flag `{f}` (a claim about the value no instruction of the before-block making the same operation makes)");
            claim_gap = Some(format!("{}: {why}", at(after, i)));
        }
    }
    if let Some(i) = super::effects::undef_added(b, a) {
        let why = "the pass added an `undef` flag where the before-block has a value";
        return Err(Unsupported(format!("{}: {why}", at(after, i))));
    }
    let moved = super::waits::moved(b, a);
    if let Some(why) = moved.or_else(|| super::ldsdma::reordered(b, a, target)) {
        let at = (a.loc.line, a.loc.col);
        return Err(Unsupported(format!(
            "{}:{}:{}: {why}",
            after.file, at.0, at.1
        )));
    }
    for side in [before, after] {
        if let Some(i) = super::effects::names_null(side.block, target) {
            let why =
                "$sgpr_null read after a write to it in the block (reads 0, writes discarded \
                       on gfx10+) is not modelled";
            return Err(Unsupported(format!("{}: {why}", at(side, i))));
        }
        if let Some((n, why)) = super::wwm::inactive_read(side.block, side.classes, liveout) {
            let i = &side.block.insts[n];
            let why = format!(
                "{}: {why}: the inactive lanes of a whole-wave (WWM/WQM) value are not modelled",
                i.opcode
            );
            return Err(Unsupported(format!("{}: {why}", at(side, i))));
        }
        if let Some(i) = super::effects::scalar_read_after_vector_store(side.block, target) {
            let why = "a scalar load after a vector memory store (EXEC = 0 or other lanes' \
                       stores decide what it reads)";
            return Err(Unsupported(format!("{}: {why}", at(side, i))));
        }
    }
    // A pair that writes EXEC, reads it explicitly or makes a lane mask gets the EXEC model
    // (`exec.rs`). One that writes EXEC has no other: the one-lane model would run lane L's
    // VALU work whatever EXEC says. The others fall back to the one-lane model.
    let gap = |mut l: Lowered| {
        l.claim_gap = claim_gap.clone();
        l
    };
    if !super::exec::involved(b, a) {
        return lower_in(name, sides, live, target, how, false).map(gap);
    }
    let r = match lower_in(name, sides, live, target, how, true) {
        // A mask read across lanes (`S_CMP_LG_U64 %mask, 0`, `S_BCNT1`, `S_FF1` of a V_CMP
        // result) is no better in the one-lane model, where lane L always runs and the mask
        // is never 0: no fallback.
        Err(e) if e.0.contains("a lane mask") || e.0.contains("lane bits") => Err(e),
        // Nor when a cross-lane op the EXEC model leaves uninterpreted reads a mask.
        Err(e) if super::xlane::reads_mask(sides, target) => Err(e),
        Err(e) if !super::exec::writes(b, a) => lower_in(name, sides, live, target, how, false)
            .map_err(|u| match u.0 == e.0 {
                true => u,
                false => Unsupported(format!("{} (EXEC model: {})", u.0, e.0)),
            }),
        r => r,
    };
    r.map(gap)
}

/// What `lower_in` refuses before lowering: changed terminators, `$ttmp` writes, wave-level
/// DS instructions in the EXEC model. Returns the (equal) terminators.
fn guards<'a>(
    (before, after): (&Side<'a>, &Side<'a>),
    target: Target,
    exec: bool,
) -> Result<Vec<&'a str>, Unsupported> {
    let (bterm, aterm) = (terminators(before.block), terminators(after.block));
    if bterm != aterm {
        return Err(Unsupported(format!(
            "{}: the pass changed the block's terminators",
            after.file
        )));
    }
    super::ordering::check(before.block, after.block)
        .map_err(|why| Unsupported(format!("{}: {why}", after.file)))?;
    for side in [before, after] {
        if let Some(i) = super::ttmp::writer(side.block) {
            let why = "a write to a trap-handler register ($ttmp) is not modelled";
            return Err(Unsupported(format!("{}: {}: {why}", at(side, i), i.opcode)));
        }
    }
    for side in [before, after].iter().filter(|_| exec) {
        if let Some(i) = super::effects::wave_level_ds(side.block, target) {
            let why = "a wave-level DS instruction (GWS, append/consume) in the EXEC model";
            return Err(Unsupported(format!("{}: {}: {why}", at(side, i), i.opcode)));
        }
    }
    Ok(bterm)
}

fn lower_in(
    name: &str,
    (before, after): (&Side, &Side),
    (liveout, phys_live): (&BTreeSet<u32>, &BTreeSet<String>),
    target: Target,
    how: How,
    exec: bool,
) -> Result<Lowered, Unsupported> {
    let How {
        lds_size,
        assume_same,
        texel,
    } = how;
    let (bw, aw) = super::waits::without_waits(before.block, after.block);
    let (bw, aw) = (
        xlane::reads(exec, before, bw),
        xlane::reads(exec, after, aw),
    );
    let rename = renamable(&bw, &aw, phys_live, target);
    // An unencodable 64-bit literal the pass introduced is what the encoder emits (`wide.rs`).
    let encoded = super::wide::encoded_after(&bw, &aw, target)
        .map_err(|m| Unsupported(format!("{}: {m}", after.file)))?;
    let before = &Side {
        rename: rename.clone(),
        block: &bw,
        ..before.clone()
    };
    let after = &Side {
        rename,
        block: encoded.as_ref().unwrap_or(&aw),
        ..after.clone()
    };
    let bterm = guards((before, after), target, exec)?;
    let mut live: BTreeSet<u32> = liveout.clone();
    for i in before
        .block
        .insts
        .iter()
        .filter(|i| is_terminator(&i.opcode))
    {
        for o in &i.ops {
            if let OpKind::VReg { id, .. } = o.kind {
                live.insert(id);
            }
        }
    }
    let defined_b = defined(before.block);
    let defined_a = defined(after.block);
    let plain_live = live.clone();
    let dropped = unmodelled(before, after, target, &mut live, (assume_same, exec))?;
    // Image reads: their arguments are compared (soft, like a dropped instruction's inputs).
    let images = super::mimg::check((before, after), (target, exec), &mut live, |i| {
        writes(i, target).0
    })? && texel == super::mimg::Texel::Shared;
    // In the EXEC model a mask is bit L only: an SCC computed from one is exact for waves whose
    // only active lane is L (`Lowered::bounded`).
    let scc = Scc {
        live_out: phys_live.contains("scc"),
        mentioned: [before.block, after.block].iter().any(|b| {
            b.insts
                .iter()
                .any(|i| super::scc::reads(i) || super::scc::writes(i))
        }),
        vcmp: [before, after].iter().any(|s| super::exec::makes_mask(s)),
    };
    let mode = (target, exec, scc.live_out);
    // Accesses whose claims ride on an access of another operand text: their operands are
    // compared where they run (`memop::claim_pairs`).
    let pairs = super::memop::claim_pairs(before.block, after.block, target);
    let obs = |side: usize| -> BTreeMap<usize, usize> {
        (pairs.iter().enumerate())
            .map(|(k, p)| (if side == 0 { p.0 } else { p.1 }, k))
            .collect()
    };
    let (source, bounded_b) = lower_side(before, mode, (scc, 'b', texel), &obs(0))?;
    let (target_lines, bounded_a) = lower_side(after, mode, (scc, 'a', texel), &obs(1))?;
    let bounded = bounded_b
        .or(bounded_a)
        .or_else(|| super::firstlane::introduced(before, after));
    let mut dead = dead_vregs(
        &defined_b.union(&defined_a).copied().collect(),
        &live,
        (before, after),
    );
    // A variable must appear in the rule to be declared dead.
    let text: String = source
        .iter()
        .chain(&target_lines)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    dead.retain(|(v, _)| mentions(&text, v));
    // Dropped instructions matter for a refutation only when the rule reads their results.
    let uninterpreted: Vec<String> = dropped
        .iter()
        .filter(|(_, defs)| {
            // Any dword of the result: `%1.sub1` alone is `%r1_1`.
            defs.iter()
                .any(|d| (0..32).any(|k| mentions(&text, &format!("r{d}_{k}"))))
        })
        .map(|(op, _)| op.clone())
        .collect();
    let (uninterpreted, taint) =
        super::uninterp::taint(before, after, (target, exec), (uninterpreted, images));
    let soft = soft_inputs(&text, &live, &plain_live, (before, after));
    scratch_dead(&text, scc.live_out, &mut dead);
    let lds = lds_size
        .filter(|n| *n > 0)
        .map(|n| format!("LDS_SIZE >= {n}"));
    let lds = super::frame::precondition(lds, before, target, &text).map_err(Unsupported)?;
    let ed = exec_dead(before.block, after.block);
    let (pre, lanes, mut dead_regs) =
        super::exec::rule_parts(exec, lds, &text, (target, &bterm, ed));
    super::scc::machine_scc_dead(&mut dead_regs);
    let pre = pre.map(|text| Line {
        text,
        loc: Loc::default(),
    });
    Ok(Lowered {
        rule: Rule {
            file: before.file.to_string(),
            name: name.to_string(),
            loc: Loc {
                line: before.block.loc.line,
                col: before.block.loc.col,
            },
            targets: Some((vec![target], Loc::default())),
            to: None,
            settings: before.mode.rule_settings(),
            pre,
            dead,
            dead_regs,
            source,
            target: target_lines,
            expect: None,
            cites: Vec::new(),
            tags: Vec::new(),
            lanes,
            written: false,
        },
        uninterpreted,
        taint,
        soft,
        bounded,
        claim_gap: None,
        images,
    })
}

/// Every 32-bit variable of a register the pair defines and nothing after it reads.
fn dead_vregs(
    defined: &BTreeSet<u32>,
    live: &BTreeSet<u32>,
    (before, after): (&Side, &Side),
) -> Vec<(String, Loc)> {
    let mut dead = Vec::new();
    for id in defined.difference(live) {
        let cls = before.classes.get(id).or_else(|| after.classes.get(id));
        if let Some(n) = cls.and_then(|c| super::half16::class_cells(c)) {
            for k in 0..n {
                dead.push((format!("r{id}_{k}"), Loc::default()));
            }
        }
    }
    dead
}

/// The compared variables a refutation may not rest on alone: the inputs of dropped
/// instructions and the registers they made live-out (`live` beyond `plain_live`).
fn soft_inputs(
    text: &str,
    live: &BTreeSet<u32>,
    plain_live: &BTreeSet<u32>,
    (before, after): (&Side, &Side),
) -> BTreeSet<String> {
    let mut soft = BTreeSet::new();
    let uf_in = regex::Regex::new(&format!(r"%{UNINTERPRETED_PREFIX}[0-9a-f]{{8}}_\d+_in\d+"))
        .expect("regex");
    for m in uf_in.find_iter(text) {
        soft.insert(m.as_str().to_string());
    }
    for id in live.difference(plain_live) {
        let cls = before.classes.get(id).or_else(|| after.classes.get(id));
        for k in 0..cls.and_then(|c| super::half16::class_cells(c)).unwrap_or(0) {
            soft.insert(format!("%r{id}_{k}"));
        }
    }
    soft
}

/// Declare dead what is never compared: SCC where it is not live out, the renamed physical
/// cells, the scratch variables of SCC formulas, the SDWA lowering's intermediate values, the
/// EXEC model's scratch cells (`exec::TMP_PREFIX`) and the shadow first lane's registers
/// (`firstlane.rs`: `%r1000000..`, `%lfv*`).
fn scratch_dead(text: &str, scc_live_out: bool, dead: &mut Vec<(String, Loc)>) {
    if !scc_live_out && mentions(text, &super::scc::VAR[1..]) {
        dead.push((super::scc::VAR[1..].to_string(), Loc::default()));
    }
    let fresh = regex::Regex::new(&format!(
        r"%((?:{}|{}|{}|{}|{}|{})[a-z0-9_]+|r\d{{7,}}_\d+|lfv\d+)\b",
        emit::PHYS_PREFIX,
        super::exec::TMP_PREFIX,
        super::scc::TEMP,
        super::sdwa::TMP_PREFIX,
        super::mimg::TMP_PREFIX,
        super::dpp::PREFIX
    ))
    .expect("regex");
    let mut seen = BTreeSet::new();
    for c in fresh.captures_iter(text) {
        if seen.insert(c[1].to_string()) {
            dead.push((c[1].to_string(), Loc::default()));
        }
    }
}

/// Check the unmodelled instructions of a pair (module doc, assumptions 2-4) and make the
/// registers they read live-out (so both sides must agree on them: equal inputs give equal
/// results, which are then the same fresh inputs). Returns the dropped opcodes with the
/// virtual registers they define.
fn unmodelled(
    before: &Side,
    after: &Side,
    target: Target,
    live: &mut BTreeSet<u32>,
    (assume_same, exec): (bool, bool),
) -> Result<Vec<(String, Vec<u32>)>, Unsupported> {
    let (gw_b, lw_b) = side_writes(before.block, target);
    let (gw_a, lw_a) = side_writes(after.block, target);
    let (gwrite, lwrite) = (gw_b || gw_a, lw_b || lw_a);
    let buffer = before
        .block
        .insts
        .iter()
        .chain(&after.block.insts)
        .any(|i| {
            matches!(
                opcodes::lookup(target, &i.opcode),
                Some(MirOp::Mubuf { .. })
            )
        });
    let global_seq = |b: &Block| -> Vec<String> {
        b.insts
            .iter()
            .filter(|i| opcodes::lookup(target, &i.opcode).is_none())
            .filter(|i| matches!(memory_of(&i.opcode), Mem::ReadsGlobal | Mem::WritesGlobal))
            .map(|i| i.key.clone())
            .collect()
    };
    let same_global_order = global_seq(before.block) == global_seq(after.block);
    let mut dropped: BTreeSet<String> = BTreeSet::new();
    let mut uninterpreted = Vec::new();
    for (side, other) in [(before, after), (after, before)] {
        for i in &side.block.insts {
            let op = i.opcode.as_str();
            if is_terminator(op) || modelled(i, target, exec) {
                continue;
            }
            let global = matches!(memory_of(op), Mem::ReadsGlobal | Mem::WritesGlobal);
            let why = match memory_of(op) {
                _ if !assume_same => Some("not modelled (--unmodelled unsupported)"),
                Mem::Effect => Some("its memory effect is not modelled"),
                _ if global && buffer => {
                    Some("global memory next to buffer accesses is not modelled")
                }
                _ if global && !same_global_order => Some("the pass moved a global memory access"),
                Mem::ReadsAny if gwrite || lwrite => Some("it reads memory the block writes"),
                _ => None,
            };
            if let Some(why) = why {
                return Err(Unsupported(format!("{}: {op}: {why}", at(side, i))));
            }
            if !other.block.insts.iter().any(|j| j.key == i.key) {
                return Err(Unsupported(format!(
                    "{}: {op} is not modelled and the pass changed it",
                    at(side, i)
                )));
            }
            super::uninterp::operands(side, i, target, live)?;
            if dropped.insert(i.key.clone()) && !i.defs.is_empty() {
                let defs = i
                    .defs
                    .iter()
                    .filter_map(|d| match d.kind {
                        OpKind::VReg { id, .. } => Some(id),
                        _ => None,
                    })
                    .collect();
                uninterpreted.push((op.to_string(), defs));
            }
        }
    }
    Ok(uninterpreted)
}

/// Whether `i` writes virtual register `id` (or a part of it).
pub(super) fn defines(i: &Inst, id: u32) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .any(|d| matches!(d.kind, OpKind::VReg { id: x, .. } if x == id))
}

/// The 32-bit cells of physical registers written in either block (explicit definitions, and
/// the `vcc` carry of `_e32` adds) that no successor and no terminator reads, under any name
/// (`$sgpr0` is a cell of `$sgpr0_sgpr1`); never M0 or EXEC, which the semantics read
/// implicitly (the LDS bound, the active lanes).
fn renamable(
    before: &Block,
    after: &Block,
    live: &BTreeSet<String>,
    target: Target,
) -> BTreeSet<String> {
    let cells = |p: &str| emit::phys(p, target).unwrap_or_default();
    let live_cells: BTreeSet<String> = live.iter().flat_map(|p| cells(p)).collect();
    let mut out = BTreeSet::new();
    for i in before.insts.iter().chain(&after.insts) {
        let carry = matches!(
            opcodes::lookup(target, &i.opcode),
            Some(MirOp::Alu { vcc: true, .. })
        );
        for o in i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| carry && o.flags.implicit_def))
        {
            if let OpKind::Phys(p) = &o.kind {
                for c in cells(p) {
                    if !live_cells.contains(&c) && c != "m0" && !c.starts_with("exec") {
                        out.insert(c);
                    }
                }
            }
        }
    }
    out
}

/// `live` and the physical registers the terminators of `blocks` read: the terminators are
/// not lowered (both sides must have the same ones), so what they read must be equal where the
/// block ends. Taken from the blocks as checked: a `*_term` op `cf_lower` expanded into its
/// plain op is lowered, and what it read (`$sgpr4_sgpr5` of `$exec = S_MOV_B64_term killed
/// $sgpr4_sgpr5`) is compared only through what it computes; before 2026-12-06 it was compared
/// too, and si-optimize-exec-masking's `S_AND_SAVEEXEC_B64`, which leaves that dead register
/// unwritten, was refuted on it (breaker 16's 05).
fn with_term_reads<'b>(
    live: &BTreeSet<String>,
    blocks: impl IntoIterator<Item = &'b Block>,
) -> BTreeSet<String> {
    let mut out = live.clone();
    for i in blocks
        .into_iter()
        .flat_map(|b| &b.insts)
        .filter(|i| is_terminator(&i.opcode))
    {
        for o in i.ops.iter().filter(|o| !o.flags.implicit_def) {
            if let OpKind::Phys(p) = &o.kind {
                out.insert(p.clone());
            }
        }
    }
    out
}

fn mentions(text: &str, var: &str) -> bool {
    let pat = format!("%{var}");
    text.match_indices(&pat).any(|(k, _)| {
        !text[k + pat.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// EXEC is dead at the end of both blocks: no later instruction of either file reads it
/// (`cf_lower::mark_exec_dead`).
fn exec_dead(before: &Block, after: &Block) -> bool {
    super::cf_lower::exec_dead_out(before) && super::cf_lower::exec_dead_out(after)
}

fn terminators(b: &Block) -> Vec<&str> {
    b.insts
        .iter()
        .filter(|i| is_terminator(&i.opcode))
        .map(|i| i.key.as_str())
        .collect()
}

/// The virtual registers an instruction of `b` defines (PHI results and IMPLICIT_DEFs are
/// block inputs, not definitions).
pub(super) fn defined(b: &Block) -> BTreeSet<u32> {
    b.insts
        .iter()
        .filter(|i| {
            !matches!(i.opcode.as_str(), "IMPLICIT_DEF" | "PHI") && !is_terminator(&i.opcode)
        })
        .flat_map(|i| {
            i.defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
        })
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

fn side_writes(b: &Block, target: Target) -> (bool, bool) {
    b.insts.iter().fold((false, false), |(g, l), i| {
        let (g2, l2) = writes(i, target);
        (g || g2, l || l2)
    })
}

/// What the lowering needs to know of SCC in a block pair.
#[derive(Clone, Copy)]
struct Scc {
    /// Some path from the block reads SCC before writing it (`scc_live.rs`).
    live_out: bool,
    /// Some instruction of either side reads or writes SCC (never in the EXEC model).
    mentioned: bool,
    /// Either side makes a lane mask (a V_CMP / V_CMPX; [`super::scc::reads_mask`]).
    vcmp: bool,
}

/// One side's rule lines; `tag` names the side's SCC scratch variables.
fn lower_side(
    side: &Side,
    (target, exec, scc_out): (Target, bool, bool),
    (scc, tag, texel): (Scc, char, super::mimg::Texel),
    claim_obs: &BTreeMap<usize, usize>,
) -> Result<(Vec<Line>, Option<String>), Unsupported> {
    let mut out = Vec::new();
    let mut bounded = None;
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut temps = super::scc::Temps::new(target, tag, exec);
    if scc.mentioned {
        // The live-in SCC is one bit: any input value stands for `value != 0`.
        for t in temps.normalize() {
            out.push(Line {
                text: t,
                loc: Loc::default(),
            });
        }
    }
    let used = super::scc::used(&side.block.insts, scc.live_out);
    if exec {
        super::exec::lanewise(side, target).map_err(|(n, m)| {
            let i = &side.block.insts[n];
            Unsupported(format!("{}: {m}", at(side, i)))
        })?;
    }
    let mut st = super::exec::State::default();
    let mut dpp_live = BTreeMap::new();
    let mut vol = super::volatile::Seen::default();
    // llvm.amdgcn.init.exec "is always moved to the beginning of the basic block"
    // (IntrinsicsAMDGPU.td; SIWholeQuadMode::lowerInitExec inserts it there).
    let init = |i: &Inst| i.opcode.starts_with("SI_INIT_EXEC");
    let mut order: Vec<usize> = (0..side.block.insts.len()).collect();
    if exec {
        order.sort_by_key(|&n| !init(&side.block.insts[n]));
    }
    for n in order {
        let i = &side.block.insts[n];
        let op = i.opcode.as_str();
        if is_terminator(op) || matches!(op, "IMPLICIT_DEF" | "KILL" | "PHI") {
            continue;
        }
        let modelled = modelled(i, target, exec);
        let loc = Loc {
            line: i.loc.line,
            col: i.loc.col,
        };
        if !modelled && exec && super::exec::writes_exec(i) {
            // The EXEC model cannot leave EXEC as it was: lane L's later work depends on it.
            return Err(Unsupported(format!(
                "{}: {op}: writes EXEC and is not modelled",
                at(side, i)
            )));
        }
        if !modelled {
            // An uninterpreted twin (checked by the caller): its physical inputs are compared
            // where it reads them, its physical results are the same fresh values on both sides.
            let k = seen.entry(i.key.as_str()).or_insert(0usize);
            for t in super::uninterp::lines(side, i, *k, target, &mut temps)? {
                out.push(Line { text: t, loc });
            }
            *k += 1;
            continue;
        }
        let fail = |m: String| Unsupported(format!("{}: {op}: {m}", at(side, i)));
        emit::salu_on_target(op, target).map_err(fail)?;
        let rest = &side.block.insts[n + 1..];
        let texts: Vec<String> = if exec {
            let own = super::scc::lower(side, i, target, &mut temps).map_err(fail)?;
            if own.is_none() && super::scc::reads(i) {
                return Err(fail("its SCC input is not modelled".into()));
            }
            if used[n] && super::scc::writes(i) && super::scc::reads_mask(side, n, target, true) {
                bounded.get_or_insert_with(|| {
                    format!(
                        "proved only for waves whose one active lane is the lane checked: {}: \
                         {op} sets SCC from a lane mask (mask != 0 reads every lane)",
                        at(side, i)
                    )
                });
            }
            let (pre, post) =
                super::scc::write(side, i, target, &mut temps, used[n]).map_err(fail)?;
            let body = match own {
                Some(t) => t,
                None if super::firstlane::to_sgpr_copy(side, i) => {
                    return Err(fail(
                        "a VGPR-to-SGPR copy reads the first active lane".into(),
                    ))
                }
                None => super::exec::lower_inst(side, i, target, &mut st, (rest, scc_out))
                    .map_err(fail)?,
            };
            pre.into_iter().chain(body).chain(post).collect()
        } else {
            let own = super::scc::lower(side, i, target, &mut temps).map_err(fail)?;
            if own.is_none() && super::scc::reads(i) {
                return Err(fail("its SCC input is not modelled".into()));
            }
            if used[n] && super::scc::writes(i) && super::scc::reads_mask(side, n, target, scc.vcmp)
            {
                return Err(fail(
                    "the SCC of a lane mask is read (a cross-lane value)".into(),
                ));
            }
            let (pre, post) =
                super::scc::write(side, i, target, &mut temps, used[n]).map_err(fail)?;
            let body = match own {
                Some(t) => t,
                None if super::mimg::is_image_read(op) => {
                    super::mimg::lower(side, i, target, (texel, tag, n)).map_err(fail)?
                }
                None if op == "V_READFIRSTLANE_B32" || super::firstlane::to_sgpr_copy(side, i) => {
                    super::firstlane::lower(side, i, n, target).map_err(fail)?
                }
                None if super::dpp::is_dpp(op) => {
                    super::dpp::lower(side, i, n, target, &mut dpp_live).map_err(fail)?
                }
                None => emit::lower_inst(side, i, target).map_err(fail)?,
            };
            pre.into_iter().chain(body).chain(post).collect()
        };
        // Volatile loads are perturbed after they run, volatile and atomic writes observed
        // before (`volatile.rs`).
        let (mut vpre, vpost) =
            super::volatile::lines(side, i, target, exec, &mut vol).map_err(fail)?;
        if let Some(&k) = claim_obs.get(&n) {
            vpre.extend(super::volatile::observe(side, i, ("claimop", k), target).map_err(fail)?);
        }
        for t in vpre.into_iter().chain(texts).chain(vpost) {
            out.push(Line { text: t, loc });
        }
    }
    // Lane S's live-in VGPRs are settled before anything runs (they are block inputs).
    let lines = super::dpp::prologue(&dpp_live).chain(out).collect();
    Ok((lines, bounded))
}
