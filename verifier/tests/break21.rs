//! The twenty-first breaker's findings on `verify` (`tests/data/break21/README.md`): a scalar
//! load after a vector store of the same side is never proved (the scalar cache may return
//! the bytes from before the store), and VALU lines llvm-mc-22 rejects (constant bus, VOP3
//! literals, two literals) are input errors. Each of these rules was `proved` before.

use gcnsmt_testkit::{run_at, Run};
use std::path::PathBuf;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/break21")
}

fn verify(file: &str, name: &str) -> Run {
    let args = ["verify", file, "--filter", name, "--no-matrix"];
    let r = run_at(
        Some(&data()),
        env!("CARGO_BIN_EXE_gcnsmt"),
        &args,
        None,
        &[],
    );
    r.assert_no_panic();
    r
}

#[test]
fn a_scalar_load_after_a_vector_store_is_never_proved() {
    for (file, name) in [
        (
            "smem_forward_reverse.rules",
            "scalar-reload-after-vector-store",
        ),
        (
            "smem_forward_reverse.rules",
            "scalar-buffer-reload-after-buffer-store",
        ),
        ("smem_forward.rules", "global-store-then-s-load-forwards"),
        (
            "sbuf_forward.rules",
            "buffer-store-then-s-buffer-load-forwards",
        ),
    ] {
        let r = verify(file, name);
        assert_eq!(r.code, 3, "{name}: {}", r.context());
        assert!(r.stdout.contains("UNKNOWN"), "{name}: {}", r.context());
        assert!(!r.stdout.contains("PROVED"), "{name}: {}", r.context());
        assert!(r.stdout.contains("not coherent"), "{name}: {}", r.context());
    }
}

#[test]
fn valu_lines_llvm_mc_rejects_are_input_errors() {
    // (rule, where the error is: the literal, or the first source for the constant bus;
    // counted by hand), llvm-mc-22's verdicts in the README: literal, literal, bus, literal,
    // bus, bus, second literal.
    for (name, at) in [
        ("mul-lo-into-vop3-literal-gfx9", ":8:24:"),
        ("lshlrev-b64-literal-shift-gfx9", ":12:29:"),
        ("add3-two-sgprs-gfx9", ":18:18:"),
        ("cndmask-literal-with-sgpr-mask-gfx9", ":24:21:"),
        ("add-u32-two-sgprs-gfx9", ":30:17:"),
        ("add3-three-sgprs-gfx10", ":36:18:"),
        ("two-literals-gfx10", ":42:33:"),
    ] {
        let r = verify("valu_encodability.rules", name);
        assert_eq!(r.code, 2, "{name}: {}", r.context());
        let want = format!("valu_encodability.rules{at} error:");
        assert!(
            r.stderr.contains(&want) || r.stdout.contains(&want),
            "{name}: {}",
            r.context()
        );
    }
    for name in [
        "add3-two-sgprs-gfx10",
        "add-u32-literal-src0-gfx9",
        "add3-one-sgpr-gfx9",
        "mul-lo-vop3-literal-gfx10",
    ] {
        let r = verify("valu_encodability.rules", name);
        assert_eq!(r.code, 0, "{name}: {}", r.context());
    }
}

/// `verify lane_masks.rules --filter NAME`: (exit code, stdout).
fn verify_mask(name: &str) -> Run {
    verify("lane_masks.rules", name)
}

#[test]
fn a_lane_mask_read_whole_is_checked_on_two_lanes() {
    // Each expected verdict is worked by hand in the rule's comment (tests/data/break21):
    // VCC[n] = EXEC[n] & test, an inactive lane's bit is 0.
    for (name, code, word) in [
        ("cmp-after-vcc-all-ones", 1, "REFUTED"),
        ("cmp-after-vcc-all-ones-wave32", 1, "REFUTED"),
        ("borrow-after-all-ones", 1, "REFUTED"),
        ("dead-mask-mov-removed", 0, "PROVED"),
        ("and-exec-after-cmp-dropped", 0, "PROVED"),
        ("carry-of-add-zero-is-zero", 0, "PROVED"),
    ] {
        let r = verify_mask(name);
        assert_eq!(r.code, code, "{name}: {}", r.context());
        assert!(r.stdout.contains(word), "{name}: {}", r.context());
        assert!(r.stdout.contains("lanes=2"), "{name}: {}", r.context());
    }
}

#[test]
fn a_lane_mask_read_bit_by_bit_or_written_by_compares_alone_stays_single_lane() {
    for name in ["own-bit-read-only", "cmp-operands-swapped"] {
        let r = verify_mask(name);
        assert_eq!(r.code, 0, "{name}: {}", r.context());
        assert!(r.stdout.contains("PROVED"), "{name}: {}", r.context());
        assert!(!r.stdout.contains("lanes="), "{name}: {}", r.context());
    }
}

#[test]
fn a_lane_mask_read_whole_where_lanes_cannot_run_is_unknown() {
    let r = verify_mask("mask-mixed-with-readfirstlane");
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(r.stdout.contains("UNKNOWN"), "{}", r.context());
    assert!(
        r.stdout.contains("one lane does not model"),
        "{}",
        r.context()
    );
    // An SCC made of every lane's bit of a mask (D != 0 of an XOR), live at the end.
    let r = verify_mask("not-of-mask-scc-is-a-reduction");
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(
        r.stdout.contains("its SCC (D != 0) is live"),
        "{}",
        r.context()
    );
    // The same compares on both sides, but a first-lane read of a VGPR input (breaker23 03).
    let r = verify_mask("mask-live-with-readfirstlane");
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(r.stdout.contains("first active lane"), "{}", r.context());
}
