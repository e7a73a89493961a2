//! `gcnsmt bench --families [NAMES]` (a benchmark, not a test): each generated family of
//! [`super::families`] at its sizes in order, one line per member and a line per family
//! against the goal issue 18 set for it ("Memory encoding").

use super::families::{families, Family};
use crate::check::Options;
use crate::record::Record;
use crate::rules::parse_rules;
use crate::run::run_rules;
use std::time::Duration;

/// One member's result.
pub struct Point {
    /// The size.
    pub n: usize,
    /// The verdict's name (`proved`, `refuted`, `unknown`, ...).
    pub verdict: &'static str,
    /// Wall time of the check.
    pub time: Duration,
    /// How the verdict was reached when not by the refinement query (egg, identical sides).
    pub note: Option<&'static str>,
}

/// Run `f` at its sizes in order until a member is not decided as expected (or every size
/// is done). Errors: a generated rule does not parse (a bug in the generator).
pub fn run_family(f: &Family, opts: &Options) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    for &n in f.sizes {
        let text = (f.rule)(n);
        let rules = parse_rules(f.name, &text).map_err(|e| e.to_string())?;
        let records = run_rules(&rules, None, opts);
        let Some(Record::Verdict { outcome, .. }) = records.into_iter().next() else {
            return Err(format!("{}: size {n} gave no verdict", f.name));
        };
        let verdict = outcome.verdict.name();
        points.push(Point {
            n,
            verdict,
            time: outcome.time,
            note: outcome.note,
        });
        if verdict != f.expect {
            break;
        }
    }
    Ok(points)
}

/// `gcnsmt bench --families [NAMES]`: run the named families (comma-separated; `all` for
/// every one) and print one line per member and a line per family against its goal.
pub fn bench(select: &str, timeout: Duration) -> crate::exit::ExitStatus {
    use crate::exit::ExitStatus;
    let all = families();
    let chosen: Vec<&Family> = if select == "all" {
        all.iter().collect()
    } else {
        let names: Vec<&str> = select.split(',').map(str::trim).collect();
        if let Some(bad) = names.iter().find(|n| !all.iter().any(|f| f.name == **n)) {
            let known: Vec<&str> = all.iter().map(|f| f.name).collect();
            eprintln!(
                "error: --families: no family `{bad}` (known: {})",
                known.join(", ")
            );
            return ExitStatus::InputError;
        }
        all.iter().filter(|f| names.contains(&f.name)).collect()
    };
    let opts = Options {
        timeout,
        ..Default::default()
    };
    println!(
        "memory encoding {:?}; timeout {timeout:?} per query",
        crate::smt::encoding()
    );
    println!(
        "{:<14} {:>5} {:>12} {:>10}",
        "family", "n", "verdict", "time"
    );
    for f in chosen {
        let points = match run_family(f, &opts) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitStatus::InputError;
            }
        };
        for p in &points {
            let how = match p.note {
                Some(n) if n.contains("egg") => "  (egg, no refinement query)",
                Some(_) => "  (no refinement query)",
                None => "",
            };
            println!(
                "{:<14} {:>5} {:>12} {:>9.3}s{how}",
                f.name,
                p.n,
                p.verdict,
                p.time.as_secs_f64()
            );
        }
        let (n, limit) = f.goal;
        let met = points
            .iter()
            .any(|p| p.n == n && p.verdict == f.expect && p.time <= limit);
        println!(
            "{:<14} goal: n = {n} {} within {limit:?}: {}  ({})",
            f.name,
            f.expect,
            if met { "met" } else { "NOT met" },
            f.what
        );
    }
    ExitStatus::Proved
}
