//! Generated rule families for `gcnsmt bench --families` (a benchmark, not a test): shapes
//! whose solver cost grows with one size parameter `n`, so the growth of the memory encoding's
//! cost is visible (issue 18, "Memory encoding"). Each family gives the rule text for one `n`
//! (`gcnsmt verify` reads the same text) and the verdict a person derives from the rewrite:
//! sums commute, disjoint accesses reorder, float adds do not reassociate.

use crate::check::Options;
use crate::record::Record;
use crate::rules::parse_rules;
use crate::run::run_rules;
use std::time::Duration;

/// One family of generated rules.
pub struct Family {
    /// Short name (`--families NAME`).
    pub name: &'static str,
    /// What the rules check, for the table.
    pub what: &'static str,
    /// The sizes to run, in order; a run stops at the first size that is not decided.
    pub sizes: &'static [usize],
    /// The goal: the size to reach and the time to decide it within.
    pub goal: (usize, Duration),
    /// The verdict every member must get (`proved` or `refuted`).
    pub expect: &'static str,
    /// The rule text for size `n`.
    pub rule: fn(usize) -> String,
}

/// The families, in the order the issue lists its targets.
pub fn families() -> Vec<Family> {
    vec![
        Family {
            name: "chain",
            what: "n ds_add_u32 on one address, one lane, in reverse order",
            sizes: &[1, 2, 3, 4, 6, 8, 12, 16, 24, 32],
            goal: (16, Duration::from_secs(1)),
            expect: "proved",
            rule: chain,
        },
        Family {
            name: "chain-dropped",
            what: "n ds_add_u32 on one address against the first n-1 (refuted)",
            sizes: &[2, 3, 4, 6, 8, 12, 16, 24, 32],
            goal: (16, Duration::from_secs(1)),
            expect: "refuted",
            rule: chain_dropped,
        },
        Family {
            name: "lanes",
            what: "n lanes x 4 ds_add_u32 per lane (per-lane address), reverse order",
            sizes: &[1, 2, 3, 4, 6, 8],
            goal: (8, Duration::from_secs(10)),
            expect: "proved",
            rule: |n| lanes(n, 4),
        },
        Family {
            name: "block",
            what: "n ds_write_b32/ds_read_b32 at disjoint offsets of one base, n/5 reads hoisted",
            sizes: &[10, 20, 40, 60, 80, 100, 150, 200],
            goal: (100, Duration::from_secs(5)),
            expect: "proved",
            rule: block,
        },
        Family {
            name: "chain-f32",
            what: "n ds_add_f32 on one address, one lane, in reverse order (rounding: refuted)",
            sizes: &[2, 3, 4, 6, 8],
            goal: (4, Duration::from_secs(20)),
            expect: "refuted",
            rule: chain_f32,
        },
    ]
}

fn rule_text(
    name: String,
    body: &[String],
    target: &[String],
    extra: &str,
    expect: &str,
) -> String {
    format!(
        "Name: {name}\nTargets: gfx900\n{extra}{}\n=>\n{}\nExpect: {expect}\n",
        body.join("\n"),
        target.join("\n")
    )
}

fn adds(op: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("  {op} %a, %x{i}")).collect()
}

/// `n` atomic adds of `%x0..` to `%a`; the target adds them in reverse order (modular sums
/// commute, so proved).
pub fn chain(n: usize) -> String {
    let s = adds("ds_add_u32", n);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    rule_text(format!("chain-{n}"), &s, &t, "", "proved")
}

/// [`chain`]'s source against its first `n - 1` adds: refuted by `%x{n-1} != 0`.
pub fn chain_dropped(n: usize) -> String {
    let s = adds("ds_add_u32", n);
    rule_text(format!("chain-dropped-{n}"), &s, &s[..n - 1], "", "refuted")
}

/// `lanes` lanes each adding `m` values to its own `%a` (lanes may share it), in reverse
/// order on the target: every serialization of every instruction gives the same sums.
pub fn lanes(lanes: usize, m: usize) -> String {
    let s = adds("ds_add_u32", m);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    let extra = format!("Lanes: {lanes}\n");
    rule_text(format!("lanes-{lanes}x{m}"), &s, &t, &extra, "proved")
}

/// `n` dword accesses at offsets `4 i` of `%a`, writes at even `i` and reads at odd `i`; the
/// target hoists every fifth access that is a read (`n / 5` of them, the scheduler's shape)
/// to the start of the block. The accesses are disjoint, so the order does not matter.
pub fn block(n: usize) -> String {
    let access = |i: usize| {
        if i.is_multiple_of(2) {
            format!("  ds_write_b32 %a, %x{i} offset:{}", 4 * i)
        } else {
            format!("  ds_read_b32 %y{i}, %a offset:{}", 4 * i)
        }
    };
    let s: Vec<String> = (0..n).map(access).collect();
    let moved: Vec<usize> = (0..n)
        .filter(|i| i % 2 == 1)
        .step_by(2)
        .take(n / 5)
        .collect();
    let mut t: Vec<String> = moved.iter().map(|&i| access(i)).collect();
    t.extend((0..n).filter(|i| !moved.contains(i)).map(access));
    rule_text(format!("block-{n}"), &s, &t, "", "proved")
}

/// `n` float atomic adds in reverse order: `(m + a) + b` and `(m + b) + a` round differently.
pub fn chain_f32(n: usize) -> String {
    let s = adds("ds_add_f32", n);
    let t: Vec<String> = s.iter().rev().cloned().collect();
    rule_text(format!("chain-f32-{n}"), &s, &t, "", "refuted")
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every generated member parses, and the block family moves n/5 accesses.
    #[test]
    fn members_parse() {
        for f in families() {
            for &n in f.sizes {
                let text = (f.rule)(n);
                let rules = parse_rules(f.name, &text).unwrap_or_else(|e| panic!("{text}\n{e}"));
                assert_eq!(rules.len(), 1, "{}", f.name);
            }
        }
        let b = block(100);
        let (src, tgt) = b.split_once("=>").expect("two sides");
        assert_eq!(src.matches("  ds_").count(), 100);
        assert_eq!(tgt.matches("  ds_").count(), 100);
        let moved = src
            .lines()
            .filter(|l| l.starts_with("  ds_"))
            .zip(tgt.lines().skip(1));
        assert!(moved.filter(|(a, b)| a != b).count() >= 20);
    }
}
