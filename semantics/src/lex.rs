//! Tokens of the pseudocode notation, with 1-based line and column.

use crate::ir::{LitSuffix, Pos};
use crate::ParseError;

/// One token of the pseudocode notation.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name: letters, digits and `_`, not starting with a digit; `%name` for rule variables.
    Ident(String),
    /// An integer literal, `_` separators removed, with its suffix (see [`crate::ir::Expr::Lit`]).
    Num {
        /// The value.
        value: u128,
        /// `U`, `ULL`, `LL` or none.
        suffix: LitSuffix,
        /// Written as `0x...`.
        hex: bool,
    },
    /// `32'` prefix of a sized literal.
    SizePrefix(u32),
    /// `.u32` and friends (the text after the dot).
    Suffix(String),
    /// An operator or delimiter, one of the lexer's fixed list (`<<`, `&&`, `(`, `;`, ...).
    Punct(&'static str),
    /// End of input (always the last token).
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Position of its first character.
    pub pos: Pos,
}

crate::impl_lexeme!(Token, Tok);

/// Operators and delimiters, each two-character one before its one-character prefix.
const PUNCTS: [&str; 31] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|",
    "^", "~", "!", "?", ":", "(", ")", "[", "]", "{", "}", ",", ";", "=",
];

/// Split `src` into tokens; `line0` is the line number of the first line of `src`.
///
/// Errors: an unexpected character or a malformed number, with its position.
pub fn lex(src: &str, line0: u32) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let lineno = line0 + i as u32;
        let code = match line.find("//") {
            Some(k) => &line[..k],
            None => line,
        };
        let mut j = 0;
        while j < code.len() {
            if (code.as_bytes()[j] as char).is_whitespace() {
                j += 1;
                continue;
            }
            let pos = Pos {
                line: lineno,
                col: j as u32 + 1,
            };
            let (tok, next) = token(code, j, pos)?;
            out.push(Token { tok, pos });
            j = next;
        }
    }
    let last = Pos {
        line: line0 + src.lines().count() as u32,
        col: 1,
    };
    out.push(Token {
        tok: Tok::Eof,
        pos: last,
    });
    Ok(out)
}

/// Whether byte `c` may continue a name.
fn name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The token that starts at byte `j` of `code` (at `pos`; not white space), and the byte
/// just past it.
fn token(code: &str, j: usize, pos: Pos) -> Result<(Tok, usize), ParseError> {
    let b = code.as_bytes();
    let c = b[j] as char;
    let var = c == '%' && j + 1 < b.len() && (b[j + 1].is_ascii_alphabetic() || b[j + 1] == b'_');
    if c.is_ascii_alphabetic() || c == '_' || var {
        // `%name` is a rule variable (rule files reuse this lexer for preconditions).
        let mut k = j + usize::from(var);
        while k < b.len() && name_byte(b[k]) {
            k += 1;
        }
        return Ok((Tok::Ident(code[j..k].to_string()), k));
    }
    if c.is_ascii_digit() {
        return number(code, j, pos);
    }
    if c == '.' {
        let mut k = j + 1;
        while k < b.len() && b[k].is_ascii_alphanumeric() {
            k += 1;
        }
        if k == j + 1 {
            return Err(ParseError::at(pos, "expected a type suffix after `.`"));
        }
        return Ok((Tok::Suffix(code[j + 1..k].to_string()), k));
    }
    match PUNCTS.iter().find(|p| code[j..].starts_with(**p)) {
        Some(p) => Ok((Tok::Punct(p), j + p.len())),
        None => {
            let ch = code[j..].chars().next().unwrap_or(c);
            Err(ParseError::at(pos, format!("unexpected character `{ch}`")))
        }
    }
}

/// The number literal at byte `j` of `code` (decimal or `0x` hex, `_` separators, a
/// `U`/`LL`/`ULL` suffix) or the width prefix `N'` of a sized literal, and the byte past it.
fn number(code: &str, j: usize, pos: Pos) -> Result<(Tok, usize), ParseError> {
    let b = code.as_bytes();
    let s = j;
    let mut j = j;
    let hex = code[j..].starts_with("0x") || code[j..].starts_with("0X");
    if hex {
        j += 2;
        while j < b.len() && (b[j].is_ascii_hexdigit() || b[j] == b'_') {
            j += 1;
        }
    } else {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    let digits: String = code[s..j].chars().filter(|c| *c != '_').collect();
    let value = if hex {
        u128::from_str_radix(&digits[2..], 16)
    } else {
        digits.parse::<u128>()
    }
    .map_err(|_| ParseError::at(pos, format!("bad number `{}`", &code[s..j])))?;
    // A sized literal: 32'5 or 16'0xff.
    if j < b.len() && b[j] == b'\'' && !hex {
        let w = value as u32;
        if !(1..=128).contains(&w) {
            return Err(ParseError::at(
                pos,
                format!("literal width {w} outside 1..128"),
            ));
        }
        return Ok((Tok::SizePrefix(w), j + 1));
    }
    let rest = &code[j..];
    let (suffix, n) = if rest.starts_with("ULL") {
        (LitSuffix::Ull, 3)
    } else if rest.starts_with("LL") {
        (LitSuffix::Ll, 2)
    } else if rest.starts_with('U') {
        (LitSuffix::U, 1)
    } else {
        (LitSuffix::None, 0)
    };
    j += n;
    if j < b.len() && name_byte(b[j]) {
        return Err(ParseError::at(
            pos,
            format!("bad number `{}`", &code[s..=j]),
        ));
    }
    Ok((Tok::Num { value, suffix, hex }, j))
}
