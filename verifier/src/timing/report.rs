//! Text and JSON output of `gcnsmt waitcnt`.

use super::check::{FnReport, HazardReport, Loc};
use serde_json::{json, Value};

/// Totals over the functions.
pub fn totals(fns: &[FnReport]) -> (usize, usize, usize) {
    fns.iter().fold((0, 0, 0), |(h, u, r), f| {
        (
            h + f.hazards.len(),
            u + f.unknown.len(),
            r + f.redundant.len(),
        )
    })
}

fn hazard_line(file: &str, h: &HazardReport) -> String {
    let verb = match h.kind {
        "read" => format!("reads {} before {} has written it", h.regs, h.access_desc),
        "overwrite" => format!("writes {} before {} has written it", h.regs, h.access_desc),
        "return-pending" => format!(
            "returns before {} has completed (callers assume it has: {})",
            h.access_desc, h.regs
        ),
        "ordering" | "ordering-maybe" => format!(
            "runs with {} still pending, where a wait is required ({})",
            h.access_desc,
            h.why.as_deref().unwrap_or("a memory-ordering wait")
        ),
        "vccz" => format!(
            "branches on VCCZ, which {} may have corrupted (gfx6/gfx7 VCCZ bug)",
            h.access_desc
        ),
        _ => format!("writes {} before {} has read it", h.regs, h.access_desc),
    };
    let from = h
        .access
        .as_ref()
        .map(|a| format!(" (line {})", a.line))
        .unwrap_or_default();
    format!(
        "{file}:{}:{}: hazard: `{}` {verb}{from} ({} may be pending)",
        h.at.line, h.at.col, h.at.text, h.counter
    )
}

/// The text report.
pub fn text(file: &str, target: &str, fns: &[FnReport], secs: f64) -> String {
    let mut s = String::new();
    for f in fns {
        let kind = if f.kernel { "kernel" } else { "function" };
        s += &format!(
            "{}: {kind} ({target}, {} instructions): {} hazard(s), {} unknown, {} redundant wait(s)\n",
            f.name,
            f.insts,
            f.hazards.len(),
            f.unknown.len(),
            f.redundant.len()
        );
        for h in &f.hazards {
            s += &format!("  {}\n", hazard_line(file, h));
            s += &format!("    path: {}\n", h.path.join(" -> "));
            for step in &h.schedule {
                s += &format!("    schedule: {step}\n");
            }
        }
        for u in &f.unknown {
            s += &format!(
                "  {file}:{}:{}: unknown: `{}`: its wait counters are not known (paths stop here)\n",
                u.line, u.col, u.text
            );
        }
        for (w, why) in &f.redundant {
            s += &format!(
                "  {file}:{}:{}: info: `{}` is redundant: {why}\n",
                w.line, w.col, w.text
            );
        }
    }
    let (h, u, r) = totals(fns);
    s += &format!(
        "summary: {} function(s), {h} hazard(s), {u} unknown, {r} redundant wait(s)  [{secs:.2}s]\n",
        fns.len()
    );
    s
}

fn loc(l: &Loc) -> Value {
    json!({"line": l.line, "col": l.col, "text": l.text})
}

/// The JSON report.
pub fn json(file: &str, target: &str, fns: &[FnReport]) -> Value {
    let (h, u, r) = totals(fns);
    let functions: Vec<Value> = fns
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "kernel": f.kernel,
                "instructions": f.insts,
                "hazards": f.hazards.iter().map(|h| json!({
                    "kind": h.kind,
                    "registers": h.regs,
                    "counter": h.counter,
                    "access": h.access.as_ref().map(loc),
                    "access_desc": h.access_desc,
                    "at": loc(&h.at),
                    "path": h.path,
                    "schedule": h.schedule,
                    "why": h.why,
                })).collect::<Vec<_>>(),
                "unknown": f.unknown.iter().map(loc).collect::<Vec<_>>(),
                "redundant_waits": f.redundant.iter().map(|(l, why)| {
                    let mut v = loc(l);
                    v["reason"] = json!(why);
                    v
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "file": file,
        "target": target,
        "functions": functions,
        "summary": {"hazards": h, "unknown": u, "redundant_waits": r},
    })
}
