//! `docs/atomics.md` is generated (`gcnsmt atomics` output after a four-line header): this test
//! regenerates it and compares. Under `GCNSMT_SLOW=1` the whole table is regenerated (about
//! 3 minutes on two shared cores); by default a sample of ops, whose rows must equal theirs in
//! the document.
//!
//! What is compared: every table row without the time column, which verdict each
//! counterexample line reports (`OP PROPERTY: VERDICT`; the witness values depend on which
//! queries ran before in the solver, so a partial run finds others), the returned-values lines
//! without their times, the cross-lane table, and (whole run only) the summary without the
//! solver time. To regenerate after a change of verdicts:
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
        } else if line.starts_with("| ") && !line.starts_with("| op |") {
            let mut c = cells(line);
            c.pop();
            t.rows.insert(c[0].clone(), c);
        } else if let Some(m) = witness.captures(line) {
            t.witnesses.insert(format!("{}: {}", &m[1], &m[2]));
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

const REGENERATE: &str = "docs/atomics.md is stale; regenerate it (see this test's header)";

#[test]
fn docs_atomics_md_is_the_generated_table() {
    let doc = document();
    if gcnsmt_testkit::slow() {
        let now = atomics(&[]);
        assert_eq!(now.rows, doc.rows, "{REGENERATE}");
        assert_eq!(now.witnesses, doc.witnesses, "{REGENERATE}");
        assert_eq!(now.returns, doc.returns, "{REGENERATE}");
        assert_eq!(now.summary, doc.summary, "{REGENERATE}");
        assert_eq!(now.crosslane, doc.crosslane, "{REGENERATE}");
        return;
    }
    // A proved-everywhere op, a refuted pair with counterexamples, and a buffer op.
    for op in ["ds_add_rtn_u32", "_rsub", "buffer_atomic_smax_x2"] {
        let now = atomics(&["--op", op, "--brute", "0"]);
        assert!(!now.rows.is_empty(), "--op {op} matched nothing");
        for (name, row) in &now.rows {
            assert_eq!(Some(row), doc.rows.get(name), "{name}: {REGENERATE}");
        }
        let doc_witnesses: BTreeSet<String> = doc
            .witnesses
            .iter()
            .filter(|w| now.rows.contains_key(w.split(' ').next().unwrap()))
            .cloned()
            .collect();
        assert_eq!(now.witnesses, doc_witnesses, "--op {op}: {REGENERATE}");
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
}
