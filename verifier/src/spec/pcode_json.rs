//! Reader for AMD pseudocode collections as JSON: `{"PCODE": {"DSOp": {NAME: TEXT, ...},
//! "MUBUFOp": {...}}}` (the shape of tinygrad's `str_pcode.py` tables, converted to JSON), or
//! the inner map alone. An optional top-level `"target": "gfx950"` names the generation;
//! otherwise `--target`, or the file name (`rdna3` = RDNA 3.5 = gfx1150, `rdna4` = gfx1200,
//! `cdna` = CDNA 4 = gfx950, as the reference files are named).

use super::{Doc, Entry, Format, Located, Notation, Pcode, SpecError};
use gcnsmt_semantics::target::Target;
use serde_json::Value;

/// The position and 1-based line of `"key":` at or after `from` (a key, not the same text
/// inside a value); line 0 when there is none.
fn line_of(text: &str, from: usize, key: &str) -> (usize, u32) {
    let pat = format!("\"{key}\"");
    let mut at = from;
    while let Some(p) = text[at..].find(&pat) {
        let start = at + p;
        let after = text[start + pat.len()..].trim_start();
        if after.starts_with(':') {
            return (start, text[..start].matches('\n').count() as u32 + 1);
        }
        at = start + pat.len();
    }
    (from, 0)
}

/// Read a collection.
///
/// Errors: invalid JSON (with its line and column), a shape other than the above, a text that
/// is not a string, or no way to tell the generation.
pub fn read(file: &str, text: &str, targets: Option<&[Target]>) -> Result<Doc, SpecError> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        SpecError::new(
            file,
            // serde_json counts a column 0 before a line's first character.
            (e.line() as u32).max(1),
            (e.column() as u32).max(1),
            format!("invalid JSON: {e}"),
        )
    })?;
    let Value::Object(top) = &v else {
        return Err(SpecError::new(file, 1, 1, "expected a JSON object"));
    };
    let lower = file.to_ascii_lowercase();
    let named = top
        .get("target")
        .and_then(|t| t.as_str())
        .and_then(Target::parse);
    let gens: Vec<Target> = match (named, targets) {
        (Some(t), _) => vec![t],
        (None, Some(ts)) => ts.to_vec(),
        (None, None) if lower.contains("rdna3") => vec![Target::Gfx1150],
        (None, None) if lower.contains("rdna4") => vec![Target::Gfx1200],
        (None, None) if lower.contains("cdna") => vec![Target::Gfx950],
        _ => return Err(SpecError::new(
            file,
            1,
            1,
            "cannot tell which generation this collection is for: add \"target\" or use --target",
        )),
    };
    let groups = match top.get("PCODE") {
        Some(Value::Object(g)) => g.clone(),
        Some(_) => return Err(SpecError::new(file, 1, 1, "\"PCODE\" must be an object")),
        None => top.clone(),
    };
    let mut entries = Vec::new();
    for (group, ops) in &groups {
        if group == "target" {
            continue;
        }
        let Value::Object(ops) = ops else {
            let (_, l) = line_of(text, 0, group);
            return Err(SpecError::new(
                file,
                l,
                1,
                format!("\"{group}\" must map names to pseudocode text"),
            ));
        };
        // serde_json's map is sorted by key, not in file order: each key is looked for from
        // its group's own key (names are unique within a group).
        let (gpos, _) = line_of(text, 0, group);
        let format = group.trim_end_matches("Op").to_string();
        for (name, body) in ops {
            let (_, line) = line_of(text, gpos, name);
            let Value::String(body) = body else {
                return Err(SpecError::new(
                    file,
                    line,
                    1,
                    format!("the pseudocode of {name} is not a string"),
                ));
            };
            entries.push(Entry {
                name: name.clone(),
                line,
                pcode: Some(Pcode {
                    text: body.clone(),
                    line,
                    notation: Notation::Amd,
                }),
                format: Some(Located {
                    value: format.clone(),
                    line,
                }),
                gens: gens.clone(),
                ..Entry::default()
            });
        }
    }
    Ok(Doc::new(file, Format::PcodeJson, gens, entries))
}
