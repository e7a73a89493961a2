//! `gcnsmt tv`: one verdict per function x block x target, a summary, exit codes as
//! `verify` (0 all proved or unchanged, 1 something refuted, 2 input or tool error, 3 nothing
//! refuted but something unknown or unsupported).

use super::barrier;
use super::classify::{classify_refutation, mir_names};
use super::diff::{self, FnPair};
use super::emit::Side;
use super::fn_facts;
use super::llc;
use super::lower::{self, Lowered};
use super::mir::{self, MirFile};
pub use super::report::VERDICTS;
use crate::check::{self, Options, Verdict};
use crate::exit::ExitStatus;
use gcnsmt_semantics::target::Target;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TvFormat {
    /// One line per block (`FUNCTION bb.N TARGET: VERDICT`, then ` [TIME ms]` for a changed
    /// block and `: REASON` if any), then a summary line.
    Text,
    /// JSON Lines: one `{"type": "block", ...}` object per block, then a `{"type": "summary"}`
    /// object with the count of each verdict.
    Json,
    /// SARIF 2.1.0: one result per block that is not proved or unchanged, at the block's line
    /// in the after-file.
    Sarif,
}

/// What to do with unmodelled instructions (a named assumption, see docs/tv.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unmodelled {
    /// An uninterpreted function of its register inputs.
    Same,
    /// The block is `unsupported`.
    Unsupported,
}

/// Arguments of `gcnsmt tv`.
#[derive(clap::Args, Debug, Clone)]
pub struct TvArgs {
    /// BEFORE.mir AFTER.mir; with --pass or --pipeline, one FILE.mir or FILE.ll.
    #[arg(required = true, num_args = 1..=2)]
    pub files: Vec<PathBuf>,
    /// Run llc for this pass (`si-load-store-opt`, `si-fold-operands`, ...) and validate it.
    #[arg(long)]
    pub pass: Option<String>,
    /// Run llc's whole machine pipeline (-O3 unless `-- -ON`) on the one FILE.ll or FILE.mir
    /// and validate every pass, each between consecutive `-stop-before` points (docs/tv.md).
    #[arg(long, conflicts_with = "pass")]
    pub pipeline: bool,
    /// With --pipeline, stop after this pass (`si-form-memory-clauses`, or `ARG,K` for its
    /// K-th instance): the passes after it are neither run to a stop point nor checked.
    #[arg(long, value_name = "PASS", requires = "pipeline")]
    pub until: Option<String>,
    /// Targets (comma-separated -mcpu names); for two files, used when a function has no
    /// "target-cpu" attribute.
    #[arg(long)]
    pub target: Option<String>,
    /// Only these functions (repeatable).
    #[arg(long = "function", value_name = "NAME")]
    pub functions: Vec<String>,
    /// The llc to run with --pass (and --llc-verify).
    #[arg(long, default_value = "llc-22")]
    pub llc: String,
    /// With two files: first run `llc -run-pass=none -verify-machineinstrs` on each, and treat
    /// a file llc rejects as an input error (exit 2) before any verdict.
    #[arg(long)]
    pub llc_verify: bool,
    /// Time limit of each llc run with --pass or --pipeline, in seconds; an llc that runs
    /// longer is killed and its target's (with --pipeline: its pass's) verdict is `error`
    /// (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = super::llc_run::DEFAULT_TIMEOUT_SECS)]
    pub llc_timeout: f64,
    /// With --pass, keep the MIR llc wrote in this directory (created if needed):
    /// `STEM@TARGET.before.mir` and `STEM@TARGET.after.mir` (for a `.ll` input also
    /// `STEM@TARGET.input.mir`, the MIR before the pass), to rerun `tv` on or edit. With
    /// --pipeline, the pairs with a refuted, unknown or error block, or an error, as
    /// `STEM@TARGET.PASS.before.mir` and `.after.mir`.
    #[arg(long, value_name = "DIR")]
    pub keep_mir: Option<PathBuf>,
    /// Output: text, json (JSON Lines) or sarif.
    #[arg(long, value_enum, default_value_t = TvFormat::Text)]
    pub format: TvFormat,
    /// Time limit per solver query, in seconds.
    #[arg(long, default_value_t = 20.0)]
    pub timeout: f64,
    /// An unmodelled instruction that reads no memory and occurs unchanged on both sides:
    /// `same` treats it as an uninterpreted function of its inputs (the same results on both
    /// sides), `unsupported` gives up on its block.
    #[arg(long, value_enum, default_value_t = Unmodelled::Same)]
    pub unmodelled: Unmodelled,
    /// Override a machine setting for every block (repeatable), as `verify --set` does; e.g.
    /// `flat_aperture=GLOBAL` assumes FLAT pointers never point into LDS or scratch, as LLVM
    /// does when it merges a FLAT with a GLOBAL access (docs/tv.md).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Only the blocks of shard K of N (1 <= K <= N), by a hash of each block pair's content
    /// and target; the exit status of the shards together is the unsharded run's.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Extra llc arguments (after `--`).
    #[arg(last = true)]
    pub extra: Vec<String>,
}

/// One verdict line.
#[derive(Clone, Debug)]
pub struct BlockVerdict {
    /// The machine function's name.
    pub function: String,
    /// The block number `N` of `bb.N`.
    pub block: u32,
    /// The target's -mcpu name (`gfx900`).
    pub target: String,
    /// proved, refuted, unknown, unsupported, inapplicable, error, unchanged.
    pub verdict: &'static str,
    /// Whether the block's instructions differ between the files; an unchanged block is not
    /// checked and gets the verdict `unchanged`.
    pub changed: bool,
    /// Wall time of lowering and checking the block (zero when unchanged); printed in
    /// milliseconds.
    pub time: Duration,
    /// Why the verdict is not `proved`: the unsupported instruction, the solver's reason for
    /// `unknown`, the error, or what a refutation rests on.
    pub reason: Option<String>,
    /// The counterexample of a refutation (or of an `unknown` that rests on uninterpreted
    /// values) in MIR terms ([`super::cex`]).
    pub counterexample: Option<String>,
    /// The same counterexample as JSON data (`counterexample_data` in `--format json`).
    pub counterexample_data: Option<serde_json::Value>,
    /// The machine settings a checked block's verdict assumed, as `verify` prints them
    /// (`alignment=UNALIGNED, lds_limit=ALLOC`); none for a block not checked.
    pub settings: Option<String>,
    /// The after-file and the block's position in it (for SARIF).
    pub file: String,
    /// 1-based line of the block's `bb.N` label in the after-file.
    pub line: u32,
    /// 1-based column of that label.
    pub col: u32,
}

/// Run the command; returns its exit status.
pub fn run(a: &TvArgs) -> ExitStatus {
    if a.pipeline {
        return super::pipeline_cmd::run(a);
    }
    let start = Instant::now();
    let verdicts = match collect(a) {
        Ok(v) => v,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitStatus::InputError;
        }
    };
    super::report::print(&verdicts, a.format, start.elapsed());
    exit_code(&verdicts)
}

/// The exit status for a set of verdicts.
pub fn exit_code(v: &[BlockVerdict]) -> ExitStatus {
    let has = |k: &str| v.iter().any(|b| b.verdict == k);
    if has("error") {
        ExitStatus::InputError
    } else if has("refuted") {
        ExitStatus::Refuted
    } else if has("unknown") || has("unsupported") {
        ExitStatus::Inconclusive
    } else {
        ExitStatus::Proved
    }
}

pub use super::llc::llc_error;

/// The `--target` list, or a usage error.
pub fn parse_targets(s: &str) -> Result<Vec<Target>, String> {
    Target::parse_list(s).map_err(|e| format!("error: --target: {e}"))
}

/// The checking options and the shard of `a`, or a usage error.
pub fn options(a: &TvArgs) -> Result<(Options, Option<crate::shard::Shard>), String> {
    let mut settings = crate::check::parse_set(&a.set).map_err(|e| format!("error: {e}"))?;
    let hazards = super::hazards::take_setting(&mut settings)?;
    let shard = a
        .shard
        .as_deref()
        .map(crate::shard::Shard::parse)
        .transpose()
        .map_err(|e| format!("error: --shard {e}"))?;
    // Checked once on gfx900 (it has every value of every setting); per target per block.
    for (n, v) in &super::v2s::machine_settings(&settings)? {
        let t = gcnsmt_semantics::target::Target::Gfx900;
        let mut s = gcnsmt_semantics::settings::Settings::default_for(t);
        s.set(t, n, v).map_err(|e| format!("error: --set: {e}"))?;
    }
    let opts = Options {
        timeout: crate::limits::timeout(a.timeout).map_err(|e| format!("error: --timeout: {e}"))?,
        settings,
        hazards,
        ..Options::default()
    };
    Ok((opts, shard))
}

/// The bounds of every llc run of `--pass` and `--pipeline`: `--llc-timeout` and
/// [`super::llc_run::MAX_OUTPUT_BYTES`].
pub fn llc_bounds(a: &TvArgs) -> Result<super::llc_run::Bounds, String> {
    Ok(super::llc_run::Bounds {
        timeout: crate::limits::timeout(a.llc_timeout)
            .map_err(|e| format!("error: --llc-timeout: {e}"))?,
        max_output: super::llc_run::MAX_OUTPUT_BYTES,
    })
}

/// All verdicts, or one input/tool error message.
pub fn collect(a: &TvArgs) -> Result<Vec<BlockVerdict>, String> {
    let (opts, shard) = options(a)?;
    if a.pass.is_none() && a.keep_mir.is_some() {
        return Err("error: --keep-mir needs --pass".into());
    }
    let mut out = Vec::new();
    match (&a.pass, a.files.as_slice()) {
        (Some(pass), [file]) => {
            let ts = a
                .target
                .as_deref()
                .ok_or("error: --pass needs --target (comma-separated -mcpu names)")?;
            let bounds = llc_bounds(a)?;
            if let Some(d) = &a.keep_mir {
                crate::limits::writable_dir(d)
                    .map_err(|e| format!("error: --keep-mir {}: {e}", d.display()))?;
            }
            for t in parse_targets(ts)? {
                // One target's llc failure (an intrinsic llc cannot select there) is that
                // target's error, not the end of the others' checks.
                let keep = (bounds, a.keep_mir.as_deref());
                let p = match llc::before_after(&a.llc, pass, file, t, &a.extra, keep) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("error: {}", e.0);
                        out.push(llc_error(file, t, &e.0));
                        continue;
                    }
                };
                let b = mir::parse(&p.before_name, &p.before).map_err(|e| e.to_string())?;
                let f = mir::parse(&p.after_name, &p.after).map_err(|e| e.to_string())?;
                let opts = super::v2s::for_pass(&opts, Some(pass));
                let files = (&b, &f, p.after.as_str());
                let ts = Some(&[t][..]);
                out.extend(fn_facts::validate_pair(
                    files,
                    a,
                    Some(pass),
                    ts,
                    &opts,
                    shard,
                )?);
            }
        }
        // With `--pass si-insert-waitcnts` the pass is named: its contract (no timing hazard)
        // is checked even where it inserted no wait (wait_pass.rs). With `--pass
        // si-fix-sgpr-copies` the before-file is its input (v2s.rs).
        (p, [before, after]) if p.as_deref().is_none_or(super::v2s::takes_two_files) => {
            let read = |p: &PathBuf| -> Result<MirFile, String> {
                let text = crate::limits::read_text(p).map_err(|e| {
                    format!("{}:{}:{}: error: {}", p.display(), e.line, e.col, e.msg)
                })?;
                let name = p.display().to_string();
                super::phase::step("reading", &name, || mir::parse(&name, &text))
                    .map_err(|e| e.to_string())
            };
            let (b, f) = (read(before)?, read(after)?);
            let ts = a.target.as_deref().map(parse_targets).transpose()?;
            if a.llc_verify {
                let t = ts.as_ref().and_then(|v| v.first().copied());
                for p in [before, after] {
                    super::llc_verify::check(&a.llc, p, t)?;
                }
            }
            let opts = super::v2s::for_pass(&opts, a.pass.as_deref());
            let text = std::fs::read_to_string(after).unwrap_or_default();
            let (pass, ts) = (a.pass.as_deref(), ts.as_deref());
            let v = fn_facts::validate_pair((&b, &f, &text), a, pass, ts, &opts, shard)?;
            out.extend(v);
        }
        (Some(_), _) => return Err("error: --pass takes one input file".into()),
        (None, _) => return Err("error: tv takes BEFORE.mir AFTER.mir, or --pass PASS FILE".into()),
    }
    Ok(out)
}

/// Validate every changed block of every function on its targets: the function's
/// `"target-cpu"`, else `fallback`, else an error.
pub fn validate(
    before: &MirFile,
    after: &MirFile,
    only: &[String],
    fallback: Option<&[Target]>,
    opts: &Options,
    unmodelled: Unmodelled,
    shard: Option<crate::shard::Shard>,
) -> Result<Vec<BlockVerdict>, String> {
    validate_files(
        before,
        after,
        only,
        fallback,
        (opts, unmodelled),
        shard,
        true,
    )
}

/// [`validate`]; `files`: `before` and `after` are the user's files, not the register-
/// allocation checker's images (an image pairs the after-file's instructions with the
/// before-file's registers: whether the after-file can be encoded was decided on the file).
fn validate_files(
    before: &MirFile,
    after: &MirFile,
    only: &[String],
    fallback: Option<&[Target]>,
    (opts, unmodelled): (&Options, Unmodelled),
    shard: Option<crate::shard::Shard>,
    files: bool,
) -> Result<Vec<BlockVerdict>, String> {
    let breaches = super::encodable::check(before, after, fallback, files)?;
    // A VGPR the pass made an SGPR, read as the VGPR where that is sound (`bank.rs`).
    let undone = super::bank::undo(before, after);
    let after = undone.as_ref().unwrap_or(after);
    // The register-allocation checker first (`alloc.rs`); what it proves is not checked again.
    let recheck = |b: &MirFile, a: &MirFile, o: &[String]| {
        validate_files(b, a, o, fallback, (opts, unmodelled), None, false)
    };
    let file = after.path.as_str();
    let (ra, rest) = super::phase::step("register-allocation checker", file, || {
        super::alloc_verdict::first(before, after, only, fallback, shard.is_some(), &recheck)
    });
    let Some(rest) = rest else {
        return Ok(ra.verdicts);
    };
    let only = if ra.proved.is_empty() { only } else { &rest };
    let (per_lane, ref opts, v2s) = super::v2s::split(opts, before, after)?;
    let (before, after) = v2s.as_ref().map_or((before, after), |(b, a)| (b, a));
    let canon = super::phase::step("matching the two files", file, || {
        let norm = super::cfg_match::normalize(before, after, fallback);
        let (b, a) = norm.as_ref().map_or((before, after), |(b, a)| (b, a));
        super::frame::resolve(super::ssa::canonical(b, a))
    });
    let (before, after) = &canon;
    let pairs = super::phase::step("pairing blocks", file, || diff::pair(before, after, only))
        .map_err(|e| e.to_string())?;
    let mut jobs = Vec::new();
    let mut cfg = Vec::new();
    for fp in &pairs {
        super::targets::same_target(fp, &after.path)?;
        for t in super::targets::targets_of(before, fp, fallback)? {
            super::targets::lane_masks(fp, t, &after.path)?;
            if let Some(v) = super::targets::not_modelled(fp, t, &after.path) {
                cfg.push(v);
                continue;
            }
            for bp in &fp.blocks {
                if shard.is_none_or(|s| s.owns(&diff::block_key(fp, bp, t))) {
                    jobs.push((fp, bp, t));
                }
            }
        }
    }
    // Block pairs are independent: decide them in parallel (each worker thread has its own z3
    // context), with a progress bar on stderr, and report them in file order.
    use rayon::prelude::*;
    let changed = jobs.iter().filter(|(_, bp, _)| bp.changed).count();
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(changed as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} changed blocks  {elapsed}  {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let out = jobs
        .par_iter()
        .map(|(fp, bp, t)| {
            let v = block_verdict(before, after, fp, bp, *t, (opts, per_lane), unmodelled);
            if bp.changed {
                bar.set_message(format!("{} bb.{} {t}", fp.before.name, bp.num));
                bar.inc(1);
            }
            v
        })
        .collect();
    bar.finish_and_clear();
    let mut out: Vec<BlockVerdict> = out;
    out.extend(cfg);
    for v in &mut out {
        super::alloc_verdict::explain(v, &ra);
    }
    let mut all: Vec<BlockVerdict> = ra.verdicts.into_iter().chain(out).collect();
    super::encodable::settle(&mut all, &breaches);
    Ok(all)
}

fn block_verdict(
    before: &MirFile,
    after: &MirFile,
    fp: &FnPair,
    bp: &diff::BlockPair,
    t: Target,
    (opts, per_lane): (&Options, bool),
    unmodelled: Unmodelled,
) -> BlockVerdict {
    let mut v = BlockVerdict {
        function: fp.before.name.clone(),
        block: bp.num,
        target: t.name().to_string(),
        verdict: "unchanged",
        changed: bp.changed,
        time: Duration::ZERO,
        reason: None,
        counterexample: None,
        counterexample_data: None,
        settings: None,
        file: after.path.clone(),
        line: bp.after.loc.line,
        col: bp.after.loc.col,
    };
    if !bp.changed {
        return v;
    }
    let ra = "register allocation (virtual registers rewritten to physical ones) is not modelled";
    let early = (fp.assigns_registers().then(|| ra.to_string())).or_else(|| {
        super::memop::new_scalar_load(&bp.before, &bp.after, fp.after, t)
            .map(|i| format!("line {}: {}", i.loc.line, super::memop::NEW_SCALAR))
    });
    if let Some(why) = early {
        (v.verdict, v.reason) = ("unsupported", Some(why));
        return v;
    }
    let start = Instant::now();
    let lds = fp.before.lds_size.or(fp.after.lds_size);
    let how = lower::How {
        lds_size: lds,
        assume_same: unmodelled == Unmodelled::Same,
        texel: super::mimg::Texel::Shared,
    };
    let pair = Pair {
        files: (before, after),
        fp,
        t,
        opts,
        how,
        per_lane,
    };
    let twin = barrier::has_global_twin(&bp.before, t) || barrier::has_global_twin(&bp.after, t);
    let split = barrier::has_barrier(&bp.before, t) || barrier::has_barrier(&bp.after, t);
    // The memory-operand checks of the whole pair, whatever path decides it (`memop_gate.rs`).
    let claim = match super::memop_gate::check(bp, t, split, &after.path) {
        Ok(c) => c,
        Err(why) => {
            (v.verdict, v.reason) = ("unsupported", Some(why));
            return v;
        }
    };
    if twin && unmodelled == Unmodelled::Unsupported {
        v.verdict = "unsupported";
        v.reason = Some("an unmodelled global access (--unmodelled unsupported)".into());
    } else if split {
        match barrier::split(bp, (&before.path, &after.path), t) {
            Err(u) => {
                v.verdict = "unsupported";
                v.reason = Some(u.0);
            }
            // The block's verdict is its worst segment's (docs/tv.md, "Barriers"); segments
            // left equal once moved pure definitions are aligned are proved without a query.
            Ok(segs) => {
                v.verdict = "proved";
                for s in segs.iter().filter(|s| s.changed) {
                    let mut sv = v.clone();
                    sv.verdict = "proved";
                    decide(
                        &mut sv,
                        &pair,
                        bp.num,
                        (&s.before, &s.after),
                        (&s.liveout, &s.phys_live),
                    );
                    if let (Some(at), "refuted" | "unknown") = (s.barrier, sv.verdict) {
                        let r = sv.reason.take().unwrap_or_default();
                        sv.reason = Some(format!("{r} at the barrier of line {}", at.line));
                    }
                    if rank(sv.verdict) > rank(v.verdict) {
                        v = sv;
                    }
                }
                barrier::twin_refutation(&mut v, twin);
            }
        }
    } else {
        decide(
            &mut v,
            &pair,
            bp.num,
            (&bp.before, &bp.after),
            (&bp.liveout, &bp.phys_live),
        );
    }
    super::memop_gate::settle(&mut v, claim);
    v.time = start.elapsed();
    super::inactive::settle((&mut v.verdict, &mut v.reason), fp, bp);
    let rs = (&mut v.verdict, &mut v.reason, &mut v.settings);
    super::hazards::settle(rs, (fp, bp, t, opts.hazards), &after.path);
    v
}

/// How bad a verdict is, for combining the segments of a block with barriers.
fn rank(verdict: &str) -> u8 {
    match verdict {
        "unchanged" => 0,
        "proved" => 1,
        "inapplicable" => 2,
        "unsupported" => 3,
        "unknown" => 4,
        "error" => 5,
        _ => 6,
    }
}

/// A rule's input error at the file and line it comes from. The rule names the before-file,
/// and both files' line numbers share its lines' positions, so a line number alone cannot
/// tell the files apart (issue 33: errors of after-file lines named the before-file). The
/// before-block alone (a rule from it to itself) is bound again: if it gives the same error,
/// the error is in the before-file, else in the after-file.
fn error_site(
    mut e: crate::rules::InputError,
    rule: &crate::rules::Rule,
    p: &Pair,
    after_path: &str,
) -> crate::rules::InputError {
    let before_only = crate::rules::Rule {
        target: rule.source.clone(),
        ..rule.clone()
    };
    let in_before = crate::check::binds(&before_only, p.t, p.opts)
        .err()
        .is_some_and(|b| b.loc == e.loc && b.msg == e.msg);
    let lines = if in_before {
        &rule.source
    } else {
        &rule.target
    };
    if let Some(x) = lines.iter().find(|x| x.loc.line == e.loc.line) {
        e.loc = x.loc;
    }
    if !in_before {
        e.file = after_path.to_string();
    }
    e
}

/// What every block pair of one function x target shares.
pub(super) struct Pair<'a> {
    files: (&'a MirFile, &'a MirFile),
    pub(super) fp: &'a FnPair<'a>,
    pub(super) t: Target,
    pub(super) opts: &'a Options,
    pub(super) how: lower::How,
    per_lane: bool,
}

/// Lower and check one pair of (whole or barrier-free) blocks, writing the verdict into `v`.
/// `live`: the virtual and physical registers that must end equal.
fn decide(
    v: &mut BlockVerdict,
    p: &Pair,
    num: u32,
    blocks: (&mir::Block, &mir::Block),
    live: (
        &std::collections::BTreeSet<u32>,
        &std::collections::BTreeSet<String>,
    ),
) {
    let (before, after) = p.files;
    let fp = p.fp;
    let name = format!("{}/bb.{}", fp.before.name, num);
    let policy = super::cpol_pin::policy(blocks.0, blocks.1, p.t);
    let lowered = match &policy {
        super::cpol::Policy::Strip(ba) => (&ba.0, &ba.1),
        super::cpol::Policy::Weakened(why) => {
            v.verdict = "refuted";
            v.reason = Some(why.clone());
            return;
        }
        super::cpol::Policy::Mixed(why) => {
            v.verdict = "unsupported";
            v.reason = Some(why.clone());
            return;
        }
        super::cpol::Policy::Keep => blocks,
    };
    let sb = Side {
        file: &before.path,
        block: lowered.0,
        classes: &fp.before.classes,
        rename: Default::default(),
        mode: fp.before.mode,
        frame: &fp.before.frame,
        per_lane: p.per_lane,
    };
    let sa = Side {
        file: &after.path,
        block: lowered.1,
        classes: &fp.after.classes,
        rename: Default::default(),
        mode: fp.after.mode,
        frame: &fp.after.frame,
        // A copy the pass left in its output is read after it: the first lane's value.
        per_lane: false,
    };
    match super::fp8cvt::lower_pair(&name, (&sb, &sa), live, p.t, p.how) {
        // The message names the file and line of the instruction at fault.
        Err(u) if u.0.contains(super::emit::MALFORMED) => {
            v.verdict = "error";
            v.reason = Some(u.0);
        }
        Err(u) => {
            v.verdict = "unsupported";
            v.reason = Some(u.0);
        }
        Ok(l) => match checked_dpp(&l.rule, p, super::half16::either_read(&sb, &sa, p.t)) {
            None => {
                v.verdict = "unknown";
                v.reason =
                    Some("the solver failed after the watchdog interrupted it (no verdict)".into());
            }
            Some(Err(e)) => {
                v.verdict = "error";
                v.reason = Some(error_site(e, &l.rule, p, &after.path).to_string());
            }
            Some(Ok(o)) => {
                v.settings = Some(o.settings_text());
                if let Verdict::Refuted(c) = &o.verdict {
                    // One resting on shared image inputs (or a kept fp8 conversion), confirmed.
                    if classify_refutation(&l, c, fp).0 == "unknown" {
                        let confirm = if l.images {
                            confirm_image
                        } else {
                            super::fp8cvt::confirm
                        };
                        if let Some((l2, c2, r2)) = confirm(p, &name, (&sb, &sa), live) {
                            set_verdict(v, Verdict::Refuted(c2), (&l2, blocks, fp));
                            v.reason = Some(r2);
                            return;
                        }
                    }
                }
                set_verdict(v, o.verdict, (&l, blocks, fp));
            }
        },
    }
}

/// The verdict of a checked block into `v` (a refutation with its counterexample in MIR terms).
fn set_verdict(
    v: &mut BlockVerdict,
    verdict: Verdict,
    (l, blocks, fp): (&Lowered, (&mir::Block, &mir::Block), &FnPair),
) {
    match verdict {
        // Proved for the waves the model covers, not all of them (`Lowered::bounded`).
        Verdict::Proved if l.proof_caveat().is_some() => {
            (v.verdict, v.reason) = l.proof_caveat().map(|(w, r)| (w, Some(r))).expect("caveat");
        }
        Verdict::Proved => v.verdict = "proved",
        Verdict::Inapplicable => v.verdict = "inapplicable",
        Verdict::Unknown(r) => {
            v.verdict = "unknown";
            v.reason = Some(r);
        }
        Verdict::Error(r) => {
            v.verdict = "error";
            v.reason = Some(r);
        }
        Verdict::Refuted(c) => {
            let (verdict, reason) = classify_refutation(l, &c, fp);
            v.verdict = verdict;
            v.reason = Some(reason);
            let defined = lower::defined(blocks.0)
                .union(&lower::defined(blocks.1))
                .copied()
                .collect();
            let names = |t: &str| mir_names(t, fp);
            let cx = super::cex::CexCtx {
                rule: &l.rule,
                blocks,
                defined: &defined,
                names: &names,
            };
            let m = super::cex::render(&c, &cx);
            v.counterexample = Some(m.text);
            v.counterexample_data = Some(m.data);
        }
    }
}

/// One block's check in a z3 context of its own (as `verify` runs each rule x target: a
/// watchdog interrupt in one block's context cannot reach another's). z3 can fail to build a
/// term in a context it has interrupted, which the z3 crate turns into a panic; that is no
/// verdict (`None`), never a crash of the whole run.
pub(super) fn checked(
    rule: &crate::rules::Rule,
    t: Target,
    opts: &Options,
) -> Option<Result<check::Outcome, crate::rules::InputError>> {
    crate::smt::with_fresh_context(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check::check(rule, t, opts))).ok()
    })
}

/// A refutation that rested on the shared image inputs, retried with every image read a fixed
/// function of its arguments (`mimg.rs`, `Texel::Concrete`): one real image, so a difference
/// found that way (and not resting on another uninterpreted value) is `refuted`.
fn confirm_image(
    p: &Pair,
    name: &str,
    (sb, sa): (&Side, &Side),
    live: (
        &std::collections::BTreeSet<u32>,
        &std::collections::BTreeSet<String>,
    ),
) -> Option<(Lowered, Box<crate::check::Cex>, String)> {
    let how = lower::How {
        texel: super::mimg::Texel::Concrete,
        ..p.how
    };
    let l = lower::lower(name, sb, sa, live.0, live.1, p.t, how).ok()?;
    let Some(Ok(o)) = checked(&l.rule, p.t, p.opts) else {
        return None;
    };
    let Verdict::Refuted(c) = o.verdict else {
        return None;
    };
    let (verdict, reason) = classify_refutation(&l, &c, p.fp);
    (verdict == "refuted").then(|| {
        let reason = format!(
            "{reason} (image reads as one fixed image: each dword a function of the \
             coordinates, descriptors and channel, every fetch resident)"
        );
        (l, c, reason)
    })
}

/// [`checked`], with a DPP refutation rechecked ([`super::dpp::recheck`]) and one through a
/// first-lane read of a non-uniform 16-bit half (`half_read`) too ([`super::lanef::recheck`]).
fn checked_dpp(
    rule: &crate::rules::Rule,
    p: &Pair,
    half_read: Option<String>,
) -> Option<Result<check::Outcome, crate::rules::InputError>> {
    let dpp = |r: &crate::rules::Rule| super::dpp::recheck(r, &|r2| checked(r2, p.t, p.opts));
    super::lanef::recheck(rule, &dpp, half_read.as_deref())
}
