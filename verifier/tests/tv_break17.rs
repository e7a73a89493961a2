//! The seventeenth breaker's findings (`tests/data/tv/break17/README.md`): an odd-aligned
//! VGPR tuple on gfx90a (not encodable: an input error), an inline register class that
//! contradicts the `registers:` entry or names no AMDGPU class (an input error, as llc-22
//! rejects both), and a gfx1100 64-bit MAD whose result overlaps its sources (LLVM
//! `FeatureMADIntraFwdBug`; the `_gfx11_e64` form is early-clobber): never proved.

use std::path::PathBuf;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break17")
        .join(sub)
}

/// `tv BEFORE AFTER ARGS` in `d`: exit code and stderr.
fn tv(d: &std::path::Path, args: &[&str]) -> gcnsmt_testkit::Run {
    let mut all = vec!["tv"];
    all.extend_from_slice(args);
    let r = gcnsmt_testkit::run_at(Some(d), env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn an_odd_vgpr_tuple_on_gfx90a_is_an_input_error() {
    let d = dir("16-odd-tuple");
    for args in [
        &["before.mir", "after.mir"][..],
        &["before.mir", "after.mir", "--set", "hazards=LATER"],
    ] {
        let r = tv(&d, args);
        assert_eq!(r.code, 2, "{}", r.context());
        // llc-22 -verify-machineinstrs: line 150, `$vgpr5_vgpr6` (hand-checked position).
        assert!(r.stderr.contains("after.mir:150:"), "{}", r.context());
        assert!(r.stderr.contains("$vgpr5_vgpr6"), "{}", r.context());
    }
    // The same pair with the tuple at v[4:5], which llc-22's verifier accepts: proved.
    let r = tv(&d, &["before.mir", "after-even.mir"]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains(": proved"), "{}", r.context());
}

#[test]
fn a_conflicting_or_unknown_register_class_is_an_input_error() {
    let d = dir("13-class");
    for (after, msg) in [
        ("after-sgpr_32.mir", "conflicting register classes"),
        ("after-vreg_64.mir", "conflicting register classes"),
        ("after-vgpr_99.mir", "`vgpr_99`"),
    ] {
        let r = tv(&d, &["before.mir", after, "--function", "rawbuf"]);
        assert_eq!(r.code, 2, "{after}: {}", r.context());
        // llc-22 reports both at 485:8 (README).
        assert!(
            r.stderr.contains(&format!("{after}:485:8:")),
            "{}",
            r.context()
        );
        assert!(r.stderr.contains(msg), "{}", r.context());
    }
    let r = tv(&d, &["before.mir", "before.mir", "--function", "rawbuf"]);
    assert_eq!(r.code, 0, "{}", r.context());
}

#[test]
fn a_gfx1100_mad_whose_result_overlaps_a_source_is_never_proved() {
    let d = dir("14-mad-ec");
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    for a in ["after.mir", "after-plain-opcode.mir"] {
        for args in [&["--set", "hazards=LATER"][..], &[][..]] {
            gcnsmt_testkit::assert_never_proved(bin, &d, a, ["before.mir", a], args);
        }
    }
    // The result moved to v[6:7], disjoint from the sources: proved.
    let r = tv(
        &d,
        &["before.mir", "after-disjoint.mir", "--set", "hazards=LATER"],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains(": proved"), "{}", r.context());
}

/// Finding 15: `gcnsmt waitcnt` on `tests/data/timing/break17/FILE` (README there).
fn waitcnt(file: &str) -> gcnsmt_testkit::Run {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/break17")
        .join(file);
    let f = f.to_string_lossy().to_string();
    let r = gcnsmt_testkit::run(env!("CARGO_BIN_EXE_gcnsmt"), &["waitcnt", &f], None, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn a_buffer_store_lds_is_inconclusive_and_needs_its_lds_operand() {
    // docs/timing.md: the LDS read of BUFFER_STORE_LDS_* is not modelled: never clean.
    let r = waitcnt("store_lds.s");
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(
        r.all().contains("store_lds.s:7:2: unknown"),
        "{}",
        r.context()
    );
    // llvm-mc-22: "too few operands for instruction".
    let r = waitcnt("store_lds_no_lds_operand.s");
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.all().contains("`lds` operand"), "{}", r.context());
    // A plain buffer store touches no LDS: clean.
    let r = waitcnt("store_plain.s");
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.stdout.contains("0 hazard(s)"), "{}", r.context());
}
