//! Reader for per-instruction reference pages: a title line starting with the mnemonic,
//! "Also written as X.", "Binary Layout (GENERATION)" followed by field-name / bit-range line
//! pairs (a field drawn as a bit string is a constant), `Format`, `Width`, `Opcode`,
//! `Identifier`, an `Operands` list (`• NAME` bullets), and the sections `Syntax`,
//! `Description`, `Semantics` (AMD pseudocode) and `Example`, each a heading line followed
//! by its text.

use super::{gen_target, Doc, Entry, Field, Format, Located, Notation, Pcode, SpecError};

fn bits(s: &str) -> Option<(u32, u32)> {
    let s = s.trim();
    match s.split_once(':') {
        Some((h, l)) => Some((h.trim().parse().ok()?, l.trim().parse().ok()?)),
        None => {
            let b: u32 = s.parse().ok()?;
            Some((b, b))
        }
    }
}

/// The section headings of a page, which end a paragraph.
const HEADINGS: &[&str] = &[
    "Description",
    "Semantics",
    "Example",
    "Syntax",
    "Operands",
    "Encoding",
    "Notes",
];

fn next_text(lines: &[&str], from: usize) -> Option<(usize, String)> {
    (from..lines.len()).find_map(|j| {
        let t = lines[j].trim();
        (!t.is_empty()).then(|| (j, t.to_string()))
    })
}

/// Read a reference page.
///
/// Errors: an empty page, or a title line that does not start with a mnemonic.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    let lines: Vec<&str> = text.lines().collect();
    let Some((first, title)) = next_text(&lines, 0) else {
        return Err(SpecError::new(file, 1, 1, "empty page"));
    };
    let name = title.split_whitespace().next().unwrap_or("").to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(SpecError::new(
            file,
            first as u32 + 1,
            1,
            "the title line does not start with a mnemonic",
        ));
    }
    let mut e = Entry {
        name,
        line: first as u32 + 1,
        ..Entry::default()
    };
    let mut i = first + 1;
    while i < lines.len() {
        let l = lines[i].trim();
        let line = i as u32 + 1;
        if let Some(rest) = l.strip_prefix("Also written as ") {
            let a: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !a.is_empty() {
                e.aliases.push(Located { value: a, line });
            }
        } else if let Some(rest) = l.strip_prefix("Binary Layout") {
            let g = rest.trim().trim_start_matches('(').trim_end_matches(')');
            if let Some(t) = gen_target(g) {
                e.gens = vec![t];
            }
            let mut j = i + 1;
            while j + 1 < lines.len() {
                let n = lines[j].trim();
                let Some((hi, lo)) = bits(lines[j + 1]) else {
                    break;
                };
                if n.is_empty() || hi < lo || hi > 127 {
                    break;
                }
                let constant = if n.chars().all(|c| c == '0' || c == '1') {
                    u64::from_str_radix(n, 2).ok()
                } else {
                    None
                };
                e.layout.push(Field {
                    name: n.to_string(),
                    hi,
                    lo,
                    constant,
                    gens: e.gens.clone(),
                    line: j as u32 + 1,
                });
                j += 2;
            }
            i = j;
            continue;
        } else if let Some(rest) = l.strip_prefix("Format ") {
            e.format = Some(Located {
                value: rest.trim().to_string(),
                line,
            });
        } else if let Some(rest) = l.strip_prefix("Opcode ") {
            if let Ok(v) = rest.trim().parse() {
                e.opcode = Some(Located { value: v, line });
            }
        } else if let Some(rest) = l.strip_prefix("Identifier ") {
            let h = rest.trim().trim_start_matches("0x");
            if let Ok(v) = u64::from_str_radix(h, 16) {
                e.identifier = Some(Located { value: v, line });
            }
        } else if l == "Operands" {
            // Bullets up to the next line that is neither a bullet nor its indented text.
            let mut j = i + 1;
            while j < lines.len() {
                let raw = lines[j];
                let t = raw.trim();
                if let Some(b) = t.strip_prefix('\u{2022}').or_else(|| t.strip_prefix("* ")) {
                    let n = b.trim();
                    if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        e.operands.push(Located {
                            value: n.to_string(),
                            line: j as u32 + 1,
                        });
                    }
                } else if !(t.is_empty() || raw.starts_with(' ')) {
                    break;
                }
                j += 1;
            }
            i = j;
            continue;
        } else if l == "Description" || l == "Semantics" || l == "Example" || l == "Syntax" {
            if let Some((j, mut t)) = next_text(&lines, i + 1) {
                // A description is its whole paragraph: a later line read alone, or left
                // out, can change what the first one says.
                let mut last = j;
                if l == "Description" {
                    while let Some(next) = lines.get(last + 1).map(|x| x.trim()) {
                        if next.is_empty() || HEADINGS.contains(&next) {
                            break;
                        }
                        t.push('\n');
                        t.push_str(next);
                        last += 1;
                    }
                }
                let loc = Located {
                    value: t.clone(),
                    line: j as u32 + 1,
                };
                match l {
                    "Description" => e.description = Some(loc),
                    "Syntax" => e.syntax = Some(loc),
                    "Semantics" => {
                        e.pcode = Some(Pcode {
                            text: t,
                            line: j as u32 + 1,
                            notation: Notation::Amd,
                        })
                    }
                    _ => e.example = Some(loc),
                }
                i = last + 1;
                continue;
            }
        }
        i += 1;
    }
    Ok(Doc::new(file, Format::RefPage, e.gens.clone(), vec![e]))
}
