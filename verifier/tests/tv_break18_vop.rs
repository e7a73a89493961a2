//! The eighteenth breaker's 03 (`tests/data/tv/break18/03/README.md`): after-files whose VALU
//! instructions the target cannot encode (two SGPRs or a literal in a gfx900 VOP3, an SGPR in
//! a VOP2 `src1`) are input errors, as odd VGPR tuples are (`tv_break17.rs`); the legal
//! variants are still proved.

use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break18/03")
}

/// `tv ARGS` in the data directory: exit code and output.
fn tv(args: &[&str]) -> gcnsmt_testkit::Run {
    let mut all = vec!["tv"];
    all.extend_from_slice(args);
    let r = gcnsmt_testkit::run_at(Some(&dir()), env!("CARGO_BIN_EXE_gcnsmt"), &all, None, &[]);
    r.assert_no_panic();
    r
}

#[test]
fn unencodable_vop_operands_are_input_errors() {
    // Positions: the operand llvm-mc-22 points at in the instruction's assembly form (README),
    // counted by hand in the MIR line: c1 199:49 `%12.sub0` (the second SGPR), c2 198:54
    // `100000`, c3 198:43 `%25`, p 9:45 `$sgpr3`.
    for (before, after, at, args) in [
        (
            "before.mir",
            "c1.after.mir",
            "c1.after.mir:199:49:",
            &[][..],
        ),
        ("before.mir", "c2.after.mir", "c2.after.mir:198:54:", &[]),
        ("before.mir", "c3.after.mir", "c3.after.mir:198:43:", &[]),
        (
            "p.before.mir",
            "p.after.mir",
            "p.after.mir:9:45:",
            &["--target", "gfx900", "--set", "hazards=LATER"],
        ),
    ] {
        let mut all = vec![before, after];
        all.extend_from_slice(args);
        let r = tv(&all);
        assert_eq!(r.code, 2, "{after}: {}", r.context());
        assert!(r.stderr.contains(at), "{after}: {}", r.context());
        assert!(!r.stdout.contains("proved"), "{after}: {}", r.context());
    }
}

#[test]
fn legal_variants_are_still_proved() {
    // llc-22 -verify-machineinstrs accepts each after-file on its target (README).
    for args in [
        // One SGPR on gfx900.
        &["before.mir", "one-sgpr.after.mir"][..],
        // Inline constants (16, -16) beside an SGPR on gfx900.
        &["before.mir", "inline.after.mir"],
        // Two SGPRs on gfx1100 (constant bus limit 2).
        &["gfx1100.before.mir", "c1-gfx1100.after.mir"],
        &[
            "p.before.mir",
            "p.after.mir",
            "--target",
            "gfx1100",
            "--set",
            "hazards=LATER",
        ],
    ] {
        let r = tv(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.context());
        assert!(r.stdout.contains(": proved"), "{args:?}: {}", r.context());
    }
}
