//! Fuzzing of the pseudocode reader (issue 8): on arbitrary text and on mutations of the
//! shipped semantics files, `parse_file`, `parse_stmts` and `parse_expr` never panic, return
//! quickly, and every error points inside the input (a line of it, a column on that line or
//! just past its end). Run more cases with `PROPTEST_CASES=100000 cargo test -p
//! gcnsmt-semantics --test fuzz_parse`.

use gcnsmt_semantics::defs::FILES;
use gcnsmt_semantics::parse::{parse_expr, parse_file, parse_stmts};
use gcnsmt_semantics::ParseError;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Inputs are bounded (a few KB), so any parse taking this long is a hang.
const HANG: Duration = Duration::from_secs(2);

fn position_ok(src: &str, e: &ParseError) -> Result<(), String> {
    let lines: Vec<&str> = src.lines().collect();
    let (l, c) = (e.line as usize, e.col as usize);
    let ok = if l >= 1 && l <= lines.len() {
        c >= 1 && c <= lines[l - 1].len() + 1
    } else {
        // The end of the input: just past the last line.
        l == lines.len() + 1 && c == 1 || lines.is_empty() && l == 1 && c == 1
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "error {e} is outside the input ({} lines)",
            lines.len()
        ))
    }
}

fn check_all(src: &str) -> Result<(), TestCaseError> {
    let start = Instant::now();
    let results = [
        parse_file(src).err(),
        parse_stmts(src).err(),
        parse_expr(src).err(),
    ];
    prop_assert!(start.elapsed() < HANG, "parsing took {:?}", start.elapsed());
    for e in results.into_iter().flatten() {
        position_ok(src, &e).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

/// Pieces of the notation, so random text gets past the lexer often.
const PIECES: &[&str] = &[
    "DS_ADD_U32",
    "DS_X { A = DATA0, B = DATA1 }",
    ":",
    ",",
    ";",
    "\n",
    "  ",
    "addr",
    "=",
    "CalcDsAddr(ADDR.b32, OFFSET.b32)",
    "MEM[addr].u32",
    "MEM[addr + 4U].b64",
    "tmp",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "~",
    "!",
    "<<",
    ">>",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "?",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "[31:0]",
    "[63:32]",
    ".u32",
    ".i32",
    ".b64",
    ".f32",
    "1'1",
    "0U",
    "1U",
    "0xfff8U",
    "4294967295U",
    "0x",
    "99999999999999999999999U",
    "if",
    "then",
    "elsif",
    "else",
    "endif",
    "for",
    "in",
    "do",
    "endfor",
    "UNDEFINED",
    "RETURN_DATA",
    "DATA[31]",
    "// comment",
    "'",
    "\"",
    "é",
    "\t",
    "\r\n",
    "_",
    "%x",
];

fn pieces() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.join(" "))
}

/// A shipped file with a few random edits: delete, duplicate or move a byte range, insert a
/// piece, or replace one character.
fn mutated() -> impl Strategy<Value = String> {
    (
        0..FILES.len(),
        prop::collection::vec(
            (
                0u8..5,
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                prop::sample::select(PIECES),
                any::<char>(),
            ),
            1..4,
        ),
    )
        .prop_map(|(f, edits)| {
            let mut s: Vec<char> = FILES[f].1.chars().collect();
            for (kind, a, b, piece, ch) in edits {
                if s.is_empty() {
                    break;
                }
                let i = a.index(s.len());
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
                    _ => s[i] = ch,
                }
            }
            s.into_iter().collect()
        })
}

/// `cases` cases from this file's fixed seed (see [`gcnsmt_testkit::proptest_config`]).
fn config(cases: u32) -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::proptest_config(cases, 0x6763_6e73_6d74)
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn arbitrary_text(src in "\\PC{0,300}") {
        check_all(&src)?;
    }

    #[test]
    fn notation_pieces(src in pieces()) {
        check_all(&src)?;
    }

    #[test]
    fn mutated_semantics_files(src in mutated()) {
        check_all(&src)?;
    }
}
