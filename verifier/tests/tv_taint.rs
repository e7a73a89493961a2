//! Bit-precise taint (docs/tv.md, "Bit-precise taint"): block pairs written by hand in
//! `tests/data/tv/taint/` (checked with llc-22's machine verifier), whose header comment works
//! out each verdict. Expected verdicts come from those hand computations, not from tv's output.

use serde_json::Value;
use std::path::Path;

/// Every block verdict of a tv run on gfx1100: (function, verdict, reason).
fn run() -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/taint");
    let args = ["--target", "gfx1100", "before.mir", "after.mir"];
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
fn differences_in_defined_bits_are_refuted_and_in_undefined_bits_never() {
    let v = run();
    // The differing byte LDS[0] reads only defined bits (XOR, shift, bit-field extract).
    for f in ["xor_lo_vs_hi", "shl_out_undefined", "bfe_wrong_field"] {
        let (r, why) = verdict(&v, f);
        assert_eq!(r, "refuted", "{f}: {why}");
        assert_eq!(why, "LDS[0x0]", "{f}");
    }
    // The same through a DS offset of 2: the undefined bits land at v0 + 4 and v0 + 5, the
    // difference at v0 + 2.
    let (r, why) = verdict(&v, "xor_offset");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // The undefined bits are shifted out: equal for every value of them.
    assert_eq!(verdict(&v, "shl_proved").0, "proved", "{v:?}");
    // Correct files that differ only where the undefined bits reach (directly, or through the
    // carry of an add): never refuted, and not proved (tv fixes those bits to one value).
    for f in ["undef_only", "carry_mixes"] {
        let (r, why) = verdict(&v, f);
        assert_eq!(r, "unknown", "{f}: {why}");
        assert!(why.contains("16-bit copy"), "{f}: {why}");
    }
}
