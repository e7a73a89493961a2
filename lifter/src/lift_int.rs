//! More integer VALU/SALU ops LLVM emits around memory code (issue 28's coverage list): the
//! 24-bit multiplies, `v_mad_u64_u32`, the reversed carry subtract, the 32-bit min/max,
//! `s_mul_i32`, `s_ff1_i32_b32`. Semantics in `semantics/pcode/alu.pcode`; names and
//! availability per generation as llvm-mc-22 accepts them (observed 2026-12-05 on all 14
//! targets): every target has v_mul_u32_u24, v_mul_hi_u32_u24, v_min/max_u32/i32, s_mul_i32
//! and s_ff1_i32_b32 (gfx11+ also s_ctz_i32_b32); v_mad_u64_u32 from gfx7 on (an SGPR-pair
//! carry on wave64, one SGPR on wave32); the carry form of the reversed subtract is
//! v_subrev_i32 on gfx6/gfx7, v_subrev_u32 on gfx8, v_subrev_co_u32 from gfx9 on.

use crate::alu_def::{plain_valu, AluDef};
use gcnsmt_semantics::target::Gen;

/// The op named `base` (without `_e32`/`_e64`) on generation `g`, if it is one of these.
pub(crate) fn int_op(g: Gen, base: &str) -> Option<AluDef> {
    let v = |entry, srcs| Some(plain_valu(entry, srcs));
    let carry = |entry| {
        Some(AluDef {
            sdst: true,
            ..plain_valu(entry, 2)
        })
    };
    let s = |entry, srcs| {
        Some(AluDef {
            scalar: true,
            ..plain_valu(entry, srcs)
        })
    };
    match base {
        "v_mul_u32_u24" => v("V_MUL_U32_U24", 2),
        "v_mul_hi_u32_u24" => v("V_MUL_HI_U32_U24", 2),
        "v_min_u32" => v("V_MIN_U32", 2),
        "v_max_u32" => v("V_MAX_U32", 2),
        "v_min_i32" => v("V_MIN_I32", 2),
        "v_max_i32" => v("V_MAX_I32", 2),
        "s_mul_i32" => s("S_MUL_I32", 2),
        "s_ff1_i32_b32" => s("S_FF1_I32_B32", 1),
        "s_ctz_i32_b32" if g >= Gen::Gfx11 => s("S_CTZ_I32_B32", 1),
        "v_subrev_i32" if g <= Gen::Gfx7 => carry("V_SUBREV_I32"),
        "v_subrev_u32" if g == Gen::Gfx8 => carry("V_SUBREV_CO_U32"),
        "v_subrev_co_u32" if g >= Gen::Gfx9 => carry("V_SUBREV_CO_U32"),
        // S2 and the destination are 64-bit pairs, the carry-out a lane mask.
        "v_mad_u64_u32" if g >= Gen::Gfx7 => Some(AluDef {
            sdst: true,
            wide_srcs: 0b100,
            wide_dst: true,
            ..plain_valu("V_MAD_U64_U32", 3)
        }),
        _ => fcmp32(base),
    }
}

/// The VOPC f32 compares (every target, llvm-mc-22 2026-12-05: `v_cmp_gt_f32_e64 s[0:1], v1,
/// v2` on wave64, `s0` on wave32; `_e32` writes vcc): a lane-mask destination, neg/abs on the
/// `_e64` sources.
fn fcmp32(base: &str) -> Option<AluDef> {
    const CC: &[(&str, &str)] = &[
        ("v_cmp_lt_f32", "V_CMP_LT_F32"),
        ("v_cmp_eq_f32", "V_CMP_EQ_F32"),
        ("v_cmp_le_f32", "V_CMP_LE_F32"),
        ("v_cmp_gt_f32", "V_CMP_GT_F32"),
        ("v_cmp_lg_f32", "V_CMP_LG_F32"),
        ("v_cmp_ge_f32", "V_CMP_GE_F32"),
        ("v_cmp_o_f32", "V_CMP_O_F32"),
        ("v_cmp_u_f32", "V_CMP_U_F32"),
        ("v_cmp_nge_f32", "V_CMP_NGE_F32"),
        ("v_cmp_nlg_f32", "V_CMP_NLG_F32"),
        ("v_cmp_ngt_f32", "V_CMP_NGT_F32"),
        ("v_cmp_nle_f32", "V_CMP_NLE_F32"),
        ("v_cmp_neq_f32", "V_CMP_NEQ_F32"),
        ("v_cmp_nlt_f32", "V_CMP_NLT_F32"),
    ];
    let (_, entry) = CC.iter().find(|(m, _)| *m == base)?;
    Some(AluDef {
        dmask: true,
        mods: crate::alu_def::AluMods::Float32,
        ..plain_valu(entry, 2)
    })
}
