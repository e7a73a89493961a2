//! `V_CMPX_*` in the EXEC model (`tv/cmpx.rs`): the gfx10+ `nosdst` forms that write EXEC only,
//! and gfx9's VOPC form that writes VCC and EXEC; and the else branch's `S_ANDN2_SAVEEXEC` that
//! si-optimize-exec-masking makes in the same pairs (`tv/exec.rs`). Pairs and hand verdicts:
//! `tests/data/tv/cmpx/README.md` (llc-22's si-optimize-exec-masking output and one-line edits).

use std::path::Path;

/// `tv --set hazards=LATER --target T BEFORE AFTER`: the exit code and bb.0's verdict and reason.
fn tv(target: &str, before: &str, after: &str) -> (i32, String, String) {
    tv_block(target, before, after, "bb.0")
}

/// [`tv`] for block `block`.
fn tv_block(target: &str, before: &str, after: &str, block: &str) -> (i32, String, String) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cmpx");
    let args = ["--set", "hazards=LATER", "--target", target, before, after];
    let (blocks, r) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    r.assert_no_panic();
    let b = blocks
        .iter()
        .find(|b| b["block"] == block)
        .unwrap_or_else(|| panic!("no {block}: {}", r.context()));
    let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
    (r.code, s("verdict"), s("reason"))
}

/// `(exit code, verdict)` of each pair, all other blocks unchanged (README: 0 proved, 1 refuted,
/// 3 unsupported).
fn expect(target: &str, before: &str, cases: &[(&str, i32, &str)]) {
    for (after, code, verdict) in cases {
        let (c, v, why) = tv(target, before, after);
        assert_eq!(
            (c, v.as_str()),
            (*code, *verdict),
            "{after} on {target}: {why}"
        );
    }
}

#[test]
fn llc_s_nosdst_cmpx_is_proved_and_a_wrong_compare_refuted() {
    for t in ["gfx1030", "gfx1100", "gfx1200"] {
        let before = format!("ifc.{t}.before.mir");
        let (after, le) = (format!("ifc.{t}.after.mir"), format!("ifc.{t}.le.mir"));
        expect(t, &before, &[(&after, 0, "proved"), (&le, 1, "refuted")]);
    }
}

#[test]
fn the_compare_is_what_counts_not_its_text() {
    expect(
        "gfx1100",
        "ifc.gfx1100.before.mir",
        &[
            ("ifc.gfx1100.swap.mir", 1, "refuted"),
            ("ifc.gfx1100.gt.mir", 0, "proved"),
            ("ifc.gfx1100.e32.mir", 0, "proved"),
            ("ifc.gfx1100.le32.mir", 1, "refuted"),
        ],
    );
}

#[test]
fn float_compares_in_both_encodings() {
    // NGE differs from LT only for a NaN operand.
    expect(
        "gfx1100",
        "fif.gfx1100.before.mir",
        &[
            ("fif.gfx1100.after.mir", 0, "proved"),
            ("fif.gfx1100.e32.mir", 0, "proved"),
            ("fif.gfx1100.nge.mir", 1, "refuted"),
            ("fif.gfx1100.nge32.mir", 1, "refuted"),
        ],
    );
}

#[test]
fn a_valu_op_after_the_cmpx_runs_under_the_new_exec() {
    expect(
        "gfx1100",
        "mov.gfx1100.before.mir",
        &[
            ("mov.gfx1100.ok.mir", 0, "proved"),
            ("mov.gfx1100.late.mir", 1, "refuted"),
        ],
    );
    // The refutation is the moved write: v3 in the lane the compare turned off.
    let (_, _, why) = tv("gfx1100", "mov.gfx1100.before.mir", "mov.gfx1100.late.mir");
    assert!(why.contains("v3"), "{why}");
}

#[test]
fn gfx9_vopc_cmpx_writes_vcc_and_exec() {
    expect(
        "gfx900",
        "ifc.gfx900.after.mir",
        &[
            ("ifc.gfx900.vcc32.mir", 0, "proved"),
            ("ifc.gfx900.vcc32le.mir", 1, "refuted"),
        ],
    );
}

#[test]
fn a_form_the_target_cannot_encode_is_unsupported() {
    for (t, before, after) in [
        ("gfx900", "ifc.gfx900.after.mir", "ifc.gfx900.nosdst.mir"),
        ("gfx1100", "ifc.gfx1100.before.mir", "ifc.gfx1100.sdst.mir"),
    ] {
        let (c, v, why) = tv(t, before, after);
        assert_eq!((c, v.as_str()), (3, "unsupported"), "{after}: {why}");
        assert!(why.contains("has no encoding"), "{after}: {why}");
    }
}

#[test]
fn the_else_branch_andn2_saveexec_is_exec_and_not_the_old_exec() {
    for t in ["gfx900", "gfx1200"] {
        let (before, after) = (format!("k2.{t}.before.mir"), format!("k2.{t}.after.mir"));
        let wrong = format!("k2.{t}.and.mir");
        for b in ["bb.0", "bb.1"] {
            let (c, v, why) = tv_block(t, &before, &after, b);
            assert_eq!((c, v.as_str()), (0, "proved"), "{after} {b} on {t}: {why}");
        }
        let (c, v, why) = tv_block(t, &before, &wrong, "bb.1");
        assert_eq!((c, v.as_str()), (1, "refuted"), "{wrong} on {t}: {why}");
    }
}
