//! A memory operand's claims (`invariant`, `dereferenceable`, `!noalias` ...) on a vector or
//! DS access are backed only by before-accesses of the same base registers and bytes
//! (`tv/vmem_span.rs`, docs/tv.md): one borrowed from another access's operand is never proved.
//! Pairs and hand verdicts: tests/data/tv/claims/README.md.

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/claims")
}

fn verdict(after: &str) -> (String, String) {
    let args = ["tv", "k.gfx900.before.mir", after, "--target", "gfx900"];
    gcnsmt_testkit::tv_changed(env!("CARGO_BIN_EXE_gcnsmt"), &dir(), &args[1..])
}

#[test]
fn an_invariant_claim_borrowed_onto_another_load_is_never_proved() {
    gcnsmt_testkit::assert_never_proved(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir(),
        "borrowed",
        ["k.gfx900.before.mir", "borrowed.gfx900.after.mir"],
        &["--target", "gfx900"],
    );
    let (v, why) = verdict("borrowed.gfx900.after.mir");
    assert_eq!(v, "unsupported", "{why}");
    assert!(why.contains("invariant"), "{why}");
}

#[test]
fn the_loads_reordered_with_their_own_operands_are_proved() {
    let (v, why) = verdict("swapped.gfx900.after.mir");
    assert_eq!(v, "proved", "{why}");
}
