//! The twenty-third breaker's wrong proofs on `verify` (`tests/data/break23/README.md`): a
//! compare mask used as a number (decided by no lane count), an EXEC write activating lanes a
//! `Lanes: N` check does not run, and a first-lane read of a VGPR that may differ between
//! lanes. Each rule was `proved`; each is `unknown` now.

use gcnsmt_testkit::{run_at, Run};
use std::path::PathBuf;

fn verify(file: &str) -> Run {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/break23");
    let r = run_at(
        Some(&data),
        env!("CARGO_BIN_EXE_gcnsmt"),
        &["verify", file, "--no-matrix"],
        None,
        &[],
    );
    r.assert_no_panic();
    r
}

/// Every verdict of `file` is UNKNOWN, with `why` in its reason; the exit code 3.
fn all_unknown(file: &str, verdicts: usize, why: &str) {
    let r = verify(file);
    assert_eq!(r.code, 3, "{file}: {}", r.context());
    assert_eq!(
        r.stdout.matches("UNKNOWN").count(),
        verdicts,
        "{file}: {}",
        r.context()
    );
    assert!(!r.stdout.contains("PROVED"), "{file}: {}", r.context());
    assert!(r.stdout.contains(why), "{file}: {}", r.context());
}

#[test]
fn a_compare_mask_used_as_a_number_is_never_proved() {
    // With 3 or 4 active lanes each rule is false (the tester's `--lanes 3` / `--lanes 4`).
    all_unknown("bcnt.rules", 1, "as a number, not bit by bit");
    all_unknown("three_lane_mask.rules", 4, "as a number, not bit by bit");
}

#[test]
fn an_exec_write_outside_the_lanes_is_never_proved() {
    all_unknown("exec_all.rules", 2, "outside the checked lanes");
}

#[test]
fn a_first_lane_read_of_a_per_lane_value_is_never_proved() {
    all_unknown("rfl.rules", 2, "first active lane");
}
