//! Every console example of `README.md` and `docs/*.md` (a fenced block that starts with
//! `$ gcnsmt ...` or `$ cargo run --release -- ...`) is run on the test binary in the workspace
//! root and compared with the output the document shows: `...` lines stand for any lines, times
//! are redacted on both sides (`gcnsmt_testkit::redact`, the filters the snapshots use), and a
//! difference fails with the file and line of the first doc line that differs and a diff. The
//! rules of the format are in `gcnsmt_testkit::doc` and docs/testing.md.
//!
//! The rules the documents show (a fenced block with a `Name: X` line) are checked too: X must
//! be a rule of `proofs/`, with the same lines as there, comments and `Tags:`/`Source:` lines
//! aside, so the rule a doc shows is the rule its console example runs.
//!
//! Fix the document when it differs, not the output, unless the output is wrong.

use gcnsmt_testkit::doc::{examples, markdown_files, Example};
use gcnsmt_testkit::{run_at, slow, workspace_path, workspace_root};

/// Examples that take minutes in the test build (the whole corpus): slow tier only.
fn slow_only(ex: &Example) -> bool {
    ex.args.iter().any(|a| a == "proofs/" || a == "proofs")
}

fn check(ex: &Example) -> Result<(), String> {
    let args: Vec<&str> = ex.args.iter().map(String::as_str).collect();
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

/// The lines that make a rule what it is: comments, blank lines and the `Tags:` and `Source:`
/// annotations left out.
fn rule_lines<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    lines
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.trim_start().starts_with(';'))
        .filter(|l| !l.starts_with("Tags:") && !l.starts_with("Source:"))
        .map(str::to_string)
        .collect()
}

/// Every rule of `proofs/*.rules` by name: its lines from `Name:` to the next blank line.
fn corpus_rules() -> std::collections::BTreeMap<String, Vec<String>> {
    let mut rules = std::collections::BTreeMap::new();
    let dir = workspace_path("proofs");
    for e in std::fs::read_dir(&dir).expect("read proofs/") {
        let p = e.expect("a proofs/ entry").path();
        if p.extension().is_none_or(|x| x != "rules") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read a rule file");
        for para in text.split("\n\n") {
            let mut lines = para.lines().skip_while(|l| !l.starts_with("Name:"));
            if let Some(first) = lines.next() {
                let name = first["Name:".len()..].trim().to_string();
                let body = rule_lines(std::iter::once(first).chain(lines));
                rules.insert(name, body);
            }
        }
    }
    rules
}

/// The fenced blocks of a Markdown text that hold a rule (a `Name:` line): the line of the
/// `Name:` and the block's lines.
fn rule_blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut out = Vec::new();
    let mut block: Option<Vec<(usize, &str)>> = None;
    for (i, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("```") {
            match block.take() {
                None => block = Some(Vec::new()),
                Some(b) => {
                    if let Some((n, _)) = b.iter().find(|(_, l)| l.starts_with("Name:")) {
                        out.push((*n, b.iter().map(|(_, l)| *l).collect()));
                    }
                }
            }
        } else if let Some(b) = block.as_mut() {
            b.push((i + 1, l));
        }
    }
    out
}

#[test]
fn every_rule_a_doc_shows_is_the_corpus_rule() {
    let corpus = corpus_rules();
    assert!(corpus.len() > 100, "few rules read from proofs/");
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(workspace_path(&file)).expect("read a doc");
        for (line, block) in rule_blocks(&text) {
            // A block with `$ ` lines is a console example; its output may name rules.
            if block.first().is_some_and(|l| l.starts_with("$ ")) {
                continue;
            }
            let doc = rule_lines(block.into_iter());
            let name = doc[0]["Name:".len()..].trim();
            checked += 1;
            match corpus.get(name) {
                None => failures.push(format!("{file}:{line}: no rule `{name}` in proofs/")),
                Some(rule) if *rule != doc => failures.push(format!(
                    "{file}:{line}: rule `{name}` differs from proofs/ (comments, Tags, Source aside)\n{}",
                    similar::TextDiff::from_lines(&rule.join("\n"), &doc.join("\n"))
                        .unified_diff()
                        .header("proofs/", &format!("{file}:{line}"))
                )),
                Some(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // README (cmpstore), docs/buffer.md (soffset sink), docs/cli.md (read2 merge).
    assert!(checked >= 3, "only {checked} rule blocks found in the docs");
}
