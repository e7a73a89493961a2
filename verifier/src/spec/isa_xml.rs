//! Reader for AMD's machine-readable ISA XML (GPUOpen isa_spec_manager schema:
//! `Spec/ISA/{Architecture/ArchitectureName, Encodings/Encoding, Instructions/Instruction}`).
//! From each `Instruction` it takes `InstructionName`, `Description` and, per
//! `InstructionEncoding`, the `EncodingName` and `Opcode`; from each `Encoding` of the DS and
//! MUBUF families the `OP` field's bit range (`MicrocodeFormat/BitMap/Field` with
//! `FieldName`, `BitLayout/Range/{BitCount, BitOffset}`).

use super::{gen_target, Doc, Entry, Field, Format, Located, SpecError};
use roxmltree::{Document, Node};
use std::collections::HashMap;

/// The deepest element nesting read (AMD's ISA files nest about 10 deep); roxmltree needs
/// well under 1 KiB of stack per level.
pub const MAX_XML_DEPTH: usize = 1000;

/// The 1-based line and column of the first start tag past [`MAX_XML_DEPTH`] levels, if any.
/// A scan of tags only: comments, CDATA, processing instructions, declarations and quoted
/// attribute values are skipped; malformed XML is left for the parser to report.
fn too_deep(text: &str) -> Option<(u32, u32)> {
    let b = text.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    let skip_to = |from: usize, end: &str| {
        text[from..]
            .find(end)
            .map_or(b.len(), |k| from + k + end.len())
    };
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with("<!--") {
            i = skip_to(i, "-->");
        } else if rest.starts_with("<![CDATA[") {
            i = skip_to(i, "]]>");
        } else if rest.starts_with("<?") {
            i = skip_to(i, "?>");
        } else if rest.starts_with("<!") {
            i = skip_to(i, ">");
        } else if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            i = skip_to(i, ">");
        } else {
            let start = i;
            let mut quote = None;
            i += 1;
            while i < b.len() {
                match (quote, b[i]) {
                    (None, b'"' | b'\'') => quote = Some(b[i]),
                    (Some(q), c) if c == q => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                i += 1;
            }
            if b.get(i.wrapping_sub(1)) != Some(&b'/') {
                depth += 1;
                if depth > MAX_XML_DEPTH {
                    let before = &text[..start];
                    let line = before.matches('\n').count() + 1;
                    let col = start - before.rfind('\n').map_or(0, |k| k + 1) + 1;
                    return Some((line as u32, col as u32));
                }
            }
            i += 1;
        }
    }
    None
}

fn child<'a>(n: Node<'a, 'a>, name: &str) -> Option<Node<'a, 'a>> {
    n.children().find(|c| c.has_tag_name(name))
}

fn text_of(n: Node, name: &str) -> Option<String> {
    child(n, name)
        .and_then(|c| c.text())
        .map(|t| t.trim().to_string())
}

fn int(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Read an ISA XML file.
///
/// Errors: malformed XML (with its line and column), or no `Spec`/`ISA` element.
pub fn read(file: &str, text: &str) -> Result<Doc, SpecError> {
    // roxmltree parses elements recursively: a deep document would overflow the stack.
    if let Some((line, col)) = too_deep(text) {
        return Err(SpecError::new(
            file,
            line,
            col,
            format!("elements nested too deeply (more than {MAX_XML_DEPTH} levels)"),
        ));
    }
    let d = Document::parse(text).map_err(|e| {
        let p = e.pos();
        SpecError::new(file, p.row, p.col, format!("invalid XML: {e}"))
    })?;
    let line_of = |n: Node| d.text_pos_at(n.range().start).row;
    let root = d.root_element();
    if !root.has_tag_name("Spec") {
        return Err(SpecError::new(
            file,
            line_of(root),
            1,
            "expected a <Spec> root element",
        ));
    }
    let isa = child(root, "ISA")
        .ok_or_else(|| SpecError::new(file, line_of(root), 1, "no <ISA> element"))?;
    let arch = child(isa, "Architecture").and_then(|a| text_of(a, "ArchitectureName"));
    let gens: Vec<_> = arch.as_deref().and_then(gen_target).into_iter().collect();
    // OP field bit range per encoding name.
    let mut op_field: HashMap<String, (u32, u32, u32)> = HashMap::new();
    if let Some(encs) = child(isa, "Encodings") {
        for e in encs.children().filter(|c| c.has_tag_name("Encoding")) {
            let Some(name) = text_of(e, "EncodingName") else {
                continue;
            };
            let fields = e.descendants().filter(|f| {
                f.has_tag_name("Field") && text_of(*f, "FieldName").as_deref() == Some("OP")
            });
            for f in fields {
                let r = f.descendants().find(|x| x.has_tag_name("Range"));
                let (Some(cnt), Some(off)) = (
                    r.and_then(|r| text_of(r, "BitCount")).and_then(|s| int(&s)),
                    r.and_then(|r| text_of(r, "BitOffset"))
                        .and_then(|s| int(&s)),
                ) else {
                    continue;
                };
                if cnt > 0 && cnt + off <= 128 {
                    op_field.insert(
                        name.clone(),
                        ((off + cnt - 1) as u32, off as u32, line_of(f)),
                    );
                }
            }
        }
    }
    let mut entries = Vec::new();
    if let Some(insts) = child(isa, "Instructions") {
        for n in insts.children().filter(|c| c.has_tag_name("Instruction")) {
            let Some(name) = text_of(n, "InstructionName") else {
                return Err(SpecError::new(
                    file,
                    line_of(n),
                    1,
                    "an <Instruction> without <InstructionName>",
                ));
            };
            let mut e = Entry {
                name,
                line: line_of(n),
                gens: gens.clone(),
                ..Entry::default()
            };
            if let Some(dn) = child(n, "Description") {
                if let Some(t) = dn.text() {
                    e.description = Some(Located {
                        value: t.trim().to_string(),
                        line: line_of(dn),
                    });
                }
            }
            for ie in n
                .descendants()
                .filter(|c| c.has_tag_name("InstructionEncoding"))
            {
                let enc = text_of(ie, "EncodingName").unwrap_or_default();
                let family = match enc.as_str() {
                    "ENC_DS" | "ENC_VDS" => "DS",
                    "ENC_MUBUF" | "ENC_VBUFFER" => "MUBUF",
                    _ => continue,
                };
                let Some(op) = child(ie, "Opcode") else {
                    continue;
                };
                let Some(v) = op.text().and_then(int) else {
                    return Err(SpecError::new(
                        file,
                        line_of(op),
                        1,
                        "<Opcode> is not a number",
                    ));
                };
                e.opcode = Some(Located {
                    value: v as u32,
                    line: line_of(op),
                });
                e.format = Some(Located {
                    value: family.to_string(),
                    line: line_of(ie),
                });
                if let Some((hi, lo, fl)) = op_field.get(&enc) {
                    e.layout.push(Field {
                        name: "OP".into(),
                        hi: *hi,
                        lo: *lo,
                        constant: Some(v),
                        gens: gens.clone(),
                        line: *fl,
                    });
                }
                break;
            }
            entries.push(e);
        }
    }
    Ok(Doc::new(file, Format::IsaXml, gens, entries))
}
