//! Operand legality of a VALU line in rule assembly: what llvm-mc-22 accepts of scalar
//! sources and literals (breaker 21's 06: a VOP3 literal on gfx9 and two SGPRs read by one
//! gfx9 VALU op were bound and proved, although llvm-mc-22 rejects the lines). The same rules
//! as tv's `vop_bus.rs` (LLVM `SIInstrInfo::verifyInstruction`, `getConstantBusLimit`,
//! `hasVOP3Literal`), on assembly text:
//! - the constant bus: the distinct scalar registers read (explicit SGPRs, `vcc`, `m0`,
//!   `exec`, ...; a carry-in or mask source too) and the literal, at most 1 before gfx10 and 2
//!   from gfx10 on, where the 64-bit shifts keep 1;
//! - a literal only in the VOP1/VOP2/VOPC form's src0, or in a VOP3 form from gfx10 on; one
//!   literal value per instruction.
//!
//! The line is read as llvm-mc reads a bare mnemonic: the 32-bit form (`_e32`) when the target
//! has one and the operands fit it (later sources VGPRs, no modifier, the carry and mask
//! operands `vcc`), else the VOP3 form. A rule variable counts as a VGPR (it may be bound to
//! one) and an immediate variable as an inline constant: the check may miss a violation that
//! depends on a variable's binding, and never rejects a line llvm-mc accepts.

use super::mods::SrcMods;
use super::operands::LineCx;
use crate::rules::InputError;
use gcnsmt_lifter::inline_const::{inline16, inline32, inline64};
use gcnsmt_lifter::lift::AluDef;
use gcnsmt_lifter::mnemonics::{validity, Validity};
use gcnsmt_semantics::target::Gen;

/// Whether `t` (an operand without modifiers) names a scalar register that reads the
/// constant bus (not `null`, which is free).
fn scalar_reg(t: &str) -> bool {
    let t = t.trim();
    let head = t.split(['[', ':']).next().unwrap_or("");
    (head.starts_with('s') && head[1..].chars().all(|c| c.is_ascii_digit()) && head.len() > 1)
        || t.starts_with("s[")
        || [
            "vcc",
            "exec",
            "m0",
            "flat_scratch",
            "ttmp",
            "xnack_mask",
            "tba",
            "tma",
        ]
        .iter()
        .any(|p| t.starts_with(p))
}

/// The value of a literal operand text, if it is one (a number, or a float the guides list).
fn literal_value(t: &str) -> Option<i64> {
    let t = t.trim();
    if let Some(v) = gcnsmt_lifter::asm::parse_int(t) {
        return Some(v);
    }
    t.parse::<f64>()
        .ok()
        .map(|f| i64::from((f as f32).to_bits()))
}

/// Whether the literal `v` of a source is an inline constant for an op of this width.
fn inline(v: i64, wide: bool, half: bool, cx: &LineCx) -> bool {
    if wide {
        return inline64(v, cx.target);
    }
    let Ok(u) = u32::try_from(v).or_else(|_| i32::try_from(v).map(|x| x as u32)) else {
        return true; // out of range: the binder's own error
    };
    if half {
        inline16(u, cx.target)
    } else {
        inline32(u, cx.target)
    }
}

/// An input error when the VALU line with `operands` (modifiers stripped: destination, carry
/// out, sources) cannot be encoded on the target.
pub(crate) fn check(
    cx: &LineCx,
    alu: &AluDef,
    operands: &[(String, usize)],
    mods: &SrcMods,
) -> Result<(), InputError> {
    if alu.scalar || !cx.rule.written {
        return Ok(());
    }
    let mn = cx.mn;
    let nsrc = alu.srcs as usize;
    let srcs = &operands[operands.len() - nsrc..];
    let half = mn.contains("16") && !mn.contains("b64");
    let is_vcc = |t: &str| matches!(t.trim(), "vcc" | "vcc_lo");
    let mut sgprs: Vec<String> = Vec::new();
    let mut literals: Vec<(i64, usize, usize)> = Vec::new();
    for (k, (t, c)) in srcs.iter().enumerate() {
        let tt = t.trim();
        if scalar_reg(tt) {
            if !sgprs.iter().any(|s| s == tt) {
                sgprs.push(tt.to_string());
            }
        } else if !tt.starts_with('%') && !tt.starts_with('v') && !tt.starts_with('(') {
            let wide = alu.wide_srcs >> k & 1 == 1;
            if let Some(v) = literal_value(tt) {
                if !inline(v, wide, half, cx) && !literals.iter().any(|l| l.0 == v) {
                    literals.push((v, k, *c));
                }
            }
        }
    }
    let dst_ok = !alu.dmask || is_vcc(&operands[0].0);
    let sdst_ok = !alu.sdst || is_vcc(&operands[1].0);
    let mask_ok = !alu.smask || is_vcc(&srcs[nsrc - 1].0);
    let later_vgpr = srcs.iter().enumerate().skip(1).all(|(k, (t, _))| {
        let t = t.trim();
        (alu.smask && k == nsrc - 1) || (t.starts_with('v') && !scalar_reg(t)) || t.starts_with('%')
    });
    // Modifiers the 32-bit forms cannot take.
    let no_mods = mods.neg == 0 && mods.abs == 0 && !mods.clamp;
    let has_e32 = validity(cx.target, &format!("{mn}_e32")) == Validity::Valid;
    let e32 = has_e32 && dst_ok && sdst_ok && mask_ok && later_vgpr && no_mods;
    let gfx10 = cx.target.gen() >= Gen::Gfx10;
    let shift64 = matches!(mn, "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64");
    let limit = if !gfx10 || shift64 { 1 } else { 2 };
    if literals.len() > 1 {
        let (_, _, c) = literals[1];
        return Err(cx.err(
            c,
            format!("{mn}: a second literal (llvm-mc-22: one literal value per instruction)"),
        ));
    }
    if let Some(&(_, k, c)) = literals.first() {
        if e32 && k != 0 {
            return Err(cx.err(
                c,
                format!("{mn}: a literal only in src0 of the 32-bit form"),
            ));
        }
        if !e32 && !gfx10 {
            return Err(cx.err(
                c,
                format!(
                    "{mn} is a VOP3 form here and {} has no VOP3 literal (only inline constants; \
                     LLVM hasVOP3Literal is gfx10+): the instruction cannot be encoded",
                    cx.target
                ),
            ));
        }
    }
    let bus = sgprs.len() + literals.len();
    if bus > limit {
        let c = srcs.first().map_or(1, |s| s.1);
        return Err(cx.err(
            c,
            format!(
                "{mn} reads {bus} scalar values (SGPRs and literals: {}) and {} allows {limit} \
                 on the constant bus (LLVM getConstantBusLimit): the instruction cannot be encoded",
                sgprs.join(", "),
                cx.target
            ),
        ));
    }
    Ok(())
}
