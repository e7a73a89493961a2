//! The syntactic layer of the assemblers: a line split into mnemonic, comma-separated operands
//! and space-separated modifiers, without interpreting them (so usable for rule files with
//! `%`-variables). Every family's parser ([`crate::asm`], MUBUF, GLOBAL, FLAT, SMEM) starts
//! here; the operand checks they share ([`crate::operand`]) read its result.

use crate::lex::{err, AsmError};

/// A syntactically split assembly line; text is kept raw, columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmSyntax {
    /// The mnemonic as written.
    pub mnemonic: String,
    /// Column of the mnemonic.
    pub mnemonic_col: usize,
    /// Operand texts (trimmed) and their columns, split on top-level commas;
    /// `[...]`, `(...)` and `{...}` groups (e.g. `{%x, %y}`) stay one operand.
    pub operands: Vec<(String, usize)>,
    /// Modifiers after the operands: name, raw value text after `:` (if any), column.
    pub modifiers: Vec<(String, Option<String>, usize)>,
    /// Column just past the last token (where a missing item would go).
    pub end_col: usize,
}

/// Bare words that are modifiers, not operands.
/// (`scale_offset`: gfx1250 GLOBAL, see `global::parse`.)
const FLAGS: &[&str] = &["gds", "clamp", "scale_offset"];

fn is_modifier(tok: &str, flags: &[&str]) -> bool {
    if flags.contains(&tok) {
        return true;
    }
    match tok.find(':') {
        Some(i) if i > 0 => {
            let name = &tok[..i];
            name.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        _ => false,
    }
}

/// Split `line` into mnemonic, operands and modifiers. Text after `;` or `//`
/// (outside brackets and quotes) is a comment.
pub fn parse_syntax(line: &str) -> Result<AsmSyntax, AsmError> {
    parse_syntax_with(line, FLAGS)
}

/// [`parse_syntax`] with another set of bare-word modifiers (MUBUF: `offen`, `glc`, ...).
pub(crate) fn parse_syntax_with(line: &str, flags: &[&str]) -> Result<AsmSyntax, AsmError> {
    let chars: Vec<char> = line.chars().collect();
    let n = chars.len();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < n && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    let at_comment =
        |i: usize| chars[i] == ';' || (chars[i] == '/' && chars.get(i + 1) == Some(&'/'));
    skip_ws(&mut i);
    let mstart = i;
    while i < n && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
        i += 1;
    }
    if i == mstart {
        return err(mstart + 1, "expected a mnemonic");
    }
    let mnemonic: String = chars[mstart..i].iter().collect();
    if i < n && !chars[i].is_whitespace() && !at_comment(i) {
        return err(
            i + 1,
            format!("unexpected `{}` after the mnemonic", chars[i]),
        );
    }
    let mut syn = AsmSyntax {
        mnemonic,
        mnemonic_col: mstart + 1,
        operands: Vec::new(),
        modifiers: Vec::new(),
        end_col: i + 1,
    };

    // Scan one token: up to whitespace or a comma at nesting depth 0.
    let token = |i: &mut usize| -> Result<(String, usize), AsmError> {
        let start = *i;
        let mut stack: Vec<char> = Vec::new();
        let mut in_quote = false;
        while *i < n {
            let c = chars[*i];
            if in_quote {
                in_quote = c != '"';
            } else if c == '"' {
                in_quote = true;
            } else if let Some(close) = match c {
                '(' => Some(')'),
                '[' => Some(']'),
                '{' => Some('}'),
                _ => None,
            } {
                stack.push(close);
            } else if matches!(c, ')' | ']' | '}') {
                if stack.pop() != Some(c) {
                    return err(*i + 1, format!("unbalanced `{c}`"));
                }
            } else if stack.is_empty() && (c.is_whitespace() || c == ',' || at_comment(*i)) {
                break;
            }
            *i += 1;
        }
        if in_quote {
            return err(start + 1, "unterminated string");
        }
        if let Some(close) = stack.last() {
            return err(start + 1, format!("missing `{close}`"));
        }
        Ok((chars[start..*i].iter().collect(), start + 1))
    };

    let mut want_operand = false; // just consumed a comma
    let mut in_modifiers = false;
    loop {
        skip_ws(&mut i);
        if i >= n || at_comment(i) {
            if want_operand {
                return err(i + 1, "expected an operand after `,`");
            }
            break;
        }
        if chars[i] == ',' {
            return err(i + 1, "unexpected `,`");
        }
        let (tok, col) = token(&mut i)?;
        syn.end_col = i + 1;
        if !want_operand && is_modifier(&tok, flags) {
            let (name, value) = match tok.split_once(':') {
                Some((a, b)) => (a.to_string(), Some(b.to_string())),
                None => (tok.clone(), None),
            };
            syn.modifiers.push((name, value, col));
            in_modifiers = true;
            continue;
        }
        if in_modifiers {
            return err(col, format!("unexpected `{tok}` after modifiers"));
        }
        if !want_operand && !syn.operands.is_empty() {
            return err(col, format!("expected `,` or a modifier before `{tok}`"));
        }
        syn.operands.push((tok, col));
        skip_ws(&mut i);
        want_operand = i < n && chars[i] == ',';
        if want_operand {
            i += 1;
        }
    }
    Ok(syn)
}
