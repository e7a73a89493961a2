//! `docs/atomics.md` is generated (`gcnsmt atomics` output after a four-line header): this test
//! regenerates it and compares. Under `GCNSMT_SLOW=1` the whole table is regenerated (about
//! 3 minutes on two shared cores); by default a sample of ops, whose rows must equal theirs in
//! the document.
//!
//! What is compared: every table row without the time column, which verdict each
//! counterexample line reports (`OP PROPERTY: VERDICT`; the witness values depend on which
//! queries ran before in the solver, so a partial run finds others), the returned-values lines
//! without their times, the cross-lane table, and (whole run only) the summary without the
//! solver time. A cell `unknown` because its query timed out (in either text) may be `proved`
//! in the other: the limit is wall-clock, and CI's machine once timed out on a lemma this
//! machine proves in 19 s (`ds_add_rtn_f32 opt-reassoc`). To regenerate after a change of verdicts:
//! `(head -4 docs/atomics.md; cargo run --release -- atomics) > /tmp/a.md && mv /tmp/a.md docs/atomics.md`.

use std::collections::{BTreeMap, BTreeSet};

/// The parts of a `gcnsmt atomics` text that do not depend on timing.
#[derive(Debug, Default, PartialEq)]
struct Table {
    /// Verdict table: op -> its cells, without the last (time) cell.
    rows: BTreeMap<String, Vec<String>>,
    /// `OP PROPERTY: VERDICT` of each counterexample or reason line.
    witnesses: BTreeSet<String>,
    /// Returned-values lines with `(N ms)` removed.
    returns: Vec<String>,
    /// The summary line up to `; solver time`.
    summary: Option<String>,
    /// Cross-lane table rows, as printed.
    crosslane: Vec<String>,
    /// Verdict table header: the property name of each column.
    header: Vec<String>,
    /// `OP PROPERTY` of each query that ran out of time: its verdict depends on the machine.
    timeouts: BTreeSet<String>,
}

fn cells(line: &str) -> Vec<String> {
    line.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

fn without_ms(line: &str) -> String {
    let re = regex::Regex::new(r" \(\d+ ms\)").unwrap();
    re.replace_all(line, "").into_owned()
}

fn parse(text: &str) -> Table {
    let mut t = Table::default();
    let witness = regex::Regex::new(r"^(\S+ \S+): (proved|refuted|unknown|n/a)\b").unwrap();
    let mut in_crosslane = false;
    for line in text.lines() {
        if line.starts_with("Cross-lane and counter DS instructions") {
            in_crosslane = true;
        } else if in_crosslane {
            if line.starts_with("| ") && !line.starts_with("| op |") {
                t.crosslane.push(line.to_string());
            }
        } else if line.starts_with("| op |") {
            t.header = cells(line);
        } else if line.starts_with("| ") {
            let mut c = cells(line);
            c.pop();
            t.rows.insert(c[0].clone(), c);
        } else if let Some(m) = witness.captures(line) {
            t.witnesses.insert(format!("{}: {}", &m[1], &m[2]));
            if &m[2] == "unknown" && line.ends_with("timeout") {
                t.timeouts.insert(m[1].to_string());
            }
        } else if line.starts_with("- ") {
            t.returns.push(without_ms(line));
        } else if let Some(s) = line.strip_prefix("summary: ") {
            t.summary = Some(s.split("; solver time").next().unwrap_or(s).to_string());
        }
    }
    t
}

fn document() -> Table {
    let path = gcnsmt_testkit::workspace_path("docs/atomics.md");
    let text = std::fs::read_to_string(&path).expect("docs/atomics.md");
    let doc = parse(&text);
    assert!(
        doc.rows.len() > 100,
        "few rows read from {}",
        path.display()
    );
    doc
}

fn atomics(args: &[&str]) -> Table {
    let mut all = vec!["atomics"];
    all.extend_from_slice(args);
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &[]);
    r.assert_no_panic();
    assert_eq!(r.code, 0, "{}", r.context());
    parse(&r.stdout)
}

/// Whether a verdict cell of `op` may differ between two runs: a query that timed out in
/// either run (the lemma behind a cell near the time limit is proved on a fast machine and
/// `unknown` on a loaded one; it is never proved in one run and refuted in another).
fn timing_dependent(now: &Table, doc: &Table, op: &str, column: usize) -> bool {
    let Some(property) = doc.header.get(column) else {
        return false;
    };
    let key = format!("{op} {property}");
    now.timeouts.contains(&key) || doc.timeouts.contains(&key)
}

/// Rows equal cell by cell, except a cell that is `unknown` by a timeout on one side.
fn assert_rows_match(now: &Table, doc: &Table) {
    for (op, row) in &now.rows {
        let doc_row = doc
            .rows
            .get(op)
            .unwrap_or_else(|| panic!("{op}: {REGENERATE}"));
        assert_eq!(row.len(), doc_row.len(), "{op}: {REGENERATE}");
        for (j, (a, b)) in row.iter().zip(doc_row).enumerate() {
            let timed_out = (a == "unknown" || b == "unknown") && timing_dependent(now, doc, op, j);
            assert!(
                a == b || timed_out,
                "{op} column {j}: now {a}, document {b}: {REGENERATE}"
            );
        }
    }
}

/// Witness lines equal, without those of queries that timed out on either side.
fn comparable_witnesses(t: &Table, now: &Table, doc: &Table) -> BTreeSet<String> {
    t.witnesses
        .iter()
        .filter(|w| {
            let key = w.rsplit_once(':').map_or(w.as_str(), |(k, _)| k);
            !now.timeouts.contains(key) && !doc.timeouts.contains(key)
        })
        .cloned()
        .collect()
}

/// The summary with `proved` and `unknown` counted together: a timeout moves a verdict
/// between them (the unknown lines that are not timeouts are compared as witnesses).
fn merge_timeouts(summary: &str) -> String {
    let re = regex::Regex::new(r"(\d+) verdicts proved, (\d+) refuted, (\d+) unknown").unwrap();
    re.replace(summary, |c: &regex::Captures| {
        let n = |i: usize| c[i].parse::<u64>().unwrap();
        format!(
            "{} verdicts proved or unknown, {} refuted",
            n(1) + n(3),
            n(2)
        )
    })
    .into_owned()
}

const REGENERATE: &str = "docs/atomics.md is stale; regenerate it (see this test's header)";

#[test]
fn docs_atomics_md_is_the_generated_table() {
    let doc = document();
    if gcnsmt_testkit::slow() {
        let now = atomics(&[]);
        assert_eq!(
            now.rows.keys().collect::<Vec<_>>(),
            doc.rows.keys().collect::<Vec<_>>(),
            "{REGENERATE}"
        );
        assert_rows_match(&now, &doc);
        assert_eq!(
            comparable_witnesses(&now, &now, &doc),
            comparable_witnesses(&doc, &now, &doc),
            "{REGENERATE}"
        );
        assert_eq!(now.returns, doc.returns, "{REGENERATE}");
        assert_eq!(
            now.summary.as_deref().map(merge_timeouts),
            doc.summary.as_deref().map(merge_timeouts),
            "{REGENERATE}"
        );
        assert_eq!(now.crosslane, doc.crosslane, "{REGENERATE}");
        return;
    }
    // A proved-everywhere op, a refuted pair with counterexamples, and a buffer op.
    for op in ["ds_add_rtn_u32", "_rsub", "buffer_atomic_smax_x2"] {
        let now = atomics(&["--op", op, "--brute", "0"]);
        assert!(!now.rows.is_empty(), "--op {op} matched nothing");
        assert_rows_match(&now, &doc);
        let doc_witnesses: BTreeSet<String> = comparable_witnesses(&doc, &now, &doc)
            .into_iter()
            .filter(|w| now.rows.contains_key(w.split(' ').next().unwrap()))
            .collect();
        assert_eq!(
            comparable_witnesses(&now, &now, &doc),
            doc_witnesses,
            "--op {op}: {REGENERATE}"
        );
    }
}

/// The comparison itself can fail: a changed verdict or a lost counterexample line is seen.
#[test]
fn a_changed_verdict_is_a_difference() {
    let text = "| op | targets | a | b | t |\n|---|---|---|---|---|\n\
                | ds_x | gfx900 | proved | refuted | 5 ms |\n\n\
                ds_x b: refuted: wave32 EXEC=0x3 lane0=0x1\n";
    let a = parse(text);
    assert_eq!(a.rows["ds_x"], ["ds_x", "gfx900", "proved", "refuted"]);
    assert!(a.witnesses.contains("ds_x b: refuted"));
    let timing = parse(&text.replace("5 ms", "70 ms").replace("0x1", "0x2"));
    assert_eq!(a, timing, "times and witness values are not compared");
    let changed = parse(&text.replace("| proved | refuted", "| proved | proved"));
    assert_ne!(a.rows, changed.rows);
    // A timeout on one side excuses an `unknown` cell, and only that one.
    let slow = parse(
        &text
            .replace("| proved | refuted", "| unknown | refuted")
            .replace(
                "ds_x b: refuted: wave32 EXEC=0x3 lane0=0x1",
                "ds_x b: refuted: wave32 EXEC=0x3 lane0=0x1\nds_x a: unknown: lemma comm: timeout",
            ),
    );
    assert!(slow.timeouts.contains("ds_x a"));
    assert_rows_match(&slow, &a);
    assert_eq!(
        comparable_witnesses(&slow, &slow, &a),
        comparable_witnesses(&a, &slow, &a)
    );
    let refuted = parse(&text.replace("| proved | refuted", "| refuted | refuted"));
    let caught = std::panic::catch_unwind(|| assert_rows_match(&refuted, &a));
    assert!(caught.is_err(), "proved -> refuted is a difference");
    assert_eq!(
        merge_timeouts("1 ops; 3 verdicts proved, 2 refuted, 1 unknown, 0 n/a"),
        merge_timeouts("1 ops; 4 verdicts proved, 2 refuted, 0 unknown, 0 n/a")
    );
}
