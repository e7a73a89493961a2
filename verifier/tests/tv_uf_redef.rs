//! Uninterpreted instructions in non-SSA MIR and one-block loops: the pairs in
//! `tests/data/tv/uf_redef/` with the verdicts worked out in the README there.

use std::path::Path;

fn verdict(before: &str, after: &str) -> (String, String) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/uf_redef");
    gcnsmt_testkit::tv_changed(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &["--target", "gfx900", before, after],
    )
}

#[test]
fn a_redefined_register_holds_the_uninterpreted_result() {
    // The wrong proof: the stale earlier value of %3 was read as the BFE's result.
    let (v, why) = verdict("before.mir", "after_stale.mir");
    assert_ne!(v, "proved", "{why}");
    let (v, why) = verdict("before.mir", "after_deadcopy.mir");
    assert_eq!(v, "proved", "{why}");
}

#[test]
fn a_loop_input_written_again_is_snapshotted() {
    let (v, why) = verdict("loop_before.mir", "loop_after_commute.mir");
    assert_eq!(v, "proved", "{why}");
    let (v, why) = verdict("loop_before.mir", "loop_after_sub.mir");
    assert_ne!(v, "proved", "{why}");
}
