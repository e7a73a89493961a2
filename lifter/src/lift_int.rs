//! More integer VALU/SALU ops LLVM emits around memory code (issue 28's coverage list): the
//! 24-bit multiplies, `v_mad_u64_u32`, the reversed carry subtract, the 32-bit min/max,
//! `s_mul_i32`, `s_ff1_i32_b32`, the find-first-one ops, `v_bfe_i32`, gfx12's `v_max_num_f32`.
//! Semantics in `semantics/pcode/alu.pcode`; names and
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
    // A scalar op on one 64-bit source.
    let s64 = |entry| {
        Some(AluDef {
            scalar: true,
            wide_srcs: 0b1,
            ..plain_valu(entry, 1)
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
        // The find-first-one ops and the signed bitfield extract: every target under these
        // names; gfx11+ also under RDNA3's v_ctz_i32_b32, v_clz_i32_u32, s_clz_i32_u32 and
        // s_clz_i32_u64 (llvm-mc-22, observed 2026-12-05 on gfx600, gfx802, gfx900, gfx90a,
        // gfx1010, gfx1100, gfx1200, gfx1250). None writes SCC.
        "v_ffbl_b32" => v("V_FFBL_B32", 1),
        "v_ctz_i32_b32" if g >= Gen::Gfx11 => v("V_CTZ_I32_B32", 1),
        "v_ffbh_u32" => v("V_FFBH_U32", 1),
        "v_clz_i32_u32" if g >= Gen::Gfx11 => v("V_CLZ_I32_U32", 1),
        "s_flbit_i32_b32" => s("S_FLBIT_I32_B32", 1),
        "s_clz_i32_u32" if g >= Gen::Gfx11 => s("S_CLZ_I32_U32", 1),
        "s_flbit_i32_b64" => s64("S_FLBIT_I32_B64"),
        "s_clz_i32_u64" if g >= Gen::Gfx11 => s64("S_CLZ_I32_U64"),
        "v_bfe_i32" => v("V_BFE_I32", 3),
        // Every target (llvm-mc-22, observed 2026-12-05 on gfx600, gfx900, gfx1100, gfx1200).
        "v_bfrev_b32" => v("V_BFREV_B32", 1),
        "s_brev_b32" => s("S_BREV_B32", 1),
        // gfx12's float maximum / minimum (llvm-mc-22 takes v_max_num_f32 on gfx1200 and
        // gfx1250 only, and assembles v_max_f32 there as v_max_num_f32_e32).
        "v_max_num_f32" if g >= Gen::Gfx12 => Some(AluDef {
            mods: crate::alu_def::AluMods::Float32,
            ..plain_valu("V_MAX_NUM_F32", 2)
        }),
        "v_min_num_f32" if g >= Gen::Gfx12 => Some(AluDef {
            mods: crate::alu_def::AluMods::Float32,
            ..plain_valu("V_MIN_NUM_F32", 2)
        }),
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
