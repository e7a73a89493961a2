//! Structure-aware fuzzing of every reader (issue 19): seeds of each notation get stresses that
//! character-level mutation (`fuzz_corpus.rs`) rarely reaches: deep nesting of the notation's
//! own brackets (balanced or not), huge literals, long names, control characters and
//! truncation, placed at random or right after one of the notation's anchors (`Pre:`, `=`,
//! `offset:`, `<`, `"`...). Readers: rule files (with `Pre:` and immediate expressions),
//! pseudocode, assembly lines, instruction words, MIR (`tv`), CLRX pages, reference pages,
//! pcode JSON and ISA XML (`spec-check`).
//!
//! Oracle: each case runs on a fresh thread with the stack of the binary's main thread
//! ([`MAIN_STACK`]), the smaller of the two stacks the product parses on, and must return
//! without panicking (a stack overflow aborts the whole test binary, which fails too) within
//! [`HANG`]. Every input that ever failed is kept in `tests/data/fuzz/crashes/` and replayed
//! by [`crash_cases_replay`].
//!
//! Default tier: 300 cases per reader; slow tier (`GCNSMT_SLOW=1`): 25,000 per reader (100,000
//! until session 19: about 4 minutes of CI at idle, 28 minutes under load; cut for CI time).
//! `PROPTEST_CASES` and `PROPTEST_RNG_SEED` override either (see `gcnsmt_testkit`).

use gcnsmt_lifter::{decode_any, parse_any};
use gcnsmt_semantics::defs::FILES;
use gcnsmt_semantics::parse::{parse_expr, parse_file, parse_stmts};
use gcnsmt_semantics::target::Target;
use gcnsmt_testkit::stress::{self, apply, place, Notation};
use gcnsmt_verifier::rules::parse_rules;
use gcnsmt_verifier::spec::{clrx, isa_xml, pcode_json, refpage};
use gcnsmt_verifier::tv::mir;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

/// The main thread's stack on Linux (8 MiB, `ulimit -s` default), where the binary reads its
/// input files; rayon workers get more (`limits::WORKER_STACK_BYTES`, 64 MiB).
const MAIN_STACK: usize = 8 << 20;

/// No case is larger than about 100 KB (a seed plus stresses of at most 60,000 characters);
/// a reader that takes this long on one (debug build) has hung or gone quadratic.
const HANG: Duration = Duration::from_secs(10);

/// Run `f` (the reader on one case) on its own thread with [`MAIN_STACK`] of stack. Errors: it
/// panicked, or gave no answer within [`HANG`] (the thread is then left behind).
fn guarded(what: &str, f: impl FnOnce() + Send + 'static) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let h = std::thread::Builder::new()
        .stack_size(MAIN_STACK)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let _ = tx.send(r.is_ok());
        })
        .map_err(|e| format!("{what}: spawn: {e}"))?;
    match rx.recv_timeout(HANG) {
        Ok(true) => {
            let _ = h.join();
            Ok(())
        }
        Ok(false) => Err(format!("{what}: panicked")),
        Err(_) => Err(format!("{what}: no answer within {HANG:?}")),
    }
}

/// The readers fuzzed here, by the name their crash cases carry (`crashes/<reader>-*.txt`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reader {
    Rules,
    Pcode,
    Asm,
    Words,
    Mir,
    Clrx,
    Refpage,
    PcodeJson,
    IsaXml,
}

impl Reader {
    const ALL: [Reader; 9] = [
        Reader::Rules,
        Reader::Pcode,
        Reader::Asm,
        Reader::Words,
        Reader::Mir,
        Reader::Clrx,
        Reader::Refpage,
        Reader::PcodeJson,
        Reader::IsaXml,
    ];

    fn name(self) -> &'static str {
        match self {
            Reader::Rules => "rules",
            Reader::Pcode => "pcode",
            Reader::Asm => "asm",
            Reader::Words => "words",
            Reader::Mir => "mir",
            Reader::Clrx => "clrx",
            Reader::Refpage => "refpage",
            Reader::PcodeJson => "pcode_json",
            Reader::IsaXml => "isa_xml",
        }
    }

    /// The nesting and anchors of the reader's notation.
    fn notation(self) -> Notation {
        let (nests, anchors): (
            &'static [(&'static str, &'static str)],
            &'static [&'static str],
        ) = match self {
            Reader::Rules => return stress::RULES,
            Reader::Clrx | Reader::Refpage => return stress::PAGES,
            Reader::Pcode => (
                stress::RULES.nests,
                &["=", "(", "[", "if ", "for ", "\n", "0x", "."],
            ),
            Reader::Asm => (
                stress::RULES.nests,
                &["offset:", "v[", "s[", ",", " ", "0x", ":"],
            ),
            Reader::Mir => (
                &[("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("- ", "")],
                &["= ", "%", "$", "::", "(", ",", "\n", "bb.", "name:", "---"],
            ),
            Reader::PcodeJson => (
                &[("[", "]"), ("{\"a\":", "}"), ("\"", "\"")],
                &["\"", ":", "[", "{", ","],
            ),
            Reader::IsaXml => (
                &[("<a>", "</a>"), ("<a x=\"", "\"/>"), ("<!--", "-->")],
                &["<", ">", "=\"", "</"],
            ),
            Reader::Words => (&[], &[]),
        };
        Notation { nests, anchors }
    }

    fn seeds(self) -> &'static [String] {
        static S: OnceLock<Vec<Vec<String>>> = OnceLock::new();
        let all = S.get_or_init(|| Reader::ALL.iter().map(|r| load_seeds(*r)).collect());
        &all[Reader::ALL.iter().position(|r| *r == self).unwrap()]
    }

    /// Run the reader on `text` under [`guarded`]. Line readers (asm, words) take
    /// `<target> <rest>`; words' rest is hex bytes.
    fn run(self, text: String) -> Result<(), String> {
        let what = format!("{} on {:?}", self.name(), shorten(&text));
        guarded(&what, move || match self {
            Reader::Rules => drop(parse_rules("fuzz.rules", &text)),
            Reader::Pcode => drop((parse_file(&text), parse_stmts(&text), parse_expr(&text))),
            Reader::Asm | Reader::Words => {
                let (t, rest) = text.split_once(' ').unwrap_or((&text, ""));
                let targets = match Target::parse(t) {
                    Some(t) => vec![t],
                    None => Target::ALL.to_vec(),
                };
                for t in targets {
                    if self == Reader::Asm {
                        let _ = parse_any(t, rest);
                    } else {
                        let _ = decode_any(t, &hex_bytes(rest));
                    }
                }
            }
            Reader::Mir => drop(mir::parse("fuzz.mir", &text)),
            Reader::Clrx => drop(clrx::read("fuzz.md", &text)),
            Reader::Refpage => drop(refpage::read("fuzz.txt", &text)),
            Reader::PcodeJson => drop(pcode_json::read("fuzz.json", &text, None)),
            Reader::IsaXml => drop(isa_xml::read("fuzz.xml", &text)),
        })
    }
}

/// Whitespace-separated hex bytes; anything else is skipped (truncation leaves half bytes).
fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .filter_map(|b| u8::from_str_radix(b, 16).ok())
        .collect()
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        let head: String = s.chars().take(200).collect();
        format!("{head}... ({} chars)", s.chars().count())
    }
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(rel)
}

/// The files of `dir` (sorted) whose name passes `keep` and that are at most 20 KB, so that a
/// case stays small enough to run in a few milliseconds.
fn small_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| keep(&p.file_name().unwrap().to_string_lossy()))
        .filter(|p| p.metadata().is_ok_and(|m| m.len() <= 20_000))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p:?}: {e}")))
        .collect()
}

fn lines_of(texts: Vec<String>) -> Vec<String> {
    texts
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Seeds per reader: the committed corpora of `tests/data/fuzz/` and `tests/data/spec/`,
/// `tests/data/tv/` MIR files, and the shipped rule and pseudocode files.
fn load_seeds(r: Reader) -> Vec<String> {
    let spec = data("spec");
    let out = match r {
        Reader::Rules => {
            let mut v = small_files(&data("fuzz/rules"), |_| true);
            v.extend(small_files(&data("../../proofs"), |n| {
                n.ends_with(".rules")
            }));
            v
        }
        Reader::Pcode => {
            let mut v = small_files(&data("fuzz/pcode"), |_| true);
            v.extend(FILES.iter().map(|(_, t)| t.to_string()));
            v
        }
        Reader::Asm => lines_of(small_files(&data("fuzz/asm"), |_| true)),
        Reader::Words => lines_of(small_files(&data("fuzz/words"), |_| true)),
        Reader::Mir => {
            let mut v = small_files(&data("tv"), |n| n.ends_with(".mir"));
            v.extend(small_files(&data("tv/regress"), |n| n.ends_with(".mir")));
            v
        }
        Reader::Clrx => small_files(&spec, |n| n.contains("clrx")),
        Reader::Refpage => small_files(&spec, |n| n.starts_with("good_ref") || n.contains("_ds_")),
        Reader::PcodeJson => small_files(&spec, |n| n.ends_with(".json")),
        Reader::IsaXml => small_files(&spec, |n| n.ends_with(".xml")),
    };
    assert!(out.len() >= 2, "{}: fewer than two seeds", r.name());
    out
}

/// Words get byte-level structure instead: fields set to all-zero or all-one runs, lengths
/// from nothing to far past the longest encoding.
fn stress_words(line: &str, runs: &[(Index, Index, bool)], len: usize) -> String {
    let (t, rest) = line.split_once(' ').unwrap_or((line, ""));
    let mut b = hex_bytes(rest);
    for (at, n, ones) in runs {
        if b.is_empty() {
            break;
        }
        let i = at.index(b.len());
        let j = (i + n.index(4) + 1).min(b.len());
        b[i..j].fill(if *ones { 0xff } else { 0 });
    }
    b.resize(len, 0xff);
    let hex: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{t} {}", hex.join(" "))
}

fn cases() -> u32 {
    gcnsmt_testkit::tiered(300, 25_000)
}

fn config() -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::ProptestConfig {
        // A failing case is a huge string: shrinking it far is slow and not needed to see it.
        max_shrink_iters: 200,
        failure_persistence: None,
        ..gcnsmt_testkit::proptest_config(cases(), 0x6663_7a31_3900)
    }
}

fn fuzz(r: Reader) {
    let started = std::time::Instant::now();
    let strat = (
        any::<Index>(),
        prop::collection::vec((stress::stress(), place()), 1..4),
    );
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let result = runner.run(&strat, |(k, stresses)| {
        let seeds = r.seeds();
        let text = apply(&r.notation(), &seeds[k.index(seeds.len())], &stresses);
        r.run(text).map_err(TestCaseError::fail)
    });
    eprintln!(
        "fuzz_struct {}: {} cases in {:.1?}",
        r.name(),
        runner.config().cases,
        started.elapsed()
    );
    if let Err(e) = result {
        panic!("{}: {e}", r.name());
    }
}

#[test]
fn stressed_rules() {
    fuzz(Reader::Rules);
}

#[test]
fn stressed_pcode() {
    fuzz(Reader::Pcode);
}

#[test]
fn stressed_asm() {
    fuzz(Reader::Asm);
}

#[test]
fn stressed_mir() {
    fuzz(Reader::Mir);
}

#[test]
fn stressed_clrx() {
    fuzz(Reader::Clrx);
}

#[test]
fn stressed_refpage() {
    fuzz(Reader::Refpage);
}

#[test]
fn stressed_pcode_json() {
    fuzz(Reader::PcodeJson);
}

#[test]
fn stressed_isa_xml() {
    fuzz(Reader::IsaXml);
}

#[test]
fn stressed_words() {
    let started = std::time::Instant::now();
    let strat = (
        any::<Index>(),
        prop::collection::vec((any::<Index>(), any::<Index>(), any::<bool>()), 0..4),
        prop_oneof![3 => 0usize..17, 1 => 17usize..200],
    );
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let result = runner.run(&strat, |(k, runs, len)| {
        let seeds = Reader::Words.seeds();
        let line = stress_words(&seeds[k.index(seeds.len())], &runs, len);
        Reader::Words.run(line).map_err(TestCaseError::fail)
    });
    eprintln!(
        "fuzz_struct words: {} cases in {:.1?}",
        runner.config().cases,
        started.elapsed()
    );
    if let Err(e) = result {
        panic!("words: {e}");
    }
}

/// Every input that ever failed a fuzz target, one file per case in `tests/data/fuzz/crashes/`
/// named `<reader>-<what>.txt`, whose first line is a `#` comment saying what it found; the
/// rest of the file is the input, run through the reader again.
#[test]
fn crash_cases_replay() {
    let dir = data("fuzz/crashes");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("tests/data/fuzz/crashes") {
        let p = e.expect("directory entry").path();
        let file = p.file_name().unwrap().to_string_lossy().into_owned();
        if file == "README.md" {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (comment, input) = text.split_once('\n').unwrap_or((&text, ""));
        assert!(
            comment.starts_with('#'),
            "{file}: no `#` line on what it found"
        );
        let r = Reader::ALL
            .into_iter()
            .find(|r| file.starts_with(&format!("{}-", r.name())))
            .unwrap_or_else(|| panic!("{file}: name does not start with a reader's name"));
        r.run(input.to_string())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        n += 1;
    }
    eprintln!("replayed {n} crash cases");
}

/// The oracle itself: a panicking reader is reported, not swallowed, and a deep stress is as
/// deep as asked (so the nesting limits are reached, not only approached).
#[test]
fn oracle_catches_a_panic_and_stresses_are_deep() {
    assert!(guarded("planted", || panic!("planted panic")).is_err());
    assert!(guarded("fine", || ()).is_ok());
    // Any Index picks the only pair and, in a one-character text, one of its two boundaries.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut index = || any::<Index>().new_tree(&mut runner).unwrap().current();
    let nest = stress::Stress::Nest {
        pair: index(),
        depth: 60_000,
        balanced: false,
    };
    let any_place = (false, index(), index());
    let parens = Notation {
        nests: &[("(", ")")],
        anchors: &[],
    };
    let text = apply(&parens, "x", &[(nest, any_place)]);
    assert_eq!(text.matches('(').count(), 60_000);
}
