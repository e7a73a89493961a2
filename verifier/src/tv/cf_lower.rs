//! The control-flow pseudos as LLVM's SILowerControlFlow defines them, and terminators compared
//! as branch decisions (docs/tv.md, "Control-flow lowering").
//!
//! `si-lower-control-flow` replaces `SI_IF`/`SI_ELSE`/`SI_LOOP` (terminators) and `SI_END_CF`
//! by SALU mask arithmetic on EXEC, `*_term` copies of it and `S_CBRANCH_EXECZ/EXECNZ`. When a
//! pass changed a block's terminators, both sides are *expanded* here before the lowering: each
//! pseudo becomes the instructions SILowerControlFlow emits for it (the pseudo means what its
//! lowering does), each `*_term` op its plain op, and the branches a canonical list
//! (`S_CBRANCH_EXECZ %bb.N`, `S_CBRANCH_EXECNZ %bb.N`, `S_BRANCH %bb.N`, then any other
//! terminator as written). The block's EXEC is then compared in the lane-bit model (`exec.rs`)
//! and the branch lists must be equal text: both sides branch on "final EXEC == 0" with the same
//! targets, and the final EXECs are equal as whole masks (bit L for every L), so the same
//! successor is taken without modelling the other lanes.

use super::mir::{Block, Function, Inst, OpFlags, OpKind, Operand};
use gcnsmt_semantics::target::Target;
use std::collections::HashMap;

/// The marker [`annotate`] puts on an `SI_IF` whose saved mask is EXEC itself (its only use is
/// one `SI_END_CF`: LLVM's "SimpleIf").
const SIMPLE_IF: &str = "tv-simple-if";
/// The marker on an `SI_IF` whose saved mask is `EXEC & ~cond` (the lanes of the else side).
const XOR_IF: &str = "tv-xor-if";

fn marker(text: &str) -> Operand {
    Operand {
        kind: OpKind::Other(text.into()),
        flags: OpFlags {
            implicit: true,
            ..OpFlags::default()
        },
        loc: Default::default(),
    }
}

/// Mark each `SI_IF` of `f` with the form SILowerControlFlow::emitIf gives its saved mask: EXEC
/// when the result's only use is an `SI_END_CF` ("SimpleIf"), else `EXEC & ~cond` (an XOR).
/// The pass lowers the pseudos in layout order, so an `SI_END_CF` placed before its `SI_IF` is
/// already an `S_OR` when the `SI_IF` is lowered: then the XOR form. With a kill or demote in
/// the function (emitIf then looks for kills on the paths between the two) a would-be simple
/// `SI_IF` gets no marker and is `unsupported`.
pub fn annotate(f: &mut Function) {
    let insts = || f.blocks.iter().flat_map(|b| &b.insts);
    let kills =
        insts().any(|i| i.opcode.starts_with("SI_KILL") || i.opcode.starts_with("SI_DEMOTE"));
    // Every use of each register: (its user's opcode, its position in layout order).
    let mut users: HashMap<u32, Vec<(String, usize)>> = HashMap::new();
    for (n, i) in insts().enumerate() {
        for o in i
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
        {
            if let OpKind::VReg { id, .. } = o.kind {
                users.entry(id).or_default().push((i.opcode.clone(), n));
            }
        }
    }
    for (n, i) in f.blocks.iter_mut().flat_map(|b| &mut b.insts).enumerate() {
        if i.opcode != "SI_IF" {
            continue;
        }
        let Some(OpKind::VReg { id, .. }) = i.defs.first().map(|d| &d.kind) else {
            continue;
        };
        let simple = users
            .get(id)
            .is_some_and(|u| u.len() == 1 && u[0].0 == "SI_END_CF" && u[0].1 > n);
        match (simple, kills) {
            (true, true) => {}
            (true, false) => i.ops.push(marker(SIMPLE_IF)),
            (false, _) => i.ops.push(marker(XOR_IF)),
        }
    }
}

/// The marker [`mark_exec_dead`] puts on the last instruction of a block whose EXEC no later
/// instruction reads.
const EXEC_DEAD: &str = "tv-exec-dead-out";

fn mentions_exec(i: &Inst) -> bool {
    super::exec_read::names_exec(i)
}

/// Mark the blocks of `f` at whose end EXEC is dead: every path from there reaches an
/// `S_ENDPGM` through blocks none of whose instructions may read EXEC (`exec_read.rs`: every
/// VALU op names it as an implicit use, but a VGPR `COPY`, `INLINEASM` or a call reads it
/// without naming it; breaker 13: 06, 07). A least fixpoint from "live": a block is
/// dead-on-entry only when shown so.
pub fn mark_exec_dead(f: &mut Function) {
    let pos: HashMap<u32, usize> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.num, k))
        .collect();
    let n = f.blocks.len();
    let mut dead_in = vec![false; n];
    loop {
        let mut changed = false;
        for (k, b) in f.blocks.iter().enumerate() {
            let reads = |i: &Inst| super::exec_read::may_read_exec(i, &f.classes);
            if dead_in[k] || b.insts.iter().any(reads) {
                continue;
            }
            let ends = b.insts.iter().any(|i| i.opcode == "S_ENDPGM");
            let succ_dead = !b.successors.is_empty()
                && b.successors
                    .iter()
                    .all(|s| pos.get(s).is_some_and(|&j| dead_in[j]));
            if ends || succ_dead {
                dead_in[k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for k in 0..n {
        let b = &f.blocks[k];
        // A terminator that reads EXEC (`S_CBRANCH_EXECZ`, `SI_IF`) decides the branch by the
        // block's final EXEC, which must then be compared (breaker8 02/03).
        let branch_reads = b
            .insts
            .iter()
            .filter(|i| super::lower::is_terminator(&i.opcode))
            .any(mentions_exec);
        let out = !branch_reads
            && !b.successors.is_empty()
            && b.successors
                .iter()
                .all(|s| pos.get(s).is_some_and(|&j| dead_in[j]));
        if let (true, Some(last)) = (out, f.blocks[k].insts.last_mut()) {
            last.ops.push(marker(EXEC_DEAD));
        }
    }
}

/// Whether [`mark_exec_dead`] found EXEC dead at the end of `b`.
pub fn exec_dead_out(b: &Block) -> bool {
    b.insts.last().is_some_and(|i| {
        i.ops
            .iter()
            .any(|o| matches!(&o.kind, OpKind::Other(t) if t == EXEC_DEAD))
    })
}

/// The wave's mask register and the suffix of its SALU ops on `target`.
fn wave(target: Target) -> (&'static str, &'static str) {
    match gcnsmt_lifter::lift::wave_size(target) {
        64 => ("exec", "_B64"),
        _ => ("exec_lo", "_B32"),
    }
}

/// Builds the instructions of one expansion at the pseudo's place.
struct Make<'a> {
    at: &'a Inst,
    exec: &'static str,
    sfx: &'static str,
}

impl Make<'_> {
    fn op(&self, kind: OpKind, flags: OpFlags) -> Operand {
        Operand {
            kind,
            flags,
            loc: self.at.loc,
        }
    }
    fn exec(&self) -> Operand {
        self.op(OpKind::Phys(self.exec.into()), OpFlags::default())
    }
    fn scc(&self) -> Operand {
        let f = OpFlags {
            implicit_def: true,
            ..OpFlags::default()
        };
        self.op(OpKind::Phys("scc".into()), f)
    }
    /// `def = OPCODE<sfx> srcs..., implicit-def $scc` (no SCC for a move).
    fn inst(&self, def: Operand, base: &str, srcs: Vec<Operand>) -> Inst {
        let opcode = match base {
            "COPY" => "COPY".to_string(),
            _ => format!("{base}{}", self.sfx),
        };
        let mut ops = srcs;
        if !matches!(base, "COPY" | "S_MOV") {
            ops.push(self.scc());
        }
        let key = format!(
            "{} = {opcode} {}",
            text(&def),
            ops.iter().map(text).collect::<Vec<_>>().join(", ")
        );
        Inst {
            loc: self.at.loc,
            defs: vec![def],
            opcode,
            ops,
            key,
            mem: String::new(),
            private: false,
        }
    }
    fn branch(&self, opcode: &str, target: &str) -> Inst {
        Inst {
            loc: self.at.loc,
            defs: Vec::new(),
            opcode: opcode.into(),
            ops: vec![self.op(OpKind::Other(target.into()), OpFlags::default())],
            key: format!("{opcode} {target}"),
            mem: String::new(),
            private: false,
        }
    }
}

fn text(o: &Operand) -> String {
    match &o.kind {
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        OpKind::Phys(p) if o.flags.implicit_def => format!("implicit-def ${p}"),
        OpKind::Phys(p) => format!("${p}"),
        OpKind::Imm(v) => v.to_string(),
        OpKind::SubIdx(s) => format!("%subreg.{s}"),
        OpKind::Other(t) => t.clone(),
    }
}

fn block_target(i: &Inst) -> Option<String> {
    i.uses().find_map(|o| match &o.kind {
        OpKind::Other(t) if t.starts_with("%bb.") => Some(t.clone()),
        _ => None,
    })
}

/// `SI_END_CF %m` as emitEndCf lowers it in place: `EXEC = EXEC | %m`, with its SCC.
fn end_cf(m: &Make, i: &Inst) -> Result<Inst, String> {
    let mask = i.uses().next().ok_or("SI_END_CF without a mask")?.clone();
    Ok(m.inst(m.exec(), "S_OR", vec![m.exec(), mask]))
}

/// The plain op a `*_term` copy stands for, when it is one this expansion knows.
fn untermed(op: &str) -> Option<&str> {
    let base = op.strip_suffix("_term")?;
    let known = [
        "S_MOV_B64",
        "S_MOV_B32",
        "S_AND_B64",
        "S_AND_B32",
        "S_OR_B64",
        "S_OR_B32",
        "S_XOR_B64",
        "S_XOR_B32",
        "S_ANDN2_B64",
        "S_ANDN2_B32",
        "S_AND_SAVEEXEC_B64",
        "S_AND_SAVEEXEC_B32",
    ];
    known.contains(&base).then_some(base)
}

/// One side's terminators expanded: the effects (in order) and the branch list.
#[derive(Default)]
struct Terms {
    effects: Vec<Inst>,
    branches: Vec<Inst>,
    /// Instructions for the block's start (the `S_OR_SAVEEXEC` of an `SI_ELSE`).
    start: Vec<Inst>,
    /// A branch of the input (not one a pseudo stands for) is in `branches`: an EXEC write
    /// after it would change what it read.
    real: bool,
}

/// Expand the terminator `i` into `t` (see the module documentation).
fn terminator(m: &Make, i: &Inst, body: &[Inst], t: &mut Terms) -> Result<(), String> {
    let op = i.opcode.as_str();
    let dst = || {
        i.defs
            .first()
            .cloned()
            .ok_or(format!("{op} without a result"))
    };
    let src = || {
        i.uses()
            .next()
            .cloned()
            .ok_or(format!("{op} without a mask"))
    };
    let to = || block_target(i).ok_or(format!("{op} without a target block"));
    if t.real && matches!(op, "SI_IF" | "SI_ELSE" | "SI_LOOP") {
        return Err(format!("{op} after a branch"));
    }
    match op {
        "SI_IF" => {
            // SILowerControlFlow::emitIf: saved = EXEC (SimpleIf) or EXEC & ~cond; EXEC &=
            // cond; S_CBRANCH_EXECZ to the target, placed before the unconditional branch.
            let (d, c) = (dst()?, src()?);
            let form = i.ops.iter().find_map(|o| match &o.kind {
                OpKind::Other(s) if s == SIMPLE_IF || s == XOR_IF => Some(s.as_str()),
                _ => None,
            });
            match form {
                Some(SIMPLE_IF) => {
                    t.effects.push(m.inst(d, "COPY", vec![m.exec()]));
                    t.effects.push(m.inst(m.exec(), "S_AND", vec![m.exec(), c]));
                }
                Some(_) => {
                    t.effects
                        .push(m.inst(d.clone(), "S_AND", vec![m.exec(), c.clone()]));
                    t.effects
                        .push(m.inst(d.clone(), "S_XOR", vec![d.clone(), m.exec()]));
                    t.effects.push(m.inst(m.exec(), "S_XOR", vec![m.exec(), d]));
                }
                None => {
                    return Err("SI_IF before a kill: its saved mask's form is not known".into())
                }
            }
            t.branches.push(m.branch("S_CBRANCH_EXECZ", &to()?));
        }
        "SI_ELSE" => {
            // emitElse: at the block's start saved = EXEC, EXEC |= src (S_OR_SAVEEXEC); here
            // dst = EXEC & saved, EXEC ^= dst; S_CBRANCH_EXECZ to the target. `dst` holds
            // `saved` in between: nothing before its definition reads it.
            let (d, s) = (dst()?, src()?);
            if body
                .iter()
                .any(|j| j.ops.iter().chain(&j.defs).any(|o| o.kind == d.kind))
            {
                return Err("SI_ELSE's result is used before it".into());
            }
            t.start.push(m.inst(d.clone(), "S_OR_SAVEEXEC", vec![s]));
            t.effects
                .push(m.inst(d.clone(), "S_AND", vec![m.exec(), d.clone()]));
            t.effects.push(m.inst(m.exec(), "S_XOR", vec![m.exec(), d]));
            t.branches.push(m.branch("S_CBRANCH_EXECZ", &to()?));
        }
        "SI_LOOP" => {
            // emitLoop: EXEC &= ~mask (S_ANDN2_term); S_CBRANCH_EXECNZ back to the header.
            let s = src()?;
            t.effects
                .push(m.inst(m.exec(), "S_ANDN2", vec![m.exec(), s]));
            t.branches.push(m.branch("S_CBRANCH_EXECNZ", &to()?));
        }
        "S_CBRANCH_EXECZ" | "S_CBRANCH_EXECNZ" | "S_BRANCH" => {
            t.branches.push(m.branch(op, &to()?));
            t.real = true;
        }
        _ if untermed(op).is_some() => {
            if t.real {
                return Err(format!("{op} writes EXEC after a branch"));
            }
            let mut j = i.clone();
            j.opcode = untermed(op).unwrap_or(op).to_string();
            t.effects.push(j);
        }
        _ if op.ends_with("_TERMINATOR") || op.ends_with("_term") || op.starts_with("SI_") => {
            return Err(format!("{op} is not modelled as a branch decision"));
        }
        // S_ENDPGM, S_CBRANCH_SCC*/VCC*, returns: compared as written, after the branches.
        _ => {
            t.branches.push(i.clone());
            t.real = true;
        }
    }
    Ok(())
}

/// Both blocks expanded when the pass changed their terminators or lowered an `SI_END_CF`
/// (`None`: neither). Errors say why a side cannot be expanded (`unsupported`).
pub fn expand_pair(
    before: &Block,
    after: &Block,
    target: Target,
) -> Result<Option<(Block, Block)>, String> {
    let terms = |b: &Block| -> Vec<String> {
        b.insts
            .iter()
            .filter(|i| super::effects::is_terminator(&i.opcode))
            .map(|i| i.key.clone())
            .collect()
    };
    let ends = |b: &Block| b.insts.iter().filter(|i| i.opcode == "SI_END_CF").count();
    if terms(before) == terms(after) && ends(before) == ends(after) {
        return Ok(None);
    }
    Ok(Some((expand(before, target)?, expand(after, target)?)))
}

/// One side expanded: non-terminators in order (`SI_END_CF` lowered), the terminators'
/// effects, then the canonical branch list.
fn expand(b: &Block, target: Target) -> Result<Block, String> {
    let (exec, sfx) = wave(target);
    let mut t = Terms::default();
    let mut body = Vec::new();
    for i in &b.insts {
        let m = Make { at: i, exec, sfx };
        if super::effects::is_terminator(&i.opcode) {
            terminator(&m, i, &body, &mut t)?;
        } else if !t.branches.is_empty() || !t.effects.is_empty() {
            return Err(format!("{} after the block's terminators", i.opcode));
        } else if i.opcode == "SI_END_CF" {
            body.push(end_cf(&m, i)?);
        } else {
            body.push(i.clone());
        }
    }
    let mut insts = t.start;
    insts.extend(body);
    insts.extend(t.effects);
    insts.extend(t.branches);
    if let (true, Some(last)) = (exec_dead_out(b), insts.last_mut()) {
        last.ops.push(marker(EXEC_DEAD));
    }
    Ok(Block { insts, ..b.clone() })
}
