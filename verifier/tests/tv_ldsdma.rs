//! LDS DMA in tv (issue 27, `tests/data/tv/ldsdma/`): the immediate offset moves the global and
//! the LDS address alike, and an LDS access moved across an LDS DMA load is `unsupported`.
//! Expected verdicts are the hand computations of that directory's README.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/ldsdma")
        .join(name)
}

fn verdict(before: &str, after: &str) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json", "--target", "gfx900"])
        .arg(data(before))
        .arg(data(after))
        .output()
        .unwrap();
    let v: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &serde_json::Value| v["type"] == "block")
        .collect();
    assert_eq!(v.len(), 1, "{v:?}");
    let s = |k: &str| v[0][k].as_str().unwrap_or("").to_string();
    (s("verdict"), s("reason"))
}

#[test]
fn the_immediate_offset_moves_both_addresses() {
    let b = "buffer.before.mir";
    assert_eq!(verdict(b, "buffer_fold.after.mir").0, "proved");
    let (v, r) = verdict(b, "buffer_fold_m0_kept.after.mir");
    assert_eq!(v, "refuted", "{r}");
    assert!(r.starts_with("LDS["), "{r}");
    let (v, r) = verdict(b, "buffer_m0_only.after.mir");
    assert_eq!(v, "refuted", "{r}");
    assert!(r.starts_with("LDS["), "{r}");
}

#[test]
fn an_lds_access_moved_across_lds_dma_is_unsupported() {
    let (v, r) = verdict("ds_order.before.mir", "ds_order.after.mir");
    assert_eq!(v, "unsupported", "{r}");
    assert!(r.contains("LDS DMA"), "{r}");
}
