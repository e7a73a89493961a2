//! Running llc for `gcnsmt tv --pass PASS FILE`.
//!
//! Both MIR files come from one input so that virtual register numbers correspond (llc
//! renumbers virtual registers when it parses MIR): for a `.mir` input, `llc -run-pass none`
//! (before) and `llc -run-pass PASS` (after); for a `.ll` input, first `-stop-before=PASS`
//! to get MIR, then the same. For `si-load-store-opt` from `.ll`, pass
//! `-- -amdgpu-load-store-vectorizer=0`, or the IR vectorizer merges the accesses first.

use super::llc_run::{self, Bounds, Outcome};
use gcnsmt_semantics::target::Target;
use std::path::{Path, PathBuf};

/// The before and after MIR text of one target.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The MIR before the pass: `llc -run-pass none` of the MIR (for a `.ll` input, of its
    /// `-stop-before=PASS` output).
    pub before: String,
    /// The MIR after the pass: `llc -run-pass PASS` of the same MIR.
    pub after: String,
    /// Names to print for them (`FILE@gfx900.before.mir`).
    pub before_name: String,
    /// The name to print for `after` (`FILE@gfx900.after.mir`).
    pub after_name: String,
}

/// How llc failed: the command and its stderr (or why it did not start).
#[derive(Clone, Debug)]
pub struct LlcError(pub String);

fn run(llc: &str, args: &[String], b: Bounds) -> Result<String, LlcError> {
    run_output(llc, args, b, None).map(|(stdout, _)| stdout)
}

/// Run llc within `b` (the one way `tv` runs llc, for `--pass` and `--pipeline`): its stdout
/// and stderr, or why not: it could not start, ran past `b` and was killed, or failed. A
/// failure shows the last `tail` lines of stderr (all of them for `None`; `-print-after-all`
/// writes megabytes there).
pub fn run_output(
    llc: &str,
    args: &[String],
    b: Bounds,
    tail: Option<usize>,
) -> Result<(String, String), LlcError> {
    let cmd = || format!("`{llc} {}`", args.join(" "));
    let out = llc_run::run(llc, args, b).map_err(|e| {
        LlcError(format!(
            "cannot run `{llc}`: {e} (install LLVM 22 or pass --llc)"
        ))
    })?;
    let (status, stdout, stderr) = match out {
        Outcome::Exited(s, o, e) => (s, o, e),
        Outcome::TimedOut => {
            return Err(LlcError(format!(
                "{} killed after {} s (--llc-timeout)",
                cmd(),
                b.timeout.as_secs_f64()
            )))
        }
        Outcome::TooMuchOutput => {
            return Err(LlcError(format!(
                "{} killed: wrote more than {} bytes",
                cmd(),
                b.max_output
            )))
        }
    };
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    if !status.success() {
        let lines: Vec<&str> = stderr.lines().collect();
        let from = tail.map_or(0, |n| lines.len().saturating_sub(n));
        return Err(LlcError(format!(
            "{} failed ({status}):\n{}",
            cmd(),
            lines[from..].join("\n").trim_end()
        )));
    }
    Ok((String::from_utf8_lossy(&stdout).into_owned(), stderr))
}

fn scratch(file: &Path, target: Target) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    std::env::temp_dir().join(format!(
        "gcnsmt-tv-{}-{stem}-{}.mir",
        std::process::id(),
        target.name()
    ))
}

/// llc's arguments for `target`: `-mtriple=amdgcn` (unless `extra` names a triple: LLVM's
/// tests use `amdgcn--amdpal`), `-mcpu`, `extra`, then `more`.
pub fn base_args(target: Target, extra: &[String], more: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    if !extra.iter().any(|a| a.starts_with("-mtriple")) {
        v.push("-mtriple=amdgcn".to_string());
    }
    v.push(format!("-mcpu={}", target.name()));
    v.extend(extra.iter().cloned());
    v.extend(more.iter().map(|s| s.to_string()));
    v
}

/// Write the MIR of `p` (and for a `.ll` input the MIR llc stopped at, `input`) into `dir` as
/// `STEM@TARGET.before.mir`, `STEM@TARGET.after.mir` (and `STEM@TARGET.input.mir`), so that a
/// user can rerun `tv` on them or edit them (`--keep-mir`); returns the before and after paths.
fn keep(
    dir: &Path,
    file: &Path,
    target: Target,
    p: &Pair,
    input: Option<&str>,
) -> Result<(String, String), LlcError> {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    let texts = [
        ("before", Some(p.before.as_str())),
        ("after", Some(p.after.as_str())),
        ("input", input),
    ];
    let path = |side: &str| dir.join(format!("{stem}@{}.{side}.mir", target.name()));
    for (side, text) in texts {
        let Some(text) = text else { continue };
        let path = path(side);
        std::fs::write(&path, text)
            .map_err(|e| LlcError(format!("--keep-mir: {}: {e}", path.display())))?;
    }
    let name = |side: &str| path(side).display().to_string();
    Ok((name("before"), name("after")))
}

/// Run llc for `pass` on `file` (`.mir` or `.ll`) for `target`, with `extra` arguments; with
/// `keep_dir`, keep the MIR it wrote there ([`keep`]).
pub fn before_after(
    llc: &str,
    pass: &str,
    file: &Path,
    target: Target,
    extra: &[String],
    (bounds, keep_dir): (Bounds, Option<&Path>),
) -> Result<Pair, LlcError> {
    let base = |more: &[&str]| base_args(target, extra, more);
    let is_ll = file.extension().is_some_and(|e| e == "ll");
    let input = file.to_string_lossy().into_owned();
    let mut tmp = None;
    let mut input_mir = None;
    let mir_path = if is_ll {
        let mir = run(
            llc,
            &base(&[&format!("-stop-before={pass}"), &input, "-o", "-"]),
            bounds,
        )?;
        let p = scratch(file, target);
        std::fs::write(&p, &mir).map_err(|e| LlcError(format!("{}: {e}", p.display())))?;
        input_mir = Some(mir);
        tmp = Some(p.clone());
        p.to_string_lossy().into_owned()
    } else {
        input.clone()
    };
    let before = run(
        llc,
        &base(&["-run-pass=none", &mir_path, "-o", "-"]),
        bounds,
    );
    let after = run(
        llc,
        &base(&[&format!("-run-pass={pass}"), &mir_path, "-o", "-"]),
        bounds,
    );
    if let Some(p) = tmp {
        let _ = std::fs::remove_file(p);
    }
    let name = format!("{input}@{}", target.name());
    let mut pair = Pair {
        before: before?,
        after: after?,
        before_name: format!("{name}.before.mir"),
        after_name: format!("{name}.after.mir"),
    };
    if let Some(dir) = keep_dir {
        // Errors and verdicts name the kept files, which the user can open and rerun.
        (pair.before_name, pair.after_name) = keep(dir, file, target, &pair, input_mir.as_deref())?;
    }
    Ok(pair)
}

/// The record of a target on which llc failed: verdict `error`, exit 2.
pub fn llc_error(file: &std::path::Path, t: Target, msg: &str) -> super::cmd::BlockVerdict {
    super::cmd::BlockVerdict {
        function: String::new(),
        block: 0,
        target: t.name().to_string(),
        verdict: "error",
        changed: false,
        time: std::time::Duration::ZERO,
        reason: Some(msg.to_string()),
        counterexample: None,
        counterexample_data: None,
        settings: None,
        file: file.display().to_string(),
        line: 0,
        col: 0,
    }
}
