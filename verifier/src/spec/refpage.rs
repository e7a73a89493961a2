//! Reader for per-instruction reference pages, in the renderings doc writers use: Markdown
//! (`# MNEMONIC`, `##` sections, tables, fenced blocks) or plain text (a title line starting
//! with the mnemonic, section words on lines of their own with the body below, indented or
//! not). A section heading is a known section word written as a Markdown heading
//! (`## Opcode`), alone on its line (`Opcode`, `Opcode:`, `**Opcode**`, underlined with
//! `---`/`===`), or with its value on the same line (`Opcode: 33`, `**Architecture:** CDNA 3`;
//! `Opcode 33` for the one-value sections). This module recognises headings and plain-text
//! layout rows; [`super::refpage_md`] reads the sections into an [`super::Entry`].
//!
//! What is not a recognised heading is body text; a section word inside a fenced block is
//! code. A layout row is read only when its name and its bit range are both certain.

use super::{Doc, SpecError};

/// Read a reference page in any of the renderings above.
///
/// Errors: an empty page, or a title line that does not start with a mnemonic.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    super::refpage_md::read(file, text)
}

/// The canonical name of a section word (case-insensitive), or `None`.
fn canonical(word: &str) -> Option<&'static str> {
    let w = word.trim().to_ascii_lowercase();
    Some(match w.as_str() {
        "binary layout"
        | "layout"
        | "encoding"
        | "field layout"
        | "instruction encoding"
        | "bit layout"
        | "fields"
        | "encoding fields" => "Binary Layout",
        "generation" | "generations" | "architecture" | "target" | "isa" | "guide" => "Generation",
        "format" | "encoding format" => "Format",
        "opcode" => "Opcode",
        "identifier" => "Identifier",
        "width" => "Width",
        "availability" => "Availability",
        "operands" => "Operands",
        "description" => "Description",
        "semantics" | "pseudocode" | "operation" => "Semantics",
        "syntax" | "assembler syntax" => "Syntax",
        "example" | "examples" => "Example",
        "notes" | "note" => "Notes",
        _ => return None,
    })
}

/// Sections whose value fits on the heading's own line without a colon (`Opcode 33`).
const ONE_VALUE: &[&str] = &["Format", "Opcode", "Identifier", "Width"];

/// A recognised heading on one line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Heading {
    /// The canonical section name.
    pub name: &'static str,
    /// The value written on the heading's own line (`Opcode: 33`), if any.
    pub inline: Option<String>,
    /// A parenthesised qualifier after the word (`Binary Layout (CDNA 2)`), if any.
    pub qualifier: Option<String>,
}

/// Strip Markdown emphasis around a heading word: `**X**`, `__X__`, `*X*`.
fn unemph(s: &str) -> &str {
    let s = s.trim();
    for m in ["**", "__", "*", "_"] {
        if let Some(i) = s.strip_prefix(m).and_then(|x| x.strip_suffix(m)) {
            return i.trim();
        }
    }
    s
}

/// The heading `raw` is, given the line after it (for setext underlines). A heading is never
/// indented (an indented line is a section's body), unless it is a Markdown `#` heading.
pub(crate) fn heading(raw: &str, next: Option<&str>) -> Option<Heading> {
    if raw.starts_with(char::is_whitespace) || raw.trim().is_empty() {
        return None;
    }
    let t = raw.trim();
    let atx = t.starts_with('#');
    let t = t.trim_start_matches('#').trim();
    let whole = unemph(t.trim_end_matches(':')).trim_end_matches(':');
    if let Some(name) = canonical(whole) {
        return Some(Heading {
            name,
            inline: None,
            qualifier: None,
        });
    }
    // `Binary Layout (CDNA 2)`: the word and a parenthesised qualifier.
    if let Some((w, q)) = whole.split_once('(') {
        if let (Some(name), Some(q)) = (canonical(w), q.strip_suffix(')')) {
            return Some(Heading {
                name,
                inline: None,
                qualifier: Some(q.trim().to_string()),
            });
        }
    }
    // `Key: value`, `**Key:** value`, `**Key**: value`.
    let inline = |k: &str, v: &str| -> Option<Heading> {
        let name = canonical(unemph(k).trim_end_matches(':'))?;
        let v = v.trim();
        (!v.is_empty()).then(|| Heading {
            name,
            inline: Some(v.to_string()),
            qualifier: None,
        })
    };
    if let Some(rest) = t.strip_prefix("**") {
        if let Some((k, v)) = rest.split_once("**") {
            let v = v.trim_start_matches(':');
            if let Some(h) = inline(k, v) {
                return Some(h);
            }
        }
    }
    if let Some((k, v)) = t.split_once(':') {
        if !k.contains('*') {
            if let Some(h) = inline(k, v) {
                return Some(h);
            }
        }
    }
    // `Opcode 33`, `Format DS`, `Width 64 bits`: a one-value section and a short value that
    // starts with a number or an upper-case word.
    if !atx {
        if let Some((k, v)) = t.split_once(char::is_whitespace) {
            let v = v.trim();
            let first = v.split_whitespace().next().unwrap_or("");
            let shaped = first.starts_with(|c: char| c.is_ascii_digit())
                || first
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if let Some(name) = canonical(k).filter(|n| ONE_VALUE.contains(n)) {
                if shaped && !first.is_empty() && v.split_whitespace().count() <= 3 {
                    return Some(Heading {
                        name,
                        inline: Some(v.to_string()),
                        qualifier: None,
                    });
                }
            }
        }
    }
    // A setext heading: the word underlined.
    let under = next.map(str::trim).is_some_and(|n| {
        n.len() >= 3 && (n.chars().all(|c| c == '=') || n.chars().all(|c| c == '-'))
    });
    if under {
        return canonical(whole).map(|name| Heading {
            name,
            inline: None,
            qualifier: None,
        });
    }
    None
}

/// One section: its heading's line, the heading, and the body's line range (after the
/// heading, up to the next heading).
pub(crate) struct Section {
    pub line: usize,
    pub head: Heading,
    pub body: std::ops::Range<usize>,
}

/// The sections of a page after its title line `first`. Lines inside fenced blocks are never
/// headings; a setext underline belongs to its heading.
pub(crate) fn sections(lines: &[&str], first: usize) -> Vec<Section> {
    let mut heads: Vec<(usize, Heading, usize)> = Vec::new();
    let mut fenced = false;
    let mut i = first + 1;
    while i < lines.len() {
        let l = lines[i];
        if l.trim().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            if let Some(h) = heading(l, lines.get(i + 1).copied()) {
                let underlined = h.inline.is_none()
                    && lines.get(i + 1).is_some_and(|n| {
                        let n = n.trim();
                        n.len() >= 3 && (n.chars().all(|c| c == '=') || n.chars().all(|c| c == '-'))
                    });
                let start = i + 1 + usize::from(underlined);
                heads.push((i, h, start));
                i = start;
                continue;
            }
        }
        i += 1;
    }
    let ends: Vec<usize> = heads
        .iter()
        .skip(1)
        .map(|h| h.0)
        .chain([lines.len()])
        .collect();
    heads
        .into_iter()
        .zip(ends)
        .map(|((line, head, start), end)| Section {
            line,
            head,
            body: start.min(end)..end,
        })
        .collect()
}

/// A bit range as writers give it: `[7:0]`, `7:0`, `[17]`, `bits 7-0`, `bits 0..7`, `bit 17`
/// (`hi:lo` in that order; a hyphen or `..` range is the set of bits between its ends). A bare
/// number is a range only when `bare` (a line of its own, or in brackets).
pub(crate) fn range(s: &str, bare: bool) -> Option<(u32, u32)> {
    let s = s.trim().trim_end_matches(':');
    let (s, bare) = if let Some(r) = s.strip_prefix("bits ").or(s.strip_prefix("Bits ")) {
        (r.trim(), true)
    } else if let Some(r) = s.strip_prefix("bit ").or(s.strip_prefix("Bit ")) {
        (r.trim(), true)
    } else if let Some(r) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        (r.trim(), true)
    } else {
        (s, bare)
    };
    let num = |x: &str| x.trim().parse::<u32>().ok();
    let (hi, lo) = if let Some((h, l)) = s.split_once(':') {
        (num(h)?, num(l)?)
    } else if let Some((a, b)) = s.split_once("..").or(s.split_once('-')) {
        let (a, b) = (num(a)?, num(b)?);
        (a.max(b), a.min(b))
    } else if bare {
        let b = num(s)?;
        (b, b)
    } else {
        return None;
    };
    (hi >= lo && hi <= 127).then_some((hi, lo))
}

fn field_name(s: &str) -> bool {
    let s = s.trim_matches('`');
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// A plain-text layout row: `NAME RANGE rest` or `RANGE NAME rest` (`OFFSET0 [7:0] offset 0`,
/// `bits 31-26: ENCODING 0x36`), as (name, hi, lo, rest). Bullets are dropped. A row whose
/// name is not an upper-case field name, or whose range is not one of [`range`]'s forms, is
/// not read.
pub(crate) fn plain_row(line: &str) -> Option<(String, u32, u32, String)> {
    let t = line
        .trim()
        .trim_start_matches(['-', '*', '\u{2022}'])
        .trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    // The range may be one token (`[7:0]`, `7:0`) or two (`bits 7-0`).
    let take_range = |at: usize| -> Option<((u32, u32), usize)> {
        let w = words.get(at)?;
        if matches!(*w, "bits" | "Bits" | "bit" | "Bit") {
            let r = range(&format!("bits {}", words.get(at + 1)?), true)?;
            return Some((r, 2));
        }
        range(w, false).map(|r| (r, 1))
    };
    let rest = |from: usize| words.get(from..).map(|w| w.join(" ")).unwrap_or_default();
    let first = words.first()?.trim_end_matches(':');
    if field_name(first) {
        let ((hi, lo), n) = take_range(1)?;
        return Some((first.trim_matches('`').to_string(), hi, lo, rest(1 + n)));
    }
    let ((hi, lo), n) = take_range(0)?;
    let name = words.get(n)?.trim_end_matches(':');
    field_name(name).then(|| (name.trim_matches('`').to_string(), hi, lo, rest(n + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_in_their_forms() {
        for (l, name, inline) in [
            ("## Opcode", "Opcode", None),
            ("Opcode", "Opcode", None),
            ("Opcode:", "Opcode", None),
            ("**Opcode**", "Opcode", None),
            ("Opcode: 33 (0x21)", "Opcode", Some("33 (0x21)")),
            ("Opcode 120", "Opcode", Some("120")),
            ("Format DS", "Format", Some("DS")),
            (
                "**Architecture:** CDNA2 (gfx90a)",
                "Generation",
                Some("CDNA2 (gfx90a)"),
            ),
            ("Generation", "Generation", None),
            ("Semantics", "Semantics", None),
        ] {
            let h = heading(l, None).unwrap_or_else(|| panic!("{l}"));
            assert_eq!((h.name, h.inline.as_deref()), (name, inline), "{l}");
        }
        let h = heading("Binary Layout (AMD CDNA 2)", None).expect("layout");
        assert_eq!(h.qualifier.as_deref(), Some("AMD CDNA 2"));
        // Body text, indented lines and sentences are not headings.
        for l in [
            "  Opcode",
            "Opcode field selects the operation of the instruction",
            "Description of the layout",
            "The operation is atomic.",
        ] {
            assert_eq!(heading(l, None), None, "{l}");
        }
        assert!(heading("Semantics", Some("---------")).is_some());
    }

    #[test]
    fn bit_ranges_in_their_forms() {
        assert_eq!(range("[7:0]", false), Some((7, 0)));
        assert_eq!(range("7:0", false), Some((7, 0)));
        assert_eq!(range("[17]", false), Some((17, 17)));
        assert_eq!(range("17", false), None);
        assert_eq!(range("bits 7-0", false), Some((7, 0)));
        assert_eq!(range("0-7", false), Some((7, 0)));
        assert_eq!(range("0:7", false), None);
        let r = plain_row("  OFFSET0     [7:0]     offset 0").expect("row");
        assert_eq!(r, ("OFFSET0".into(), 7, 0, "offset 0".into()));
        let r = plain_row("bits 31-26: ENCODING 0x36").expect("row");
        assert_eq!((r.0.as_str(), r.1, r.2), ("ENCODING", 31, 26));
        assert_eq!(plain_row("Encoding DS, 64 bits"), None);
        assert_eq!(plain_row("OFFSET 12 bits"), None);
    }
}
