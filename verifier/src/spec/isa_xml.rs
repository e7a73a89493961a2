//! Reader for AMD's machine-readable ISA XML (GPUOpen isa_spec_manager schema:
//! `Spec/ISA/{Architecture/ArchitectureName, Encodings/Encoding, Instructions/Instruction}`).
//! From each `Instruction` it takes `InstructionName`, `Description` and, per
//! `InstructionEncoding`, the `EncodingName` and `Opcode`; from each `Encoding` of the DS and
//! MUBUF families the `OP` field's bit range (`MicrocodeFormat/BitMap/Field` with
//! `FieldName`, `BitLayout/Range/{BitCount, BitOffset}`).

use super::{gen_target, Doc, Entry, Field, Format, Located, SpecError};
use roxmltree::{Document, Node};
use std::collections::HashMap;

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
    Ok(Doc {
        file: file.to_string(),
        format: Format::IsaXml,
        gens,
        entries,
        table: Vec::new(),
        fields: Vec::new(),
        unreadable: Vec::new(),
    })
}
