//! Instruction bytes for `gcnsmt decode`, from arguments or from text: the plain input
//! `llvm-mc --disassemble` takes (LLVM's `test/MC/Disassembler/AMDGPU/*.txt`), llvm-mc
//! `-show-encoding` output or llvm-objdump `-d` output.
//!
//! Each byte keeps where it came from, so a short last instruction is reported at the
//! line and column of its first byte, as llvm-mc reports its warnings.

use std::io::Read;

/// Bytes and, for text inputs, where each one starts.
pub(super) struct Bytes {
    /// The instruction bytes, in input order (dwords already split little-endian).
    pub bytes: Vec<u8>,
    /// Per byte, `name:line:col` of its token (1-based, columns in characters); empty for
    /// command-line arguments.
    pos: Vec<Pos>,
    /// The input's name (`<stdin>` or a path), for messages.
    name: String,
}

#[derive(Clone, Copy)]
struct Pos {
    line: u32,
    col: u32,
}

impl Bytes {
    /// `name:line:col` of byte `i`, or `byte i` for argument input.
    pub fn at(&self, i: usize) -> String {
        match self.pos.get(i) {
            Some(p) => format!("{}:{}:{}", self.name, p.line, p.col),
            None => format!("byte {i}"),
        }
    }

    /// Whether the bytes came from text with positions (errors then lead with `at`).
    pub fn located(&self) -> bool {
        !self.pos.is_empty()
    }
}

/// One hex token: 1-2 digits a byte, 3-8 digits a little-endian dword (as llvm-objdump prints
/// words). Errors say why the token is not one.
fn token_bytes(tok: &str, out: &mut Vec<u8>) -> Result<usize, String> {
    let h = tok
        .strip_prefix("0x")
        .or_else(|| tok.strip_prefix("0X"))
        .unwrap_or(tok);
    let v = u64::from_str_radix(h, 16).map_err(|_| format!("`{tok}` is not a hex number"))?;
    match h.len() {
        1 | 2 => out.push(v as u8),
        3..=8 => out.extend_from_slice(&(v as u32).to_le_bytes()),
        9..=16 => {
            return Err(format!(
                "`{tok}` is wider than a dword; give 32-bit words or bytes (as llvm-objdump and llvm-mc print them)"
            ))
        }
        _ => return Err(format!("`{tok}` is too long")),
    }
    Ok(if h.len() <= 2 { 1 } else { 4 })
}

fn is_sep(c: char) -> bool {
    c == ',' || c == '[' || c == ']' || c.is_whitespace()
}

/// Bytes from hex arguments: 8-digit dwords (`0xd86c0000`, little-endian) or 2-digit bytes
/// (`0x00`, `[0x00,0x00,...]`).
pub(super) fn from_args(args: &[String]) -> Result<Bytes, String> {
    let mut bytes = Vec::new();
    for a in args {
        for tok in a.split(is_sep).filter(|t| !t.is_empty()) {
            token_bytes(tok, &mut bytes)?;
        }
    }
    Ok(Bytes {
        bytes,
        pos: Vec::new(),
        name: String::new(),
    })
}

/// Read standard input (`-` or no argument) as text.
pub(super) fn stdin_text() -> Result<String, String> {
    let mut raw = Vec::new();
    std::io::stdin()
        .take(crate::limits::MAX_INPUT_BYTES + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("<stdin>: {e}"))?;
    if raw.len() as u64 > crate::limits::MAX_INPUT_BYTES {
        return Err("<stdin>: larger than the input limit".into());
    }
    crate::limits::decode(raw)
        .map_err(|e| format!("<stdin>:{}:{}: error: {}", e.line, e.col, e.msg))
}

/// Where the encoding of an llvm-mc `-show-encoding` line or an llvm-objdump `-d` line is,
/// if the line is one: the text of its bytes.
fn tool_listing(line: &str) -> Option<&str> {
    if let Some(i) = line.find("encoding: [") {
        let rest = &line[i + 11..];
        return rest.find(']').map(|j| &rest[..j]);
    }
    // llvm-objdump: `<asm> // 000000000000: D86C0000 02000014`, an address then a colon.
    let (before, after) = line.split_once("// ")?;
    let (addr, words) = after.split_once(':')?;
    let asm_first = !before.trim().is_empty() && !before.trim_start().starts_with("0x");
    (asm_first && !addr.is_empty() && addr.bytes().all(|b| b.is_ascii_hexdigit())).then_some(words)
}

/// The tokens of `s` between separators, each with its byte offset.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = None;
    let mut out = Vec::new();
    for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
        match (is_sep(c), start) {
            (true, Some(b)) => {
                out.push((b, &s[b..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out.into_iter()
}

/// Bytes from text named `name`. A text in which some line is llvm-mc `-show-encoding` or
/// llvm-objdump output takes the encodings of such lines and ignores the rest (their headers
/// and labels). Otherwise it is llvm-mc's disassembler input: hex bytes (or dwords) separated
/// by blanks and commas, `[`/`]` grouping ignored, `#` and `//` starting a comment to the end
/// of the line; any other token is an error at its line and column.
pub(super) fn from_text(name: &str, text: &str) -> Result<Bytes, String> {
    let listing = text.lines().any(|l| tool_listing(l).is_some());
    let mut out = Bytes {
        bytes: Vec::new(),
        pos: Vec::new(),
        name: name.to_string(),
    };
    for (ln, line) in text.lines().enumerate() {
        let body = if listing {
            match tool_listing(line) {
                Some(b) => b,
                None => continue,
            }
        } else {
            let end = [line.find('#'), line.find("//")]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(line.len());
            &line[..end]
        };
        let offset = body.as_ptr() as usize - line.as_ptr() as usize;
        for (start, tok) in tokens(body) {
            // Columns count characters, as the other readers' errors do.
            let col = line[..offset + start].chars().count() as u32 + 1;
            let p = Pos {
                line: ln as u32 + 1,
                col,
            };
            let n = token_bytes(tok, &mut out.bytes)
                .map_err(|e| format!("{name}:{}:{col}: error: {e}", p.line))?;
            out.pos.extend(std::iter::repeat_n(p, n));
        }
    }
    Ok(out)
}
