//! Reader for CLRX-style instruction pages (CLRX `doc/GcnInstrs*.md`, in Markdown or as a
//! plain-text rendering): the encoding field table, the opcode tables per GCN generation, and
//! per instruction `Opcode:`, `Syntax:`, `Description:` and a C-like `Operation:` listing.
//!
//! Table rows whose cells do not line up with their header are kept as unreadable (they are
//! reported as unchecked, never as findings).

use super::Unchecked;
use super::{gen_target, Doc, Entry, Field, Format, Located, Notation, Pcode, SpecError, TableRow};
use gcnsmt_semantics::target::Target;

/// Generations named in a parenthesised or plain list: `GCN 1.0/1.1`, `GCN 1.2/1.4`.
fn gens_in(text: &str) -> Vec<Target> {
    let mut out = Vec::new();
    // The first `GCN ` followed by a version (`GCN ISA ... (GCN 1.1)` names 1.1).
    let Some(i) = text
        .match_indices("GCN ")
        .map(|(i, _)| i)
        .find(|i| text[i + 4..].starts_with(|c: char| c.is_ascii_digit()))
    else {
        return out;
    };
    let rest = &text[i + 4..];
    let list: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '/')
        .collect();
    for v in list.split('/') {
        if let Some(t) = gen_target(&format!("GCN {v}")) {
            out.push(t);
        }
    }
    out
}

fn is_mnemonic(s: &str) -> bool {
    let s = s.trim();
    (s.starts_with("DS_") || s.starts_with("BUFFER_") || s.starts_with("TBUFFER_"))
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(|c| c.trim().to_string()).collect()
}

fn opcode_cell(c: &str) -> Option<u32> {
    let n: String = c.chars().take_while(|c| c.is_ascii_digit()).collect();
    if n.is_empty() {
        return None;
    }
    let v: u32 = n.parse().ok()?;
    // The hex in parentheses must agree with the decimal, or the cell is not an opcode.
    if let Some(a) = c.find("(0x") {
        // The closing parenthesis after it: a `)` earlier in the cell is not this one.
        let b = a + c[a..].find(')')?;
        let h = u32::from_str_radix(&c[a + 3..b], 16).ok()?;
        if h != v {
            return None;
        }
    }
    Some(v)
}

enum Col {
    Opcode,
    Check(Target),
    Names(Vec<Target>),
    Other,
}

/// Read a CLRX page.
///
/// Errors: a file with no field table, no opcode table and no instruction entry.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.trim_end().replace("\\*", "*").replace("\\_", "_"))
        .collect();
    let mut doc = Doc::new(file, Format::Clrx, Vec::new(), Vec::new());
    let mut header: Option<Vec<Col>> = None;
    let mut i = 0;
    let n = lines.len();
    while i < n {
        let l = lines[i].trim();
        if doc.entries.is_empty() {
            if let Some(rest) = l.split_once("yntax:").map(|x| x.1.trim()) {
                if rest.starts_with("INSTRUCTION") {
                    doc.syntax_forms.push(Located {
                        value: l.to_string(),
                        line: i as u32 + 1,
                    });
                    i += 1;
                    continue;
                }
            }
            if let Some(f) = field_row(l, i) {
                doc.fields.push(f);
                i += 1;
                continue;
            }
        }
        if is_table_header(l) {
            header = Some(table_header(&mut doc, l));
            i += 1;
            continue;
        }
        if let Some(cols) = &header {
            if l.contains('|') {
                if table_row_line(&mut doc, file, cols, l, i) {
                    i += 1;
                    continue;
                }
            } else if !l.is_empty() {
                header = None;
            }
        }
        // Instruction entry: `#### NAME` or a line holding only a mnemonic, followed by
        // `Opcode:` within two lines.
        let heading = l.trim_start_matches('#').trim();
        let next_opcode =
            (i + 1..(i + 3).min(n)).any(|j| lines[j].trim_start().starts_with("Opcode"));
        if is_mnemonic(heading) && next_opcode {
            let (e, next) = entry(&lines, i, heading);
            doc.entries.push(e);
            i = next;
            continue;
        }
        i += 1;
    }
    if doc.fields.is_empty() && doc.table.is_empty() && doc.entries.is_empty() {
        return Err(SpecError::new(
            file,
            1,
            1,
            "no encoding field table, opcode table or instruction entry found (not a CLRX page)",
        ));
    }
    inherit_gens(&mut doc);
    if doc.table.is_empty() {
        // A heading that names generations (`## GCN ISA MUBUF instructions (GCN 1.1)`) is
        // what the page is for; else CLRX's convention below.
        let named: Vec<Target> = lines
            .iter()
            .filter(|l| l.trim_start().starts_with('#'))
            .flat_map(|l| gens_in(l))
            .collect();
        every_gcn_by_default(&mut doc, &named);
    }
    Ok(doc)
}

/// An encoding field table row (`0-7 | OFFSET0 | description`) at 0-based line `i`, or `None`.
fn field_row(l: &str, i: usize) -> Option<Field> {
    if !l.contains('|') {
        return None;
    }
    let c = cells(l);
    if c.len() < 2 {
        return None;
    }
    let bits = &c[0];
    let (hi, lo) = match bits.split_once('-') {
        Some((a, b)) => (b.trim().parse::<u32>().ok(), a.trim().parse::<u32>().ok()),
        None => (bits.parse::<u32>().ok(), bits.parse::<u32>().ok()),
    };
    let (hi, lo) = (hi?, lo?);
    let name_ok = c[1]
        .chars()
        .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_')
        && !c[1].is_empty();
    if hi < lo || hi >= 64 || !name_ok {
        return None;
    }
    let desc = c.get(2).cloned().unwrap_or_default();
    let constant = desc.find("0b").and_then(|p| {
        let s: String = desc[p + 2..]
            .chars()
            .take_while(|c| *c == '0' || *c == '1')
            .collect();
        u64::from_str_radix(&s, 2).ok()
    });
    Some(Field {
        name: c[1].clone(),
        hi,
        lo,
        constant,
        gens: gens_in(&desc),
        line: i as u32 + 1,
    })
}

/// Whether a line is an opcode table header (`| Opcode | ... Mnemonic ...` or
/// `Opcode | GCN ...`).
fn is_table_header(l: &str) -> bool {
    l.contains('|') && l.contains("Opcode") && l.contains("Mnemonic")
        || (l.contains('|') && l.trim_start().starts_with("Opcode") && l.contains("GCN"))
}

/// The columns of an opcode table header; their generations are added to the page's.
fn table_header(doc: &mut Doc, l: &str) -> Vec<Col> {
    let cols: Vec<Col> = cells(l)
        .iter()
        .map(|c| {
            if c == "Opcode" {
                Col::Opcode
            } else if c.starts_with("Mnemonic") {
                Col::Names(gens_in(c))
            } else if let Some(t) = gen_target(c) {
                Col::Check(t)
            } else {
                Col::Other
            }
        })
        .collect();
    // A names column without its own generations is for the check columns'.
    let checks: Vec<Target> = cols
        .iter()
        .filter_map(|c| match c {
            Col::Check(t) => Some(*t),
            _ => None,
        })
        .collect();
    let cols: Vec<Col> = cols
        .into_iter()
        .map(|c| match c {
            Col::Names(g) if g.is_empty() => Col::Names(checks.clone()),
            c => c,
        })
        .collect();
    for c in &cols {
        match c {
            Col::Check(t) => push_gen(&mut doc.gens, *t),
            Col::Names(g) => g.iter().for_each(|t| push_gen(&mut doc.gens, *t)),
            _ => {}
        }
    }
    cols
}

/// A `|` line under an opcode table header at 0-based line `i`: a separator (skipped) or an
/// opcode row (kept, or recorded as unreadable). Returns whether the line was one of these.
fn table_row_line(doc: &mut Doc, file: &str, cols: &[Col], l: &str, i: usize) -> bool {
    let c = cells(l);
    if c.iter()
        .all(|x| x.chars().all(|ch| ch == '-' || ch == ':' || ch == ' '))
    {
        return true;
    }
    let Some(op) = c.first().and_then(|x| opcode_cell(x)) else {
        return false;
    };
    match table_row(cols, &c, op, i as u32 + 1) {
        Ok(row) => doc.table.push(row),
        Err(reason) => doc.unreadable.push(Unchecked {
            kind: "opcode-table",
            file: file.to_string(),
            line: i as u32 + 1,
            entry: None,
            reason,
        }),
    }
    true
}

/// Entries without their own generations take those of the table rows that list them.
fn inherit_gens(doc: &mut Doc) {
    for e in &mut doc.entries {
        if e.gens.is_empty() {
            for r in &doc.table {
                for (t, m) in &r.names {
                    if m.eq_ignore_ascii_case(&e.name) {
                        push_gen(&mut e.gens, *t);
                    }
                }
            }
        }
    }
}

/// The generations CLRX's pages document: GCN 1.0, 1.1, 1.2 and 1.4 (CLRX `GcnInstrs*.md`;
/// there is no GCN 1.3).
const CLRX_GENS: [Target; 4] = [
    Target::Gfx600,
    Target::Gfx700,
    Target::Gfx802,
    Target::Gfx900,
];

/// CLRX's convention: an `Opcode:` line names generations (`for GCN 1.4`) only when the
/// opcode is not that of every generation the page documents, so on a page with no opcode
/// table an entry whose opcode names none is for all four (or for those a heading of the page
/// names). An entry with no opcode line is
/// left without generations (nothing on it says which).
fn every_gcn_by_default(doc: &mut Doc, named: &[Target]) {
    let gens = if named.is_empty() {
        CLRX_GENS.to_vec()
    } else {
        named.to_vec()
    };
    for e in &mut doc.entries {
        if e.gens.is_empty() && e.opcode.is_some() && e.opcode_gens.is_empty() {
            e.gens = gens.clone();
        }
    }
}

fn push_gen(v: &mut Vec<Target>, t: Target) {
    if !v.contains(&t) {
        v.push(t);
    }
}

fn table_row(cols: &[Col], c: &[String], op: u32, line: u32) -> Result<TableRow, String> {
    if c.len() != cols.len() {
        return Err(format!(
            "opcode {op}: the row has {} cells where the header has {}",
            c.len(),
            cols.len()
        ));
    }
    let mut present: Vec<(Target, bool)> = Vec::new();
    let mut names = Vec::new();
    for (col, cell) in cols.iter().zip(c) {
        match col {
            Col::Check(t) => {
                let p = match cell.as_str() {
                    "✓" => true,
                    "" | "--" | "-" => false,
                    other => {
                        return Err(format!(
                            "opcode {op}: `{other}` in the {} column, which holds only ✓ or --",
                            t.name()
                        ))
                    }
                };
                present.push((*t, p));
            }
            Col::Names(gens) => {
                if cell.is_empty() || cell == "--" || cell == "-" {
                    continue;
                }
                if !cell
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                {
                    return Err(format!("opcode {op}: `{cell}` is not a mnemonic"));
                }
                for t in gens {
                    let marked = present.iter().find(|(g, _)| g == t).map(|(_, p)| *p);
                    if marked != Some(false) {
                        names.push((*t, cell.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(TableRow {
        opcode: op,
        line,
        names,
    })
}

/// Read one entry starting at its heading line; returns it and the index after it.
fn entry(lines: &[String], start: usize, name: &str) -> (Entry, usize) {
    let mut e = Entry {
        name: name.to_string(),
        line: start as u32 + 1,
        ..Entry::default()
    };
    let mut i = start + 1;
    let n = lines.len();
    while i < n {
        let l = lines[i].trim();
        let heading = l.trim_start_matches('#').trim();
        if i > start + 1
            && is_mnemonic(heading)
            && (i + 1..(i + 3).min(n)).any(|j| lines[j].trim_start().starts_with("Opcode"))
        {
            break;
        }
        if l.starts_with("##") {
            break;
        }
        if let Some(rest) = l.strip_prefix("Opcode:") {
            if let Some(v) = leading_number(rest) {
                e.opcode = Some(Located {
                    value: v,
                    line: i as u32 + 1,
                });
            }
            // `62 (0x3e) for GCN 1.0/1.1; 190 (0xbe) GCN 1.2/1.4`
            if rest.contains("GCN") {
                for seg in rest.split(';') {
                    if let Some(v) = leading_number(seg) {
                        e.opcode_gens.push((v, gens_in(seg)));
                    }
                }
                e.gens = e.opcode_gens.iter().flat_map(|(_, g)| g.clone()).collect();
                // `87 (0x57) for GCN 1.2/1.4` says the instruction is on GCN 1.2 and 1.4:
                // the availability check holds each against LLVM's tables.
                e.available = e
                    .gens
                    .iter()
                    .map(|t| Located {
                        value: *t,
                        line: i as u32 + 1,
                    })
                    .collect();
            }
        } else if let Some(rest) = l.strip_prefix("Syntax:") {
            e.syntax = Some(Located {
                value: rest.trim().to_string(),
                line: i as u32 + 1,
            });
        } else if let Some(rest) = l.strip_prefix("Description:") {
            let line = i as u32 + 1;
            let mut d = rest.trim().to_string();
            while i + 1 < n {
                let nl = lines[i + 1].trim();
                if nl.is_empty()
                    || nl.starts_with("Operation:")
                    || nl.starts_with("Opcode:")
                    || nl.starts_with("Syntax:")
                {
                    break;
                }
                d.push(' ');
                d.push_str(nl);
                i += 1;
            }
            e.description = Some(Located { value: d, line });
        } else if l.starts_with("Operation:") {
            let mut body = Vec::new();
            let mut line = 0;
            let mut j = i + 1;
            while j < n {
                let t = lines[j].trim();
                if t.starts_with("```") {
                    j += 1;
                    if !body.is_empty() {
                        break;
                    }
                    continue;
                }
                let h = t.trim_start_matches('#').trim();
                if t.is_empty() && !body.is_empty() {
                    break;
                }
                if t.is_empty() {
                    j += 1;
                    continue;
                }
                if is_mnemonic(h) || t.starts_with("##") || t.starts_with("Opcode:") {
                    break;
                }
                if line == 0 {
                    line = j as u32 + 1;
                }
                body.push(t.to_string());
                j += 1;
            }
            if !body.is_empty() {
                e.pcode = Some(Pcode {
                    text: body.join("\n"),
                    line,
                    notation: Notation::CLike,
                });
            }
            i = j;
            continue;
        }
        i += 1;
    }
    (e, i)
}

/// The decimal number a text starts with (after white space): `62 (0x3e) for ...` -> 62.
fn leading_number(s: &str) -> Option<u32> {
    let v: String = s
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    v.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_cells() {
        assert_eq!(opcode_cell("12 (0xc)"), Some(12));
        assert_eq!(opcode_cell("12 (0xd)"), None);
        // Found by fuzzing: a `)` before the `(0x` sliced backwards.
        assert_eq!(opcode_cell("1) (0x1"), None);
        assert_eq!(opcode_cell("1) (0x1)"), Some(1));
    }
}
