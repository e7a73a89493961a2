//! `gcnsmt equiv`: the per-opcode equivalence table between two targets, and the shipped data
//! `docs/generations.{json,md}` it regenerates.
//!
//! Independent facts the table must reproduce: LLVM `DSInstructions.td` renames
//! `ds_write_b32` to `ds_store_b32` for gfx11 at the same opcode and with the same meaning, and
//! gfx11's `ds_cmpstore_*` takes DATA0/DATA1 in the opposite order of gfx10's `ds_cmpst_*`, so
//! the renamed op is a difference; gfx11 renumbered the MUBUF opcodes (LLVM
//! `BUFInstructions.td`; `lifter/data/mubuf_opcodes_by_target.csv`), so by word
//! `buffer_load_dword` of gfx1030 is `buffer_store_d16_format_x` on gfx1100.

use gcnsmt_testkit::{Run, TempDir};
use serde_json::Value;

fn run(args: &[&str]) -> Run {
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), args, None, &[]);
    r.assert_no_panic();
    r
}

fn rows(v: &Value) -> Vec<(String, String, String, String)> {
    v["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or("-").to_string();
            (s("mnemonic"), s("counterpart"), s("status"), s("proof"))
        })
        .collect()
}

fn status_of<'a>(rows: &'a [(String, String, String, String)], m: &str) -> (&'a str, &'a str) {
    let r = rows
        .iter()
        .find(|r| r.0 == m)
        .unwrap_or_else(|| panic!("no row {m}"));
    (r.1.as_str(), r.2.as_str())
}

/// The options `docs/generations.json` was generated with (its `generated_by`), less `--all`.
const SHIPPED: [&str; 2] = ["--timeout", "30"];

/// The shipped data file, parsed.
fn shipped() -> Value {
    let text = std::fs::read_to_string(gcnsmt_testkit::workspace_path("docs/generations.json"))
        .expect("docs/generations.json");
    serde_json::from_str(&text).expect("generations.json parses")
}

/// The shipped rows of one pair, of one family if `fam` says so; `null` when the file has
/// none of them (a sampled file).
fn shipped_rows(doc: &Value, from: &str, to: &str, fam: Option<&str>) -> Value {
    let Some(pair) = (doc["pairs"].as_array().expect("pairs"))
        .iter()
        .find(|p| p["from"] == from && p["to"] == to)
    else {
        return Value::Null;
    };
    let rows: Vec<Value> = (pair["rows"].as_array().expect("rows"))
        .iter()
        .filter(|r| fam.is_none_or(|f| r["family"] == f))
        .cloned()
        .collect();
    if rows.is_empty() {
        return Value::Null;
    }
    serde_json::json!({ "rows": rows })
}

/// One pair regenerated (one family, or both) as `equiv --format json`.
fn regenerate(from: &str, to: &str, fam: Option<&str>) -> Value {
    let mut args = vec!["equiv", "--from", from, "--to", to, "--format", "json"];
    if let Some(f) = fam {
        args.extend(["--family", f]);
    }
    args.extend(SHIPPED);
    let r = run(&args);
    // Exit 3 exactly when a row is `unknown` (the DS `src2` ops between targets whose modes
    // the sources dispute are never proved: docs/cli.md).
    let unknown = r.stdout.contains("\"status\": \"unknown\"");
    assert_eq!(r.code, if unknown { 3 } else { 0 }, "{}", r.context());
    serde_json::from_str(&r.stdout).expect("one JSON document")
}

/// The file covers every ordered pair its `generated_by` names (all 182 of the fourteen
/// targets unless `--sample` narrows the sources), each with DS and buffer rows unless
/// `--family` keeps one.
#[test]
fn the_shipped_table_has_every_pair() {
    let doc = shipped();
    let cmd = doc["generated_by"].as_str().expect("generated_by");
    assert!(
        cmd.starts_with("gcnsmt equiv --all --by name") && cmd.ends_with(&SHIPPED.join(" ")),
        "{cmd}"
    );
    let words: Vec<&str> = cmd.split(' ').collect();
    let after = |flag: &str| (words.iter().position(|w| *w == flag)).map(|i| words[i + 1]);
    let want = match (after("--sample"), after("--pairs")) {
        (_, Some(p)) => p.split(',').count(),
        (Some(s), None) => s.split(',').count() * 13,
        (None, None) => 14 * 13,
    };
    let pairs = doc["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), want, "{cmd}");
    let fams: Vec<&str> = after("--family").map_or(vec!["ds", "buffer"], |f| vec![f]);
    for p in pairs {
        let rows = p["rows"].as_array().expect("rows");
        for fam in &fams {
            assert!(
                rows.iter().any(|r| r["family"] == *fam),
                "{} -> {} has no {fam} row",
                p["from"],
                p["to"]
            );
        }
    }
}

/// The default tier's sample: pairs across generations (GCN, CDNA, RDNA 2-4), DS and buffer,
/// regenerated and compared with their entries in docs/generations.json; plus the
/// independent facts above on gfx1030 -> gfx1100.
#[test]
fn sampled_pairs_match_the_shipped_table() {
    let doc = shipped();
    let sample: [(&str, &str, Option<&str>); 4] = [
        ("gfx1030", "gfx1100", Some("ds")),
        ("gfx908", "gfx90a", None),
        ("gfx700", "gfx802", Some("ds")),
        ("gfx1100", "gfx1200", Some("buffer")),
    ];
    let mut compared = 0;
    for (from, to, fam) in sample {
        let want = shipped_rows(&doc, from, to, fam);
        if want.is_null() {
            continue;
        }
        compared += 1;
        let v = regenerate(from, to, fam);
        let (got, shipped) = (rows(&v), rows(&want));
        assert_eq!(got.len(), shipped.len(), "{from} -> {to}: row count");
        // A row that is only `unknown` now timed out (a wall-clock limit on a loaded machine).
        let changed: Vec<_> = (got.iter().zip(&shipped))
            .filter(|(g, s)| g != s && g.2 != "unknown")
            .collect();
        assert!(
            changed.is_empty(),
            "{from} -> {to}: regenerate with `gcnsmt equiv --all`: {changed:?}"
        );
        if (from, to) == ("gfx1030", "gfx1100") {
            let got = rows(&v);
            assert_eq!(status_of(&got, "ds_write_b32"), ("ds_store_b32", "same"));
            assert_eq!(
                status_of(&got, "ds_cmpst_rtn_b32"),
                ("ds_cmpstore_rtn_b32", "differ")
            );
            assert_eq!(
                status_of(&got, "ds_cmpst_b64"),
                ("ds_cmpstore_b64", "differ")
            );
        }
    }
    assert!(compared > 0, "no sampled pair is in the shipped table");
}

#[test]
fn buffer_rename_by_name_pairs_the_gfx11_spelling() {
    let r = run(&[
        "equiv",
        "--from",
        "gfx1030",
        "--to",
        "gfx1100",
        "--op",
        "buffer_load_dword",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let got = rows(&v);
    // Paired by name with its gfx11 spelling; not the same instruction under each target's
    // defaults: gfx10 range-checks an access by its first byte, gfx11 by its last (Mesa
    // `ac_descriptors.c` `ac_set_buf_desc_word3`; docs/soundness.md, `buffer_oob`).
    assert_eq!(
        status_of(&got, "buffer_load_dword"),
        ("buffer_load_b32", "differ")
    );
}

#[test]
fn by_word_follows_the_encoding() {
    let r = run(&[
        "equiv",
        "--from",
        "gfx1030",
        "--to",
        "gfx1100",
        "--by",
        "word",
        "--op",
        "buffer_load_dword",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let got = rows(&v);
    let (cp, st) = status_of(&got, "buffer_load_dword");
    assert_eq!(cp, "buffer_store_d16_format_x");
    assert_ne!(st, "same", "{}", r.stdout);
}

#[test]
fn usage_errors() {
    let r = run(&["equiv", "--from", "gfx1030", "--to", "gfx1030"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let r = run(&[
        "equiv",
        "--from",
        "gfx1030",
        "--to",
        "gfx1100",
        "--op",
        "no_such_op",
    ]);
    assert_eq!(r.code, 2, "{}", r.context());
    let r = run(&["equiv", "--from", "gfx9999", "--to", "gfx1100"]);
    assert_eq!(r.code, 2, "{}", r.context());
    let dir = TempDir::new("equiv-usage");
    let out = dir.path().to_str().unwrap();
    // An empty selection would write an empty table over the shipped one (`--out docs`).
    for pairs in [
        "gfx600",
        "gfx600:gfx600",
        "gfx600:gfx9999",
        ",",
        "",
        "gfx600:gfx700,gfx600:gfx700",
    ] {
        let r = run(&["equiv", "--all", "--pairs", pairs, "--out", out]);
        assert_eq!(r.code, 2, "--pairs {pairs}: {}", r.context());
    }
    let r = run(&["equiv", "--all", "--sample", "", "--out", out]);
    assert_eq!(r.code, 2, "--sample '': {}", r.context());
    assert!(!dir.path().join("generations.json").exists());
    // --out is checked before any pair is: a file there is an error at once.
    let file = dir.write("a-file", "");
    let started = std::time::Instant::now();
    let r = run(&["equiv", "--all", "--out", file.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("--out"), "{}", r.context());
    assert!(
        !r.stderr.contains("->"),
        "a pair ran first: {}",
        r.context()
    );
    assert!(started.elapsed().as_secs() < 30);
}

/// The fourteen targets, in `Target::ALL` order.
const TARGETS: [&str; 14] = [
    "gfx600", "gfx700", "gfx802", "gfx900", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010",
    "gfx1030", "gfx1100", "gfx1150", "gfx1200", "gfx1250",
];

/// `gcnsmt equiv --all` with the shipped options and `extra`, into a fresh directory; the
/// directory (kept alive by the caller) and the parsed `generations.json`.
fn regenerate_all(extra: &[&str]) -> (TempDir, Value) {
    let dir = TempDir::new("equiv-all");
    let out = dir.path().to_str().unwrap().to_string();
    let mut args = vec!["equiv", "--all", "--out", &out];
    args.extend(extra);
    args.extend(SHIPPED);
    let r = run(&args);
    assert!(r.code == 0 || r.code == 3, "{}", r.context());
    let text = std::fs::read_to_string(dir.path().join("generations.json")).unwrap();
    let doc = serde_json::from_str(&text).expect("generations.json parses");
    (dir, doc)
}

/// Whether the shipped file is a sample (`--sample` or `--pairs` in its `generated_by`).
fn is_sample(doc: &Value) -> bool {
    let cmd = doc["generated_by"].as_str().expect("generated_by");
    cmd.contains(" --sample ") || cmd.contains(" --pairs ")
}

/// Slow tier: one pair from each of the fourteen targets, to the next one (the last to the
/// first), so GCN, CDNA and RDNA neighbours and every step between generations, both families;
/// of those the shipped file has, regenerated in one `equiv --all --pairs` run (a memo of its
/// own, filled in another order than the shipped run's) and compared, pair object for pair
/// object (rows, summary, assumptions), with the shipped entries. The whole file is
/// regenerated by the next test when it is a sample, else by the `--ignored` one.
#[test]
fn one_pair_per_source_regenerates_identically() {
    if !gcnsmt_testkit::slow() {
        return;
    }
    let doc = shipped();
    let shipped_pairs = doc["pairs"].as_array().expect("pairs");
    let find = |f: &str, t: &str| (shipped_pairs.iter()).find(|w| w["from"] == f && w["to"] == t);
    let pairs: Vec<String> = (0..TARGETS.len())
        .map(|i| (TARGETS[i], TARGETS[(i + 1) % TARGETS.len()]))
        .filter(|(f, t)| find(f, t).is_some())
        .map(|(f, t)| format!("{f}:{t}"))
        .collect();
    assert!(!pairs.is_empty(), "no sampled pair is in the shipped table");
    let (_dir, got) = regenerate_all(&["--pairs", &pairs.join(",")]);
    let got = got["pairs"].as_array().expect("pairs");
    assert_eq!(got.len(), pairs.len());
    let changed = decided_changes(got.iter().filter_map(|p| {
        let (from, to) = (p["from"].as_str()?, p["to"].as_str()?);
        Some((p, find(from, to)?))
    }));
    assert!(
        changed.is_empty(),
        "rows differ from the shipped table (regenerate with `gcnsmt equiv --all`): {changed:?}"
    );
}

/// The rows of regenerated pairs that differ from their shipped pairs, except where only the
/// regenerated row is `unknown`: the time limit is wall-clock, so a hard query that the shipped
/// run decided may time out on a loaded machine (inconclusive, never a different verdict).
fn decided_changes<'a>(pairs: impl Iterator<Item = (&'a Value, &'a Value)>) -> Vec<String> {
    let mut changed = Vec::new();
    for (p, w) in pairs {
        let (a, b) = (p["rows"].as_array(), w["rows"].as_array());
        if a.map(|a| a.len()) != b.map(|b| b.len()) {
            changed.push(format!("{} -> {}: row count", p["from"], p["to"]));
            continue;
        }
        for (r, s) in a.into_iter().flatten().zip(b.into_iter().flatten()) {
            if r != s && r["status"] != "unknown" {
                changed.push(format!(
                    "{} -> {} {}: {} (shipped {})",
                    p["from"], p["to"], r["mnemonic"], r["status"], s["status"]
                ));
            }
        }
    }
    changed
}

/// Every shipped pair regenerated with the file's own `generated_by`, both files compared
/// byte for byte with the shipped ones (`strict`), or every row decided in the fresh run equal
/// to its shipped row ([`decided_changes`]).
fn regenerate_shipped(strict: bool) {
    let doc = shipped();
    let cmd = doc["generated_by"]
        .as_str()
        .expect("generated_by")
        .to_string();
    // The options after `gcnsmt equiv --all`, less the shipped ones that end the command.
    let words: Vec<&str> = cmd.split(' ').skip(3).collect();
    let extra = &words[..words.len() - SHIPPED.len()];
    let (dir, got) = regenerate_all(extra);
    let (fresh, old) = (got["pairs"].as_array(), doc["pairs"].as_array());
    assert_eq!(fresh.map(|p| p.len()), old.map(|p| p.len()), "pair count");
    let pairs = fresh.into_iter().flatten().zip(old.into_iter().flatten());
    let changed = decided_changes(pairs);
    assert!(
        changed.is_empty(),
        "decided rows differ from a fresh `gcnsmt equiv --all`: {changed:?}"
    );
    if !strict {
        return;
    }
    for f in ["generations.json", "generations.md"] {
        let got = std::fs::read_to_string(dir.path().join(f)).unwrap();
        let want =
            std::fs::read_to_string(gcnsmt_testkit::workspace_path(&format!("docs/{f}"))).unwrap();
        assert!(
            got == want,
            "docs/{f} differs from a fresh `gcnsmt equiv --all` (rows only by `unknown`)"
        );
    }
}

/// Slow tier, when the shipped file is a sample: all of it, every decided row as shipped (a
/// row that times out under load may be `unknown`; the `--ignored` test compares bytes).
#[test]
fn the_shipped_sample_regenerates_identically() {
    if gcnsmt_testkit::slow() && is_sample(&shipped()) {
        regenerate_shipped(false);
    }
}

/// The whole shipped file, byte for byte, whatever it covers:
/// `cargo test -p gcnsmt-verifier --test equiv -- --ignored` (as long as the shipped run;
/// docs/cli.md gives the times).
#[test]
#[ignore = "regenerates the whole table; see docs/testing.md"]
fn all_pairs_regenerate_identically() {
    regenerate_shipped(true);
}
