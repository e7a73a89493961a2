//! The bug-replay corpus (`tests/data/tv/bugs/*/`): real, fixed LLVM AMDGPU miscompiles in
//! machine passes, each as our own kernel's before-MIR, llc-22's correct after-MIR (`good.mir`)
//! and the buggy pass's output written by hand from the bug report (`buggy.mir`); `bug.toml`
//! cites the issue or PR and works out a breaking input by hand. What must hold: tv never
//! refutes a correct file and never proves a buggy one; the buggy files it refutes today
//! (`CAUGHT`) stay refuted, so the catch rate cannot drop unnoticed.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The buggy files tv refutes (the other bugs' `bug.toml` name what blocks them).
const CAUGHT: &[&str] = &[
    "cse-pk-mov-commute",
    "cse-sdwa-sub-commute",
    "fold-sgpr-hi16-copy",
    "fold-vop3-pk-imm-opsel",
    "fold-clamp-max-abs",
    "fold-dot2-splat-no-opsel",
    "cse-vcmp-exec-loop",
    "dpp-combine-subrev-src1",
    "fold-copy-temporal-divergence",
    "fold-pk-bf16-inline-lo",
    "fold-pk-const-dropped",
    "fold-pk-f32-imm64-replicated",
    "fold-imm64-sub1",
    "fold-or-minus1",
    "fold-regseq-splat",
    "lso-mimg-tfe-dropped",
    "peephole-foldimm-sub1",
    "peephole-scmp-pcrel",
    "pei-cselect-fi-scc",
    "preemit-sand-exec-scc-live",
    "sdwa-ashr-i16-sext",
    "sdwa-cndmask-sext-as-neg",
    "sdwa-existing-sel-combine",
    "sgprcopies-copy-to-phys-sgpr",
    "sgprcopies-smov64-literal",
    "shrink-bitset-scc",
    "sgprcopies-strict-wwm-readfirstlane",
    "sgprcopies-v2s-hi16-as-lo16",
    "sgprcopies-v2s-hi16-salu-user",
    "shrink-cmpx-le-reverse",
    "sink-temporal-divergence",
    "sink-waterfall-divergence",
    "wqm-init-exec-live-mask",
    "waitcnt-soft-loop-carried",
];

fn field(toml: &str, key: &str) -> String {
    toml.lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| panic!("bug.toml without {key}"))
}

/// The worst block verdict of `function` in a tv run.
fn worst(dir: &Path, after: &str, target: &str, function: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(dir)
        .args(["tv", "--format", "json", "--target", target])
        // A busy machine must not turn a refutation into a timeout (`unknown`): CAUGHT below
        // requires the refutations.
        .args(["--timeout", "120"])
        .args(["--function", function, "before.mir", after])
        .output()
        .unwrap();
    let order = [
        "unchanged",
        "proved",
        "inapplicable",
        "unsupported",
        "error",
        "unknown",
        "refuted",
    ];
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "block")
        .filter_map(|v| v["verdict"].as_str().map(str::to_string))
        .max_by_key(|v| order.iter().position(|o| o == v))
        .unwrap_or_else(|| format!("input error: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn replayed_llvm_bugs_are_never_proved_and_their_fixes_never_refuted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/bugs");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("bug.toml").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 25, "{} bugs", dirs.len());
    let mut caught = Vec::new();
    for d in &dirs {
        let toml = std::fs::read_to_string(d.join("bug.toml")).unwrap();
        let (t, f) = (field(&toml, "target"), field(&toml, "function"));
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        let good = worst(d, "good.mir", &t, &f);
        assert_ne!(good, "refuted", "{name}: the correct after-file is refuted");
        assert!(!good.starts_with("input error"), "{name}: {good}");
        let buggy = worst(d, "buggy.mir", &t, &f);
        assert!(
            !matches!(buggy.as_str(), "proved" | "unchanged"),
            "{name}: the buggy after-file is {buggy}"
        );
        if buggy == "refuted" {
            caught.push(name);
        }
    }
    for c in CAUGHT {
        assert!(caught.iter().any(|n| n == c), "{c} is no longer refuted");
    }
}
