//! `gcnsmt tv --set flat_aperture=...` on a FLAT access merged with a GLOBAL one
//! (`tests/data/tv/flat_global_merge.mir`, written by hand). si-load-store-opt merges a
//! FLAT_STORE_DWORD at p and a GLOBAL_STORE_DWORD at p + 4 into FLAT_STORE_DWORDX2 at p (and the
//! loads likewise). By the machine's rules (AMDGPUUsage "Address Spaces") a FLAT address whose
//! high half equals the shared aperture reaches LDS, while a GLOBAL access always reaches global
//! memory: with p in the LDS aperture the merged store writes LDS[lo+4..lo+7] where the
//! original wrote global memory, so the default (`ANY`) must refute, naming LDS. Under
//! `flat_aperture=GLOBAL` (LLVM's assumption: the object is global) both are global stores at
//! p and p + 4, so every block must be proved. Skipped without `llc-22` on PATH.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn run(set: Option<&str>) -> (Vec<Value>, Option<i32>) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/flat_global_merge.mir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gcnsmt"));
    cmd.args(["tv", "--format", "json", "--pass", "si-load-store-opt"])
        .arg(&file)
        .args(["--target", "gfx900,gfx1100"]);
    if let Some(s) = set {
        cmd.args(["--set", s]);
    }
    let out = cmd.output().unwrap();
    let blocks = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "block")
        .collect();
    (blocks, out.status.code())
}

#[test]
fn flat_global_merge_depends_on_the_aperture_setting() {
    if Command::new("llc-22").arg("--version").output().is_err() {
        eprintln!("llc-22 not on PATH: skipped");
        return;
    }
    let (any, code) = run(None);
    assert_eq!(any.len(), 4, "two functions x two targets");
    for b in &any {
        assert_eq!(b["verdict"], "refuted", "{b}");
    }
    let store = any
        .iter()
        .find(|b| b["function"] == "flat_then_global_store")
        .unwrap();
    assert!(
        store["reason"].as_str().unwrap().starts_with("LDS["),
        "{store}"
    );
    assert_eq!(code, Some(1));
    let (global, code) = run(Some("flat_aperture=GLOBAL"));
    assert_eq!(global.len(), 4);
    for b in &global {
        assert_eq!(b["verdict"], "proved", "{b}");
    }
    assert_eq!(code, Some(0));
    // A value the setting does not have is one usage error (exit 2), before llc runs.
    let (none, code) = run(Some("flat_aperture=LDS"));
    assert!(none.is_empty());
    assert_eq!(code, Some(2));
}
