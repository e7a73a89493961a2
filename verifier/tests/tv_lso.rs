//! si-load-store-opt merging invariant scalar loads that other blocks read (`ssa_load.rs`,
//! `merged_invariant`; docs/tv.md "Merged invariant scalar loads"), on a pair llc-22 made from
//! our kernel buffer_raw_mixed (`tests/data/tv/lso/README.md`) and a planted wrong pair.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/lso")
        .join(name)
}

fn verdict(after: &str, block: &str) -> String {
    verdict_of("buffer_raw_mixed.before.mir", after, block)
}

fn verdict_of(before: &str, after: &str, block: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--format", "json", "--target", "gfx900"])
        .arg(data(before))
        .arg(data(after))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "block" && v["block"] == block)
        .and_then(|v| v["verdict"].as_str().map(String::from))
        .unwrap_or_default()
}

/// bb.1 reads `%34`, `%35`: before, `S_LOAD_DWORDX2_IMM %20, 16` and `%20, 24` (invariant);
/// after, sub-registers 4-7 of `S_LOAD_DWORDX8_IMM_ec %20, 0`: the same bytes 16-31 of
/// invariant memory by hand, so equal.
#[test]
fn merged_invariant_load_read_in_another_block() {
    assert_eq!(verdict("buffer_raw_mixed.after.mir", "bb.1"), "proved");
}

/// Planted: the merged load at offset 4 reads bytes 20-35 for `%34`/`%35`: refuted.
#[test]
fn merged_invariant_load_at_a_wrong_offset_is_refuted() {
    assert_eq!(
        verdict("buffer_raw_mixed.after.offset4.mir", "bb.1"),
        "refuted"
    );
}

/// The merged load's claims (`dereferenceable invariant`) are backed only where every byte's
/// before-load makes them (`ssa_load::merged_claims`): with `dereferenceable` gone from the
/// load of bytes 24-31, the copy of the merged load into bb.1's preamble claims what no
/// before-operand says: unsupported, not proved.
#[test]
fn merged_load_claims_need_every_bytes_backing() {
    let v = verdict_of(
        "buffer_raw_mixed.before.nonderef.mir",
        "buffer_raw_mixed.after.mir",
        "bb.1",
    );
    assert_eq!(v, "unsupported");
}
