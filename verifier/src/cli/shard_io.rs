//! What `verify --list` and `verify --shard K/N` print: the list of checks, and JSON Lines
//! that `gcnsmt merge` can put back together (each record's position in the whole run, the
//! shard and a hash of the whole run's check list in the summary).

use super::verify::Format;
use crate::exit::ExitStatus;
use crate::record::{Record, Summary};
use crate::rules::Rule;
use crate::run::Job;
use crate::shard::Shard;
use serde_json::json;
use std::time::Duration;

/// `gcnsmt verify --list`: one line per check (of `shard` if given), in run order. Text:
/// `RULE TARGET KEY`; JSON Lines: `{"type":"check","seq","rule","file","line","target","key"}`
/// (`seq`: position in the unsharded run). SARIF has no such list: a usage error.
pub(super) fn list(
    rules: &[Rule],
    jobs: &[Job],
    shard: Option<Shard>,
    format: Format,
) -> ExitStatus {
    let mut out = String::new();
    for j in jobs.iter().filter(|j| shard.is_none_or(|s| s.owns(&j.key))) {
        let r = &rules[j.rule];
        match format {
            Format::Json => {
                let v = json!({"type": "check", "seq": j.seq, "rule": r.name, "file": r.file,
                    "line": r.loc.line, "target": j.target.name(), "key": j.key});
                out.push_str(&v.to_string());
            }
            Format::Text => out.push_str(&format!("{} {} {}", r.name, j.target, j.key)),
            Format::Sarif => return super::usage_error("--list prints text or json, not sarif"),
        }
        out.push('\n');
    }
    crate::exit::write_stdout(&out);
    ExitStatus::Proved
}

/// A sharded run: which shard, and the whole run's check list (its length and a hash of the
/// keys in order), so that `merge` can tell shards of one run from shards of different ones.
pub(super) struct Plan {
    shard: Shard,
    checks: usize,
    hash: String,
}

impl Plan {
    /// The plan of a run with `--shard`; `None` without.
    pub fn of(jobs: &[Job], shard: Option<Shard>) -> Option<Plan> {
        let shard = shard?;
        let mut h = blake3::Hasher::new();
        for j in jobs {
            h.update(j.key.as_bytes());
            h.update(b"\n");
        }
        Some(Plan {
            shard,
            checks: jobs.len(),
            hash: h.finalize().to_hex().to_string(),
        })
    }

    /// JSON Lines of a shard: each record with `"seq"` (its check's position in the whole
    /// run; absent for file errors, which every shard reports), then the summary with
    /// `"shard":"K/N"`, `"plan_checks"` and `"plan"` (hex BLAKE3 of the run's keys).
    pub fn json_lines(
        &self,
        records: &[Record],
        seqs: &[Option<usize>],
        s: &Summary,
        elapsed: Duration,
    ) -> String {
        let mut out = String::new();
        for (i, r) in records.iter().enumerate() {
            let mut v = crate::output::record_json(r);
            if let Some(seq) = seqs.get(i).copied().flatten() {
                v["seq"] = json!(seq);
            }
            out.push_str(&v.to_string());
            out.push('\n');
        }
        let mut sum = crate::output::summary_json(s, elapsed);
        sum["shard"] = json!(self.shard.to_string());
        sum["plan_checks"] = json!(self.checks);
        sum["plan"] = json!(self.hash);
        out.push_str(&sum.to_string());
        out.push('\n');
        out
    }
}
