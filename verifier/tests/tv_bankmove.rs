//! A virtual register si-fix-sgpr-copies moved from `vgpr_32` to `sgpr_32` (`tv/bank.rs`;
//! docs/tv.md, "A register moved to an SGPR"): llc-22's pairs and planted after-files in
//! `tests/data/tv/bankmove/` (README: origin and the hand argument of each verdict).

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/bankmove")
}

/// `gcnsmt tv --pass si-fix-sgpr-copies BEFORE AFTER` on gfx900: exit code, and the changed
/// blocks as (block, verdict, reason).
fn run(before: &str, after: &str) -> (i32, Vec<(String, String, String)>) {
    let args = [
        "--pass",
        "si-fix-sgpr-copies",
        "--target",
        "gfx900",
        before,
        after,
    ];
    let (blocks, r) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir(), &args);
    let v = blocks
        .iter()
        .filter(|b| b["changed"] == true)
        .map(|b| {
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"), s("reason"))
        })
        .collect();
    (r.code, v)
}

/// llc-22's own pairs of our kernels: `stencil_2d` (`%34`, `%36`: the bounds `w`, `h` for two
/// `V_CMP_LT_U32_e64`) and `vector_copy_x4` (`%78`), an input error before. The moved register
/// is read once, by a VALU compare in its own block under the copy's EXEC: every changed block
/// proved.
#[test]
fn llc_moving_a_uniform_copy_to_an_sgpr_is_proved() {
    for k in ["stencil_2d", "vector_copy_x4"] {
        let (b, a) = (
            format!("{k}.gfx900.before.mir"),
            format!("{k}.gfx900.after.mir"),
        );
        let (code, v) = run(&b, &a);
        assert_eq!(code, 0, "{k}: {v:?}");
        assert!(!v.is_empty(), "{k}: no changed block");
        assert!(v.iter().all(|(_, x, _)| x == "proved"), "{k}: {v:?}");
    }
}

/// Breaker 14's FA-01 (`k1`) and its `xor` form (`k2`): no input error any more, and the class
/// change is read as the VGPR; the blocks stay `unsupported` for what else the pass changed
/// (README: a REG_SEQUENCE seed and a renamed operand of an unmodelled op, `v2s.rs`).
#[test]
fn breaker_14_fa01_is_no_input_error() {
    for k in ["k1", "k2"] {
        let (b, a) = (
            format!("{k}.gfx900.before.mir"),
            format!("{k}.gfx900.after.mir"),
        );
        let (code, v) = run(&b, &a);
        assert_eq!(code, 3, "{k}: {v:?}");
        assert!(!v.is_empty(), "{k}: no changed block");
        for (_, x, r) in &v {
            assert_eq!(x, "unsupported", "{k}: {v:?}");
            assert!(!r.contains("sgpr_32 here"), "{k}: {r}");
        }
    }
}

/// The after-file copies the other bound (`%1`, `h`) instead of `%0` (`w`): with `w = 10`,
/// `h = 3` a lane with `x = 5` is in the before-mask and not in the after one.
#[test]
fn a_copy_of_another_sgpr_is_refuted() {
    let (code, v) = run(
        "stencil_2d.gfx900.before.mir",
        "stencil_2d.wrong_src.after.mir",
    );
    assert_eq!(code, 1, "{v:?}");
    // bb.0 holds the copy; bb.1 changed only by the moved SALU chain (proved there).
    assert!(
        v.iter().any(|(b, x, _)| b == "bb.0" && x == "refuted"),
        "{v:?}"
    );
}

/// Reads the rewrite cannot argue: the function is `unsupported`, naming the reason, and never
/// an input error.
#[test]
fn reads_that_are_not_lane_local_under_one_exec_are_unsupported() {
    for (before, after, why) in [
        // V_WRITELANE_B32 writes its scalar source into lane 0 whatever EXEC is: a VGPR would
        // give lane 0 a value only if lane 0 ran the copy.
        (
            "k1.gfx900.before.mir",
            "k1.writelane.after.mir",
            "V_WRITELANE_B32",
        ),
        // All lanes turned on between the copy and the read: lanes that did not run the copy.
        (
            "k1.gfx900.before.mir",
            "k1.exec_between.after.mir",
            "EXEC may change",
        ),
        // The copy hoisted above the `SI_IF`: the read is in another block.
        (
            "k2.gfx900.before.mir",
            "k2.hoisted.after.mir",
            "outside its definition's block",
        ),
    ] {
        let (code, v) = run(before, after);
        assert_eq!(code, 3, "{after}: {v:?}");
        assert!(!v.is_empty(), "{after}: no changed block");
        assert!(
            v.iter().all(|(_, x, _)| x == "unsupported"),
            "{after}: {v:?}"
        );
        assert!(v.iter().any(|(_, _, r)| r.contains(why)), "{after}: {v:?}");
    }
}
