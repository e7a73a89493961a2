//! Setting `gfx6_negative_base`: on Southern Islands a DS access with a negative base and a
//! non-zero offset does not work (LLVM `AMDGPUISelDAGToDAG.cpp` `isDSOffsetLegal`: "On Southern
//! Islands instruction with a negative base value and an offset don't seem to work"; LLVM folds
//! an add into a DS offset on gfx6 only when `SignBitIsZero(Base)`, on gfx7+ always). So the fold
//! `v_add_i32 v1, vcc, 16, v0 ; ds_read_b32 v2, v1` => `ds_read_b32 v2, v0 offset:16` must be
//! refuted on gfx600 by a v0 with the sign bit set, and proved on gfx700, in `verify` and `tv`
//! alike, and proved on gfx600 under `--set gfx6_negative_base=DEFINED`.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The JSON lines of type `kind` that `gcnsmt args... --format json` prints.
fn records(args: &[&str], kind: &str) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == kind)
        .collect()
}

fn input(v: &Value, name: &str) -> u64 {
    let i = v["counterexample"]["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("no input {name}: {v}"));
    u64::from_str_radix(i["value"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[test]
fn verify_refutes_the_gfx6_fold_by_a_negative_base() {
    let rules = root().join("proofs/ds_offset_fold.rules");
    let all = records(&["verify", rules.to_str().unwrap()], "verdict");
    // One verdict per target the rule names (one, but two for ds-fold-vadd-carry-into-offset).
    let verdicts = |rule: &str| -> Vec<&Value> {
        let r: Vec<&Value> = all.iter().filter(|r| r["rule"] == rule).collect();
        assert!(!r.is_empty(), "{rule}: {all:?}");
        r
    };
    for rule in [
        "ds-fold-vadd-carry-into-offset-negative-base-gfx6",
        "ds-fold-vadd-into-read2-negative-base-gfx6",
    ] {
        for r in verdicts(rule) {
            assert_eq!(r["verdict"], "refuted", "{r}");
            // The counterexample's base has the sign bit set: the only way the target is
            // undefined.
            assert!(input(r, "v0") >= 0x8000_0000, "{r}");
        }
    }
    for rule in [
        "ds-fold-vadd-carry-into-offset-negative-base-gfx7",
        "ds-fold-vadd-carry-into-offset-negative-base-gfx6-defined",
        // With LLVM's condition (base <= 0x7fffffff) the fold holds on gfx600 too.
        "ds-fold-vadd-carry-into-offset",
    ] {
        for r in verdicts(rule) {
            assert_eq!(r["verdict"], "proved", "{r}");
        }
    }
}

#[test]
fn tv_reads_the_setting_too() {
    let d = root().join("tests/data/tv/regress");
    let (b, a) = (
        d.join("ds_fold_gfx6.before.mir"),
        d.join("ds_fold_gfx6.after.mir"),
    );
    let run = |extra: &[&str]| -> String {
        let mut args = vec!["tv", b.to_str().unwrap(), a.to_str().unwrap()];
        args.extend_from_slice(extra);
        let blocks = records(&args, "block");
        assert_eq!(blocks.len(), 1, "{blocks:?}");
        blocks[0]["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(run(&["--target", "gfx600"]), "refuted");
    assert_eq!(run(&["--target", "gfx700"]), "proved");
    assert_eq!(
        run(&["--target", "gfx600", "--set", "gfx6_negative_base=DEFINED"]),
        "proved"
    );
}
