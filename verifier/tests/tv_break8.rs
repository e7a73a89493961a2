//! The wrong proofs an eighth fresh tester found (2026-12-05) in the register-allocation
//! checker and the control-flow lowering, each pair in `tests/data/tv/break8/NN-*/` with the
//! hardware argument in its README: none may be proved.

use std::path::Path;

fn verdicts(dir: &str, before: &str, after: &str, target: &str) -> Vec<(String, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break8")
        .join(dir);
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &["--target", target, before, after],
    );
    let s = |b: &serde_json::Value, k: &str| b[k].as_str().unwrap_or("").to_string();
    blocks
        .iter()
        .filter(|b| s(b, "verdict") != "unchanged")
        .map(|b| (s(b, "verdict"), s(b, "reason")))
        .collect()
}

#[test]
fn the_eighth_breakers_pairs_are_not_proved() {
    let cases = [
        (
            "01-spill-wider-than-slot",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "02-exec-dead-branch-on-exec",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "03-si-if-inverted-mask-exec-dead",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "03-si-if-inverted-mask-exec-dead",
            "before.gfx1030.mir",
            "after.gfx1030.mir",
            "gfx1030",
        ),
        ("04-undef-subreg-def", "before.mir", "after.mir", "gfx900"),
        ("05-undef-use-added", "before.mir", "after.mir", "gfx900"),
        (
            "06-reload-wrong-memoperand",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "07-invariant-memoperand-added",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "10-sgpr102-is-flat-scratch-gfx9",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
    ];
    for (dir, b, a, t) in cases {
        let v = verdicts(dir, b, a, t);
        assert!(!v.is_empty(), "{dir}: no changed block");
        assert!(
            v.iter().all(|(x, _)| x != "proved"),
            "{dir} {a} on {t}: {v:?}"
        );
    }
    // The EXEC cases are real refutations: the branch reads the final EXEC.
    for (dir, b, a, t) in [
        (
            "02-exec-dead-branch-on-exec",
            "before.mir",
            "after.mir",
            "gfx900",
        ),
        (
            "03-si-if-inverted-mask-exec-dead",
            "before.gfx1030.mir",
            "after.gfx1030.mir",
            "gfx1030",
        ),
    ] {
        let v = verdicts(dir, b, a, t);
        assert!(v.iter().any(|(x, _)| x == "refuted"), "{dir} on {t}: {v:?}");
    }
}
