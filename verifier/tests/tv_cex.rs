//! `gcnsmt tv` counterexamples in MIR terms (issue 13, "Counterexamples"): only live-in
//! registers as inputs, each side's MIR lines with what they wrote, aligned, and the first
//! difference; the JSON record carries the same data. The miscompile is planted by hand in a
//! committed llc-22 after-file (`tests/data/tv/gen`): `read2_b32_far` reads p[0] and p[8]
//! (byte offsets 0 and 32); the edit makes the merged read2 read p[9] (offset1 9).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn gen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/gen")
}

/// The planted pair: (before file, edited after file), and the registers the block defines
/// (read from the committed MIR by hand: %0 = COPY $vgpr0, %12 = V_LSHLREV, %13/%14 the two
/// reads, %15 the sum, %16 the merged read2).
fn planted() -> (PathBuf, PathBuf) {
    let after = std::fs::read_to_string(gen().join("ds_merge.gfx900.after.mir")).unwrap();
    let old = "DS_READ2_B32_gfx9 %12, 0, 8, 0";
    assert_eq!(after.matches(old).count(), 1);
    let dir = std::env::temp_dir().join(format!("gcnsmt-tv-cex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("after.mir");
    std::fs::write(&a, after.replace(old, "DS_READ2_B32_gfx9 %12, 0, 9, 0")).unwrap();
    (gen().join("ds_merge.gfx900.before.mir"), a)
}

const DEFINED: [&str; 6] = ["%0", "%12", "%13", "%14", "%15", "%16"];

fn run(format: &str) -> (i32, String) {
    let (b, a) = planted();
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["tv", "--function", "read2_b32_far", "--format", format])
        .arg(&b)
        .arg(&a)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The registers a `live-in:` section names (the text before ` = ` on each of its lines).
fn live_in_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if l.starts_with("  live-in:") {
            inside = true;
        } else if !l.starts_with("           ") || l.trim_start().starts_with("LDS[") {
            inside = false;
        }
        if inside {
            let body = l.trim_start_matches("  live-in:").trim();
            out.push(body.split(" = ").next().unwrap().trim().to_string());
        }
    }
    out
}

#[test]
fn text_counterexample_is_in_mir_terms() {
    let (code, out) = run("text");
    assert_eq!(code, 1, "{out}");
    let names = live_in_names(&out);
    assert!(names.contains(&"v0".to_string()), "{out}");
    for d in DEFINED {
        assert!(
            !names
                .iter()
                .any(|n| n == d || n.starts_with(&format!("{d}."))),
            "{d} is defined in the block but shown as live-in:\n{out}"
        );
    }
    // Each side's instructions are the MIR lines, memory operands trimmed.
    assert!(
        out.contains("  before:\n") && out.contains("  after:\n"),
        "{out}"
    );
    let read2 = out
        .lines()
        .find(|l| l.contains("%16:vreg_64 = DS_READ2_B32_gfx9 %12, 0, 9, 0"))
        .unwrap_or_else(|| panic!("no MIR line for the read2:\n{out}"));
    assert!(!read2.contains("::"), "{read2}");
    // Worked by hand: LDS bytes b at address b, p[0] = 0x03020100 and p[9] at byte 36.
    assert!(
        read2.contains("%16.sub0 = 0x03020100") && read2.contains("%16.sub1 = 0x27262524"),
        "{read2}"
    );
    assert!(
        !out.contains("ds_read2_b32"),
        "rule assembly leaked:\n{out}"
    );
    // Writes line up within a side: MIR text has single spaces only (whitespace is
    // normalised), so the values start after the first double space past the line number.
    for side in ["  before:\n", "  after:\n"] {
        let rest = &out[out.find(side).unwrap() + side.len()..];
        let starts: Vec<usize> = rest
            .lines()
            .take_while(|l| l.starts_with("    "))
            .map(|l| {
                let k = 11 + l[11..].find("  ").expect("values after the MIR text");
                k + l[k..].len() - l[k..].trim_start().len()
            })
            .collect();
        assert!(starts.len() >= 5, "{side}{rest}");
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "{side}{rest}");
    }
    assert!(out.contains("  first difference: LDS[0x0]"), "{out}");
}

#[test]
fn json_counterexample_carries_the_same_data() {
    let (code, out) = run("json");
    assert_eq!(code, 1, "{out}");
    let block: Value = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "block")
        .unwrap();
    let c = &block["counterexample_data"];
    let live: Vec<&str> = c["live_in"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reg"].as_str().unwrap())
        .collect();
    assert!(live.contains(&"v0"), "{c}");
    for d in DEFINED {
        assert!(
            !live
                .iter()
                .any(|n| *n == d || n.starts_with(&format!("{d}."))),
            "{d} shown as live-in: {c}"
        );
    }
    let after = c["after"].as_array().unwrap();
    let read2 = after
        .iter()
        .find(|s| s["mir"].as_str().unwrap().contains("DS_READ2_B32_gfx9"))
        .unwrap();
    assert_eq!(read2["writes"][1]["reg"], "%16.sub1");
    assert_eq!(read2["writes"][1]["value"], "0x27262524");
    assert_eq!(c["first_difference"], "LDS[0x0]");
    assert!(c["memory"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["space"] == "LDS"));
    assert!(block["counterexample"]
        .as_str()
        .unwrap()
        .contains("live-in:"));
}
