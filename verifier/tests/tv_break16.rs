//! The sixteenth breaker's wrong proof (`tests/data/tv/break16/README.md`): the SCC of
//! S_ADD_U64_PSEUDO/S_SUB_U64_PSEUDO taken as the carry on gfx12, where they become
//! `s_add_nc_u64`/`s_sub_nc_u64`, which leave SCC alone; a FLAT access's memory operand
//! narrowed to `addrspace 1` by the pass (plain tv) or in an si-insert-waitcnts after-file (the
//! wait analysis trusted it and accepted a dropped lgkmcnt wait).

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

#[test]
fn a_flat_memory_operand_narrowed_by_the_pass_is_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/03-flat-memop");
    let waits = ["--pass", "si-insert-waitcnts"];
    for (n, b, a, args) in [
        ("waits", "before.mir", "after.mir", &waits[..]),
        ("waits-gfx12", "fl12.before.mir", "fl12A.mir", &waits[..]),
        ("plain", "pass_before.mir", "pass_after.mir", &[][..]),
    ] {
        gcnsmt_testkit::assert_never_proved(env!("CARGO_BIN_EXE_gcnsmt"), &dir, n, [b, a], args);
    }
}

#[test]
fn a_new_scalar_load_in_a_callable_function_is_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/04-scalar-callable");
    gcnsmt_testkit::assert_never_proved(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        "callable",
        ["before.mir", "after.mir"],
        &[],
    );
}
