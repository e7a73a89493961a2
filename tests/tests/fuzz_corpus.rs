//! Corpus-seeded fuzzing of every reader (issue 8): each seed in `tests/data/fuzz/<reader>/`
//! is run as it is, then proptest mutates seeds (deletes, duplicates, moves, inserts notation
//! pieces, replaces characters, flips bits, truncates). No reader may panic or take longer than
//! `HANG` on these bounded inputs, and every error must point inside its input. The seeds
//! that come from llvm-mc must also round-trip byte-exactly. See tests/data/fuzz/README.md.
//!
//! Longer runs: `PROPTEST_CASES=100000 cargo test --release -p gcnsmt-tests --test fuzz_corpus`
//! (add `PROPTEST_RNG_SEED=N` for other inputs than CI's fixed seed).

use gcnsmt_lifter::{decode_any, encode_any, parse_any};
use gcnsmt_semantics::defs::FILES;
use gcnsmt_semantics::parse::{parse_expr, parse_file, parse_stmts};
use gcnsmt_semantics::target::Target;
use gcnsmt_verifier::rules::parse_rules;
use proptest::prelude::*;
use proptest::sample::Index;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The inputs are at most a few KB, so a reader taking this long has hung.
const HANG: Duration = Duration::from_secs(2);

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fuzz")
}

/// The files of `tests/data/fuzz/<reader>/` except its README, sorted, with their text.
fn seed_files(reader: &str) -> Vec<(String, String)> {
    let dir = fuzz_dir().join(reader);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    out.sort();
    out
}

/// A seed of a line-oriented corpus: `<target> <rest>`, with where it came from.
#[derive(Clone, Debug)]
struct LineSeed {
    origin: String,
    target: Target,
    text: String,
    /// From llvm-mc (file name starts with `llvm-mc`): must be accepted and round-trip.
    reference: bool,
}

fn line_seeds(reader: &str) -> Vec<LineSeed> {
    let mut out = Vec::new();
    for (name, text) in seed_files(reader) {
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (t, rest) = line.split_once(' ').unwrap_or((line, ""));
            let target = Target::parse(t).unwrap_or_else(|| panic!("{name}:{}: target {t}", n + 1));
            out.push(LineSeed {
                origin: format!("{reader}/{name}:{}", n + 1),
                target,
                text: rest.to_string(),
                reference: name.starts_with("llvm-mc"),
            });
        }
    }
    out
}

fn asm_seeds() -> &'static [LineSeed] {
    static S: OnceLock<Vec<LineSeed>> = OnceLock::new();
    S.get_or_init(|| line_seeds("asm"))
}

fn word_seeds() -> &'static [(LineSeed, Vec<u8>)] {
    static S: OnceLock<Vec<(LineSeed, Vec<u8>)>> = OnceLock::new();
    S.get_or_init(|| {
        line_seeds("words")
            .into_iter()
            .map(|s| {
                let bytes = s
                    .text
                    .split_whitespace()
                    .map(|b| {
                        u8::from_str_radix(b, 16).unwrap_or_else(|e| panic!("{}: {e}", s.origin))
                    })
                    .collect();
                (s, bytes)
            })
            .collect()
    })
}

/// Rule seeds: the hand-written edge cases and every rule file of `proofs/`.
fn rule_seeds() -> &'static [(String, String)] {
    static S: OnceLock<Vec<(String, String)>> = OnceLock::new();
    S.get_or_init(|| {
        let mut out = seed_files("rules");
        let proofs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs");
        for e in std::fs::read_dir(&proofs).expect("proofs/") {
            let p = e.expect("directory entry").path();
            if p.extension().is_some_and(|x| x == "rules") {
                let text = std::fs::read_to_string(&p).expect("read rule file");
                out.push((
                    format!("proofs/{}", p.file_name().unwrap().to_string_lossy()),
                    text,
                ));
            }
        }
        out
    })
}

/// Pseudocode seeds: the hand-written edge cases (ours and the documentation dialect) and the
/// shipped semantics files.
fn pcode_seeds() -> &'static [(String, String)] {
    static S: OnceLock<Vec<(String, String)>> = OnceLock::new();
    S.get_or_init(|| {
        let mut out = seed_files("pcode");
        out.extend(
            FILES
                .iter()
                .map(|(n, t)| (format!("semantics/pcode/{n}"), t.to_string())),
        );
        out
    })
}

/// `(line, col)` lies on a line of `text` (col 1 to one past its end) or just past the end.
fn inside(text: &str, line: usize, col: usize, col_len: fn(&str) -> usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    if line >= 1 && line <= lines.len() {
        col >= 1 && col <= col_len(lines[line - 1]) + 1
    } else {
        line == lines.len() + 1 && col == 1 || lines.is_empty() && line == 1 && col == 1
    }
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    let start = Instant::now();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| format!("{what}: panicked"))?;
    if start.elapsed() > HANG {
        return Err(format!("{what}: took {:?}", start.elapsed()));
    }
    Ok(r)
}

fn check_asm(t: Target, line: &str) -> Result<Option<Vec<u8>>, String> {
    let what = format!("{t} `{line}`");
    match timed(&what, || parse_any(t, line))? {
        Err(e) => {
            let n = line.chars().count();
            if e.col < 1 || e.col > n + 1 {
                return Err(format!(
                    "{what}: column {} outside 1..={}: {}",
                    e.col,
                    n + 1,
                    e.msg
                ));
            }
            Ok(None)
        }
        Ok(i) => {
            // Whatever parses encodes and decodes back to itself.
            let bytes = encode_any(&i);
            let again = decode_any(t, &bytes);
            if again.as_ref() != Ok(&i) {
                return Err(format!("{what}: re-decodes as {again:?}"));
            }
            Ok(Some(bytes))
        }
    }
}

fn check_bytes(t: Target, bytes: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let what = format!("{t} {bytes:02x?}");
    match timed(&what, || decode_any(t, bytes))? {
        Err(_) => Ok(None),
        Ok(i) => {
            // Not byte-exact in general: fields the instruction ignores (VADDR without
            // offen/idxen) are encoded as zero. The instruction itself must survive.
            let again = encode_any(&i);
            let back = decode_any(t, &again);
            if back.as_ref() != Ok(&i) {
                return Err(format!(
                    "{what}: re-encodes as {again:02x?}, which decodes as {back:?}"
                ));
            }
            Ok(Some(again))
        }
    }
}

fn check_rules(text: &str) -> Result<(), String> {
    let r = timed("parse_rules", || parse_rules("fuzz.rules", text))?;
    if let Err(e) = r {
        let (l, c) = (e.loc.line as usize, e.loc.col as usize);
        // A rule error is on a line of the text (its byte column, or one past the line).
        let lines: Vec<&str> = text.lines().collect();
        if !(l >= 1 && l <= lines.len() && c >= 1 && c <= lines[l - 1].len() + 1) {
            return Err(format!("error outside the text: {e}"));
        }
    }
    Ok(())
}

fn check_pcode(text: &str) -> Result<(), String> {
    let errors = timed("pseudocode readers", || {
        [
            parse_file(text).err(),
            parse_stmts(text).err(),
            parse_expr(text).err(),
        ]
    })?;
    for e in errors.into_iter().flatten() {
        if !inside(text, e.line as usize, e.col as usize, |l| l.len()) {
            return Err(format!("error outside the input: {e}"));
        }
    }
    Ok(())
}

#[test]
fn asm_seeds_as_they_are() {
    // The llvm-mc seeds: line k of asm/llvm-mc-*.txt is encoded by line k of words/llvm-mc-*.txt.
    let words: Vec<&Vec<u8>> = word_seeds()
        .iter()
        .filter(|(w, _)| w.reference)
        .map(|(_, b)| b)
        .collect();
    let mut reference = 0;
    for s in asm_seeds() {
        let r = check_asm(s.target, &s.text).map_err(|e| format!("{}: {e}", s.origin));
        let bytes = r.unwrap_or_else(|e| panic!("{e}"));
        if s.reference {
            // llvm-mc 22 printed this line; we must accept it and agree on the encoding.
            let bytes = bytes.unwrap_or_else(|| panic!("{}: rejected", s.origin));
            assert_eq!(
                Some(&&bytes),
                words.get(reference),
                "{}: {}",
                s.origin,
                s.text
            );
            reference += 1;
        }
    }
    assert_eq!(
        reference,
        words.len(),
        "asm/ and words/ llvm-mc seeds differ in number"
    );
    assert!(reference >= 50, "only {reference} llvm-mc seeds");
}

#[test]
fn word_seeds_as_they_are() {
    for (s, bytes) in word_seeds() {
        let r = check_bytes(s.target, bytes).unwrap_or_else(|e| panic!("{}: {e}", s.origin));
        if s.reference {
            // llvm-mc 22 encoded exactly these bytes.
            assert_eq!(r.as_ref(), Some(bytes), "{}: does not decode", s.origin);
        }
    }
}

#[test]
fn rule_seeds_as_they_are() {
    let mut wrong = Vec::new();
    for (name, text) in rule_seeds() {
        check_rules(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The corpus rules parse; the edge cases named err-* do not (late-err-* parse, and
        // fail when checked).
        let ok = parse_rules(name, text).is_ok();
        if (name.starts_with("proofs/") || name.starts_with("late-err-")) && !ok
            || name.starts_with("err-") && ok
        {
            wrong.push(name.as_str());
        }
    }
    assert!(
        wrong.is_empty(),
        "parse outcome not as the name says: {wrong:?}"
    );
}

#[test]
fn pcode_seeds_as_they_are() {
    for (name, text) in pcode_seeds() {
        check_pcode(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Every corpus directory is read by a test above, or is a hook for a reader still being
/// written (only its README until then): seeds nobody reads would be false comfort.
#[test]
fn every_corpus_directory_is_read() {
    // `vsharp` is read by gcnsmt-semantics' semantics/tests/fuzz_vsharp.rs (the V# reader
    // lives in that crate); the others by this file.
    const READ: [&str; 5] = ["asm", "words", "rules", "pcode", "vsharp"];
    const HOOKS: [&str; 1] = ["docpages"];
    // Read by fuzz_struct.rs (crash_cases_replay); empty while nothing has crashed.
    const REPLAYED: [&str; 1] = ["crashes"];
    for e in std::fs::read_dir(fuzz_dir()).expect("tests/data/fuzz") {
        let p = e.expect("directory entry").path();
        if !p.is_dir() {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if REPLAYED.contains(&name.as_str()) {
            continue;
        }
        if READ.contains(&name.as_str()) {
            assert!(seed_files(&name).len() >= 2, "{name}: no seeds");
        } else {
            assert!(HOOKS.contains(&name.as_str()), "{name}: no test reads it");
            assert!(
                seed_files(&name).is_empty(),
                "{name}: seeds but no reader fuzzed yet; add its target here"
            );
        }
    }
}

/// Text pieces of the notations, inserted by the mutations.
const PIECES: &[&str] = &[
    " ",
    "\n",
    "\t",
    "\r\n",
    ",",
    ":",
    ";",
    "=>",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "%x",
    "%",
    "v1",
    "v[2:3]",
    "a[0:1]",
    "s[8:11]",
    "m0",
    "off",
    "offset:",
    "offset0:",
    "offset1:",
    "65535",
    "65536",
    "-1",
    "0x",
    "0xffffffffffffffffffff",
    "gds",
    "glc",
    "th:",
    "scope:",
    "Name: r",
    "Targets: gfx900",
    "Pre:",
    "Dead:",
    "Expect: proved",
    "ds_read_b32",
    "buffer_load_dword",
    "MEM[",
    "].u32",
    ".b64",
    "[31:0]",
    "1'1",
    "0U",
    "?",
    "==",
    "<=",
    "&&",
    "||",
    "<<",
    "if",
    "then",
    "endif",
    "for",
    "endfor",
    "//",
    "é",
    "\u{0}",
];

type Edit = (u8, Index, Index, &'static str, char);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        (
            0u8..6,
            any::<Index>(),
            any::<Index>(),
            prop::sample::select(PIECES),
            any::<char>(),
        ),
        1..5,
    )
}

/// Apply character-level edits: delete, duplicate or move a run of up to 40 characters,
/// insert a piece, replace a character, or truncate.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for &(kind, a, b, piece, ch) in edits {
        let i = a.index(s.len() + 1);
        let j = (i + b.index(40) + 1).min(s.len());
        match kind {
            0 => {
                s.drain(i..j);
            }
            1 => {
                let dup: Vec<char> = s[i..j].to_vec();
                s.splice(i..i, dup);
            }
            2 => {
                let cut: Vec<char> = s.drain(i..j).collect();
                let k = b.index(s.len() + 1);
                s.splice(k..k, cut);
            }
            3 => {
                s.splice(i..i, piece.chars());
            }
            4 if i < s.len() => s[i] = ch,
            5 if b.index(8) == 0 => s.truncate(i), // rarely: it discards the most
            _ => {}
        }
    }
    s.into_iter().collect()
}

/// `cases` cases from this file's fixed seed (see [`gcnsmt_testkit::proptest_config`]).
fn config(cases: u32) -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::proptest_config(cases, 0x6763_6e73_6d74)
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn mutated_asm_seeds(k in any::<Index>(), other in any::<Index>(), e in edits()) {
        let s = &asm_seeds()[k.index(asm_seeds().len())];
        let text = mutate(&s.text, &e);
        check_asm(s.target, &text).map_err(TestCaseError::fail)?;
        // The same text on another target (a mnemonic or operand it may not have).
        let t = Target::ALL[other.index(Target::ALL.len())];
        check_asm(t, &text).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mutated_word_seeds(
        k in any::<Index>(),
        flips in prop::collection::vec((any::<Index>(), 0u8..8), 0..4),
        cut in any::<Index>(),
        extra in prop::collection::vec(any::<u8>(), 0..5),
    ) {
        let (s, bytes) = &word_seeds()[k.index(word_seeds().len())];
        let mut b = bytes.clone();
        for (at, bit) in flips {
            if !b.is_empty() {
                let i = at.index(b.len());
                b[i] ^= 1 << bit;
            }
        }
        // Sometimes shorter (a truncated instruction), sometimes longer (trailing bytes).
        b.truncate(cut.index(b.len() + 4));
        b.extend(extra);
        check_bytes(s.target, &b).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mutated_rule_seeds(k in any::<Index>(), e in edits()) {
        let (_, text) = &rule_seeds()[k.index(rule_seeds().len())];
        check_rules(&mutate(text, &e)).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mutated_pcode_seeds(k in any::<Index>(), e in edits()) {
        let (_, text) = &pcode_seeds()[k.index(pcode_seeds().len())];
        check_pcode(&mutate(text, &e)).map_err(TestCaseError::fail)?;
    }
}
