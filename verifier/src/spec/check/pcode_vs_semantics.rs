//! pcode-vs-semantics: the document's operation against gcnsmt's semantics of the
//! instruction, on every target of the document that has it ([`crate::spec::equiv`]).

use super::{doc_side, family, has, lower, one_line, semantics, Body, Ctx};
use crate::spec::equiv::{compare, Outcome, Side};
use crate::spec::{Entry, Format, Notation, Pcode};
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::print::stmts_to_string;
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "pcode-vs-semantics";

pub(super) fn check(c: &mut Ctx, e: &Entry, body: &mut Body) {
    let Some(p) = &e.pcode else { return };
    let Some(body) = body.get(c, e) else { return };
    let skip = |c: &mut Ctx, r: String| c.skip(KIND, p.line, Some(&e.name), r);
    let Some(fam) = family(e) else {
        return skip(
            c,
            "gcnsmt has no semantics for this encoding family yet".into(),
        );
    };
    let (entry_name, def) = match semantics(fam, e) {
        Ok(x) => x,
        Err(r) => return skip(c, r),
    };
    let name = lower(&e.name);
    let doc = doc_side(fam, "document", body, p);
    let ours = Side::ours(&entry_name, def);
    let timeout = c.opts.timeout;
    let verdict = verdict(&entry_name, def, p);
    over_targets(
        c,
        e,
        p,
        &verdict,
        |t| has(fam, t, &name),
        |t| compare(fam, &name, t, &doc, &ours, timeout),
    );
}

/// What a difference means: which side is wrong and the right formula, with its sources.
struct Verdict {
    truth: String,
    evidence: Vec<(String, String)>,
}

/// gcnsmt's semantics rest on the guides and LLVM quoted in the entry's comments; the one
/// reading where AMD's notation leaves the meaning open (arithmetic on a concatenation, whose
/// width the text does not fix) is said to be that instead of a fault of either side.
fn verdict(entry: &str, def: &Def, p: &Pcode) -> Verdict {
    let formula = one_line(&stmts_to_string(&def.body));
    let mut evidence = vec![("right formula (gcnsmt)".to_string(), formula)];
    if !def.comments.is_empty() {
        evidence.push(("gcnsmt's sources".into(), def.comments.join(" ")));
    }
    let concat = regex::Regex::new(r"\}\s*[-+*]|[-+*]\s*\{").expect("valid");
    let truth = if p.notation == Notation::Amd && concat.is_match(&p.text) {
        format!("a notation ambiguity, not a fault of either side: the document's `{{..}} + ..`, at the width its operands give, wraps where gcnsmt's {entry} adds at 32 bits (docs/spec-findings.md)")
    } else {
        format!("the document's operation is wrong: it differs from {entry}, whose semantics rest on the sources below")
    };
    Verdict { truth, evidence }
}

/// Compare on every target of the document that has the instruction (`has`): an `ok` per
/// agreeing target, a skip per undecided one, one finding for the targets that differ (with
/// the first one's evidence), and a skip when no target has the instruction.
fn over_targets(
    c: &mut Ctx,
    e: &Entry,
    p: &Pcode,
    verdict: &Verdict,
    has: impl Fn(Target) -> bool,
    mut cmp: impl FnMut(Target) -> Outcome,
) {
    const K: &str = KIND;
    let mut differs: Vec<(Target, Vec<(String, String)>)> = Vec::new();
    let mut any = false;
    for t in c.targets(e) {
        if !has(t) {
            continue;
        }
        any = true;
        match cmp(t) {
            Outcome::Same => c.ok(K),
            Outcome::Differs(ev) => differs.push((t, ev)),
            Outcome::Unknown(r) => c.skip(K, p.line, Some(&e.name), format!("{t}: {r}")),
        }
    }
    if !any {
        c.skip(
            K,
            p.line,
            Some(&e.name),
            format!(
                "{} is not an instruction of the generations the document covers (LLVM 22)",
                e.name
            ),
        );
    }
    if let Some((t, mut ev)) = differs.first().cloned() {
        if differs.len() > 1 {
            let all: Vec<&str> = differs.iter().map(|(t, _)| t.name()).collect();
            ev.insert(0, ("targets".into(), all.join(", ")));
        }
        let first = ev.iter().find(|(k, _)| k == "first difference");
        // A JSON string's lines are not the file's: its entry is one line.
        let lines_are_file_lines = c.doc.format != Format::PcodeJson;
        let line = first
            .filter(|_| lines_are_file_lines)
            .and_then(|(_, d)| writing_line(p, d))
            .unwrap_or(p.line);
        c.find(
            K,
            line,
            Some(&e.name),
            Some(t),
            format!("operation: {}", one_line(&p.text)),
            format!("{} (on {t})", verdict.truth),
            ev.into_iter().chain(verdict.evidence.clone()).collect(),
        );
    }
}

/// The line of the operation text that writes what the counterexample's first difference is
/// in (memory, or the named output), when exactly one line of the text writes it; else `None`
/// (the finding stays at the text's first line: the difference may come from any of them).
fn writing_line(p: &Pcode, first: &str) -> Option<u32> {
    let memory = first.starts_with("LDS[") || first.starts_with("MEM[");
    let output = first
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()?;
    let writes = |stmt: &str| -> bool {
        let Some(lhs) = lhs(stmt) else { return false };
        if memory {
            lhs.contains("MEM[") || lhs.starts_with('*') || lhs.starts_with("VM[")
        } else {
            let base: String = lhs
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            base == output
                || matches!(base.as_str(), "RETURN_DATA" | "VDST" | "VDATA") && {
                    matches!(output, "RETURN_DATA" | "VDST" | "VDATA")
                }
        }
    };
    let hits: Vec<usize> = p
        .text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.split(';').any(writes))
        .map(|(i, _)| i)
        .collect();
    match hits.as_slice() {
        [i] => Some(p.line + *i as u32),
        _ => None,
    }
}

/// The assigned side of a statement (`MEM[addr].u32` of `MEM[addr].u32 -= DATA.u32`), or
/// `None` when it assigns nothing (`==`, `<=`, `>=`, `!=` are comparisons).
fn lhs(stmt: &str) -> Option<&str> {
    let b = stmt.as_bytes();
    for i in 0..b.len() {
        if b[i] != b'=' {
            continue;
        }
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        if next == b'=' || matches!(prev, b'=' | b'<' | b'>' | b'!') {
            // A comparison, unless `<<=`/`>>=`.
            let shift = i >= 2 && (&b[i - 2..i] == b"<<" || &b[i - 2..i] == b">>");
            if !shift {
                return None;
            }
        }
        let end = if matches!(
            prev,
            b'+' | b'-' | b'*' | b'/' | b'&' | b'|' | b'^' | b'<' | b'>'
        ) {
            i.saturating_sub(1)
        } else {
            i
        };
        return Some(stmt[..end].trim().trim_start_matches('{').trim());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_that_writes_the_difference() {
        let p = Pcode {
            text: "addr = CalcDsAddr(ADDR.b32, 0x0);\ntmp = MEM[addr].u32;\nMEM[addr].u32 = DATA.u32 - tmp;\nRETURN_DATA.u32 = tmp".into(),
            line: 50,
            notation: Notation::Amd,
        };
        assert_eq!(
            writing_line(&p, "LDS[0x0]: document 0x01, gcnsmt 0x00"),
            Some(52)
        );
        assert_eq!(writing_line(&p, "RETURN_DATA"), Some(53));
        let two = Pcode {
            text: "MEM[a].b32 = DATA.b32;\nMEM[b].b32 = DATA2.b32".into(),
            ..p
        };
        assert_eq!(
            writing_line(&two, "LDS[0x4]: document 0x01, gcnsmt 0x00"),
            None
        );
        assert_eq!(lhs("x = a == b ? 1 : 0"), Some("x"));
        assert_eq!(lhs("if (a == b)"), None);
        assert_eq!(lhs("*V = (*V >= VDATA0) ? 0 : *V+1"), Some("*V"));
    }
}
