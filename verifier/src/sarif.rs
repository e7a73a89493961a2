//! SARIF 2.1.0 logs (OASIS, `tests/data/sarif-schema-2.1.0.json`): the one document shape
//! that `verify --format sarif` and `spec-check --format sarif` fill with their own results.
//! Depends on nothing else of the crate, so any command's writer can use it.

use serde_json::{json, Value};

/// A result's `level` (SARIF 2.1.0 §3.27.10; `none` is not used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `error`: a refutation, a mismatch with `Expect:`, an input or internal error, a
    /// spec-check finding.
    Error,
    /// `warning`: an undecided result (`unknown`).
    Warning,
    /// `note`: a result as expected, or a spec-check item that could not be checked.
    Note,
}

impl Level {
    /// The SARIF spelling.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One result: a message at a file position (lines and columns 1-based; 0 is read as 1,
/// since SARIF regions start at 1).
#[derive(Clone, Debug)]
pub struct Finding {
    /// The reporting rule's id (a rewrite rule's name, a spec-check kind).
    pub rule_id: String,
    /// How serious the result is.
    pub level: Level,
    /// The message text.
    pub text: String,
    /// The artifact, as given on the command line (a relative or absolute path).
    pub file: String,
    /// 1-based line of the result.
    pub line: u32,
    /// 1-based column of the result.
    pub col: u32,
}

/// A run-level problem that stopped the tool (an unreadable input): reported as a tool
/// execution notification of a run whose `executionSuccessful` is false.
#[derive(Clone, Debug)]
pub struct Failure {
    /// What stopped the tool, as the error message says it.
    pub text: String,
    /// Where, when the problem is in a file (line 0: no position).
    pub file: Option<String>,
    /// 1-based line, 0 when there is no position.
    pub line: u32,
    /// 1-based column, 0 when there is no position.
    pub col: u32,
}

fn location(file: &str, line: u32, col: u32) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": {"uri": file},
            "region": {"startLine": line.max(1), "startColumn": col.max(1)},
        }
    })
}

/// The log of one run of `gcnsmt`: `rules` are (id, short description) in the order results
/// refer to them by index; every result's `rule_id` must be among them.
pub fn log(rules: &[(String, String)], results: &[Finding], failure: Option<&Failure>) -> Value {
    let results: Vec<Value> = results
        .iter()
        .map(|r| {
            let rule_index = rules
                .iter()
                .position(|(id, _)| *id == r.rule_id)
                .unwrap_or(0);
            json!({
                "ruleId": r.rule_id,
                "ruleIndex": rule_index,
                "level": r.level.name(),
                "message": {"text": r.text},
                "locations": [location(&r.file, r.line, r.col)],
            })
        })
        .collect();
    let mut run = json!({
        "tool": {"driver": {
            "name": "gcnsmt",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules.iter().map(|(id, d)| json!({"id": id, "shortDescription": {"text": d}})).collect::<Vec<_>>(),
        }},
        "results": results,
    });
    if let Some(f) = failure {
        let mut note = json!({"level": "error", "message": {"text": f.text}});
        if let (Some(file), true) = (&f.file, f.line > 0) {
            note["locations"] = json!([location(file, f.line, f.col)]);
        }
        run["invocations"] = json!([{
            "executionSuccessful": false,
            "toolExecutionNotifications": [note],
        }]);
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    })
}
