//! The wrong proofs and internal errors a third fresh helper found by hand (2026-12-05), each
//! pair in `tests/data/tv/break3/NN-*/` with its breaking input worked out in `WHY.md`: a wrong
//! proof must now be anything but `proved` (01-04 break only with EXEC = 0 or other lanes,
//! which one lane cannot see), and valid input must get a verdict, not an error.

use std::path::Path;

/// (verdict, reason) of the pair's only block.
fn run(dir: &str, before: &str, after: &str, target: &str) -> (String, String) {
    run_with(dir, before, after, target, &[])
}

/// [`run`] with more arguments.
fn run_with(dir: &str, b: &str, a: &str, target: &str, extra: &[&str]) -> (String, String) {
    let (before, after) = (b, a);
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break3")
        .join(dir);
    let mut args = vec!["--target", target, before, after];
    args.extend(extra);
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    assert_eq!(blocks.len(), 1, "{dir}/{after}: {blocks:?}");
    let s = |k: &str| blocks[0][k].as_str().unwrap_or("").to_string();
    (s("verdict"), s("reason"))
}

#[test]
fn wrong_proofs_of_the_third_helper_are_not_proved() {
    let cases = [
        (
            "01-one-lane-fallback-scmp-on-mask",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "01-one-lane-fallback-scmp-on-mask",
            "before.mir",
            "after-cmpeq.mir",
            "gfx900",
        ),
        (
            "01-one-lane-fallback-scmp-on-mask",
            "before.mir",
            "after-vcc-e32.mir",
            "gfx900",
        ),
        (
            "01-one-lane-fallback-scmp-on-mask",
            "before.mir",
            "after-carry-scmp.mir",
            "gfx900",
        ),
        (
            "01-one-lane-fallback-scmp-on-mask",
            "before.mir",
            "after-gfx1100.mir",
            "gfx1100",
        ),
        (
            "02-one-lane-fallback-bcnt-ff1-of-mask",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "02-one-lane-fallback-bcnt-ff1-of-mask",
            "before.mir",
            "after-bcnt-cmp.mir",
            "gfx900",
        ),
        (
            "02-one-lane-fallback-bcnt-ff1-of-mask",
            "before.mir",
            "after-bcnt-scc.mir",
            "gfx900",
        ),
        (
            "03-readfirstlane-uniform-exec-zero",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "03-readfirstlane-uniform-exec-zero",
            "before.mir",
            "after-copy.mir",
            "gfx900",
        ),
        (
            "03-readfirstlane-uniform-exec-zero",
            "before-shadow.mir",
            "after-shadow.mir",
            "gfx900",
        ),
        (
            "04-one-lane-logic-op-scc-of-carry-out-mask",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "04-one-lane-logic-op-scc-of-carry-out-mask",
            "before.mir",
            "after-borrow-or.mir",
            "gfx900",
        ),
        (
            "04-one-lane-logic-op-scc-of-carry-out-mask",
            "before.mir",
            "after-gfx1100.mir",
            "gfx1100",
        ),
    ];
    // 05: `+wavefrontsize64` on gfx1100 (the target-cpu attribute decides the target).
    let (v, why) = run(
        "05-wavefrontsize64-ignored-vcc-hi",
        "before.mir",
        "after.mir",
        "gfx1100",
    );
    assert_eq!(v, "unsupported", "{why}");
    assert!(why.contains("wave64"), "{why}");
    for (dir, b, a, t) in cases {
        let (v, why) = run(dir, b, a, t);
        assert!(
            ["refuted", "unknown", "unsupported"].contains(&v.as_str()),
            "{dir}/{a} on {t}: {v} {why}"
        );
    }
}

/// ERR1/ERR2: S_BITCMP in the EXEC model and S_CMP_EQ/LG_I32 in the one-lane model are valid
/// MIR whose after-file only adds an unrelated move (WHY.md): proved. The S_CMPK_EQ_I32 -1
/// against S_CMP_EQ_U32 65535 pair differs for s0 = 0xffffffff: refuted. The pairs are about
/// values, not wait states: `hazards=LATER` (post-RA, an added move is unsupported under
/// CHECK: docs/tv.md, "Hazards").
#[test]
fn valid_scc_ops_get_a_verdict() {
    let later = ["--set", "hazards=LATER"];
    let p = |dir, b, a| run_with(dir, b, a, "gfx900", &later).0;
    assert_eq!(
        p(
            "ERR1-bitcmp-in-exec-model-internal-error",
            "before.mir",
            "after.mir"
        ),
        "proved"
    );
    let e2 = "ERR2-s-cmp-eq-lg-i32-one-lane-unknown-mnemonic";
    assert_eq!(p(e2, "before.mir", "after.mir"), "proved");
    assert_eq!(p(e2, "before-cmpk.mir", "after-cmpk.mir"), "refuted");
}
