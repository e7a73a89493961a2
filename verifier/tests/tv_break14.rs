//! The fourteenth breaker's wrong proofs (`tests/data/tv/break14/README.md` says why each pair
//! is wrong): EXEC read through STATUS, VCCZ left stale, MODE set in another block.

#[test]
fn the_fourteenth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break14");
    let later = ["--target", "gfx900", "--set", "hazards=LATER"];
    for (n, args) in [
        ("01-exec-dead-getreg-status", &later[..2]),
        ("01-postra", &later[..]),
        ("02-vccz-restore-dropped", &later[..]),
        ("03-setreg-round-mode", &later[..2]),
    ] {
        let (b, a) = (format!("{n}.before.mir"), format!("{n}.after.mir"));
        gcnsmt_testkit::assert_never_proved(env!("CARGO_BIN_EXE_gcnsmt"), &dir, n, [&b, &a], args);
    }
}
