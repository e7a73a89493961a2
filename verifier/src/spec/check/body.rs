//! The document's operation read into the semantics IR: AMD pseudocode through the semantics
//! parser (after rewriting AMD forms it writes otherwise), CLRX C-like listings through
//! [`clike`]. A text outside what they read is an unchecked pcode-vs-semantics item.

use super::{is_buffer, lower, pcode_syntax, pcode_vs_semantics, Ctx};
use crate::spec::{clike, docpcode, Entry, Notation, Pcode};
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, MubufClass};
use gcnsmt_semantics::ir::Stmt;
use gcnsmt_semantics::parse::parse_stmts;

/// An entry's operation, read on first use (`None` inside: absent, or outside the readers).
#[derive(Default)]
pub(super) struct Body(Option<Option<Vec<Stmt>>>);

impl Body {
    /// The entry's operation in the IR; the first call reads it (and records why it does not
    /// read, as an unchecked item).
    pub(super) fn get(&mut self, c: &mut Ctx, e: &Entry) -> Option<&[Stmt]> {
        if self.0.is_none() {
            self.0 = Some(doc_body(c, e));
        }
        self.0.as_ref().and_then(|b| b.as_deref())
    }
}

/// The document's operation parsed into the IR, or `None` (with an unchecked item) when it
/// is absent or outside what the front ends read.
fn doc_body(c: &mut Ctx, e: &Entry) -> Option<Vec<Stmt>> {
    let p = e.pcode.as_ref()?;
    let r = match p.notation {
        Notation::Amd => amd(c, e, p),
        Notation::CLike if is_buffer(e) => {
            let name = lower(&e.name);
            let shape = c
                .targets(e)
                .into_iter()
                .find_map(|t| mubuf_lookup(t, &name).map(|x| x.1));
            match shape {
                None => Err((
                    p.line,
                    format!(
                        "{} is not a buffer instruction of the generations the document covers (LLVM 22)",
                        e.name
                    ),
                )),
                Some(sh) => clike::parse_buffer(
                    &p.text,
                    32 * sh.vdata.max(1) as u32,
                    sh.class == MubufClass::Atomic,
                )
                .map_err(|u| {
                    (
                        p.line + u.line,
                        format!("C-like listing outside the front end: {}", u.reason),
                    )
                }),
            }
        }
        Notation::CLike => clike::parse(&p.text).map_err(|u| {
            (
                p.line + u.line,
                format!("C-like listing outside the front end: {}", u.reason),
            )
        }),
    };
    match r {
        Ok(s) => Some(s),
        Err((line, reason)) => {
            c.skip(pcode_vs_semantics::KIND, line, Some(&e.name), reason);
            None
        }
    }
}

/// AMD pseudocode: read by the document dialect's parser (a text cut short is a pcode-syntax
/// finding; one it cannot read is unchecked), then lowered
/// into the semantics notation and parsed by the semantics parser. The error carries the
/// document line.
fn amd(c: &mut Ctx, e: &Entry, p: &Pcode) -> Result<Vec<Stmt>, (u32, String)> {
    let at = |l: u32| p.line + l.saturating_sub(1);
    let doc = match docpcode::parse(&p.text) {
        Ok(d) => d,
        Err(err) => {
            let line = at(err.line);
            return Err((
                line,
                format!("pseudocode outside the document grammar: {}", err.msg),
            ));
        }
    };
    pcode_syntax::notes(c, e, p, &doc.notes);
    let low = docpcode::lower(&doc.stmts).map_err(|o| {
        (
            at(o.line),
            format!(
                "pseudocode read, but outside the semantics IR: {}",
                o.reason
            ),
        )
    })?;
    parse_stmts(&low.text).map_err(|err| {
        let l = low.lines.get(err.line as usize - 1).copied().unwrap_or(1);
        (
            at(l),
            format!(
                "pseudocode read, but its lowering is outside the semantics parser: {} (lowered: `{}`)",
                err.msg,
                low.text.replace('\n', " ")
            ),
        )
    })
}
