//! The wrong proofs a fifth fresh helper found in the cross-block copies (2026-12-05), each
//! pair in `tests/data/tv/break5/NN-*/` with its hand argument in the folder's README: the
//! programs differ on the machine, so each must be refuted. (02 is not a wrong proof under
//! MIR's COPY semantics: see the README.)

use std::path::Path;

#[test]
fn wrong_proofs_of_the_fifth_helper_are_refuted() {
    let cases = [
        ("01-subreg-def-hides-live-in-half", ""),
        ("01-subreg-def-hides-live-in-half", "-phi"),
        ("01-subreg-def-hides-live-in-half", "-variants"),
        ("03-preamble-operand-redefined-non-ssa", ""),
    ];
    for (dir, suffix) in cases {
        let d = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/tv/break5")
            .join(dir);
        let (before, after) = (format!("before{suffix}.mir"), format!("after{suffix}.mir"));
        let (blocks, run) = gcnsmt_testkit::tv_blocks(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &d,
            &["--target", "gfx900", &before, &after],
        );
        assert_eq!(run.code, 1, "{dir}/{after}: {}", run.context());
        assert!(
            blocks.iter().any(|b| b["verdict"] == "refuted"),
            "{dir}/{after}: {blocks:?}"
        );
    }
}
