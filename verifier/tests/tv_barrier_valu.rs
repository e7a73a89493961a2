//! VALU definitions copied across a block's split points (`verifier/src/tv/barrier_remat.rs`,
//! `same_exec`): `tests/data/tv/barrier_valu/README.md` gives the hand argument for each
//! expected verdict.

use std::path::Path;

fn verdicts(after: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/barrier_valu");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &["--target", "gfx900", "before.mir", after],
    );
    blocks
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"))
        })
        .collect()
}

#[test]
fn machine_cse_reusing_a_valu_constant_across_a_barrier_is_proved() {
    let v = verdicts("after.mir");
    assert!(v.iter().any(|(b, r)| b == "bb.0" && r == "proved"), "{v:?}");
    assert!(
        v.iter().all(|(_, r)| r == "proved" || r == "unchanged"),
        "{v:?}"
    );
}

#[test]
fn a_different_constant_before_the_barrier_is_refuted() {
    let v = verdicts("bad.mir");
    assert!(
        v.iter().any(|(b, r)| b == "bb.0" && r == "refuted"),
        "{v:?}"
    );
}
