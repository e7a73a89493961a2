//! Values and loads that cross blocks (docs/tv.md "Values that cross blocks", `tv/ssa.rs`,
//! `tv/ssa_load.rs`): constants hoisted next to a PHI's input, VGPR copies hoisted out of an
//! `SI_LOOP` loop, and loads hoisted or sunk by early-machinelicm and machine-sink. Each pair in
//! `tests/data/tv/licm/` has its verdict worked out by hand in the after-file's header.

use std::path::Path;

#[test]
fn loads_and_values_moved_between_blocks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/licm");
    let (blocks, run) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &["--target", "gfx900", "licm.before.mir", "licm.after.mir"],
    );
    let verdict = |f: &str, b: &str| {
        blocks
            .iter()
            .find(|x| x["function"] == f && x["block"] == b)
            .unwrap_or_else(|| panic!("no {f} {b}: {}", run.context()))["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // `unchanged`: the reader's copy of the moved definition, placed after its PHIs, makes
    // the after-block the before-block's text (see the after-file's header).
    let want = [
        ("phi_feed", "bb.1", "proved"),
        ("loop_exec", "bb.0", "proved"),
        ("loop_exec", "bb.1", "unchanged"),
        ("licm_invariant_load", "bb.0", "proved"),
        ("licm_invariant_load", "bb.1", "unchanged"),
        ("licm_global_load", "bb.0", "proved"),
        ("licm_global_load", "bb.1", "unchanged"),
        ("sink_invariant_load", "bb.0", "proved"),
        ("sink_invariant_load", "bb.1", "unchanged"),
    ];
    for (f, b, v) in want {
        assert_eq!(verdict(f, b), v, "{f} {b}: {}", run.context());
    }
    // The hoisted load reads another offset than the loop's: wrong. Its `invariant` operand is
    // no longer the before-file's load's (another offset), so it exempts nothing from the
    // scalar-cache rule (breaker 16's 02) and the block is `unsupported` before the value
    // check that refuted it until 2026-12-06: never proved.
    assert_ne!(verdict("licm_load_wrong_offset", "bb.1"), "proved");
    // Lanes turned on between the hoisted VGPR copy and its reader: not copied, never proved.
    assert_ne!(verdict("loop_widen", "bb.1"), "proved");
    // A plain load hoisted above the loop's store to its own address (a real miscompile): the
    // store lies between the load and the loop's next entry, so the load is not copied.
    for b in ["bb.0", "bb.1"] {
        assert_ne!(
            verdict("licm_load_over_store", b),
            "proved",
            "licm_load_over_store {b}"
        );
    }
}
