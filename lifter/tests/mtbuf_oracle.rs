//! MTBUF (`tbuffer_*` on gfx6-gfx11) against llvm-mc's own CHECK lines
//! (`tests/data/mtbuf_llvm_mc.txt`, each block naming its LLVM test file and commit): every
//! line's assembly encodes to the listed bytes, and the bytes decode and print as llvm-mc
//! prints them (or, where the test lists only bytes, print a line that encodes back to them).
//! Then the whole MTBUF space of every target round-trips through our own decoder and
//! encoder, and bad input is one error with a column, never a panic.

use gcnsmt_lifter::{decode_any, encode_any, mtbuf_mnemonics, parse_any};
use gcnsmt_semantics::target::Target;

const ORACLE: &str = include_str!("../../tests/data/mtbuf_llvm_mc.txt");

#[test]
fn llvm_mc_check_lines_round_trip() {
    let mut n = 0;
    let mut fails = Vec::new();
    for (ln, line) in ORACLE.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [t, asm, printed, enc] = f[..] else {
            panic!("line {}: four fields", ln + 1)
        };
        let t = Target::parse(t).expect("target");
        let want = gcnsmt_testkit::hex_bytes(enc);
        n += 1;
        match parse_any(t, asm) {
            Ok(i) if encode_any(&i) == want => {}
            Ok(i) => fails.push(format!("{}: encodes {:02x?}", ln + 1, encode_any(&i))),
            Err(e) => fails.push(format!("{}: {e}", ln + 1)),
        }
        let text = match decode_any(t, &want) {
            Ok(i) => i.to_string(),
            Err(e) => {
                fails.push(format!("{}: decode: {e}", ln + 1));
                continue;
            }
        };
        match printed {
            "-" => match parse_any(t, &text) {
                Ok(i) if encode_any(&i) == want => {}
                other => fails.push(format!("{}: `{text}` re-assembles to {other:?}", ln + 1)),
            },
            "=" if text == asm => {}
            p if p != "=" && text == p => {}
            _ => fails.push(format!("{}: prints `{text}`", ln + 1)),
        }
    }
    assert!(n >= 40, "only {n} facts");
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Every MTBUF opcode with a spread of formats, flags and operands: parse(print(decode(w)))
/// encodes to w.
#[test]
fn mtbuf_space_round_trips() {
    let mut n = 0;
    for t in Target::ALL {
        for mn in mtbuf_mnemonics(t) {
            for code in [0u8, 1, 20, 22, 63, 77, 100, 127] {
                let inst = parse_any(
                    t,
                    &format!("{mn} v[4:7], v2, s[8:11], s3 format:{code} offen offset:16"),
                );
                let inst = match inst {
                    Ok(i) => i,
                    // vdata narrower than 4: retry with the op's own width.
                    Err(_) => {
                        let w = (1..=4)
                            .find_map(|w| {
                                let r = if w == 1 {
                                    "v4".to_string()
                                } else {
                                    format!("v[4:{}]", 3 + w)
                                };
                                parse_any(
                                    t,
                                    &format!(
                                        "{mn} {r}, v2, s[8:11], s3 format:{code} offen offset:16"
                                    ),
                                )
                                .ok()
                            })
                            .unwrap_or_else(|| panic!("{t} {mn}"));
                        w
                    }
                };
                let b = encode_any(&inst);
                let back = decode_any(t, &b).unwrap_or_else(|e| panic!("{t} {mn}: {e}"));
                assert_eq!(back, inst, "{t} {mn} {code}");
                let again =
                    parse_any(t, &back.to_string()).unwrap_or_else(|e| panic!("{t} `{back}`: {e}"));
                assert_eq!(encode_any(&again), b, "{t} `{back}`");
                n += 1;
            }
        }
    }
    assert!(n > 1000, "{n}");
}

#[test]
fn bad_mtbuf_input_is_one_error_with_a_column() {
    // (target, line, the text the error's column must point at)
    let cases = [
        (
            Target::Gfx900,
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_33]",
            "[BUF",
        ),
        (
            Target::Gfx900,
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:128",
            "128",
        ),
        (
            Target::Gfx1010,
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_DATA_FORMAT_32]",
            "[BUF",
        ),
        (
            Target::Gfx1100,
            "tbuffer_load_format_x v1, off, s[4:7], s1 format:[BUF_FMT_32_UINT,BUF_FMT_8_UINT]",
            "[BUF",
        ),
        (
            Target::Gfx900,
            "tbuffer_load_format_xy v1, off, s[4:7], s1",
            "v1",
        ),
        (
            Target::Gfx900,
            "tbuffer_load_format_x v1, off, s[4:7], s1 tfe",
            "tfe",
        ),
        (
            Target::Gfx900,
            "tbuffer_load_format_x v1, off, s[4:7], s1 addr64",
            "addr64",
        ),
        (
            Target::Gfx600,
            "tbuffer_load_format_d16_x v1, off, s[4:7], s1",
            "tbuffer",
        ),
        (
            Target::Gfx1250,
            "tbuffer_load_format_x v1, off, s[4:7], s1",
            "tbuffer",
        ),
        (
            Target::Gfx90a,
            "tbuffer_load_format_xy v[1:2], off, s[4:7], s1",
            "v[1:2]",
        ),
    ];
    for (t, line, at) in cases {
        let col = line.find(at).expect("marker") + 1;
        match parse_any(t, line) {
            Err(e) => assert_eq!(e.col, col, "{t} `{line}`: {e}"),
            Ok(i) => panic!("{t} `{line}` accepted as `{i}`"),
        }
    }
}

#[test]
fn free_bits_are_rejected_by_the_decoder() {
    // Bit 55 on gfx900 (no MTBUF TFE), bit 53 on gfx1100 (no MTBUF TFE): not guessed.
    let w = |lo: u32, hi: u32| [lo.to_le_bytes(), hi.to_le_bytes()].concat();
    assert!(decode_any(Target::Gfx900, &w(0xe8000000 | (1 << 19), 0x0080_0000)).is_err());
    assert!(decode_any(Target::Gfx1100, &w(0xe8000000 | (1 << 19), 0x0020_0000)).is_err());
    assert!(decode_any(Target::Gfx900, &w(0xe8000000 | (1 << 19), 0)).is_ok());
}
