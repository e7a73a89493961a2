//! The seventeenth breaker's wait finding (tests/data/timing/break17/README.md): gfx12 VMEM
//! loads may write their VGPRs out of order (LLVM: no FeatureVmemWriteVgprInOrder from GFX12),
//! so a load overwriting a pending load's destination needs a wait there; not on gfx11.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/break17")
        .join(name)
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn a_vmem_waw_is_a_hazard_on_gfx12_only() {
    for (file, hazards) in [
        ("waw_gfx1100.s", "0 hazard(s)"),
        ("waw_gfx1200.s", "1 hazard(s)"),
        ("waw_gfx1250.s", "1 hazard(s)"),
    ] {
        let f = data(file);
        let (code, text) = run(&["waitcnt", f.to_str().unwrap()]);
        assert!(text.contains(hazards), "{file}: {text}");
        assert_eq!(code, i32::from(hazards != "0 hazard(s)"), "{file}: {text}");
    }
}

#[test]
fn a_dropped_gfx12_waw_wait_is_never_proved() {
    let (b, dropped, llc) = (
        data("before.gfx1200.mir"),
        data("after-dropped.gfx1200.mir"),
        data("llc-after.gfx1200.mir"),
    );
    let tv = |a: &PathBuf| {
        run(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            "--target",
            "gfx1200",
            b.to_str().unwrap(),
            a.to_str().unwrap(),
        ])
    };
    let (code, text) = tv(&dropped);
    assert!(!text.contains(" 1 proved"), "{text}");
    assert_ne!(code, 0, "{text}");
    // llc-22's own output keeps the wait: proved.
    let (code, text) = tv(&llc);
    assert!(text.contains("1 proved"), "{text}");
    assert_eq!(code, 0, "{text}");
}
