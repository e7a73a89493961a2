//! Expected verdicts for `gcnsmt atomics --expect FILE` (`proofs/*.expect`): one line per op
//! and property, `OP PROPERTY VERDICT`, `;` starts a comment. The reason for each expectation
//! is written next to it by hand (a hand computation or a public fact), so a changed semantics
//! entry or optimizer model shows up as a mismatch.

use super::row::{Row, COLUMNS};

/// One expectation and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// 1-based line of the expectation in its file.
    pub line: usize,
    /// The op's LLVM mnemonic (`ds_add_rtn_u32`).
    pub op: String,
    /// The property column (`mem-uniform`, `mem-lanes`, ..., see [`COLUMNS`]).
    pub property: String,
    /// `proved`, `refuted`, `unknown` or `n/a`.
    pub verdict: String,
}

/// Parse an expectation file.
///
/// Errors: `file:line:col: message` for a line that is not `OP PROPERTY VERDICT`, an unknown
/// property or verdict word.
pub fn parse(file: &str, text: &str) -> Result<Vec<Expect>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap_or("");
        let words: Vec<(usize, &str)> = line
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - raw.as_ptr() as usize + 1, w))
            .collect();
        if words.is_empty() {
            continue;
        }
        let at = |col: usize, msg: String| format!("{file}:{}:{col}: {msg}", i + 1);
        if words.len() != 3 {
            return Err(at(
                words[0].0,
                format!(
                    "expected `OP PROPERTY VERDICT`, found {} words",
                    words.len()
                ),
            ));
        }
        let (op, prop, verdict) = (words[0], words[1], words[2]);
        if !COLUMNS.iter().any(|(c, _)| *c == prop.1) {
            let names: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
            return Err(at(
                prop.0,
                format!(
                    "unknown property `{}` (one of {})",
                    prop.1,
                    names.join(", ")
                ),
            ));
        }
        if !["proved", "refuted", "unknown", "n/a"].contains(&verdict.1) {
            return Err(at(
                verdict.0,
                format!(
                    "unknown verdict `{}` (proved, refuted, unknown, n/a)",
                    verdict.1
                ),
            ));
        }
        out.push(Expect {
            line: i + 1,
            op: op.1.to_string(),
            property: prop.1.to_string(),
            verdict: verdict.1.to_string(),
        });
    }
    Ok(out)
}

/// The expectations a computed table contradicts, as `file:line: ...` messages; an op that
/// the table does not contain is reported too (it does not exist on the selected targets).
pub fn mismatches(file: &str, expects: &[Expect], rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for e in expects {
        let Some(r) = rows.iter().find(|r| r.rep.op.mnemonic == e.op) else {
            out.push(format!(
                "{file}:{}: no DS or buffer atomic `{}` on the selected targets",
                e.line, e.op
            ));
            continue;
        };
        let (_, get) = COLUMNS
            .iter()
            .find(|(c, _)| *c == e.property)
            .expect("parse checked the property");
        let got = get(&r.rep).word();
        if got != e.verdict {
            out.push(format!(
                "{file}:{}: {} {}: expected {}, got {got}",
                e.line, e.op, e.property, e.verdict
            ));
        }
    }
    out
}
