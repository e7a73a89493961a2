//! The wrong proofs a sixth fresh helper found in the day's new models (2026-12-05), each pair
//! in `tests/data/tv/break6/NN-*/` with its breaking input in the folder's README: the files
//! differ on the machine, so none may be proved. Expected verdicts in `break6/README.md`.

use std::path::Path;

fn verdict(dir: &str, target: &str, before: &str, after: &str) -> (String, i32) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break6")
        .join(dir);
    let args = ["--target", target, before, after];
    let (blocks, run) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    let worst = ["refuted", "unsupported", "unknown", "proved", "unchanged"]
        .into_iter()
        .find(|v| blocks.iter().any(|b| b["verdict"] == *v))
        .unwrap_or("none");
    (worst.to_string(), run.code)
}

#[test]
fn wrong_proofs_of_the_sixth_helper_are_not_proved() {
    let cases = [
        (
            "01-frame-misaligned-layout",
            "gfx1100",
            "before.mir",
            "after.mir",
            "unsupported",
        ),
        (
            "01-frame-misaligned-layout",
            "gfx1100",
            "before.mir",
            "after-variant-align4.mir",
            "unsupported",
        ),
        (
            "01-frame-misaligned-layout",
            "gfx1100",
            "before.mir",
            "after-variant-outside-frame.mir",
            "unsupported",
        ),
        (
            "01-frame-misaligned-layout",
            "gfx1100",
            "before.mir",
            "after-variant-overlap-by-before-size.mir",
            "unsupported",
        ),
        (
            "01-frame-misaligned-layout",
            "gfx900",
            "gfx900.before.mir",
            "gfx900.after.mir",
            "unsupported",
        ),
        (
            "02-c-return-clobbers-scratch-rsrc-s0",
            "gfx900",
            "before.mir",
            "after.mir",
            "refuted",
        ),
        (
            "03-ldsdma-ds-read-moved-above-vmcnt-wait",
            "gfx900",
            "before.mir",
            "after.mir",
            "unsupported",
        ),
        (
            "04-scratch-rsrc-copy-merge",
            "gfx900",
            "before.mir",
            "after.mir",
            "unsupported",
        ),
        (
            "04-scratch-rsrc-copy-merge",
            "gfx1030",
            "before.mir",
            "after.mir",
            "unsupported",
        ),
        (
            "04-scratch-rsrc-copy-merge",
            "gfx802",
            "before.mir",
            "after.mir",
            "refuted",
        ),
        (
            "05-ldsdma-glc-dropped",
            "gfx900",
            "before.mir",
            "after.mir",
            "refuted",
        ),
        (
            "05-ldsdma-glc-dropped",
            "gfx900",
            "min.before.mir",
            "min.after.mir",
            "refuted",
        ),
        (
            "06-callconv-taken-from-after-file",
            "gfx1100",
            "before.mir",
            "after.mir",
            "refuted",
        ),
        (
            "06-callconv-taken-from-after-file",
            "gfx1100",
            "before.mir",
            "after-variant-no-ir.mir",
            "refuted",
        ),
    ];
    for (dir, target, before, after, want) in cases {
        let (got, code) = verdict(dir, target, before, after);
        assert_eq!(got, want, "{dir}/{after} on {target}");
        assert_eq!(code, if want == "refuted" { 1 } else { 3 }, "{dir}/{after}");
    }
}
