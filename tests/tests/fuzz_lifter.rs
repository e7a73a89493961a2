//! Fuzzing of the instruction readers through the lifter's public API (issue 8): decoding
//! arbitrary words and byte strings, and parsing arbitrary and mutated assembly, never panics
//! or hangs, and every assembly error points inside the line (column 1 to one past its end).
//! Run more cases with `PROPTEST_CASES=100000 cargo test -p gcnsmt-tests --test fuzz_lifter`.

use gcnsmt_lifter::{decode, decode_bytes, encode, parse_asm};
use gcnsmt_semantics::target::Target;
use proptest::prelude::*;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const HANG: Duration = Duration::from_secs(1);

/// The canonical assembly lines of the llvm-mc round-trip data, per target.
fn corpus() -> &'static Vec<(Target, String)> {
    static C: OnceLock<Vec<(Target, String)>> = OnceLock::new();
    C.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/roundtrip");
        let mut out = Vec::new();
        for t in Target::ALL {
            let p = format!("{dir}/ds_{}.s", t.name());
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            for l in text.lines().filter(|l| l.starts_with("ds_")) {
                let asm = l.split(';').next().unwrap_or("").trim().to_string();
                out.push((t, asm));
            }
        }
        assert!(out.len() > 1000, "round-trip data missing");
        out
    })
}

fn target() -> impl Strategy<Value = Target> {
    prop::sample::select(Target::ALL.to_vec())
}

fn asm_ok(t: Target, line: &str) -> Result<(), TestCaseError> {
    let start = Instant::now();
    // Catch a panic to report the text itself (proptest's shrunk input is only indices).
    let r = std::panic::catch_unwind(|| parse_asm(t, line));
    prop_assert!(r.is_ok(), "{t} `{line}`: parse_asm panicked");
    let r = r.unwrap();
    prop_assert!(start.elapsed() < HANG, "parse took {:?}", start.elapsed());
    match r {
        Err(e) => {
            let n = line.chars().count();
            prop_assert!(
                e.col >= 1 && e.col <= n + 1,
                "{t} `{line}`: error column {} outside 1..={}: {}",
                e.col,
                n + 1,
                e.msg
            );
        }
        Ok(i) => {
            // Whatever parses encodes and decodes back to itself.
            let again = decode(t, encode(&i));
            prop_assert!(again.as_ref() == Ok(&i), "{t} `{line}`: {again:?}");
        }
    }
    Ok(())
}

const PIECES: &[&str] = &[
    " ",
    ",",
    "v1",
    "v[2:3]",
    "v[4:7]",
    "a[0:1]",
    "s4",
    "m0",
    "vcc",
    "offset:",
    "offset0:",
    "offset1:",
    "65535",
    "65536",
    "-1",
    "0x10",
    "gds",
    ":",
    "[",
    "]",
    "v[",
    "v255",
    "v256",
    "ds_add_u32",
    "ds_read2_b32",
    "ds_load_b32",
    "ds_swizzle_b32",
    "swizzle(",
    ")",
    "\t",
    "é",
];

/// `cases` cases from this file's fixed seed (see [`gcnsmt_testkit::proptest_config`]).
fn config(cases: u32) -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::proptest_config(cases, 0x6763_6e73_6d74)
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn decode_any_word(t in target(), w in any::<u64>()) {
        let start = Instant::now();
        let r = decode(t, w);
        prop_assert!(start.elapsed() < HANG);
        if let Ok(i) = r {
            prop_assert_eq!(decode(t, encode(&i)), Ok(i));
        }
    }

    #[test]
    fn decode_any_bytes(t in target(), b in prop::collection::vec(any::<u8>(), 0..24)) {
        let _ = decode_bytes(t, &b);
    }

    #[test]
    fn arbitrary_assembly(t in target(), line in "\\PC{0,80}") {
        asm_ok(t, &line)?;
    }

    #[test]
    fn assembly_pieces(t in target(), ps in prop::collection::vec(prop::sample::select(PIECES), 0..12)) {
        asm_ok(t, &ps.concat())?;
    }

    #[test]
    fn mutated_assembly(
        k in any::<prop::sample::Index>(),
        edits in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), any::<char>(), prop::sample::select(PIECES)), 1..3),
    ) {
        let (t, line) = &corpus()[k.index(corpus().len())];
        let mut s: Vec<char> = line.chars().collect();
        for (kind, at, ch, piece) in edits {
            let i = at.index(s.len() + 1);
            match kind {
                0 if i < s.len() => { s.remove(i); }
                1 if i < s.len() => s[i] = ch,
                2 => { s.splice(i..i, piece.chars()); }
                _ => s.truncate(i),
            }
        }
        let text: String = s.into_iter().collect();
        asm_ok(*t, &text)?;
        // The same text on another target (a mnemonic it may not have).
        asm_ok(Target::ALL[k.index(Target::ALL.len())], &text)?;
    }
}

/// Found by `mutated_assembly`: the last register of `v[65535:65536]` and of `v65535`
/// overflowed a u16 (a panic in debug builds; in release `v[65535:65536]` wrapped and encoded
/// as `v[65535:0]`).
#[test]
fn register_range_past_u16_is_an_error() {
    for t in [Target::Gfx900, Target::Gfx1100] {
        for asm in [
            "ds_read_b64 v[65535:65536], v2",
            "ds_read_b32 v65535, v2",
            "ds_gws_barrier v65535 gds",
        ] {
            let e = parse_asm(t, asm).expect_err("out of range");
            assert!(e.col >= 1, "{asm}: {e:?}");
        }
    }
}
