//! Else-region PHIs in the renaming checker (`tv/rename_else.rs`; docs/tv.md "Else-region
//! PHIs (si-opt-vgpr-liverange)") on the pairs of `tests/data/tv/vgprlr/`: llc-22's
//! si-opt-vgpr-liverange pairs of two of our kernels (proved) and hand-planted wrong
//! after-files (never proved). Each verdict is worked out in that directory's README.md.

use std::path::Path;

/// The block, verdict and reason of each changed block of `tv before after` on gfx900.
fn blocks(before: &str, after: &str) -> Vec<(String, String, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/vgprlr");
    let args = ["--target", "gfx900", before, after];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    blocks
        .iter()
        .filter(|b| b["changed"] == true)
        .map(|b| {
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"), s("reason"))
        })
        .collect()
}

const DL: &str = "divergent_loop@gfx900.si-opt-vgpr-liverange";
const ST: &str = "stencil_2d@gfx900.si-opt-vgpr-liverange";

/// llc-22's pairs: `%93 = PHI %7, %bb.3, undef %94, %bb.6` in divergent_loop's flow block bb.4,
/// read by the else-block bb.5; two such PHIs (`%8`, `%7`) in stencil_2d's bb.3, read by the
/// store of bb.4. Every changed block proved by the renaming checker (main's block checks
/// refuted 3 blocks of each, 2026-12-06).
#[test]
fn llc_pairs_are_proved() {
    for (p, n) in [(DL, 2), (ST, 2)] {
        let v = blocks(&format!("{p}.before.mir"), &format!("{p}.after.mir"));
        let ok = v.len() == n
            && v.iter()
                .all(|(_, x, r)| x == "proved" && r.starts_with("renaming checker"));
        assert!(ok, "{p}: {v:?}");
    }
}

/// The planted block is changed and not proved, and no block is proved by the renaming
/// checker.
fn planted_not_proved(before: &str, after: &str, block: &str) {
    let v = blocks(before, after);
    let b = v.iter().find(|(b, _, _)| b == block);
    assert!(b.is_some_and(|(_, x, _)| x != "proved"), "{after}: {v:?}");
    let renamed = |r: &String| r.starts_with("renaming checker");
    assert!(!v.iter().any(|(_, _, r)| renamed(r)), "{after}: {v:?}");
}

/// The PHI's inputs swapped (`undef` from the `if`-block bb.3, `%7` from the then-block bb.6):
/// a thread in the else-block bb.5 came from bb.3 and reads garbage.
#[test]
fn swapped_inputs_are_not_proved() {
    planted_not_proved(
        &format!("{DL}.before.mir"),
        "wrong-swapped.after.mir",
        "bb.5",
    );
}

/// The PHI's value taken from another register (`%73`, the x index, for the loaded `%7`): the
/// else-block stores another value.
#[test]
fn a_wrong_source_is_not_proved() {
    planted_not_proved(
        &format!("{ST}.before.mir"),
        "wrong-source.after.mir",
        "bb.4",
    );
}

/// The PHI read in the end-block bb.7 (the latch) instead of the else-block: the threads that
/// ran the then-block bb.6 reach it with the `undef` input. Before-file edited the same way
/// (`endif-read.before.mir` reads `%7` there).
#[test]
fn a_read_outside_the_else_block_is_not_proved() {
    planted_not_proved(
        "endif-read.before.mir",
        "wrong-endif-read.after.mir",
        "bb.7",
    );
}
