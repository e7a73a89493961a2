//! The inactive lanes of a callable function's VGPRs (breaker 13: 05).
//!
//! AMDGPUUsage (calling convention of non-kernel functions, LLVM D95610): "Lanes of VGPRs
//! that are inactive for the call must be preserved for all VGPRs", the caller-saved `v0`-`v39`
//! too; a caller may keep a whole-wave value or SGPR spill lanes there. The block check
//! compares the registers a caller or a later block reads (`diff.rs`, `csr.rs`), not the
//! inactive lanes of a dead or caller-saved VGPR. That is enough while EXEC never has a lane
//! the function's entry EXEC did not have, and no instruction writes a lane EXEC does not
//! enable: then neither side writes such a lane at all, and both return it unchanged.
//!
//! Which EXEC values stay within the entry EXEC is shown per function, flow-insensitively: a
//! mask is *tame* when every definition of its register computes it from EXEC or from tame
//! masks in a way that cannot add lanes (a copy of EXEC, the saved mask of `S_*_SAVEEXEC`,
//! `AND` with a tame mask, `OR`/`XOR`/copies of tame masks, `SI_IF`'s mask), the greatest
//! such set (an inductive invariant: each definition keeps it if its sources have it). A
//! function's input registers, registers a call may clobber (physical registers in a
//! function with a call), physical registers without liveness lists and immediates other
//! than 0 are not tame. A function *may widen* when an instruction writes EXEC with a value
//! not shown tame (`S_OR_SAVEEXEC_B64 -1`, `$exec = S_MOV_B64 -1`, `ENTER_STRICT_WWM`, an
//! inline asm that clobbers EXEC) or writes lanes whatever EXEC says (`V_WRITELANE_B32`,
//! `V_SET_INACTIVE_B32`, whole-wave copies and spills). In a callable function that may widen
//! on either side, a changed block pair that writes a VGPR on either side is not `proved`
//! (`unsupported`): the lanes a caller keeps are not compared. Kernels and shaders
//! (`isEntryFunction: true`, or a function without a return) have no caller.

use super::diff::{BlockPair, FnPair};
use super::mir::{Function, Inst, OpKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `f` returns to a caller (module doc).
pub(super) fn callable(f: &Function) -> bool {
    match f.frame.entry {
        Some(e) => !e,
        None => f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
            let op = i.opcode.as_str();
            op == "SI_RETURN"
                || op.starts_with("S_SETPC_B64_return")
                || op.starts_with("SI_TCRETURN")
        }),
    }
}

/// Writes lanes whatever EXEC says, or runs a whole-wave region.
fn lane_writer(op: &str) -> bool {
    super::exec::is_mode_copy(op)
        || [
            "V_WRITELANE",
            "V_SET_INACTIVE",
            "SI_SPILL_WWM",
            "SI_SPILL_S",
            "SI_WHOLE_WAVE",
            "ENTER_STRICT_",
            "WWM_COPY",
        ]
        .iter()
        .any(|p| op.starts_with(p))
}

fn is_exec(p: &str) -> bool {
    p.starts_with("exec")
}

/// The register keys of an operand: `%N`, or the 32-bit cells of a physical register.
fn keys(o: &Operand) -> Vec<String> {
    match &o.kind {
        OpKind::VReg { id, .. } => vec![format!("%{id}")],
        OpKind::Phys(p) => p.split('_').map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// The register definitions of `i` (explicit, `def` and `implicit-def` operands).
fn defs(i: &Inst) -> impl Iterator<Item = &Operand> {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
}

/// Whether `i` computes a tame value (module doc) for its register definitions, given which
/// registers are tame. The explicit sources only: implicit operands are `$exec`, `$scc`.
fn tame_def(i: &Inst, tame: &BTreeSet<String>) -> bool {
    let t = |o: &Operand| match &o.kind {
        // An `undef` read is any value.
        _ if o.flags.undef => false,
        OpKind::Imm(v) => *v == 0,
        OpKind::Phys(p) if is_exec(p) => true,
        OpKind::VReg { .. } | OpKind::Phys(_) => keys(o).iter().all(|k| tame.contains(k)),
        _ => true,
    };
    let src: Vec<&Operand> = i
        .uses()
        .filter(|o| !o.flags.def && !matches!(o.kind, OpKind::Other(_) | OpKind::SubIdx(_)))
        .collect();
    let op = i.opcode.trim_end_matches("_term");
    let any = src.iter().any(|o| t(o));
    let all = src.iter().all(|o| t(o));
    match op {
        _ if op.contains("_SAVEEXEC_") => true,
        "SI_IF" => true,
        "S_AND_B32" | "S_AND_B64" => any,
        "S_ANDN2_B32" | "S_ANDN2_B64" | "SI_ELSE" => src.first().is_some_and(|o| t(o)),
        "SI_IF_BREAK" => src.get(1).is_some_and(|o| t(o)),
        "COPY" | "S_MOV_B32" | "S_MOV_B64" | "PHI" | "S_OR_B32" | "S_OR_B64" | "S_XOR_B32"
        | "S_XOR_B64" => all,
        _ => false,
    }
}

/// Whether the EXEC value `i` writes is tame, given the tame registers.
fn tame_exec(i: &Inst, tame: &BTreeSet<String>) -> bool {
    let op = i.opcode.trim_end_matches("_term");
    let src = |k: usize| {
        i.uses()
            .filter(|o| !matches!(o.kind, OpKind::Other(_)))
            .nth(k)
            .is_some_and(|o| tame_def(&copy_of(o), tame))
    };
    match op {
        _ if op.starts_with("S_AND_SAVEEXEC") || op.starts_with("S_ANDN1_SAVEEXEC") => true,
        _ if op.starts_with("S_OR_SAVEEXEC")
            || op.starts_with("S_XOR_SAVEEXEC")
            || op.starts_with("S_ANDN2_SAVEEXEC") =>
        {
            src(0)
        }
        _ if op.contains("_SAVEEXEC") || op.contains("_WREXEC") => false,
        _ if op.starts_with("V_CMPX")
            || op.starts_with("SI_KILL")
            || op.starts_with("SI_DEMOTE") =>
        {
            true
        }
        "SI_IF" | "SI_LOOP" | "SI_EARLY_TERMINATE_SCC0" => true,
        "SI_END_CF" => src(0),
        _ => tame_def(i, tame),
    }
}

/// `COPY o`, to ask whether the operand alone is tame.
fn copy_of(o: &Operand) -> Inst {
    Inst {
        loc: o.loc,
        defs: Vec::new(),
        opcode: "COPY".into(),
        ops: vec![o.clone()],
        key: String::new(),
        mem: String::new(),
        private: false,
    }
}

/// The tame registers of `f` (module doc): a greatest fixpoint.
fn tame_set(f: &Function) -> BTreeSet<String> {
    let insts: Vec<&Inst> = f.blocks.iter().flat_map(|b| &b.insts).collect();
    let call = insts.iter().any(|i| {
        let op = i.opcode.as_str();
        op.starts_with("SI_CALL") || op.starts_with("SI_TCRETURN") || op.starts_with("S_SWAPPC")
    });
    let phys_ok = f.tracks_liveness && !call;
    let inputs: BTreeSet<String> = f.blocks.first().map_or_else(BTreeSet::new, |b| {
        b.liveins
            .iter()
            .flat_map(|p| p.split('_').map(str::to_string))
            .collect()
    });
    let mut tame: BTreeSet<String> = insts
        .iter()
        .flat_map(|i| defs(i))
        .filter(|o| phys_ok || matches!(o.kind, OpKind::VReg { .. }))
        .flat_map(keys)
        .filter(|k| !inputs.contains(k) && !is_exec(k))
        .collect();
    loop {
        let wild: Vec<String> = insts
            .iter()
            .filter(|i| !tame_def(i, &tame))
            .flat_map(|i| defs(i).flat_map(keys))
            .filter(|k| tame.contains(k))
            .collect();
        if wild.is_empty() {
            return tame;
        }
        wild.iter().for_each(|k| {
            tame.remove(k);
        });
    }
}

/// The first instruction of `f` that may give EXEC, or a written VGPR, a lane the function's
/// entry EXEC did not have (module doc).
fn widening(f: &Function) -> Option<&Inst> {
    let tame = tame_set(f);
    f.blocks.iter().flat_map(|b| &b.insts).find(|i| {
        lane_writer(&i.opcode)
            || defs(i).any(|o| matches!(&o.kind, OpKind::Phys(p) if is_exec(p)))
                && !tame_exec(i, &tame)
    })
}

/// Whether `i` writes a VGPR or AGPR (a virtual register of unknown class may be one).
fn writes_vgpr(i: &Inst, classes: &BTreeMap<u32, String>) -> bool {
    defs(i).any(|o| match &o.kind {
        OpKind::Phys(p) => p.starts_with("vgpr") || p.starts_with("agpr"),
        OpKind::VReg { id, .. } => classes.get(id).is_none_or(|c| {
            !(c.starts_with("sgpr") || c.starts_with("sreg") || c.starts_with("ccr_sgpr"))
        }),
        _ => false,
    })
}

/// In a callable function (either side), the first instruction that may widen EXEC and its
/// side ([`widening`]): a property of the function pair, found once per pair.
fn fn_widening(fp: &FnPair) -> Option<(&'static str, u32, String)> {
    if !(callable(fp.before) || callable(fp.after)) {
        return None;
    }
    let at = |side| move |i: &Inst| (side, i.loc.line, i.opcode.clone());
    widening(fp.before)
        .map(at("before"))
        .or_else(|| widening(fp.after).map(at("after")))
}

/// Turn a `proved` verdict of a changed pair into `unsupported` when the pair's callable
/// function may give a VGPR's inactive lanes other values on one side (module doc).
pub fn settle(
    (verdict, reason): (&mut &'static str, &mut Option<String>),
    fp: &FnPair,
    bp: &BlockPair,
) {
    if *verdict != "proved" {
        return;
    }
    let vgpr = bp
        .before
        .insts
        .iter()
        .any(|i| writes_vgpr(i, &fp.before.classes))
        || bp
            .after
            .insts
            .iter()
            .any(|i| writes_vgpr(i, &fp.after.classes));
    if !vgpr {
        return;
    }
    let Some((side, line, opcode)) = fp.widening.get_or_init(|| fn_widening(fp)) else {
        return;
    };
    *verdict = "unsupported";
    *reason = Some(format!(
        "line {line} of the {side}-file: {opcode} may run the function with lanes its entry EXEC did \
         not have; the inactive lanes of VGPRs, which a callable function must preserve for \
         its caller (AMDGPUUsage), are not compared"
    ));
}
