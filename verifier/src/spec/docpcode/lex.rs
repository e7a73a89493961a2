//! Tokens of the pseudocode as AMD's guides print it (the document dialect): everything the
//! semantics lexer reads, plus float literals (`1.0F`, `0.0`), compound assignment (`+=`),
//! `++`/`--`, ranges (`0..2`), any `.name` after a value (`TADDR.X`, `M0.base`) and a
//! sentence's closing `.` (`endif.`).

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name: letters, digits and `_`, not starting with a digit.
    Ident(String),
    /// An integer literal.
    Int(IntLit),
    /// A float literal.
    Float(FloatLit),
    /// `N'K`, the start of a sized literal (`32'0U`, K absent) or a cast/type (`32'I(x)`,
    /// `32'B`): width N in bits and the kind letter, if any.
    Sized(u32, Option<char>),
    /// `.name` after a value: a type view (`.u32`) or a field (`.X`, `.base`).
    Dot(String),
    /// An operator or delimiter from [`PUNCTS`].
    Punct(&'static str),
    /// End of input.
    Eof,
}

/// An integer literal as written: the token and the syntax-tree node are the same thing.
#[derive(Clone, Debug, PartialEq)]
pub struct IntLit {
    /// The value.
    pub value: u128,
    /// Written as `0x...`.
    pub hex: bool,
    /// The suffix letters: `U`, `ULL`, `LL` or empty.
    pub suffix: String,
}

impl IntLit {
    /// A decimal literal with the given suffix.
    pub fn dec(value: u128, suffix: &str) -> IntLit {
        IntLit {
            value,
            hex: false,
            suffix: suffix.to_string(),
        }
    }
}

/// A float literal: `1.0F` (`single`, IEEE binary32) or `0.0` (binary64, as in C).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLit {
    /// The value.
    pub value: f64,
    /// Written with an `F` suffix.
    pub single: bool,
}

/// A token, its 1-based line and column.
#[derive(Clone, Debug)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (bytes).
    pub col: u32,
}

gcnsmt_semantics::impl_lexeme!(Token, Tok);

/// Operators and delimiters, longest first so that a prefix never wins.
const PUNCTS: [&str; 46] = [
    "<<=", ">>=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "++", "--", "..", "<<", ">>", "<=",
    ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "~", "!", "?",
    ":", "(", ")", "[", "]", "{", "}", ",", ";", "=", ".", "'", "\"",
];

/// A lexing error: 1-based line and column and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub msg: String,
}

/// Split `src` into tokens (`//` comments dropped).
///
/// Errors: a character outside the notation, with its position.
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut last = 1;
    for (i, line) in src.lines().enumerate() {
        let lineno = i as u32 + 1;
        last = lineno + 1;
        let code = line.find("//").map_or(line, |k| &line[..k]);
        let b = code.as_bytes();
        let mut j = 0;
        while j < b.len() {
            if b[j].is_ascii_whitespace() {
                j += 1;
                continue;
            }
            let (tok, next) = token(code, j).map_err(|msg| LexError {
                line: lineno,
                col: j as u32 + 1,
                msg,
            })?;
            out.push(Token {
                tok,
                line: lineno,
                col: j as u32 + 1,
            });
            j = next;
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        line: last,
        col: 1,
    });
    Ok(out)
}

fn name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The token at byte `j` of `code` and the byte past it.
fn token(code: &str, j: usize) -> Result<(Tok, usize), String> {
    let b = code.as_bytes();
    let c = b[j];
    if c.is_ascii_alphabetic() || c == b'_' {
        let k = end_of_name(b, j);
        return Ok((Tok::Ident(code[j..k].to_string()), k));
    }
    if c.is_ascii_digit() {
        return number(code, j);
    }
    // `.name` directly after a value; `..` and a lone `.` are punctuation.
    if c == b'.' && j + 1 < b.len() && name_byte(b[j + 1]) {
        let k = end_of_name(b, j + 1);
        return Ok((Tok::Dot(code[j + 1..k].to_string()), k));
    }
    match PUNCTS.iter().find(|p| code[j..].starts_with(**p)) {
        Some(p) => Ok((Tok::Punct(p), j + p.len())),
        None => {
            let ch = code[j..].chars().next().unwrap_or('?');
            Err(format!("unexpected character `{ch}`"))
        }
    }
}

fn end_of_name(b: &[u8], mut k: usize) -> usize {
    while k < b.len() && name_byte(b[k]) {
        k += 1;
    }
    k
}

/// A number at byte `j`: `0x` hex or decimal with `_` separators and a `U`/`LL`/`ULL`
/// suffix, a float (`1.5`, `1.0F`), or the `N'` prefix of a sized literal or cast.
fn number(code: &str, j: usize) -> Result<(Tok, usize), String> {
    let b = code.as_bytes();
    let hex = code[j..].starts_with("0x") || code[j..].starts_with("0X");
    let mut k = if hex { j + 2 } else { j };
    while k < b.len() && (b[k].is_ascii_hexdigit() && hex || b[k].is_ascii_digit() || b[k] == b'_')
    {
        k += 1;
    }
    let digits: String = code[j..k].chars().filter(|c| *c != '_').collect();
    // A float: digits, a dot, digits (`0..2` is a range, not a float).
    if !hex && k + 1 < b.len() && b[k] == b'.' && b[k + 1].is_ascii_digit() {
        let mut m = k + 1;
        while m < b.len() && b[m].is_ascii_digit() {
            m += 1;
        }
        let value: f64 = code[j..m]
            .parse()
            .map_err(|_| format!("bad number `{}`", &code[j..m]))?;
        let single = m < b.len() && (b[m] == b'F' || b[m] == b'f');
        return Ok((
            Tok::Float(FloatLit { value, single }),
            m + usize::from(single),
        ));
    }
    let value = if hex {
        u128::from_str_radix(&digits[2..], 16)
    } else {
        digits.parse::<u128>()
    }
    .map_err(|_| format!("bad number `{}`", &code[j..k]))?;
    if !hex && k < b.len() && b[k] == b'\'' {
        if !(1..=1024).contains(&value) {
            return Err(format!("literal width {value} outside 1..1024"));
        }
        let kind = b
            .get(k + 1)
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| *c as char);
        return Ok((
            Tok::Sized(value as u32, kind),
            k + 1 + usize::from(kind.is_some()),
        ));
    }
    let mut m = k;
    while m < b.len() && matches!(b[m], b'U' | b'L') {
        m += 1;
    }
    let suffix = code[k..m].to_string();
    if !matches!(suffix.as_str(), "" | "U" | "LL" | "ULL") || m < b.len() && name_byte(b[m]) {
        return Err(format!("bad number `{}`", &code[j..=m.min(b.len() - 1)]));
    }
    Ok((Tok::Int(IntLit { value, hex, suffix }), m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn floats_ranges_and_fields() {
        assert_eq!(
            toks("1.0F 0.0 0..2 TADDR.X x += 1U"),
            vec![
                Tok::Float(FloatLit {
                    value: 1.0,
                    single: true
                }),
                Tok::Float(FloatLit {
                    value: 0.0,
                    single: false
                }),
                Tok::Int(IntLit::dec(0, "")),
                Tok::Punct(".."),
                Tok::Int(IntLit::dec(2, "")),
                Tok::Ident("TADDR".into()),
                Tok::Dot("X".into()),
                Tok::Ident("x".into()),
                Tok::Punct("+="),
                Tok::Int(IntLit::dec(1, "U")),
                Tok::Eof,
            ]
        );
    }

    #[test]
    fn sized_forms() {
        assert_eq!(
            toks("32'I( 1'0U 32'B;")[..4],
            [
                Tok::Sized(32, Some('I')),
                Tok::Punct("("),
                Tok::Sized(1, None),
                Tok::Int(IntLit::dec(0, "U")),
            ]
        );
    }

    #[test]
    fn a_letter_glued_to_a_number_is_an_error() {
        let e = lex("x = 1d").unwrap_err();
        assert_eq!((e.line, e.col), (1, 5));
    }
}
