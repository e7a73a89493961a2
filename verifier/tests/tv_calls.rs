//! Calls with register masks (issue 27, `tests/data/tv/calls/`): a register the callee
//! preserves keeps its value across the call, one it clobbers holds a fresh value, the same on
//! both sides. Expected verdicts are the hand computations of `tests/data/tv/calls/README.md`
//! (confirmed by llc-22's machine verifier there), not tv's output.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/calls")
        .join(name)
}

fn verdicts(stem: &str) -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json", "--target", "gfx900"])
        .arg(data(&format!("{stem}.before.mir")))
        .arg(data(&format!("{stem}.after.mir")))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("function"), s("verdict"), s("reason"))
        })
        .collect()
}

#[test]
fn the_register_mask_decides_what_survives_a_call() {
    let got = verdicts("regmask");
    let want = [
        ("v40", "proved"),
        ("v1", "refuted"),
        ("s48", "proved"),
        ("s40", "refuted"),
        ("s20_gfx", "proved"),
        ("s20", "refuted"),
        ("m0", "refuted"),
        ("custom_v1", "proved"),
        ("custom_v40", "refuted"),
        ("changed_def", "refuted"),
        ("dead_before_call", "proved"),
        ("mask_changed", "unsupported"),
    ];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (f, v) in want {
        let g = got
            .iter()
            .find(|g| g.0 == f)
            .unwrap_or_else(|| panic!("{f}: {got:?}"));
        assert_eq!(g.1, v, "{f}: {g:?}");
    }
    let changed = got.iter().find(|g| g.0 == "mask_changed").unwrap();
    assert!(changed.2.contains("a call"), "{changed:?}");
}

#[test]
fn an_unknown_mask_is_unsupported() {
    let got = verdicts("unknown_mask");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, "unsupported", "{got:?}");
    assert!(
        got[0].2.contains("unknown register mask `csr_amdgpu_x`"),
        "{got:?}"
    );
}
