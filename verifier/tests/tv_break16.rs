//! The sixteenth breaker's wrong proof (`tests/data/tv/break16/README.md`): the SCC of
//! S_ADD_U64_PSEUDO/S_SUB_U64_PSEUDO taken as the carry on gfx12, where they become
//! `s_add_nc_u64`/`s_sub_nc_u64`, which leave SCC alone.

#[test]
fn the_sixteenth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/01-s-add-u64-pseudo-scc-gfx12");
    for (n, b, a) in [
        ("add", "before.mir", "after.mir"),
        ("sub", "sub_before.mir", "sub_after.mir"),
    ] {
        gcnsmt_testkit::assert_never_proved(env!("CARGO_BIN_EXE_gcnsmt"), &dir, n, [b, a], &[]);
    }
}
