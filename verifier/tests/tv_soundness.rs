//! The wrong proofs of issue 27 that live in tv itself, each a block pair tv used to prove
//! (`tests/data/tv/soundness/`, written by hand; each file's header works out the breaking
//! input). Expected verdicts come from those hand computations, not from tv's output.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/soundness")
        .join(name)
}

fn tv(args: &[&str], before: &Path, after: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json"])
        .args(args)
        .arg(before)
        .arg(after)
        .output()
        .unwrap()
}

fn blocks(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .collect()
}

fn verdict<'a>(v: &'a [Value], f: &str, block: &str) -> &'a Value {
    v.iter()
        .find(|b| b["function"] == f && b["block"] == block)
        .unwrap_or_else(|| panic!("no {f} {block} in {v:?}"))
}

/// Wrong proofs 1 and 2: physical inputs of a dropped unmodelled instruction are compared
/// where it reads them, and `$sgpr0`, `$sgpr0_sgpr1`, `$vcc_lo` and `$vcc` are one register file.
#[test]
fn physical_registers_are_one_register_file_and_compared() {
    let out = tv(
        &["--target", "gfx900"],
        &data("phys.before.mir"),
        &data("phys.after.mir"),
    );
    let v = blocks(&out);
    // cmp_flip: %2 = EXEC & VCC differs in lane 0's bit (hand computation in the file).
    let b = verdict(&v, "cmp_flip", "bb.0");
    assert_eq!(b["verdict"], "refuted", "{b}");
    // clobber: the store's address has 5 in its low dword after the clobber.
    let b = verdict(&v, "clobber", "bb.0");
    assert_eq!(b["verdict"], "refuted", "{b}");
    assert!(b["reason"].as_str().unwrap().starts_with("MEM["), "{b}");
    // vcc_half: $vcc_lo = 0 clears lane 0's bit of $vcc, so V_CNDMASK picks the other source.
    let b = verdict(&v, "vcc_half", "bb.0");
    assert_eq!(b["verdict"], "refuted", "{b}");
    assert!(b["reason"].as_str().unwrap().starts_with("LDS["), "{b}");
    // A write to a register nothing reads changes nothing.
    assert_eq!(verdict(&v, "clobber_other", "bb.0")["verdict"], "proved");
    assert_eq!(out.status.code(), Some(1));
}

/// Wrong proof 7: a PHI is the copy of its incoming value on the edge, compared in the
/// predecessor block.
#[test]
fn a_changed_phi_incoming_value_is_refuted_in_its_predecessor() {
    let out = tv(
        &["--target", "gfx900"],
        &data("phi.before.mir"),
        &data("phi.after.mir"),
    );
    let v = blocks(&out);
    let b = verdict(&v, "branchy", "bb.1");
    assert_eq!(b["verdict"], "refuted", "{b}");
    assert_eq!(b["reason"], "%4", "{b}");
    // The same files unedited: the edge copies agree.
    let out = tv(
        &["--target", "gfx900"],
        &data("phi.before.mir"),
        &data("phi.before.mir"),
    );
    assert!(blocks(&out).iter().all(|b| b["verdict"] == "unchanged"));
}
