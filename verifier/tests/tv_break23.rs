//! The twenty-third breaker's findings (`tests/data/tv/break23/README.md`): si-i1-copies'
//! class change of a `vreg_1` to the wave-mask class is a correspondence (it was an input
//! error, exit 2), and a register only one file reads is not compared at a block's end (a
//! refuted finalize-isel block).

use std::path::PathBuf;

fn tv(d: &str, args: &[&str]) -> gcnsmt_testkit::Run {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break23")
        .join(d);
    let mut all = vec!["tv"];
    all.extend(args);
    let r = gcnsmt_testkit::run_at(Some(&dir), env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &[]);
    r.assert_no_panic();
    r
}

const MISMATCH: &str = "do not correspond";

fn line<'a>(r: &'a gcnsmt_testkit::Run, block: &str) -> &'a str {
    r.stdout
        .lines()
        .find(|l| l.starts_with(block))
        .unwrap_or_else(|| panic!("no {block} line\n{}", r.context()))
}

#[test]
fn lane_mask_class_change_is_checked() {
    for t in ["gfx900", "gfx1100"] {
        let (b, a) = (format!("k2@{t}.before.mir"), format!("k2@{t}.after.mir"));
        let r = tv("05-i1", &[&b, &a]);
        assert_ne!(r.code, 2, "{}", r.context());
        assert!(!r.stderr.contains(MISMATCH), "{}", r.context());
        // bb.0 only gains the copy into the pass's new lane-mask PHI, which the before-file
        // never reads: nothing to refute.
        assert!(line(&r, "brk bb.0").contains("proved"), "{}", r.context());
        // The PHI lowering itself is not modelled: `unsupported`, not a verdict.
        assert!(
            line(&r, "brk bb.1").contains("unsupported"),
            "{}",
            r.context()
        );
    }
}

#[test]
fn lane_mask_through_llc() {
    for t in ["gfx900", "gfx1100"] {
        let r = tv("05-i1", &["--pass", "si-i1-copies", "k2.ll", "--target", t]);
        assert_ne!(r.code, 2, "{}", r.context());
        assert!(!r.stderr.contains(MISMATCH), "{}", r.context());
    }
    let r = tv(
        "05-i1",
        &[
            "--pipeline",
            "k2.ll",
            "--target",
            "gfx1100",
            "--until",
            "si-i1-copies",
        ],
    );
    assert!(!r.stderr.contains(MISMATCH), "{}", r.context());
    // Exit 3: blocks `unsupported` (the PHI lowering), none refuted, no input error.
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(!r.stdout.contains(MISMATCH), "{}", r.context());
    assert!(r.stdout.contains("si-i1-copies"), "{}", r.context());
}

#[test]
fn other_class_changes_stay_input_errors() {
    let r = tv(
        "05-i1",
        &["k2@gfx900.before.mir", "k2@gfx900.vgpr.after.mir"],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains(MISMATCH), "{}", r.context());
    assert!(r.stderr.contains("vgpr_32"), "{}", r.context());
    // The wave32 mask class on a wave64 target.
    let r = tv(
        "05-i1",
        &["k2@gfx900.before.mir", "k2@gfx900.wave32.after.mir"],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("wave64 mask class"), "{}", r.context());
}

#[test]
fn fresh_register_only_after_reads_is_not_compared() {
    let set = ["--set", "hazards=LATER"];
    let r = tv(
        "04-loop",
        &[&set[..], &["fi.before.mir", "fi.after.mir"]].concat(),
    );
    assert!(!line(&r, "brk bb.1").contains("refuted"), "{}", r.context());
    assert!(line(&r, "brk bb.1").contains("proved"), "{}", r.context());
    // The same block with a real change (the high half adds the wrong word) is refuted.
    let r = tv(
        "04-loop",
        &[&set[..], &["fi.before.mir", "fi.planted.after.mir"]].concat(),
    );
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(line(&r, "brk bb.1").contains("refuted"), "{}", r.context());
}
