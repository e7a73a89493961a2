//! operand-names: every operand the Semantics name is one the page's operand list names,
//! directly or by a naming convention. Conventions are mapped, not reported: AMD's
//! pseudocode writes `DATA`/`DATA2` for the list's `DATA0`/`DATA1` and `RETURN_DATA` for its
//! `VDST`; CLRX writes `VDATA0`/`VDATA1` (and `*V` for memory, which names no register);
//! AMD's buffer pseudocode writes `DATA`/`RETURN_DATA` for the one `VDATA` register and
//! `ADDR` for `VADDR`. A name is a finding only when the operand it stands for is missing
//! from the list (a second data operand under a one-data list) or it is in no convention.

use super::{is_buffer, Body, Ctx};
use crate::spec::Entry;
use regex::Regex;

pub(super) const KIND: &str = "operand-names";

/// The operand a name stands for under the conventions above (`None`: in no convention).
fn role(name: &str, buffer: bool) -> Option<&'static str> {
    Some(match name {
        "DATA" | "DATA0" | "VDATA" | "VDATA0" | "RETURN_DATA" | "VDST" if buffer => "VDATA",
        "DATA" | "DATA0" | "VDATA" | "VDATA0" => "the first data operand",
        "DATA1" | "DATA2" | "VDATA1" => "the second data operand",
        "VDST" | "RETURN_DATA" => "the returned value (VDST)",
        "ADDR" | "VADDR" if buffer => "the address (VADDR)",
        "ADDR" => "the address (ADDR)",
        "SRSRC" => "the resource (SRSRC)",
        "SOFFSET" => "the scalar offset (SOFFSET)",
        "SADDR" => "the scalar address (SADDR)",
        _ => return None,
    })
}

/// The operand names of the Semantics against the page's operand list.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    let Some(p) = &e.pcode else { return };
    if e.operands.is_empty() {
        return;
    }
    let buffer = is_buffer(e);
    let listed: Vec<&str> = e.operands.iter().map(|o| o.value.as_str()).collect();
    let listed_roles: Vec<&str> = listed.iter().filter_map(|n| role(n, buffer)).collect();
    let re = Regex::new(r"\b(V?DATA\d?|VDST|ADDR|VADDR|SADDR|SRSRC|SOFFSET|RETURN_DATA)\b")
        .expect("valid");
    let mut seen: Vec<&str> = Vec::new();
    for m in re.find_iter(&p.text) {
        let n = m.as_str();
        let r = role(n, buffer);
        let ok = listed.contains(&n) || r.is_some_and(|r| listed_roles.contains(&r));
        if ok || seen.contains(&n) {
            continue;
        }
        seen.push(n);
        let list_line = e.operands.first().map_or(e.line, |o| o.line);
        let why = match r {
            Some(r) => format!("by AMD's and CLRX's naming {n} is {r}, which the list lacks"),
            None => format!("{n} is in no naming convention AMD or CLRX use"),
        };
        c.find(
            KIND,
            p.line,
            Some(&e.name),
            None,
            format!(
                "Semantics name {n}: \"{}\"",
                quote(&p.text, m.start(), m.end())
            ),
            format!("the operand list names {}; {why}", listed.join(", ")),
            vec![("operand list".into(), format!("line {list_line}"))],
        );
    }
    if seen.is_empty() {
        c.ok(KIND);
    }
}

/// The statement of `text` around bytes `s..e` (between `;` or line ends), as written.
fn quote(text: &str, s: usize, e: usize) -> String {
    let start = text[..s].rfind([';', '\n']).map_or(0, |i| i + 1);
    let end = text[e..].find([';', '\n']).map_or(text.len(), |i| e + i);
    text[start..end].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    // The conventions as AMD's guides and CLRX's pages write them (hand-written table).
    #[test]
    fn conventions_map_to_one_operand() {
        assert_eq!(role("DATA2", false), role("DATA1", false));
        assert_eq!(role("VDATA0", false), role("DATA0", false));
        assert_eq!(role("RETURN_DATA", false), role("VDST", false));
        assert_eq!(role("RETURN_DATA", true), role("VDATA", true));
        assert_eq!(role("DATA3", false), None);
        assert_ne!(role("DATA1", false), role("DATA0", false));
    }

    #[test]
    fn the_quote_is_the_statement() {
        let t = "tmp = MEM[addr].u32; MEM[addr].u32 += DATA1.u32; RETURN_DATA = tmp";
        let s = t.find("DATA1").unwrap();
        assert_eq!(quote(t, s, s + 5), "MEM[addr].u32 += DATA1.u32");
    }
}
