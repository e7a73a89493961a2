//! prose-vs-semantics: an instruction's description, read by [`prose`] (DS) or
//! [`prose_buffer`] (MUBUF) into pseudocode, against gcnsmt's semantics. When the page has an
//! operation that reads, the description is held against that instead
//! ([`super::prose_vs_pcode`]).

use super::{family, lower, prose_vs_pcode, semantics, Body, Ctx};
use crate::spec::equiv::{compare, Family, Outcome, Side};
use crate::spec::{paraphrase, prose, prose_buffer, Entry, Located};
use gcnsmt_lifter::table::{ds_lookup, OffsetKind};
use gcnsmt_semantics::ir::Stmt;
use gcnsmt_semantics::parse::parse_stmts;
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "prose-vs-semantics";

/// A description read into the IR.
pub(super) struct Reading {
    pub stmts: Vec<Stmt>,
    /// What the description was read as, for the finding (`MEM = ...`, or the effect).
    pub said: String,
    /// Sentences the reader passed over, as written (listed as unchecked).
    pub unread: Vec<String>,
}

/// Read `d`, the description of `e` (of family `fam`), for target `t`; the error is the
/// reason it is left unchecked.
fn read(fam: Family, t: Target, e: &Entry, d: &Located<String>) -> Result<Reading, String> {
    let phrase = |p: String| format!("phrase outside the vocabulary: \"{p}\"");
    let mut unread = Vec::new();
    let (pcode, said) = match fam {
        Family::Ds => {
            let single = ds_lookup(t, &lower(&e.name))
                .is_some_and(|(_, shape)| shape.offset == OffsetKind::Single);
            let Some(ty) = prose::elem_type(&e.name).filter(|_| single) else {
                return Err("the reader covers single-address 32/64-bit operations only".into());
            };
            // CLRX's own vocabulary first; any other wording through the grammar.
            let r = match prose::read(&d.value, &ty) {
                Ok(r) => r,
                Err(_) => {
                    let p = paraphrase::read(&d.value, &ty)?;
                    unread = p.unread;
                    p.reading
                }
            };
            (r.pcode, format!("MEM = {}", r.new_value))
        }
        Family::Buffer => {
            let r = prose_buffer::read(&d.value).map_err(phrase)?;
            (r.pcode, r.effect)
        }
    };
    let stmts =
        parse_stmts(&pcode).map_err(|err| format!("reading does not parse: {}", err.msg))?;
    Ok(Reading {
        stmts,
        said,
        unread,
    })
}

/// The pass over an entry's description for both prose kinds.
pub(super) fn check(c: &mut Ctx, e: &Entry, body: &mut Body) {
    let Some(d) = &e.description else { return };
    let Some(fam) = family(e) else {
        return c.skip(
            KIND,
            d.line,
            Some(&e.name),
            "descriptions of this encoding family are not read yet".into(),
        );
    };
    let body = body.get(c, e);
    // Why a description is not compared at all: DS reports it as prose-vs-semantics, MUBUF
    // under the kind the comparison would have had.
    let unread = match fam {
        Family::Buffer if body.is_some() => prose_vs_pcode::KIND,
        _ => KIND,
    };
    let Some(t) = c.first_target(e, fam) else {
        return c.skip(
            unread,
            d.line,
            Some(&e.name),
            format!(
                "{} is not an instruction of the generations the document covers (LLVM 22)",
                e.name
            ),
        );
    };
    let reading = match read(fam, t, e, d) {
        Ok(r) => r,
        Err(r) => return c.skip(unread, d.line, Some(&e.name), r),
    };
    for s in &reading.unread {
        c.skip(
            unread,
            d.line,
            Some(&e.name),
            format!("sentence not read: \"{s}\""),
        );
    }
    let prose = Side::text("description", &reading.stmts);
    let ours = semantics(fam, e).ok();
    if let (Some(body), Some(p)) = (body, &e.pcode) {
        let cmp = prose_vs_pcode::Cmp {
            fam,
            t,
            e,
            d,
            reading: &reading,
        };
        return cmp.check(c, &prose, body, p, ours);
    }
    let Some((en, def)) = ours else {
        return c.skip(
            KIND,
            d.line,
            Some(&e.name),
            format!("gcnsmt does not model {}", e.name),
        );
    };
    let o = Side::ours(&en, def);
    let name = lower(&e.name);
    match compare(fam, &name, t, &prose, &o, c.opts.timeout) {
        Outcome::Same => c.ok(KIND),
        Outcome::Unknown(r) => c.skip(KIND, d.line, Some(&e.name), format!("{t}: {r}")),
        Outcome::Differs(ev) => {
            let truth = match fam {
                Family::Ds => format!(
                    "read as {}, which differs from gcnsmt's semantics of {en}",
                    reading.said
                ),
                Family::Buffer => format!(
                    "read as {}, which contradicts gcnsmt's semantics of {}",
                    reading.said, e.name
                ),
            };
            description_finding(c, KIND, e, d, t, truth, ev)
        }
    }
}

/// A finding of `kind` against the description `d` of `e` on `t`.
pub(super) fn description_finding(
    c: &mut Ctx,
    kind: &'static str,
    e: &Entry,
    d: &Located<String>,
    t: Target,
    truth: String,
    ev: Vec<(String, String)>,
) {
    let claim = format!("description: \"{}\"", d.value);
    c.find(kind, d.line, Some(&e.name), Some(t), claim, truth, ev);
}
