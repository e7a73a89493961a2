//! `gcnsmt decode` and `gcnsmt encode`: instruction words to assembly and back.

use super::usage_error;
use crate::exit::ExitStatus;
use gcnsmt_lifter::encode_bytes;
use gcnsmt_semantics::target::Target;
use std::io::Read;

/// Bytes from hex arguments: 8-digit dwords (`0xd86c0000`, little-endian) or 2-digit bytes
/// (`0x00`, `[0x00,0x00,...]`).
pub(super) fn parse_words(args: &[String]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for a in args {
        for tok in a
            .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let h = tok.trim_start_matches("0x").trim_start_matches("0X");
            let v =
                u64::from_str_radix(h, 16).map_err(|_| format!("`{tok}` is not a hex number"))?;
            match h.len() {
                1 | 2 => bytes.push(v as u8),
                3..=8 => bytes.extend_from_slice(&(v as u32).to_le_bytes()),
                9..=16 => {
                    return Err(format!(
                        "`{tok}` is wider than a dword; give 32-bit words or bytes (as llvm-objdump and llvm-mc print them)"
                    ))
                }
                _ => return Err(format!("`{tok}` is too long")),
            }
        }
    }
    Ok(bytes)
}

fn stdin_words() -> Vec<String> {
    let mut s = String::new();
    let _ = std::io::stdin().read_to_string(&mut s);
    // llvm-mc -show-encoding: `; encoding: [0x..,...]`; llvm-objdump -d: `// 000000: D86C0000 02000014`.
    let mut out = Vec::new();
    for line in s.lines() {
        if let Some(i) = line.find("encoding: [") {
            let rest = &line[i + 11..];
            if let Some(j) = rest.find(']') {
                out.push(rest[..j].to_string());
            }
        } else if let Some(i) = line.find("// ") {
            let rest = &line[i + 3..];
            if let Some((_, words)) = rest.split_once(':') {
                for w in words.split_whitespace() {
                    out.push(format!("0x{w}"));
                }
            }
        }
    }
    out
}

/// `gcnsmt decode`.
pub fn decode(target: Target, words: &[String]) -> ExitStatus {
    let args = if words.is_empty() {
        stdin_words()
    } else {
        words.to_vec()
    };
    let bytes = match parse_words(&args) {
        Ok(b) => b,
        Err(e) => return usage_error(&e),
    };
    if bytes.is_empty() {
        return usage_error(
            "no instruction words given (DS and MUBUF instructions are 8 bytes, VBUFFER 12)",
        );
    }
    // DS and MUBUF words are 8 bytes, gfx12/gfx1250 VBUFFER words 12 (bits 31:26 of the
    // first dword decide); an unknown first dword is reported and skipped.
    let mut code = ExitStatus::Proved;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.len() < 4 {
            return usage_error(&format!(
                "instructions are 8 bytes (12 for gfx12 VBUFFER); got {} trailing byte(s)",
                rest.len()
            ));
        }
        let first = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let len = gcnsmt_lifter::inst_len(target, first).unwrap_or(4);
        if rest.len() < len {
            return usage_error(&format!(
                "instruction at byte {at} needs {len} bytes; only {} left",
                rest.len()
            ));
        }
        match gcnsmt_lifter::decode_any(target, &rest[..len]) {
            Ok(i) => println!("{i}"),
            Err(e) => {
                println!("{e}");
                code = ExitStatus::InputError;
            }
        }
        at += len;
    }
    code
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
