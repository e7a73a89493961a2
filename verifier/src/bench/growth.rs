//! `gcnsmt bench --plots DIR`: how the cost grows. Each curve is a ratio against a fixed
//! baseline measured in the same run (so machines and loads compare): per-check time of a
//! generated family ([`super::families`]) over its first point's time, against the number of
//! memory instructions, of lanes and of atomics on one address; corpus wall time over that of
//! its first eighth; and llvm-mc-22's time over gcnsmt's on the same words. Written as
//! `growth.svg` ([`super::plot`]) and `growth.json` into DIR, and printed as a table.

use super::families::{chain, read2_merge_lanes, reordered_stores};
use crate::check::{check, Options};
use crate::rules::{parse_rules, Rule};
use crate::run::run_rules;
use gcnsmt_lifter::speed::{mixed_words, time_decode, time_decode_print, time_llvm_mc};
use gcnsmt_semantics::target::Target;
use std::time::{Duration, Instant};

/// One measured point: the parameter, the time it took, the ratio plotted, and the verdict.
#[derive(Clone, Debug)]
pub struct Point {
    /// The parameter (instructions, lanes, atomics, rules, words).
    pub x: f64,
    /// Seconds of the measured run (for the decoder: gcnsmt's decode plus print).
    pub seconds: f64,
    /// What is plotted: time over the baseline's, or llvm-mc's time over gcnsmt's.
    pub ratio: f64,
    /// `proved`, `unknown` (the timeout), ... ; for the corpus and decoder `ok`.
    pub verdict: String,
}

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    /// Panel title.
    pub title: String,
    /// The x axis.
    pub x_label: &'static str,
    /// The y axis (what the ratio is).
    pub y_label: &'static str,
    /// Points in x order; a family stops after its first point that is not proved.
    pub points: Vec<Point>,
}

/// Time one generated rule on gfx900 (egg off: the curves are of the solver queries).
fn time_rule(text: &str, opts: &Options) -> Result<(Duration, String), String> {
    let rules = parse_rules("<generated>", text).map_err(|e| e.to_string())?;
    let o = check(&rules[0], Target::Gfx900, opts).map_err(|e| e.to_string())?;
    Ok((o.time, o.verdict.name().to_string()))
}

/// A family's curve: each x in turn until one is not proved (the next would only time out
/// too); ratios against the first point.
fn family(
    title: &str,
    x_label: &'static str,
    xs: &[usize],
    make: impl Fn(usize) -> String,
    opts: &Options,
) -> Result<Series, String> {
    let mut points: Vec<Point> = Vec::new();
    for &x in xs {
        let (t, verdict) = time_rule(&make(x), opts)?;
        let base = points.first().map_or(t.as_secs_f64(), |p| p.seconds);
        let stop = verdict != "proved";
        points.push(Point {
            x: x as f64,
            seconds: t.as_secs_f64(),
            ratio: t.as_secs_f64() / base.max(1e-9),
            verdict,
        });
        if stop {
            break;
        }
    }
    Ok(Series {
        title: title.to_string(),
        x_label,
        y_label: "time / time of the first point",
        points,
    })
}

/// Corpus wall time for the first 1/8, 1/4, 1/2 and all of `rules` (default options, egg on,
/// both cores), over the first eighth's.
fn corpus(rules: &[Rule], opts: &Options) -> Series {
    let mut points: Vec<Point> = Vec::new();
    for k in [8usize, 4, 2, 1] {
        let part = &rules[..rules.len().div_ceil(k)];
        let start = Instant::now();
        let records = run_rules(part, None, opts);
        let t = start.elapsed().as_secs_f64();
        let base = points.first().map_or(t, |p| p.seconds);
        let unknown = crate::record::Summary::of(&records).unknown;
        points.push(Point {
            x: part.len() as f64,
            seconds: t,
            ratio: t / base.max(1e-9),
            verdict: format!("{} checks, {unknown} unknown", records.len()),
        });
    }
    Series {
        title: "corpus size".into(),
        x_label: "rules",
        y_label: "wall time / wall time of 1/8",
        points,
    }
}

/// llvm-mc-22's time over gcnsmt's decode plus print on the same words (the baseline is
/// llvm-mc, run in the same process run), for growing word counts. `None` without llvm-mc.
fn decoder() -> Result<Series, String> {
    let mut points = Vec::new();
    for n in [1_000usize, 10_000, 100_000, 400_000] {
        let words = mixed_words(n);
        let (ours, _) = time_decode_print(Target::Gfx900, &words, 3);
        let alone = time_decode(Target::Gfx900, &words, 3);
        let theirs = time_llvm_mc(Target::Gfx900, &words)?;
        points.push(Point {
            x: n as f64,
            seconds: ours.as_secs_f64(),
            ratio: theirs.as_secs_f64() / ours.as_secs_f64().max(1e-9),
            verdict: format!(
                "llvm-mc {:.3} s; decode alone {:.0} MB/s",
                theirs.as_secs_f64(),
                8.0 * n as f64 / alone.as_secs_f64().max(1e-9) / 1e6
            ),
        });
    }
    Ok(Series {
        title: "decoder vs llvm-mc-22 (gfx900)".into(),
        x_label: "words",
        y_label: "llvm-mc time / gcnsmt decode+print time",
        points,
    })
}

/// Run every curve. `rules`: the corpus (for its curve); `timeout` per solver query.
///
/// Errors: a generated rule that does not parse or check (a bug here), as text.
pub fn measure(rules: &[Rule], timeout: Duration) -> Result<Vec<Series>, String> {
    let opts = Options {
        timeout,
        egg: false,
        ..Default::default()
    };
    let mut all = vec![
        family(
            "memory instructions (reordered ds_write_b32)",
            "instructions per side",
            &[1, 2, 4, 8, 12, 16],
            reordered_stores,
            &opts,
        )?,
        family(
            "lanes (ds_read_b32 x2 -> ds_read2_b32)",
            "lanes",
            &[1, 2, 3, 4, 5, 6, 7, 8],
            read2_merge_lanes,
            &opts,
        )?,
        family(
            "atomics on one address (reordered ds_add_u32)",
            "atomics per side",
            &[1, 2, 3, 4, 5, 6],
            chain,
            &opts,
        )?,
    ];
    let corpus_opts = Options {
        timeout,
        ..Default::default()
    };
    all.push(corpus(rules, &corpus_opts));
    match decoder() {
        Ok(s) => all.push(s),
        Err(e) => eprintln!("note: no decoder curve: {e}"),
    }
    Ok(all)
}

/// The curves as text, one line per point.
pub fn table(series: &[Series]) -> String {
    let mut s = String::new();
    for c in series {
        s.push_str(&format!("{} ({} -> {})\n", c.title, c.x_label, c.y_label));
        for p in &c.points {
            s.push_str(&format!(
                "  {:>8} {:>10.3} s {:>9.2}x  {}\n",
                p.x, p.seconds, p.ratio, p.verdict
            ));
        }
    }
    s
}

/// The curves as JSON (the data behind the plot).
pub fn json(series: &[Series]) -> serde_json::Value {
    serde_json::Value::Array(
        series
            .iter()
            .map(|c| {
                serde_json::json!({
                    "title": c.title, "x": c.x_label, "y": c.y_label,
                    "points": c.points.iter().map(|p| serde_json::json!({
                        "x": p.x, "seconds": p.seconds, "ratio": p.ratio, "verdict": p.verdict,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}
