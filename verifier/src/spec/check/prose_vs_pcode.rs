//! prose-vs-pcode: an instruction's description against the page's own operation (the pass
//! is [`super::prose_vs_semantics::check`], which reads the description once for both
//! kinds). Where they differ, gcnsmt's semantics say which side is wrong; a description that
//! agrees with gcnsmt where the operation does not is left to the pcode-vs-semantics finding.

use super::prose_vs_semantics::{description_finding, Reading};
use super::{doc_side, lower, one_line, Ctx};
use crate::spec::equiv::{compare, Family, Outcome, Side};
use crate::spec::{Entry, Located, Pcode};
use gcnsmt_semantics::ir::{Def, Stmt};
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "prose-vs-pcode";

/// One description compared on target `t`.
pub(super) struct Cmp<'a> {
    pub fam: Family,
    pub t: Target,
    pub e: &'a Entry,
    pub d: &'a Located<String>,
    pub reading: &'a Reading,
}

impl Cmp<'_> {
    /// The description (`prose`) against the operation `body` of `p`; `ours` is gcnsmt's
    /// semantics entry, when it has one.
    pub(super) fn check(
        &self,
        c: &mut Ctx,
        prose: &Side,
        body: &[Stmt],
        p: &Pcode,
        ours: Option<(String, &Def)>,
    ) {
        let (fam, t, e, d) = (self.fam, self.t, self.e, self.d);
        let name = lower(&e.name);
        let timeout = c.opts.timeout;
        let doc = doc_side(fam, "operation", body, p);
        let mut ev = match compare(fam, &name, t, prose, &doc, timeout) {
            Outcome::Same => return c.ok(KIND),
            Outcome::Unknown(r) => return c.skip(KIND, d.line, Some(&e.name), format!("{t}: {r}")),
            Outcome::Differs(ev) => ev,
        };
        if let Some((en, def)) = &ours {
            let o = Side::ours(en, def);
            let verdict = match compare(fam, &name, t, &doc, &o, timeout) {
                Outcome::Same => {
                    "gcnsmt's semantics agree with the operation, not the description".to_string()
                }
                Outcome::Differs(_) => {
                    // The operation is the odd one out when the description agrees with
                    // gcnsmt: that fault is the pcode-vs-semantics finding.
                    if matches!(compare(fam, &name, t, prose, &o, timeout), Outcome::Same) {
                        return c.ok(KIND);
                    }
                    "gcnsmt's semantics differ from both (see pcode-vs-semantics)".to_string()
                }
                Outcome::Unknown(r) => {
                    format!("gcnsmt's semantics vs the operation: undecided ({r})")
                }
            };
            ev.push(("semantics".into(), verdict));
        }
        let truth = format!(
            "read as {}, which contradicts the operation `{}`",
            self.reading.said,
            one_line(&p.text)
        );
        description_finding(c, KIND, e, d, t, truth, ev);
    }
}
