//! wave32 lane masks through the 32-bit SALU ops: the pairs in `tests/data/tv/exec32/` with
//! the verdicts computed by hand in the README there.

use std::path::Path;

fn verdict(after: &str, target: &str) -> (String, String) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/exec32");
    gcnsmt_testkit::tv_changed(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &["--target", target, "before.mir", after],
    )
}

#[test]
fn wave32_mask_ops_are_lanewise() {
    for t in ["gfx1030", "gfx1100", "gfx1200"] {
        for (after, want) in [
            ("after_commute.mir", "proved"),
            ("after_and.mir", "refuted"),
            ("after_andn2_swap.mir", "refuted"),
        ] {
            let (v, why) = verdict(after, t);
            assert_eq!(v, want, "{after} on {t}: {why}");
        }
    }
}

#[test]
fn half_a_wave64_mask_is_not_lanewise() {
    let (v, why) = verdict("after_commute.mir", "gfx900");
    assert_eq!(v, "unsupported", "{why}");
}
