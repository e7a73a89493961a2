//! True16 register halves and `_t16` ops (docs/tv.md, "16-bit register halves"): block pairs
//! written by hand in `tests/data/tv/t16/` (checked with llc-22's machine verifier), whose
//! header comment works out each verdict. Expected verdicts come from those hand computations,
//! not from tv's output.

use serde_json::Value;
use std::path::Path;

/// Every block verdict of a tv run on gfx1100: (function, verdict, reason).
fn run() -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/t16");
    let args = ["--target", "gfx1100", "t16.before.mir", "t16.after.mir"];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    blocks
        .iter()
        .filter(|v| v["block"] == "bb.0")
        .map(|v| (s(&v["function"]), s(&v["verdict"]), s(&v["reason"])))
        .collect()
}

fn verdict<'a>(v: &'a [(String, String, String)], f: &str) -> (&'a str, &'a str) {
    let b = v
        .iter()
        .find(|b| b.0 == f)
        .unwrap_or_else(|| panic!("no {f} in {v:?}"));
    (b.1.as_str(), b.2.as_str())
}

#[test]
fn halves_and_t16_ops() {
    let v = run();
    // A 16-bit add into the high half keeps the low half: v1 + (v2 << 16).
    assert_eq!(verdict(&v, "add_hi_keeps_lo").0, "proved", "{v:?}");
    // The sum in the wrong half: v1 = 0, v2 = 1 stores 00 00 01 00 before, 01 00 00 00 after.
    let (r, why) = verdict(&v, "add_wrong_half");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // Each source's half swapped: v1 = 0x00010000, v2 = 0 adds 1 before, 0 after.
    let (r, why) = verdict(&v, "opsel_swapped");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // COPY of hi16 vs lo16: v1 = 0x00010000 stores low half 1 before, 0 after.
    let (r, why) = verdict(&v, "copy_hi_vs_lo");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // The same 16 bits through two 16-bit copies.
    assert_eq!(verdict(&v, "copy_hi_chain").0, "proved", "{v:?}");
    // A widening copy stored as 16 bits: its undefined high half is never stored.
    assert_eq!(verdict(&v, "widen_store16").0, "proved", "{v:?}");
    // Stored as 32 bits, the undefined high half reaches bytes 2..3 only; bytes 0..1 differ
    // (v1 = 0x00010000: 01 before, 00 after), and they read no undefined bit (bit-precise
    // taint, docs/tv.md): refuted there.
    let (r, why) = verdict(&v, "widen_store32");
    assert_eq!(r, "refuted", "{why}");
    assert!(why == "LDS[0x0]" || why == "LDS[0x1]", "{why}");
    // The other True16 ops: multiply and AND commuted.
    assert_eq!(verdict(&v, "ops_commuted").0, "proved", "{v:?}");
    // Shift amount and value swapped: v1 = 1, v2 = 0x00010003 stores 0xffff vs 0xfffd.
    let (r, why) = verdict(&v, "shl_swapped");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // A VGPR-to-SGPR copy of a uniform value's hi16: the first lane's is every lane's.
    assert_eq!(verdict(&v, "v2s_uniform").0, "proved", "{v:?}");
    // ... rewritten to read lo16: s0 = 0x00010000, v2 = 0 adds 1 before, 0 after.
    let (r, why) = verdict(&v, "v2s_uniform_lo");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
}

/// `tests/data/tv/t16/v2s-nonuniform.*`: the copy's source %3 = v1 ^ v2 is not uniform by
/// construction, so the before-file reads it in the first active lane F (`firstlane.rs`) and
/// a refutation must hold with lane F = lane L (`lanef.rs`).
#[test]
fn nonuniform_half_copies() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/t16");
    let args = [
        "--target",
        "gfx1100",
        "v2s-nonuniform.before.mir",
        "v2s-nonuniform.after.mir",
    ];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let v: Vec<(String, String, String)> = blocks
        .iter()
        .map(|b| (s(&b["function"]), s(&b["verdict"]), s(&b["reason"])))
        .collect();
    // The copy replaced by the per-lane %3.hi16: with F = L both read L's %3.hi16, the same
    // add; only lanes whose %3 differ (F != L) tell them apart, so not refuted, not proved.
    let (r, why) = verdict(&v, "v2s_per_lane");
    assert_eq!(r, "unknown", "{why}");
    assert!(why.contains("uniform"), "{why}");
    // Read as %3.lo16 instead: with every lane equal, v1 = 0x00010000, v2 = 0 gives %3 =
    // 0x00010000, the add 1 + 0 before and 0 + 0 after: LDS[0] 01 vs 00.
    let (r, why) = verdict(&v, "v2s_per_lane_lo");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
}
