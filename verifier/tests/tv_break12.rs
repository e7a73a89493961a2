//! The twelfth breaker's wrong proofs (`tests/data/tv/break12/README.md` says why each pair is
//! wrong): an `undef` sub-register def that drops lanes an earlier copy of the block wrote.

#[test]
fn the_twelfth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break12");
    for n in [
        "01-undef-subreg-def-kills-lanes",
        "03-undef-on-insert-subreg-lowering",
    ] {
        let (b, a) = (format!("{n}.before.mir"), format!("{n}.after.mir"));
        gcnsmt_testkit::assert_never_proved(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &dir,
            n,
            [&b, &a],
            &["--target", "gfx900"],
        );
    }
}
