//! How tv prints its verdicts: text, JSON Lines or SARIF, then a summary.

use super::cmd::{BlockVerdict, TvFormat};
use serde_json::json;
use std::time::Duration;

/// Every verdict tv gives, in the order summaries list them (`unchanged` last: no check ran).
#[rustfmt::skip]
pub const VERDICTS: [&str; 7] =
    ["proved", "refuted", "unknown", "unsupported", "inapplicable", "error", "unchanged"];

pub fn print(v: &[BlockVerdict], format: TvFormat, elapsed: Duration) {
    let kinds = VERDICTS;
    let count = |k: &str| v.iter().filter(|b| b.verdict == k).count();
    match format {
        TvFormat::Text => {
            for b in v {
                let mut line = format!("{} bb.{} {}: {}", b.function, b.block, b.target, b.verdict);
                if b.changed {
                    line.push_str(&format!(" [{:.1}ms]", b.time.as_secs_f64() * 1e3));
                }
                if let Some(r) = &b.reason {
                    line.push_str(&format!(": {r}"));
                }
                println!("{line}");
                if let Some(c) = &b.counterexample {
                    println!("{c}");
                }
            }
            // What the verdicts assumed, once per target and settings (`verify` prints it per
            // check; `--format json` per block).
            let mut seen: Vec<(&str, &str)> = Vec::new();
            for b in v {
                let Some(st) = b.settings.as_deref() else {
                    continue;
                };
                if !seen.contains(&(b.target.as_str(), st)) {
                    println!("settings on {}: {st}", b.target);
                    seen.push((&b.target, st));
                }
            }
            let parts: Vec<String> = kinds.iter().map(|k| format!("{} {k}", count(k))).collect();
            println!(
                "summary: {} blocks: {}  [{:.1}ms]",
                v.len(),
                parts.join(", "),
                elapsed.as_secs_f64() * 1e3
            );
        }
        TvFormat::Json => {
            for b in v {
                let line = json!({
                    "type": "block",
                    "function": b.function,
                    "block": format!("bb.{}", b.block),
                    "target": b.target,
                    "verdict": b.verdict,
                    "changed": b.changed,
                    "time_ms": b.time.as_secs_f64() * 1e3,
                    "reason": b.reason,
                    "counterexample": b.counterexample,
                    "counterexample_data": b.counterexample_data,
                    "settings": b.settings,
                });
                println!("{line}");
            }
            let mut s = serde_json::Map::new();
            s.insert("type".into(), json!("summary"));
            s.insert("blocks".into(), json!(v.len()));
            for k in kinds {
                s.insert(k.into(), json!(count(k)));
            }
            s.insert("time_ms".into(), json!(elapsed.as_secs_f64() * 1e3));
            println!("{}", serde_json::Value::Object(s));
        }
        TvFormat::Sarif => println!("{}", super::sarif::sarif_log(v)),
    }
}
