//! `gcnsmt vectors --check FILE`: run every vector of a vector file on the current semantics
//! and compare with its expected values. With `GCNSMT_PCODE_DIR` naming mutated semantics
//! files this is the mutation measure of the vectors (`scripts/vector_kill.py`): a vector
//! whose expected values the mutant does not reproduce kills it. No solver query is run.

use crate::check::{replay_inputs, Options, Witness};
use gcnsmt_semantics::eval::{AddrSpace, PerSpace};
use gcnsmt_semantics::target::Target;
use serde_json::Value;
use std::collections::BTreeMap;

/// A vector as read back from a file.
struct Stored {
    id: String,
    asm: String,
    mnemonic: String,
    entry: String,
    settings: Vec<(String, String)>,
    inputs: Vec<(String, u128)>,
    mem: PerSpace<Vec<(u64, u8)>>,
    regs: Vec<(String, u32)>,
    mem_out: PerSpace<Vec<(u64, u8)>>,
    undefined: bool,
}

fn num(v: &Value) -> Option<u128> {
    match v {
        Value::String(s) => u128::from_str_radix(s.strip_prefix("0x")?, 16).ok(),
        Value::Number(n) => n.as_u64().map(u128::from),
        _ => None,
    }
}

fn bytes(v: &Value) -> Option<PerSpace<Vec<(u64, u8)>>> {
    let mut out: PerSpace<Vec<(u64, u8)>> = PerSpace::default();
    for (k, pairs) in v.as_object()? {
        let s = AddrSpace::ALL.into_iter().find(|s| s.key() == k)?;
        for p in pairs.as_array()? {
            let a = p.get(0)?.as_u64()?;
            let b = u8::try_from(p.get(1)?.as_u64()?).ok()?;
            out[s].push((a, b));
        }
    }
    Some(out)
}

fn pairs<T>(v: &Value, f: impl Fn(u128) -> Option<T>) -> Option<Vec<(String, T)>> {
    v.as_object()?
        .iter()
        .map(|(k, x)| Some((k.clone(), f(num(x)?)?)))
        .collect()
}

fn stored(v: &Value) -> Option<Stored> {
    let e = v.get("expected")?;
    Some(Stored {
        id: v.get("id")?.as_str()?.to_string(),
        asm: v.get("asm")?.as_str()?.to_string(),
        mnemonic: v.get("mnemonic")?.as_str()?.to_string(),
        entry: v.get("entry")?.as_str()?.to_ascii_lowercase(),
        settings: v
            .get("settings")?
            .as_object()?
            .iter()
            .map(|(k, x)| Some((k.clone(), x.as_str()?.to_string())))
            .collect::<Option<_>>()?,
        inputs: pairs(v.get("inputs")?, Some)?,
        mem: bytes(v.get("memory")?)?,
        regs: pairs(e.get("registers")?, |x| u32::try_from(x).ok())?,
        mem_out: bytes(e.get("memory")?)?,
        undefined: e.get("undefined")?.as_bool()?,
    })
}

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

/// Why a file is not a vector file: 1-based line and column (1:1 unless a JSON syntax error
/// points elsewhere) and a message.
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
    check_doc(&doc, only).map_err(|e| (1, 1, e))
}

/// A setting of a vector that `target` does not have (the checks of `verify --set`).
fn bad_setting(target: Target, settings: &[(String, String)]) -> Option<String> {
    let mut s = gcnsmt_semantics::settings::Settings::default_for(target);
    settings.iter().find_map(|(k, v)| s.set(target, k, v).err())
}

fn check_doc(doc: &Value, only: &[String]) -> Result<(usize, Vec<String>), String> {
    if doc.get("schema").and_then(Value::as_str) != Some(super::emit::SCHEMA) {
        return Err(format!("not a `{}` vector file", super::emit::SCHEMA));
    }
    let target = doc
        .get("target")
        .and_then(Value::as_str)
        .and_then(Target::parse)
        .ok_or("no known `target`")?;
    let list = doc
        .get("vectors")
        .and_then(Value::as_array)
        .ok_or("no `vectors` list")?;
    let only: Vec<String> = only.iter().map(|n| n.to_ascii_lowercase()).collect();
    let mut n = 0;
    let mut bad = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let s = stored(v).ok_or_else(|| format!("vector {i}: missing or malformed fields"))?;
        if let Some(e) = bad_setting(target, &s.settings) {
            return Err(format!("vector {i} ({}): {e}", s.id));
        }
        let bad_asm = |e: String| format!("vector {i} ({}): {}: {e}", s.id, s.asm);
        // The target's assembler first: an instruction it rejects is a bad file, not a
        // vector whose run differs.
        gcnsmt_lifter::parse_any(target, &s.asm).map_err(|e| bad_asm(e.to_string()))?;
        let rule = super::rule_for(&s.asm).map_err(bad_asm)?;
        if !only.is_empty() && !only.contains(&s.mnemonic) && !only.contains(&s.entry) {
            continue;
        }
        n += 1;
        let opts = Options {
            settings: s.settings.clone(),
            ..Options::default()
        };
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
        return Err(format!("no vector of {} in the file", only.join(", ")));
    }
    Ok((n, bad))
}
