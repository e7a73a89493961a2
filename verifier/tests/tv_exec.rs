//! The lane-bit model of EXEC and lane masks and the first-lane read (docs/tv.md, "EXEC and
//! lane masks"): small block pairs written by hand in `tests/data/tv/exec/`, whose header
//! comments work out each verdict. Expected verdicts come from those hand computations, not
//! from tv's output.

use serde_json::Value;
use std::path::Path;

/// Every block verdict of a tv run on gfx900: (function, block, verdict, reason).
fn run(stem: &str) -> Vec<(String, String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/exec");
    let (before, after) = (format!("{stem}.before.mir"), format!("{stem}.after.mir"));
    // Hand-made pairs about values: post-RA ones run with `hazards=LATER` (under the default
    // CHECK a post-RA change of order is unsupported, docs/tv.md "Hazards").
    let (b, a) = (before.as_str(), after.as_str());
    let args = ["--target", "gfx900", b, a, "--set", "hazards=LATER"];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    blocks
        .iter()
        .map(|v| {
            (
                s(&v["function"]),
                s(&v["block"]),
                s(&v["verdict"]),
                s(&v["reason"]),
            )
        })
        .collect()
}

fn verdict<'a>(v: &'a [(String, String, String, String)], f: &str) -> (&'a str, &'a str) {
    let b = v
        .iter()
        .find(|b| b.0 == f && b.1 == "bb.0")
        .unwrap_or_else(|| panic!("no {f} bb.0 in {v:?}"));
    (b.2.as_str(), b.3.as_str())
}

#[test]
fn exec_writes_and_lane_masks() {
    let v = run("exec");
    // The predicate flipped: the store runs before and not after (LDS differs).
    let (r, why) = verdict(&v, "cmpx_flip");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("LDS["), "{why}");
    // a >= b as b <= a.
    assert_eq!(verdict(&v, "cmpx_swap").0, "proved", "{v:?}");
    // A VALU write moved below the EXEC change: %3 keeps its old value in a lane turned off.
    let (r, why) = verdict(&v, "valu_across_exec");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("%3"), "{why}");
    assert_eq!(verdict(&v, "and_exec_swap").0, "proved", "{v:?}");
    // A cross-lane read of a mask is outside the model: never proved.
    let (r, why) = verdict(&v, "bcnt_exec");
    assert_eq!(r, "unsupported", "{why}");
    // (Since the cross-lane reads of `xlane.rs`: S_BCNT1 is uninterpreted there, and the
    // after-file dropped it.)
    assert!(why.contains("the pass changed it"), "{why}");
    assert_eq!(verdict(&v, "init_exec").0, "proved", "{v:?}");
    assert_eq!(verdict(&v, "endcf_or").0, "proved", "{v:?}");
    let (r, why) = verdict(&v, "endcf_and");
    assert_eq!(r, "refuted", "{why}");
    // A branch on a changed mask: EXEC, live into the successors, differs in lane L.
    let (r, why) = verdict(&v, "execz_changed");
    assert_eq!(r, "refuted", "{why}");
    assert!(why.starts_with("exec"), "{why}");
    let (r, why) = verdict(&v, "ifbreak_swap");
    assert_eq!(r, "refuted", "{why}");
    assert!(why == "s0" || why == "s1", "{why}");
    // SCC in the EXEC model: scalar compares are exact, the SCC of a mask is bounded.
    assert_eq!(verdict(&v, "scc_cmp_swap").0, "proved", "{v:?}");
    let (r, why) = verdict(&v, "scc_cmp_le");
    assert_eq!(r, "refuted", "{why}");
    let (r, why) = verdict(&v, "scc_mask_bounded");
    assert_eq!(r, "unknown", "{why}");
    assert!(why.starts_with("proved only for waves"), "{why}");
}

#[test]
fn readfirstlane_reads_the_first_active_lane() {
    let v = run("firstlane");
    let (r, why) = verdict(&v, "rfl_nonuniform");
    assert_eq!(r, "refuted", "{why}");
    assert_eq!(verdict(&v, "rfl_uniform").0, "proved", "{v:?}");
    assert_eq!(verdict(&v, "rfl_same").0, "proved", "{v:?}");
    assert_eq!(verdict(&v, "rfl_other").0, "refuted", "{v:?}");
    // The VGPR-to-SGPR copy is the first-lane read LLVM lowers it to.
    assert_eq!(verdict(&v, "rfl_copy").0, "refuted", "{v:?}");
    assert_eq!(verdict(&v, "rfl_copy_same").0, "proved", "{v:?}");
}
