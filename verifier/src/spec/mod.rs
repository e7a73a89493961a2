//! `gcnsmt spec-check`: find faults in ISA documentation mechanically.
//!
//! Each input format has a reader of its own that turns a file into one [`Doc`] (entries with
//! their source lines): [`clrx`] (CLRX-style instruction pages, plain-text or Markdown),
//! [`refpage`] (per-instruction reference pages in their Markdown and plain-text renderings;
//! [`refpage_md`] reads their sections: Binary Layout, Opcode, Identifier, Semantics, Example), [`pcode_json`] (AMD pseudocode collections as JSON) and [`isa_xml`] (AMD's
//! machine-readable ISA XML). [`clike`] translates CLRX's C-like operation listings into the
//! semantics IR, [`prose`] lifts the small vocabulary of descriptions into the same IR
//! ([`prose_buffer`] that of MUBUF descriptions; [`paraphrase`] reads any other wording of
//! a DS description by a grammar of the guides' phrasing),
//! [`equiv`] asks z3 whether two bodies of a DS or buffer instruction differ (and replays the
//! difference on the concrete interpreter), [`check`] runs every check kind over a [`Doc`],
//! and [`report`] prints text or JSON.
//!
//! Soundness rule: anything a reader cannot read, or a check cannot decide, is an
//! [`Unchecked`] item with a reason, never a [`Finding`]. A solver timeout is unchecked too.

pub mod check;
pub mod clike;
pub mod clrx;
pub mod cover;
pub mod docpcode;
pub mod equiv;
pub mod isa_xml;
pub mod paraphrase;
pub mod pcode_json;
pub mod prose;
pub mod prose_buffer;
pub mod refpage;
pub mod refpage_md;
pub mod report;

use gcnsmt_semantics::target::Target;
use std::path::Path;
use std::time::Duration;

/// Which reader a file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CLRX-style instruction page (field table, opcode tables, per-instruction entries with
    /// C-like `Operation:` listings).
    Clrx,
    /// A per-instruction reference page (Binary Layout, Format, Opcode, Identifier, Semantics).
    RefPage,
    /// A JSON pseudocode collection: `{"PCODE": {"DSOp": {NAME: TEXT}, ...}}`.
    PcodeJson,
    /// AMD's machine-readable ISA XML (GPUOpen isa_spec_manager schema).
    IsaXml,
}

impl Format {
    /// The format's name on the command line (`--format` value) and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Clrx => "clrx",
            Format::RefPage => "reference-page",
            Format::PcodeJson => "pcode-json",
            Format::IsaXml => "isa-xml",
        }
    }
}

/// How a document writes its operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// AMD ISA guide pseudocode (the notation of `semantics/pcode/`).
    Amd,
    /// CLRX's C-like listing (`UINT32* V = (UINT32*)(DS + ...); *V = ...`).
    CLike,
}

/// A document's operation text for one instruction.
#[derive(Clone, Debug)]
pub struct Pcode {
    /// The operation text as written (several lines for a listing).
    pub text: String,
    /// 1-based line of the first line of `text` in the file.
    pub line: u32,
    /// Which notation `text` is in, which decides how it is parsed.
    pub notation: Notation,
}

/// One bit field of an encoding as a document draws it: `name` over bits `hi..=lo`; a field
/// drawn as a bit string (`110110`) has that constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name as drawn (`OP`, `OFFSET0`, `GDS`, ...).
    pub name: String,
    /// Highest bit of the field (bit 0 is the low bit of the first dword; 32..63 the second).
    pub hi: u32,
    /// Lowest bit of the field.
    pub lo: u32,
    /// The field's value when drawn as a bit string (`110110` for DS's encoding bits), else `None`.
    pub constant: Option<u64>,
    /// The generations the document says this row is for (empty: all the page covers).
    pub gens: Vec<Target>,
    /// 1-based line of the row in the file.
    pub line: u32,
}

/// A text with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    /// The value read.
    pub value: T,
    /// 1-based line in the file where it was read.
    pub line: u32,
}

/// One instruction as a document describes it. Every part is optional: a check runs only on
/// the parts present.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    /// The name as the document writes it (case kept).
    pub name: String,
    /// 1-based line where the entry starts.
    pub line: u32,
    /// The opcode the entry states.
    pub opcode: Option<Located<u32>>,
    /// Per-generation opcodes when the entry gives several (`62 for GCN 1.0/1.1; 190 GCN
    /// 1.2/1.4`).
    pub opcode_gens: Vec<(u32, Vec<Target>)>,
    /// The assembler syntax as the entry's `Syntax:` line writes it (CLRX pages).
    pub syntax: Option<Located<String>>,
    /// The prose description.
    pub description: Option<Located<String>>,
    /// The operation: AMD pseudocode or a CLRX C-like listing.
    pub pcode: Option<Pcode>,
    /// "Also written as X".
    pub aliases: Vec<Located<String>>,
    /// The drawn binary layout and the line of its heading.
    pub layout: Vec<Field>,
    /// The page's Identifier: the encoding's instruction bits as a hexadecimal word, which the
    /// drawn layout's constant fields must reproduce (the `identifier` check).
    pub identifier: Option<Located<u64>>,
    /// The page's Example text (an assembler line, checked by the `example` check).
    pub example: Option<Located<String>>,
    /// The bytes the page gives for its Example (llvm-mc's `; encoding: [0x.., ...]`).
    pub example_bytes: Option<Located<Vec<u8>>>,
    /// The encoding family the page names (`DS`, `MUBUF`).
    pub format: Option<Located<String>>,
    /// The operand names of the page's operand list (`VDST`, `ADDR`, `DATA0`), each with
    /// its line (reference pages' `Operands` section).
    pub operands: Vec<Located<String>>,
    /// Generations the entry is for (empty: the document's).
    pub gens: Vec<Target>,
    /// Generations a page says the instruction is available on (`Available on RDNA 3 and
    /// RDNA 4.`), each with its line (the `availability` check).
    pub available: Vec<Located<Target>>,
}

/// One row of an opcode table: the opcode and the mnemonic per generation it lists.
#[derive(Clone, Debug)]
pub struct TableRow {
    /// The opcode (the table's first column).
    pub opcode: u32,
    /// 1-based line of the row in the file.
    pub line: u32,
    /// (generation, mnemonic) for every generation the row marks as having the opcode.
    pub names: Vec<(Target, String)>,
}

/// Everything a reader took from one file.
#[derive(Clone, Debug)]
pub struct Doc {
    /// The file's path as given on the command line.
    pub file: String,
    /// The reader that read it.
    pub format: Format,
    /// Generations the whole document covers.
    pub gens: Vec<Target>,
    /// The instructions the file describes, in file order.
    pub entries: Vec<Entry>,
    /// The opcode table's rows (CLRX pages), empty when the file has none.
    pub table: Vec<TableRow>,
    /// The encoding field table (CLRX), if any.
    pub fields: Vec<Field>,
    /// The general syntax lines a page gives for all its instructions, label included
    /// (CLRX's `Syntax: INSTRUCTION ADDR, VDATA0 ...`, `VDST syntax: INSTRUCTION VDST, ADDR`).
    pub syntax_forms: Vec<Located<String>>,
    /// Parts the reader saw but could not read.
    pub unreadable: Vec<Unchecked>,
}

impl Doc {
    /// A document of `entries` covering `gens`, with no tables, syntax lines or unread parts
    /// yet (readers add those they find).
    pub fn new(file: &str, format: Format, gens: Vec<Target>, entries: Vec<Entry>) -> Doc {
        Doc {
            file: file.to_string(),
            format,
            gens,
            entries,
            table: Vec::new(),
            fields: Vec::new(),
            syntax_forms: Vec::new(),
            unreadable: Vec::new(),
        }
    }
}

/// A fault found in a document, with the evidence that proves it.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The check that found it (see [`check::KINDS`]).
    pub kind: &'static str,
    /// The file the fault is in.
    pub file: String,
    /// 1-based line of the faulty text.
    pub line: u32,
    /// The instruction, when the finding is about one.
    pub entry: Option<String>,
    /// The target the evidence was computed for, when it depends on one.
    pub target: Option<Target>,
    /// What the document says.
    pub claim: String,
    /// What is true instead.
    pub truth: String,
    /// The evidence, as named items in order (a counterexample's inputs and both results, or
    /// the fields that differ and their sources).
    pub evidence: Vec<(String, String)>,
}

/// Something a check looked at but could not decide, with the reason.
#[derive(Clone, Debug)]
pub struct Unchecked {
    /// The check kind that could not decide (see [`check::KINDS`]); readers use the kind of the
    /// check the unreadable part was for (`"opcode-table"`).
    pub kind: &'static str,
    /// The file the item is in.
    pub file: String,
    /// 1-based line of the item.
    pub line: u32,
    /// The instruction, when the item is about one.
    pub entry: Option<String>,
    /// Why the item could not be checked (an unreadable construct, a solver timeout, ...).
    pub reason: String,
}

/// How many items one check covered in one file.
#[derive(Clone, Debug, Default)]
pub struct Count {
    /// Items the check decided (with or without a finding).
    pub checked: usize,
    /// Items it could not decide.
    pub unchecked: usize,
    /// Findings it reported.
    pub findings: usize,
}

/// The result of checking a set of files.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Faults found, in the order found (one per distinct claim and truth at one line).
    pub findings: Vec<Finding>,
    /// Items that could not be read or decided, with reasons.
    pub unchecked: Vec<Unchecked>,
    /// (file, check kind) -> counts, in the order first seen.
    pub counts: Vec<(String, &'static str, Count)>,
    /// Inputs that could not be read at all, in the order given (the others still ran).
    pub errors: Vec<SpecError>,
}

impl Report {
    pub(crate) fn count(&mut self, file: &str, kind: &'static str) -> &mut Count {
        let i = match self
            .counts
            .iter()
            .position(|(f, k, _)| f == file && *k == kind)
        {
            Some(i) => i,
            None => {
                self.counts.push((file.to_string(), kind, Count::default()));
                self.counts.len() - 1
            }
        };
        &mut self.counts[i].2
    }
    pub(crate) fn checked(&mut self, file: &str, kind: &'static str) {
        self.count(file, kind).checked += 1;
    }
    pub(crate) fn find(&mut self, f: Finding) {
        // One fault drawn once (an encoding's field shared by many instructions) is one
        // finding, reported for the first entry that shows it.
        if self.findings.iter().any(|g| {
            g.kind == f.kind
                && g.file == f.file
                && g.line == f.line
                && g.claim == f.claim
                && g.truth == f.truth
        }) {
            return;
        }
        let file = f.file.clone();
        self.count(&file, f.kind).findings += 1;
        self.findings.push(f);
    }
    pub(crate) fn skip(&mut self, u: Unchecked) {
        let file = u.file.clone();
        self.count(&file, u.kind).unchecked += 1;
        self.unchecked.push(u);
    }
}

/// An input that cannot be read at all: `file:line:col: message` (exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {msg}")]
pub struct SpecError {
    /// The input file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// What is wrong.
    pub msg: String,
}

impl SpecError {
    /// An error at `file:line:col` with message `msg`.
    pub fn new(file: &str, line: u32, col: u32, msg: impl Into<String>) -> SpecError {
        SpecError {
            file: file.to_string(),
            line,
            col,
            msg: msg.into(),
        }
    }
}

/// Options of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Generations to check against when a document does not say (pseudocode collections),
    /// or to restrict to.
    pub targets: Option<Vec<Target>>,
    /// Time limit per solver query; a timeout leaves the item unchecked.
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            targets: None,
            timeout: Duration::from_secs(20),
        }
    }
}

/// Decide a file's format from its name and first characters.
pub fn detect(name: &str, text: &str) -> Format {
    let t = text.trim_start();
    if name.ends_with(".json") || t.starts_with('{') {
        Format::PcodeJson
    } else if name.ends_with(".xml") || t.starts_with("<?xml") || t.starts_with('<') {
        Format::IsaXml
    } else if refpage_md::is_markdown_page(text)
        || text.contains("Binary Layout")
        || text.contains("\nIdentifier ")
    {
        Format::RefPage
    } else {
        Format::Clrx
    }
}

/// Read one file's text with the reader for its format.
///
/// Errors: the text is not of any readable shape (bad JSON or XML, no entries at all), with
/// the position where reading failed.
pub fn read(file: &str, text: &str, opts: &Options) -> Result<Doc, SpecError> {
    match detect(file, text) {
        Format::Clrx => clrx::read(file, text),
        Format::RefPage => refpage::read(file, text),
        Format::PcodeJson => pcode_json::read(file, text, opts.targets.as_deref()),
        Format::IsaXml => isa_xml::read(file, text),
    }
}

/// Check every file: read it, run every check, collect findings and unchecked items.
///
/// Errors: the first file that cannot be read (missing, not a regular file, larger than
/// [`crate::limits::MAX_INPUT_BYTES`], not UTF-8, or rejected by its reader); use
/// [`run_batch`] to check the other files anyway.
pub fn run(paths: &[impl AsRef<Path>], opts: &Options) -> Result<Report, SpecError> {
    let mut r = run_batch(paths, opts);
    match r.errors.first() {
        Some(e) => Err(e.clone()),
        None => {
            r.errors.clear();
            Ok(r)
        }
    }
}

/// Check every file that can be read; each one that cannot is in [`Report::errors`] and the
/// rest still run (one bad page in a batch does not hide the findings on the others).
pub fn run_batch(paths: &[impl AsRef<Path>], opts: &Options) -> Report {
    let mut report = Report::default();
    for p in paths {
        let p = p.as_ref();
        let name = p.display().to_string();
        // Regular files only, within the size limit, UTF-8 (an error at the first bad byte).
        let doc = crate::limits::read_text(p)
            .map_err(|e| SpecError::new(&name, e.line, e.col, format!("cannot read: {}", e.msg)))
            .and_then(|text| read(&name, &text, opts).map(|d| (d, text)));
        match doc {
            Ok((doc, text)) => {
                let first = report.findings.len();
                check::check_doc(&doc, opts, &mut report);
                quote_lines(&mut report.findings[first..], &text);
            }
            Err(e) => report.errors.push(e),
        }
    }
    report
}

/// Give each finding the words of the document line it rests on, as written (the claim says
/// how the check read them; this is what a writer searches for).
fn quote_lines(findings: &mut [Finding], text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    for f in findings {
        let Some(l) = (f.line as usize).checked_sub(1).and_then(|i| lines.get(i)) else {
            continue;
        };
        let l = l.trim();
        if !l.is_empty() {
            f.evidence.push((format!("line {}", f.line), l.to_string()));
        }
    }
}

/// The target a generation name in a document stands for: CLRX's `GCN 1.0` .. `GCN 1.4`,
/// AMD's `AMD CDNA 4`, `RDNA 3.5`, and `-mcpu` names. Facts: LLVM `AMDGPUUsage.rst`
/// processor table (GCN 1.0 = gfx6 = tahiti, CDNA 3 = gfx942, RDNA 3.5 = gfx1150, ...).
pub fn gen_target(name: &str) -> Option<Target> {
    let n = name.trim().trim_start_matches("AMD ").trim();
    let t = match n {
        "GCN 1.0" => Target::Gfx600,
        "GCN 1.1" => Target::Gfx700,
        "GCN 1.2" => Target::Gfx802,
        "GCN 1.4" | "Vega" => Target::Gfx900,
        "CDNA 1" | "CDNA" => Target::Gfx908,
        "CDNA 2" => Target::Gfx90a,
        "CDNA 3" => Target::Gfx942,
        "CDNA 4" | "CDNA4" => Target::Gfx950,
        "CDNA 5" => Target::Gfx1250,
        "RDNA 1" | "RDNA" => Target::Gfx1010,
        "RDNA 2" => Target::Gfx1030,
        "RDNA 3" => Target::Gfx1100,
        "RDNA 3.5" | "RDNA3.5" => Target::Gfx1150,
        "RDNA 4" | "RDNA4" => Target::Gfx1200,
        other => return Target::parse(other),
    };
    Some(t)
}
