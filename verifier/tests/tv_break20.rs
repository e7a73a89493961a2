//! The twentieth breaker's findings (`tests/data/tv/break20/README.md`): tied physical
//! operands that name two registers and a pair whose files name different targets are input
//! errors; `+cumode` makes gfx1010's `lds_misaligned` DEFINED. Each pair was proved or
//! `unchanged` (exit 0) before.

use std::path::PathBuf;

fn tv(d: &str, args: &[&str]) -> gcnsmt_testkit::Run {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break20")
        .join(d);
    let mut all = vec!["tv"];
    all.extend(args);
    let r = gcnsmt_testkit::run_at(Some(&dir), env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn tied_physical_registers_must_match() {
    let r = tv("01-tied", &["t3.before.mir", "t3.after.mir"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("t3.after.mir:170:25: error:"),
        "{}",
        r.context()
    );
    let r = tv(
        "01-tied",
        &[
            "--set",
            "hazards=LATER",
            "sdwa.before.mir",
            "sdwa.after.mir",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("sdwa.after.mir:165:82: error:"),
        "{}",
        r.context()
    );
    // The before-files are llc-22's own and stay valid.
    let r = tv("01-tied", &["t3.before.mir", "t3.before.mir"]);
    assert_eq!(r.code, 0, "{}", r.context());
}

#[test]
fn a_pass_does_not_change_the_target() {
    let r = tv("03-target", &["k17.900.mir", "k17.as803.mir"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("k17.as803.mir:39:1: error:"),
        "{}",
        r.context()
    );
    assert!(r.stderr.contains("\"gfx803\""), "{}", r.context());
}

#[test]
fn cu_mode_has_no_misaligned_lds_bug() {
    let r = tv("08-cumode", &["before.mir", "after.mir"]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("lds_misaligned=DEFINED"),
        "{}",
        r.context()
    );
}
