//! A reader for the MIR that `llc-22` writes (`-stop-before`, `-run-pass`): the YAML
//! documents, the embedded IR's function attributes, the `registers:` classes and the `body:`
//! blocks with their instructions.
//!
//! Only what translation validation needs is read: register classes, block numbers,
//! successors, live-ins, and instructions as (defs, opcode, operands). Memory operands
//! (`:: (...)`) and debug locations are dropped on purpose: the semantics decide aliasing, not
//! LLVM's claims. Debug instructions (`DBG_*`) are skipped. Errors carry file:line:col (1-based).

use crate::rules::{InputError, Loc};
use std::collections::BTreeMap;

/// One MIR file.
#[derive(Clone, Debug, Default)]
pub struct MirFile {
    /// The path as given, for messages.
    pub path: String,
    /// The machine functions, in file order.
    pub functions: Vec<Function>,
    /// The embedded IR module (the `--- |` document) as written, if any: llc reads globals,
    /// their initializers and function attributes from it (`fn_facts.rs` compares it).
    pub ir: Option<String>,
}

/// One machine function.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// The function's name (`name:` of its YAML document).
    pub name: String,
    /// Where its `name:` line is.
    pub loc: Loc,
    /// `"target-cpu"` of the IR function of the same name, if the file embeds IR.
    pub target_cpu: Option<String>,
    /// Its `"target-features"` ask for wave64 (`+wavefrontsize64`), which gfx10+ may run.
    pub wave64: bool,
    /// `"amdgpu-lds-size"` in bytes (the attribute; `ldsSize:` of machineFunctionInfo as fallback).
    pub lds_size: Option<u32>,
    /// Virtual register number -> class name (`vgpr_32`, `sreg_64`), from `registers:` and
    /// from `%N:class` annotations in the body.
    pub classes: BTreeMap<u32, String>,
    /// The basic blocks of `body:`, in file order.
    pub blocks: Vec<Block>,
    /// `machineFunctionInfo: mode:` (the float MODE fields).
    pub mode: super::fpmode::FpMode,
    /// `tracksRegLiveness: true`: the blocks' `liveins:` are complete. Without it MIR lists
    /// none, and the physical registers a block's successors read must be found by scanning.
    pub tracks_liveness: bool,
    /// Its calling convention is C (`csr.rs`): its caller reads no `s0`-`s29`, `v0`-`v39` after it.
    pub c_convention: bool,
    /// `machineFunctionInfo: scratchRSrcReg:` without the `$` (`sgpr0_sgpr1_sgpr2_sgpr3`): the
    /// scratch descriptor, reserved across calls.
    pub scratch_rsrc: Option<String>,
    /// The frame layout of its header and the frame-index inputs (`frame.rs`).
    pub frame: super::frame::Frame,
    /// Its frame-object tables and `machineFunctionInfo:` as compared (`frame_meta.rs`).
    pub meta: super::frame_meta::Meta,
    /// Registers moved from a VGPR to an SGPR class that `bank.rs` left as they are, and why.
    pub bank_refused: BTreeMap<u32, String>,
}

/// One basic block `bb.N`.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// The block number `N`.
    pub num: u32,
    /// Where its `bb.N` label is.
    pub loc: Loc,
    /// The numbers of the blocks in its `successors:` line.
    pub successors: Vec<u32>,
    /// Where each successor is written, in the order of `successors`.
    pub successor_locs: Vec<Loc>,
    /// The block has a `successors:` line (without one, llc infers them: [`cfg::infer_successors`]).
    pub successors_listed: bool,
    /// The physical registers of its `liveins:` line, without `$` (`vgpr0`, `sgpr4_sgpr5`).
    pub liveins: Vec<String>,
    /// Its instructions, in order, without debug instructions.
    pub insts: Vec<Inst>,
    /// Virtual registers only the block's preamble defines: pure definitions of dominating
    /// blocks copied in front of its instructions (`ssa.rs`). Their real definition is
    /// elsewhere, so they are not live out of this block.
    pub inlined: std::collections::BTreeSet<u32>,
}

impl Block {
    /// The index of `i` (an instruction of this block, by address) in `insts`; 0 if it is not
    /// one of them.
    pub fn index_of(&self, i: &Inst) -> usize {
        self.insts
            .iter()
            .position(|j| std::ptr::eq(j, i))
            .unwrap_or(0)
    }
}

/// Flags an operand may carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpFlags {
    /// `implicit`: an operand the instruction reads without it being written in its syntax.
    pub implicit: bool,
    /// `implicit-def`: an implicit operand it writes.
    pub implicit_def: bool,
    /// `killed`: the last use of the register.
    pub killed: bool,
    /// `dead`: a definition whose value is never used.
    pub dead: bool,
    /// `undef`: a use whose value does not matter.
    pub undef: bool,
    /// `early-clobber`: a definition written before all uses are read.
    pub early_clobber: bool,
    /// `renamable`: the register allocator may rename the physical register.
    pub renamable: bool,
    /// `internal` (also set for `debug-use`): a use of a value defined inside the same bundle.
    pub internal: bool,
    /// `def`: a definition although written after the opcode (as MIR prints INLINEASM outputs).
    pub def: bool,
}

/// What an operand is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// `%N` with an optional sub-register index (`sub0`, `sub2_sub3`).
    VReg {
        /// The virtual register number `N`.
        id: u32,
        /// The sub-register index, if any (`sub0`, `sub2_sub3`).
        sub: Option<String>,
    },
    /// `$vgpr0`, `$sgpr4_sgpr5`, `$m0`, `$exec` (without the `$`).
    Phys(String),
    /// An integer immediate, as MIR prints it (signed decimal).
    Imm(i64),
    /// `%subreg.sub1` (REG_SEQUENCE / INSERT_SUBREG index).
    SubIdx(String),
    /// Anything else (`%bb.1`, `@g`, `target-flags(...)`, `$noreg`...), kept as text.
    Other(String),
}

/// One operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// What the operand is.
    pub kind: OpKind,
    /// Its MIR flags.
    pub flags: OpFlags,
    /// Where the operand is written.
    pub loc: Loc,
}

/// One instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Where the instruction is written.
    pub loc: Loc,
    /// Explicit definitions (left of `=`).
    pub defs: Vec<Operand>,
    /// The MIR opcode name (`DS_READ2_B32_gfx9`, `V_ADD_U32_e64`).
    pub opcode: String,
    /// Explicit and implicit operands after the opcode, in order.
    pub ops: Vec<Operand>,
    /// The instruction text without memory operands, debug locations and operand flags that
    /// do not change meaning (`killed`, `renamable`, `dead`), for comparing the two files.
    pub key: String,
    /// Its memory operands as written (`(load (s32) from %stack.0, addrspace 5)`), empty when
    /// it has none: what later passes trust about the access (its frame object, `invariant`,
    /// `dereferenceable`).
    pub mem: String,
    /// It accesses private (scratch) memory: a memory operand in `addrspace 5`, or the
    /// function's `scratchRSrcReg` as an operand. The scratch descriptor is swizzled.
    pub private: bool,
}

impl Inst {
    /// Explicit (non-implicit) use operands.
    pub fn uses(&self) -> impl Iterator<Item = &Operand> {
        self.ops
            .iter()
            .filter(|o| !o.flags.implicit && !o.flags.implicit_def)
    }
}

/// Read a MIR file's text. Errors: a document or block that cannot be read, at its line and
/// column.
pub fn parse(path: &str, text: &str) -> Result<MirFile, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, col: usize, msg: String| InputError {
        file: path.to_string(),
        loc: Loc {
            line: line as u32 + 1,
            col: col as u32 + 1,
        },
        msg,
    };
    let attrs = ir::ir_attributes(&lines);
    let (conventions, ir) = (
        super::csr::c_conventions(&lines),
        super::csr::has_ir(&lines),
    );
    let mut file = MirFile {
        path: path.to_string(),
        ..MirFile::default()
    };
    // YAML forbids tabs in indentation (llc-22: "found character that cannot start any
    // token"); this reader would end a body at such a line and drop what follows.
    for (n, l) in lines.iter().enumerate() {
        let lead = l.len() - l.trim_start_matches([' ', '\t']).len();
        if let Some(col) = l[..lead].find('\t') {
            return Err(err(
                n,
                col,
                "a tab in the indentation (YAML allows spaces only)".into(),
            ));
        }
    }
    yaml::check(&lines, &err)?;
    let mut i = 0;
    let mut seen_doc = false;
    while i < lines.len() {
        let l = lines[i];
        if let Some(rest) = l.strip_prefix("---") {
            seen_doc = true;
            let rest = rest.trim();
            if rest.starts_with('|') {
                // The embedded IR document: attributes were read above.
                i += 1;
                let start = i;
                while i < lines.len()
                    && !lines[i].starts_with("...")
                    && !lines[i].starts_with("---")
                {
                    i += 1;
                }
                file.ir = Some(lines[start..i].join("\n"));
                continue;
            }
            let (f, next) = function(&lines, i + 1, &err)?;
            let mut f = f;
            f.c_convention = conventions.get(&f.name).copied().unwrap_or(!ir);
            if let Some((cpu, lds, (wave64, flat, cumode))) = attrs.get(&f.name) {
                f.target_cpu = cpu.clone();
                f.wave64 = *wave64;
                f.mode.cumode = *cumode;
                f.frame.flat_feature = *flat;
                if lds.is_some() {
                    f.lds_size = *lds;
                }
            }
            if let Some(g) = file.functions.iter().find(|g| g.name == f.name) {
                return Err(err(
                    f.loc.line as usize - 1,
                    0,
                    format!(
                        "function `{}` is defined twice (first at line {})",
                        f.name, g.loc.line
                    ),
                ));
            }
            cfg::infer_successors(&mut f);
            cfg::check_successors(&f, &err)?;
            shape::check(&f, &err)?;
            file.functions.push(f);
            i = next;
            continue;
        }
        i += 1;
    }
    if !seen_doc {
        return Err(err(0, 0, "not MIR: no YAML document (`---`)".into()));
    }
    Ok(file)
}

#[path = "mir_cfg.rs"]
mod cfg;
#[path = "mir_classes.rs"]
mod classes;
#[path = "mir_dom.rs"]
mod dom;
#[path = "mir_ir.rs"]
mod ir;
#[path = "mir_regname.rs"]
mod regname;
#[path = "mir_shape.rs"]
mod shape;
#[path = "mir_yaml.rs"]
mod yaml;
use classes::{note_classes, register_entry};

type ErrFn<'a> = &'a dyn Fn(usize, usize, String) -> InputError;

/// One machine-function document from line `start`; returns it and the next line to read.
fn function(lines: &[&str], start: usize, err: ErrFn) -> Result<(Function, usize), InputError> {
    let mut f = Function::default();
    let mut i = start;
    let mut have_name = false;
    let mut seen_keys: Vec<&str> = Vec::new();
    let mut scratch_rsrc: Option<String> = None;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("...") || l.starts_with("---") {
            break;
        }
        let key = l.split(':').next().unwrap_or("");
        if matches!(key, "name" | "body" | "registers") && !l.starts_with(' ') {
            if seen_keys.contains(&key) {
                return Err(err(i, 0, format!("`{key}:` given twice in one function")));
            }
            seen_keys.push(key);
        }
        if let Some(v) = l.strip_prefix("name:") {
            f.name = unquote(v.trim()).to_string();
            f.loc = Loc {
                line: i as u32 + 1,
                col: 1,
            };
            have_name = true;
        } else if l.starts_with("registers:") {
            i += 1;
            while i < lines.len() && lines[i].starts_with("  ") {
                register_entry(lines[i], i, &mut f, err)?;
                i += 1;
            }
            continue;
        } else if let Some(v) = l.strip_prefix("tracksRegLiveness:") {
            f.tracks_liveness = v.trim() == "true";
        } else if let Some(v) = l.trim_start().strip_prefix("ldsSize:") {
            if f.lds_size.is_none() {
                f.lds_size = v.trim().parse().ok().filter(|n| *n > 0);
            }
        } else if l.trim_end() == "  mode:" {
            // `machineFunctionInfo:`'s `mode:` block: `    key: value` lines.
            i += 1;
            while let Some((k, v)) = lines
                .get(i)
                .filter(|m| m.starts_with("    "))
                .and_then(|m| m.split_once(':'))
            {
                f.mode.set(k, v);
                i += 1;
            }
            continue;
        } else if let Some(v) = l.trim_start().strip_prefix("scratchRSrcReg:") {
            scratch_rsrc = Some(unquote(v.trim()).trim_start_matches('$').to_string());
        } else if l.starts_with("body:") {
            let (mut blocks, next) = body(lines, i + 1, &mut f.classes, err)?;
            if let Some(r) = &scratch_rsrc {
                classes::mark_scratch(&mut blocks, r);
            }
            f.blocks = blocks;
            f.scratch_rsrc = scratch_rsrc.clone();
            i = next;
            continue;
        }
        i += 1;
    }
    f.frame = super::frame::Frame::read(&lines[start..i]);
    f.meta = super::frame_meta::Meta::read(&lines[start..i]);
    f.meta.read_slot_uses(&f.blocks);
    if !have_name {
        return Err(err(
            start.saturating_sub(1),
            0,
            "MIR document without `name:`".into(),
        ));
    }
    Ok((f, i))
}

fn unquote(s: &str) -> &str {
    s.trim_matches(|c| c == '\'' || c == '"')
}

/// The blocks of a `body: |` literal, from line `start`.
fn body(
    lines: &[&str],
    start: usize,
    classes: &mut BTreeMap<u32, String>,
    err: ErrFn,
) -> Result<(Vec<Block>, usize), InputError> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut i = start;
    while i < lines.len() {
        let raw = lines[i];
        if raw.starts_with("...") || raw.starts_with("---") {
            break;
        }
        if !raw.is_empty() && !raw.starts_with(' ') {
            break; // the next top-level key
        }
        let indent = raw.len() - raw.trim_start().len();
        let t = strip_comment(raw.trim());
        let t = t.trim_end();
        if t.is_empty() {
            i += 1;
            continue;
        }
        if let Some(rest) = t.strip_prefix("bb.") {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let num = digits
                .parse::<u32>()
                .map_err(|_| err(i, indent, format!("block header without a number: `{t}`")))?;
            if !t.ends_with(':') {
                return Err(err(
                    i,
                    indent + t.len(),
                    "block header must end in `:`".into(),
                ));
            }
            if blocks.iter().any(|b| b.num == num) {
                return Err(err(i, indent, format!("block bb.{num} defined twice")));
            }
            blocks.push(Block {
                num,
                loc: loc(i, indent),
                ..Block::default()
            });
            i += 1;
            continue;
        }
        let Some(b) = blocks.last_mut() else {
            return Err(err(
                i,
                indent,
                format!("instruction outside a block: `{t}`"),
            ));
        };
        if let Some(rest) = t.strip_prefix("successors:") {
            b.successors_listed = true;
            for s in rest.split(',') {
                let s = s.trim();
                if s.is_empty() {
                    continue;
                }
                let n = s
                    .strip_prefix("%bb.")
                    .map(|r| {
                        r.chars()
                            .take_while(|c| c.is_ascii_digit())
                            .collect::<String>()
                    })
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| err(i, indent, format!("bad successor `{s}`")))?;
                b.successors.push(n);
                let col = raw.find(s).unwrap_or(indent);
                b.successor_locs.push(loc(i, col));
            }
        } else if let Some(rest) = t.strip_prefix("liveins:") {
            b.liveins.extend(
                rest.split(',')
                    .flat_map(|s| super::mir_livein::livein_names(s.trim()))
                    .filter(|s| !s.is_empty()),
            );
        } else if t.starts_with("DBG_") || t.starts_with("frame-setup CFI") || t == "}" {
            // Debug and bundle-closing lines carry no semantics we check.
        } else {
            let inst = instruction(t, i, indent, err)?;
            note_classes(t, classes).map_err(|(at, m)| err(i, indent + at, m))?;
            b.insts.push(inst);
        }
        i += 1;
    }
    Ok((blocks, i))
}

fn loc(line: usize, col: usize) -> Loc {
    Loc {
        line: line as u32 + 1,
        col: col as u32 + 1,
    }
}

/// MIR comments start with `;` outside quotes.
fn strip_comment(t: &str) -> &str {
    match t.find(';') {
        Some(at) if !t[..at].contains('"') => &t[..at],
        _ => t,
    }
}

/// The widest register class, in bits: AMDGPU's classes stop at 1,024 (`vreg_1024`,
/// `sgpr_1024`, `areg_1024`, `av_1024`; LLVM's SIRegisterInfo.td).
pub const MAX_CLASS_BITS: u64 = 1024;

/// Split at top-level commas (not inside parentheses, brackets, braces or quotes), keeping
/// each piece's byte offset.
fn split_top(s: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote = false;
    let mut start = 0;
    for (k, c) in s.char_indices() {
        match c {
            '"' => quote = !quote,
            '(' | '[' | '{' | '<' if !quote => depth += 1,
            ')' | ']' | '}' | '>' if !quote => depth -= 1,
            ',' if depth == 0 && !quote => {
                out.push((base + start, &s[start..k]));
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push((base + start, &s[start..]));
    out
}

/// Where the memory operands (` :: (`) and debug location (`, debug-location`) begin.
fn semantic_end(t: &str) -> usize {
    let mut end = t.len();
    if let Some(at) = t.find(" :: ") {
        end = end.min(at);
    }
    for key in [
        ", debug-location",
        " debug-location",
        ", debug-instr-number",
        ", pcsections",
    ] {
        if let Some(at) = t.find(key) {
            end = end.min(at);
        }
    }
    end
}

/// Flags that may precede an opcode (instruction flags) rather than an operand (LLVM 22's
/// `MIParser`: `MachineInstr::MIFlag`).
pub(super) const INST_FLAGS: [&str; 21] = [
    "frame-setup",
    "frame-destroy",
    "nnan",
    "ninf",
    "nsz",
    "arcp",
    "contract",
    "afn",
    "reassoc",
    "nuw",
    "nsw",
    "exact",
    "nofpexcept",
    "disjoint",
    "nomerge",
    "unpredictable",
    "noconvergent",
    "nneg",
    "samesign",
    "nusw",
    "inbounds",
];

fn instruction(t: &str, i: usize, indent: usize, err: ErrFn) -> Result<Inst, InputError> {
    let end = semantic_end(t);
    let s = &t[..end];
    // The first top-level `=` separates the definitions from the opcode.
    let mut depth = 0;
    let mut eq = None;
    for (k, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            '=' if depth == 0 => {
                eq = Some(k);
                break;
            }
            _ => {}
        }
    }
    let mut defs = Vec::new();
    let rest_start = match eq {
        Some(at) => {
            for (off, piece) in split_top(&s[..at], 0) {
                defs.push(operand(piece, i, indent + off, err)?);
            }
            at + 1
        }
        None => 0,
    };
    let rest = &s[rest_start..];
    let lead = rest.len() - rest.trim_start().len();
    let mut words = rest.trim_start();
    let mut pos = rest_start + lead;
    loop {
        let w = words.split_whitespace().next().unwrap_or("");
        if INST_FLAGS.contains(&w) {
            let skip = words.find(w).unwrap_or(0) + w.len();
            let after = &words[skip..];
            pos += skip + (after.len() - after.trim_start().len());
            words = after.trim_start();
        } else {
            break;
        }
    }
    let opcode: String = words
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if opcode.is_empty() || !opcode.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Err(err(
            i,
            indent + pos,
            format!(
                "expected an opcode, found `{}`",
                words.split_whitespace().next().unwrap_or("")
            ),
        ));
    }
    let after_op = &words[opcode.len()..];
    let op_base = indent + pos + opcode.len();
    let mut ops = Vec::new();
    if !after_op.trim().is_empty() {
        for (off, piece) in split_top(after_op, op_base) {
            let o = operand(piece, i, off, err)?;
            tied_match(piece, &o, &defs, &ops, i, err)?;
            ops.push(o);
        }
    }
    Ok(Inst {
        loc: loc(i, indent),
        defs,
        opcode,
        ops,
        key: key_of(s),
        mem: memoperands(&t[end..]),
        private: t[end..].contains("addrspace 5)"),
    })
}

/// A use `o` (text `piece`) tied to operand N (`(tied-def N)`: the definitions first, then
/// the operands before it) must name the same physical register: the instruction has one
/// field for both (`S_ADDK_I32`'s SDST; llc-22's verifier: "Tied physical registers must
/// match"). tv would read the use and write the def as two registers (breaker 20's 01).
fn tied_match(
    piece: &str,
    o: &Operand,
    defs: &[Operand],
    ops: &[Operand],
    i: usize,
    err: ErrFn,
) -> Result<(), InputError> {
    let Some(at) = piece.find("(tied-def ") else {
        return Ok(());
    };
    let n: Option<usize> = piece[at + "(tied-def ".len()..]
        .split(')')
        .next()
        .and_then(|v| v.trim().parse().ok());
    let Some(d) = n.and_then(|n| defs.iter().chain(ops).nth(n)) else {
        return Ok(());
    };
    match (&o.kind, &d.kind) {
        (OpKind::Phys(u), OpKind::Phys(w)) if u != w => Err(err(
            i,
            o.loc.col as usize - 1,
            format!("`${u}` is tied to the definition `${w}`, another register: tied physical registers must match (one instruction field)"),
        )),
        _ => Ok(()),
    }
}

/// The memory operands of the text after an instruction's operands (` :: (...)`), without the
/// debug location that may follow them.
fn memoperands(tail: &str) -> String {
    let Some(at) = tail.find(" :: ") else {
        return String::new();
    };
    let m = &tail[at + 4..];
    let stop = [
        ", debug-location",
        " debug-location",
        ", debug-instr-number",
        ", pcsections",
    ]
    .iter()
    .filter_map(|k| m.find(k))
    .min()
    .unwrap_or(m.len());
    m[..stop].trim().to_string()
}

/// Text for comparing instructions across the two files: flags that state liveness facts
/// (`killed`, `dead`, `renamable`) are dropped, whitespace normalised.
fn key_of(s: &str) -> String {
    s.split_whitespace()
        .filter(|w| !matches!(*w, "killed" | "dead" | "renamable"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn operand(piece: &str, i: usize, col: usize, err: ErrFn) -> Result<Operand, InputError> {
    let lead = piece.len() - piece.trim_start().len();
    let col = col + lead;
    let mut t = piece.trim();
    let mut flags = OpFlags::default();
    loop {
        let (w, rest) = t.split_once(' ').unwrap_or((t, ""));
        let f = match w {
            "implicit" => &mut flags.implicit,
            "implicit-def" => &mut flags.implicit_def,
            "killed" => &mut flags.killed,
            "dead" => &mut flags.dead,
            "undef" => &mut flags.undef,
            "early-clobber" => &mut flags.early_clobber,
            "renamable" => &mut flags.renamable,
            "internal" => &mut flags.internal,
            "def" => &mut flags.def,
            "debug-use" => &mut flags.internal,
            _ => break,
        };
        *f = true;
        t = rest.trim_start();
    }
    if t.is_empty() {
        return Err(err(i, col, "empty operand".into()));
    }
    let kind = if let Some(r) = t.strip_prefix("%subreg.") {
        OpKind::SubIdx(r.to_string())
    } else if let Some(r) = t.strip_prefix('%') {
        let d: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
        if d.is_empty() {
            OpKind::Other(t.to_string())
        } else {
            let id = d
                .parse()
                .map_err(|_| err(i, col, format!("virtual register number too large: `{t}`")))?;
            let r = &r[d.len()..];
            let sub = r.strip_prefix('.').map(|s| {
                s.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            });
            let r2 = match &sub {
                Some(s) => &r[1 + s.len()..],
                None => r,
            };
            if !(r2.is_empty() || r2.starts_with(':') || r2.starts_with('(')) {
                return Err(err(i, col, format!("malformed virtual register `{t}`")));
            }
            OpKind::VReg { id, sub }
        }
    } else if let Some(r) = t.strip_prefix('$') {
        let name: String = r
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            return Err(err(i, col, format!("malformed physical register `{t}`")));
        }
        // llc-22 rejects a sub-register of a physical register ("subregister index expects a
        // virtual register"); reading the name alone would use the whole tuple.
        if r[name.len()..].starts_with('.') {
            return Err(err(
                i,
                col + 1 + name.len(),
                format!("subregister index expects a virtual register: `{t}`"),
            ));
        }
        let at = col + piece.trim().len() - t.len();
        regname::check(&name).map_err(|m| err(i, at, m))?;
        OpKind::Phys(name)
    } else if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        match t.parse::<i64>() {
            Ok(v) => OpKind::Imm(v),
            Err(_) => OpKind::Other(t.to_string()),
        }
    } else {
        OpKind::Other(t.to_string())
    };
    Ok(Operand {
        kind,
        flags,
        loc: loc(i, col),
    })
}

#[cfg(test)]
#[path = "mir_tests.rs"]
mod tests;
