//! Printing a [`Report`]: readable text, one JSON object or a SARIF log, and the exit status.
//!
//! Exit codes: 0 nothing found, 1 something found, 2 an input could not be read.

use super::{run_batch, Options, Report, SpecError};
use crate::exit::ExitStatus;
use gcnsmt_semantics::target::Target;
use serde_json::{json, Value};
use std::path::PathBuf;

/// `before`, `x` and `after` when there is an `x`, else nothing (an optional entry or target
/// in a message).
fn affix<T: std::fmt::Display>(x: &Option<T>, before: &str, after: &str) -> String {
    x.as_ref()
        .map(|v| format!("{before}{v}{after}"))
        .unwrap_or_default()
}

/// The text report: one block per finding (`file:line: [kind] ENTRY (target)`, what the
/// document says, what is true, the evidence), then the unchecked items and counts.
pub fn text(r: &Report) -> String {
    let mut s = String::new();
    for f in &r.findings {
        let entry = affix(&f.entry, " ", "");
        let target = affix(&f.target, " (", ")");
        s.push_str(&format!(
            "{}:{}: [{}]{entry}{target}\n",
            f.file, f.line, f.kind
        ));
        s.push_str(&format!("  document: {}\n", f.claim));
        s.push_str(&format!("  true:     {}\n", f.truth));
        for (k, v) in &f.evidence {
            s.push_str(&format!("  {k}: {v}\n"));
        }
    }
    if !r.unchecked.is_empty() {
        s.push_str(&format!("unchecked ({}):\n", r.unchecked.len()));
        for u in &r.unchecked {
            let entry = affix(&u.entry, " ", "");
            s.push_str(&format!(
                "  {}:{}: [{}]{entry}: {}\n",
                u.file, u.line, u.kind, u.reason
            ));
        }
    }
    s.push_str("coverage:\n");
    for (file, kind, c) in &r.counts {
        s.push_str(&format!(
            "  {file} {kind}: {} checked, {} unchecked, {} found\n",
            c.checked, c.unchecked, c.findings
        ));
    }
    for e in &r.errors {
        s.push_str(&format!(
            "{}:{}:{}: [error] {}\n",
            e.file, e.line, e.col, e.msg
        ));
    }
    s.push_str(&format!(
        "summary: {} finding(s), {} unchecked{}\n",
        r.findings.len(),
        r.unchecked.len(),
        match r.errors.len() {
            0 => String::new(),
            n => format!(", {n} unreadable"),
        }
    ));
    s
}

/// The JSON report: `{"findings": [{"kind","file","line","entry","target","claim","truth",
/// "evidence": {name: text}}], "unchecked": [{"kind","file","line","entry","reason"}],
/// "coverage": [{"file","check","checked","unchecked","findings"}], "exit_code"}`, and when
/// some inputs could not be read `"error"` (the first: `{"file","line","col","message"}`) and
/// `"errors"` (all).
pub fn json(r: &Report) -> Value {
    let findings: Vec<Value> = r
        .findings
        .iter()
        .map(|f| {
            let ev: serde_json::Map<String, Value> = f
                .evidence
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            json!({
                "kind": f.kind, "file": f.file, "line": f.line, "entry": f.entry,
                "target": f.target.map(|t| t.name()), "claim": f.claim, "truth": f.truth,
                "evidence": ev,
            })
        })
        .collect();
    let unchecked: Vec<Value> = r
        .unchecked
        .iter()
        .map(|u| json!({"kind": u.kind, "file": u.file, "line": u.line, "entry": u.entry, "reason": u.reason}))
        .collect();
    let coverage: Vec<Value> = r
        .counts
        .iter()
        .map(|(f, k, c)| json!({"file": f, "check": k, "checked": c.checked, "unchecked": c.unchecked, "findings": c.findings}))
        .collect();
    let errors: Vec<Value> = r
        .errors
        .iter()
        .map(|e| json!({"file": e.file, "line": e.line, "col": e.col, "message": e.msg}))
        .collect();
    let mut v = json!({
        "findings": findings, "unchecked": unchecked, "coverage": coverage,
        "exit_code": exit_code(r).code(),
    });
    // `error` (the first) as before, `errors` for all of a batch.
    if let Some(first) = errors.first() {
        v["error"] = first.clone();
        v["errors"] = Value::Array(errors);
    }
    v
}

/// Input error (exit 2) when an input could not be read, else refuted (1) when something was
/// found, else proved (0).
pub fn exit_code(r: &Report) -> ExitStatus {
    if !r.errors.is_empty() {
        ExitStatus::InputError
    } else if r.findings.is_empty() {
        ExitStatus::Proved
    } else {
        ExitStatus::Refuted
    }
}

/// Output format of `gcnsmt spec-check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// The [`text`] report.
    #[default]
    Text,
    /// The [`json()`] object on one line (so also JSON Lines of one line).
    Json,
    /// A SARIF 2.1.0 log ([`sarif`]).
    Sarif,
}

/// The SARIF 2.1.0 log: each finding an `error` result at the document's file:line with the
/// finding's kind as rule id, each unchecked item a `note` (so a code-scanning UI shows what
/// was not checked); an unreadable input is a failed invocation with `failure`'s position.
pub fn sarif(r: &Report, failure: Option<&SpecError>) -> Value {
    use crate::sarif::{Failure, Finding, Level};
    let mut results = Vec::new();
    for f in &r.findings {
        let entry = affix(&f.entry, "", ": ");
        let target = affix(&f.target, " (", ")");
        let mut text = format!("{entry}document: {}; true{target}: {}", f.claim, f.truth);
        for (k, v) in &f.evidence {
            text.push_str(&format!("; {k}: {v}"));
        }
        results.push((f.kind, Level::Error, text, &f.file, f.line));
    }
    for u in &r.unchecked {
        let entry = affix(&u.entry, " ", "");
        let text = format!("unchecked{entry}: {}", u.reason);
        results.push((u.kind, Level::Note, text, &u.file, u.line));
    }
    let mut kinds: Vec<&str> = results.iter().map(|x| x.0).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let rules: Vec<(String, String)> = kinds
        .iter()
        .map(|k| (k.to_string(), format!("spec-check {k}")))
        .collect();
    let results: Vec<Finding> = results
        .into_iter()
        .map(|(kind, level, text, file, line)| Finding {
            rule_id: kind.to_string(),
            level,
            text,
            file: file.clone(),
            line,
            col: 1,
        })
        .collect();
    let failure = failure.map(|e| Failure {
        text: e.to_string(),
        file: Some(e.file.clone()),
        line: e.line,
        col: e.col,
    });
    crate::sarif::log(&rules, &results, failure.as_ref())
}

/// `gcnsmt spec-check`: check `paths`, print the report on stdout, return the exit code
/// (an unreadable input prints `file:line:col: message` on stderr, or a JSON error object, or
/// a SARIF log of a failed run, and returns 2).
pub fn main(
    paths: &[PathBuf],
    format: OutputFormat,
    target: Option<&str>,
    timeout: f64,
) -> ExitStatus {
    let print = |text: String| {
        // A closed pipe (`| head`) is not an error of the check.
        crate::exit::write_stdout(&text);
    };
    let fail = |e: SpecError| -> ExitStatus {
        match format {
            OutputFormat::Json => {
                let v = json!({"error": {"file": e.file, "line": e.line, "col": e.col, "message": e.msg}, "exit_code": ExitStatus::InputError.code()});
                print(format!("{v}\n"));
            }
            OutputFormat::Sarif => {
                eprintln!("error: {e}");
                print(format!("{:#}\n", sarif(&Report::default(), Some(&e))));
            }
            // A flag's error names the flag, not a file position.
            OutputFormat::Text if e.line == 0 => eprintln!("error: {}: {}", e.file, e.msg),
            OutputFormat::Text => eprintln!("error: {e}"),
        }
        ExitStatus::InputError
    };
    let targets = match target.map(Target::parse_list) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(m)) => return fail(SpecError::new("--target", 0, 0, m)),
    };
    let timeout = match crate::limits::timeout(timeout) {
        Ok(t) => t,
        Err(m) => return fail(SpecError::new("--timeout", 0, 0, m)),
    };
    let opts = Options { targets, timeout };
    let r = run_batch(paths, &opts);
    if format != OutputFormat::Json {
        for e in &r.errors {
            eprintln!("error: {e}");
        }
    }
    print(match format {
        OutputFormat::Text => text(&r),
        OutputFormat::Json => format!("{}\n", json(&r)),
        OutputFormat::Sarif => format!("{:#}\n", sarif(&r, r.errors.first())),
    });
    exit_code(&r)
}
