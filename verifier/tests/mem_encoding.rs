//! The forward memory encoding (`verifier/src/smt/mem.rs`) against the byte-level one it
//! replaces by default (`GCNSMT_MEMORY_ENCODING=bytes`): generated chains of atomics get the
//! verdicts a hand argument gives (modular sums commute; dropping an add of a nonzero value
//! changes memory) under both, and the forward one decides them fast; in the slow tier the
//! whole corpus gets its expected verdict per rule x target under the byte-level one (the
//! forward one's is the README's main job).

use gcnsmt_testkit::{run, slow, TempDir};
use gcnsmt_verifier::bench::families::{chain, chain_dropped};
use std::collections::BTreeMap;

/// `gcnsmt verify ARGS --format json` under `encoding`: verdict per (rule, target).
fn verdicts(args: &[&str], encoding: &str) -> BTreeMap<(String, String), String> {
    let mut all = vec!["verify", "--format", "json"];
    all.extend(args);
    let env = [("GCNSMT_MEMORY_ENCODING", encoding)];
    let r = run(env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &env);
    r.assert_no_panic();
    let mut out = BTreeMap::new();
    for line in r.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON Lines");
        if v["type"] == "verdict" {
            let key = (
                v["rule"].as_str().unwrap_or("").to_string(),
                v["target"].to_string(),
            );
            out.insert(key, v["verdict"].as_str().unwrap_or("").to_string());
        }
    }
    out
}

/// Chains of 16 adds: reversed is proved, one dropped is refuted, with the forward encoding
/// at the default 20 s limit (a query takes about 0.1 s; the byte-level encoding is unknown
/// at 120 s from 4 adds on). The byte-level encoding agrees on chains of 2 and 3.
#[test]
fn chains_of_atomics_are_decided_under_both_encodings() {
    let dir = TempDir::new("mem-encoding");
    let long = dir.write(
        "long.rules",
        &format!("{}\n{}", chain(16), chain_dropped(16)),
    );
    let long = long.to_str().expect("utf-8 path");
    let v = verdicts(&[long], "forward");
    assert_eq!(v.len(), 2, "{v:?}");
    for ((rule, _), verdict) in &v {
        let want = if rule.contains("dropped") {
            "refuted"
        } else {
            "proved"
        };
        assert_eq!(verdict, want, "{rule}");
    }
    let short = dir.write(
        "short.rules",
        &format!("{}\n{}", chain(2), chain_dropped(3)),
    );
    let short = short.to_str().expect("utf-8 path");
    let (b, f) = (verdicts(&[short], "bytes"), verdicts(&[short], "forward"));
    assert_eq!(b.len(), 2, "{b:?}");
    assert_eq!(b, f);
    assert_eq!(b.values().filter(|v| *v == "proved").count(), 1);
}

/// Slow tier (GCNSMT_SLOW=1): the corpus under the byte-level encoding gets every rule's
/// `Expect:` verdict on every target, none unknown. Under the forward (default) encoding the
/// same run is the README's main job, which `doc_examples.rs` checks in the slow tier (no
/// expectation mismatch, no unknown), so the two encodings agree on every rule x target;
/// running the forward one here too would only repeat it (issue 31, CI time). The release
/// build takes about 40 s per run; a debug build several minutes.
#[test]
fn the_corpus_gets_the_same_verdicts_under_both_encodings() {
    if !slow() {
        eprintln!("skipped: set GCNSMT_SLOW=1 to run the corpus under the byte-level encoding");
        return;
    }
    let root = gcnsmt_testkit::workspace_path("proofs");
    let root = root.to_str().expect("utf-8 path");
    let all = ["verify", "--format", "json", root, "--timeout", "60"];
    let env = [("GCNSMT_MEMORY_ENCODING", "bytes")];
    let r = run(env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &env);
    r.assert_no_panic();
    let mut n = 0;
    let mut wrong = Vec::new();
    for line in r.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON Lines");
        if v["type"] != "verdict" {
            continue;
        }
        n += 1;
        // Every corpus rule has an Expect: line (tests/tests/rules.rs asserts it).
        if v["as_expected"] != serde_json::Value::Bool(true) || v["verdict"] == "unknown" {
            wrong.push(format!("{} {} {}", v["rule"], v["target"], v["verdict"]));
        }
    }
    assert!(n > 1000, "{n} verdicts");
    assert!(
        wrong.is_empty(),
        "not the expected verdict under bytes: {wrong:?}"
    );
}
