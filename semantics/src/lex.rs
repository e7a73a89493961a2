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

const PUNCTS: [&str; 30] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|",
    "^", "~", "!", "?", ":", "(", ")", "[", "]", "{", "}", ",", ";",
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
        let b = code.as_bytes();
        let mut j = 0;
        while j < b.len() {
            let c = b[j] as char;
            let pos = Pos {
                line: lineno,
                col: j as u32 + 1,
            };
            if c.is_whitespace() {
                j += 1;
                continue;
            }
            let var = c == '%'
                && j + 1 < b.len()
                && ((b[j + 1] as char).is_ascii_alphabetic() || b[j + 1] == b'_');
            if c.is_ascii_alphabetic() || c == '_' || var {
                // `%name` is a rule variable (rule files reuse this lexer for preconditions).
                let s = j;
                if var {
                    j += 1;
                }
                while j < b.len() && ((b[j] as char).is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(code[s..j].to_string()),
                    pos,
                });
                continue;
            }
            if c.is_ascii_digit() {
                let s = j;
                let hex = code[j..].starts_with("0x") || code[j..].starts_with("0X");
                if hex {
                    j += 2;
                    while j < b.len() && ((b[j] as char).is_ascii_hexdigit() || b[j] == b'_') {
                        j += 1;
                    }
                } else {
                    while j < b.len() && (b[j] as char).is_ascii_digit() {
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
                    j += 1;
                    let w = value as u32;
                    if !(1..=128).contains(&w) {
                        return Err(ParseError::at(
                            pos,
                            format!("literal width {w} outside 1..128"),
                        ));
                    }
                    out.push(Token {
                        tok: Tok::SizePrefix(w),
                        pos,
                    });
                    continue;
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
                if j < b.len() && ((b[j] as char).is_ascii_alphanumeric() || b[j] == b'_') {
                    return Err(ParseError::at(
                        pos,
                        format!("bad number `{}`", &code[s..=j]),
                    ));
                }
                out.push(Token {
                    tok: Tok::Num { value, suffix, hex },
                    pos,
                });
                continue;
            }
            if c == '.' {
                let s = j + 1;
                j += 1;
                while j < b.len() && (b[j] as char).is_ascii_alphanumeric() {
                    j += 1;
                }
                if j == s {
                    return Err(ParseError::at(pos, "expected a type suffix after `.`"));
                }
                out.push(Token {
                    tok: Tok::Suffix(code[s..j].to_string()),
                    pos,
                });
                continue;
            }
            if c == '=' {
                if code[j..].starts_with("==") {
                    out.push(Token {
                        tok: Tok::Punct("=="),
                        pos,
                    });
                    j += 2;
                } else {
                    out.push(Token {
                        tok: Tok::Punct("="),
                        pos,
                    });
                    j += 1;
                }
                continue;
            }
            match PUNCTS.iter().find(|p| code[j..].starts_with(**p)) {
                Some(p) => {
                    out.push(Token {
                        tok: Tok::Punct(p),
                        pos,
                    });
                    j += p.len();
                }
                None => {
                    let ch = code[j..].chars().next().unwrap_or(c);
                    return Err(ParseError::at(pos, format!("unexpected character `{ch}`")));
                }
            }
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
