//! A before/after block pair -> a gcnsmt [`Rule`]: source lines = the before-block, target
//! lines = the after-block, in the assembly syntax rules use.
//!
//! Every virtual register is split into 32-bit rule variables (`%38` of class `vreg_64` is
//! `%r38_0`, `%r38_1`; `%38.sub1` is `%r38_1`), so sub-registers are plain selections and
//! tuples are brace lists. Physical registers are the concrete registers (`$vgpr0` -> `v0`).
//! COPY / REG_SEQUENCE / INSERT_SUBREG / EXTRACT_SUBREG become one move per dword;
//! IMPLICIT_DEF, PHI and KILL emit nothing (the register stays an unconstrained input).
//! `Dead:` lists every variable of a register the block defines that is not live-out.
//!
//! Instructions gcnsmt does not model (assumptions, see README "Translation validation"):
//! - terminators must be identical on both sides; their register uses are live-out;
//! - a pure instruction (a VALU/SALU op without memory effect) or a read of global memory
//!   (`S_LOAD_*`, `GLOBAL_LOAD_*`, and `FLAT_LOAD_*` when nothing in the block writes LDS)
//!   that occurs identically on both sides with inputs that are all block live-ins is dropped
//!   from both, its results becoming the same fresh inputs; the global-memory form only when
//!   nothing in the block writes global memory, so both read the entry state;
//! - anything else unmodelled (INLINEASM, barriers, stores the model lacks, a changed
//!   unmodelled instruction) makes the block `unsupported`, naming the instruction.

use super::mir::{Block, Inst, OpKind, Operand};
use super::opcodes::{self, AddrKind, MirOp};
use crate::rules::{Line, Loc, Rule};
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_lifter::table::OffsetKind;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::{BTreeMap, BTreeSet};

/// A lowered block pair.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub rule: Rule,
    /// Opcodes dropped as uninterpreted whose results the block reads: a refutation may
    /// rest on a value the real instruction cannot produce, so it is `unknown`.
    pub uninterpreted: Vec<String>,
}

/// Why a block pair is not checked: the instruction (file:line:col) and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// What one side of the pair needs from the function.
pub struct Side<'a> {
    pub file: &'a str,
    pub block: &'a Block,
    pub classes: &'a BTreeMap<u32, String>,
}

/// Number of 32-bit registers of a register class (`vgpr_32` 1, `vreg_64` 2, `sgpr_128` 4,
/// `sreg_64_xexec` 2), or `None` for classes the lowering does not split (`vreg_1`, 16-bit).
pub fn class_dwords(cls: &str) -> Option<u32> {
    let bits: u32 = cls.split('_').skip(1).find_map(|p| p.parse().ok())?;
    (bits >= 32 && bits.is_multiple_of(32)).then_some(bits / 32)
}

/// The register file a class lives in: `v` (VGPR, or `av_*`: VGPR or AGPR, which hold the
/// same values; the allocator picks), `s` (SGPR) or `a` (AGPR only).
pub fn class_bank(cls: &str) -> char {
    if cls.starts_with("sgpr") || cls.starts_with("sreg") || cls.starts_with("ccr_sgpr") {
        's'
    } else if cls.starts_with("agpr") || cls.starts_with("areg") {
        'a'
    } else {
        'v'
    }
}

const PSEUDO: [&str; 7] = [
    "COPY",
    "REG_SEQUENCE",
    "INSERT_SUBREG",
    "EXTRACT_SUBREG",
    "IMPLICIT_DEF",
    "KILL",
    "PHI",
];

/// Block-ending instructions (and `SI_*` control-flow pseudos that end blocks).
pub fn is_terminator(op: &str) -> bool {
    op == "S_ENDPGM"
        || op == "S_BRANCH"
        || op.starts_with("S_CBRANCH")
        || op.starts_with("SI_RETURN")
        || op.starts_with("S_SETPC_B64_return")
        || matches!(
            op,
            "SI_IF" | "SI_ELSE" | "SI_LOOP" | "SI_BRCOND" | "S_CBRANCH_EXECZ"
        )
        || op == "SI_TCRETURN"
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mem {
    Pure,
    ReadsGlobal,
    ReadsAny,
    Effect,
}

/// The memory behaviour of an unmodelled opcode.
fn memory_of(op: &str) -> Mem {
    const EFFECT: [&str; 16] = [
        "S_BARRIER",
        "S_SENDMSG",
        "S_SETREG",
        "S_GETREG",
        "S_SLEEP",
        "S_TRAP",
        "S_DCACHE",
        "S_ICACHE",
        "S_MEMTIME",
        "S_MEMREALTIME",
        "S_STORE",
        "S_ATOMIC",
        "S_BUFFER_STORE",
        "S_BUFFER_ATOMIC",
        "SI_CALL",
        "SI_KILL",
    ];
    if EFFECT.iter().any(|p| op.starts_with(p)) || op.starts_with("SI_SPILL") {
        return Mem::Effect;
    }
    if op.starts_with("S_LOAD_")
        || op.starts_with("S_BUFFER_LOAD_")
        || op.starts_with("GLOBAL_LOAD_")
    {
        return Mem::ReadsGlobal;
    }
    if op.starts_with("FLAT_LOAD_") {
        return Mem::ReadsAny;
    }
    if op.starts_with("V_") || op.starts_with("S_") || op.starts_with("SI_") {
        // Cross-lane reads (V_READLANE, DPP) see one lane in this model, like every VALU op.
        return Mem::Pure;
    }
    Mem::Effect
}

/// Whether an instruction may write global / LDS memory (modelled or not).
fn writes(i: &Inst, target: Target) -> (bool, bool) {
    let op = i.opcode.as_str();
    match opcodes::lookup(target, op) {
        Some(MirOp::Ds { shape, .. }) => (false, shape.data0 > 0 || op.contains("WRITE")),
        Some(MirOp::Mubuf { shape, lds, .. }) => (shape.class != MubufClass::Load, lds),
        Some(MirOp::Alu { .. }) => (false, false),
        None if PSEUDO.contains(&op) || is_terminator(op) => (false, false),
        None => match memory_of(op) {
            Mem::Pure | Mem::ReadsGlobal | Mem::ReadsAny => (false, false),
            Mem::Effect => (true, true),
        },
    }
}

fn at(side: &Side, i: &Inst) -> String {
    format!("{}:{}:{}", side.file, i.loc.line, i.loc.col)
}

/// Lower a changed block pair on `target`. `liveout`: virtual registers used outside the
/// block (in either file). `lds_size`: the function's `"amdgpu-lds-size"`, a lower bound on
/// `LDS_SIZE`.
pub fn lower(
    name: &str,
    before: &Side,
    after: &Side,
    liveout: &BTreeSet<u32>,
    target: Target,
    lds_size: Option<u32>,
) -> Result<Lowered, Unsupported> {
    let (bterm, aterm) = (terminators(before.block), terminators(after.block));
    if bterm != aterm {
        return Err(Unsupported(format!(
            "{}: the pass changed the block's terminators",
            after.file
        )));
    }
    let mut live: BTreeSet<u32> = liveout.clone();
    for i in before
        .block
        .insts
        .iter()
        .filter(|i| is_terminator(&i.opcode))
    {
        for o in &i.ops {
            if let OpKind::VReg { id, .. } = o.kind {
                live.insert(id);
            }
        }
    }
    let defined_b = defined(before.block);
    let defined_a = defined(after.block);
    let (gw_b, lw_b) = side_writes(before.block, target);
    let (gw_a, lw_a) = side_writes(after.block, target);
    let (gwrite, lwrite) = (gw_b || gw_a, lw_b || lw_a);
    // Unmodelled instructions: each must have an identical twin on the other side.
    let mut dropped: BTreeSet<String> = BTreeSet::new();
    let mut uninterpreted = Vec::new();
    for (side, other, def_here, def_there) in [
        (before, after, &defined_b, &defined_a),
        (after, before, &defined_a, &defined_b),
    ] {
        for i in &side.block.insts {
            let op = i.opcode.as_str();
            if PSEUDO.contains(&op) || is_terminator(op) || opcodes::lookup(target, op).is_some() {
                continue;
            }
            let mem = memory_of(op);
            let why = match mem {
                Mem::Effect => Some("its memory effect is not modelled"),
                Mem::ReadsGlobal if gwrite => Some("it reads global memory the block writes"),
                Mem::ReadsAny if gwrite || lwrite => Some("it reads memory the block writes"),
                _ => None,
            };
            if let Some(why) = why {
                return Err(Unsupported(format!("{}: {op}: {why}", at(side, i))));
            }
            if !other.block.insts.iter().any(|j| j.key == i.key) {
                return Err(Unsupported(format!(
                    "{}: {op} is not modelled and the pass changed it",
                    at(side, i)
                )));
            }
            let inner = i.ops.iter().any(|o| match o.kind {
                OpKind::VReg { id, .. } => {
                    (def_here.contains(&id) || def_there.contains(&id))
                        && !stable(id, before.block, after.block, target, 0)
                }
                _ => false,
            });
            if inner {
                return Err(Unsupported(format!(
                    "{}: {op} is not modelled and reads a register the block defines",
                    at(side, i)
                )));
            }
            if dropped.insert(i.key.clone()) && !i.defs.is_empty() {
                uninterpreted.push(op.to_string());
            }
        }
    }
    let source = lower_side(before, target)?;
    let target_lines = lower_side(after, target)?;
    let mut dead = Vec::new();
    for id in defined_b.union(&defined_a) {
        if live.contains(id) {
            continue;
        }
        let cls = before.classes.get(id).or_else(|| after.classes.get(id));
        if let Some(n) = cls.and_then(|c| class_dwords(c)) {
            for k in 0..n {
                dead.push((format!("r{id}_{k}"), Loc::default()));
            }
        }
    }
    // A variable must appear in the rule to be declared dead.
    let text: String = source
        .iter()
        .chain(&target_lines)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    dead.retain(|(v, _)| mentions(&text, v));
    let pre = lds_size.filter(|n| *n > 0).map(|n| Line {
        text: format!("LDS_SIZE >= {n}"),
        loc: Loc::default(),
    });
    Ok(Lowered {
        rule: Rule {
            file: before.file.to_string(),
            name: name.to_string(),
            loc: Loc {
                line: before.block.loc.line,
                col: before.block.loc.col,
            },
            targets: Some((vec![target], Loc::default())),
            settings: Vec::new(),
            pre,
            dead,
            source,
            target: target_lines,
            expect: None,
            cites: Vec::new(),
            tags: Vec::new(),
            lanes: None,
        },
        uninterpreted,
    })
}

/// Whether `%id` holds the same value on both sides wherever it is read: it is defined on
/// both by the same instruction (same text) that reads no memory and whose register inputs
/// are themselves the same (recursively; physical registers the blocks do not write).
fn stable(id: u32, before: &Block, after: &Block, target: Target, depth: u32) -> bool {
    let def_of = |b: &'_ Block| -> Option<Inst> {
        b.insts
            .iter()
            .find(|i| {
                i.defs
                    .iter()
                    .any(|d| matches!(d.kind, OpKind::VReg { id: x, .. } if x == id))
            })
            .cloned()
    };
    let (Some(x), Some(y)) = (def_of(before), def_of(after)) else {
        return false;
    };
    if x.key != y.key || depth > 64 {
        return false;
    }
    let op = x.opcode.as_str();
    let pure = matches!(
        op,
        "COPY" | "REG_SEQUENCE" | "EXTRACT_SUBREG" | "INSERT_SUBREG"
    ) || matches!(opcodes::lookup(target, op), Some(MirOp::Alu { .. }))
        || (opcodes::lookup(target, op).is_none() && memory_of(op) == Mem::Pure);
    if !pure {
        return false;
    }
    let phys_written = |p: &str| {
        before.insts.iter().chain(&after.insts).any(|i| {
            i.defs
                .iter()
                .any(|d| matches!(&d.kind, OpKind::Phys(q) if q == p))
        })
    };
    let ok = x.uses().all(|o| match &o.kind {
        OpKind::VReg { id: u, .. } => {
            let inside = defined(before).contains(u) || defined(after).contains(u);
            !inside || stable(*u, before, after, target, depth + 1)
        }
        OpKind::Phys(p) => !phys_written(p),
        _ => true,
    });
    ok
}

fn mentions(text: &str, var: &str) -> bool {
    let pat = format!("%{var}");
    text.match_indices(&pat).any(|(k, _)| {
        !text[k + pat.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn terminators(b: &Block) -> Vec<&str> {
    b.insts
        .iter()
        .filter(|i| is_terminator(&i.opcode))
        .map(|i| i.key.as_str())
        .collect()
}

fn defined(b: &Block) -> BTreeSet<u32> {
    b.insts
        .iter()
        .filter(|i| {
            !matches!(i.opcode.as_str(), "IMPLICIT_DEF" | "PHI") && !is_terminator(&i.opcode)
        })
        .flat_map(|i| {
            i.defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
        })
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

fn side_writes(b: &Block, target: Target) -> (bool, bool) {
    b.insts.iter().fold((false, false), |(g, l), i| {
        let (g2, l2) = writes(i, target);
        (g || g2, l || l2)
    })
}

/// The 32-bit pieces of a register operand: rule variable names or concrete registers.
fn dwords(side: &Side, o: &Operand, target: Target) -> Result<Vec<String>, String> {
    match &o.kind {
        OpKind::VReg { id, sub } => {
            let cls = side
                .classes
                .get(id)
                .ok_or_else(|| format!("%{id} has no register class"))?;
            let n = class_dwords(cls)
                .ok_or_else(|| format!("%{id} has class {cls}, which is not split into dwords"))?;
            let idx: Vec<u32> = match sub {
                None => (0..n).collect(),
                Some(s) => {
                    sub_indices(s).ok_or_else(|| format!("sub-register {s} not modelled"))?
                }
            };
            if idx.iter().any(|k| *k >= n) {
                return Err(format!(
                    "%{id}.{} is outside class {cls}",
                    sub.as_deref().unwrap_or("")
                ));
            }
            Ok(idx.iter().map(|k| format!("%r{id}_{k}")).collect())
        }
        OpKind::Phys(p) => phys(p, target),
        other => Err(format!("expected a register, found {other:?}")),
    }
}

/// `sub0` -> [0]; `sub2_sub3` -> [2, 3].
fn sub_indices(s: &str) -> Option<Vec<u32>> {
    s.split('_')
        .map(|p| p.strip_prefix("sub").and_then(|d| d.parse().ok()))
        .collect()
}

/// `vgpr0` -> [v0]; `sgpr4_sgpr5` -> [s4, s5]; `exec` -> [exec_lo, exec_hi] on wave64.
fn phys(p: &str, target: Target) -> Result<Vec<String>, String> {
    let wave64 = gcnsmt_lifter::lift::wave_size(target) == 64;
    let pair = |lo: &str, hi: &str| {
        if wave64 {
            vec![lo.to_string(), hi.to_string()]
        } else {
            vec![lo.to_string()]
        }
    };
    match p {
        "m0" => return Ok(vec!["m0".into()]),
        "exec" => return Ok(pair("exec_lo", "exec_hi")),
        "vcc" => return Ok(pair("vcc_lo", "vcc_hi")),
        "exec_lo" | "vcc_lo" | "exec_hi" | "vcc_hi" => return Ok(vec![p.to_string()]),
        "sgpr_null" => return Ok(vec!["null".into()]),
        _ => {}
    }
    p.split('_')
        .map(|part| {
            for (pre, short) in [("vgpr", "v"), ("sgpr", "s"), ("agpr", "a")] {
                if let Some(d) = part.strip_prefix(pre) {
                    if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) {
                        return Ok(format!("{short}{d}"));
                    }
                }
            }
            Err(format!("physical register ${p} is not modelled"))
        })
        .collect()
}

/// A register list as an operand: one name, a concrete range `v[2:3]`, or `{%a, %b}`.
fn tuple(parts: &[String]) -> String {
    if parts.len() == 1 {
        return parts[0].clone();
    }
    let concrete = parts.iter().all(|p| !p.starts_with('%'));
    if concrete {
        let bank = &parts[0][..1];
        let nums: Option<Vec<u32>> = parts
            .iter()
            .map(|p| p.strip_prefix(bank).and_then(|d| d.parse().ok()))
            .collect();
        if let Some(n) = nums {
            if n.windows(2).all(|w| w[1] == w[0] + 1) {
                return format!("{bank}[{}:{}]", n[0], n[n.len() - 1]);
            }
        }
    }
    format!("{{{}}}", parts.join(", "))
}

fn imm_text(v: i64) -> String {
    if (-16..=64).contains(&v) {
        v.to_string()
    } else {
        format!("0x{:x}", v as u32)
    }
}

/// A source operand: an immediate or one dword.
fn src(side: &Side, o: &Operand, target: Target) -> Result<String, String> {
    match o.kind {
        OpKind::Imm(v) => Ok(imm_text(v)),
        _ => {
            let d = dwords(side, o, target)?;
            if d.len() != 1 {
                return Err("a 32-bit source has more than one register".into());
            }
            Ok(d[0].clone())
        }
    }
}

fn is_vgpr_dest(side: &Side, o: &Operand) -> bool {
    match &o.kind {
        OpKind::VReg { id, .. } => side.classes.get(id).is_some_and(|c| class_bank(c) == 'v'),
        OpKind::Phys(p) => p.starts_with("vgpr"),
        _ => false,
    }
}

fn lower_side(side: &Side, target: Target) -> Result<Vec<Line>, Unsupported> {
    let mut out = Vec::new();
    for i in &side.block.insts {
        let op = i.opcode.as_str();
        if is_terminator(op) || matches!(op, "IMPLICIT_DEF" | "KILL" | "PHI") {
            continue;
        }
        let modelled = PSEUDO.contains(&op) || opcodes::lookup(target, op).is_some();
        if !modelled {
            continue; // an uninterpreted twin, checked by the caller
        }
        let loc = Loc {
            line: i.loc.line,
            col: i.loc.col,
        };
        let texts = lower_inst(side, i, target)
            .map_err(|m| Unsupported(format!("{}: {op}: {m}", at(side, i))))?;
        for t in texts {
            out.push(Line { text: t, loc });
        }
    }
    Ok(out)
}

fn mov(side: &Side, dst: &Operand, d: &str, s: &str) -> Result<String, String> {
    if is_vgpr_dest(side, dst) {
        Ok(format!("v_mov_b32 {d}, {s}"))
    } else if let OpKind::VReg { id, .. } = dst.kind {
        let cls = side.classes.get(&id).map(String::as_str).unwrap_or("");
        if class_bank(cls) != 's' {
            return Err(format!("a copy into class {cls} is not modelled"));
        }
        Ok(format!("s_mov_b32 {d}, {s}"))
    } else {
        Ok(format!("s_mov_b32 {d}, {s}"))
    }
}

/// Reject an SGPR destination fed from a VGPR (that needs v_readfirstlane).
fn check_copy_banks(side: &Side, dst: &Operand, src: &Operand) -> Result<(), String> {
    let bank = |o: &Operand| match &o.kind {
        OpKind::VReg { id, .. } => side.classes.get(id).map(|c| class_bank(c)),
        OpKind::Phys(p) if p.starts_with("vgpr") => Some('v'),
        OpKind::Phys(p) if p.starts_with("agpr") => Some('a'),
        OpKind::Phys(_) => Some('s'),
        _ => None,
    };
    match (bank(dst), bank(src)) {
        (Some('s'), Some('v')) => Err("a VGPR to SGPR copy is not modelled".into()),
        (Some('a'), _) | (_, Some('a')) => Err("AGPR copies are not modelled".into()),
        _ => Ok(()),
    }
}

fn lower_inst(side: &Side, i: &Inst, target: Target) -> Result<Vec<String>, String> {
    let uses: Vec<&Operand> = i.uses().collect();
    let def = |k: usize| {
        i.defs
            .get(k)
            .ok_or_else(|| "missing definition".to_string())
    };
    match i.opcode.as_str() {
        "COPY" | "EXTRACT_SUBREG" => {
            let d = def(0)?;
            let s = uses.first().ok_or("missing source")?;
            check_copy_banks(side, d, s)?;
            let mut sd = dwords(side, s, target)?;
            if i.opcode == "EXTRACT_SUBREG" {
                let Some(OpKind::SubIdx(sub)) = uses.get(1).map(|o| &o.kind) else {
                    return Err("missing sub-register index".into());
                };
                let idx = sub_indices(sub).ok_or("sub-register not modelled")?;
                sd = idx
                    .iter()
                    .map(|k| sd.get(*k as usize).cloned().ok_or("index outside source"))
                    .collect::<Result<_, _>>()?;
            }
            let dd = dwords(side, d, target)?;
            if dd.len() != sd.len() {
                return Err(format!("copies {} dwords into {}", sd.len(), dd.len()));
            }
            dd.iter()
                .zip(&sd)
                .filter(|(a, b)| a != b)
                .map(|(a, b)| mov(side, d, a, b))
                .collect()
        }
        "REG_SEQUENCE" | "INSERT_SUBREG" => {
            let d = def(0)?;
            let dd = dwords(side, d, target)?;
            let mut out = Vec::new();
            let pairs: &[&Operand] = if i.opcode == "INSERT_SUBREG" {
                let base = uses.first().ok_or("missing source")?;
                check_copy_banks(side, d, base)?;
                let bd = dwords(side, base, target)?;
                if bd.len() != dd.len() {
                    return Err("INSERT_SUBREG source width differs".into());
                }
                for (a, b) in dd.iter().zip(&bd) {
                    out.push(mov(side, d, a, b)?);
                }
                &uses[1..]
            } else {
                &uses[..]
            };
            for pair in pairs.chunks(2) {
                let [s, idx] = pair else {
                    return Err("operands do not come in (register, index) pairs".into());
                };
                let OpKind::SubIdx(sub) = &idx.kind else {
                    return Err("expected %subreg.subN".into());
                };
                check_copy_banks(side, d, s)?;
                let k = sub_indices(sub).ok_or("sub-register not modelled")?;
                let sd = dwords(side, s, target)?;
                if sd.len() != k.len() {
                    return Err(format!(
                        "{sub} takes {} dwords, the source has {}",
                        k.len(),
                        sd.len()
                    ));
                }
                for (kk, s1) in k.iter().zip(&sd) {
                    let d1 = dd.get(*kk as usize).ok_or("index outside destination")?;
                    out.push(mov(side, d, d1, s1)?);
                }
            }
            Ok(out)
        }
        op => match opcodes::lookup(target, op).ok_or("not modelled")? {
            MirOp::Ds { mnemonic, shape } => ds(side, i, &uses, target, mnemonic, &shape),
            MirOp::Mubuf {
                mnemonic,
                shape,
                addr,
                lds,
                rtn,
            } => {
                let m = Mubuf {
                    mnemonic,
                    class: shape.class,
                    addr,
                    lds,
                    rtn,
                };
                mubuf(side, i, &uses, target, &m)
            }
            MirOp::Alu {
                mnemonic,
                srcs,
                sdst,
                trailing,
                mods,
                vcc,
            } => {
                let a = Alu {
                    mnemonic,
                    srcs,
                    sdst,
                    trailing,
                    mods,
                    vcc,
                };
                alu(side, i, &uses, target, &a)
            }
        },
    }
}

fn imm(o: Option<&&Operand>, what: &str) -> Result<i64, String> {
    match o.map(|o| &o.kind) {
        Some(OpKind::Imm(v)) => Ok(*v),
        _ => Err(format!("expected the {what} immediate")),
    }
}

fn ds(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
    mnemonic: &str,
    shape: &gcnsmt_lifter::table::DsShape,
) -> Result<Vec<String>, String> {
    let mut regs = Vec::new();
    if shape.vdst > 0 {
        regs.push(tuple(&dwords(
            side,
            i.defs.first().ok_or("missing vdst")?,
            target,
        )?));
    } else if !i.defs.is_empty() {
        return Err("defines a register the op does not have".into());
    }
    let nreg =
        usize::from(shape.addr) + usize::from(shape.data0 > 0) + usize::from(shape.data1 > 0);
    let noff = match shape.offset {
        OffsetKind::None => 0,
        OffsetKind::Single => 1,
        OffsetKind::Pair => 2,
    };
    if uses.len() != nreg + noff + 1 {
        return Err(format!(
            "expected {} operands, found {}",
            nreg + noff + 1,
            uses.len()
        ));
    }
    for o in &uses[..nreg] {
        regs.push(tuple(&dwords(side, o, target)?));
    }
    let mut t = format!("{mnemonic} {}", regs.join(", "));
    match shape.offset {
        OffsetKind::Single => {
            let v = imm(uses.get(nreg), "offset")?;
            if v != 0 {
                t.push_str(&format!(" offset:{v}"));
            }
        }
        OffsetKind::Pair => {
            let a = imm(uses.get(nreg), "offset0")?;
            let b = imm(uses.get(nreg + 1), "offset1")?;
            t.push_str(&format!(" offset0:{a} offset1:{b}"));
        }
        OffsetKind::None => {}
    }
    if imm(uses.get(nreg + noff), "gds")? != 0 {
        t.push_str(" gds");
    }
    Ok(vec![t])
}

struct Mubuf<'a> {
    mnemonic: &'a str,
    class: MubufClass,
    addr: AddrKind,
    lds: bool,
    rtn: bool,
}

/// Cache-policy bits as llvm-mc spells them (LLVM `CPol`: GLC 1, SLC 2, DLC 4, SCC 16;
/// gfx940: SC0 1, NT 2, SC1 16; gfx12: TH 2:0, SCOPE 4:3).
fn cpol_text(target: Target, cpol: i64, atomic: bool) -> Result<String, String> {
    let g = target.gen();
    let mut out = String::new();
    if g >= Gen::Gfx12 {
        let th = cpol & 7;
        let scope = (cpol >> 3) & 3;
        if scope != 0 || (th != 0 && !(atomic && th == 1)) || cpol >> 5 != 0 {
            return Err(format!(
                "cache policy {cpol} is not modelled on {}",
                target.name()
            ));
        }
        if th == 1 {
            out.push_str(" th:TH_ATOMIC_RETURN");
        }
        return Ok(out);
    }
    let gfx940 = matches!(target, Target::Gfx942 | Target::Gfx950);
    let names: &[(i64, &str)] = if gfx940 {
        &[(1, "sc0"), (16, "sc1"), (2, "nt")]
    } else {
        &[(1, "glc"), (2, "slc"), (4, "dlc"), (16, "scc")]
    };
    let mut rest = cpol;
    for (bit, n) in names {
        if cpol & bit != 0 {
            out.push(' ');
            out.push_str(n);
            rest &= !bit;
        }
    }
    if rest != 0 {
        return Err(format!("cache policy bits {rest:#x} are not modelled"));
    }
    Ok(out)
}

fn mubuf(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
    m: &Mubuf,
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut k = 0;
    let mut vdata: Option<String> = None;
    let loads = m.class == MubufClass::Load;
    if loads && !m.lds {
        vdata = Some(tuple(&dwords(
            side,
            i.defs.first().ok_or("missing vdata")?,
            target,
        )?));
    } else if !loads {
        let data = uses.first().ok_or("missing vdata")?;
        let dd = dwords(side, data, target)?;
        k = 1;
        if m.rtn {
            // vdst is tied to vdata: copy the data into the destination, then run in place.
            let d = i.defs.first().ok_or("missing vdst")?;
            let dst = dwords(side, d, target)?;
            if dst.len() != dd.len() {
                return Err("vdst and vdata widths differ".into());
            }
            for (a, b) in dst.iter().zip(&dd) {
                out.push(format!("v_mov_b32 {a}, {b}"));
            }
            vdata = Some(tuple(&dst));
        } else {
            vdata = Some(tuple(&dd));
        }
    }
    let vaddr = if m.addr == AddrKind::Offset {
        "off".to_string()
    } else {
        k += 1;
        tuple(&dwords(
            side,
            uses.get(k - 1).ok_or("missing vaddr")?,
            target,
        )?)
    };
    let srsrc = tuple(&dwords(side, uses.get(k).ok_or("missing srsrc")?, target)?);
    let soff = match uses.get(k + 1).map(|o| &o.kind) {
        Some(OpKind::Imm(v)) if (0..=64).contains(v) => v.to_string(),
        Some(OpKind::Imm(v)) => return Err(format!("soffset {v} is not an inline constant")),
        Some(_) => src(side, uses[k + 1], target)?,
        None => return Err("missing soffset".into()),
    };
    let offset = imm(uses.get(k + 2), "offset")?;
    let cpol = imm(uses.get(k + 3), "cpol")?;
    let rest = &uses[(k + 4).min(uses.len())..];
    if rest.len() > 1 || rest.iter().any(|o| o.kind != OpKind::Imm(0)) {
        return Err("swizzle or extra operands are not modelled".into());
    }
    let mut t = m.mnemonic.to_string();
    if let Some(v) = vdata {
        t.push_str(&format!(" {v},"));
    }
    t.push_str(&format!(" {vaddr}, {srsrc}, {soff}"));
    t.push_str(match m.addr {
        AddrKind::Offset => "",
        AddrKind::Offen => " offen",
        AddrKind::Idxen => " idxen",
        AddrKind::Bothen => " idxen offen",
        AddrKind::Addr64 => " addr64",
    });
    if offset != 0 {
        t.push_str(&format!(" offset:{offset}"));
    }
    t.push_str(&cpol_text(target, cpol, m.class == MubufClass::Atomic)?);
    if m.lds {
        t.push_str(" lds");
    }
    out.push(t);
    Ok(out)
}

struct Alu<'a> {
    mnemonic: &'a str,
    srcs: u8,
    sdst: bool,
    trailing: u8,
    mods: bool,
    vcc: bool,
}

fn alu(
    side: &Side,
    i: &Inst,
    uses: &[&Operand],
    target: Target,
    a: &Alu,
) -> Result<Vec<String>, String> {
    let Alu {
        mnemonic,
        srcs,
        sdst,
        trailing,
        mods,
        vcc,
    } = *a;
    let mut regs = vec![tuple(&dwords(
        side,
        i.defs.first().ok_or("missing vdst")?,
        target,
    )?)];
    if vcc {
        let wave64 = gcnsmt_lifter::lift::wave_size(target) == 64;
        regs.push(if wave64 { "vcc" } else { "vcc_lo" }.to_string());
    } else if sdst {
        regs.push(tuple(&dwords(
            side,
            i.defs.get(1).ok_or("missing carry-out")?,
            target,
        )?));
    }
    let mut k = 0;
    for n in 0..srcs {
        if mods && n < 2 {
            if imm(uses.get(k), "source modifier")? != 0 {
                return Err("source modifiers are not modelled".into());
            }
            k += 1;
        }
        let o = uses.get(k).ok_or("missing source")?;
        regs.push(src(side, o, target)?);
        k += 1;
    }
    for _ in 0..trailing {
        if imm(uses.get(k), "clamp")? != 0 {
            return Err("clamp is not modelled".into());
        }
        k += 1;
    }
    if k != uses.len() {
        return Err(format!("expected {k} operands, found {}", uses.len()));
    }
    Ok(vec![format!("{mnemonic} {}", regs.join(", "))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_split_into_dwords() {
        // LLVM SIRegisterInfo.td class names carry their width in bits.
        assert_eq!(class_dwords("vgpr_32"), Some(1));
        assert_eq!(class_dwords("vreg_64"), Some(2));
        assert_eq!(class_dwords("sgpr_128"), Some(4));
        assert_eq!(class_dwords("sreg_64_xexec"), Some(2));
        assert_eq!(class_dwords("vreg_1"), None);
        assert_eq!(class_bank("sreg_32"), 's');
        assert_eq!(class_bank("vreg_96"), 'v');
        assert_eq!(class_bank("av_32"), 'v');
        assert_eq!(class_bank("areg_64"), 'a');
    }

    #[test]
    fn physical_registers() {
        assert_eq!(phys("vgpr0", Target::Gfx900).unwrap(), vec!["v0"]);
        assert_eq!(
            phys("sgpr4_sgpr5", Target::Gfx900).unwrap(),
            vec!["s4", "s5"]
        );
        assert_eq!(
            phys("exec", Target::Gfx900).unwrap(),
            vec!["exec_lo", "exec_hi"]
        );
        assert_eq!(phys("exec", Target::Gfx1100).unwrap(), vec!["exec_lo"]);
        assert!(phys("scc", Target::Gfx900).is_err());
        assert_eq!(tuple(&["s4".into(), "s5".into()]), "s[4:5]");
        assert_eq!(tuple(&["%r1_0".into(), "%r1_1".into()]), "{%r1_0, %r1_1}");
        assert_eq!(sub_indices("sub2_sub3"), Some(vec![2, 3]));
        assert_eq!(imm_text(-1), "-1");
        assert_eq!(imm_text(4096), "0x1000");
    }

    #[test]
    fn cache_policy_names() {
        assert_eq!(cpol_text(Target::Gfx900, 1, false).unwrap(), " glc");
        assert_eq!(cpol_text(Target::Gfx942, 1, true).unwrap(), " sc0");
        assert_eq!(
            cpol_text(Target::Gfx1200, 1, true).unwrap(),
            " th:TH_ATOMIC_RETURN"
        );
        assert!(cpol_text(Target::Gfx1200, 8, false).is_err());
    }
}
