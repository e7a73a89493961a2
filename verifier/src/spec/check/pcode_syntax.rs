//! pcode-syntax: faults of the pseudocode text itself, found while reading it in the document
//! dialect ([`crate::spec::docpcode`]): today a block the text opens and never closes (an
//! entry cut short). A text the reader cannot read at all is not a finding but an unchecked
//! pcode-vs-semantics item: the reader may be what falls short.

use super::Ctx;
use crate::spec::{Entry, Pcode};

pub(super) const KIND: &str = "pcode-syntax";

/// Report the reader's notes on `p` as findings, or count the text as checked.
pub(super) fn notes(c: &mut Ctx, e: &Entry, p: &Pcode, notes: &[(u32, String)]) {
    if notes.is_empty() {
        return c.ok(KIND);
    }
    for (l, note) in notes {
        let quoted = p
            .text
            .lines()
            .nth(*l as usize - 1)
            .unwrap_or_default()
            .to_string();
        c.find(
            KIND,
            p.line + l - 1,
            Some(&e.name),
            None,
            format!("operation: \"{quoted}\""),
            note.clone(),
            vec![(
                "last line".into(),
                p.text.lines().last().unwrap_or_default().to_string(),
            )],
        );
    }
}
