//! Breaker 17's wrong buffer proofs (tests/data/break17/README.md): on SI/CI a non-zero
//! SOFFSET breaks the range check (setting `sici_soffset_clamp`), buffer atomics with an
//! unaligned address component are undefined, `buffer_atomic_add_f32` flushes f32 denormals on
//! gfx908/gfx90a, and a format store writes the components it does not supply (0 before GFX12,
//! X on GFX12). Each finding must not be proved, and its correct variant must be; the
//! expectations are LLVM's (splitMUBUFOffset, AMDGPU.td features), written in the data file.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The verdict records of `gcnsmt verify tests/data/break17/buffer.rules --format json`.
fn verdicts() -> Vec<Value> {
    let rules = root().join("tests/data/break17/buffer.rules");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["verify", rules.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "verdict")
        .collect()
}

#[test]
fn findings_are_not_proved_and_variants_are() {
    let all = verdicts();
    let expect = [
        // 01: SOFFSET clamping on SI/CI.
        ("b17-01-imm-offset-into-soffset-sici", "refuted", 2),
        ("b17-01-imm-offset-into-soffset-gfx8", "proved", 2),
        ("b17-01-imm-offset-into-soffset-gfx7-defined", "proved", 1),
        // 03: atomics with an unaligned address component.
        ("b17-03-atomic-unaligned-soffset", "refuted", 1),
        ("b17-03-atomic-unaligned-voffset", "refuted", 1),
        ("b17-03-atomic-aligned-voffset", "proved", 1),
        // 09: gfx908/gfx90a's atomic f32 add flushes denormals.
        ("b17-09-atomic-add-f32-is-load-add-store", "refuted", 2),
        ("b17-09-atomic-add-f32-is-load-add-store-flush", "proved", 2),
        (
            "b17-09-atomic-add-f32-is-load-add-store-gfx942",
            "proved",
            1,
        ),
        // 10: the components a format store does not supply.
        ("b17-10-store-format-x-is-store-dword", "refuted", 1),
        ("b17-10-store-format-x-writes-zero-yzw", "proved", 1),
        ("b17-10-tbuffer-store-x-broadcasts-gfx12", "proved", 1),
        ("b17-10-tbuffer-store-x-broadcasts-gfx11", "refuted", 1),
        ("b17-10-tbuffer-store-x-zero-y-gfx11", "proved", 1),
    ];
    for (rule, verdict, targets) in expect {
        let got: Vec<&Value> = all.iter().filter(|r| r["rule"] == rule).collect();
        assert_eq!(got.len(), targets, "{rule}: {all:?}");
        for r in got {
            assert_eq!(r["verdict"], verdict, "{rule}: {r}");
        }
    }
}

#[test]
fn the_refutations_are_the_bug_not_something_else() {
    let all = verdicts();
    let cex = |rule: &str| -> Vec<&Value> {
        all.iter()
            .filter(|r| r["rule"] == rule)
            .map(|r| &r["counterexample"])
            .collect()
    };
    // 01: the only difference is that the target (SOFFSET 64) is undefined on SI/CI.
    for c in cex("b17-01-imm-offset-into-soffset-sici") {
        let first = c["first_difference"].as_str().unwrap_or_default();
        assert!(first.contains("undefined"), "{c}");
    }
    // 09: the atomic's result is a flushed zero (each differing byte of +0.0 or -0.0 is 0, the
    // sign byte 0x80), where the VALU's add keeps the denormal sum.
    for c in cex("b17-09-atomic-add-f32-is-load-add-store") {
        let diffs = c["memory_differences"].as_array().expect("memory differs");
        assert!(!diffs.is_empty(), "{c}");
        for d in diffs {
            let b = d["source"].as_u64().unwrap();
            assert!(b == 0 || b == 0x80, "{c}");
        }
    }
}
