//! `S_ADD_U64_PSEUDO`/`S_SUB_U64_PSEUDO` (finalize-isel's carry-chain expansion) and the SOPK
//! forms `S_MOVK_I32`/`S_ADDK_I32`/`S_MULK_I32` in tv (`verifier/src/tv/scc_carry.rs`,
//! `opcodes.rs`): `tests/data/tv/salu64/README.md` works out each expected verdict by hand.

use std::path::Path;

fn verdicts(after: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/salu64");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &["--target", "gfx900", "before.mir", after],
    );
    blocks
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("function"), s("verdict"))
        })
        .collect()
}

#[test]
fn expansions_and_sopk_forms_are_proved() {
    let v = verdicts("good.mir");
    for f in ["add64", "sub64", "addimm", "sopk"] {
        assert!(v.iter().any(|(g, r)| g == f && r == "proved"), "{f}: {v:?}");
        assert!(
            v.iter().all(|(_, r)| r == "proved" || r == "unchanged"),
            "{v:?}"
        );
    }
}

#[test]
fn planted_faults_are_refuted_or_errors() {
    let v = verdicts("bad.mir");
    let want = [
        ("add64", "refuted"),
        ("sub64", "refuted"),
        ("sopk", "refuted"),
        ("addimm", "error"),
    ];
    for (f, w) in want {
        assert!(v.iter().any(|(g, r)| g == f && r == w), "{f} {w}: {v:?}");
    }
}
