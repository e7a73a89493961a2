//! pcode-vs-semantics: the document's operation against gcnsmt's semantics of the
//! instruction, on every target of the document that has it ([`crate::spec::equiv`]).

use super::{doc_side, family, has, lower, one_line, semantics, Body, Ctx};
use crate::spec::equiv::{compare, Outcome, Side};
use crate::spec::{Entry, Notation, Pcode};
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
        c.find(
            K,
            p.line,
            Some(&e.name),
            Some(t),
            format!("operation: {}", one_line(&p.text)),
            format!("{} (on {t})", verdict.truth),
            ev.into_iter().chain(verdict.evidence.clone()).collect(),
        );
    }
}
