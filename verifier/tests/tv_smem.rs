//! `gcnsmt tv --pass si-load-store-opt` on scalar buffer loads with an SGPR offset
//! (`tests/data/tv/smem_sgpr_imm.mir`, written by hand): llc-22 merges the four
//! `S_BUFFER_LOAD_DWORD_SGPR_IMM` into one `S_BUFFER_LOAD_DWORDX4_SGPR_IMM`, which is right
//! (each dword at soffset + 16 + 4k, range-checked on its own), so the block must be proved on
//! gfx9 and gfx12. Skipped without `llc-22` on PATH.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

#[test]
fn sgpr_imm_merge_is_proved() {
    if Command::new("llc-22").arg("--version").output().is_err() {
        eprintln!("llc-22 not on PATH: skipped");
        return;
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/smem_sgpr_imm.mir");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json", "--pass", "si-load-store-opt"])
        .arg(&file)
        .args(["--target", "gfx900,gfx1200"])
        .output()
        .unwrap();
    let blocks: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "block")
        .collect();
    assert_eq!(blocks.len(), 2, "{}", String::from_utf8_lossy(&out.stderr));
    for b in &blocks {
        assert_eq!(b["verdict"], "proved", "{b}");
        assert_eq!(b["changed"], true, "{b}");
    }
    assert_eq!(out.status.code(), Some(0));
}
