//! The document's operation read into the semantics IR: AMD pseudocode through the semantics
//! parser (after rewriting AMD forms it writes otherwise), CLRX C-like listings through
//! [`clike`]. A text outside what they read is an unchecked pcode-vs-semantics item.

use super::{is_buffer, lower, pcode_vs_semantics, Ctx};
use crate::spec::{clike, Entry, Notation};
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, MubufClass};
use gcnsmt_semantics::ir::Stmt;
use gcnsmt_semantics::parse::parse_stmts;
use regex::Regex;

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

/// `X op= Y` is AMD shorthand for `X = X op (Y)`; comment lines carry no meaning, and
/// declarations are dropped (see below).
fn desugar(text: &str) -> String {
    let re = Regex::new(r"^\s*([^=;]+?)\s*([-+|&^*])=\s*(.+?)\s*;?\s*$").expect("valid");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        // `declare x : 32'U;` only announces a variable that is assigned before use; the
        // evaluator types it at that assignment.
        .filter(|l| !l.trim_start().starts_with("declare "))
        .map(|l| match re.captures(l) {
            Some(m)
                if !l.contains("==")
                    && !l.contains("<=")
                    && !l.contains(">=")
                    && !l.contains("!=") =>
            {
                let semi = if l.trim_end().ends_with(';') { ";" } else { "" };
                format!("{} = {} {} ({}){semi}", &m[1], &m[1], &m[2], &m[3])
            }
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
/// AMD's integer casts `32'I(x)`, `16'U(x)`, `32'B(x)` as `(x).i32` etc. Float casts
/// (`64'F(x)`) convert values, which a field view does not; they are left to fail parsing.
fn int_casts(text: &str) -> String {
    let re = Regex::new(r"(\d+)'([IUB])\(").expect("valid");
    let mut out = text.to_string();
    while let Some(m) = re.captures(&out) {
        let whole = m.get(0).expect("match");
        let (w, k) = (m[1].to_string(), m[2].to_ascii_lowercase());
        let open = whole.end() - 1;
        let mut depth = 0;
        let mut close = None;
        for (i, ch) in out[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let inner = out[open + 1..close].to_string();
        out = format!(
            "{}({inner}).{k}{w}{}",
            &out[..whole.start()],
            &out[close + 1..]
        );
    }
    out
}
/// Two AMD forms the semantics parser writes otherwise: a sized literal with a suffix
/// (`24'0U`, a 24-bit zero) loses the suffix, which the width already says; `signext(x)` of
/// a signed view (`MEM[addr].i8`) is the view itself, since widening a signed value extends
/// its sign. `signext` of anything else is left to fail parsing.
fn amd_forms(text: &str) -> String {
    let sized = Regex::new(r"(\d+)'(\d+)U\b").expect("valid");
    let t = sized.replace_all(text, "$1'$2");
    let sx = Regex::new(r"signext\((MEM\[[^\]]*\]\.i\d+)\)").expect("valid");
    sx.replace_all(&t, "($1)").into_owned()
}
/// The document's operation parsed into the IR, or `None` (with an unchecked item) when it
/// is absent or outside what the front ends read.
fn doc_body(c: &mut Ctx, e: &Entry) -> Option<Vec<Stmt>> {
    let p = e.pcode.as_ref()?;
    let r = match p.notation {
        Notation::Amd => parse_stmts(&int_casts(&amd_forms(&desugar(&p.text)))).map_err(|err| {
            (
                p.line + err.line.saturating_sub(1),
                format!(
                    "pseudocode outside what the semantics parser reads: {}",
                    err.msg
                ),
            )
        }),
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
