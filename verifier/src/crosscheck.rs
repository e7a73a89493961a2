//! Evidence independent of z3: every query a verdict rests on (the precondition's
//! satisfiability and the refinement query) can be written as a standalone SMT-LIB 2 file
//! (`--emit-smt2 DIR`) and re-decided by a second solver's command-line binary
//! (`--cross-check cvc5`). A sat/unsat disagreement is an internal error verdict.
//!
//! This module runs external programs on the query text only; it never names z3, so what the
//! second solver sees is exactly what a user can re-run from the emitted files.

use gcnsmt_semantics::target::Target;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A solver's answer to one satisfiability query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sat {
    /// `sat`: the assertions have a model.
    Sat,
    /// `unsat`: they have none.
    Unsat,
    /// Gave up, timed out or ran out of memory (never a disagreement).
    Unknown,
}

impl Sat {
    /// The SMT-LIB word for the answer.
    pub fn word(self) -> &'static str {
        match self {
            Sat::Sat => "sat",
            Sat::Unsat => "unsat",
            Sat::Unknown => "unknown",
        }
    }
}

/// Which query of a rule and target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// Can the precondition hold with a defined, encodable source? (unsat: inapplicable)
    Pre,
    /// Is there a state where the target does not refine the source? (unsat: proved)
    Refine,
    /// Under `--lanes` with several source serializations: does some target serialization
    /// differ from the ascending source one? (unsat: proved, without the full query)
    RefineAscending,
}

impl QueryKind {
    /// The part of the file name and of messages naming the query.
    pub fn name(self) -> &'static str {
        match self {
            QueryKind::Pre => "pre",
            QueryKind::Refine => "refine",
            QueryKind::RefineAscending => "refine-ascending",
        }
    }
}

/// Where queries go besides z3: the `--emit-smt2` directory and the `--cross-check` solver.
#[derive(Clone, Debug, Default)]
pub struct Hooks {
    /// Write each query to `DIR/<rule>.<target>.<pre|refine>.smt2`.
    pub emit_dir: Option<PathBuf>,
    /// The second solver's binary (a cvc5 executable: `cvc5` on PATH or a path).
    pub solver: Option<String>,
}

impl Hooks {
    /// Whether any hook needs the query text.
    pub fn active(&self) -> bool {
        self.emit_dir.is_some() || self.solver.is_some()
    }
}

static QUERIES: AtomicUsize = AtomicUsize::new(0);
static AGREED: AtomicUsize = AtomicUsize::new(0);
static UNDECIDED: AtomicUsize = AtomicUsize::new(0);
static DISAGREED: AtomicUsize = AtomicUsize::new(0);
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// Counts of cross-checked queries since the process started (or the last [`take_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Queries given to the second solver.
    pub queries: usize,
    /// Both solvers answered, with the same answer.
    pub agreed: usize,
    /// At least one solver answered unknown (a timeout or memory limit is not a disagreement).
    pub undecided: usize,
    /// One said sat, the other unsat.
    pub disagreements: usize,
    /// The second solver could not be run or rejected the text.
    pub failures: usize,
}

/// Read and reset the counters.
pub fn take_stats() -> Stats {
    Stats {
        queries: QUERIES.swap(0, Ordering::SeqCst),
        agreed: AGREED.swap(0, Ordering::SeqCst),
        undecided: UNDECIDED.swap(0, Ordering::SeqCst),
        disagreements: DISAGREED.swap(0, Ordering::SeqCst),
        failures: FAILED.swap(0, Ordering::SeqCst),
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} queries, {} agreed, {} undecided by a solver, {} disagreements, {} solver failures",
            self.queries, self.agreed, self.undecided, self.disagreements, self.failures
        )
    }
}

/// The file name of a query: `<rule>.<target>.<pre|refine>.smt2`, with characters other than
/// letters, digits, `-`, `_` and `.` replaced by `_` so any rule name gives one plain file.
pub fn file_name(rule: &str, target: Target, kind: QueryKind) -> String {
    let safe: String = rule
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.{}.{}.smt2", target.name(), kind.name())
}

/// Run the hooks on one query that z3 answered `z3`. `text` renders the query (called only if
/// a hook is active). Returns an error message, which becomes the verdict, when the emitted
/// file cannot be written, the second solver cannot read the query, or the solvers disagree.
#[allow(clippy::too_many_arguments)]
pub fn after_query(
    hooks: &Hooks,
    rule: &str,
    target: Target,
    kind: QueryKind,
    text: impl FnOnce() -> String,
    z3: Sat,
    timeout: Duration,
    memory_mb: Option<u32>,
) -> Result<(), String> {
    if !hooks.active() {
        return Ok(());
    }
    let text = text();
    if let Some(dir) = &hooks.emit_dir {
        let path = dir.join(file_name(rule, target, kind));
        std::fs::write(&path, &text)
            .map_err(|e| format!("--emit-smt2: cannot write {}: {e}", path.display()))?;
    }
    let Some(solver) = &hooks.solver else {
        return Ok(());
    };
    QUERIES.fetch_add(1, Ordering::SeqCst);
    let (other, detail) = match run_solver(solver, &text, timeout, memory_mb) {
        Ok(x) => x,
        Err(e) => {
            FAILED.fetch_add(1, Ordering::SeqCst);
            return Err(format!(
                "cross-check failed on the {} query of rule {rule} on {target}: {e} (internal error, please report)",
                kind.name()
            ));
        }
    };
    match (z3, other) {
        (Sat::Unknown, _) | (_, Sat::Unknown) => {
            UNDECIDED.fetch_add(1, Ordering::SeqCst);
            tracing::debug!(rule, %target, query = kind.name(), "cross-check undecided: z3 {}, {solver} {} {detail}", z3.word(), other.word());
            Ok(())
        }
        (a, b) if a == b => {
            AGREED.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
        (a, b) => {
            DISAGREED.fetch_add(1, Ordering::SeqCst);
            Err(format!(
                "solver disagreement on the {} query of rule {rule} on {target}: z3 says {}, {solver} says {} (internal error, please report; re-run with --emit-smt2 DIR to get the query as {})",
                kind.name(),
                a.word(),
                b.word(),
                file_name(rule, target, kind)
            ))
        }
    }
}

/// Decide SMT-LIB 2 `text` with a cvc5 binary: time limit per query, an address-space limit
/// of `memory_mb` (cvc5 has no memory option of its own), and a watchdog that kills the process
/// if it overruns its own time limit. Returns the answer and, for unknown, why.
///
/// Errors: the binary cannot be started, or it reports an error (e.g. it cannot parse the text).
pub fn run_solver(
    solver: &str,
    text: &str,
    timeout: Duration,
    memory_mb: Option<u32>,
) -> Result<(Sat, String), String> {
    let ms = timeout.as_millis().clamp(1, u64::MAX as u128) as u64;
    let args = [
        "--lang=smt2".to_string(),
        format!("--tlimit-per={ms}"),
        // The text already has (set-logic ALL); stay quiet about anything else on stderr.
        "--quiet".to_string(),
    ];
    let mut cmd = match memory_mb {
        // ulimit in a shell: std has no setrlimit, and the limit must bind the child only.
        Some(mb) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg("ulimit -v \"$1\" && shift && exec \"$@\"")
                .arg("sh")
                .arg((u64::from(mb) * 1024).to_string())
                .arg(solver)
                .args(args);
            c
        }
        None => {
            let mut c = Command::new(solver);
            c.args(args);
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{solver}`: {e}"))?;
    // Feed and drain on threads so a large query or chatty output cannot block on a pipe.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut s);
            }
            s
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|r| Box::new(r) as Box<dyn Read + Send>),
    );
    // cvc5 stops itself at --tlimit-per; the watchdog allows for start-up and parsing.
    let deadline = Instant::now() + timeout * 2 + Duration::from_secs(5);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for `{solver}`: {e}")),
        }
    };
    let _ = writer.join();
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let Some(status) = status else {
        return Ok((
            Sat::Unknown,
            format!("watchdog: {solver} killed after {:.1?}", timeout * 2),
        ));
    };
    let first = stdout.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        Some("sat") => Ok((Sat::Sat, String::new())),
        Some("unsat") => Ok((Sat::Unsat, String::new())),
        Some("unknown") => Ok((Sat::Unknown, "gave up or hit its time limit".into())),
        _ => {
            let all = format!("{stdout}{stderr}");
            let low = all.to_ascii_lowercase();
            // Out of address space shows as bad_alloc, a failed mmap (even while loading the
            // shared libraries) or death by a signal.
            let memory = [
                "bad_alloc",
                "out of memory",
                "cannot allocate",
                "failed to map",
            ]
            .iter()
            .any(|k| low.contains(k))
                || status.code().is_none();
            if let (Some(mb), true) = (memory_mb, memory) {
                return Ok((
                    Sat::Unknown,
                    format!("memory limit of {mb} MB reached (--memory)"),
                ));
            }
            if low.contains("timeout") || low.contains("interrupted") {
                return Ok((Sat::Unknown, "time limit".into()));
            }
            // cvc5 1.x aborts in CaDiCaL when its time limit interrupts the SAT solver ("can
            // only get value in satisfied state"); the same query finishes without the limit
            // (seen on the MUBUF corpus under load). That is a timeout, not an answer.
            if low.contains("cadical") && low.contains("satisfied state") {
                return Ok((
                    Sat::Unknown,
                    "time limit (cvc5 aborted in CaDiCaL when interrupted)".into(),
                ));
            }
            let msg: String = all.trim().chars().take(400).collect();
            Err(format!("`{solver}` failed ({status}): {msg}"))
        }
    }
}

/// Whether `solver` can be run (used by tests to skip when cvc5 is not installed).
pub fn available(solver: &str) -> bool {
    Command::new(solver)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Check that `dir` can take emitted queries, creating it if needed.
///
/// Errors: the path is a file, the directory cannot be created, or nothing can be written there.
pub fn prepare_dir(dir: &Path) -> Result<(), String> {
    crate::limits::writable_dir(dir).map_err(|e| format!("--emit-smt2 {}: {e}", dir.display()))
}
