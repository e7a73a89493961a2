//! The eighteenth breaker's findings (`tests/data/tv/break18/README.md`): MIR that llc could
//! not have written (a PHI after a non-PHI, an instruction after the block's first
//! terminator, a layout that contradicts the `successors:` lines, a register read where its
//! SSA definition does not dominate the read) is an input error; a pass that changes only the
//! frame objects or the function info makes the function `unsupported`. Each case was wrongly
//! `proved` or `unchanged` (exit 0) before.

use std::path::PathBuf;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break18")
        .join(sub)
}

/// `tv --target gfx900 BEFORE AFTER` in `d`.
fn tv(d: &str, before: &str, after: &str) -> gcnsmt_testkit::Run {
    let args = ["tv", "--target", "gfx900", before, after];
    let d = dir(d);
    let r = gcnsmt_testkit::run_at(Some(&d), env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
    r.assert_no_panic();
    r
}

/// An input error (exit 2) at `at` (`file:line:col:`), saying `what`.
fn input_error(r: &gcnsmt_testkit::Run, at: &str, what: &str) {
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains(at), "{}", r.context());
    assert!(r.stderr.contains(what), "{}", r.context());
}

#[test]
fn a_read_its_definition_does_not_dominate_is_an_input_error() {
    // Positions by hand: the operand that reads the register (README).
    for (name, at, reg) in [
        ("us", "us.after.mir:17:28:", "%2"),
        ("ud", "ud.after.mir:15:28:", "%2"),
        ("us2", "us2.after.mir:15:23:", "%1"),
        ("sc", "sc.after.mir:15:23:", "%1"),
    ] {
        let (b, a) = (format!("{name}.before.mir"), format!("{name}.after.mir"));
        input_error(
            &tv("06-dominance", &b, &a),
            at,
            &format!("{reg} is read here"),
        );
        // The before-file is valid SSA: compared with itself, nothing changed.
        let r = tv("06-dominance", &b, &b);
        assert_eq!(r.code, 0, "{}", r.context());
    }
}

#[test]
fn a_phi_after_a_non_phi_is_an_input_error() {
    let r = tv("08-phi", "before.mir", "after.mir");
    input_error(&r, "after.mir:341:5:", "PHI after the non-PHI");
}

#[test]
fn an_instruction_after_the_first_terminator_is_an_input_error() {
    let r = tv("10-terminator", "tb.before.mir", "tb.after.mir");
    input_error(
        &r,
        "tb.after.mir:17:5:",
        "after the block's first terminator",
    );
    let r = tv("10-terminator", "tb.before.mir", "tb.before.mir");
    assert_eq!(r.code, 0, "{}", r.context());
}

#[test]
fn a_layout_that_contradicts_the_successors_is_an_input_error() {
    let r = tv("05-layout", "ft.before.mir", "ft.after.mir");
    input_error(&r, "ft.after.mir:6:17:", "lists successor %bb.1");
}

#[test]
fn a_changed_frame_object_or_function_info_is_unsupported() {
    for after in ["after.mir", "after_sizeonly.mir", "after2.mir"] {
        let r = tv("04-frame", "before.mir", after);
        assert_eq!(r.code, 3, "{after}: {}", r.context());
        assert!(
            r.stdout.contains("stk bb.0 gfx900: unsupported"),
            "{}",
            r.context()
        );
        assert!(
            r.stdout.contains("frame or function info"),
            "{}",
            r.context()
        );
    }
    // Offsets prologepilog overwrites: llc-22 emits the same code (README), still unchanged.
    let r = tv("04-frame", "before.mir", "after_offset.mir");
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout.contains("stk bb.0 gfx900: unchanged"),
        "{}",
        r.context()
    );
}

#[test]
fn a_flag_the_pass_added_is_an_unbacked_claim() {
    // `nsz` added to a V_ADD_F32 (README, 09-flags): llc-22's si-fold-operands acts on it.
    let r = tv("09-flags", "om.before.mir", "om.nsz.mir");
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(r.stdout.contains("added the flag `nsz`"), "{}", r.context());
    // Removing it claims less: still proved.
    let r = tv("09-flags", "om.nsz.mir", "om.before.mir");
    assert_eq!(r.code, 0, "{}", r.context());
}

#[test]
fn a_compare_the_pass_deleted_before_a_barrier_is_not_compared_there() {
    // README, 07-exec-masking: llc-22's own si-optimize-exec-masking output (wave32).
    for (target, b, a) in [
        ("gfx1100", "before.mir", "after.mir"),
        ("gfx1030", "before.gfx1030.mir", "after.gfx1030.mir"),
    ] {
        let args = [
            "tv",
            "--target",
            target,
            "--set",
            "hazards=LATER",
            "--format",
            "json",
            b,
            a,
        ];
        let d = dir("07-exec-masking");
        let r = gcnsmt_testkit::run_at(Some(&d), env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
        r.assert_no_panic();
        let bb0 = r
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["block"] == "bb.0")
            .unwrap_or_default();
        // Not refuted: the compare no longer meets the after-file's carry at the barrier.
        // Proved since the after-file's `V_CMPX_LT_U32_nosdst_e64` is modelled (`cmpx.rs`):
        // by hand, before EXEC' = EXEC & (16 < v2) (V_CMP, then `S_AND_B32` with the saved
        // EXEC and the `S_MOV_B32_term`), after EXEC' = EXEC & (16 < v2) (V_CMPX writes EXEC
        // only on gfx10+), `sgpr2` = EXEC' ^ EXEC on both sides; it was `unsupported` before.
        assert_eq!(bb0["verdict"], "proved", "{target}: {}", r.context());
        // bb.1: `S_OR_SAVEEXEC_B32 s; $exec_lo = S_XOR_B32_term $exec_lo, s` became
        // `S_ANDN2_SAVEEXEC_B32 s`: EXEC' = (s | E) ^ E = s & ~E on both sides.
        let bb1 = r
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["block"] == "bb.1")
            .unwrap_or_default();
        assert_eq!(bb1["verdict"], "proved", "{target}: {}", r.context());
        assert_eq!(r.code, 0, "{target}: {}", r.context());
    }
}
