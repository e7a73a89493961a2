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

fn rows(v: &Value) -> Vec<(String, String, String)> {
    v["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or("-").to_string();
            (s("mnemonic"), s("counterpart"), s("status"))
        })
        .collect()
}

fn status_of<'a>(rows: &'a [(String, String, String)], m: &str) -> (&'a str, &'a str) {
    let r = rows
        .iter()
        .find(|r| r.0 == m)
        .unwrap_or_else(|| panic!("no row {m}"));
    (r.1.as_str(), r.2.as_str())
}

/// The options `docs/generations.json` was generated with (its `generated_by`), less `--all`
/// and `--sample`.
const SHIPPED: [&str; 4] = ["--family", "ds", "--timeout", "30"];
/// The source targets the shipped file covers (`--sample`; every pair from them). The full
/// 182 pairs did not fit the time the machine had (docs/cli.md, `gcnsmt equiv`).
const SAMPLE: &str = "gfx1030";

/// The sampled pair of the default tier: gfx1030 -> gfx1100 regenerated and compared with
/// its entry in docs/generations.json, plus the independent facts above.
#[test]
fn gfx1030_to_gfx1100_matches_the_shipped_table() {
    let mut args = vec![
        "equiv", "--from", "gfx1030", "--to", "gfx1100", "--format", "json",
    ];
    args.extend(SHIPPED);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.context());
    let v: Value = serde_json::from_str(&r.stdout).expect("one JSON document");
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
    let shipped = std::fs::read_to_string(gcnsmt_testkit::workspace_path("docs/generations.json"))
        .expect("docs/generations.json");
    let doc: Value = serde_json::from_str(&shipped).expect("generations.json parses");
    let want = format!(
        "gcnsmt equiv --all --by name {} --sample {SAMPLE} {} {}",
        SHIPPED[..2].join(" "),
        SHIPPED[2],
        SHIPPED[3]
    );
    assert_eq!(doc["generated_by"], want.as_str());
    let pairs = doc["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 13, "every pair from {SAMPLE}");
    let pair = pairs
        .iter()
        .find(|p| p["from"] == "gfx1030" && p["to"] == "gfx1100")
        .expect("the pair is in the table");
    assert_eq!(rows(pair), got, "regenerate with `gcnsmt equiv --all`");
    assert_eq!(pair["summary"], v["summary"]);
}

#[test]
fn buffer_rename_by_name_is_the_same() {
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
    assert_eq!(
        status_of(&got, "buffer_load_dword"),
        ("buffer_load_b32", "same")
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
}

/// Slow tier: the shipped pairs regenerated and compared byte for byte with the shipped files.
#[test]
fn all_pairs_regenerate_identically() {
    if !gcnsmt_testkit::slow() {
        return;
    }
    let dir = TempDir::new("equiv-all");
    let out = dir.path().to_str().unwrap().to_string();
    let mut args = vec!["equiv", "--all", "--out", &out, "--sample", SAMPLE];
    args.extend(SHIPPED);
    let r = run(&args);
    assert!(r.code == 0 || r.code == 3, "{}", r.context());
    for f in ["generations.json", "generations.md"] {
        let got = std::fs::read_to_string(dir.path().join(f)).unwrap();
        let want =
            std::fs::read_to_string(gcnsmt_testkit::workspace_path(&format!("docs/{f}"))).unwrap();
        assert!(
            got == want,
            "docs/{f} differs from a fresh `gcnsmt equiv --all`"
        );
    }
}
