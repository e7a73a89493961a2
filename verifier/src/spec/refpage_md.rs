//! Reader of reference pages' sections, in every rendering [`super::refpage`] recognises
//! (Markdown or plain text): the title's mnemonic, a subtitle or `Generation` section naming
//! the guide (`AMD Instinct MI300 (CDNA 3) ...`, `"Vega" ... (GFX9)`, `RDNA 4 ...`), `Binary
//! Layout` as a `Field | Bits` table in either column order, plain rows (`OFFSET0 [7:0]`) or
//! name / range line pairs, `Format`, `Opcode`, `Identifier`, `Availability`, `Description`,
//! `Operands` (a table, bullets or plain lines), `Syntax`, `Semantics` and `Example` (fenced
//! or not, with the `; encoding: [..]` bytes it gives), or a `| Format | DS |` key/value table.
//!
//! What the reader cannot read with certainty is left out (and so unchecked): a bit range
//! that is not one of [`super::refpage::range`]'s forms, an opcode whose decimal and
//! hexadecimal forms disagree, an availability sentence that names anything but generations.

use super::refpage::Section;
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

/// A table cell's bit range: its first token (`7:0`, `[7:0]`, `17`, `0-7`) or its first two
/// (`bits 7-0`).
fn bits(s: &str) -> Option<(u32, u32)> {
    let mut w = s.split_whitespace();
    let first = w.next()?;
    super::refpage::range(first, true).or_else(|| {
        matches!(first, "bits" | "Bits" | "bit" | "Bit")
            .then(|| super::refpage::range(&format!("bits {}", w.next()?), true))
            .flatten()
    })
}

/// The constant a cell writes for a field of `width` bits: one token that is a bit string of
/// exactly that width (`110110`, `Must be 110110`, `31:26 (111000)`, `ENCODING = 110110`),
/// or, for the encoding field itself, a hexadecimal value (`0x36`). Short fields are never
/// read from prose (`1 = GDS` says what a value means, not that the field is fixed); two
/// candidates are no reading.
fn constant(cell: &str, width: u32, encoding: bool) -> Option<u64> {
    let mut found = None;
    for w in cell.split(|c: char| c.is_whitespace() || "()=,.:;".contains(c)) {
        let b = w
            .strip_prefix("0b")
            .filter(|b| !b.is_empty() && b.len() <= width as usize);
        let v = if w.len() == width as usize && w.chars().all(|ch| ch == '0' || ch == '1') {
            u64::from_str_radix(w, 2).ok()
        } else if let Some(b) = b {
            u64::from_str_radix(b, 2).ok()
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

/// Read a reference page in any rendering [`super::refpage`] recognises.
///
/// Errors: an empty page, or a title line that does not start with a mnemonic.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(first) = lines.iter().position(|l| !l.trim().is_empty()) else {
        return Err(SpecError::new(file, 1, 1, "empty page"));
    };
    // `# NAME`, `**NAME**`, `NAME`, `NAME GPU Native ISA ...`: the first word of the title.
    let title = lines[first].trim().trim_start_matches('#').trim();
    let name = title
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c| c == '*' || c == '`');
    if !mnemonic(name) {
        return Err(SpecError::new(
            file,
            first as u32 + 1,
            1,
            "the title line does not start with a mnemonic",
        ));
    }
    let mut e = Entry {
        name: name.to_string(),
        line: first as u32 + 1,
        ..Entry::default()
    };
    let secs = super::refpage::sections(&lines, first);
    let first_section = secs.first().map_or(lines.len(), |s| s.line);
    // The subtitle: the first text line before the first section that is no table row and
    // no alias line.
    if let Some(g) = lines[first + 1..first_section]
        .iter()
        .find(|l| {
            let t = l.trim();
            !t.is_empty() && cells(l).is_none() && !t.starts_with("Also written as")
        })
        .and_then(|l| subtitle_gen(l))
    {
        e.gens = vec![g];
    }
    for (i, l) in lines.iter().enumerate().take(first_section).skip(first + 1) {
        if let Some(c) = cells(l) {
            key_value(&mut e, &c, i as u32 + 1);
        }
    }
    aliases(&mut e, &lines);
    for s in &secs {
        section(&mut e, &lines, s);
    }
    // Rows drawn before the page named its generation are for that generation too.
    let gens = e.gens.clone();
    for f in e.layout.iter_mut().filter(|f| f.gens.is_empty()) {
        f.gens = gens.clone();
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

/// "Also written as X" anywhere outside code: another name of the same instruction.
fn aliases(e: &mut Entry, lines: &[&str]) {
    let mut fenced = false;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        if t.starts_with("```") {
            fenced = !fenced;
        }
        let Some(rest) = t.strip_prefix("Also written as ").filter(|_| !fenced) else {
            continue;
        };
        let a: String = rest
            .trim_start_matches('`')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !a.is_empty() {
            e.aliases.push(Located {
                value: a,
                line: i as u32 + 1,
            });
        }
    }
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
    let name = s.head.name;
    // A value on the heading's own line is the section's first body line.
    let mut body = text_lines(lines, s.body.clone(), false);
    let mut code = text_lines(lines, s.body.clone(), true);
    if let Some(v) = &s.head.inline {
        body.insert(0, (s.line, v.clone()));
        code.insert(0, (s.line, v.clone()));
    }
    match name {
        "Binary Layout" => {
            if e.gens.is_empty() {
                if let Some(g) = s.head.qualifier.as_deref().and_then(subtitle_gen) {
                    e.gens = vec![g];
                }
            }
            layout(e, &body);
        }
        "Generation" => {
            if let Some(g) = body.first().and_then(|(_, t)| subtitle_gen(t)) {
                e.gens = vec![g];
            }
        }
        "Format" | "Opcode" | "Identifier" => {
            if let Some((i, v)) = body.first() {
                key_value(e, &[name.to_string(), v.clone()], *i as u32 + 1);
            }
        }
        "Availability" => availability(e, &body),
        "Operands" => operands(e, &body),
        "Description" => {
            if let Some((i, _)) = body.first() {
                // The whole section: a later sentence read alone can change the first. Its
                // lines keep their file lines (a blank line stays one) so that a finding on
                // a later line is reported there.
                let mut t = String::new();
                for (k, (j, l)) in body.iter().enumerate() {
                    if k > 0 {
                        let gap = j.saturating_sub(body[k - 1].0).max(1);
                        t.push_str(&"\n".repeat(gap));
                    }
                    t.push_str(l);
                }
                e.description = Some(Located {
                    value: t,
                    line: *i as u32 + 1,
                });
            }
        }
        "Semantics" | "Syntax" | "Example" => {
            let fenced = code.len() > usize::from(s.head.inline.is_some());
            let code = if fenced { code } else { body };
            let Some((i, _)) = code.first() else { return };
            let line = *i as u32 + 1;
            let t: Vec<&str> = code.iter().map(|(_, t)| t.as_str()).collect();
            match name {
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
                _ => example(e, &code),
            }
        }
        _ => {}
    }
}

/// `asm ; encoding: [..]`: the instruction (the example check assembles it; llvm-mc's comment
/// is not part of the syntax) and the bytes the page gives for it, when a line of the section
/// says `encoding: [0x.., ...]` and every byte reads.
fn example(e: &mut Entry, code: &[(usize, String)]) {
    let Some((i, first)) = code.first() else {
        return;
    };
    let line = *i as u32 + 1;
    let asm = first.split(';').next().unwrap_or("").trim().to_string();
    e.example = Some(Located { value: asm, line });
    let stated = code.iter().find_map(|(j, t)| {
        let at = t.find("encoding:")?;
        let rest = t[at + 9..].trim();
        let inner = rest.strip_prefix('[')?.split(']').next()?;
        let bytes: Option<Vec<u8>> = inner
            .split(',')
            .map(|b| {
                let b = b.trim();
                u8::from_str_radix(b.strip_prefix("0x").or(b.strip_prefix("0X"))?, 16).ok()
            })
            .collect();
        bytes.filter(|b| !b.is_empty()).map(|value| Located {
            value,
            line: *j as u32 + 1,
        })
    });
    e.example_bytes = stated;
}

/// A `Field | Bits` (or `Bits | Field`) table, plain-text rows (`OFFSET0 [7:0] offset 0`,
/// [`super::refpage::plain_row`]) or name / range line pairs (`OFFSET0` then `7:0`; a name
/// that is a bit string is a constant); the constant of a field is a bit string of its width
/// in any other cell or in the row's text.
fn layout(e: &mut Entry, body: &[(usize, String)]) {
    let mut cols: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < body.len() {
        let (i, l) = (&body[k].0, &body[k].1);
        k += 1;
        let Some(c) = cells(l) else {
            if let Some((n, hi, lo, rest)) = super::refpage::plain_row(l) {
                push_field(e, &n, (hi, lo), &[rest.as_str()], *i);
            } else if let Some((_, r)) = body.get(k).filter(|(j, _)| *j == i + 1) {
                // A name alone, its range alone on the next line.
                let n = l.trim();
                let name_ok = mnemonic(n) && !n.chars().any(|c| c.is_ascii_lowercase());
                if let (true, Some(range)) = (name_ok, super::refpage::range(r, true)) {
                    let bitstring = n.chars().all(|c| c == '0' || c == '1');
                    let width = range.0 - range.1 + 1;
                    let constant = (bitstring && n.len() == width as usize)
                        .then(|| u64::from_str_radix(n, 2).ok())
                        .flatten();
                    e.layout.push(Field {
                        name: n.to_string(),
                        hi: range.0,
                        lo: range.1,
                        constant,
                        gens: e.gens.clone(),
                        line: *i as u32 + 1,
                    });
                    k += 1;
                }
            }
            continue;
        };
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
        // Any other cell, the bit-range cell's tail and the field cell's `= BITS`; the
        // range itself is not a constant.
        let bits_tail = c[bc].split_once(char::is_whitespace).map_or("", |x| x.1);
        let others: Vec<&str> = c
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != fc && *j != bc)
            .map(|(_, x)| x.as_str())
            .chain([bits_tail, cell.split_once('=').map_or("", |x| x.1)])
            .collect();
        push_field(e, n, range, &others, *i);
    }
}

/// A field row named `n` over `range` whose constant, if any, is read from `texts` (two
/// different values read are no reading).
fn push_field(e: &mut Entry, n: &str, (hi, lo): (u32, u32), texts: &[&str], i: usize) {
    if !mnemonic(n) || hi < lo || hi > 127 {
        return;
    }
    let width = hi - lo + 1;
    let encoding = matches!(n, "ENCODING" | "ENC");
    let k = texts
        .iter()
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
        line: i as u32 + 1,
    });
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

/// An operand table (the `Name` column, else the first), `*`/`-`/`\u{2022}` bullets, or plain
/// lines that start with an upper-case operand name (`VDST   32-bit return value`).
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
            let b = l
                .strip_prefix("* ")
                .or(l.strip_prefix("- "))
                .or(l.strip_prefix('\u{2022}'))
                .unwrap_or(l);
            b.split_whitespace()
                .next()
                .map(|w| w.trim_end_matches([':', ',']).to_string())
                .filter(|w| !w.chars().any(|c| c.is_ascii_lowercase()))
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
