//! The checks `spec-check` runs over a [`Doc`]. Ground truth is gcnsmt's own: the semantics
//! library (`semantics/pcode/`), the per-target opcode tables and layouts of the lifter
//! (from llvm-mc 22), and its assembler/encoder (byte-exact with llvm-mc 22).

use super::buffer_equiv::compare_buffer;
use super::equiv::{compare, Outcome, Side};
use super::{
    clike, prose, prose_buffer, Doc, Entry, Finding, Format, Notation, Options, Report, Unchecked,
};
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::{ds_by_opcode, ds_lookup, OffsetKind};
use gcnsmt_lifter::{encode_any, parse_any};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::{Def, Stmt};
use gcnsmt_semantics::parse::parse_stmts;
use gcnsmt_semantics::target::{DsLayout, Target};
use regex::Regex;

/// Every check kind, in report order.
pub const KINDS: &[&str] = &[
    "pcode-vs-semantics",
    "prose-vs-pcode",
    "prose-vs-semantics",
    "opcode-table",
    "opcode",
    "syntax",
    "layout",
    "identifier",
    "size",
    "alias",
    "example",
];

struct Ctx<'a> {
    doc: &'a Doc,
    opts: &'a Options,
    report: &'a mut Report,
}

impl Ctx<'_> {
    fn skip(&mut self, kind: &'static str, line: u32, entry: Option<&str>, reason: String) {
        self.report.skip(Unchecked {
            kind,
            file: self.doc.file.clone(),
            line,
            entry: entry.map(str::to_string),
            reason,
        });
    }
    fn ok(&mut self, kind: &'static str) {
        let f = self.doc.file.clone();
        self.report.checked(&f, kind);
    }
    #[allow(clippy::too_many_arguments)]
    fn find(
        &mut self,
        kind: &'static str,
        line: u32,
        entry: Option<&str>,
        target: Option<Target>,
        claim: String,
        truth: String,
        evidence: Vec<(String, String)>,
    ) {
        self.report.find(Finding {
            kind,
            file: self.doc.file.clone(),
            line,
            entry: entry.map(str::to_string),
            target,
            claim,
            truth,
            evidence,
        });
    }
    /// The targets to check an entry on: its own generations (or the document's), limited to
    /// `--target` when given.
    fn targets(&self, e: &Entry) -> Vec<Target> {
        let own = if e.gens.is_empty() {
            &self.doc.gens
        } else {
            &e.gens
        };
        own.iter()
            .copied()
            .filter(|t| {
                self.opts
                    .targets
                    .as_ref()
                    .is_none_or(|f| f.contains(t) || self.doc.format == Format::PcodeJson)
            })
            .collect()
    }
}

/// Run every check on one document.
pub fn check_doc(doc: &Doc, opts: &Options, report: &mut Report) {
    for u in &doc.unreadable {
        report.skip(u.clone());
    }
    let mut c = Ctx { doc, opts, report };
    layout_table(&mut c);
    opcode_table(&mut c);
    for e in &doc.entries {
        entry_opcode(&mut c, e);
        syntax(&mut c, e);
        identifier(&mut c, e);
        sizes(&mut c, e);
        let stmts = doc_body(&mut c, e);
        pcode_vs_semantics(&mut c, e, stmts.as_deref());
        prose_check(&mut c, e, stmts.as_deref());
        aliases(&mut c, e, stmts.as_deref());
        example(&mut c, e);
    }
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
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
                    sh.class == gcnsmt_lifter::mubuf_table::MubufClass::Atomic,
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
            c.skip("pcode-vs-semantics", line, Some(&e.name), reason);
            None
        }
    }
}

/// Whether a text adds, subtracts or multiplies a concatenation (`{ OFFSET1, OFFSET0 } +
/// M0[15 : 0]`): the sum's width, and so whether it wraps at 16 bits, is not defined there.
fn concat_arith(text: &str) -> bool {
    Regex::new(r"\}\s*[-+*]|[-+*]\s*\{")
        .expect("valid")
        .is_match(text)
}

fn effective(p: &super::Pcode) -> bool {
    p.notation == Notation::Amd
        && !p.text.contains("CalcDsAddr")
        && !p.text.contains("OFFSET")
        && !p.text.contains("offset")
}

fn is_ds(e: &Entry) -> bool {
    e.format.as_ref().is_none_or(|f| f.value == "DS") && lower(&e.name).starts_with("ds_")
}

fn pcode_vs_semantics(c: &mut Ctx, e: &Entry, body: Option<&[Stmt]>) {
    const K: &str = "pcode-vs-semantics";
    let Some(p) = &e.pcode else { return };
    let Some(body) = body else { return };
    if is_buffer(e) {
        buffer_pcode_vs_semantics(c, e, p, body);
        return;
    }
    if !is_ds(e) {
        c.skip(
            K,
            p.line,
            Some(&e.name),
            "gcnsmt has no semantics for this encoding family yet".into(),
        );
        return;
    }
    if p.notation == Notation::Amd && concat_arith(&p.text) {
        c.skip(
            K,
            p.line,
            Some(&e.name),
            "arithmetic on a concatenation `{..}`: AMD's notation does not say at which width it wraps".into(),
        );
        return;
    }
    let name = lower(&e.name);
    let Some((entry_name, def)) = ds_semantics(&name) else {
        c.skip(
            K,
            p.line,
            Some(&e.name),
            format!(
                "gcnsmt does not model {} (see README, \"Not modelled yet\")",
                e.name
            ),
        );
        return;
    };
    let aliases = def.aliases_for(&entry_name).unwrap_or(&[]);
    let doc = Side {
        label: "document",
        body,
        aliases: &[],
        addr_is_effective: effective(p),
        dword: p.notation == Notation::CLike,
    };
    let ours = Side {
        label: "gcnsmt",
        body: &def.body,
        aliases,
        addr_is_effective: false,
        dword: false,
    };
    let timeout = c.opts.timeout;
    over_targets(
        c,
        e,
        p,
        &entry_name,
        |t| ds_lookup(t, &name).is_some(),
        |t| compare(&name, t, &doc, &ours, timeout),
    );
}

/// Compare on every target of the document that has the instruction (`has`): an `ok` per
/// agreeing target, a skip per undecided one, one finding for the targets that differ (with
/// the first one's evidence), and a skip when no target has the instruction.
fn over_targets(
    c: &mut Ctx,
    e: &Entry,
    p: &super::Pcode,
    entry_name: &str,
    has: impl Fn(Target) -> bool,
    mut cmp: impl FnMut(Target) -> Outcome,
) {
    const K: &str = "pcode-vs-semantics";
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

fn is_buffer(e: &Entry) -> bool {
    e.format
        .as_ref()
        .is_none_or(|f| matches!(f.value.as_str(), "MUBUF" | "VBUFFER"))
        && lower(&e.name).starts_with("buffer_")
}

/// gcnsmt's semantics entry for a buffer mnemonic and its operand aliases, or why there is
/// none (format conversions, LDS DMA and cache control are not modelled: README "Buffer
/// instructions").
fn buffer_def(name: &str) -> Result<(String, &'static Def), String> {
    let up = name.to_ascii_uppercase();
    if up.contains("FORMAT") {
        return Err(format!(
            "gcnsmt does not model {up}: format conversion (README, \"Not modelled yet\")"
        ));
    }
    match Library::builtin().get(&up) {
        Some(d) => Ok((up, d)),
        None => Err(format!(
            "gcnsmt does not model {up} (see README, \"Not modelled yet\")"
        )),
    }
}

/// The buffer form of [`pcode_vs_semantics`]: the document's body and gcnsmt's entry in a
/// buffer frame under the in-range assumption of [`buffer_equiv`](super::buffer_equiv).
fn buffer_pcode_vs_semantics(c: &mut Ctx, e: &Entry, p: &super::Pcode, body: &[Stmt]) {
    const K: &str = "pcode-vs-semantics";
    let name = lower(&e.name);
    let (entry_name, def) = match buffer_def(&name) {
        Ok(x) => x,
        Err(r) => return c.skip(K, p.line, Some(&e.name), r),
    };
    let aliases = def.aliases_for(&entry_name).unwrap_or(&[]);
    let doc = Side {
        label: "document",
        body,
        aliases: &[],
        addr_is_effective: buffer_effective(p),
        dword: false,
    };
    let ours = Side {
        label: "gcnsmt",
        body: &def.body,
        aliases,
        addr_is_effective: false,
        dword: false,
    };
    let timeout = c.opts.timeout;
    over_targets(
        c,
        e,
        p,
        &entry_name,
        |t| mubuf_lookup(t, &name).is_some(),
        |t| compare_buffer(&name, t, &doc, &ours, timeout),
    );
}

/// A MUBUF description ([`prose_buffer`]) against the page's own operation when it has one
/// that reads, else against gcnsmt's semantics. A description that agrees with gcnsmt where
/// the operation does not is left to the pcode-vs-semantics finding.
fn buffer_prose_check(c: &mut Ctx, e: &Entry, d: &super::Located<String>, body: Option<&[Stmt]>) {
    let name = lower(&e.name);
    let targets: Vec<Target> = c
        .targets(e)
        .into_iter()
        .filter(|t| mubuf_lookup(*t, &name).is_some())
        .collect();
    let kind = if body.is_some() {
        "prose-vs-pcode"
    } else {
        "prose-vs-semantics"
    };
    let Some(&t) = targets.first() else {
        return c.skip(
            kind,
            d.line,
            Some(&e.name),
            format!(
                "{} is not an instruction of the generations the document covers (LLVM 22)",
                e.name
            ),
        );
    };
    let reading = match prose_buffer::read(&d.value) {
        Ok(r) => r,
        Err(phrase) => {
            return c.skip(
                kind,
                d.line,
                Some(&e.name),
                format!("phrase outside the vocabulary: \"{phrase}\""),
            )
        }
    };
    let pstmts = match parse_stmts(&reading.pcode) {
        Ok(s) => s,
        Err(err) => {
            return c.skip(
                kind,
                d.line,
                Some(&e.name),
                format!("reading does not parse: {}", err.msg),
            )
        }
    };
    let prose_side = Side {
        label: "description",
        body: &pstmts,
        aliases: &[],
        addr_is_effective: false,
        dword: false,
    };
    let ours = buffer_def(&name).ok();
    let ours_side = ours.as_ref().map(|(en, def)| Side {
        label: "gcnsmt",
        body: &def.body,
        aliases: def.aliases_for(en).unwrap_or(&[]),
        addr_is_effective: false,
        dword: false,
    });
    let timeout = c.opts.timeout;
    let (other, what) = match (body, &e.pcode) {
        (Some(b), Some(p)) => (
            Side {
                label: "operation",
                body: b,
                aliases: &[],
                addr_is_effective: buffer_effective(p),
                dword: false,
            },
            format!("the operation `{}`", one_line(&p.text)),
        ),
        _ => match &ours_side {
            Some(o) => (
                Side {
                    label: o.label,
                    body: o.body,
                    aliases: o.aliases,
                    addr_is_effective: false,
                    dword: false,
                },
                format!("gcnsmt's semantics of {}", e.name),
            ),
            None => {
                return c.skip(
                    kind,
                    d.line,
                    Some(&e.name),
                    format!("gcnsmt does not model {}", e.name),
                )
            }
        },
    };
    match compare_buffer(&name, t, &prose_side, &other, timeout) {
        Outcome::Same => c.ok(kind),
        Outcome::Unknown(r) => c.skip(kind, d.line, Some(&e.name), format!("{t}: {r}")),
        Outcome::Differs(mut ev) => {
            if kind == "prose-vs-pcode" {
                if let Some(o) = &ours_side {
                    let verdict = match compare_buffer(&name, t, &other, o, timeout) {
                        Outcome::Same => {
                            "gcnsmt's semantics agree with the operation, not the description"
                                .to_string()
                        }
                        Outcome::Differs(_) => {
                            if matches!(
                                compare_buffer(&name, t, &prose_side, o, timeout),
                                Outcome::Same
                            ) {
                                c.ok(kind);
                                return;
                            }
                            "gcnsmt's semantics differ from both (see pcode-vs-semantics)".into()
                        }
                        Outcome::Unknown(r) => {
                            format!("gcnsmt's semantics vs the operation: undecided ({r})")
                        }
                    };
                    ev.push(("semantics".into(), verdict));
                }
            }
            c.find(
                kind,
                d.line,
                Some(&e.name),
                Some(t),
                format!("description: \"{}\"", d.value),
                format!("read as {}, which contradicts {what}", reading.effect),
                ev,
            );
        }
    }
}

/// A buffer text with `MEM[ADDR]` and no address computation: ADDR is the offset within the
/// record (VADDR + OFFSET).
fn buffer_effective(p: &super::Pcode) -> bool {
    p.notation == Notation::Amd
        && !p.text.contains("CalcBufferAddr")
        && !p.text.contains("OFFSET")
        && p.text.contains("ADDR")
}

fn one_line(s: &str) -> String {
    let t: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    t.join(" / ")
}

fn prose_check(c: &mut Ctx, e: &Entry, body: Option<&[Stmt]>) {
    let Some(d) = &e.description else { return };
    if is_buffer(e) {
        buffer_prose_check(c, e, d, body);
        return;
    }
    if !is_ds(e) {
        c.skip(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            "descriptions of this encoding family are not read yet".into(),
        );
        return;
    }
    let name = lower(&e.name);
    let targets: Vec<Target> = c
        .targets(e)
        .into_iter()
        .filter(|t| ds_lookup(*t, &name).is_some())
        .collect();
    let Some(&t) = targets.first() else {
        c.skip(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            format!(
                "{} is not an instruction of the generations the document covers (LLVM 22)",
                e.name
            ),
        );
        return;
    };
    let (_, shape) = ds_lookup(t, &name).expect("filtered");
    let Some(ty) = prose::elem_type(&e.name).filter(|_| shape.offset == OffsetKind::Single) else {
        c.skip(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            "the reader covers single-address 32/64-bit operations only".into(),
        );
        return;
    };
    let reading = match prose::read(&d.value, &ty) {
        Ok(r) => r,
        Err(phrase) => {
            c.skip(
                "prose-vs-semantics",
                d.line,
                Some(&e.name),
                format!("phrase outside the vocabulary: \"{phrase}\""),
            );
            return;
        }
    };
    let pstmts = parse_stmts(&reading.pcode).expect("the prose reader emits parseable pseudocode");
    let prose_side = Side {
        label: "description",
        body: &pstmts,
        aliases: &[],
        addr_is_effective: false,
        dword: false,
    };
    let ours = ds_semantics(&name);
    let timeout = c.opts.timeout;
    // Against the document's own operation first, then against gcnsmt's semantics.
    if let (Some(body), Some(p)) = (body, &e.pcode) {
        let doc = Side {
            label: "operation",
            body,
            aliases: &[],
            addr_is_effective: effective(p),
            dword: p.notation == Notation::CLike,
        };
        match compare(&name, t, &prose_side, &doc, timeout) {
            Outcome::Same => c.ok("prose-vs-pcode"),
            Outcome::Unknown(r) => {
                c.skip("prose-vs-pcode", d.line, Some(&e.name), format!("{t}: {r}"))
            }
            Outcome::Differs(mut ev) => {
                if let Some((en, def)) = &ours {
                    let al = def.aliases_for(en).unwrap_or(&[]);
                    let o = Side {
                        label: "gcnsmt",
                        body: &def.body,
                        aliases: al,
                        addr_is_effective: false,
                        dword: false,
                    };
                    let verdict = match compare(&name, t, &doc, &o, timeout) {
                        Outcome::Same => {
                            "gcnsmt's semantics agree with the operation, not the description"
                                .to_string()
                        }
                        Outcome::Differs(_) => {
                            // The operation is the odd one out when the description agrees
                            // with gcnsmt: that fault is the pcode-vs-semantics finding.
                            if matches!(compare(&name, t, &prose_side, &o, timeout), Outcome::Same)
                            {
                                c.ok("prose-vs-pcode");
                                return;
                            }
                            "gcnsmt's semantics differ from both (see pcode-vs-semantics)"
                                .to_string()
                        }
                        Outcome::Unknown(r) => {
                            format!("gcnsmt's semantics vs the operation: undecided ({r})")
                        }
                    };
                    ev.push(("semantics".into(), verdict));
                }
                c.find(
                    "prose-vs-pcode",
                    d.line,
                    Some(&e.name),
                    Some(t),
                    format!("description: \"{}\"", d.value),
                    format!(
                        "read as MEM = {}, which contradicts the operation `{}`",
                        reading.new_value,
                        one_line(&p.text)
                    ),
                    ev,
                );
            }
        }
        return;
    }
    let Some((en, def)) = ours else {
        c.skip(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            format!("gcnsmt does not model {}", e.name),
        );
        return;
    };
    let al = def.aliases_for(&en).unwrap_or(&[]);
    let o = Side {
        label: "gcnsmt",
        body: &def.body,
        aliases: al,
        addr_is_effective: false,
        dword: false,
    };
    match compare(&name, t, &prose_side, &o, timeout) {
        Outcome::Same => c.ok("prose-vs-semantics"),
        Outcome::Unknown(r) => c.skip(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            format!("{t}: {r}"),
        ),
        Outcome::Differs(ev) => c.find(
            "prose-vs-semantics",
            d.line,
            Some(&e.name),
            Some(t),
            format!("description: \"{}\"", d.value),
            format!(
                "read as MEM = {}, which differs from gcnsmt's semantics of {en}",
                reading.new_value
            ),
            ev,
        ),
    }
}

/// CLRX opcode table rows against gcnsmt's per-target tables (llvm-mc 22).
fn opcode_table(c: &mut Ctx) {
    const K: &str = "opcode-table";
    // Within one generation a mnemonic has one opcode.
    let mut seen: Vec<(Target, String, u32, u32)> = Vec::new();
    for row in &c.doc.table {
        for (t, name) in &row.names {
            let n = lower(name);
            if let Some((_, _, op, line)) = seen.iter().find(|(st, sn, _, _)| st == t && *sn == n) {
                let (op, line) = (*op, *line);
                if op != row.opcode {
                    c.find(
                        K,
                        row.line,
                        Some(name),
                        Some(*t),
                        format!("opcode {} ({:#x}) is {name} on {t}", row.opcode, row.opcode),
                        format!("line {line} already gives {name} opcode {op} on {t}; a mnemonic has one opcode per generation"),
                        vec![],
                    );
                }
            } else {
                seen.push((*t, n, row.opcode, row.line));
            }
        }
    }
    for row in &c.doc.table {
        // One finding per row and name, naming every generation it is wrong for.
        let mut wrong: Vec<(String, Vec<Target>, String)> = Vec::new();
        for (t, name) in &row.names {
            if c.opts.targets.as_ref().is_some_and(|f| !f.contains(t)) {
                continue;
            }
            let n = lower(name);
            let is_buf = n.starts_with("buffer_") || n.starts_with("tbuffer_");
            let at = u8::try_from(row.opcode).ok().and_then(|op| {
                if is_buf {
                    gcnsmt_lifter::mubuf_by_opcode(*t, op).map(|x| x.0)
                } else {
                    ds_by_opcode(*t, op).map(|x| x.0)
                }
            });
            let lookup = |n: &str| {
                if is_buf {
                    mubuf_lookup(*t, n).map(|x| x.0)
                } else {
                    ds_lookup(*t, n).map(|x| x.0)
                }
            };
            match at {
                Some(ours) if ours == n => c.ok(K),
                Some(ours) => {
                    let truth = match lookup(&n) {
                        Some(op) => format!("opcode {} is {ours}; {n} is opcode {op}", row.opcode),
                        None => format!(
                            "opcode {} is {ours}; {n} is no instruction there",
                            row.opcode
                        ),
                    };
                    match wrong
                        .iter_mut()
                        .find(|(w, _, tr)| w == name && *tr == truth)
                    {
                        Some((_, ts, _)) => ts.push(*t),
                        None => wrong.push((name.clone(), vec![*t], truth)),
                    }
                }
                None => c.skip(
                    K,
                    row.line,
                    Some(name),
                    format!(
                        "LLVM 22 has no {} instruction at opcode {} on {t}",
                        if is_buf { "MUBUF" } else { "DS" },
                        row.opcode
                    ),
                ),
            }
        }
        for (name, ts, truth) in wrong {
            let names: Vec<&str> = ts.iter().map(|t| t.name()).collect();
            c.find(
                K,
                row.line,
                Some(&name),
                ts.first().copied(),
                format!("opcode {} ({:#x}) is {name}", row.opcode, row.opcode),
                format!("on {}: {truth}", names.join(", ")),
                vec![(
                    "source".into(),
                    "lifter/data/{ds,mubuf}_opcodes_by_target.csv (llvm-mc 22)".into(),
                )],
            );
        }
    }
}

/// Entry opcodes against the document's own tables and gcnsmt's per-target tables.
fn entry_opcode(c: &mut Ctx, e: &Entry) {
    const K: &str = "opcode";
    let Some(op) = &e.opcode else { return };
    let name = lower(&e.name);
    // The opcode the entry claims for a generation.
    let claimed = |t: Target| -> Option<u32> {
        if e.opcode_gens.is_empty() {
            Some(op.value)
        } else {
            e.opcode_gens
                .iter()
                .find(|(_, g)| g.contains(&t))
                .map(|(v, _)| *v)
        }
    };
    let mut ev = Vec::new();
    let mut claim_wrong = false;
    let mut wrong_value = op.value;
    for row in &c.doc.table {
        for (t, n) in &row.names {
            if n.eq_ignore_ascii_case(&e.name) && claimed(*t).is_some_and(|v| v != row.opcode) {
                claim_wrong = true;
                wrong_value = claimed(*t).unwrap_or(op.value);
                ev.push((
                    "opcode table".into(),
                    format!(
                        "line {}: {} is opcode {} ({:#x}) on {t}",
                        row.line, e.name, row.opcode, row.opcode
                    ),
                ));
                break;
            }
        }
    }
    let mut ours: Option<(Target, u32)> = None;
    for t in c.targets(e) {
        let found = if lower(&e.name).starts_with("ds_") {
            ds_lookup(t, &name).map(|(o, _)| o as u32)
        } else {
            mubuf_lookup(t, &name).map(|(o, _)| o as u32)
        };
        if let (Some(o), Some(cl)) = (found, claimed(t)) {
            if o != cl && ours.is_none() {
                ours = Some((t, o));
                claim_wrong = true;
                wrong_value = cl;
                ev.push((
                    "llvm-mc 22".into(),
                    format!("{name} is opcode {o} ({o:#x}) on {t}"),
                ));
            }
        }
    }
    for other in &c.doc.entries {
        if other.name != e.name
            && other
                .opcode
                .as_ref()
                .is_some_and(|o| o.value == wrong_value)
            && claim_wrong
        {
            ev.push((
                "same opcode".into(),
                format!(
                    "line {}: {} also says opcode {}",
                    other.line, other.name, wrong_value
                ),
            ));
        }
    }
    if claim_wrong {
        let truth = match ours {
            Some((t, o)) => format!("{} is opcode {o} ({o:#x}) on {t}", e.name),
            None => "the document's opcode table gives another opcode".into(),
        };
        c.find(
            K,
            op.line,
            Some(&e.name),
            ours.map(|x| x.0),
            format!("Opcode: {wrong_value} ({wrong_value:#x})"),
            truth,
            ev,
        );
    } else {
        c.ok(K);
    }
}

/// The syntax line names the entry's own mnemonic, and each `[name:FIELD]` modifier its own
/// field.
fn syntax(c: &mut Ctx, e: &Entry) {
    const K: &str = "syntax";
    let Some(s) = &e.syntax else { return };
    let first = s.value.split_whitespace().next().unwrap_or("");
    let mut bad = false;
    if !first.eq_ignore_ascii_case(&e.name) {
        bad = true;
        c.find(
            K,
            s.line,
            Some(&e.name),
            None,
            format!("Syntax: {}", s.value),
            format!("the syntax names {first}, but the entry is {}", e.name),
            vec![("entry".into(), format!("line {}: {}", e.line, e.name))],
        );
    }
    let re = Regex::new(r"\[(\w+):(\w+)\]").expect("valid");
    for m in re.captures_iter(&s.value) {
        let (modifier, field) = (&m[1], &m[2]);
        if !modifier.eq_ignore_ascii_case(field) {
            bad = true;
            c.find(
                K,
                s.line,
                Some(&e.name),
                None,
                format!("Syntax: {}", s.value),
                format!(
                    "the modifier {} sets field {}, not {field}",
                    lower(modifier),
                    modifier.to_ascii_uppercase()
                ),
                vec![("modifier".into(), format!("[{modifier}:{field}]"))],
            );
        }
    }
    if !bad {
        c.ok(K);
    }
}

/// Where a DS target's OP and GDS fields are (LLVM `DSInstructions.td`, llvm-mc 22 probes).
fn ds_fields(t: Target) -> (u32, u32, Option<u32>) {
    match t.ds_layout() {
        DsLayout::Si => (25, 18, Some(17)),
        DsLayout::Vi => (24, 17, Some(16)),
        DsLayout::Vds => (25, 18, None),
    }
}

/// The CLRX field table against each generation the page covers.
fn layout_table(c: &mut Ctx) {
    const K: &str = "layout";
    // The DS field table only: MUBUF pages draw another encoding.
    if c.doc.format != Format::Clrx || !c.doc.fields.iter().any(|f| f.name == "OFFSET0") {
        return;
    }
    let gens = c.doc.gens.clone();
    for t in gens {
        let (ophi, oplo, gds) = ds_fields(t);
        let applies = |f: &&super::Field| f.gens.is_empty() || f.gens.contains(&t);
        let fields: Vec<super::Field> = c.doc.fields.iter().filter(applies).cloned().collect();
        let evidence = |hi: u32, lo: u32| -> Vec<(String, String)> {
            let word = parse_any(t, "ds_write_b32 v1, v2")
                .map(|i| encode_any(&i))
                .ok()
                .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes")));
            let mut ev = vec![(
                "llvm-mc 22".into(),
                format!(
                    "{t}: OP is bits {ophi}:{oplo}{}",
                    gds.map(|g| format!(", GDS bit {g}")).unwrap_or_default()
                ),
            )];
            if let Some(w) = word {
                let read = (w >> lo) & ((1u64 << (hi - lo + 1)) - 1);
                ev.push(("encoding".into(), format!("ds_write_b32 v1, v2 (opcode 13) is {w:#018x} on {t}; bits {hi}:{lo} of it read {read}")));
            }
            ev
        };
        for f in &fields {
            let is_op = f.name == "OPCODE" || f.name == "OP";
            if is_op && (f.hi, f.lo) != (ophi, oplo) {
                let ev = evidence(f.hi, f.lo);
                c.find(
                    K,
                    f.line,
                    None,
                    Some(t),
                    format!("{} is bits {}-{}", f.name, f.lo, f.hi),
                    format!("on {t} the opcode is bits {oplo}-{ophi}"),
                    ev,
                );
            } else if f.name == "GDS" && gds.is_some_and(|g| (f.hi, f.lo) != (g, g)) {
                let g = gds.expect("checked");
                let ev = evidence(f.hi, f.lo);
                c.find(
                    K,
                    f.line,
                    None,
                    Some(t),
                    format!("GDS is bit {}", f.lo),
                    format!("on {t} GDS is bit {g}"),
                    ev,
                );
            } else if is_op || f.name == "GDS" {
                c.ok(K);
            }
        }
    }
}

/// The identifier against the drawn layout, and the layout's opcode field against the Opcode
/// line and gcnsmt's layout of the page's generation.
fn identifier(c: &mut Ctx, e: &Entry) {
    const K: &str = "identifier";
    if e.layout.is_empty() {
        return;
    }
    let mut rebuilt: u64 = 0;
    for f in e.layout.iter().filter(|f| f.constant.is_some()) {
        if f.lo < 64 {
            rebuilt |= f.constant.expect("filtered") << f.lo;
        }
    }
    let op_field = e
        .layout
        .iter()
        .find(|f| f.constant.is_some() && f.hi < 26 && f.lo >= 14 || f.name == "OP");
    let mut bad = false;
    if let (Some(id), Some(_)) = (&e.identifier, op_field) {
        if id.value != rebuilt {
            bad = true;
            c.find(
                K,
                id.line,
                Some(&e.name),
                None,
                format!("Identifier {:#018x}", id.value),
                format!("the drawn layout's constant fields give {rebuilt:#018x}"),
                vec![("layout".into(), fields_text(e))],
            );
        }
    }
    if let (Some(op), Some(f)) = (&e.opcode, op_field) {
        if f.constant.is_some_and(|v| v != op.value as u64) {
            bad = true;
            c.find(
                K,
                f.line,
                Some(&e.name),
                None,
                format!("OP field {} at {}:{}", f.name, f.hi, f.lo),
                format!("the Opcode line says {}", op.value),
                vec![],
            );
        }
        if let Some(&t) = e.gens.first() {
            if is_ds(e) {
                let (hi, lo, _) = ds_fields(t);
                if (f.hi, f.lo) != (hi, lo) {
                    bad = true;
                    c.find(
                        K,
                        f.line,
                        Some(&e.name),
                        Some(t),
                        format!("OP is bits {}:{}", f.hi, f.lo),
                        format!("on {t} the DS opcode is bits {hi}:{lo} (llvm-mc 22)"),
                        vec![],
                    );
                }
            }
        }
    }
    if !bad {
        c.ok(K);
    }
}

fn fields_text(e: &Entry) -> String {
    e.layout
        .iter()
        .map(|f| format!("{} {}:{}", f.name, f.hi, f.lo))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Element size in bytes from a mnemonic's suffix (`_b64` -> 8).
fn elem_bytes(name: &str) -> Option<u32> {
    let last = lower(name);
    let last = last.rsplit('_').next()?;
    let w: u32 = last.get(1..)?.parse().ok()?;
    matches!(&last[..1], "b" | "u" | "i" | "f").then_some(w / 8)
}

/// Stated strides and sizes against the element size.
fn sizes(c: &mut Ctx, e: &Entry) {
    const K: &str = "size";
    let Some(d) = &e.description else { return };
    let Some(eb) = elem_bytes(&e.name) else {
        return;
    };
    // The offset scale a body uses (`OFFSET0.u32 * 512U`), in the document and in gcnsmt.
    let scale = |text: &str| -> Option<u32> {
        let r = Regex::new(r"OFFSET[01](?:\.u32)?\s*\*\s*(\d+)").expect("valid");
        r.captures(text).and_then(|m| m[1].parse().ok())
    };
    let doc_scale = e.pcode.as_ref().and_then(|p| scale(&p.text));
    let our_scale = ds_semantics(&lower(&e.name))
        .and_then(|(_, def)| scale(&gcnsmt_semantics::print::def_to_string(def)));
    let re = Regex::new(r"stride of (\d+) elements \((\d+) bytes\)").expect("valid");
    for m in re.captures_iter(&d.value) {
        let (n, b): (u32, u32) = (m[1].parse().unwrap_or(0), m[2].parse().unwrap_or(0));
        let mut ev_scale: Vec<(String, String)> = Vec::new();
        if let Some(x) = our_scale {
            ev_scale.push((
                "gcnsmt semantics".into(),
                format!("OFFSET * {x} bytes (semantics/pcode/ds_2addr.pcode)"),
            ));
        }
        if let Some(x) = doc_scale.filter(|x| *x != b) {
            ev_scale.push(("document pseudocode".into(), format!("OFFSET * {x} bytes")));
            c.find(
                K,
                d.line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!("the page's own Semantics scale the offsets by {x} bytes"),
                ev_scale.clone(),
            );
            continue;
        }
        if n * eb != b {
            c.find(
                K,
                d.line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!(
                    "{n} elements of {eb} bytes ({}) are {} bytes",
                    e.name,
                    n * eb
                ),
                [(
                    "element".to_string(),
                    format!(
                        "{} bits ({} suffix)",
                        eb * 8,
                        e.name.rsplit('_').next().unwrap_or("")
                    ),
                )]
                .into_iter()
                .chain(ev_scale)
                .collect(),
            );
        } else {
            c.ok(K);
        }
    }
    let bits = Regex::new(r"(?i)^(?:load|store|read|write) (\d+) bits").expect("valid");
    if let Some(m) = bits.captures(&d.value) {
        let n: u32 = m[1].parse().unwrap_or(0);
        if n != eb * 8 {
            c.find(
                K,
                d.line,
                Some(&e.name),
                None,
                format!("\"{}\"", &m[0]),
                format!("the element of {} is {} bits", e.name, eb * 8),
                vec![],
            );
        } else {
            c.ok(K);
        }
    }
}

/// Targets on which `name` is a DS or MUBUF instruction, with its opcode.
fn where_defined(name: &str) -> Vec<(Target, u32)> {
    let n = lower(name);
    Target::ALL
        .iter()
        .filter_map(|t| {
            ds_lookup(*t, &n)
                .map(|(o, _)| (*t, o as u32))
                .or_else(|| mubuf_lookup(*t, &n).map(|(o, _)| (*t, o as u32)))
        })
        .collect()
}

/// "Also written as X": X names the same opcode on the generations that use it, and the
/// page's semantics hold under X (an operand swap between the names shows as a difference).
fn aliases(c: &mut Ctx, e: &Entry, body: Option<&[Stmt]>) {
    const K: &str = "alias";
    let mine = where_defined(&e.name);
    for a in &e.aliases {
        let theirs = where_defined(&a.value);
        if theirs.is_empty() {
            c.find(
                K,
                a.line,
                Some(&e.name),
                None,
                format!("also written as {}", a.value),
                format!("{} is no instruction of any target LLVM 22 knows", a.value),
                vec![],
            );
            continue;
        }
        // Same opcode on targets of the same layout where one name gives way to the other.
        let paired = theirs.iter().find_map(|(ta, oa)| {
            mine.iter()
                .filter(|(tm, _)| same_layout(&e.name, *tm, *ta))
                .min_by_key(|(tm, _)| (*tm as i32 - *ta as i32).abs())
                .map(|(tm, om)| (*ta, *oa, *tm, *om))
        });
        let Some((ta, oa, tm, om)) = paired else {
            c.skip(
                K,
                a.line,
                Some(&e.name),
                format!(
                    "no target with the same encoding layout has both {} and {}",
                    e.name, a.value
                ),
            );
            continue;
        };
        if oa != om {
            c.find(
                K,
                a.line,
                Some(&e.name),
                Some(ta),
                format!("also written as {}", a.value),
                format!(
                    "{} is opcode {oa} on {ta}, {} is opcode {om} on {tm}",
                    a.value,
                    lower(&e.name)
                ),
                vec![],
            );
            continue;
        }
        c.ok(K);
        // The page's semantics under the alias, on a target that uses the alias.
        let (Some(body), Some(p)) = (body, &e.pcode) else {
            continue;
        };
        let an = lower(&a.value);
        let Some((en, def)) = ds_semantics(&an) else {
            continue;
        };
        if ds_lookup(ta, &an).is_none() {
            continue;
        }
        let al = def.aliases_for(&en).unwrap_or(&[]);
        let doc = Side {
            label: "document",
            body,
            aliases: &[],
            addr_is_effective: effective(p),
            dword: p.notation == Notation::CLike,
        };
        let ours = Side {
            label: "gcnsmt",
            body: &def.body,
            aliases: al,
            addr_is_effective: false,
            dword: false,
        };
        match compare(&an, ta, &doc, &ours, c.opts.timeout) {
            Outcome::Same => c.ok(K),
            Outcome::Unknown(r) => c.skip(K, a.line, Some(&e.name), format!("{ta}: {r}")),
            Outcome::Differs(mut ev) => {
                ev.insert(
                    0,
                    (
                        "operands".into(),
                        format!("{} with the page's operands on {ta}", a.value),
                    ),
                );
                c.find(
                    K,
                    a.line,
                    Some(&e.name),
                    Some(ta),
                    format!("also written as {} (the same instruction)", a.value),
                    format!("the same opcode, but the page's Semantics do not hold for {} on {ta}: the names differ in operand order", a.value),
                    ev,
                );
            }
        }
    }
}

/// Whether two targets encode `name`'s family alike (DS: LLVM's DS layouts; MUBUF: the
/// lifter's MUBUF layouts, which gfx11 renumbered).
fn same_layout(name: &str, a: Target, b: Target) -> bool {
    if lower(name).starts_with("ds_") {
        a.ds_layout() == b.ds_layout()
    } else {
        gcnsmt_lifter::MubufLayout::of(a) == gcnsmt_lifter::MubufLayout::of(b)
    }
}

/// Each Example assembles for the generation of the page's layout, and encodes with the
/// page's constant fields.
fn example(c: &mut Ctx, e: &Entry) {
    const K: &str = "example";
    let Some(x) = &e.example else { return };
    let Some(&t) = e.gens.first() else {
        c.skip(
            K,
            x.line,
            Some(&e.name),
            "the page names no generation for its layout".into(),
        );
        return;
    };
    match parse_any(t, &x.value) {
        Err(err) => c.find(
            K,
            x.line,
            Some(&e.name),
            Some(t),
            format!("Example: {}", x.value),
            format!("not valid on {t}, the generation of the page's layout: {err}"),
            vec![(
                "assembler".into(),
                "gcnsmt's assembler (byte-exact with llvm-mc 22)".into(),
            )],
        ),
        Ok(inst) => {
            let b = encode_any(&inst);
            let w = u64::from_le_bytes(b[..8].try_into().expect("at least 8 bytes"));
            let mut mask = 0u64;
            let mut want = 0u64;
            for f in e
                .layout
                .iter()
                .filter(|f| f.constant.is_some() && f.hi < 64)
            {
                let m = ((1u128 << (f.hi - f.lo + 1)) - 1) as u64;
                mask |= m << f.lo;
                want |= f.constant.expect("filtered") << f.lo;
            }
            if w & mask != want {
                c.find(K, x.line, Some(&e.name), Some(t), format!("Example: {}", x.value), format!("encodes as {w:#018x} on {t}, whose constant fields are {:#x}, not {want:#x}", w & mask), vec![]);
            } else {
                c.ok(K);
            }
        }
    }
}
