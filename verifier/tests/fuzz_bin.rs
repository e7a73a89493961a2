//! Structure-aware fuzzing through the `gcnsmt` binary (issue 19): stressed rule files
//! (`Pre:` conditions and immediates included) through `gcnsmt verify`, stressed instruction
//! pages through `gcnsmt spec-check`. Unlike the in-process readers of
//! `tests/tests/fuzz_struct.rs`, these reach every stage after parsing (checking, solving,
//! printing) on the binary's own thread stacks. Oracle: exit code 0, 1, 2 or 3 (never 101, a
//! panic, nor a signal such as a stack overflow's abort), within `HANG` seconds.
//!
//! Each case starts a process and may call z3, so the tiers are small: 12 cases per command
//! by default; under `GCNSMT_SLOW=1` 1,000 for `verify` and 200 for `spec-check` (which
//! checks every page it reads, about 0.4 s a case), about 2 minutes on 2 cores: half of the
//! earlier slow tier, for CI's time (the 2,000 + 400 runs found nothing).

use gcnsmt_testkit::stress::{self, apply, place, Notation};
use gcnsmt_testkit::TempDir;
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::Path;

/// Seconds one run may take before it counts as hung (`timeout` then ends it with 124).
const HANG: &str = "60";

fn seeds(dir: &str, keep: fn(&str) -> bool) -> Vec<(String, String)> {
    let d = gcnsmt_testkit::workspace_path(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&d)
        .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| keep(&p.file_name().unwrap().to_string_lossy()))
        .filter(|p| p.metadata().is_ok_and(|m| m.len() <= 20_000))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("read seed"))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 2, "{dir}: fewer than two seeds");
    out
}

/// Run `gcnsmt ARGS FILE` on `text` written to a file named like the seed `name`; the exit
/// code must be one the binary documents.
fn run_on(args: &[&str], name: &str, text: &str) -> Result<(), String> {
    let dir = TempDir::new("fuzz-bin");
    let file = dir.write(name, text);
    let file = file.to_str().expect("UTF-8 temp path");
    let mut all = vec![HANG, env!("CARGO_BIN_EXE_gcnsmt")];
    all.extend(args);
    all.push(file);
    let r = gcnsmt_testkit::run("timeout", &all, None, &[]);
    if (0..=3).contains(&r.code) {
        return Ok(());
    }
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-bin-failure.txt");
    let _ = std::fs::write(&kept, text);
    Err(format!(
        "gcnsmt {} {name}: exit {} (124: hung); input kept in {}\n{}",
        args.join(" "),
        r.code,
        kept.display(),
        r.context()
    ))
}

/// `cases` stressed seeds through `gcnsmt ARGS`.
fn fuzz(args: &[&str], notation: Notation, seeds: &[(String, String)], cases: u32) {
    let config = gcnsmt_testkit::ProptestConfig {
        max_shrink_iters: 20,
        failure_persistence: None,
        ..gcnsmt_testkit::proptest_config(cases, 0x6663_7a62_696e)
    };
    let strat = (
        any::<Index>(),
        prop::collection::vec((stress::stress(), place()), 1..4),
    );
    let started = std::time::Instant::now();
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&strat, |(k, stresses)| {
        let (name, text) = &seeds[k.index(seeds.len())];
        run_on(args, name, &apply(&notation, text, &stresses)).map_err(TestCaseError::fail)
    });
    eprintln!(
        "fuzz_bin {}: {} cases in {:.1?}",
        args[0],
        runner.config().cases,
        started.elapsed()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn verify_on_stressed_rules() {
    let seeds = seeds("tests/data/fuzz/rules", |n| n.ends_with(".rules"));
    // Most stressed rules stop at the parser (exit 2) in milliseconds: more of them fit.
    let cases = gcnsmt_testkit::tiered(12, 1_000);
    fuzz(&["verify", "--timeout", "2"], stress::RULES, &seeds, cases);
}

#[test]
fn spec_check_on_stressed_pages() {
    let seeds = seeds("tests/data/spec", |n| {
        n.ends_with(".md") && n != "ORIGIN.md" || n.ends_with(".txt")
    });
    let cases = gcnsmt_testkit::tiered(12, 200);
    fuzz(
        &["spec-check", "--timeout", "2"],
        stress::PAGES,
        &seeds,
        cases,
    );
}
