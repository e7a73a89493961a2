//! Operand legality of the VALU forms tv lowers (`_e32`, `_e64`, VOP3P): which scalar values
//! an instruction may read (breaker 18's 03). An instruction the target cannot encode is an
//! input error (`encodable.rs`): a proof about it says nothing about machine code.
//!
//! The rules are LLVM's (`SIInstrInfo::verifyInstruction`, `usesConstantBus`,
//! `findImplicitSGPRRead`, `isOperandLegal`; `GCNSubtarget::getConstantBusLimit`,
//! `hasVOP3Literal`), checked against llvm-mc-22 on gfx900, gfx90a, gfx1030, gfx1100, gfx1200
//! and gfx1250 (2026-12-06; the cases are in `tests/data/tv/break18/03/README.md`):
//! - the constant bus: the distinct SGPRs (a virtual register of an SGPR class, read as
//!   (register, sub-register) as `isOperandLegal` does), the literal, and an implicit read of
//!   `vcc`/`vcc_lo`/`vcc_hi`/`m0`/`flat_scr` not overlapping an explicit SGPR, together at most
//!   1 before gfx10 and 2 from gfx10 on, where the 64-bit shifts keep 1 (llvm-mc-22:
//!   `v_lshlrev_b64 v[0:1], s0, s[2:3]` is rejected on every target). Inline constants and
//!   `sgpr_null` are free;
//! - a literal in a VOP3/VOP3P form (`_e64`, packed) only from gfx10 on, and one literal
//!   value per instruction;
//! - the `_e32` (VOP1/VOP2/VOPC) forms: every explicit source after `src0` must be a VGPR.
//!
//! Sources are found with the opcode table's operand layout (`opcodes::MirOp::Alu`), the one
//! the lowering reads. Inline constants: 32-bit operands take -16..64 and the f32 bit patterns
//! of 0.5, 1, 2, 4 and their negatives (and 1/(2*pi) from gfx8 on), 64-bit operands the
//! same with f64 patterns (`AMDGPU::isInlinableLiteral32/64`). For 16-bit and packed operands
//! an immediate counts as inline when any 16-bit or 32-bit rule could make it one: the check
//! may miss a literal there, it never rejects one llvm-mc accepts.

use super::emit::class_bank;
use super::mir::{Function, Inst, OpKind, Operand};
use super::opcodes::{lookup, MirOp};
use crate::rules::Loc;
use gcnsmt_lifter::inline_const::{inline16, inline32, inline64};
use gcnsmt_semantics::target::{Gen, Target};

/// The 64-bit shifts, whose constant bus limit stays 1 on gfx10+ (`getConstantBusLimit`).
fn shift64(base: &str) -> bool {
    matches!(
        base,
        "V_LSHLREV_B64"
            | "V_LSHLREV_B64_pseudo"
            | "V_LSHL_B64"
            | "V_LSHRREV_B64"
            | "V_LSHR_B64"
            | "V_ASHRREV_I64"
            | "V_ASHR_I64"
    )
}

/// A physical register that reads the constant bus as an explicit operand: the SGPRs and the
/// special scalar registers LLVM puts in `SReg_32`/`SReg_64` (not `sgpr_null`, not `scc`).
fn scalar_phys(p: &str) -> bool {
    p != "sgpr_null"
        && p != "sgpr_null64"
        && [
            "sgpr", "vcc", "exec", "m0", "flat_scr", "ttmp", "xnack", "tba", "tma", "src_",
        ]
        .iter()
        .any(|pre| p.starts_with(pre))
}

/// What an explicit source reads, if it reads the constant bus: an SGPR (its key) or a
/// literal (its value); `None` for a VGPR, an inline constant or anything else.
enum Bus {
    Sgpr(String),
    Literal(i64),
}

fn bus_read(f: &Function, o: &Operand, t: Target, width: Width) -> Option<Bus> {
    match &o.kind {
        OpKind::VReg { id, sub } => {
            let cls = f.classes.get(id)?;
            (class_bank(cls) == 's').then(|| Bus::Sgpr(format!("%{id}.{}", sub_or(sub))))
        }
        OpKind::Phys(p) => scalar_phys(p).then(|| Bus::Sgpr(p.clone())),
        OpKind::Imm(v) => {
            let inline = match width {
                Width::B64 => inline64(*v, t),
                _ => {
                    // A value no 32-bit field holds is the lowering's input error.
                    let Ok(u) = u32::try_from(*v).or_else(|_| i32::try_from(*v).map(|x| x as u32))
                    else {
                        return None;
                    };
                    if width == Width::B16 {
                        inline16(u, t)
                    } else {
                        inline32(u, t)
                    }
                }
            };
            (!inline).then_some(Bus::Literal(*v))
        }
        _ => None,
    }
}

fn sub_or(sub: &Option<String>) -> &str {
    sub.as_deref().unwrap_or("")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Width {
    B16,
    B32,
    B64,
}

/// The opcode whose operand layout `op` has: its own, or a `V_CMPX`'s `V_CMP` (`cmpx.rs`).
fn alu_name(op: &str) -> String {
    super::cmpx::as_vcmp(op).unwrap_or_else(|| op.to_string())
}

/// The explicit source operands of a modelled VALU `i` (the lowering's layout: a modifier
/// before each of the first `mods` sources, the `_e32` mask is implicit), with each one's
/// width; `None` when `i` is not such an op or its operands do not fit (the lowering reports
/// that).
fn sources(i: &Inst, t: Target) -> Option<Vec<(&Operand, Width)>> {
    let MirOp::Alu {
        srcs,
        trailing,
        mods,
        wide,
        pseudo: false,
        vcc_in,
        ..
    } = lookup(t, &alu_name(&i.opcode))?
    else {
        return None;
    };
    let narrow = super::opcodes::packed(&i.opcode) || i.opcode.contains("_t16");
    let uses: Vec<&Operand> = i.uses().collect();
    let mut out = Vec::new();
    let mut k = 0;
    for n in 0..srcs {
        if n < mods {
            k += 1;
        }
        if vcc_in && n + 1 == srcs {
            continue;
        }
        let w = if narrow {
            Width::B16
        } else if wide >> n & 1 == 1 {
            Width::B64
        } else {
            Width::B32
        };
        out.push((*uses.get(k)?, w));
        k += 1;
    }
    (k + trailing as usize == uses.len()).then_some(out)
}

/// Why `i` cannot be encoded on `t`, at the operand that breaks the rule (module doc).
pub(super) fn violation(f: &Function, i: &Inst, t: Target) -> Option<(Loc, String)> {
    if !i.opcode.starts_with("V_") {
        return None;
    }
    let e32 = i.opcode.ends_with("_e32");
    let vop3 = i.opcode.ends_with("_e64") || super::opcodes::packed(&i.opcode);
    if !e32 && !vop3 {
        return None;
    }
    let srcs = sources(i, t)?;
    let base = i.opcode.trim_end_matches("_e32").trim_end_matches("_e64");
    let limit = if t.gen() < Gen::Gfx10 || shift64(base) {
        1
    } else {
        2
    };
    let mut used: Vec<String> = Vec::new();
    let mut literal: Option<i64> = None;
    let over = |o: &Operand, n: usize| {
        Some((
            o.loc,
            format!(
                "`{}` reads {n} scalar values (SGPRs, literal, implicit VCC/M0) and {} allows \
                 {limit} per VALU instruction (the constant bus; llvm-mc-22: \"violates \
                 constant bus restrictions\"): the instruction cannot be encoded",
                i.opcode,
                t.name()
            ),
        ))
    };
    for (n, (o, w)) in srcs.iter().enumerate() {
        let read = bus_read(f, o, t, *w);
        if e32 && n > 0 && (read.is_some() || matches!(o.kind, OpKind::Imm(_))) {
            return Some((
                o.loc,
                format!(
                    "source {n} of `{}` must be a VGPR: the VOP1/VOP2/VOPC (`_e32`) encoding \
                     has no other operand there (llvm-mc-22: \"invalid operand for \
                     instruction\")",
                    i.opcode
                ),
            ));
        }
        match read {
            Some(Bus::Sgpr(key)) if !used.contains(&key) => used.push(key),
            Some(Bus::Literal(v)) => {
                if vop3 && t.gen() < Gen::Gfx10 {
                    return Some((
                        o.loc,
                        format!(
                            "`{}` is a VOP3 form and {} has no VOP3 literal (only inline \
                             constants; LLVM hasVOP3Literal is gfx10+; llvm-mc-22: \"literal \
                             operands are not supported\"): the instruction cannot be encoded",
                            i.opcode,
                            t.name()
                        ),
                    ));
                }
                if literal.is_some_and(|l| l != v) {
                    return Some((
                        o.loc,
                        format!(
                            "`{}` has two different literals and the encoding holds one \
                             (llvm-mc-22: \"only one unique literal operand is allowed\")",
                            i.opcode
                        ),
                    ));
                }
                literal = Some(v);
            }
            _ => continue,
        }
        let count = used.len() + usize::from(literal.is_some());
        if count > limit {
            return over(o, count);
        }
    }
    // `findImplicitSGPRRead`: the first implicit read of VCC, M0 or FLAT_SCR, unless an
    // explicit SGPR operand overlaps it.
    let implicit = i.ops.iter().find(|o| {
        o.flags.implicit
            && !o.flags.implicit_def
            && !o.flags.def
            && matches!(&o.kind, OpKind::Phys(p) if matches!(p.as_str(),
                "vcc" | "vcc_lo" | "vcc_hi" | "m0" | "flat_scr"))
    })?;
    let OpKind::Phys(p) = &implicit.kind else {
        return None;
    };
    let cells = |r: &str| super::emit::phys(r, t).unwrap_or_else(|_| vec![r.to_string()]);
    let mine = cells(p);
    let shared = used
        .iter()
        .any(|u| !u.starts_with('%') && cells(u).iter().any(|c| mine.contains(c)));
    let count = used.len() + usize::from(literal.is_some()) + usize::from(!shared);
    (count > limit).then(|| over(implicit, count)).flatten()
}

#[cfg(test)]
#[path = "vop_bus_tests.rs"]
mod tests;
