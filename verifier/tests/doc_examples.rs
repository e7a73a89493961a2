//! Every console example of `README.md` and `docs/*.md` (a fenced block that starts with
//! `$ gcnsmt ...` or `$ cargo run --release -- ...`) is run on the test binary in the workspace
//! root and compared with the output the document shows: `...` lines stand for any lines, times
//! are redacted on both sides (`gcnsmt_testkit::redact`, the filters the snapshots use), and a
//! difference fails with the file and line of the first doc line that differs and a diff. The
//! rules of the format are in `gcnsmt_testkit::doc` and docs/testing.md.
//!
//! Fix the document when it differs, not the output, unless the output is wrong.

use gcnsmt_testkit::doc::{examples, markdown_files, Example};
use gcnsmt_testkit::{run_at, slow, workspace_path, workspace_root, TempDir};

/// Examples that take minutes in the test build (the whole corpus): slow tier only.
fn slow_only(ex: &Example) -> bool {
    ex.args.iter().any(|a| a == "proofs/" || a == "proofs")
}

/// The arguments of `ex`, with files the document describes but the repository does not hold
/// created in `dir` from committed data.
fn arguments(ex: &Example, dir: &TempDir) -> Vec<String> {
    ex.args
        .iter()
        .map(|a| match a.as_str() {
            // docs/tv.md: the after-file with planted.txt's first miscompile (offset1 8 -> 9).
            "far.after.mir" => {
                let after = workspace_path("tests/data/tv/gen/ds_merge.gfx900.after.mir");
                let text = std::fs::read_to_string(after).expect("the committed after-file");
                let old = "DS_READ2_B32_gfx9 %12, 0, 8, 0";
                assert_eq!(
                    text.matches(old).count(),
                    1,
                    "planted.txt's OLD occurs once"
                );
                let planted = text.replace(old, "DS_READ2_B32_gfx9 %12, 0, 9, 0");
                dir.write("far.after.mir", &planted).display().to_string()
            }
            _ => a.clone(),
        })
        .collect()
}

fn check(ex: &Example) -> Result<(), String> {
    let dir = TempDir::new("doc-example");
    let args = arguments(ex, &dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let r = run_at(Some(&workspace_root()), bin, &args, None, &[]);
    r.assert_no_panic();
    ex.compare(&r.stdout)
}

#[test]
fn every_console_example_prints_what_the_docs_show() {
    let mut failures = Vec::new();
    let mut files_with_examples = Vec::new();
    for file in markdown_files() {
        let exs = examples(&file);
        if !exs.is_empty() {
            files_with_examples.push(file.clone());
        }
        for ex in exs {
            if slow_only(&ex) && !slow() {
                eprintln!(
                    "NOTICE: {}:{}: `{}` runs the whole corpus; checked under GCNSMT_SLOW=1",
                    ex.file, ex.line, ex.command
                );
                continue;
            }
            if let Err(e) = check(&ex) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} doc example(s) differ from the binary's output:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The pages known to hold console examples; a reader that lost them would pass vacuously.
    for want in [
        "README.md",
        "docs/buffer.md",
        "docs/cli.md",
        "docs/lanes.md",
        "docs/spec-check.md",
        "docs/tv.md",
    ] {
        assert!(
            files_with_examples.iter().any(|f| f == want),
            "no console example found in {want} (found in {files_with_examples:?})"
        );
    }
}
