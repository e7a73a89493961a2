//! Pure instructions on physical registers moved across `S_BARRIER` by a post-RA pass are
//! checked where the before-file has them (`tv/barrier_phys.rs`); a move that changes a value
//! stays refuted. Pairs and hand verdicts: tests/data/tv/barrier_phys/README.md.

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/barrier_phys")
}

fn verdict(before: &str, after: &str) -> (String, String) {
    let args = [
        before,
        after,
        "--target",
        "gfx900",
        "--set",
        "hazards=LATER",
    ];
    gcnsmt_testkit::tv_changed(env!("CARGO_BIN_EXE_gcnsmt"), &dir(), &args)
}

#[test]
fn pure_valu_moved_across_the_barrier_is_proved() {
    for (b, a) in [
        ("before.mir", "moved.after.mir"),
        ("k2.before.mir", "k2.after.mir"),
    ] {
        let (v, why) = verdict(b, a);
        assert_eq!(v, "proved", "{a}: {why}");
    }
}

#[test]
fn a_definition_moved_above_a_reader_of_its_register_is_refuted() {
    let (v, why) = verdict("before.mir", "early.after.mir");
    assert_eq!(v, "refuted", "{why}");
}
