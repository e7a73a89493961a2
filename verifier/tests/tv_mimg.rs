//! Image reads (MIMG) in tv: llc-22's si-load-store-opt merges on four targets and seven
//! wrong image-load transformations written by hand (`tests/data/tv/mimg/`). Every expected
//! verdict is worked out by hand in that folder's README.md (AMD ISA guides, MIMG: DMASK
//! channels in ascending order, packed D16, the TFE status dword), not taken from tv's output.

use serde_json::Value;
use std::path::Path;

fn run(target: &str, before: &str, after: &str) -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/mimg");
    let args = ["--target", target, before, after];
    gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args).0
}

fn block<'a>(v: &'a [Value], f: &str) -> &'a Value {
    v.iter()
        .find(|x| x["function"] == f && x["block"] == "bb.0")
        .unwrap_or_else(|| panic!("no {f} in {v:?}"))
}

/// The first differing location of a refutation.
fn first_difference(b: &Value) -> String {
    b["counterexample_data"]["first_difference"]
        .as_str()
        .unwrap_or_else(|| panic!("no counterexample in {b}"))
        .to_string()
}

#[test]
fn llc22_image_load_merges_are_proved_and_its_d16_merge_refuted() {
    for t in ["gfx900", "gfx90a", "gfx1030", "gfx1100"] {
        let v = run(
            t,
            &format!("mimg.{t}.before.mir"),
            &format!("mimg.{t}.after.mir"),
        );
        // gfx90a does not merge load1d (its after-block is unchanged).
        let load1d = if t == "gfx90a" { "unchanged" } else { "proved" };
        assert_eq!(block(&v, "load1d")["verdict"], load1d, "{t}");
        for f in ["load2d", "sample2d"] {
            assert_eq!(block(&v, f)["verdict"], "proved", "{t} {f}");
        }
        if t != "gfx90a" {
            assert_eq!(block(&v, "tfe_both")["verdict"], "proved", "{t}");
        }
        // Packed D16, dmask 3: one dword holds both channels; dword 1 (stored to LDS[2..3]
        // as channel 1) is never written. LDS[0..1] (channel 0, bits 15:0) agree.
        let b = block(&v, "d16");
        assert_eq!(b["verdict"], "refuted", "{t} {b}");
        let first = first_difference(b);
        assert!(first == "LDS[0x2]" || first == "LDS[0x3]", "{t} {first}");
    }
}

#[test]
fn wrong_image_load_transformations_are_never_proved() {
    let v = run("gfx900", "wrong.before.mir", "wrong.after.mir");
    let verdict = |f: &str| block(&v, f)["verdict"].as_str().unwrap().to_string();
    for f in [
        "swap_channels",
        "dmask_wrong",
        "rsrc_swapped",
        "coords_swapped",
        "sampler_swapped",
    ] {
        assert_eq!(verdict(f), "refuted", "{f}: {}", block(&v, f));
    }
    // Channel 1 lands in LDS[0..3] instead of channel 0; channel 3 in LDS[8..11] instead of 2.
    assert!(first_difference(block(&v, "swap_channels")).starts_with("LDS[0x"));
    let d = first_difference(block(&v, "dmask_wrong"));
    assert!(
        ["LDS[0x8]", "LDS[0x9]", "LDS[0xa]", "LDS[0xb]"].contains(&d.as_str()),
        "{d}"
    );
    // Swapped coordinates differ only when x != y: the counterexample must have v0 != v1.
    let b = block(&v, "coords_swapped");
    let live = b["counterexample_data"]["live_in"].as_array().unwrap();
    let reg = |r: &str| {
        live.iter()
            .find(|e| e["reg"] == r)
            .map(|e| e["value"].clone())
    };
    assert_ne!(reg("v0"), reg("v1"), "{b}");
    assert_eq!(verdict("unorm_flipped"), "unknown");
    let b = block(&v, "across_store");
    assert_eq!(b["verdict"], "unsupported", "{b}");
    assert!(
        b["reason"].as_str().unwrap().contains("GLOBAL_STORE_DWORD"),
        "{b}"
    );
}

#[test]
fn packed_d16_puts_two_channels_in_one_dword() {
    // The correct merge of the two D16 loads: one dword, channel 1 shifted down by 16.
    let v = run(
        "gfx900",
        "mimg.gfx900.before.mir",
        "d16_fixed.gfx900.after.mir",
    );
    assert_eq!(block(&v, "d16")["verdict"], "proved", "{v:?}");
    // Shifted by 8: bits 23:8 are half of each channel, not channel 1.
    let v = run(
        "gfx900",
        "mimg.gfx900.before.mir",
        "d16_shift8.gfx900.after.mir",
    );
    let b = block(&v, "d16");
    assert_eq!(b["verdict"], "refuted", "{b}");
    let first = first_difference(b);
    assert!(first == "LDS[0x2]" || first == "LDS[0x3]", "{first}");
}
