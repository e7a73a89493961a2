//! PHIs lowered by phi-node-elimination, restored by tv (`tv/phi_elim.rs`): llc-22's pass
//! output proved block by block, hand-made wrong lowerings refuted. Verdicts and their reasons
//! are in `tests/data/tv/phielim/README.md`.

use std::path::Path;

fn run(after: &str) -> (Vec<serde_json::Value>, i32) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/phielim");
    let args = ["--target", "gfx900", "before.mir", after];
    let (blocks, run) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    (blocks, run.code)
}

#[test]
fn llc_phi_elimination_is_proved_block_by_block() {
    let (blocks, code) = run("after.mir");
    assert_eq!(code, 0, "{blocks:?}");
    let proved = blocks.iter().filter(|b| b["verdict"] == "proved").count();
    assert_eq!(proved, 8, "{blocks:?}");
}

#[test]
fn wrong_lowerings_are_refuted() {
    for after in [
        "wrong-edge-value.after.mir",
        "swapped-join-copies.after.mir",
        "missing-edge-copy.after.mir",
        "copy-before-redefinition.after.mir",
    ] {
        let (blocks, code) = run(after);
        assert_eq!(code, 1, "{after}: {blocks:?}");
        assert!(blocks.iter().any(|b| b["verdict"] == "refuted"), "{after}");
    }
}
