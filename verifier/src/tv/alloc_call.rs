//! Calls, single-lane writes and EXEC narrowed through a saved copy in the register-allocation
//! checker (`alloc_step.rs`): an `SI_CALL` both files make with every physical register equal,
//! a `V_WRITELANE_B32` whose destination is its tied old value, and `si-lower-control-flow`'s
//! `%s = COPY $exec; %m = S_AND_B64 %s, %c; $exec = S_MOV_B64_term %m`. Soundness: docs/tv.md,
//! "Calls and `V_WRITELANE_B32` in the allocation checker".

use super::alloc_ops::{Ctx, Side};
use super::alloc_state::{is_phys, Guard, State};
use super::mir::{Block, Inst, OpKind, Operand};
use super::regmask::{self, Mask};

/// Before a matched `SI_CALL`: its mask, when every physical register of the after-function
/// holds its own before-value on every lane (so the callee, which sees only physical
/// registers and memory, starts from the same state on both sides); `Ok(None)` for another
/// instruction.
pub fn call_entry(s: &State, a: &Inst) -> Result<Option<Mask>, String> {
    let Some(mask) = super::calls::call_mask(a)? else {
        return Ok(None);
    };
    for u in s.locs.keys().filter(|u| is_phys(u)) {
        if !s.holds(u, u) {
            return Err(format!(
                "line {}: {} with {u} not holding its own value",
                a.loc.line, a.opcode
            ));
        }
    }
    Ok(Some(mask))
}

/// After a matched `SI_CALL` (its defs written): every physical register the mask does not
/// preserve has a new value, the same on both sides (the callee ran on equal inputs): it
/// holds itself again, and no other location holds its old value.
pub fn call_exit(s: &mut State, mask: &Mask) {
    let mut units: Vec<String> = s.locs.keys().filter(|u| is_phys(u)).cloned().collect();
    for c in s.locs.values() {
        units.extend(c.keys().filter(|n| is_phys(n)).cloned());
    }
    units.extend(s.valid.keys().filter(|n| is_phys(n)).cloned());
    units.sort();
    units.dedup();
    for u in units.iter().filter(|u| !regmask::preserves(mask, u)) {
        s.forget(u);
        s.valid.remove(u.as_str());
        s.set(u, [(u.clone(), Guard::All)].into());
    }
}

/// After a matched `V_WRITELANE_B32 src, lane, old` whose after-destination is the location
/// of its `old` operand (tied, as LLVM emits it): the destination holds the def on every lane.
/// The lane written gets `src` on both sides; every other lane keeps `old`, which that
/// location held on every lane (the match read it as a whole: writelane is no lane-local
/// read), and which the before-def keeps there too. EXEC plays no part.
pub fn writelane_exit(cx: &Ctx, s: &mut State, b: &Inst, a: &Inst) -> Result<(), String> {
    if !b.opcode.starts_with("V_WRITELANE_B32") {
        return Ok(());
    }
    let old = |i: &Inst| -> Option<Operand> { i.uses().nth(2).cloned() };
    let (Some(bo), Some(ao), Some(bd), Some(ad)) = (old(b), old(a), b.defs.first(), a.defs.first())
    else {
        return Err(format!("line {}: V_WRITELANE_B32 operands", a.loc.line));
    };
    let lanes = |side, o: &Operand| cx.lanes(side, o).ok().flatten().unwrap_or_default();
    let (dl, ol) = (lanes(Side::After, ad), lanes(Side::After, &ao));
    let (dn, on) = (lanes(Side::Before, bd), lanes(Side::Before, &bo));
    if dl.len() != 1 || dl != ol || dn.len() != 1 || on.len() != 1 || ao.flags.undef {
        return Err(format!(
            "line {}: V_WRITELANE_B32 not tied to its old value",
            a.loc.line
        ));
    }
    // An `undef` old value in the before-file leaves the def's other lanes undefined: the
    // fact is vacuous there (its defined lanes are over-approximated by every lane).
    let _ = on;
    s.set(&dl[0], [(dn[0].clone(), Guard::All)].into());
    s.valid.insert(dn[0].clone(), Guard::All);
    Ok(())
}

/// Whether before-instruction `i` of `bb` is `$exec = S_MOV_B64[_term] %m` (B32 on
/// `$exec_lo`) where, earlier in `bb`, `%m = S_AND_B64 %s, X` (either order) and `%s = COPY
/// $exec`, with no write of EXEC after that copy and no other write of `%s` or `%m` between:
/// the new EXEC is the old one and X, a subset of its lanes (what `SI_IF` lowers to).
pub fn narrows_via_copy(bb: &Block, i: usize) -> bool {
    let Some(mv) = bb.insts.get(i) else {
        return false;
    };
    let (exec, and) = match mv.opcode.trim_end_matches("_term") {
        "S_MOV_B64" => ("exec", "S_AND_B64"),
        "S_MOV_B32" => ("exec_lo", "S_AND_B32"),
        _ => return false,
    };
    let whole = |o: &Operand| match &o.kind {
        OpKind::VReg { id, sub: None } => Some(*id),
        _ => None,
    };
    let is_exec = |o: &Operand| matches!(&o.kind, OpKind::Phys(p) if p == exec);
    if !mv.defs.first().is_some_and(is_exec) {
        return false;
    }
    let Some(m) = mv.uses().next().and_then(whole) else {
        return false;
    };
    // The last definition of virtual register `r` before index `k`.
    let last_def = |r: u32, k: usize| {
        (0..k).rev().find(|&j| {
            let d = &bb.insts[j];
            d.defs
                .iter()
                .chain(d.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
                .any(|o| matches!(o.kind, OpKind::VReg { id, .. } if id == r))
        })
    };
    let Some(ja) = last_def(m, i) else {
        return false;
    };
    let ai = &bb.insts[ja];
    let srcs: Vec<Option<u32>> = ai.uses().map(whole).collect();
    if ai.opcode != and || srcs.len() != 2 || ai.defs.first().and_then(whole) != Some(m) {
        return false;
    }
    srcs.iter().flatten().any(|&s| {
        let Some(jc) = last_def(s, ja) else {
            return false;
        };
        let c = &bb.insts[jc];
        let saved = c.opcode == "COPY"
            && c.defs.first().and_then(whole) == Some(s)
            && c.uses().next().is_some_and(is_exec);
        // Between the copy and the move nothing writes EXEC (the copy's own `implicit-def
        // $exec` is a liveness mark: it is expanded into a move of its destination alone).
        let quiet = bb.insts[jc + 1..i].iter().all(|x| {
            !x.defs
                .iter()
                .chain(x.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
                .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
        });
        saved && quiet
    })
}
