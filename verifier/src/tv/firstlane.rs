//! `V_READFIRSTLANE_B32`, and the VGPR-to-SGPR `COPY` LLVM lowers to it, in the one-lane check
//! (docs/tv.md, "EXEC and lane masks").
//!
//! The checked lane L is any active lane, not necessarily the first one F, so
//! `readfirstlane(x)` is x's value in lane F. It is lane L's value only when x is uniform: made
//! in the block from SGPRs and immediates by copies and ALU ops. Otherwise the lowering
//! recomputes x for a shadow lane F: the block's instructions that make x again, with every
//! VGPR renamed to lane F's copy (`%r<id + SHADOW>_k`, and `%lfv<n>` for `$vgpr<n>`). Lane F's
//! live-in VGPRs are inputs both sides share (the same registers in the same lane), its SGPRs
//! are lane L's (scalar). Lane F's inputs are unconstrained, which is exact: any values of two
//! lanes can occur together, and F = L is the case where they agree. F is the same lane on both
//! sides only when EXEC is the same there, so a side that writes EXEC is not handled.

use super::emit::{self, Side};
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// What lane F's copy of virtual register `%N` is called: `%N + SHADOW`.
pub const SHADOW: u32 = 1_000_000;

/// The in-block definition of `%id` before instruction `at` (the last one).
pub(super) fn def_of<'a>(side: &'a Side, id: u32, at: usize) -> Option<(usize, &'a Inst)> {
    side.block.insts[..at]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, i)| {
            i.defs
                .iter()
                .any(|d| matches!(d.kind, OpKind::VReg { id: x, .. } if x == id))
        })
}

pub(super) fn vgpr(side: &Side, o: &Operand) -> bool {
    matches!(o.kind, OpKind::VReg { .. } | OpKind::Phys(_)) && emit::is_vgpr_dest(side, o)
}

/// Whether the instruction may be recomputed for lane F: a copy pseudo or a table VALU/SALU op
/// that reads no lane mask (a mask bit is lane L's).
pub(super) fn recomputable(i: &Inst, target: Target) -> bool {
    if lane_dependent(&i.opcode) {
        return false;
    }
    match i.opcode.as_str() {
        "COPY" | "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG" => true,
        op if super::wide::is_wide(op) => true,
        op if op.starts_with("V_CMP") => false,
        op => matches!(
            opcodes::lookup(target, op),
            Some(MirOp::Alu {
                mask: false,
                vcc: false,
                pseudo: false,
                ..
            })
        ),
    }
}

/// Whether `op`'s result in a lane depends on which lane it is or on other lanes' values
/// (`V_MBCNT_*` counts the mask bits below the lane's id; DPP, permutes, lane reads and writes),
/// even when its operands are uniform: such a value is neither uniform nor lane L's formula
/// for lane F.
pub(super) fn lane_dependent(op: &str) -> bool {
    op.starts_with("V_MBCNT")
        || op.starts_with("V_READLANE")
        || op.starts_with("V_WRITELANE")
        || op.starts_with("V_PERMLANE")
        || op.starts_with("V_SWIZZLE")
        || op.starts_with("DS_SWIZZLE")
        || op.starts_with("DS_PERMUTE")
        || op.starts_with("DS_BPERMUTE")
        || op.contains("DPP")
        || op.contains("_dpp")
}

/// Whether `i` is a VGPR-to-SGPR `COPY`, which LLVM lowers to `V_READFIRSTLANE_B32`.
pub fn to_sgpr_copy(side: &Side, i: &Inst) -> bool {
    i.opcode == "COPY"
        && i.defs.first().is_some_and(|d| !emit::is_vgpr_dest(side, d))
        && i.uses().next().is_some_and(|u| vgpr(side, u))
}

/// Whether the source of `i` (instruction `at` of its side) is uniform by construction.
pub(super) fn uniform_at(side: &Side, i: &Inst, at: usize, target: Target) -> bool {
    i.uses()
        .next()
        .is_some_and(|x| uniform(side, x, at, target, 0))
}

/// Whether operand `o` (read by instruction `at`) holds the same value in every active lane.
fn uniform(side: &Side, o: &Operand, at: usize, target: Target, depth: u32) -> bool {
    match &o.kind {
        OpKind::Imm(_) => true,
        _ if !vgpr(side, o) => true,
        OpKind::VReg { id, .. } if depth < 16 => match def_of(side, *id, at) {
            Some((n, i)) => {
                i.opcode != "V_READFIRSTLANE_B32"
                    && recomputable(i, target)
                    && i.uses().all(|u| uniform(side, u, n, target, depth + 1))
            }
            None => false,
        },
        _ => false,
    }
}

/// The lines for `i` = `V_READFIRSTLANE_B32 dst, x` at index `at` of its side.
pub fn lower(side: &Side, i: &Inst, at: usize, target: Target) -> Result<Vec<String>, String> {
    let x = i.uses().next().ok_or("missing source")?;
    if uniform(side, x, at, target, 0) {
        return emit::lower_inst(side, i, target);
    }
    // Under LLVM's meaning the copy holds each lane's value (`v2s.rs`), which one scalar
    // register holds only for a uniform value: not shown here, so not modelled. Not a copy
    // into a physical SGPR: the pass cannot move that one to the VALU and reads the first
    // lane (`V_READFIRSTLANE_B32` into it, PR 76715), the meaning it keeps here.
    let into_phys = i
        .defs
        .first()
        .is_some_and(|d| matches!(d.kind, OpKind::Phys(_)));
    if side.per_lane && to_sgpr_copy(side, i) && !into_phys {
        return Err(format!(
            "a VGPR-to-SGPR copy of a value not shown uniform: {}=PER_LANE gives it \
             each lane's value, which no scalar register holds",
            super::v2s::SETTING
        ));
    }
    // Only an EXEC write before the read changes F (an `SI_IF` after it does not).
    if side.block.insts[..at].iter().any(|j| {
        j.defs
            .iter()
            .chain(j.ops.iter().filter(|o| o.flags.implicit_def))
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
    }) {
        return Err("reads the first active lane of a changing EXEC".into());
    }
    // The definitions x depends on, in block order.
    let mut need: BTreeSet<usize> = BTreeSet::new();
    let mut todo: Vec<(u32, usize)> = Vec::new();
    if let OpKind::VReg { id, .. } = x.kind {
        todo.push((id, at));
    }
    while let Some((id, before)) = todo.pop() {
        let Some((n, d)) = def_of(side, id, before) else {
            continue;
        };
        if !recomputable(d, target) {
            return Err(format!("its source is made by {}", d.opcode));
        }
        if need.insert(n) {
            for u in d.uses() {
                if let OpKind::VReg { id, .. } = u.kind {
                    if vgpr(side, u) {
                        todo.push((id, n));
                    }
                }
            }
        }
    }
    // The recomputed instructions run at the readfirstlane: a scalar or physical register they
    // read must still hold what it held at the original instruction.
    for &n in &need {
        if let Some(r) = overwritten(side, n, at, target) {
            return Err(format!(
                "its source reads {r}, which the block writes before the read"
            ));
        }
    }
    let mut classes: BTreeMap<u32, String> = side.classes.clone();
    let mut shadow = |o: &mut Operand| {
        if let OpKind::VReg { id, .. } = &mut o.kind {
            if let Some(c) = side.classes.get(id).cloned() {
                if emit::class_bank(&c) != 's' {
                    classes.insert(*id + SHADOW, c);
                    *id += SHADOW;
                }
            }
        }
    };
    let mut insts: Vec<Inst> = Vec::new();
    for n in need.iter().copied().chain([at]) {
        // The readfirstlane itself keeps its SGPR result and reads lane F's x.
        let mut j = side.block.insts[n].clone();
        j.defs.iter_mut().for_each(&mut shadow);
        j.ops
            .iter_mut()
            .filter(|o| !o.flags.implicit)
            .for_each(&mut shadow);
        insts.push(j);
    }
    let s2 = Side {
        classes: &classes,
        ..side.clone()
    };
    let mut out = Vec::new();
    for (j, n) in insts.iter().zip(need.iter().copied().chain([at])) {
        for l in emit::lower_inst(&s2, j, target)? {
            out.push(phys_shadow(&l, &side.block.insts[..n])?);
        }
    }
    Ok(out)
}

/// The cells (or `%id`) of a register operand.
fn cells(o: &Operand, target: Target) -> Vec<String> {
    match &o.kind {
        OpKind::VReg { id, .. } => vec![format!("%{id}")],
        OpKind::Phys(p) => emit::phys(p, target).unwrap_or_else(|_| vec![p.clone()]),
        _ => Vec::new(),
    }
}

/// A non-VGPR register instruction `n` reads (implicit ones but EXEC included) that an
/// instruction after it and before `at` writes.
pub(super) fn overwritten(side: &Side, n: usize, at: usize, target: Target) -> Option<String> {
    let i = &side.block.insts[n];
    let read: Vec<String> = i
        .ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def && !vgpr(side, o))
        .filter(|o| !matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
        .flat_map(|o| cells(o, target))
        .collect();
    side.block.insts[n + 1..at].iter().find_map(|j| {
        j.defs
            .iter()
            .chain(j.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
            .flat_map(|o| cells(o, target))
            .find(|c| read.contains(c))
    })
}

/// Lane F's copy of the physical VGPRs a recomputed line reads (`v3` -> `%lfv3`), when no
/// instruction before it (`earlier`) writes a physical VGPR (then `$vgprN` still holds its
/// live-in value, which is what `%lfvN` stands for on both sides).
fn phys_shadow(line: &str, earlier: &[Inst]) -> Result<String, String> {
    let re = regex::Regex::new(r"\bv(\d+)\b").expect("regex");
    if !re.is_match(line) {
        return Ok(line.to_string());
    }
    let writes_vgpr = earlier.iter().any(|j| {
        j.defs
            .iter()
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vgpr")))
    });
    if writes_vgpr {
        return Err("reads a physical VGPR of another lane the block writes".into());
    }
    let (op, rest) = line.split_once(' ').unwrap_or((line, ""));
    Ok(format!("{op} {}", re.replace_all(rest, "%lfv$1")))
}

/// A first-lane read (`V_READFIRSTLANE_B32`, a VGPR-to-SGPR `COPY`) the after-block has and the
/// before-block does not: with EXEC = 0 (a block the wave runs with no lane on, which a skipped
/// `S_CBRANCH_EXECZ` allows) it returns lane 0's stale value, which the one-lane model (lane L
/// runs) cannot see, so a proof holds only for waves with an active lane. The before-file's
/// own reads are fine: the after-file refines whatever stale value they return.
pub(super) fn introduced(before: &Side, after: &Side) -> Option<String> {
    let reads = |s: &Side, i: &Inst| i.opcode == "V_READFIRSTLANE_B32" || to_sgpr_copy(s, i);
    let source = |i: &Inst| i.uses().next().map(|o| o.kind.clone());
    let read_before = |i: &Inst| {
        before
            .block
            .insts
            .iter()
            .any(|j| reads(before, j) && source(j) == source(i))
    };
    // Only a result something other than a VALU op reads matters: with EXEC = 0 the VALU
    // writes nothing, so its per-lane results do not see the stale value.
    let scalar_use = |n: usize, i: &Inst| {
        let Some(OpKind::VReg { id, .. }) = i.defs.first().map(|d| &d.kind) else {
            return true;
        };
        let reads_it = |j: &Inst| {
            j.uses()
                .any(|o| matches!(o.kind, OpKind::VReg { id: x, .. } if x == *id))
        };
        let later = &after.block.insts[n + 1..];
        later.iter().any(|j| {
            reads_it(j) && (!j.opcode.starts_with("V_") || super::lower::is_terminator(&j.opcode))
        }) || !later.iter().any(reads_it)
    };
    let (_, i) = after
        .block
        .insts
        .iter()
        .enumerate()
        .find(|(n, i)| reads(after, i) && !read_before(i) && scalar_use(*n, i))?;
    Some(format!(
        "proved only for waves with an active lane: {}: {} reads the first active lane, \
         lane 0's stale value when EXEC = 0",
        super::lower::at(after, i),
        i.opcode
    ))
}
