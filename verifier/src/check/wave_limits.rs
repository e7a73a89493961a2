//! What the lane models cannot decide about the wave (breaker23 02, 03).
//!
//! - `v_readfirstlane_b32` in a single-lane check reads the lane's own VGPR: the one lane is
//!   taken to be the first active lane. A refutation found so is real (a wave whose first
//!   active lane is this one exists), but a proof says nothing about the other waves, where the
//!   first active lane holds another value: a broadcast `readfirstlane(v)` replaced by `v` was
//!   proved. Such a rule is never `proved` or `inapplicable` unless the VGPR read is uniform
//!   (made from scalars and immediates by lane-independent VALU ops: every lane holds it).
//! - Under `Lanes: N` EXEC is an input with no bit outside the N lanes, and the check covers the
//!   waves whose active lanes are among them. An SALU write of EXEC that may set a bit outside
//!   them (`s_mov_b32 exec_lo, -1`) activates lanes the check never runs: their stores, their
//!   compare bits. Such a rule is `unknown`, unless every EXEC write keeps EXEC inside the lanes:
//!   an AND with something, or a copy, OR or XOR of EXEC itself, a saved copy of it, 0, or a
//!   mask a VALU compare or carry-out wrote on that side (whose other bits are 0).

use crate::machine::{Bound, Class, Op, RegKey, Src};
use gcnsmt_semantics::ir::{BinOp, Expr};
use std::collections::BTreeSet;

/// Registers a rule's sides hold the same value in every lane: SGPRs, `vcc`, `m0`, and the
/// variables used as SGPRs.
fn scalar_key(k: &RegKey, scalar_vars: &BTreeSet<String>) -> bool {
    match k.base.as_str() {
        "v" | "a" => false,
        b => match b.strip_prefix('%') {
            Some(n) => scalar_vars.contains(n),
            None => true,
        },
    }
}

/// Why a single-lane proof of the rule with sides `src`, `tgt` would say nothing about other
/// waves: a `v_readfirstlane_b32` (or another VALU op with an SGPR result) of a VGPR that may
/// differ between lanes.
pub(super) fn first_lane_read(src: &[Bound], tgt: &[Bound], pre: Option<&Expr>) -> Option<String> {
    let scalar_vars: BTreeSet<String> = src
        .iter()
        .chain(tgt)
        .flat_map(|b| &b.var_uses)
        .filter(|u| u.class == Class::Sgpr)
        .map(|u| u.name.clone())
        .collect();
    let pinned = pinned(pre, &scalar_vars);
    for side in [src, tgt] {
        // Vector registers known to hold one value in every lane: at first the variables the
        // precondition pins (it holds in every lane).
        let mut uniform: BTreeSet<RegKey> = src
            .iter()
            .chain(tgt)
            .flat_map(|b| b.regs())
            .filter(|k| k.base.strip_prefix('%').is_some_and(|n| pinned.contains(n)))
            .collect();
        for b in side {
            let is_uniform = |k: &RegKey| scalar_key(k, &scalar_vars) || uniform.contains(k);
            let reads_uniform = |srcs: &[Src]| {
                srcs.iter().all(|s| match s {
                    Src::Reg(r) => r.iter().all(is_uniform),
                    Src::Imm(_) => true,
                })
            };
            let result_uniform = match &b.op {
                Op::Alu {
                    alu,
                    srcs,
                    mnemonic,
                    ..
                } => {
                    if alu.to_sgpr && !reads_uniform(srcs) {
                        return Some(format!(
                            "`{}` reads the first active lane's VGPR, which may differ from this \
                             lane's: a single-lane check runs only the wave whose first active \
                             lane is this one ({mnemonic} is not modelled under lanes)",
                            b.text
                        ));
                    }
                    // A lane-mask source is read one bit per lane; MBCNT reads LANE_ID.
                    !alu.smask && !alu.entry.contains("MBCNT") && reads_uniform(srcs)
                }
                // A load at one address in every lane reads the same bytes in every lane.
                _ if loads_only(b) => {
                    let w = b.writes();
                    b.regs().iter().filter(|k| !w.contains(k)).all(is_uniform)
                }
                _ => false,
            };
            for k in b.writes() {
                if result_uniform {
                    uniform.insert(k);
                } else {
                    uniform.remove(&k);
                }
            }
        }
    }
    None
}

/// Whether `b` is a global or scalar load (it writes no memory, and every lane reads the
/// same bytes at the same address). Not FLAT or scratch (a private address is per lane),
/// DS (addtid) or buffer (ADD_TID_ENABLE) loads, whose address may depend on the lane.
fn loads_only(b: &Bound) -> bool {
    match &b.op {
        Op::Mem(op) => {
            !op.writes_memory
                && (op.mnemonic.starts_with("global_") || op.mnemonic.starts_with("s_load"))
        }
        _ => false,
    }
}

/// The vector variables (names without `%`) the precondition pins to one value: a top-level
/// conjunct `%v == E` whose `E` names no vector variable or VGPR (so every lane's `%v` is `E`).
fn pinned(pre: Option<&Expr>, scalar_vars: &BTreeSet<String>) -> BTreeSet<String> {
    let mut conj: Vec<&Expr> = pre.into_iter().collect();
    let mut out = BTreeSet::new();
    while let Some(e) = conj.pop() {
        match e {
            Expr::Binary(BinOp::LAnd, a, b) => conj.extend([&**a, &**b]),
            Expr::Binary(BinOp::Eq, a, b) => {
                for (x, y) in [(a, b), (b, a)] {
                    if let Expr::Var(n) = &**x {
                        if n.starts_with('%') && scalar_only(y, scalar_vars) {
                            out.insert(n[1..].to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `e` names only scalar variables, SGPRs and constants (read off its variable names:
/// a `%` name must be a scalar variable, a register name an SGPR, `m0` or `vcc`).
fn scalar_only(e: &Expr, scalar_vars: &BTreeSet<String>) -> bool {
    let text = format!("{e:?}");
    text.split("Var(\"").skip(1).all(|rest| {
        let name = rest.split('"').next().unwrap_or("");
        match name.strip_prefix('%') {
            Some(n) => scalar_vars.contains(n),
            None => !(name.starts_with('v') || name.starts_with('a') || name == "LANE_ID"),
        }
    })
}

/// Whether `k` is half `half` of EXEC (`exec_lo` 0, `exec_hi` 1).
fn exec_half(k: &RegKey) -> Option<u32> {
    (k.base == "exec").then_some(k.idx)
}

/// Why a check under lanes would not cover the rule with sides `src`, `tgt`: an SALU write of
/// EXEC that may set a bit outside the checked lanes.
pub(super) fn exec_escapes(src: &[Bound], tgt: &[Bound]) -> Option<String> {
    for side in [src, tgt] {
        // Registers holding only bits of the checked lanes, by EXEC half: copies of EXEC, and
        // masks VALU compares and carry-outs wrote (their other bits are 0).
        let mut inside: BTreeSet<(RegKey, u32)> = BTreeSet::new();
        for b in side {
            let Op::Alu {
                alu,
                d0,
                sdst,
                srcs,
                mnemonic,
                ..
            } = &b.op
            else {
                // No other instruction writes EXEC or an SGPR a check would track.
                for k in b.writes() {
                    inside.retain(|(r, _)| *r != k);
                }
                continue;
            };
            if !alu.scalar {
                // A VALU op: per lane, so a V_CMPX keeps EXEC inside; its mask halves too.
                for k in b.writes() {
                    inside.retain(|(r, _)| *r != k);
                }
                let mut masks: Vec<&RegKey> = Vec::new();
                if alu.dmask {
                    masks.extend(d0);
                }
                if alu.sdst {
                    masks.extend(sdst);
                }
                for (i, k) in masks.into_iter().enumerate() {
                    inside.insert((k.clone(), i as u32));
                }
                continue;
            }
            let reg = |s: &Src| match s {
                Src::Reg(r) if r.len() == 1 => Some(r[0].clone()),
                _ => None,
            };
            // The constant 0 has no bit at all (`s_mov_b32 exec_lo, 0` turns every lane off).
            let zero = |s: &Src| matches!(s, Src::Imm(Expr::Lit { value: 0, .. }));
            let within = |s: &Src, half: u32| {
                zero(s)
                    || reg(s).is_some_and(|k| {
                        exec_half(&k) == Some(half) || inside.contains(&(k.clone(), half))
                    })
            };
            // The EXEC half this instruction writes, if any, and whether its value stays
            // inside: an AND with one inside operand, or a MOV/OR/XOR of inside operands only.
            let mut escapes = false;
            let mut copies: Vec<(RegKey, u32)> = Vec::new();
            for k in d0 {
                let half = exec_half(k);
                let keeps = |h: u32| match mnemonic.as_str() {
                    "s_and_b32" => srcs.iter().any(|s| within(s, h)),
                    "s_mov_b32" | "s_or_b32" | "s_xor_b32" => srcs.iter().all(|s| within(s, h)),
                    _ => false,
                };
                if let Some(h) = half {
                    escapes |= !keeps(h);
                } else if let Some(h) = (0..2).find(|&h| keeps(h)) {
                    copies.push((k.clone(), h));
                }
            }
            if escapes {
                return Some(format!(
                    "`{}` may set EXEC bits outside the checked lanes, activating lanes the \
                     check does not run",
                    b.text
                ));
            }
            for k in b.writes() {
                inside.retain(|(r, _)| *r != k);
            }
            inside.extend(copies);
        }
    }
    None
}
