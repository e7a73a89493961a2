//! Machine-readable output of a verify run: JSON Lines (one object per rule x target, per
//! input error, and a closing summary) and SARIF 2.1.0 (refutations, expectation mismatches,
//! unknowns and errors as results at the rule's file:line, for code-scanning tools).

use crate::check::{Cex, Verdict};
use crate::record::{Record, Summary};
use gcnsmt_semantics::eval::AddrSpace;
use serde_json::{json, Value};
use std::time::Duration;

fn step_json(s: &crate::check::Step) -> Value {
    json!({
        "instruction": s.text,
        "writes": s.writes.iter().map(|(n, v)| json!({"name": n, "value": format!("0x{v:08x}")})).collect::<Vec<_>>(),
        "memory_bytes_changed": s.mem_writes.iter().map(|(sp, n)| json!({"space": sp, "bytes": n})).collect::<Vec<_>>(),
    })
}

/// The key of a space's initial bytes in a counterexample object: global memory is `memory`, as
/// the format named it before address spaces were data; the others their [`AddrSpace::key`].
fn space_key(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Global => "memory",
        _ => s.key(),
    }
}

fn cex_json(c: &Cex) -> Value {
    let mut v = json!({
        "inputs": c.inputs.iter().map(|(n, v, w)| json!({"name": n, "value": format!("0x{v:x}"), "width": w})).collect::<Vec<_>>(),
        "vsharp": c.vsharp.iter().map(|(n, fs)| json!({"name": n, "fields": fs.iter().map(|(f, v)| (f.to_string(), json!(format!("0x{v:x}")))).collect::<serde_json::Map<String, Value>>()})).collect::<Vec<_>>(),
        "registers": c.regs.iter().map(|(n, s, t)| json!({"name": n, "source": format!("0x{s:08x}"), "target": format!("0x{t:08x}")})).collect::<Vec<_>>(),
        "memory_differences": c.mem_diffs.iter().map(|(sp, a, s, t)| json!({"space": sp, "addr": a, "source": s, "target": t})).collect::<Vec<_>>(),
        "first_difference": c.first_difference,
        "lanes": c.lanes,
        "steps": {
            "source": c.steps.0.iter().map(step_json).collect::<Vec<_>>(),
            "target": c.steps.1.iter().map(step_json).collect::<Vec<_>>(),
        },
    });
    // Only cross-target counterexamples have the key, so same-target output is unchanged.
    if let Some((s, t)) = c.targets {
        v["side_targets"] = json!({"source": s.name(), "target": t.name()});
    }
    for (space, bytes) in c.mem.iter() {
        // Only counterexamples that read wave-level state have its keys, so other output is
        // unchanged.
        if bytes.is_empty() && matches!(space, AddrSpace::Gws | AddrSpace::GsReg) {
            continue;
        }
        v[space_key(space)] = bytes
            .iter()
            .map(|(a, b)| json!({"addr": a, "byte": b}))
            .collect();
    }
    v
}

/// One JSON object per record.
///
/// Verdict objects: `{"type":"verdict","rule","file","line","target","verdict","expected",
/// "as_expected","settings":{"alignment","lds_limit"},"time_ms","note","reason","counterexample"}`;
/// error objects: `{"type":"error","rule","file","line","col","message","expected"}`.
pub fn record_json(r: &Record) -> Value {
    match r {
        Record::Error {
            rule,
            error,
            expected,
        } => json!({
            "type": "error",
            "rule": rule,
            "file": error.file,
            "line": error.loc.line,
            "col": error.loc.col,
            "message": error.msg,
            "expected": expected,
        }),
        Record::Verdict { outcome: o, line } => {
            let reason = match &o.verdict {
                Verdict::Unknown(r) | Verdict::Error(r) => Some(r.clone()),
                _ => None,
            };
            let cex = match &o.verdict {
                Verdict::Refuted(c) => Some(cex_json(c)),
                _ => None,
            };
            let settings = o.settings.to_string();
            let mut parts = settings.split(", ").filter_map(|kv| kv.split_once('='));
            let (a, l) = (parts.next().map(|p| p.1), parts.next().map(|p| p.1));
            let mut v = json!({
                "type": "verdict",
                "rule": o.rule,
                "file": o.file,
                "line": line,
                "target": o.target.name(),
                "verdict": o.verdict.name(),
                "expected": o.expect.map(|e| e.name()),
                "as_expected": o.expect.map(|e| o.verdict.matches(e)),
                "settings": {"alignment": a, "lds_limit": l,
                    "buffer_soffset": o.buffer.then(|| format!("{:?}", o.settings.buffer_soffset).to_ascii_uppercase()),
                    "buffer_oob": o.buffer.then(|| format!("{:?}", o.settings.buffer_oob).to_ascii_uppercase()),
                    "sbuffer_size": o.sbuffer.then(|| format!("{:?}", o.settings.sbuffer_size).to_ascii_uppercase()),
                    "flat_aperture": o.flat.then(|| format!("{:?}", o.settings.flat_aperture).to_ascii_uppercase()),
                    "lanes": o.lanes.map(|m| m.lanes),
                    "lane_order": o.lanes.map(|m| m.order.name())},
                "time_ms": o.time.as_secs_f64() * 1000.0,
                "note": o.note,
                "reason": reason,
                "counterexample": cex,
            });
            if let Some((to, s)) = o.to {
                v["to"] = json!(to.name());
                v["to_settings"] = json!(s.to_string());
                v["assumptions"] = json!(o.assumptions);
            }
            v
        }
    }
}

/// The closing summary object: `{"type":"summary", counts..., "exit_code", "time_ms"}`.
pub fn summary_json(s: &Summary, elapsed: Duration) -> Value {
    json!({
        "type": "summary",
        "proved": s.proved,
        "refuted": s.refuted,
        "refuted_expected": s.refuted_expected,
        "unknown": s.unknown,
        "inapplicable": s.inapplicable,
        "errors": s.errors,
        "errors_expected": s.errors_expected,
        "mismatches": s.mismatches,
        "exit_code": s.exit_code().code(),
        "time_ms": elapsed.as_secs_f64() * 1000.0,
    })
}

/// JSON Lines: one compact object per line.
pub fn json_lines(records: &[Record], s: &Summary, elapsed: Duration) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&record_json(r).to_string());
        out.push('\n');
    }
    out.push_str(&summary_json(s, elapsed).to_string());
    out.push('\n');
    out
}

/// A SARIF 2.1.0 log. Results: refutations not expected (`error`), expectation mismatches
/// (`error`), unknowns (`warning`), input and internal errors (`error`); expected verdicts are
/// reported as `note` so a code-scanning UI can show the whole matrix.
pub fn sarif(records: &[Record]) -> Value {
    use crate::sarif::{Finding, Level};
    let mut rule_ids: Vec<String> = Vec::new();
    let mut results = Vec::new();
    for r in records {
        let (rule, file, line, col, level, text) = match r {
            Record::Error {
                rule,
                error,
                expected,
            } => (
                rule.clone(),
                error.file.clone(),
                error.loc.line,
                error.loc.col,
                if *expected { Level::Note } else { Level::Error },
                format!(
                    "input error{}: {}",
                    if *expected { " (as expected)" } else { "" },
                    error.msg
                ),
            ),
            Record::Verdict { outcome: o, line } => {
                let matches = o.expect.map(|e| o.verdict.matches(e));
                let level = match (&o.verdict, matches) {
                    (Verdict::Unknown(_), _) => Level::Warning,
                    (Verdict::Error(_), _) => Level::Error,
                    (_, Some(true)) => Level::Note,
                    (Verdict::Refuted(_), None) => Level::Error,
                    (_, Some(false)) => Level::Error,
                    (_, None) => Level::Note,
                };
                let mut text = format!("{} on {}: {}", o.rule, o.target_label(), o.verdict.name());
                if let Some(e) = o.expect {
                    text.push_str(&format!(" (expected {})", e.name()));
                }
                match &o.verdict {
                    Verdict::Refuted(c) => {
                        text.push_str(&format!("; first difference: {}", c.first_difference))
                    }
                    Verdict::Unknown(r) | Verdict::Error(r) => text.push_str(&format!("; {r}")),
                    _ => {}
                }
                (o.rule.clone(), o.file.clone(), *line, 1, level, text)
            }
        };
        if !rule_ids.contains(&rule) {
            rule_ids.push(rule.clone());
        }
        results.push(Finding {
            rule_id: rule,
            level,
            text,
            file,
            line,
            col,
        });
    }
    let rules: Vec<(String, String)> = rule_ids
        .into_iter()
        .map(|r| {
            let d = format!("rewrite rule {r}");
            (r, d)
        })
        .collect();
    crate::sarif::log(&rules, &results, None)
}
