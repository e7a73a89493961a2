//! `gcnsmt tv --format sarif`: the blocks as a SARIF 2.1.0 log.

use super::cmd::BlockVerdict;

/// The SARIF log: refuted and error blocks are errors, unknown and unsupported ones warnings.
pub fn sarif_log(v: &[BlockVerdict]) -> serde_json::Value {
    use crate::sarif::{log, Finding, Level};
    let rules: Vec<(String, String)> = [
        (
            "tv-refuted",
            "the after-block does not refine the before-block",
        ),
        ("tv-unknown", "the solver could not decide the block pair"),
        (
            "tv-unsupported",
            "the block pair holds an instruction gcnsmt does not model",
        ),
        ("tv-error", "the block pair could not be checked"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let results: Vec<Finding> = v
        .iter()
        .filter_map(|b| {
            let (id, level) = match b.verdict {
                "refuted" => ("tv-refuted", Level::Error),
                "error" => ("tv-error", Level::Error),
                "unknown" | "inapplicable" => ("tv-unknown", Level::Warning),
                "unsupported" => ("tv-unsupported", Level::Warning),
                _ => return None,
            };
            let mut text = format!(
                "{} bb.{} on {}: {}",
                b.function, b.block, b.target, b.verdict
            );
            if let Some(r) = &b.reason {
                text.push_str(&format!(": {r}"));
            }
            if let Some(c) = &b.counterexample {
                text.push('\n');
                text.push_str(c);
            }
            Some(Finding {
                rule_id: id.to_string(),
                level,
                text,
                file: b.file.clone(),
                line: b.line,
                col: b.col,
            })
        })
        .collect();
    log(&rules, &results, None)
}
