//! DPP in the one-lane check (docs/tv.md, "DPP"): llc-22's gcn-dpp-combine on our kernels
//! (proved) and hand-made pairs whose verdicts `tests/data/tv/dpp/README.md` works out by hand.
//! Expected verdicts come from those hand computations, not from tv's output.

use serde_json::Value;
use std::path::Path;

type Block = (String, String, String, String);

/// Every block verdict of a tv run in `tests/data/tv/dpp`: (function, block, verdict, reason).
fn run(args: &[&str]) -> Vec<Block> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/dpp");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, args);
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

fn verdict<'a>(v: &'a [Block], f: &str) -> (&'a str, &'a str) {
    let b = v
        .iter()
        .find(|b| b.0 == f && b.1 == "bb.0")
        .unwrap_or_else(|| panic!("no {f} bb.0 in {v:?}"));
    (b.2.as_str(), b.3.as_str())
}

#[test]
fn llc_dpp_combine_folds_are_proved() {
    for (file, cpus, n) in [
        ("dpp_combine", &["gfx900", "gfx90a", "gfx1100"][..], 5),
        ("dpp_combine_gfx9", &["gfx900", "gfx90a"][..], 2),
        ("dpp_combine_gfx10", &["gfx1100"][..], 2),
    ] {
        for cpu in cpus {
            let b = format!("gen/{file}.{cpu}.before.mir");
            let a = format!("gen/{file}.{cpu}.after.mir");
            let v = run(&[b.as_str(), a.as_str()]);
            assert_eq!(v.len(), n, "{file} {cpu}: {v:?}");
            for blk in &v {
                assert_eq!(blk.2, "proved", "{file} {cpu}: {blk:?}");
            }
        }
    }
}

#[test]
fn hand_made_pairs() {
    let v = run(&["--target", "gfx900", "hand.before.mir", "hand.after.mir"]);
    for f in ["fold_ok", "bound_ctrl_same", "quad_identity"] {
        assert_eq!(verdict(&v, f).0, "proved", "{f}: {v:?}");
    }
    for f in [
        "swapped",
        "row_mask_wrong",
        "bound_ctrl_dropped",
        "quad_identity_wrong",
        "subrev_src1",
        "subrev_other",
    ] {
        let (r, why) = verdict(&v, f);
        assert_eq!(r, "refuted", "{f}: {why}");
        assert!(why.starts_with("LDS["), "{f}: {why}");
    }
    // A real miscompile the model reports as unknown: two controls are independent lanes.
    let (r, why) = verdict(&v, "ctrl_changed");
    assert_eq!(r, "unknown", "{why}");
    assert!(why.contains("two DPP controls"), "{why}");
    let (r, why) = verdict(&v, "store_between");
    assert_eq!(r, "unsupported", "{why}");
    assert!(why.contains("memory written"), "{why}");
}

#[test]
fn wrong_transformations_are_never_proved() {
    let v = run(&["--target", "gfx900", "break.before.mir", "break.after.mir"]);
    assert_eq!(v.len(), 6, "{v:?}");
    for b in &v {
        assert_ne!(b.2, "proved", "{b:?}");
    }
    let (r, why) = verdict(&v, "inactive_only");
    assert_eq!(r, "unknown", "{why}");
    assert!(why.contains("inactive"), "{why}");
    assert_eq!(verdict(&v, "bank_mask_wrong").0, "refuted");
    assert_eq!(verdict(&v, "source_changed").0, "refuted");
    for (f, msg) in [
        ("lane_id_source", "cannot recompute"),
        ("share_on_gfx9", "does not exist on gfx900"),
        ("phys_sgpr_clobbered", "which the block writes"),
    ] {
        let (r, why) = verdict(&v, f);
        assert_eq!(r, "unsupported", "{f}: {why}");
        assert!(why.contains(msg), "{f}: {why}");
    }
}

#[test]
fn the_counterexample_names_lane_s() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/bugs/dpp-combine-subrev-src1");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", "before.mir", "buggy.mir"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // quad_perm:[1,0,0,0]: lane 0 reads lane 1, lanes 1-3 read lane 0 (AMD CDNA4 guide, Table 94).
    let line = text
        .lines()
        .find(|l| l.contains("DPP: lane L"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("quad_perm:[1,0,0,0]"), "{line}");
    let l: u32 = line
        .split("LANE_ID = ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let s = if l.is_multiple_of(4) {
        l + 1
    } else {
        l - l % 4
    };
    assert!(line.contains(&format!("lane S = {s} ")), "{line}");
    assert!(text.contains("%16@quad_perm:[1,0,0,0]"), "{text}");
}
