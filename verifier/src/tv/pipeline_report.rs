//! The output of `gcnsmt tv --pipeline`: a table per target (one row per pass), the first
//! refuted pass with its counterexample, a summary; or JSON Lines with one record per pass.

use super::cmd::TvFormat;
use super::pipeline_cmd::{exit_code, PassRow};
use serde_json::json;
use std::time::Duration;

/// The verdict columns, in table order: tv's verdicts but `unchanged` (a checked pair's
/// unchanged blocks are not counted).
const KINDS: [&str; 6] = {
    let v = super::cmd::VERDICTS;
    [v[0], v[1], v[2], v[3], v[4], v[5]]
};

/// Print the rows in `format` (text or json).
pub fn print(rows: &[PassRow], format: TvFormat, elapsed: Duration) {
    match format {
        TvFormat::Json => json_lines(rows, elapsed),
        _ => text(rows, elapsed),
    }
}

/// The first refuted row of each target, in target order.
fn first_refuted(rows: &[PassRow]) -> Vec<&PassRow> {
    let mut out: Vec<&PassRow> = Vec::new();
    for r in rows {
        if r.refuted().is_some() && !out.iter().any(|o| o.target == r.target) {
            out.push(r);
        }
    }
    out
}

/// The first line of a reason, at most 160 characters.
fn short(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let mut t: String = line.chars().take(160).collect();
    if line.chars().count() > 160 || s.lines().nth(1).is_some() {
        t.push_str(" ...");
    }
    t
}

fn text(rows: &[PassRow], elapsed: Duration) {
    let mut target = "";
    for r in rows {
        if r.target != target {
            target = &r.target;
            println!("{}: {} machine passes", r.target, r.of);
            println!(
                "  {:>3}  {:<34} {:>7} {:>6} {:>7} {:>7} {:>11} {:>12} {:>5} {:>9}",
                "#",
                "pass",
                "changed",
                "proved",
                "refuted",
                "unknown",
                "unsupported",
                "inapplicable",
                "error",
                "time"
            );
        }
        let mut line = format!(
            "  {:>3}  {:<34} {:>7} {:>6} {:>7} {:>7} {:>11} {:>12} {:>5} {:>7.1}ms",
            r.index,
            r.name(),
            r.changed(),
            r.count("proved"),
            r.count("refuted"),
            r.count("unknown"),
            r.count("unsupported"),
            r.count("inapplicable"),
            r.count("error"),
            r.time.as_secs_f64() * 1e3
        );
        if let Some(e) = &r.error {
            line.push_str(&format!("  {}", short(e)));
        }
        println!("{line}");
    }
    let firsts = first_refuted(rows);
    for r in &firsts {
        let b = r.refuted().expect("a refuted row");
        println!(
            "first refuted pass on {}: {} (pass {} of {}): {} bb.{}: {}",
            r.target,
            r.name(),
            r.index,
            r.of,
            b.function,
            b.block,
            b.reason.as_deref().unwrap_or("")
        );
        if let Some(c) = &b.counterexample {
            println!("{c}");
        }
    }
    let sum = |k: &str| rows.iter().map(|r| r.count(k)).sum::<usize>();
    let parts: Vec<String> = KINDS.iter().map(|k| format!("{} {k}", sum(k))).collect();
    let first = match firsts.first() {
        Some(r) => format!("first refuted: {} on {}", r.name(), r.target),
        None => "no pass refuted".into(),
    };
    println!(
        "summary: {} pairs over {} passes ({} identical), {} changed blocks: {}; {first}  [{:.1}s]",
        rows.len(),
        rows.iter().map(|r| r.steps.len()).sum::<usize>(),
        rows.iter().filter(|r| r.identical).count(),
        rows.iter().map(PassRow::changed).sum::<usize>(),
        parts.join(", "),
        elapsed.as_secs_f64()
    );
}

fn json_lines(rows: &[PassRow], elapsed: Duration) {
    for r in rows {
        let blocks: Vec<serde_json::Value> = r
            .verdicts
            .iter()
            .filter(|b| b.changed)
            .map(|b| {
                json!({
                    "function": b.function,
                    "block": format!("bb.{}", b.block),
                    "verdict": b.verdict,
                    "time_ms": b.time.as_secs_f64() * 1e3,
                    "reason": b.reason,
                    "counterexample": b.counterexample,
                })
            })
            .collect();
        let mut o = serde_json::Map::new();
        o.insert("type".into(), json!("pass"));
        o.insert("target".into(), json!(r.target));
        o.insert("index".into(), json!(r.index));
        o.insert("of".into(), json!(r.of));
        o.insert("pass".into(), json!(r.name()));
        o.insert("identical".into(), json!(r.identical));
        o.insert("changed".into(), json!(r.changed()));
        for k in KINDS {
            o.insert(k.into(), json!(r.count(k)));
        }
        o.insert("time_ms".into(), json!(r.time.as_secs_f64() * 1e3));
        o.insert("reason".into(), json!(r.error));
        o.insert("blocks".into(), json!(blocks));
        println!("{}", serde_json::Value::Object(o));
    }
    let firsts: Vec<serde_json::Value> = first_refuted(rows)
        .iter()
        .map(|r| {
            let b = r.refuted().expect("a refuted row");
            json!({
                "target": r.target,
                "pass": r.name(),
                "index": r.index,
                "function": b.function,
                "block": format!("bb.{}", b.block),
                "reason": b.reason,
                "counterexample": b.counterexample,
                "counterexample_data": b.counterexample_data,
            })
        })
        .collect();
    let mut s = serde_json::Map::new();
    s.insert("type".into(), json!("summary"));
    s.insert("pairs".into(), json!(rows.len()));
    s.insert(
        "passes".into(),
        json!(rows.iter().map(|r| r.steps.len()).sum::<usize>()),
    );
    s.insert(
        "identical".into(),
        json!(rows.iter().filter(|r| r.identical).count()),
    );
    s.insert(
        "changed".into(),
        json!(rows.iter().map(PassRow::changed).sum::<usize>()),
    );
    for k in KINDS {
        s.insert(
            k.into(),
            json!(rows.iter().map(|r| r.count(k)).sum::<usize>()),
        );
    }
    s.insert("first_refuted".into(), json!(firsts));
    s.insert("exit_code".into(), json!(exit_code(rows).code()));
    s.insert("time_ms".into(), json!(elapsed.as_secs_f64() * 1e3));
    println!("{}", serde_json::Value::Object(s));
}
