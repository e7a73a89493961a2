//! The twenty-fourth breaker's findings 00 and 06 (`tests/data/tv/break24/README.md`): an
//! after-file that llc-22 wrote, with one function fact outside the instructions edited (a
//! spill slot's `stack-id`, `argumentInfo`, `ldsSize`, the float `mode:`, a global's
//! initializer, function attributes), was `proved` or `unchanged` (exit 0) by whichever
//! checker decided the pair: the register-allocation checker, the renaming checker, the
//! si-insert-waitcnts path or the block checks. llc-22 compiles each edited file into a
//! kernel that computes something else (the tester's README). Each must now be refused
//! (exit 3, `unsupported`) with the field named, and each unedited llc-22 pair stay proved.

use std::path::PathBuf;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break24")
        .join(sub)
}

/// `tv --target gfx900 [MORE..] BEFORE AFTER` in `d`.
fn tv(d: &str, more: &[&str], before: &str, after: &str) -> gcnsmt_testkit::Run {
    let mut args = vec!["tv", "--target", "gfx900"];
    args.extend(more);
    args.extend([before, after]);
    let d = dir(d);
    let r = gcnsmt_testkit::run_at(Some(&d), env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
    r.assert_no_panic();
    r
}

/// Not proved: exit 3, an `unsupported` verdict whose reason names `field`, nothing proved
/// in the function the edit is in.
fn refused(r: &gcnsmt_testkit::Run, function: &str, field: &str) {
    assert_eq!(r.code, 3, "{}", r.context());
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with(&format!("{function} ")) && l.contains(": unsupported"))
        .unwrap_or_else(|| panic!("no unsupported verdict of {function}: {}", r.context()));
    assert!(line.contains(field), "{line}\n{}", r.context());
    let proved = format!("{function} bb.");
    assert!(
        !r.stdout
            .lines()
            .any(|l| l.starts_with(&proved) && l.contains(": proved")),
        "{}",
        r.context()
    );
}

fn proved(r: &gcnsmt_testkit::Run) {
    assert_eq!(r.code, 0, "{}", r.context());
}

#[test]
fn a_noalloc_spill_slot_is_not_proved() {
    // Slot 14 existed before (stack-slot-coloring); slot 17 is new (greedy .. virtregrewriter).
    let r = tv("00-frame-info", &[], "before.mir", "bad.after.mir");
    refused(&r, "sp", "stack-id");
    let r = tv("00-frame-info", &[], "ra.before.mir", "ra.bad.after.mir");
    refused(&r, "sp", "stack-id: noalloc");
    proved(&tv("00-frame-info", &[], "before.mir", "good.after.mir"));
}

#[test]
fn a_changed_argument_register_is_not_proved() {
    let r = tv("00-frame-info", &[], "before.mir", "argbad.after.mir");
    refused(&r, "sp", "machineFunctionInfo: argumentInfo");
    let d = "00-frame-info/renaming-checker-variant";
    refused(
        &tv(d, &[], "rn.before.mir", "rn1.after.mir"),
        "divloop",
        "machineFunctionInfo: argumentInfo",
    );
    proved(&tv(d, &[], "rn.before.mir", "rn.after.mir"));
    let (d, w) = ("00-frame-info/wcf", ["--pass", "si-insert-waitcnts"]);
    refused(
        &tv(d, &w, "wc_gfx900.before.mir", "wcf1.after.mir"),
        "lds_if",
        "machineFunctionInfo: argumentInfo",
    );
    proved(&tv(d, &w, "wc_gfx900.before.mir", "wc_gfx900.after.mir"));
}

#[test]
fn a_shrunk_lds_size_is_not_proved() {
    for d in [
        "00-frame-info/lds-size-variant",
        "00-frame-info/peephole-variant",
    ] {
        let r = tv(d, &[], "before.mir", "bad.after.mir");
        refused(&r, "xchg", "machineFunctionInfo: ldsSize");
        proved(&tv(d, &[], "before.mir", "good.after.mir"));
    }
    // The IR attribute instead of the field. The unedited pair is not all proved (the
    // allocation checker cannot follow `lds_if`), but nothing in it is refused for its facts.
    let d = "00-frame-info/lds-attr";
    let r = tv(d, &[], "ra.before.mir", "lds2.after.mir");
    refused(&r, "loop", "amdgpu-lds-size");
    let r = tv(d, &[], "ra.before.mir", "ra.after.mir");
    assert!(!r.stdout.contains("embedded IR"), "{}", r.context());
}

#[test]
fn a_changed_float_mode_is_not_proved() {
    let d = "00-frame-info/mode-variant";
    let r = tv(d, &[], "r2.before.mir", "bad.after.mir");
    refused(&r, "reduce", "machineFunctionInfo: mode");
    proved(&tv(d, &[], "r2.before.mir", "r2.after.mir"));
    let (d, w) = (
        "00-frame-info/waitcnt-variant",
        ["--pass", "si-insert-waitcnts"],
    );
    refused(
        &tv(d, &w, "before.mir", "bad.after.mir"),
        "reduce",
        "machineFunctionInfo: mode",
    );
    proved(&tv(d, &w, "before.mir", "good.after.mir"));
}

#[test]
fn an_edited_ir_module_is_not_proved_or_unchanged() {
    let d = "06-embedded-ir";
    for (p, function, what) in [
        ("lu", "lut", "i32 31"),
        ("lf", "lut", "i32 31"),
        ("xf", "xchg", "amdgpu-no-dispatch-ptr"),
    ] {
        let (b, a, bad) = (
            format!("{p}.before.mir"),
            format!("{p}.after.mir"),
            format!("{p}.bad.after.mir"),
        );
        let r = tv(d, &[], &b, &bad);
        refused(&r, function, "embedded IR module differs");
        refused(&r, function, what);
        proved(&tv(d, &[], &b, &a));
    }
}
