//! Calls with a register mask (`SI_CALL`, docs/tv.md "Calls") in the segment split of
//! `barrier.rs`.
//!
//! A block is checked segment by segment between its split points; where a segment ends at a
//! call, memory must be equal and the next segment starts from arbitrary memory, the same on
//! both sides (the callee may write any of it). Registers follow the call's mask
//! ([`super::regmask`]):
//! - a register the callee clobbers (not in the mask, or a result of the call) holds a fresh
//!   value after it, the same on both sides (the next segment's shared input), so what the
//!   segment left in it is not compared unless the call reads it (an argument);
//! - a register the callee preserves holds on each side what it held at the call. The next
//!   segment starts from a shared input for it, which is sound only where both sides agree at
//!   the call (it stays compared there); and where the register's last writer before the call
//!   is a pure instruction of immediates and virtual registers that are not redefined before
//!   the call, that instruction is replayed at the start of the next segment ("carried"), so
//!   the segment knows the value (a re-initialisation after the call that a pass deleted is
//!   then proved where the register is preserved and refuted where it is clobbered).
//!
//! Assumed (the ABI, AMDGPUUsage "Non-Kernel Functions"): the callee reads only the registers
//! the call names as uses (its arguments) besides saving the preserved ones, and returns with
//! EXEC as on entry.

use super::barrier::is_split;
use super::emit;
use super::lower::is_pure;
use super::mir::{Block, Inst, OpKind};
use super::regmask::{self, Mask};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// The mask of a call: `Ok(None)` for an instruction that is no `SI_CALL` (the other split
/// points, and `S_SWAPPC_B64`/`S_CALL_B64`, which carry no mask and clobber everything);
/// `Err` for an `SI_CALL` whose mask is missing or not one LLVM 22 defines.
pub fn call_mask(i: &Inst) -> Result<Option<Mask>, String> {
    if !i.opcode.starts_with("SI_CALL") {
        return Ok(None);
    }
    for o in i.ops.iter().filter(|o| !o.flags.implicit) {
        if let OpKind::Other(t) = &o.kind {
            if t.starts_with('@') || t.starts_with("target-flags") || t.starts_with('&') {
                continue;
            }
            return regmask::parse(t)
                .map(Some)
                .ok_or_else(|| format!("unknown register mask `{t}`"));
        }
    }
    Err("no register mask".into())
}

/// What an instruction writes of one cell.
#[derive(PartialEq, Eq)]
enum Writes {
    No,
    Yes,
    /// A physical register whose cells are not modelled (`$vgpr0_lo16`, `$flat_scr`).
    Unknown,
}

fn def_regs(i: &Inst) -> impl Iterator<Item = &OpKind> {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .map(|o| &o.kind)
}

fn writes_cell(i: &Inst, cell: &str, target: Target) -> Writes {
    let mut out = Writes::No;
    for k in def_regs(i) {
        if let OpKind::Phys(p) = k {
            match emit::phys(p, target) {
                Ok(cells) if cells.iter().any(|c| c == cell) => return Writes::Yes,
                Ok(_) => {}
                Err(_) if p != "scc" => out = Writes::Unknown,
                Err(_) => {}
            }
        }
    }
    out
}

/// Whether the call `i` (with mask `m`) leaves `cell` as it was.
fn keeps(i: &Inst, m: &Mask, cell: &str, target: Target) -> bool {
    regmask::preserves(m, cell) && writes_cell(i, cell, target) == Writes::No
}

/// The index of the instruction of `insts[..upto]` whose value `cell` holds at `upto`, `None`
/// when that is no instruction's (a live-in) or not one instruction's (a call or an unmodelled
/// register write between).
fn last_writer(insts: &[Inst], upto: usize, cell: &str, target: Target) -> Option<usize> {
    for j in (0..upto).rev() {
        let i = &insts[j];
        match call_mask(i) {
            Ok(Some(m)) if keeps(i, &m, cell, target) => continue,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if matches!(i.opcode.as_str(), "S_SWAPPC_B64" | "S_CALL_B64") => return None,
            Ok(None) => {}
        }
        match writes_cell(i, cell, target) {
            Writes::No => {}
            Writes::Yes => return Some(j),
            Writes::Unknown => return None,
        }
    }
    None
}

/// Whether `insts[j]` computes the same value when replayed at `upto` (right after the call
/// there), and is the last writer of every cell it writes, each kept by the call `m`.
fn carriable(insts: &[Inst], j: usize, upto: usize, m: &Mask, target: Target) -> bool {
    let w = &insts[j];
    let call = &insts[upto];
    let op = w.opcode.as_str();
    if matches!(op, "PHI" | "IMPLICIT_DEF" | "KILL")
        || op.starts_with("ADJCALLSTACK")
        || is_split(op, target)
        || !is_pure(op, target)
    {
        return false;
    }
    for k in def_regs(w) {
        let OpKind::Phys(p) = k else { return false };
        let Ok(cells) = emit::phys(p, target) else {
            return false;
        };
        for c in cells {
            if !keeps(call, m, &c, target) || last_writer(insts, upto, &c, target) != Some(j) {
                return false;
            }
        }
    }
    let between = &insts[j + 1..upto];
    let redefined = |id: u32| {
        between
            .iter()
            .flat_map(def_regs)
            .any(|k| matches!(k, OpKind::VReg { id: d, .. } if *d == id))
    };
    let exec_written = || {
        between.iter().any(|i| {
            !i.opcode.starts_with("SI_CALL")
                && def_regs(i).any(|k| matches!(k, OpKind::Phys(p) if p.starts_with("exec")))
        })
    };
    w.ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def)
        .all(|o| match &o.kind {
            OpKind::Imm(_) | OpKind::SubIdx(_) => true,
            OpKind::VReg { id, .. } => !redefined(*id),
            OpKind::Phys(p) if o.flags.implicit && p == "mode" => true,
            OpKind::Phys(p) if o.flags.implicit && p.starts_with("exec") => !exec_written(),
            _ => false,
        })
}

/// For each preserved cell of `cells`, the index of its last writer before the call
/// `insts[upto]` when [`carriable`] accepts it and every virtual register it reads passes
/// `vreg_ok`.
pub fn carriers(
    insts: &[Inst],
    upto: usize,
    cells: &BTreeSet<String>,
    vreg_ok: &dyn Fn(u32) -> bool,
    target: Target,
) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let Ok(Some(m)) = call_mask(&insts[upto]) else {
        return out;
    };
    for c in cells {
        if !keeps(&insts[upto], &m, c, target) {
            continue;
        }
        let Some(j) = last_writer(insts, upto, c, target) else {
            continue;
        };
        let vregs_ok = insts[j].ops.iter().all(|o| match o.kind {
            OpKind::VReg { id, .. } => vreg_ok(id),
            _ => true,
        });
        if vregs_ok && carriable(insts, j, upto, &m, target) {
            out.insert(c.clone(), j);
        }
    }
    out
}

/// The 32-bit cells of physical register names (names whose cells are not modelled dropped).
pub fn cells_of<'a>(
    names: impl IntoIterator<Item = &'a String>,
    target: Target,
) -> BTreeSet<String> {
    names
        .into_iter()
        .filter_map(|p| emit::phys(p, target).ok())
        .flatten()
        .collect()
}

/// Drop from `phys_live` (the registers compared where a segment ends at `call`) every register
/// the call clobbers in all its cells and does not read: the next segment reads the callee's
/// value, the same on both sides, so what this segment left there is never observed.
pub fn drop_clobbered(call: &Inst, phys_live: &mut BTreeSet<String>, target: Target) {
    let Ok(Some(m)) = call_mask(call) else { return };
    let read: BTreeSet<String> = cells_of(
        call.ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
            .filter_map(|o| match &o.kind {
                OpKind::Phys(p) => Some(p),
                _ => None,
            }),
        target,
    );
    phys_live.retain(|p| {
        let Ok(cells) = emit::phys(p, target) else {
            return true;
        };
        cells.is_empty()
            || cells
                .iter()
                .any(|c| keeps(call, &m, c, target) || read.contains(c))
    });
}

/// An `SI_CALL` of the block whose mask is unknown: the message for `unsupported`.
pub fn unknown_mask(b: &Block, file: &str) -> Option<String> {
    b.insts.iter().find_map(|i| {
        call_mask(i)
            .err()
            .map(|e| format!("{file}:{}:{}: {}: {e}", i.loc.line, i.loc.col, i.opcode))
    })
}
