//! Helpers shared by the test binaries of every gcnsmt crate, so that each test file does not
//! carry its own copy: the proptest configuration (fixed seed, overridable case count), the
//! switch between the default and the slow test tier, tables of cases ([`assert_cases`]),
//! temporary directories, running a binary with captured output, the redaction of times for
//! snapshot tests ([`redact`]), and the documentation's console examples ([`doc`]).
//!
//! This crate depends on no gcnsmt crate, so any of them can take it as a dev-dependency.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub mod doc;
pub mod redact;
pub mod stress;

pub use proptest::test_runner::Config as ProptestConfig;

/// The environment variable that selects the slow tier (`GCNSMT_SLOW=1`).
pub const SLOW_ENV: &str = "GCNSMT_SLOW";

/// True when the slow tier is selected (`GCNSMT_SLOW` set to anything but empty or `0`).
///
/// The default tier (`cargo test --workspace`) runs a sample of each long test so that every
/// test can still fail; the slow tier (`GCNSMT_SLOW=1 cargo test --workspace`, also run by
/// `.ci/run`) runs the whole of it: cvc5 over the whole corpus, the full llvm-mc differential,
/// the full wavefront-atomics table, and the like.
pub fn slow() -> bool {
    std::env::var(SLOW_ENV).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// FNV-1a (64-bit) of `s`: a seed or a sample choice that is the same from run to run.
pub fn fnv1a(s: &str) -> u64 {
    (s.bytes()).fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// `fast` in the default tier, `full` under `GCNSMT_SLOW=1`.
pub fn tiered<T>(fast: T, full: T) -> T {
    if slow() {
        full
    } else {
        fast
    }
}

/// Assert `f(at, text) == want` for every `(at, text, want)` of a table of cases (a target
/// and an instruction, say, with what llvm-mc answered), naming the case that fails.
pub fn assert_cases<A, R, W>(f: impl Fn(A, &str) -> R, cases: &[(A, &str, W)])
where
    A: Copy + std::fmt::Display,
    R: PartialEq<W> + std::fmt::Debug,
    W: std::fmt::Debug,
{
    for (at, text, want) in cases {
        let got = f(*at, text);
        assert!(got == *want, "{at} `{text}`: got {got:?}, want {want:?}");
    }
}

/// Checks a table of lines an assembler must accept or reject, one per line:
/// `TARGET ok|err TEXT` (`#` starts a comment line). `accepts(target, text)` answers whether
/// the assembler takes `text` on the target named `target` (an `-mcpu` name).
pub fn assert_accepts(accepts: impl Fn(&str, &str) -> bool, table: &str) {
    for row in table.lines().map(str::trim) {
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let mut f = row.splitn(3, char::is_whitespace);
        let (at, want, text) = (
            f.next().unwrap(),
            f.next().unwrap(),
            f.next().unwrap().trim(),
        );
        assert!(matches!(want, "ok" | "err"), "row `{row}`: want ok or err");
        let got = accepts(at, text);
        assert!(
            got == (want == "ok"),
            "{at} `{text}`: accepted {got}, want {want}"
        );
    }
}

/// A proptest configuration with `cases` cases and the fixed seed `seed`, so a default run is
/// reproducible; `PROPTEST_CASES=N` and `PROPTEST_RNG_SEED=S` override either for longer or
/// different runs (proptest reads them into its default configuration).
pub fn proptest_config(cases: u32, seed: u64) -> ProptestConfig {
    let d = ProptestConfig::default();
    ProptestConfig {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            d.cases
        } else {
            cases
        },
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            d.rng_seed
        } else {
            proptest::test_runner::RngSeed::Fixed(seed)
        },
        ..d
    }
}

/// The bytes of an llvm-mc encoding list, `0x00,0xfc,...`, with or without the brackets and
/// text around it (`; encoding: [0x00,0x01]`). Panics on a byte that is not hex (test data).
pub fn hex_bytes(list: &str) -> Vec<u8> {
    let inner = match list.split_once('[') {
        Some((_, r)) => r.split_once(']').map_or(r, |(l, _)| l),
        None => list,
    };
    inner
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("hex byte"))
        .collect()
}

/// The workspace root (the directory holding `proofs/`, `semantics/`, ...).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit/ sits in the workspace root")
        .to_path_buf()
}

/// A path below the workspace root, e.g. `workspace_path("proofs/lanes.rules")`.
pub fn workspace_path(rel: &str) -> PathBuf {
    workspace_root().join(rel)
}

/// A fresh directory under the system temp dir, removed when dropped.
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    /// A new empty directory whose name contains `tag` (to tell test runs apart in `/tmp`).
    ///
    /// Panics if the directory cannot be created: a test cannot go on without it.
    pub fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("gcnsmt-{tag}-"))
            .tempdir()
            .expect("create a temporary directory");
        TempDir(dir)
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Write `text` to `name` inside the directory and return the file's path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.path().join(name);
        std::fs::write(&p, text).expect("write a file in the temporary directory");
        p
    }

    /// Copy the committed file `rel` (below the workspace root) to `name` inside the directory
    /// with its one occurrence of `old` replaced by `new`, and return the copy's path: a
    /// planted defect (`tests/data/tv/planted.txt` lists those of `tv`).
    ///
    /// Panics unless `old` occurs exactly once: a planted edit that misses its place, or lands
    /// in two, would test something else.
    pub fn plant(&self, rel: &str, old: &str, new: &str, name: &str) -> PathBuf {
        let src = workspace_path(rel);
        let text =
            std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("read {}: {e}", src.display()));
        let n = text.matches(old).count();
        assert_eq!(n, 1, "`{old}` occurs {n} times in {rel}, not once");
        self.write(name, &text.replacen(old, new, 1))
    }
}

/// What a finished process printed, and its exit code (-1 when killed by a signal).
pub struct Run {
    /// The exit code, or -1 when the process was ended by a signal.
    pub code: i32,
    /// Standard output, lossily decoded as UTF-8.
    pub stdout: String,
    /// Standard error, lossily decoded as UTF-8.
    pub stderr: String,
}

impl Run {
    /// Standard output followed by standard error.
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    /// Lines that report an error (`error:` anywhere, as a diagnostic or a verdict detail).
    pub fn error_lines(&self) -> Vec<String> {
        self.all()
            .lines()
            .filter(|l| l.contains("error:") || l.contains(" ERROR"))
            .map(str::to_string)
            .collect()
    }

    /// The exit code and both streams, for assertion messages.
    pub fn context(&self) -> String {
        format!(
            "exit code {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    /// Panics (failing the test) if the process panicked.
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked") && !self.stdout.contains("panicked"),
            "the binary panicked\n{}",
            self.context()
        );
    }
}

/// Run `bin` with `args`, `stdin` as its standard input (none: an empty, closed one) and the
/// extra environment `env`, and wait for it.
///
/// `RUST_LOG`, `GCNSMT_BREAK_ENCODING` and `GCNSMT_MEMORY_ENCODING` are removed from the inherited environment (unless
/// `env` sets them), so a developer's shell cannot change what a test sees. Panics if the
/// binary cannot be started.
pub fn run(bin: &str, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
    run_at(None, bin, args, stdin, env)
}

/// `bin ARGS` in the workspace root (no stdin, no extra environment), asserting it did not
/// panic: how the CLI tests run `gcnsmt` as a user at the repository's root would.
pub fn run_in_root(bin: &str, args: &[&str]) -> Run {
    let r = run_at(Some(&workspace_root()), bin, args, None, &[]);
    r.assert_no_panic();
    r
}

/// `bin tv --format json ARGS` in `dir`: the JSON records of its blocks (`"type": "block"`,
/// in output order) and the run itself, for the tv tests that compare verdicts.
pub fn tv_blocks(bin: &str, dir: &Path, args: &[&str]) -> (Vec<serde_json::Value>, Run) {
    let mut all = vec!["tv", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_at(Some(dir), bin, &all, None, &[]);
    let blocks = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .collect();
    (blocks, r)
}

/// `bin tv BEFORE AFTER ARGS` in `dir`, asserting that no block is proved: exit 1 (refuted) or
/// 3 (inconclusive) and no `: proved` line, as every breaker's wrong proof demands. `name` labels
/// the failure; the text output is returned for further checks.
pub fn assert_never_proved(
    bin: &str,
    dir: &Path,
    name: &str,
    pair: [&str; 2],
    args: &[&str],
) -> String {
    let mut all = vec!["tv", pair[0], pair[1]];
    all.extend_from_slice(args);
    let r = run_at(Some(dir), bin, &all, None, &[]);
    let (text, code) = (&r.stdout, r.code);
    assert!(
        code == 1 || code == 3,
        "{name}: exit {code:?}, must be refuted (1) or inconclusive (3):\n{text}"
    );
    assert!(
        !text.contains(": proved"),
        "{name}: a block proved:\n{text}"
    );
    r.stdout
}

/// `bin tv --format json ARGS` in `dir`: the verdict and reason of the first block the pass
/// changed (the one block most hand-written pairs have). Panics when no block changed.
pub fn tv_changed(bin: &str, dir: &Path, args: &[&str]) -> (String, String) {
    let (blocks, r) = tv_blocks(bin, dir, args);
    let b = blocks
        .iter()
        .find(|b| b["verdict"] != "unchanged")
        .unwrap_or_else(|| panic!("no changed block: {args:?}\n{}{}", r.stdout, r.stderr));
    let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
    (s("verdict"), s("reason"))
}

/// [`run`] in the working directory `cwd` (`None`: the test's own, its crate's directory).
///
/// Doc examples and snapshots run in [`workspace_root`], so that the paths they name
/// (`proofs/...`, `tests/data/...`) and the paths in the output read as a user at the
/// repository's root would see them.
pub fn run_at(
    cwd: Option<&Path>,
    bin: &str,
    args: &[&str],
    stdin: Option<&str>,
    env: &[(&str, &str)],
) -> Run {
    let mut cmd = Command::new(bin);
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    cmd.args(args)
        .env_remove("RUST_LOG")
        .env_remove("GCNSMT_BREAK_ENCODING")
        .env_remove("GCNSMT_MEMORY_ENCODING")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("run {bin}: {e}"));
    if let Some(s) = stdin {
        use std::io::Write;
        let mut i = child.stdin.take().expect("piped stdin");
        i.write_all(s.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait for the process");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run `bin ARGS` (no stdin), killing it and panicking after `limit`: a hang is a test failure,
/// not a stuck suite. Both pipes are drained on threads so a chatty child cannot block.
pub fn run_for(bin: &str, args: &[&str], limit: std::time::Duration) -> Run {
    use std::io::Read;
    let mut child = Command::new(bin)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {bin}: {e}"));
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let t_out = drain(Box::new(child.stdout.take().expect("piped")));
    let t_err = drain(Box::new(child.stderr.take().expect("piped")));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{bin} {args:?} still running after {limit:?} (a hang)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: t_out.join().expect("stdout thread"),
        stderr: t_err.join().expect("stderr thread"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_keeps_the_given_cases_and_seed() {
        if std::env::var_os("PROPTEST_CASES").is_none() {
            assert_eq!(proptest_config(17, 5).cases, 17);
        }
        if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
            assert_eq!(
                proptest_config(17, 5).rng_seed,
                proptest::test_runner::RngSeed::Fixed(5)
            );
        }
    }

    #[test]
    fn temp_dir_is_removed_on_drop() {
        let d = TempDir::new("testkit");
        let p = d.write("a.txt", "x");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x");
        let dir = d.path().to_path_buf();
        drop(d);
        assert!(!dir.exists());
    }

    #[test]
    fn plant_replaces_the_one_occurrence() {
        let d = TempDir::new("testkit-plant");
        let rel = "proofs/ds_errors.rules";
        let p = d.plant(
            rel,
            "Name: ds-read2-offset1-256\n",
            "Name: planted\n",
            "r.rules",
        );
        let text = std::fs::read_to_string(p).unwrap();
        let orig = std::fs::read_to_string(workspace_path(rel)).unwrap();
        assert!(text.contains("Name: planted\n") && !text.contains("offset1-256\n"));
        assert_eq!(
            text.len() + "ds-read2-offset1-256".len(),
            orig.len() + "planted".len()
        );
    }

    #[test]
    #[should_panic(expected = "occurs 0 times")]
    fn plant_refuses_a_missing_place() {
        TempDir::new("testkit-plant").plant("proofs/ds_errors.rules", "no such text", "x", "r");
    }

    #[test]
    fn workspace_root_holds_the_proofs() {
        assert!(workspace_path("proofs").is_dir());
    }
}
