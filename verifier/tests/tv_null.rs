//! `$sgpr_null` reads 0 and discards writes (RDNA ISA guides, "Scalar operands"): the pairs in
//! `tests/data/tv/null/` with the verdicts computed by hand in the README there.

use std::path::Path;

/// The pairs are post-RA and about values, not wait states: `hazards=LATER` (under the default
/// CHECK any post-RA change of order is unsupported, docs/tv.md "Hazards").
fn verdict(before: &str, after: &str, target: &str) -> (String, String) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/null");
    gcnsmt_testkit::tv_changed(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &["--target", target, before, after, "--set", "hazards=LATER"],
    )
}

#[test]
fn null_reads_zero_and_discards_writes() {
    for t in ["gfx1030", "gfx1100", "gfx1200"] {
        for (before, after, want) in [
            ("before.mir", "after_zero.mir", "proved"),
            ("before.mir", "after_s0_null.mir", "refuted"),
            ("before.mir", "after_one.mir", "refuted"),
            ("write_before.mir", "write_after_commute.mir", "proved"),
            ("write_before.mir", "write_after_sub.mir", "refuted"),
        ] {
            let (v, why) = verdict(before, after, t);
            assert_eq!(v, want, "{after} on {t}: {why}");
        }
    }
}
