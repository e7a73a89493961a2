//! `gcnsmt vectors --check FILE`: run every vector of a vector file on the current semantics
//! and compare with its expected values. With `GCNSMT_PCODE_DIR` naming mutated semantics
//! files this is the mutation measure of the vectors (`scripts/vector_kill.py`): a vector
//! whose expected values the mutant does not reproduce kills it. No solver query is run.

use super::locate::{self, Step};
use super::stored::{self, Bad, Stored};
use crate::check::{replay_inputs, Options, Witness};
use gcnsmt_semantics::eval::AddrSpace;
use gcnsmt_semantics::target::Target;
use serde_json::Value;
use std::collections::BTreeMap;

/// The differences between a vector's expected values and a run, as text (empty: none).
fn differences(s: &Stored, got: &Witness) -> Vec<String> {
    let mut out = Vec::new();
    if got.undefined != s.undefined {
        out.push(format!(
            "undefined: {} (expected {})",
            got.undefined, s.undefined
        ));
    }
    let want: BTreeMap<&str, u32> = s.regs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let have: BTreeMap<&str, u32> = got.regs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    for (n, w) in &want {
        match have.get(n) {
            Some(h) if h == w => {}
            Some(h) => out.push(format!("{n} = {h:#x} (expected {w:#x})")),
            None => out.push(format!("{n} not written (expected {w:#x})")),
        }
    }
    // The file lists every register the run writes: one it leaves out is a difference too.
    for (n, h) in have.iter().filter(|(n, _)| !want.contains_key(*n)) {
        out.push(format!("{n} = {h:#x} (not among the expected registers)"));
    }
    for sp in AddrSpace::ALL {
        let init: BTreeMap<u64, u8> = s.mem[sp].iter().copied().collect();
        let want: BTreeMap<u64, u8> = s.mem_out[sp].iter().copied().collect();
        let have: BTreeMap<u64, u8> = got.mem_out[sp].iter().copied().collect();
        let at = |m: &BTreeMap<u64, u8>, a: &u64| m.get(a).or(init.get(a)).copied().unwrap_or(0);
        for a in want.keys().chain(have.keys()) {
            let (w, h) = (at(&want, a), at(&have, a));
            if w != h {
                out.push(format!(
                    "{}[{a:#x}] = {h:#04x} (expected {w:#04x})",
                    sp.key()
                ));
                break;
            }
        }
    }
    out
}

/// Why a file is not a vector file: the 1-based line and column of the field at fault (or
/// of the JSON syntax error) and a message naming the field.
pub type FileError = (usize, usize, String);

/// Check the vectors of `text` (a vector file) whose mnemonic or semantics entry is in `only`
/// (upper or lower case; all when empty). Returns (vectors checked, one line per failing vector).
///
/// Errors: the file is not a vector file (its first problem: not JSON, a missing field, an
/// unknown setting or value, an instruction the target's assembler rejects), or no vector is
/// of `only`.
pub fn check_text(text: &str, only: &[String]) -> Result<(usize, Vec<String>), FileError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        (
            e.line().max(1),
            e.column().max(1),
            format!("not JSON: {msg}"),
        )
    })?;
    check_doc(&doc, only).map_err(|(path, msg)| {
        let (line, col) = locate::locate(text, &path);
        (line, col, msg)
    })
}

fn key(k: &str) -> Vec<Step> {
    vec![Step::Key(k.into())]
}

fn in_vector(i: usize, k: &str) -> Vec<Step> {
    vec![
        Step::Key("vectors".into()),
        Step::Index(i),
        Step::Key(k.into()),
    ]
}

/// A setting of a vector that `target` does not have (the checks of `verify --set`).
fn bad_setting(target: Target, settings: &[(String, String)]) -> Option<String> {
    let mut s = gcnsmt_semantics::settings::Settings::default_for(target);
    settings.iter().find_map(|(k, v)| s.set(target, k, v).err())
}

fn check_doc(doc: &Value, only: &[String]) -> Result<(usize, Vec<String>), Bad> {
    if doc.get("schema").and_then(Value::as_str) != Some(super::emit::SCHEMA) {
        let msg = format!(
            "not a `{}` vector file (field `schema`)",
            super::emit::SCHEMA
        );
        return Err((key("schema"), msg));
    }
    let target = doc
        .get("target")
        .and_then(Value::as_str)
        .and_then(Target::parse)
        .ok_or((
            key("target"),
            "field `target`: not a known target".to_string(),
        ))?;
    let list = doc
        .get("vectors")
        .and_then(Value::as_array)
        .ok_or((key("vectors"), "field `vectors`: not a list".to_string()))?;
    let only: Vec<String> = only.iter().map(|n| n.to_ascii_lowercase()).collect();
    let mut n = 0;
    let mut bad = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let s: Stored = stored::stored(v, i)?;
        if let Some(e) = bad_setting(target, &s.settings) {
            return Err((
                in_vector(i, "settings"),
                format!("vector {i} ({}): {e}", s.id),
            ));
        }
        let bad_asm = |e: String| {
            (
                in_vector(i, "asm"),
                format!("vector {i} ({}): {}: {e}", s.id, s.asm),
            )
        };
        // The target's assembler first: an instruction it rejects is a bad file, not a
        // vector whose run differs.
        gcnsmt_lifter::parse_any(target, &s.asm).map_err(|e| bad_asm(e.to_string()))?;
        let rule = super::rule_for(&s.asm).map_err(bad_asm)?;
        let opts = Options {
            settings: s.settings.clone(),
            ..Options::default()
        };
        // An input wider than its slot is a bad file, not a value to truncate.
        if let Ok(widths) = crate::check::input_widths(&rule, target, &opts) {
            stored::check_widths(&s, i, &widths)?;
        }
        if !only.is_empty() && !only.contains(&s.mnemonic) && !only.contains(&s.entry) {
            continue;
        }
        n += 1;
        let got = replay_inputs(&rule, target, &opts, &s.inputs, &s.mem);
        match got {
            Ok(w) => {
                let d = differences(&s, &w);
                if !d.is_empty() {
                    bad.push(format!("{}: {}: {}", s.id, s.asm, d.join(", ")));
                }
            }
            Err(e) => bad.push(format!("{}: {}: {e}", s.id, s.asm)),
        }
    }
    if n == 0 && !only.is_empty() {
        let msg = format!("no vector of {} in the file", only.join(", "));
        return Err((Vec::new(), msg));
    }
    Ok((n, bad))
}
