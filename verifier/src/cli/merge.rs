//! `gcnsmt merge FILE...`: the JSON Lines of the shards of one `verify --shard K/N` run put
//! back together: the records in the order the unsharded run prints them, one error per rule
//! (as the unsharded run reports it), file errors once, and the summary and exit code the
//! unsharded run has. Shards of different runs (another check list: rules, targets,
//! settings, build), a missing or repeated shard, a shard whose records are not the ones its
//! summary counts, or shards that together do not report each check of the plan once, are an
//! error (exit 2), since a merge that silently lacks records would report a partial run as
//! whole.

use crate::exit::ExitStatus;
use crate::record::Summary;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::Duration;

/// Output of `gcnsmt merge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    /// JSON Lines, as `verify --format json` prints them.
    Json,
    /// The summary line of `verify`'s text output.
    Text,
}

/// One shard's output, read.
struct ShardOut {
    k: u32,
    n: u32,
    plan: String,
    time_ms: f64,
    records: Vec<Value>,
    /// The plan's number of checks (`plan_checks`).
    plan_checks: u64,
    /// The shard's own summary line.
    summary: Value,
}

fn read_shard(path: &std::path::Path) -> Result<ShardOut, String> {
    let name = path.display().to_string();
    let text = crate::limits::read_text(path)
        .map_err(|e| format!("{name}:{}:{}: error: {}", e.line, e.col, e.msg))?;
    let mut records = Vec::new();
    let mut summary: Option<(usize, Value)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("{name}:{}:{}: error: {e}", i + 1, e.column()))?;
        match v.get("type").and_then(Value::as_str) {
            Some("verdict" | "error") => records.push(v),
            Some("summary") if summary.is_none() => summary = Some((i + 1, v)),
            Some("summary") => return Err(format!("{name}:{}:1: error: a second summary", i + 1)),
            _ => {
                return Err(format!(
                    "{name}:{}:1: error: not a record of `gcnsmt verify --format json`",
                    i + 1
                ))
            }
        }
    }
    let (line, s) = summary.ok_or_else(|| {
        format!(
            "{name}: error: no summary line (the shard did not finish, or this is not its output)"
        )
    })?;
    let shard = s.get("shard").and_then(Value::as_str).ok_or_else(|| {
        format!("{name}:{line}:1: error: not the output of `gcnsmt verify --shard K/N --format json` (no \"shard\" in its summary)")
    })?;
    let sh =
        crate::shard::Shard::parse(shard).map_err(|e| format!("{name}:{line}:1: error: {e}"))?;
    Ok(ShardOut {
        k: sh.k,
        n: sh.n,
        plan: s
            .get("plan")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        time_ms: s.get("time_ms").and_then(Value::as_f64).unwrap_or(0.0),
        plan_checks: s.get("plan_checks").and_then(Value::as_u64).unwrap_or(0),
        records,
        summary: s,
    })
}

/// A shard's records must be the ones its summary counts: a shard that lost (or gained)
/// verdict lines would otherwise merge into a smaller run that looks whole (issue 33).
fn check_counts(name: &str, s: &ShardOut) -> Result<(), String> {
    let got = summary_of(&s.records);
    let counts = [
        ("proved", got.proved),
        ("refuted", got.refuted),
        ("refuted_expected", got.refuted_expected),
        ("unknown", got.unknown),
        ("inapplicable", got.inapplicable),
        ("errors", got.errors),
        ("errors_expected", got.errors_expected),
        ("mismatches", got.mismatches),
    ];
    for (key, n) in counts {
        let said = s.summary.get(key).and_then(Value::as_u64);
        if said != Some(n as u64) {
            return Err(format!(
                "{name}: error: shard {}/{} has records for {n} `{key}` but its summary says {}: records were lost or added",
                s.k,
                s.n,
                said.map_or("nothing".to_string(), |v| v.to_string())
            ));
        }
    }
    Ok(())
}

/// Together the shards must report each of the plan's checks once (its position `seq`).
fn check_plan(shards: &[ShardOut]) -> Result<(), String> {
    let n = shards.first().map_or(0, |s| s.plan_checks);
    let mut seen: HashSet<u64> = HashSet::new();
    for s in shards {
        for seq in s
            .records
            .iter()
            .filter_map(|r| r.get("seq").and_then(Value::as_u64))
        {
            if seq >= n || !seen.insert(seq) {
                return Err(format!(
                    "error: shard {}/{} reports check {seq} of a plan of {n} checks {}",
                    s.k,
                    s.n,
                    if seq >= n { "(out of range)" } else { "twice" }
                ));
            }
        }
    }
    if seen.len() as u64 != n {
        let first: Vec<String> = (0..n)
            .filter(|k| !seen.contains(k))
            .take(5)
            .map(|k| k.to_string())
            .collect();
        return Err(format!(
            "error: the shards report {} of the plan's {n} checks (missing: {}{})",
            seen.len(),
            first.join(", "),
            if n - seen.len() as u64 > 5 {
                ", ..."
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// The shards in order 1..N, or why they are not the shards of one run.
fn check_complete(mut shards: Vec<(String, ShardOut)>) -> Result<Vec<ShardOut>, String> {
    shards.sort_by_key(|(_, s)| s.k);
    let (first_name, first) = &shards[0];
    let (n, plan) = (first.n, first.plan.clone());
    let mut seen = HashSet::new();
    for (name, s) in &shards {
        check_counts(name, s)?;
        if s.n != n || s.plan != plan || s.plan_checks != first.plan_checks {
            return Err(format!(
                "{name}: error: shard {}/{} is of another run than {first_name} (shard {}/{n}): other rules, targets, settings or build",
                s.k, s.n, first.k
            ));
        }
        if !seen.insert(s.k) {
            return Err(format!("{name}: error: shard {}/{n} given twice", s.k));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("error: missing shard(s) {}", missing.join(", ")));
    }
    let shards: Vec<ShardOut> = shards.into_iter().map(|(_, s)| s).collect();
    check_plan(&shards)?;
    Ok(shards)
}

/// The merged records in unsharded order, `seq` removed.
fn merged_records(shards: &[ShardOut]) -> Vec<Value> {
    let mut file_errors: Vec<Value> = Vec::new();
    let mut by_seq: BTreeMap<u64, Value> = BTreeMap::new();
    for s in shards {
        for r in &s.records {
            match r.get("seq").and_then(Value::as_u64) {
                Some(seq) => {
                    by_seq.insert(seq, r.clone());
                }
                // Every shard reports the run's file errors: keep one of each.
                None if !file_errors.contains(r) => file_errors.push(r.clone()),
                None => {}
            }
        }
    }
    let mut errored: HashSet<String> = HashSet::new();
    let mut out = file_errors;
    for (_, mut r) in by_seq {
        // As the unsharded run: a rule's input error once, on its first check.
        if r["type"] == "error" {
            let rule = r["rule"].as_str().unwrap_or("").to_string();
            if !errored.insert(rule) {
                continue;
            }
        }
        if let Some(o) = r.as_object_mut() {
            o.remove("seq");
        }
        out.push(r);
    }
    out
}

/// The counts [`Summary::of`] gives for the records these JSON objects print.
fn summary_of(records: &[Value]) -> Summary {
    let mut s = Summary::default();
    for r in records {
        let expected = r["expected"].as_str();
        if r["type"] == "error" {
            if r["expected"] == true {
                s.errors_expected += 1;
            } else {
                s.errors += 1;
            }
            continue;
        }
        let verdict = r["verdict"].as_str().unwrap_or("error");
        match verdict {
            "proved" => s.proved += 1,
            "refuted" => {
                s.refuted += 1;
                s.refuted_expected += usize::from(expected == Some("refuted"));
            }
            "unknown" => s.unknown += 1,
            "inapplicable" => s.inapplicable += 1,
            _ => s.errors += 1,
        }
        if expected.is_some() && r["as_expected"] == false && verdict != "unknown" {
            s.mismatches += 1;
        }
    }
    s
}

/// `gcnsmt merge`.
pub fn merge(files: &[PathBuf], format: MergeFormat) -> ExitStatus {
    let mut shards = Vec::new();
    for f in files {
        match read_shard(f) {
            Ok(s) => shards.push((f.display().to_string(), s)),
            Err(e) => {
                eprintln!("{e}");
                return ExitStatus::InputError;
            }
        }
    }
    if shards.is_empty() {
        return super::usage_error("give the JSON Lines files of every shard");
    }
    let shards = match check_complete(shards) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitStatus::InputError;
        }
    };
    let records = merged_records(&shards);
    let s = summary_of(&records);
    // The shards ran side by side: the run took as long as the longest.
    let ms = shards.iter().map(|x| x.time_ms).fold(0.0, f64::max);
    let elapsed = Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    let mut out = String::new();
    match format {
        MergeFormat::Json => {
            for r in &records {
                out.push_str(&r.to_string());
                out.push('\n');
            }
            out.push_str(&crate::output::summary_json(&s, elapsed).to_string());
            out.push('\n');
        }
        MergeFormat::Text => {
            out = format!(
                "summary: {} proved, {} refuted ({} as expected), {} unknown, {} inapplicable, {} errors ({} as expected), {} expectation mismatches  [{:.1?}]\n",
                s.proved, s.refuted, s.refuted_expected, s.unknown, s.inapplicable, s.errors,
                s.errors_expected, s.mismatches, elapsed
            );
        }
    }
    crate::exit::write_stdout(&out);
    s.exit_code()
}
