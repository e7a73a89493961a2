//! The checks `spec-check` runs over a [`Doc`], one module per check kind, listed once in
//! [`KINDS`]. Ground truth is gcnsmt's own: the semantics library (`semantics/pcode/`), the
//! per-target opcode tables and layouts of the lifter (from llvm-mc 22), and its
//! assembler/encoder (byte-exact with llvm-mc 22).

mod alias;
mod availability;
mod body;
mod example;
mod fields;
mod identifier;
mod layout;
mod opcode;
mod opcode_table;
mod operand_names;
mod pcode_syntax;
mod pcode_vs_semantics;
mod prose_vs_pcode;
mod prose_vs_semantics;
mod return_bit;
mod size;
mod size_buffer;
mod syntax;
mod syntax_buffer;

use super::equiv::{Family, Side};
use super::{Doc, Entry, Finding, Format, Notation, Options, Pcode, Report, Unchecked};
use body::Body;
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::{Def, Stmt};
use gcnsmt_semantics::target::Target;

/// One check kind: the name findings and unchecked items carry, and when it runs.
pub struct Check {
    /// The name the check's findings and unchecked items carry (one of [`KINDS`]).
    pub kind: &'static str,
    run: Run,
}

impl Check {
    /// The kind whose pass decides this one (itself, but for prose-vs-pcode).
    pub fn decided_by(&self) -> &'static str {
        match self.run {
            Run::By(k) => k,
            _ => self.kind,
        }
    }
}

enum Run {
    /// Once per document, before its entries.
    Doc(fn(&mut Ctx)),
    /// Once per entry; [`Body`] is the entry's operation read into the IR on first use.
    Entry(fn(&mut Ctx, &Entry, &mut Body)),
    /// Decided in the pass of the kind named (a description is read once for both prose
    /// kinds).
    By(&'static str),
}

/// Every check kind, in the order they run (a document's counts list kinds as first seen).
pub const KINDS: &[Check] = &[
    Check {
        kind: layout::KIND,
        run: Run::Doc(layout::check),
    },
    Check {
        kind: opcode_table::KIND,
        run: Run::Doc(opcode_table::check),
    },
    Check {
        kind: syntax::KIND,
        run: Run::Doc(syntax::forms),
    },
    Check {
        kind: opcode::KIND,
        run: Run::Entry(opcode::check),
    },
    Check {
        kind: syntax::KIND,
        run: Run::Entry(syntax::check),
    },
    Check {
        kind: identifier::KIND,
        run: Run::Entry(identifier::check),
    },
    Check {
        kind: size::KIND,
        run: Run::Entry(size::check),
    },
    Check {
        kind: pcode_vs_semantics::KIND,
        run: Run::Entry(pcode_vs_semantics::check),
    },
    Check {
        kind: pcode_syntax::KIND,
        run: Run::By(pcode_vs_semantics::KIND),
    },
    Check {
        kind: prose_vs_semantics::KIND,
        run: Run::Entry(prose_vs_semantics::check),
    },
    Check {
        kind: prose_vs_pcode::KIND,
        run: Run::By(prose_vs_semantics::KIND),
    },
    Check {
        kind: return_bit::KIND,
        run: Run::Entry(return_bit::check),
    },
    Check {
        kind: operand_names::KIND,
        run: Run::Entry(operand_names::check),
    },
    Check {
        kind: alias::KIND,
        run: Run::Entry(alias::check),
    },
    Check {
        kind: availability::KIND,
        run: Run::Entry(availability::check),
    },
    Check {
        kind: example::KIND,
        run: Run::Entry(example::check),
    },
];

/// Run every check on one document.
pub fn check_doc(doc: &Doc, opts: &Options, report: &mut Report) {
    for u in &doc.unreadable {
        report.skip(u.clone());
    }
    let mut c = Ctx { doc, opts, report };
    for k in KINDS {
        if let Run::Doc(f) = k.run {
            f(&mut c);
        }
    }
    for e in &doc.entries {
        let mut body = Body::default();
        for k in KINDS {
            if let Run::Entry(f) = k.run {
                f(&mut c, e, &mut body);
            }
        }
    }
}

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
    /// The first of [`Ctx::targets`] that has the entry as an instruction of `fam`.
    fn first_target(&self, e: &Entry, fam: Family) -> Option<Target> {
        let name = lower(&e.name);
        self.targets(e).into_iter().find(|t| has(fam, *t, &name))
    }
}

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// A text on one line, its lines joined by ` / `.
fn one_line(s: &str) -> String {
    let t: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    t.join(" / ")
}

/// The encoding family a page's Format names: the guides call DS `VDS` from RDNA 4 on and
/// MUBUF `VBUFFER`; a trailing width or note (`DS (64-bit)`) is not part of the name.
fn format_is(e: &Entry, names: &[&str]) -> bool {
    e.format.as_ref().is_none_or(|f| {
        let w = f.value.split([' ', ',', '(']).next().unwrap_or("");
        names.contains(&w)
    })
}

fn is_ds(e: &Entry) -> bool {
    format_is(e, &["DS", "VDS"]) && lower(&e.name).starts_with("ds_")
}

fn is_buffer(e: &Entry) -> bool {
    format_is(e, &["MUBUF", "VBUFFER"]) && lower(&e.name).starts_with("buffer_")
}

/// The family whose semantics an entry is compared with, if gcnsmt has one.
fn family(e: &Entry) -> Option<Family> {
    if is_buffer(e) {
        Some(Family::Buffer)
    } else if is_ds(e) {
        Some(Family::Ds)
    } else {
        None
    }
}

/// Whether `name` (lower case) is an instruction of `fam` on `t` (llvm-mc 22 tables).
fn has(fam: Family, t: Target, name: &str) -> bool {
    match fam {
        Family::Ds => ds_lookup(t, name).is_some(),
        Family::Buffer => mubuf_lookup(t, name).is_some(),
    }
}

/// gcnsmt's semantics entry for an entry's mnemonic (its name and definition), or why there
/// is none (buffer format conversions, LDS DMA and cache control are not modelled: README
/// "Buffer instructions").
fn semantics(fam: Family, e: &Entry) -> Result<(String, &'static Def), String> {
    match fam {
        Family::Ds => ds_semantics(&lower(&e.name)).ok_or_else(|| {
            format!(
                "gcnsmt does not model {} (see README, \"Not modelled yet\")",
                e.name
            )
        }),
        Family::Buffer => {
            let up = e.name.to_ascii_uppercase();
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
    }
}

/// A document's operation `body` as a side labelled `label`: whether its `ADDR` is the
/// effective address (no address computation and no offset in the text: DS `CalcDsAddr`,
/// buffer `CalcBufferAddr`) and whether it models DWORD alignment itself (CLRX's C-like DS
/// listings).
fn doc_side<'a>(fam: Family, label: &'a str, body: &'a [Stmt], p: &Pcode) -> Side<'a> {
    let amd = p.notation == Notation::Amd;
    let (addr_is_effective, dword) = match fam {
        Family::Ds => (
            amd && !p.text.contains("CalcDsAddr")
                && !p.text.contains("OFFSET")
                && !p.text.contains("offset"),
            p.notation == Notation::CLike,
        ),
        Family::Buffer => (
            amd && !p.text.contains("CalcBufferAddr")
                && !p.text.contains("OFFSET")
                && p.text.contains("ADDR"),
            false,
        ),
    };
    Side {
        addr_is_effective,
        dword,
        ..Side::text(label, body)
    }
}
