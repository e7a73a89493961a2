//! The op x property x target table of `gcnsmt atomics`, as text (Markdown) or JSON Lines.

use super::analyze::analyze;
use super::brute::{cross_check, BruteCounts};
use super::ops::all_atomics;
use super::props::{self, PropReport};
use super::{Verdict, Witness};
use gcnsmt_semantics::target::Target;
use rayon::prelude::*;
use serde_json::json;
use std::time::Duration;

/// Options of `gcnsmt atomics`.
pub struct AtomicsArgs {
    /// Targets (`-mcpu` names or ranges); `None` = all.
    pub target: Option<String>,
    /// Only mnemonics containing this text.
    pub op: Option<String>,
    /// `--json`: JSON Lines (one object per op x property x target, then the return-value
    /// properties, then a summary) instead of the text tables.
    pub json: bool,
    /// Per z3 query, seconds.
    pub timeout: f64,
    /// Random value sets per EXEC mask in the brute-force cross-check (0 = skip it).
    pub brute: u32,
    /// An expected-verdict file (`proofs/*.expect`); only its ops are analysed.
    pub expect: Option<std::path::PathBuf>,
}

pub use super::row::{Column, Row, COLUMNS};

/// `gfx600..gfx1250`-style text for a target list (runs of consecutive targets in
/// [`Target::ALL`] order become ranges).
pub fn targets_text(ts: &[Target]) -> String {
    let idx: Vec<usize> = Target::ALL
        .iter()
        .enumerate()
        .filter(|(_, t)| ts.contains(t))
        .map(|(i, _)| i)
        .collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && idx[j + 1] == idx[j] + 1 {
            j += 1;
        }
        let (a, b) = (Target::ALL[idx[i]].name(), Target::ALL[idx[j]].name());
        parts.push(if i == j {
            a.to_string()
        } else if j == i + 1 {
            format!("{a},{b}")
        } else {
            format!("{a}..{b}")
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Analyse (and cross-check) the selected ops.
///
/// Errors: a `timeout` that [`crate::limits::timeout`] rejects, an unknown target, no op
/// selected, or an internal error of one op.
pub fn compute(args: &AtomicsArgs) -> Result<Vec<Row>, String> {
    compute_for(args, None)
}

fn compute_for(args: &AtomicsArgs, only: Option<&[String]>) -> Result<Vec<Row>, String> {
    let targets = match &args.target {
        Some(t) => Target::parse_list(t)?,
        None => Target::ALL.to_vec(),
    };
    let ops: Vec<_> = all_atomics(&targets)
        .into_iter()
        .filter(|o| {
            args.op
                .as_ref()
                .is_none_or(|p| o.mnemonic.contains(p.as_str()))
                && only.is_none_or(|names| names.iter().any(|n| n == o.mnemonic))
        })
        .collect();
    if ops.is_empty() {
        return Err("no DS or buffer atomic matches --op/--target".into());
    }
    let timeout = crate::limits::timeout(args.timeout).map_err(|e| format!("--timeout: {e}"))?;
    ops.par_iter()
        .map(|op| {
            let rep = analyze(op, timeout)?;
            let brute = if args.brute > 0 {
                Some(cross_check(&rep, args.brute)?)
            } else {
                None
            };
            Ok(Row { rep, brute })
        })
        .collect()
}

fn witness_text(w: &Witness, width: u32) -> String {
    let hex = |v: u128| format!("{:#0w$x}", v, w = (width / 4) as usize + 2);
    let data: Vec<String> = w
        .data
        .iter()
        .map(|(l, d0, d1)| {
            if *d1 == 0 {
                format!("lane{l}={}", hex(*d0))
            } else {
                format!("lane{l}=({},{})", hex(*d0), hex(*d1))
            }
        })
        .collect();
    if data.is_empty() {
        return w.detail.clone();
    }
    format!(
        "wave{} EXEC={:#x} {} memory={}: {}",
        w.lanes,
        w.exec,
        data.join(" "),
        hex(w.mem),
        w.detail
    )
}

/// The Markdown table and the counterexamples, as `gcnsmt atomics` prints them.
pub fn render_text(rows: &[Row], props: &[PropReport]) -> String {
    let mut s = String::new();
    s.push_str("| op | targets |");
    for (c, _) in COLUMNS {
        s.push_str(&format!(" {c} |"));
    }
    s.push_str(" 64-lane proof |\n|---|---|");
    for _ in COLUMNS {
        s.push_str("---|");
    }
    s.push_str("---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} |",
            r.rep.op.mnemonic,
            targets_text(&r.rep.op.targets)
        ));
        for (_, get) in COLUMNS {
            s.push_str(&format!(" {} |", get(&r.rep).word()));
        }
        s.push_str(&format!(
            " {} ms |\n",
            (r.rep.opt_proof_time + r.rep.commute_time).as_millis()
        ));
    }
    s.push('\n');
    for r in rows {
        for (c, get) in COLUMNS {
            match get(&r.rep) {
                Verdict::Refuted(w) => s.push_str(&format!(
                    "{} {c}: refuted: {}\n",
                    r.rep.op.mnemonic,
                    witness_text(w, r.rep.op.width)
                )),
                Verdict::Unknown(why) => {
                    s.push_str(&format!("{} {c}: unknown: {why}\n", r.rep.op.mnemonic))
                }
                _ => {}
            }
        }
    }
    if !props.is_empty() {
        s.push_str("\nReturned values across lanes:\n");
        for p in props {
            s.push_str(&format!(
                "- {}: {} ({} ms) {}\n",
                p.name,
                p.verdict.word(),
                p.time.as_millis(),
                match &p.verdict {
                    Verdict::Proved(x) | Verdict::Unknown(x) | Verdict::NotApplicable(x) =>
                        x.clone(),
                    Verdict::Refuted(w) => witness_text(w, 32),
                }
            ));
        }
    }
    let (mut orders, mut rewrites, mut mism) = (0u64, 0u64, 0u64);
    for b in rows.iter().filter_map(|r| r.brute.as_ref()) {
        orders += b.orders;
        rewrites += b.rewrites;
        mism += b.mismatches;
    }
    let mut first = None;
    for b in rows.iter().filter_map(|r| r.brute.as_ref()) {
        if first.is_none() {
            first = b.first_mismatch.clone();
        }
    }
    let total: Duration = rows
        .iter()
        .map(|r| r.rep.opt_proof_time + r.rep.commute_time)
        .sum();
    s.push_str(&format!(
        "\nsummary: {} ops; {} verdicts proved, {} refuted, {} unknown, {} n/a; brute force: {} serializations, {} rewrites, {} mismatches; solver time {} ms\n",
        rows.len(),
        count(rows, "proved"),
        count(rows, "refuted"),
        count(rows, "unknown"),
        count(rows, "n/a"),
        orders,
        rewrites,
        mism,
        total.as_millis()
    ));
    if let Some(f) = first {
        s.push_str(&format!("first mismatch: {f}\n"));
    }
    s
}

fn count(rows: &[Row], word: &str) -> usize {
    rows.iter()
        .map(|r| {
            COLUMNS
                .iter()
                .filter(|(_, g)| g(&r.rep).word() == word)
                .count()
        })
        .sum()
}

fn verdict_json(v: &Verdict, width: u32) -> serde_json::Value {
    match v {
        Verdict::Proved(why) => json!({"verdict": "proved", "reason": why}),
        Verdict::Unknown(why) => json!({"verdict": "unknown", "reason": why}),
        Verdict::NotApplicable(why) => json!({"verdict": "n/a", "reason": why}),
        Verdict::Refuted(w) => json!({
            "verdict": "refuted",
            "counterexample": {
                "lanes": w.lanes,
                "exec": format!("{:#x}", w.exec),
                "data": w.data.iter().map(|(l, a, b)| json!({"lane": l, "data0": format!("{a:#x}"), "data1": format!("{b:#x}")})).collect::<Vec<_>>(),
                "memory": format!("{:#x}", w.mem),
                "detail": witness_text(w, width),
            }
        }),
    }
}

/// JSON Lines: one object per op x property x target, then the return-value properties, then
/// a summary.
pub fn render_json(rows: &[Row], props: &[PropReport]) -> String {
    let mut s = String::new();
    for r in rows {
        for t in &r.rep.op.targets {
            for (c, get) in COLUMNS {
                let mut v = verdict_json(get(&r.rep), r.rep.op.width);
                v["type"] = json!("verdict");
                v["op"] = json!(r.rep.op.mnemonic);
                v["target"] = json!(t.name());
                v["property"] = json!(c);
                s.push_str(&v.to_string());
                s.push('\n');
            }
        }
    }
    for p in props {
        let mut v = verdict_json(&p.verdict, 32);
        v["type"] = json!("property");
        v["name"] = json!(p.name);
        v["time_ms"] = json!(p.time.as_millis() as u64);
        s.push_str(&v.to_string());
        s.push('\n');
    }
    let b: Vec<&BruteCounts> = rows.iter().filter_map(|r| r.brute.as_ref()).collect();
    s.push_str(
        &json!({
            "type": "summary",
            "ops": rows.len(),
            "proved": count(rows, "proved"),
            "refuted": count(rows, "refuted"),
            "unknown": count(rows, "unknown"),
            "not_applicable": count(rows, "n/a"),
            "brute_serializations": b.iter().map(|x| x.orders).sum::<u64>(),
            "brute_rewrites": b.iter().map(|x| x.rewrites).sum::<u64>(),
            "brute_mismatches": b.iter().map(|x| x.mismatches).sum::<u64>(),
            "proof_time_ms": rows.iter().map(|r| r.rep.opt_proof_time.as_millis() as u64 + r.rep.commute_time.as_millis() as u64).collect::<Vec<_>>(),
        })
        .to_string(),
    );
    s.push('\n');
    s
}

/// The cross-lane and counter DS instructions and where their semantics live, with the
/// targets that have them (lifter opcode tables).
pub fn crosslane_rows(targets: &[Target]) -> Vec<(String, String, &'static str)> {
    let status = |m: &str| -> Option<&'static str> {
        Some(match m {
            "ds_swizzle_b32" => "whole-wave: gcnsmt_semantics::wave::swizzle (bitmask, quad permute; FFT and rotate on gfx9+)",
            "ds_permute_b32" => "whole-wave: wave::permute (highest source lane wins; wrap 64 / 32 / wave size by generation)",
            "ds_bpermute_b32" => "whole-wave: wave::bpermute (EXEC applies to the source lane)",
            "ds_append" | "ds_consume" => "wave-level entry: ds_wave.pcode (one atomic of popcount(EXEC), the same old value to every lane; setting append_addr)",
            "ds_read_addtid_b32" | "ds_load_addtid_b32" | "ds_write_addtid_b32" | "ds_store_addtid_b32" => {
                "per lane: ds_load.pcode / ds_store.pcode (address from LANE_ID)"
            }
            m if m.starts_with("ds_gws_") => {
                "wave-level entry: ds_wave.pcode (GWS resources; one wave runs, waiting for another is undefined)"
            }
            "ds_ordered_count" => "wave-level entry: ds_wave.pcode (undefined: no source at hand fixes the counter it updates)",
            "ds_bpermute_fi_b32" => "whole-wave: wave::bpermute_fi (the source lane is read whatever its EXEC bit)",
            _ => return None,
        })
    };
    let mut out: Vec<(String, Vec<Target>, &'static str)> = Vec::new();
    for &t in targets {
        for m in gcnsmt_lifter::table::ds_mnemonics(t) {
            let Some(st) = status(m) else { continue };
            match out.iter_mut().find(|(n, _, _)| n == m) {
                Some(r) => r.1.push(t),
                None => out.push((m.to_string(), vec![t], st)),
            }
        }
    }
    out.into_iter()
        .map(|(m, ts, st)| (m, targets_text(&ts), st))
        .collect()
}

/// `gcnsmt atomics`: proved (exit 0), refuted (1) when the brute force contradicts a proved
/// verdict or an expectation is not met, an input error (2) on an input or internal error.
pub fn atomics(args: &AtomicsArgs) -> crate::exit::ExitStatus {
    use crate::exit::ExitStatus;
    // Checked before any work, with the same rule as `verify`'s (0 is not "no limit").
    let timeout = match crate::limits::timeout(args.timeout) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: --timeout: {e}");
            return ExitStatus::InputError;
        }
    };
    let expects = match &args.expect {
        None => None,
        Some(p) => {
            let file = p.display().to_string();
            let parsed = crate::limits::read_text(p)
                .map_err(|e| format!("{file}:{}:{}: {}", e.line, e.col, e.msg))
                .and_then(|text| super::expect::parse(&file, &text));
            match parsed {
                Ok(x) => Some((file, x)),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitStatus::InputError;
                }
            }
        }
    };
    let names: Option<Vec<String>> = expects
        .as_ref()
        .map(|(_, x)| x.iter().map(|e| e.op.clone()).collect());
    let rows = match compute_for(args, names.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitStatus::InputError;
        }
    };
    let props = if args.op.is_none() && args.target.is_none() && args.expect.is_none() {
        props::all(timeout)
    } else {
        Vec::new()
    };
    if args.json {
        print!("{}", render_json(&rows, &props));
    } else {
        print!("{}", render_text(&rows, &props));
        if args.op.is_none() && args.expect.is_none() {
            let targets = match &args.target {
                Some(t) => Target::parse_list(t).unwrap_or_default(),
                None => Target::ALL.to_vec(),
            };
            println!("\nCross-lane and counter DS instructions:\n\n| op | targets | semantics |\n|---|---|---|");
            for (m, ts, st) in crosslane_rows(&targets) {
                println!("| {m} | {ts} | {st} |");
            }
        }
    }
    let mut bad = rows
        .iter()
        .filter_map(|r| r.brute.as_ref())
        .any(|b| b.mismatches > 0);
    if let Some((file, x)) = &expects {
        let m = super::expect::mismatches(file, x, &rows);
        for line in &m {
            eprintln!("mismatch: {line}");
        }
        eprintln!("expectations: {} checked, {} mismatches", x.len(), m.len());
        bad |= !m.is_empty();
    }
    if bad {
        ExitStatus::Refuted
    } else {
        ExitStatus::Proved
    }
}
