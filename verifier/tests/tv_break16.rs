//! The sixteenth breaker's wrong proof (`tests/data/tv/break16/README.md`): the SCC of
//! S_ADD_U64_PSEUDO/S_SUB_U64_PSEUDO taken as the carry on gfx12, where they become
//! `s_add_nc_u64`/`s_sub_nc_u64`, which leave SCC alone; a FLAT access's memory operand
//! narrowed to `addrspace 1` by the pass (plain tv) or in an si-insert-waitcnts after-file (the
//! wait analysis trusted it and accepted a dropped lgkmcnt wait); a new scalar load exempt by a
//! memory operand copied from another load; an SALU opcode the target lacks.

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

#[test]
fn a_new_scalar_load_with_a_borrowed_memory_operand_is_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/02-scalar-borrowed-memop");
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    gcnsmt_testkit::assert_never_proved(bin, &dir, "borrowed", ["before.mir", "after.mir"], &[]);
    // The same bytes as the before-block's `S_LOAD_DWORD_IMM %9, 24` (hand check: same base
    // register, same offset): covered, proved.
    let out = std::process::Command::new(bin)
        .current_dir(&dir)
        .args(["tv", "before.mir", "after_covered.mir"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("acq bb.1 gfx900: proved"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
}

#[test]
fn an_salu_opcode_the_target_lacks_is_an_error() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/06-cmpk-gfx12");
    let run = |b: &str, a: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args(["tv", b, a])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), text)
    };
    // llvm-mc-22 -mcpu=gfx1200 rejects `s_cmpk_eq_u32`; -mcpu=gfx1100 encodes it (b4800010).
    let (code, text) = run("before.mir", "after.mir");
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("`s_cmpk_eq_u32` does not exist on gfx1200"),
        "{text}"
    );
    let (code, text) = run("gfx1100.before.mir", "gfx1100.after.mir");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(": proved"), "{text}");
}

#[test]
fn a_claim_on_an_access_whose_operands_a_fold_changed_stays_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break16/02-scalar-borrowed-memop");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", "fold.before.mir", "fold.after.mir"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // Hand check: the folded register `%32` is `S_MOV_B32 0` in the same block, so every
    // access reads the same soffset value as before.
    assert!(text.contains("buffer_scale bb.0 gfx900: proved"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
}
