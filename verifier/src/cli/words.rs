//! `gcnsmt decode` and `gcnsmt encode`: instruction words to assembly and back.

use super::usage_error;
use super::words_input::{from_args, from_text, stdin_text, Bytes};
use crate::exit::ExitStatus;
use gcnsmt_lifter::encode_bytes;
use gcnsmt_lifter::text::WriteText;
use gcnsmt_semantics::target::Target;

/// Bytes from hex arguments: 8-digit dwords (`0xd86c0000`, little-endian) or 2-digit bytes
/// (`0x00`, `[0x00,0x00,...]`).
pub(super) fn parse_words(args: &[String]) -> Result<Vec<u8>, String> {
    from_args(args).map(|b| b.bytes)
}

/// The bytes `decode` was given: `-` or nothing reads standard input, an argument naming an
/// existing file reads it, and anything else is hex bytes and dwords.
fn input_bytes(words: &[String]) -> Result<Bytes, String> {
    let text_input = |w: &String| w == "-" || std::path::Path::new(w).is_file();
    match words {
        [] => from_text("<stdin>", &stdin_text()?),
        [w] if w == "-" => from_text("<stdin>", &stdin_text()?),
        [w] if text_input(w) => {
            let path = std::path::Path::new(w);
            let text = crate::limits::read_text(path)
                .map_err(|e| format!("{w}:{}:{}: error: {}", e.line, e.col, e.msg))?;
            from_text(w, &text)
        }
        _ if words.iter().any(text_input) => {
            Err("give one file (or `-` for standard input), or hex words, not both".into())
        }
        _ => from_args(words),
    }
}

/// An input error: `FILE:LINE:COL: error: ...` as given when located, else `error: ...`.
fn input_error(msg: &str) -> ExitStatus {
    if msg.contains(": error: ") {
        eprintln!("{msg}");
        ExitStatus::InputError
    } else {
        usage_error(msg)
    }
}

/// `gcnsmt decode`.
pub fn decode(target: Target, words: &[String]) -> ExitStatus {
    let input = match input_bytes(words) {
        Ok(b) => b,
        Err(e) => return input_error(&e),
    };
    let bytes = &input.bytes;
    if bytes.is_empty() {
        return usage_error(
            "no instruction words given (DS and MUBUF instructions are 8 bytes, VBUFFER 12)",
        );
    }
    let located = |at: usize, msg: String| {
        if input.located() {
            input_error(&format!("{}: error: {msg}", input.at(at)))
        } else {
            usage_error(&msg)
        }
    };
    // DS and MUBUF words are 8 bytes, gfx12/gfx1250 VBUFFER words 12 (bits 31:26 of the
    // first dword decide); an unknown first dword is reported and skipped. Output goes into
    // one buffer, written once, since a line-at-a-time `println!` locks stdout per line.
    let mut code = ExitStatus::Proved;
    let mut out = String::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.len() < 4 {
            flush(&out);
            return located(
                at,
                format!(
                    "instructions are 8 bytes (12 for gfx12 VBUFFER); got {} trailing byte(s)",
                    rest.len()
                ),
            );
        }
        let first = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let len = gcnsmt_lifter::inst_len(target, first).unwrap_or(4);
        if rest.len() < len {
            flush(&out);
            return located(
                at,
                format!(
                    "instruction at byte {at} needs {len} bytes; only {} left",
                    rest.len()
                ),
            );
        }
        // `write_text`, the same text as `Display` without `core::fmt` (lifter/src/text.rs).
        match gcnsmt_lifter::decode_any(target, &rest[..len]) {
            Ok(i) => i.write_text(&mut out),
            Err(e) => {
                e.write_text(&mut out);
                code = ExitStatus::InputError;
            }
        }
        out.push('\n');
        at += len;
    }
    flush(&out);
    code
}

fn flush(out: &str) {
    crate::exit::write_stdout(out);
}

/// `gcnsmt encode`.
pub fn encode(target: Target, asm: &str) -> ExitStatus {
    match gcnsmt_lifter::parse_any(target, asm) {
        Ok(i) => {
            let b = match &i {
                gcnsmt_lifter::Inst::Ds(d) => encode_bytes(d).to_vec(),
                gcnsmt_lifter::Inst::Mubuf(_) => gcnsmt_lifter::encode_any(&i),
            };
            let s: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
            println!("{i:<50} ; encoding: [{}]", s.join(","));
            ExitStatus::Proved
        }
        Err(e) => {
            eprintln!("<argument>:1:{}: error: {}", e.col, e.msg);
            ExitStatus::InputError
        }
    }
}
