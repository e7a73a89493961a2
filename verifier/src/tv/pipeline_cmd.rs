//! `gcnsmt tv --pipeline FILE --target T,...`: every machine pass of llc's pipeline, each
//! checked as `gcnsmt tv BEFORE AFTER` checks a pair ([`super::cmd::validate`], the same
//! verdicts, settings and timeout), between consecutive `-stop-before` points
//! ([`super::pipeline`]). A pair gcnsmt cannot read (malformed or unpaired MIR, a changed CFG)
//! or a point llc cannot stop at is that pass's `error`, never the end of the run.

use super::cmd::{self, BlockVerdict, TvArgs, TvFormat};
use super::mir;
use super::pipeline::{self, Step};
use crate::check::Options;
use crate::exit::ExitStatus;
use gcnsmt_semantics::target::Target;
use std::path::Path;
use std::time::{Duration, Instant};

/// One row of the table: one pass on one target (several passes when llc could not stop
/// between them).
#[derive(Clone, Debug)]
pub struct PassRow {
    /// The target's -mcpu name.
    pub target: String,
    /// 1-based position of the (first) pass in the target's pipeline; 0 for a target whose
    /// pipeline llc could not list.
    pub index: usize,
    /// How many machine passes the target's pipeline has.
    pub of: usize,
    /// The passes the pair spans (one, unless llc failed at a stop point inside it).
    pub steps: Vec<Step>,
    /// The before and after MIR text are identical: nothing changed, no block checked.
    pub identical: bool,
    /// The block verdicts of the pair, as `tv BEFORE AFTER` gives them.
    pub verdicts: Vec<BlockVerdict>,
    /// Why the pair could not be checked (llc failed, or gcnsmt could not read or pair it).
    pub error: Option<String>,
    /// Wall time of reading and checking the pair (llc's time not included).
    pub time: Duration,
}

impl PassRow {
    /// The pass name(s) as `-stop-before` spells them, joined by `+`.
    pub fn name(&self) -> String {
        if self.steps.is_empty() {
            return "(pipeline)".into();
        }
        let v: Vec<String> = self.steps.iter().map(Step::name).collect();
        v.join("+")
    }

    /// Changed blocks.
    pub fn changed(&self) -> usize {
        self.verdicts.iter().filter(|v| v.changed).count()
    }

    /// Changed blocks with verdict `k`; for `error`, plus one for a pair that could not be
    /// checked at all.
    pub fn count(&self, k: &str) -> usize {
        let n = self
            .verdicts
            .iter()
            .filter(|v| v.changed && v.verdict == k)
            .count();
        n + usize::from(k == "error" && self.error.is_some())
    }

    /// The first refuted block of the pair.
    pub fn refuted(&self) -> Option<&BlockVerdict> {
        self.verdicts.iter().find(|v| v.verdict == "refuted")
    }
}

/// Run `tv --pipeline`; returns its exit status.
pub fn run(a: &TvArgs) -> ExitStatus {
    let start = Instant::now();
    let rows = match collect(a) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitStatus::InputError;
        }
    };
    super::pipeline_report::print(&rows, a.format, start.elapsed());
    exit_code(&rows)
}

/// The exit status of `tv` over every pass's verdicts; a pair that could not be checked is an
/// error (2), as an unreadable file is for `tv BEFORE AFTER`.
pub fn exit_code(rows: &[PassRow]) -> ExitStatus {
    let mut all: Vec<BlockVerdict> = Vec::new();
    for r in rows {
        all.extend(r.verdicts.iter().cloned());
        if let Some(e) = &r.error {
            let t = Target::parse(&r.target).unwrap_or(Target::Gfx900);
            all.push(cmd::llc_error(Path::new(""), t, e));
        }
    }
    cmd::exit_code(&all)
}

/// Every pass of every target, or a usage error.
pub fn collect(a: &TvArgs) -> Result<Vec<PassRow>, String> {
    if a.format == TvFormat::Sarif {
        return Err("error: --pipeline prints text or json, not sarif".into());
    }
    let [file] = a.files.as_slice() else {
        return Err("error: --pipeline takes one input file (FILE.ll or FILE.mir)".into());
    };
    if a.extra.iter().any(|x| x.starts_with("-start-")) {
        return Err(
            "error: --pipeline runs the whole machine pipeline: -start-before and \
                    -start-after are not supported (a .mir input starts after amdgpu-isel)"
                .into(),
        );
    }
    let ts = a
        .target
        .as_deref()
        .ok_or("error: --pipeline needs --target (comma-separated -mcpu names)")?;
    let targets = cmd::parse_targets(ts)?;
    let (opts, shard) = cmd::options(a)?;
    let ctx = Ctx {
        a,
        file,
        opts: &opts,
        shard,
        bounds: cmd::llc_bounds(a)?,
    };
    let mut rows = Vec::new();
    for t in targets {
        rows.extend(ctx.target(t));
    }
    Ok(rows)
}

/// What every pass of the run shares.
struct Ctx<'a> {
    a: &'a TvArgs,
    file: &'a Path,
    opts: &'a Options,
    shard: Option<crate::shard::Shard>,
    /// `--llc-timeout` and the output bound, for every llc run.
    bounds: super::llc_run::Bounds,
}

impl Ctx<'_> {
    /// The rows of one target, in pipeline order.
    fn target(&self, t: Target) -> Vec<PassRow> {
        let a = self.a;
        let pipe = match pipeline::Pipeline::discover(&a.llc, self.file, t, &a.extra, self.bounds) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {}", e.0);
                return vec![self.row(t, 0, 0, Vec::new(), Some(e.0))];
            }
        };
        let steps = &pipe.steps;
        let n = match &a.until {
            None => steps.len(),
            Some(p) => match steps.iter().position(|s| s.name() == *p) {
                Some(i) => i + 1,
                None => {
                    let why = format!("--until {p}: llc runs no such pass on this input");
                    eprintln!("error: {why}");
                    return vec![self.row(t, 0, 0, Vec::new(), Some(why))];
                }
            },
        };
        // One llc run per point, all from the input, in parallel (each is independent).
        use rayon::prelude::*;
        let done = std::sync::atomic::AtomicUsize::new(0);
        let points: Vec<Result<String, String>> = (0..=n)
            .into_par_iter()
            .map(|j| {
                let r = pipe.mir_before(&a.llc, self.file, t, &a.extra, j);
                let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                let what = steps.get(j).map_or("the end".into(), |s| s.name());
                eprintln!("tv --pipeline {}: llc {k} of {}: {what}", t.name(), n + 1);
                r.map_err(|e| e.0)
            })
            .collect();
        let mut rows = Vec::new();
        // The passes before LLVM's hazard recognizer need not keep wait states: it inserts them
        // later (hazards.rs). It and the passes after it are checked with `hazards=CHECK`.
        let recognizer = steps.iter().position(|s| s.name() == "post-RA-hazard-rec");
        let later = crate::check::Options {
            hazards: crate::check::Hazards::Later,
            ..self.opts.clone()
        };
        // The last point llc stopped at, and its MIR; the steps from there are not yet in a row.
        let mut prev: Option<(usize, &String)> = None;
        let mut llc_error: Option<String> = None;
        for (j, point) in points.iter().enumerate() {
            match point {
                Err(e) => llc_error = Some(e.clone()),
                Ok(mir) => {
                    let from = prev.map_or(0, |p| p.0);
                    if j > 0 {
                        eprintln!(
                            "tv --pipeline {}: pass {j} of {n}: {}",
                            t.name(),
                            steps[j - 1].name()
                        );
                        let span = steps[from..j].to_vec();
                        let opts = match recognizer.is_some_and(|h| j <= h) {
                            true => &later,
                            false => self.opts,
                        };
                        // PER_LANE reads si-fix-sgpr-copies's input only (v2s.rs).
                        let outside;
                        let opts = match steps[from].pass == super::v2s::PASS {
                            true => opts,
                            false => {
                                outside = super::v2s::outside(opts);
                                &outside
                            }
                        };
                        rows.push(match prev {
                            Some((_, before)) => {
                                self.pair(t, (from + 1, n), span, (before, mir), opts)
                            }
                            None => self.row(t, from + 1, n, span, llc_error.take()),
                        });
                    }
                    prev = Some((j, mir));
                    llc_error = None;
                }
            }
        }
        let from = prev.map_or(0, |p| p.0);
        if from < n {
            let why = llc_error.unwrap_or_else(|| "llc stopped at no later point".into());
            rows.push(self.row(t, from + 1, n, steps[from..n].to_vec(), Some(why)));
        }
        rows
    }

    /// A row without verdicts (an error, or a target llc could not list).
    fn row(
        &self,
        t: Target,
        index: usize,
        of: usize,
        steps: Vec<Step>,
        error: Option<String>,
    ) -> PassRow {
        PassRow {
            target: t.name().to_string(),
            index,
            of,
            steps,
            identical: false,
            verdicts: Vec::new(),
            error,
            time: Duration::ZERO,
        }
    }

    /// Check the pair of one pass (or span of passes): `at` is (1-based index, pass count).
    fn pair(
        &self,
        t: Target,
        at: (usize, usize),
        steps: Vec<Step>,
        (before, after): (&str, &str),
        opts: &Options,
    ) -> PassRow {
        let start = Instant::now();
        let mut row = self.row(t, at.0, at.1, steps, None);
        if before == after {
            row.identical = true;
            return row;
        }
        let file = self.file.display();
        let first = row.steps[0].name();
        let last = row.steps[row.steps.len() - 1].name();
        // With --keep-mir, a pair worth keeping is kept under these names (`keep_pair`).
        let (bname, aname) = match &self.a.keep_mir {
            Some(dir) => kept_names(dir, self.file, t, &first),
            None => (
                format!("{file}@{}.stop-before={first}.mir", t.name()),
                format!("{file}@{}.after={last}.mir", t.name()),
            ),
        };
        let read = || -> Result<Vec<BlockVerdict>, String> {
            let b = mir::parse(&bname, before).map_err(|e| e.to_string())?;
            let f = mir::parse(&aname, after).map_err(|e| e.to_string())?;
            // The checkers, the step that inserted the waits (wait_pass.rs) and the function
            // facts (fn_facts.rs), as for two files.
            let files = (&b, &f, after);
            super::fn_facts::validate_pair(files, self.a, None, Some(&[t]), opts, self.shard)
        };
        match read() {
            Ok(v) => row.verdicts = v,
            Err(e) => row.error = Some(e),
        }
        row.time = start.elapsed();
        if let Some(dir) = &self.a.keep_mir {
            let worth = row.error.is_some()
                || row
                    .verdicts
                    .iter()
                    .any(|b| matches!(b.verdict, "refuted" | "unknown" | "error"));
            if worth {
                keep_pair(dir, self.file, t, &first, before, after);
            }
        }
        row
    }
}

/// The paths `keep_pair` writes a pass's pair to: `DIR/STEM@TARGET.PASS.before.mir`, `.after.mir`.
fn kept_names(dir: &Path, file: &Path, t: Target, pass: &str) -> (String, String) {
    let stem = file
        .file_stem()
        .map_or("input".into(), |s| s.to_string_lossy());
    let base = dir.join(format!("{stem}@{}.{}", t.name(), pass.replace(',', "_")));
    let base = base.display();
    (format!("{base}.before.mir"), format!("{base}.after.mir"))
}

/// Write a pair whose check refuted, was unknown or failed to `DIR/STEM@TARGET.PASS.before.mir`
/// and `.after.mir`, to examine or rerun `tv` on; a failure to write is a warning, since the
/// verdicts are already known.
fn keep_pair(dir: &Path, file: &Path, t: Target, pass: &str, before: &str, after: &str) {
    let (bname, aname) = kept_names(dir, file, t, pass);
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(bname, before)?;
        std::fs::write(aname, after)
    };
    if let Err(e) = write() {
        eprintln!("warning: --keep-mir {}: {e}", dir.display());
    }
}
