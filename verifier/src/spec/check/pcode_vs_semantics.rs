//! pcode-vs-semantics: the document's operation against gcnsmt's semantics of the
//! instruction, on every target of the document that has it ([`crate::spec::equiv`]).

use super::{doc_side, family, has, lower, one_line, semantics, Body, Ctx};
use crate::spec::equiv::{compare, Family, Outcome, Side};
use crate::spec::{Entry, Notation, Pcode};
use gcnsmt_semantics::target::Target;
use regex::Regex;

pub(super) const KIND: &str = "pcode-vs-semantics";

/// Whether a text adds, subtracts or multiplies a concatenation (`{ OFFSET1, OFFSET0 } +
/// M0[15 : 0]`): the sum's width, and so whether it wraps at 16 bits, is not defined there.
fn concat_arith(text: &str) -> bool {
    Regex::new(r"\}\s*[-+*]|[-+*]\s*\{")
        .expect("valid")
        .is_match(text)
}

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
    if fam == Family::Ds && p.notation == Notation::Amd && concat_arith(&p.text) {
        return skip(
            c,
            "arithmetic on a concatenation `{..}`: AMD's notation does not say at which width it wraps".into(),
        );
    }
    let (entry_name, def) = match semantics(fam, e) {
        Ok(x) => x,
        Err(r) => return skip(c, r),
    };
    let name = lower(&e.name);
    let doc = doc_side(fam, "document", body, p);
    let ours = Side::ours(&entry_name, def);
    let timeout = c.opts.timeout;
    over_targets(
        c,
        e,
        p,
        &entry_name,
        |t| has(fam, t, &name),
        |t| compare(fam, &name, t, &doc, &ours, timeout),
    );
}

/// Compare on every target of the document that has the instruction (`has`): an `ok` per
/// agreeing target, a skip per undecided one, one finding for the targets that differ (with
/// the first one's evidence), and a skip when no target has the instruction.
fn over_targets(
    c: &mut Ctx,
    e: &Entry,
    p: &Pcode,
    entry_name: &str,
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
        c.find(
            K,
            p.line,
            Some(&e.name),
            Some(t),
            format!("operation: {}", one_line(&p.text)),
            format!("the operation differs from gcnsmt's semantics of {entry_name} on {t}"),
            ev,
        );
    }
}
