//! Binding a VALU/SALU line (`gcnsmt_lifter::lift::alu_lookup` gives the operand layout).

use super::mods::SrcMods;
use super::op::{Bound, Op};
use super::operands::{const_value, loc_at, LineCx};
use super::regkey::{Class, Src};
use crate::rules::{InputError, Loc};
use gcnsmt_lifter::lift::{alu_lookup, wave_size, AluDef, AluMods};
use gcnsmt_lifter::AsmSyntax;
use gcnsmt_semantics::target::Target;

pub(crate) fn bind_alu(cx: LineCx, syn: &AsmSyntax, mloc: Loc) -> Result<Bound, InputError> {
    let (rule, line, target, imms, mn) = (cx.rule, cx.line, cx.target, cx.imms, cx.mn);
    let Some(alu) = alu_lookup(target, mn) else {
        return Err(rule.error(mloc, format!("{mn} is not available on {target}")));
    };
    let def = gcnsmt_semantics::defs::Library::builtin()
        .get(alu.entry)
        .expect("ALU entries exist");
    let want = 1 + usize::from(alu.sdst) + alu.srcs as usize;
    if syn.operands.len() != want {
        let at = syn.operands.get(want).map(|o| o.1).unwrap_or(syn.end_col);
        return Err(rule.error(
            loc_at(line, at),
            format!("{mn} takes {want} operands, got {}", syn.operands.len()),
        ));
    }
    let (operands, mods) = super::mods::parse(cx, syn, &alu)?;
    super::vop_legal::check(&cx, &alu, &operands, &mods)?;
    let mut ops = operands.iter();
    let (t, c) = ops.next().unwrap();
    let mut var_uses = Vec::new();
    let dclass = if alu.scalar || alu.dmask || alu.to_sgpr {
        Class::Sgpr
    } else {
        Class::Vgpr
    };
    let mask_dwords = if wave_size(target) == 32 { 1 } else { 2 };
    let d0_dwords = match (alu.dmask, alu.wide_dst) {
        (true, _) => mask_dwords,
        (false, true) => 2,
        (false, false) => 1,
    };
    let d0 = cx.regs(t, *c, d0_dwords, "destination", dclass, &mut var_uses)?;
    let sdst = if alu.sdst {
        let (t, c) = ops.next().unwrap();
        let n = if wave_size(target) == 32 { 1 } else { 2 };
        cx.regs(t, *c, n, "carry-out", Class::Sgpr, &mut var_uses)?
    } else {
        Vec::new()
    };
    let mut srcs = Vec::new();
    let nsrc = alu.srcs as usize;
    for (i, (t, c)) in ops.enumerate() {
        let tt = t.trim();
        if alu.smask && i + 1 == nsrc {
            srcs.push(Src::Reg(cx.regs(
                tt,
                *c,
                mask_dwords,
                "lane mask",
                Class::Sgpr,
                &mut var_uses,
            )?));
            continue;
        }
        let is_imm = tt.starts_with('(')
            || tt.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-')
            || tt.strip_prefix('%').is_some_and(|v| imms.contains(v));
        let wide = alu.wide_srcs >> i & 1 == 1;
        if is_imm && !imm_mods_modelled(&alu, &mods, i, tt, target) {
            return Err(rule.error(
                loc_at(line, *c),
                format!("{mn}: modifiers on the immediate `{tt}` are not modelled"),
            ));
        }
        // gfx1250's packed f32 and bf16 immediates (checked by `imm_mods_modelled`).
        let pk = is_imm && super::pk_imm::gfx1250(target);
        let pk = pk
            .then(|| super::pk_imm::gfx1250_value(&alu, &mods, i, tt))
            .flatten();
        if is_imm && wide && alu.mods != AluMods::Packed32 {
            srcs.push(Src::Imm(inline64(cx, tt, *c)?));
            continue;
        }
        if is_imm {
            let e = match pk {
                Some(v) => cx.imm_expr(&v.to_string(), *c)?,
                None => cx.imm_expr(tt, *c)?,
            };
            // A 32-bit operand takes a literal in [-2^31, 2^32 - 1]; llvm-mc 22 rejects others
            // ("invalid operand for instruction") rather than truncating them.
            let literal = match pk {
                Some(v) => Some(v),
                None => gcnsmt_lifter::asm::parse_int(tt),
            };
            let fits = match literal {
                Some(v) => (-(1i64 << 31)..=0xffff_ffff).contains(&v),
                None => const_value(&e).is_none_or(|v| v <= 0xffff_ffff),
            };
            if !fits {
                return Err(rule.error(
                    loc_at(line, *c),
                    format!("{mn}: literal `{tt}` does not fit a 32-bit operand"),
                ));
            }
            srcs.push(Src::Imm(e));
        } else {
            // v_readfirstlane_b32 reads a VGPR only (llvm-mc 22 rejects an SGPR source).
            // Packed f32 ops: VGPR sources only (gfx1250 reads 32 bits of an SGPR source and
            // replicates them, llvm#168458; SGPR pairs are not modelled on any target).
            let sclass = match (alu.scalar, alu.to_sgpr || alu.mods == AluMods::Packed32) {
                (true, _) => Class::Sgpr,
                (false, true) => Class::Vgpr,
                (false, false) => Class::Any,
            };
            srcs.push(Src::Reg(cx.regs(
                tt,
                *c,
                if wide { 2 } else { 1 },
                "source",
                sclass,
                &mut var_uses,
            )?));
        }
    }
    Ok(Bound {
        op: Op::Alu {
            mnemonic: mn.to_string(),
            def,
            alu,
            d0,
            sdst,
            srcs,
            mods,
        },
        loc: mloc,
        text: line.text.trim().to_string(),
        fields: Vec::new(),
        var_uses,
    })
}

/// Whether the immediate `v` is one of the f16 (`f16`) or f32 float inline constants, as
/// its 32-bit value (`gcnsmt_lifter::inline_const`).
fn float_inline(v: i64, f16: bool) -> bool {
    use gcnsmt_lifter::inline_const::{F16_INLINE, F32_INLINE};
    if f16 {
        u16::try_from(v).is_ok_and(|h| F16_INLINE.contains(&h))
    } else {
        u32::try_from(v).is_ok_and(|u| F32_INLINE.contains(&u))
    }
}

/// Whether source `i`, the immediate `text`, is read as the semantics read it: without
/// VOP3 input modifiers; for the packed f16 ops an inline constant, which the hardware gives
/// as a 32-bit value that op_sel/op_sel_hi then split like a register (LLVM 22
/// `AMDGPUBaseInfo.cpp` `getInlineEncodingV216`, which notes that the ISA guide is misleading
/// here: an integer constant -16..64 is its sign-extended 32-bit value, a float constant of an
/// F16 instruction is its f16 bits in bits 15:0 and 0 in bits 31:16; so the text's value is the
/// operand, and a literal or any other value is not modelled); never for `v_pk_mov_b32` (its
/// 64-bit sources).
fn imm_mods_modelled(alu: &AluDef, mods: &SrcMods, i: usize, text: &str, target: Target) -> bool {
    match alu.mods {
        AluMods::None | AluMods::SatU32 => true,
        AluMods::Float32 => (mods.neg | mods.abs) >> i & 1 == 0,
        // gfx1250 places packed bf16 inline constants in bits 31:16 (llvm#209861) and gives
        // a packed f32 op 32 bits of an immediate in both lanes (llvm#168458): see pk_imm.rs.
        AluMods::Packed16 | AluMods::Packed32 if super::pk_imm::gfx1250(target) => {
            super::pk_imm::gfx1250_value(alu, mods, i, text).is_some()
        }
        AluMods::Packed32 => false,
        AluMods::Packed16 => gcnsmt_lifter::asm::parse_int(text)
            .is_some_and(|v| (-16..=64).contains(&v) || float_inline(v, true)),
        AluMods::PackedMov => false,
        // v_cvt_scalef32_pk_fp8_f16 (VOP3, no source op_sel): src0 is packed f16, read as
        // the packed ops read an inline constant (its 32-bit value, as above); src1 is the
        // f32 scale, an inline constant's 32-bit value (an integer -16..64 or one of the f32
        // constants 0.5, 1.0, 2.0, 4.0 and their negatives, AMD Vega/CDNA guides "Inline
        // Constants"; 1/(2*pi) is left out).
        AluMods::True16 if alu.entry == "V_CVT_SCALEF32_PK_FP8_F16" => {
            let v = gcnsmt_lifter::asm::parse_int(text);
            let int = v.is_some_and(|v| (-16..=64).contains(&v));
            match i {
                0 => int || v.is_some_and(|v| float_inline(v, true)),
                _ => int || v.is_some_and(|v| float_inline(v, false)),
            }
        }
        // A 16-bit integer inline constant read from the low half: its value is the same
        // in 16 bits (AMD RDNA3 ISA guide, "Inline Constants"); a literal or a high half is
        // not modelled.
        AluMods::True16 => {
            mods.op_sel >> i & 1 == 0
                && gcnsmt_lifter::asm::parse_int(text).is_some_and(|v| (-16..=64).contains(&v))
        }
    }
}

/// A 64-bit source immediate: only an integer inline constant (-16..=64) is modelled, which the
/// hardware reads as its 64-bit value (AMD Vega ISA guide, "Inline Constants"); a literal is
/// extended to 64 bits by rules that differ per operand type and generation (llvm-mc-22 rejects
/// `v_cmp_lt_u64_e64 s[0:1], v[0:1], 0x12345` on gfx9 and takes it on gfx10+), so it is
/// refused, as is an immediate variable, whose value is not known here. [`super::step`] reads
/// the value sign-extended from its low 32 bits.
fn inline64(cx: LineCx, text: &str, col: usize) -> Result<gcnsmt_semantics::ir::Expr, InputError> {
    let e = cx.imm_expr(text, col)?;
    let v = gcnsmt_lifter::asm::parse_int(text)
        .or_else(|| const_value(&e).and_then(|v| i64::try_from(v).ok()));
    match v {
        Some(v) if (-16..=64).contains(&v) => Ok(e),
        _ => Err(cx.err(
            col,
            format!(
                "{}: a 64-bit source immediate must be an inline constant -16..64, got `{text}`",
                cx.mn
            ),
        )),
    }
}
