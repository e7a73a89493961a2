//! syntax: the syntax line names the entry's own mnemonic, each modifier its own field, and
//! the register operands LLVM 22 gives the instruction, in its order (vdst, addr, data0,
//! data1) and, where the line writes a count (`VDST(2)`), in its size in dwords.

use super::{lower, Body, Ctx};
use crate::spec::equiv::Family;
use crate::spec::Entry;
use gcnsmt_lifter::table::{ds_by_opcode, ds_lookup};
use gcnsmt_semantics::target::Target;
use regex::Regex;

/// The role a syntax line's operand name stands for, and the dword count it writes
/// (`VDST(2)`); `None` for a name of no DS operand.
fn role(tok: &str) -> Option<(&'static str, Option<u8>)> {
    let (name, count) = match tok.split_once('(') {
        Some((n, c)) => (n, c.trim_end_matches(')').parse().ok()),
        None => (tok, None),
    };
    let r = match name.to_ascii_uppercase().as_str() {
        "VDST" | "RETURN_DATA" => "VDST",
        "ADDR" => "ADDR",
        "DATA0" | "VDATA0" | "DATA" | "VDATA" => "DATA0",
        "DATA1" | "VDATA1" | "DATA2" => "DATA1",
        _ => return None,
    };
    Some((r, count))
}

/// The register operands of a syntax line: the names after the mnemonic up to the first
/// modifier (`[OFFSET:OFFSET]`, `offset:OFFSET`).
fn operands(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .skip(1)
        .flat_map(|w| w.split(','))
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .take_while(|w| !w.starts_with('[') && !w.contains(':'))
        .collect()
}

/// The operand fault of a DS syntax line against LLVM 22's shape of the instruction, if any;
/// `Err` when the line names an operand of no role (left unchecked).
fn operand_fault(c: &Ctx, e: &Entry, text: &str) -> Result<Option<(String, String)>, String> {
    let Some(t) = c.first_target(e, Family::Ds) else {
        return Ok(None);
    };
    let Some((_, shape)) = ds_lookup(t, &lower(&e.name)) else {
        return Ok(None);
    };
    let want: Vec<(&str, u8)> = [
        ("VDST", shape.vdst),
        ("ADDR", u8::from(shape.addr)),
        ("DATA0", shape.data0),
        ("DATA1", shape.data1),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect();
    let mut got = Vec::new();
    for tok in operands(text) {
        match role(tok) {
            Some(r) => got.push(r),
            None => return Err(format!("`{tok}` names no DS operand")),
        }
    }
    let list = |v: &[(&str, u8)]| -> String {
        v.iter()
            .map(|(r, n)| {
                if *n > 1 {
                    format!("{r}({n})")
                } else {
                    r.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let names_ok = got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| g.0 == w.0);
    let counts_ok = got
        .iter()
        .zip(&want)
        .all(|(g, w)| g.1.is_none_or(|n| n == w.1));
    if names_ok && counts_ok {
        return Ok(None);
    }
    let truth = format!(
        "on {t} {} takes {} (LLVM 22), so the line should read `{} {}`",
        lower(&e.name),
        if want.is_empty() {
            "no register operand".to_string()
        } else {
            list(&want)
        },
        text.split_whitespace().next().unwrap_or(""),
        want.iter().map(|(r, _)| *r).collect::<Vec<_>>().join(", ")
    );
    let ev = format!(
        "vdst {} dword(s), addr {}, data0 {} dword(s), data1 {} dword(s) (lifter/data/ds_shapes.tsv, from llvm-mc 22)",
        shape.vdst,
        if shape.addr { "1 dword" } else { "none" },
        shape.data0,
        shape.data1
    );
    Ok(Some((truth, ev)))
}

pub(super) const KIND: &str = "syntax";

/// The syntax line names the entry's own mnemonic, and each `[name:FIELD]` modifier its own
/// field.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    let Some(s) = &e.syntax else { return };
    let first = s.value.split_whitespace().next().unwrap_or("");
    // What is wrong with the line, each with its evidence.
    let mut faults: Vec<(String, Vec<(String, String)>)> = Vec::new();
    if !first.eq_ignore_ascii_case(&e.name) && !ds_rename(c, e, first) {
        faults.push((
            format!("the syntax names {first}, but the entry is {}", e.name),
            vec![("entry".into(), format!("line {}: {}", e.line, e.name))],
        ));
    }
    let re = Regex::new(r"\[(\w+):(\w+)\]").expect("valid");
    for m in re.captures_iter(&s.value) {
        let (modifier, field) = (&m[1], &m[2]);
        if !modifier.eq_ignore_ascii_case(field) {
            faults.push((
                format!(
                    "the modifier {} sets field {}, not {field}",
                    lower(modifier),
                    modifier.to_ascii_uppercase()
                ),
                vec![("modifier".into(), format!("[{modifier}:{field}]"))],
            ));
        }
    }
    if super::is_ds(e) {
        match operand_fault(c, e, &s.value) {
            Ok(Some((truth, ev))) => faults.push((truth, vec![("operands".into(), ev)])),
            Ok(None) => {}
            Err(r) => c.skip(K, s.line, Some(&e.name), r),
        }
    } else if super::is_buffer(e) {
        match super::syntax_buffer::order_fault(&s.value) {
            Ok(Some(truth)) => faults.push((
                truth,
                vec![(
                    "llvm-mc 22".into(),
                    "buffer_load_dword v5, v1, s[8:11], s3 offen (vdata, vaddr, srsrc, soffset)"
                        .into(),
                )],
            )),
            Ok(None) => {}
            Err(r) => c.skip(K, s.line, Some(&e.name), r),
        }
    }
    if faults.is_empty() {
        c.ok(K);
    }
    for (truth, ev) in faults {
        let claim = format!("Syntax: {}", s.value);
        c.find(K, s.line, Some(&e.name), None, claim, truth, ev);
    }
}

/// A page's general syntax lines: each names DS operands only, and a line whose label says
/// which instructions it is for (`Write syntax:`, `VDST syntax:`, `Load syntax:`) has their
/// operands: a store or write has data and no VDST, a load or read a VDST.
pub(super) fn forms(c: &mut Ctx) {
    const K: &str = KIND;
    for f in c.doc.syntax_forms.clone() {
        let (label, form) = f.value.split_once(':').unwrap_or(("", &f.value));
        let label = label.trim().to_ascii_lowercase();
        if let Some(truth) = form_order_fault(form) {
            let ev = vec![(
                "llvm-mc 22".into(),
                "ds_write2_b32 v1, v2, v3 (ADDR, VDATA0, VDATA1); ds_read_b32 v5, v1 (VDST, ADDR); buffer_load_dword v5, v1, s[8:11], s3 offen (VDATA, VADDR, SRSRC, SOFFSET)".into(),
            )];
            c.find(K, f.line, None, None, f.value.clone(), truth, ev);
            continue;
        }
        let ops = operands(form.trim());
        let roles: Option<Vec<_>> = ops.iter().map(|t| role(t).map(|r| r.0)).collect();
        let Some(roles) = roles else {
            c.skip(
                K,
                f.line,
                None,
                format!("`{}` names an operand of no DS role", form.trim()),
            );
            continue;
        };
        let has = |r: &str| roles.contains(&r);
        let data = has("DATA0") || has("DATA1");
        let fault = if ["write", "store"].iter().any(|w| label.contains(w))
            && (has("VDST") || !data)
        {
            Some("a DS write or store returns no VDST and takes its data in VDATA0 (and VDATA1): the operands given are those of a load (`VDST, ADDR`)")
        } else if ["vdst", "read", "load"].iter().any(|w| label.contains(w)) && !has("VDST") {
            Some("a DS read or load writes VDST: the operands given have none")
        } else {
            None
        };
        match fault {
            Some(truth) => c.find(
                K,
                f.line,
                None,
                None,
                f.value.clone(),
                truth.to_string(),
                vec![(
                    "llvm-mc 22".into(),
                    "ds_write_b32 v1, v2 (ADDR, VDATA0); ds_read_b32 v5, v1 (VDST, ADDR)".into(),
                )],
            ),
            None => c.ok(K),
        }
    }
}

/// A general syntax line's operands out of LLVM 22's order: DS `VDST, ADDR, VDATA0,
/// VDATA1`; MUBUF `VDATA, VADDR, SRSRC, SOFFSET` (optional operands in `[..]` kept in
/// place). `None` when in order or not all read (the line's other checks then decide).
fn form_order_fault(form: &str) -> Option<String> {
    if form.contains("SRSRC") {
        let plain = form.replace(['[', ']'], "");
        return super::syntax_buffer::order_fault(plain.trim())
            .ok()
            .flatten();
    }
    let rank = |r: &str| {
        ["VDST", "ADDR", "DATA0", "DATA1"]
            .iter()
            .position(|x| *x == r)
    };
    let ranks: Option<Vec<usize>> = operands(form.trim())
        .iter()
        .map(|t| role(t).and_then(|r| rank(r.0)))
        .collect();
    let ranks = ranks?;
    if ranks.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    Some("LLVM 22 orders DS operands VDST, ADDR, VDATA0, VDATA1; this line does not".into())
}

/// Whether `other` is a name AMD gives the entry's DS instruction in another generation (the
/// RDNA 3 renames: `ds_write_b32` for `ds_store_b32`, `ds_read2_b32` for `ds_load_2addr_b32`,
/// which LLVM 22 still assembles as aliases): the mnemonic some generation has at the entry's
/// opcode. `ds_cmpst*` / `ds_cmpstore*` are not: their data operands are swapped, and LLVM
/// gives no alias (the alias check shows the difference).
fn ds_rename(c: &Ctx, e: &Entry, other: &str) -> bool {
    let (name, other) = (lower(&e.name), lower(other));
    if !super::is_ds(e) || name.contains("cmpst") || other.contains("cmpst") {
        return false;
    }
    let Some(op) = c
        .first_target(e, Family::Ds)
        .and_then(|t| ds_lookup(t, &name))
        .map(|x| x.0)
    else {
        return false;
    };
    Target::ALL
        .into_iter()
        .any(|t| ds_by_opcode(t, op).is_some_and(|(n, _)| n == other))
}
