//! The YAML shapes the MIR reader relies on, checked over the whole file before it reads the
//! documents (breaker 24's 07). The reader finds keys by their text and ends a `body:` block at
//! the next unindented line, so YAML that llc-22 rejects would otherwise be read as something
//! else: `body:|` as a body, an over-indented block as a body, a file cut off inside
//! `machineFunctionInfo` as a function with no blocks ("the pass changed the CFG").

use super::ErrFn;
use crate::rules::InputError;

/// Where the scan is: in the embedded IR document (skipped), in a function document's keys,
/// or in its `body:` block scalar (with the indentation of its first text line).
enum Part {
    Outside,
    Ir,
    Keys,
    Body(Option<usize>),
}

/// Check `lines`: every key's `:` is followed by a space or the line end; no text line of a
/// `body:` block is less indented than its first; every flow mapping `{` opened in a
/// function's keys is closed before its document ends; every function document has `body:`.
pub(super) fn check(lines: &[&str], err: ErrFn) -> Result<(), InputError> {
    let mut part = Part::Outside;
    let mut has_body = false;
    // The line and end column of the innermost still-open `{` of the keys (llc-22 wraps long
    // flow mappings over lines, so a `{` may close on a later line).
    let mut open: Vec<(usize, usize)> = Vec::new();
    for (n, l) in lines.iter().enumerate() {
        let doc_start = l.starts_with("---");
        if doc_start || l.starts_with("...") {
            if matches!(part, Part::Keys | Part::Body(_)) {
                end_function(&open, has_body, n, err)?;
            }
            open.clear();
            has_body = false;
            part = if !doc_start {
                Part::Outside
            } else if l[3..].trim_start().starts_with('|') {
                Part::Ir
            } else {
                Part::Keys
            };
            continue;
        }
        match part {
            Part::Outside | Part::Ir => continue,
            Part::Body(ref mut first) => {
                if l.trim().is_empty() {
                    continue;
                }
                let indent = l.len() - l.trim_start_matches(' ').len();
                if indent > 0 {
                    match *first {
                        None => *first = Some(indent),
                        Some(f) if indent < f => {
                            return Err(err(
                                n,
                                indent,
                                format!("a text line is less indented than the block scalar (its first line has {f} spaces)"),
                            ))
                        }
                        Some(_) => {}
                    }
                    continue;
                }
                part = Part::Keys;
            }
            Part::Keys => {}
        }
        key_space(l, n, err)?;
        if l.starts_with("body:") {
            has_body = true;
            part = Part::Body(None);
        }
        braces(l, n, &mut open);
    }
    if matches!(part, Part::Keys | Part::Body(_)) {
        end_function(&open, has_body, lines.len().saturating_sub(1), err)?;
    }
    Ok(())
}

/// A block key (`key:` at the start of a line, after its indentation and an optional `- `)
/// must have a space or the line end after its `:`; `body:|` is one plain scalar to YAML
/// (llc-22: "Unexpected token in Key Value"), not the key `body`.
fn key_space(l: &str, n: usize, err: ErrFn) -> Result<(), InputError> {
    let t = l.trim_start_matches(' ');
    let t = t.strip_prefix("- ").unwrap_or(t);
    let start = l.len() - t.len();
    let key_len = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(t.len());
    if key_len == 0 || !t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return Ok(());
    }
    match t[key_len..].strip_prefix(':') {
        Some(after) if !after.is_empty() && !after.starts_with([' ', '\t']) => Err(err(
            n,
            start + key_len + 1,
            format!(
                "the `:` of the key `{}` must be followed by a space (YAML reads `{}` as one scalar)",
                &t[..key_len],
                t.split_whitespace().next().unwrap_or(t)
            ),
        )),
        _ => Ok(()),
    }
}

/// Track flow-mapping braces outside quotes: `open` holds, for each unclosed `{`, its line and
/// the column after that line's text (where llc-22 reports a mapping the file cuts off).
fn braces(l: &str, n: usize, open: &mut Vec<(usize, usize)>) {
    let mut quote: Option<char> = None;
    for c in l.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{') => open.push((n, l.trim_end().len())),
            (None, '}') => {
                open.pop();
            }
            _ => {}
        }
    }
}

/// At the end of a function document (`...`, the next `---` or the file's end, line `n`): an
/// open `{` means the text was cut off; a function without `body:` has no blocks to compare.
fn end_function(
    open: &[(usize, usize)],
    has_body: bool,
    n: usize,
    err: ErrFn,
) -> Result<(), InputError> {
    if let Some(&(line, col)) = open.first() {
        return Err(err(
            line,
            col,
            "a flow mapping `{` is not closed before the document ends (a file cut off?)".into(),
        ));
    }
    if !has_body {
        return Err(err(
            n,
            0,
            "the function document ends without `body:` (a file cut off?)".into(),
        ));
    }
    Ok(())
}
