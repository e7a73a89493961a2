//! Reader for reference pages rendered as Markdown: `# MNEMONIC` title, a subtitle line naming
//! the guide (`AMD Instinct MI300 (CDNA 3) ...`, `"Vega" ... (GFX9)`, `RDNA 4 ...`), `##`
//! sections (`Binary Layout` as a `Field | Bits` table in either column order, `Format`,
//! `Opcode`, `Identifier`, `Availability`, `Description`, `Operands` as a table or bullets,
//! `Syntax`, `Semantics` and `Example` in fenced blocks) or a `| Format | DS |` key/value
//! table. It fills the same [`Entry`] as the plain-text reader ([`super::refpage`]), so every
//! check reads both renderings alike.
//!
//! What the reader cannot read with certainty is left out (and so unchecked): a bit range
//! that is not `HI:LO` or one bit, an opcode whose decimal and hexadecimal forms disagree, an
//! availability sentence that names anything but generations.

use super::{gen_target, Doc, Entry, Field, Format, Located, Notation, Pcode, SpecError};
use gcnsmt_semantics::target::Target;

/// Whether `text` is a Markdown reference page: its first line is `# MNEMONIC`.
pub fn is_markdown_page(text: &str) -> bool {
    let Some(first) = text.lines().find(|l| !l.trim().is_empty()) else {
        return false;
    };
    first
        .strip_prefix("# ")
        .is_some_and(|n| mnemonic(n.trim()) && n.contains('_'))
}

fn mnemonic(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The generation a subtitle names: the first `(NAME)` or plain generation name
/// [`gen_target`] knows (`CDNA 3`, `RDNA 4`, `GFX9`, `Vega`).
fn subtitle_gen(line: &str) -> Option<Target> {
    for part in line.split(['(', ')']) {
        if let Some(t) = gen_name(part.trim()) {
            return Some(t);
        }
    }
    const NAMES: &[&str] = &[
        "RDNA 3.5", "RDNA 4", "RDNA 3", "RDNA 2", "RDNA 1", "CDNA 4", "CDNA 3", "CDNA 2", "CDNA 1",
        "GCN 1.4", "GCN 1.2", "GCN 1.1", "GCN 1.0",
    ];
    NAMES
        .iter()
        .find(|n| line.contains(*n))
        .and_then(|n| gen_name(n))
        .or_else(|| {
            // One-word names: `"RDNA3"`, `CDNA4`, `GFX9`.
            line.split(|c: char| c.is_whitespace() || "\"',;".contains(c))
                .find_map(|w| gen_name(w).filter(|_| w.len() >= 4))
        })
}

/// A generation name or an LLVM-style `GFXn` family name.
fn gen_name(s: &str) -> Option<Target> {
    let s = s.trim().trim_matches('"');
    // `RDNA3`, `CDNA2`: the guides' names without the space.
    let spaced;
    let s = match s.find(|c: char| c.is_ascii_digit()) {
        Some(i) if (s.starts_with("RDNA") || s.starts_with("CDNA")) && i == 4 => {
            spaced = format!("{} {}", &s[..4], &s[4..]);
            spaced.as_str()
        }
        _ => s,
    };
    let family = match s.to_ascii_uppercase().as_str() {
        "GFX6" => Some(Target::Gfx600),
        "GFX7" => Some(Target::Gfx700),
        "GFX8" => Some(Target::Gfx802),
        "GFX9" => Some(Target::Gfx900),
        "GFX10" => Some(Target::Gfx1010),
        "GFX11" => Some(Target::Gfx1100),
        "GFX12" => Some(Target::Gfx1200),
        _ => None,
    };
    family.or_else(|| {
        if s.chars().any(|c| c.is_ascii_digit()) || s == "Vega" || s == "CDNA" || s == "RDNA" {
            gen_target(s)
        } else {
            None
        }
    })
}

/// The cells of a table row `| a | b |`, trimmed; `None` for a line that is not a row or is
/// the `|---|---|` separator.
fn cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    let c: Vec<String> = inner.split('|').map(|x| x.trim().to_string()).collect();
    if c.iter().all(|x| x.chars().all(|ch| ch == '-' || ch == ':')) {
        return None;
    }
    Some(c)
}

fn bits(s: &str) -> Option<(u32, u32)> {
    let s = s.split_whitespace().next()?;
    match s.split_once(':') {
        Some((h, l)) => Some((h.parse().ok()?, l.parse().ok()?)),
        None => s.parse().ok().map(|b| (b, b)),
    }
}

/// The constant a cell writes for a field of `width` bits: one token that is a bit string of
/// exactly that width (`110110`, `Must be 110110`, `31:26 (111000)`, `ENCODING = 110110`),
/// or, for the encoding field itself, a hexadecimal value (`0x36`). Short fields are never
/// read from prose (`1 = GDS` says what a value means, not that the field is fixed); two
/// candidates are no reading.
fn constant(cell: &str, width: u32, encoding: bool) -> Option<u64> {
    let mut found = None;
    for w in cell.split(|c: char| c.is_whitespace() || "()=,.:;".contains(c)) {
        let v = if w.len() == width as usize && w.chars().all(|ch| ch == '0' || ch == '1') {
            u64::from_str_radix(w, 2).ok()
        } else if encoding {
            w.strip_prefix("0x")
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .filter(|v| *v < 1 << width)
        } else {
            None
        };
        if let Some(v) = v {
            if found.is_some_and(|f| f != v) {
                return None;
            }
            found = Some(v);
        }
    }
    found
}

/// A number written `33 (0x21)`, `0x21` or `33`; `None` when the two forms disagree.
fn number(s: &str) -> Option<u32> {
    let mut vals = s
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .map_while(|w| match w.strip_prefix("0x").or(w.strip_prefix("0X")) {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => w.parse::<u32>().ok(),
        });
    let first = vals.next()?;
    vals.all(|v| v == first).then_some(first)
}

/// One `##` section: its heading, its first line index and the line after it.
struct Section<'a> {
    name: &'a str,
    body: std::ops::Range<usize>,
}

fn sections<'a>(lines: &[&'a str]) -> Vec<Section<'a>> {
    let heads: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.trim().strip_prefix("## ").map(|h| (i, h.trim())))
        .collect();
    heads
        .iter()
        .enumerate()
        .map(|(k, &(i, name))| Section {
            name,
            body: i + 1..heads.get(k + 1).map_or(lines.len(), |h| h.0),
        })
        .collect()
}

/// The non-empty, non-fence lines of a section with their indices; inside a fenced block
/// only the block's lines when `fenced`.
fn text_lines(lines: &[&str], r: std::ops::Range<usize>, fenced: bool) -> Vec<(usize, String)> {
    let mut inside = false;
    let mut out = Vec::new();
    for i in r {
        let t = lines[i].trim();
        if t.starts_with("```") {
            inside = !inside;
            continue;
        }
        if t.is_empty() || (fenced && !inside) {
            continue;
        }
        out.push((i, t.to_string()));
    }
    out
}

/// Read a Markdown reference page.
///
/// Errors: a first line that is not `# MNEMONIC`.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().position(|l| !l.trim().is_empty()) else {
        return Err(SpecError::new(file, 1, 1, "empty page"));
    };
    let name = lines[first].trim().trim_start_matches('#').trim();
    if !mnemonic(name) {
        return Err(SpecError::new(
            file,
            first as u32 + 1,
            1,
            "the title line is not `# MNEMONIC`",
        ));
    }
    let mut e = Entry {
        name: name.to_string(),
        line: first as u32 + 1,
        ..Entry::default()
    };
    // The subtitle: the first text line before the first section.
    let first_section = lines
        .iter()
        .position(|l| l.trim().starts_with("## "))
        .unwrap_or(lines.len());
    if let Some(g) = lines[first + 1..first_section]
        .iter()
        .find(|l| !l.trim().is_empty() && cells(l).is_none())
        .and_then(|l| subtitle_gen(l))
    {
        e.gens = vec![g];
    }
    for (i, l) in lines.iter().enumerate().take(first_section).skip(first + 1) {
        if let Some(c) = cells(l) {
            key_value(&mut e, &c, i as u32 + 1);
        }
    }
    for s in sections(&lines) {
        section(&mut e, &lines, &s);
    }
    // A table draws the opcode field by name only; the page's Identifier is the encoding
    // with that field holding the page's Opcode (the plain-text rendering draws it as bits).
    if let Some(op) = &e.opcode {
        for f in e.layout.iter_mut() {
            let width = f.hi - f.lo + 1;
            if matches!(f.name.as_str(), "OP" | "OPCODE") && f.constant.is_none() && width < 32 {
                f.constant = (u64::from(op.value) < 1 << width).then_some(u64::from(op.value));
            }
        }
    }
    Ok(Doc::new(file, Format::RefPage, e.gens.clone(), vec![e]))
}

/// A `| Format | DS |` row, or a section's one-line value.
fn key_value(e: &mut Entry, c: &[String], line: u32) {
    let (Some(k), Some(v)) = (c.first(), c.get(1)) else {
        return;
    };
    match k.as_str() {
        "Format" => {
            e.format = Some(Located {
                value: v.clone(),
                line,
            })
        }
        "Opcode" => e.opcode = number(v).map(|value| Located { value, line }),
        "Identifier" => {
            let h = v.split_whitespace().next().unwrap_or("");
            e.identifier = h
                .strip_prefix("0x")
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .map(|value| Located { value, line });
        }
        _ => {}
    }
}

fn section(e: &mut Entry, lines: &[&str], s: &Section) {
    let body = text_lines(lines, s.body.clone(), false);
    match s.name {
        "Binary Layout" | "Encoding" => layout(e, &body),
        "Format" | "Opcode" | "Identifier" => {
            if let Some((i, v)) = body.first() {
                key_value(e, &[s.name.to_string(), v.clone()], *i as u32 + 1);
            }
        }
        "Availability" => availability(e, &body),
        "Operands" => operands(e, &body),
        "Description" => {
            if let Some((i, _)) = body.first() {
                // The whole section: a later sentence read alone can change the first.
                let t: Vec<&str> = body.iter().map(|(_, t)| t.as_str()).collect();
                e.description = Some(Located {
                    value: t.join("\n"),
                    line: *i as u32 + 1,
                });
            }
        }
        "Semantics" | "Syntax" | "Example" => {
            let code = text_lines(lines, s.body.clone(), true);
            let code = if code.is_empty() { body } else { code };
            let Some((i, _)) = code.first() else { return };
            let line = *i as u32 + 1;
            let t: Vec<&str> = code.iter().map(|(_, t)| t.as_str()).collect();
            match s.name {
                "Semantics" => {
                    e.pcode = Some(Pcode {
                        text: t.join("\n"),
                        line,
                        notation: Notation::Amd,
                    })
                }
                "Syntax" => {
                    e.syntax = Some(Located {
                        value: t[0].to_string(),
                        line,
                    })
                }
                _ => {
                    // `asm ; encoding: [..]`: the instruction only (the example check
                    // assembles it; llvm-mc's comment is not part of the syntax).
                    let asm = t[0].split(';').next().unwrap_or("").trim().to_string();
                    e.example = Some(Located { value: asm, line });
                }
            }
        }
        _ => {}
    }
}

/// A `Field | Bits` (or `Bits | Field`) table; the constant of a field is a bit string of
/// its width in any other cell.
fn layout(e: &mut Entry, body: &[(usize, String)]) {
    let mut cols: Option<(usize, usize)> = None;
    for (i, l) in body {
        let Some(c) = cells(l) else { continue };
        let Some((fc, bc)) = cols else {
            let f = c.iter().position(|x| x.eq_ignore_ascii_case("Field"));
            let b = c.iter().position(|x| x.eq_ignore_ascii_case("Bits"));
            if let (Some(f), Some(b)) = (f, b) {
                cols = Some((f, b));
            }
            continue;
        };
        let (Some(cell), Some(range)) = (c.get(fc), c.get(bc).and_then(|b| bits(b))) else {
            continue;
        };
        let n = cell.split('=').next().unwrap_or("").trim();
        let (hi, lo) = range;
        if !mnemonic(n) || hi < lo || hi > 127 {
            continue;
        }
        let width = hi - lo + 1;
        let encoding = matches!(n, "ENCODING" | "ENC");
        // Any other cell, the bit-range cell's tail and the field cell's `= BITS`; the
        // range itself is not a constant.
        let bits_tail = c[bc].split_once(char::is_whitespace).map_or("", |x| x.1);
        let k = c
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != fc && *j != bc)
            .map(|(_, x)| x.as_str())
            .chain([bits_tail, cell.split_once('=').map_or("", |x| x.1)])
            .filter(|x| width >= 4 && !x.is_empty())
            .try_fold(None, |acc: Option<u64>, x| {
                match (acc, constant(x, width, encoding)) {
                    (Some(a), Some(b)) if a != b => Err(()),
                    (a, b) => Ok(b.or(a)),
                }
            })
            .ok()
            .flatten();
        e.layout.push(Field {
            name: n.to_string(),
            hi,
            lo,
            constant: k,
            gens: e.gens.clone(),
            line: *i as u32 + 1,
        });
    }
}

/// `Available on RDNA 3 (GFX11) and RDNA 4 (GFX12).`: read only when every name in it is a
/// generation.
fn availability(e: &mut Entry, body: &[(usize, String)]) {
    let Some((i, t)) = body.first() else { return };
    let Some(rest) = t.strip_prefix("Available on ") else {
        return;
    };
    let rest = rest.trim_end_matches('.');
    let mut gens = Vec::new();
    for part in rest.split([',']).flat_map(|p| p.split(" and ")) {
        let p = part.trim();
        let name = p.split('(').next().unwrap_or(p).trim();
        match gen_name(name) {
            Some(g) => gens.push(g),
            None => return,
        }
    }
    e.available = gens
        .into_iter()
        .map(|value| Located {
            value,
            line: *i as u32 + 1,
        })
        .collect();
}

/// An operand table (the `Name` column, else the first) or `*`/`-` bullets.
fn operands(e: &mut Entry, body: &[(usize, String)]) {
    let mut col: Option<usize> = None;
    for (i, l) in body {
        let name = if let Some(c) = cells(l) {
            let Some(k) = col else {
                col = Some(c.iter().position(|x| x == "Name").unwrap_or(0));
                continue;
            };
            c.get(k).cloned()
        } else {
            l.strip_prefix("* ")
                .or(l.strip_prefix("- "))
                .map(|b| b.split_whitespace().next().unwrap_or("").to_string())
        };
        if let Some(n) = name.map(|n| n.trim_matches('`').to_string()) {
            if mnemonic(&n) {
                e.operands.push(Located {
                    value: n,
                    line: *i as u32 + 1,
                });
            }
        }
    }
}
