//! syntax: the syntax line names the entry's own mnemonic, each modifier its own field.

use super::{lower, Body, Ctx};
use crate::spec::Entry;
use regex::Regex;

pub(super) const KIND: &str = "syntax";

/// The syntax line names the entry's own mnemonic, and each `[name:FIELD]` modifier its own
/// field.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    let Some(s) = &e.syntax else { return };
    let first = s.value.split_whitespace().next().unwrap_or("");
    // What is wrong with the line, each with its evidence.
    let mut faults: Vec<(String, Vec<(String, String)>)> = Vec::new();
    if !first.eq_ignore_ascii_case(&e.name) {
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
    if faults.is_empty() {
        c.ok(K);
    }
    for (truth, ev) in faults {
        let claim = format!("Syntax: {}", s.value);
        c.find(K, s.line, Some(&e.name), None, claim, truth, ev);
    }
}
