//! operand-names: every operand the Semantics name is one the page's operand list names
//! (`RETURN_DATA` is the list's `VDST`). A Semantics that names `DATA2` while the list names
//! `DATA0`/`DATA1` leaves a reader to guess which register it means.

use super::{Body, Ctx};
use crate::spec::Entry;
use regex::Regex;

pub(super) const KIND: &str = "operand-names";

/// What AMD's pseudocode means by a name the list lacks, and the list's name for it when
/// the list has one (`DATA2` is the second data operand, the list's `DATA1`).
fn meaning(name: &str, listed: &[&str]) -> String {
    let (what, list_name) = match name {
        "DATA" | "VDATA" | "DATA0" => ("the first data operand", "DATA0"),
        "DATA2" | "DATA1" => ("the second data operand", "DATA1"),
        _ => return "an operand the list does not give".into(),
    };
    if listed.contains(&list_name) {
        format!("AMD's pseudocode uses it for {what}, the list's {list_name}")
    } else {
        format!("AMD's pseudocode uses it for {what}")
    }
}

/// The operand names of the Semantics against the page's operand list.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    let Some(p) = &e.pcode else { return };
    if e.operands.is_empty() {
        return;
    }
    let listed: Vec<&str> = e.operands.iter().map(|o| o.value.as_str()).collect();
    let re = Regex::new(r"\b(V?DATA\d?|VDST|ADDR|VADDR|SADDR|SRSRC|SOFFSET|RETURN_DATA)\b")
        .expect("valid");
    let mut seen: Vec<&str> = Vec::new();
    for m in re.find_iter(&p.text) {
        let n = m.as_str();
        let ok = listed.contains(&n) || n == "RETURN_DATA" && listed.contains(&"VDST");
        if ok || seen.contains(&n) {
            continue;
        }
        seen.push(n);
        let list_line = e.operands.first().map_or(e.line, |o| o.line);
        c.find(
            KIND,
            p.line,
            Some(&e.name),
            None,
            format!("Semantics name {n}"),
            format!(
                "the operand list names {}; {n} is none of them ({})",
                listed.join(", "),
                meaning(n, &listed)
            ),
            vec![("operand list".into(), format!("line {list_line}"))],
        );
    }
    if seen.is_empty() {
        c.ok(KIND);
    }
}
