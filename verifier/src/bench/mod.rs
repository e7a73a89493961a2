//! `gcnsmt bench`: corpus timings (a benchmark, not a test). Runs the rules of the given paths
//! on every target they apply to, several ways, and reports wall time, the median and 99th
//! percentile per rule x target, how many verdicts egg settled without a refinement query,
//! the CPU time of the run (all threads; steadier than wall time on a shared machine) and the
//! process's peak resident memory. With `--plots DIR`, the growth curves instead
//! ([`growth`]).

pub mod families;
pub mod goals;
mod growth;
mod plot;

use crate::check::Options;
use crate::exit::ExitStatus;
use crate::record::{Record, Summary};
use crate::rules::Rule;
use crate::run::{run_rules, run_rules_cached};
use std::time::{Duration, Instant};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Peak resident set size of this process in MiB (`VmHWM` in /proc/self/status), if known.
pub fn peak_rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// CPU time (user + system, all threads) this process has used so far, if known
/// (`/proc/self/stat`, in clock ticks of 1/100 s).
pub fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

struct Row {
    name: &'static str,
    wall: Duration,
    cpu: Option<Duration>,
    median: Duration,
    p99: Duration,
    egg_settled: usize,
    summary: Summary,
}

fn measure(name: &'static str, f: impl FnOnce() -> Vec<Record>) -> Row {
    let start = Instant::now();
    let cpu0 = cpu_time();
    let records = f();
    let wall = start.elapsed();
    let cpu = cpu_time().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
    let mut times: Vec<Duration> = records
        .iter()
        .filter_map(|r| match r {
            Record::Verdict { outcome, .. } => Some(outcome.time),
            _ => None,
        })
        .collect();
    times.sort();
    let egg_settled = records
        .iter()
        .filter(|r| matches!(r, Record::Verdict { outcome, .. } if outcome.note.is_some_and(|n| n.contains("egg"))))
        .count();
    Row {
        name,
        wall,
        cpu,
        median: percentile(&times, 0.5),
        p99: percentile(&times, 0.99),
        egg_settled,
        summary: Summary::of(&records),
    }
}

/// Run the benchmark and print a table. Returns the status (an input error if any run had
/// errors).
pub fn bench(rules: &[Rule], timeout: Duration) -> ExitStatus {
    let opts = Options {
        timeout,
        ..Default::default()
    };
    let no_egg = Options {
        egg: false,
        ..opts.clone()
    };
    let dir = std::env::temp_dir().join(format!("gcnsmt-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = match crate::cache::Cache::open(&dir) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: cache directory: {e}");
            return ExitStatus::InputError;
        }
    };
    let rows = vec![
        measure("egg on, no cache", || run_rules(rules, None, &opts)),
        measure("egg off, no cache", || run_rules(rules, None, &no_egg)),
        measure("cache cold (fill)", || {
            run_rules_cached(rules, None, &opts, Some(&cache))
        }),
        measure("cache warm", || {
            run_rules_cached(rules, None, &opts, Some(&cache))
        }),
    ];
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{} rules; {} rule x target checks per run; timeout {:?} per query",
        rules.len(),
        rows[0].summary.proved
            + rows[0].summary.refuted
            + rows[0].summary.inapplicable
            + rows[0].summary.unknown,
        timeout
    );
    println!(
        "{:<20} {:>9} {:>9} {:>9} {:>9} {:>5} {:>7} {:>7}",
        "run", "wall", "cpu", "median", "p99", "egg", "unknown", "errors"
    );
    let mut code = ExitStatus::Proved;
    for r in &rows {
        println!(
            "{:<20} {:>8.2}s {:>9} {:>7.1}ms {:>7.1}ms {:>5} {:>7} {:>7}",
            r.name,
            r.wall.as_secs_f64(),
            r.cpu
                .map_or("?".to_string(), |c| format!("{:.2}s", c.as_secs_f64())),
            r.median.as_secs_f64() * 1e3,
            r.p99.as_secs_f64() * 1e3,
            r.egg_settled,
            r.summary.unknown,
            r.summary.errors
        );
        if r.summary.errors > 0 {
            code = ExitStatus::InputError;
        }
    }
    match peak_rss_mib() {
        Some(m) => println!("peak RSS {m:.0} MiB"),
        None => println!("peak RSS unknown"),
    }
    code
}

/// `gcnsmt bench --plots DIR`: measure the growth curves, print them, and write
/// `DIR/growth.svg` and `DIR/growth.json`. Exit 2 when a generated rule fails or DIR cannot
/// be written.
pub fn growth_plots(rules: &[Rule], timeout: Duration, dir: &std::path::Path) -> ExitStatus {
    let series = match growth::measure(rules, timeout) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: growth family: {e}");
            return ExitStatus::InputError;
        }
    };
    print!("{}", growth::table(&series));
    let caption = format!(
        "gcnsmt bench --plots: cost growth as ratios in one run ({} s per query; {} corpus rules)",
        timeout.as_secs_f64(),
        rules.len()
    );
    let written = std::fs::create_dir_all(dir)
        .map_err(|e| e.to_string())
        .and_then(|()| plot::svg(&dir.join("growth.svg"), &caption, &series))
        .and_then(|()| {
            let text =
                serde_json::to_string_pretty(&growth::json(&series)).map_err(|e| e.to_string())?;
            std::fs::write(dir.join("growth.json"), text + "\n").map_err(|e| e.to_string())
        });
    match written {
        Ok(()) => {
            println!("wrote {0}/growth.svg and {0}/growth.json", dir.display());
            ExitStatus::Proved
        }
        Err(e) => {
            eprintln!("error: {}: {e}", dir.display());
            ExitStatus::InputError
        }
    }
}
