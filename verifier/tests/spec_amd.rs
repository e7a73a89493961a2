//! spec-check on AMD's own pseudocode collections (`tests/data/spec/amd/`, copies of
//! `shared/reference/pcode/`): every DS and MUBUF entry reads in the document dialect, and
//! the result of each entry (checked, a finding, or unchecked with its reason) is the one
//! recorded in `tests/data/spec/amd-collections.expected`, whose every line was reviewed by
//! hand (the findings are explained in `docs/spec-findings.md`).
//!
//! Set `GCNSMT_BLESS=1` to rewrite the expected file after a reviewed change.

use gcnsmt_verifier::spec::{self, docpcode, Options};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

const FILES: [&str; 3] = [
    "tinygrad_cdna_ds_mubuf_pcode.json",
    "tinygrad_rdna3_ds_mubuf_pcode.json",
    "tinygrad_rdna4_ds_mubuf_pcode.json",
];

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/spec")
        .join(name)
}

/// Every (name, text) of a collection, read with serde_json alone (not our reader).
fn entries(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(data(&format!("amd/{file}"))).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for ops in v["PCODE"].as_object().unwrap().values() {
        for (n, t) in ops.as_object().unwrap() {
            out.push((n.clone(), t.as_str().unwrap().to_string()));
        }
    }
    out
}

#[test]
fn every_entry_of_the_three_collections_reads() {
    let mut n = 0;
    let mut bad = Vec::new();
    for f in FILES {
        for (name, text) in entries(f) {
            n += 1;
            if let Err(e) = docpcode::parse(&text) {
                bad.push(format!("{f} {name}: {}:{}: {}", e.line, e.col, e.msg));
            }
        }
    }
    // 191 CDNA4 (119 DS, 72 MUBUF), 189 RDNA3.5 (118 DS, 71 MUBUF), 122 RDNA4 DS entries:
    // counted with `jq '.PCODE[] | length'` on the files.
    assert_eq!(n, 191 + 189 + 122);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn rdna35_swizzle_is_cut_short() {
    // The RDNA3.5 text of DS_SWIZZLE_B32 opens `if (offset >= 0xe000) {` and ends after the
    // inner `for` block's `}`: the outer block is never closed (read in the JSON by hand).
    let (_, text) = entries(FILES[1])
        .into_iter()
        .find(|(n, _)| n == "DS_SWIZZLE_B32")
        .unwrap();
    let b = docpcode::parse(&text).unwrap();
    assert_eq!(b.notes.len(), 1);
    assert_eq!(b.notes[0].0, 2, "the block opened on line 2");
}

/// One line per finding and unchecked item of one collection, the file named without its
/// directory.
fn summary(file: &str) -> Vec<String> {
    let opts = Options {
        targets: None,
        timeout: Duration::from_secs(3),
    };
    let r = spec::run(&[data(&format!("amd/{file}"))], &opts).expect("readable");
    let mut out = Vec::new();
    for f in &r.findings {
        out.push(format!(
            "{file}:{} finding {} {} {}",
            f.line,
            f.kind,
            f.entry.as_deref().unwrap_or("-"),
            f.target.map_or("-".into(), |t| t.name().to_string())
        ));
    }
    for u in &r.unchecked {
        out.push(format!(
            "{file}:{} unchecked {} {}: {}",
            u.line,
            u.kind,
            u.entry.as_deref().unwrap_or("-"),
            u.reason
        ));
    }
    out
}

/// A solver limit depends on the machine and its load: such a line may come or go (a
/// timeout is never a verdict); the test's 3-second limit keeps the run short.
fn solver_limit(line: &str) -> bool {
    line.ends_with("z3: timeout")
}

#[test]
fn results_on_the_collections_are_the_reviewed_ones() {
    // The three collections are independent: checked in parallel (one z3 context a thread).
    let got: Vec<String> = FILES.par_iter().flat_map_iter(|f| summary(f)).collect();
    let path = data("amd-collections.expected");
    if std::env::var_os("GCNSMT_BLESS").is_some() {
        std::fs::write(&path, got.join("\n") + "\n").unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let want: Vec<&str> = text.lines().collect();
    let missing: Vec<&&str> = want
        .iter()
        .filter(|w| !solver_limit(w) && !got.iter().any(|g| g == **w))
        .collect();
    let extra: Vec<&String> = got
        .iter()
        .filter(|g| !solver_limit(g) && !want.contains(&g.as_str()))
        .collect();
    let limits = got.iter().filter(|g| solver_limit(g)).count();
    assert!(limits <= 12, "{limits} solver timeouts: {got:#?}");
    assert!(
        missing.is_empty() && extra.is_empty(),
        "results differ from {}:\nmissing: {missing:#?}\nnew: {extra:#?}",
        path.display()
    );
}
