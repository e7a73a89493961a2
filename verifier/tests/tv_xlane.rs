//! Cross-lane reads in the EXEC model (docs/tv.md, "Cross-lane reads in the EXEC model"):
//! block pairs written by hand in `tests/data/tv/xlane/`, whose header comment works out each
//! verdict. Expected verdicts come from those hand computations, not from tv's output.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Function -> (verdict, reason) of each bb.0 of a tv run on `target`.
fn run(target: &str, stem: &str) -> BTreeMap<String, (String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/xlane");
    let (before, after) = (format!("{stem}.before.mir"), format!("{stem}.after.mir"));
    let args = ["--target", target, before.as_str(), after.as_str()];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    blocks
        .iter()
        .filter(|v| v["block"] == "bb.0")
        .map(|v| (s(&v["function"]), (s(&v["verdict"]), s(&v["reason"]))))
        .collect()
}

#[test]
fn cross_lane_reads_wave64() {
    let v = run("gfx900", "xlane");
    let get = |f: &str| {
        v.get(f)
            .unwrap_or_else(|| panic!("no {f} in {v:?}"))
            .clone()
    };
    // Same cross-lane ops on the same whole-wave inputs, one moved: proved.
    assert_eq!(get("rank_moved").0, "proved", "{v:?}");
    // MBCNT_LO reading the high half: a wrong rank, never proved.
    let (r, why) = get("rank_lo_hi_swapped");
    assert_eq!(r, "unsupported", "{why}");
    assert!(why.contains("part of a lane mask"), "{why}");
    // A real bug beside the cross-lane ops, not resting on them: refuted on the LDS word.
    let (r, why) = get("store_changed");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS[0x4]"), "{why}");
    // readfirstlane moved above the EXEC write: the first lane may differ, never proved.
    let (r, why) = get("rfl_across_exec");
    assert_eq!(r, "unknown", "{why}");
}

#[test]
fn cross_lane_reads_wave32() {
    let v = run("gfx1100", "xlane32");
    let get = |f: &str| {
        v.get(f)
            .unwrap_or_else(|| panic!("no {f} in {v:?}"))
            .clone()
    };
    assert_eq!(get("rank_moved").0, "proved", "{v:?}");
    assert_eq!(get("rfl_across_exec").0, "unknown", "{v:?}");
}
