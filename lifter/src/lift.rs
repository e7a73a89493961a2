//! Lifting: which semantics entry an instruction runs, and the few VALU/SALU instructions that
//! surround DS code in real rewrites (their names per generation and operand layout).
//!
//! A DS mnemonic lifts to the entry named by its upper-case mnemonic in
//! `semantics/pcode/*.pcode` (entries list every generation's name: `DS_READ_B32, DS_LOAD_B32`).

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::target::{Gen, Target};

pub(crate) use crate::alu_def::plain_valu;
pub use crate::alu_def::{AluDef, AluMods};

/// The semantics entry of a DS mnemonic, with the entry's name for it.
///
/// Returns `None` for ops whose semantics are not modelled in this release (cross-lane,
/// ordered_count, GS registers, BVH stack, transpose loads, barrier arrive). The wave-level
/// GWS and append/consume entries are in `ds_wave.pcode` ([`crate::table::DsScope`]).
pub fn ds_semantics(mnemonic: &str) -> Option<(String, &'static Def)> {
    let name = mnemonic.to_ascii_uppercase();
    let def = Library::builtin().get(&name)?;
    Some((name, def))
}

/// Look up a VALU/SALU mnemonic on a target. Names and availability per generation as
/// llvm-mc 22 accepts them (observed 2026-11 with `llvm-mc-22 -show-encoding`): gfx6/gfx7
/// `v_add_i32` (carry out), gfx8 `v_add_u32` (carry out), gfx9/CDNA `v_add_u32` (none) and
/// `v_add_co_u32`, gfx10+ `v_add_nc_u32` and `v_add_co_u32`, gfx11+ also `v_add_u32` as an
/// alias of `v_add_nc_u32`; likewise for sub.
pub fn alu_lookup(target: Target, mnemonic: &str) -> Option<AluDef> {
    let g = target.gen();
    // Every form starts from a plain one-dword VALU op and says only what differs.
    let plain = plain_valu;
    let v = |entry, sdst, srcs| {
        Some(AluDef {
            sdst,
            ..plain(entry, srcs)
        })
    };
    let cmp = |entry| {
        Some(AluDef {
            dmask: true,
            ..plain(entry, 2)
        })
    };
    let s = |entry, srcs| {
        Some(AluDef {
            scalar: true,
            ..plain(entry, srcs)
        })
    };
    let gcn67 = g <= Gen::Gfx7;
    let gfx8 = g == Gen::Gfx8;
    let gfx9 = matches!(g, Gen::Gfx9 | Gen::Gfx90a);
    let gfx10p = g >= Gen::Gfx10;
    let gfx11p = g >= Gen::Gfx11;
    // VOPC, v_cndmask_b32 and the carry-in ops with or without the encoding suffix (llvm-mc 22
    // prints `_e32` with vcc / vcc_lo and `_e64` with other SGPRs).
    let base = mnemonic
        .strip_suffix("_e32")
        .or_else(|| mnemonic.strip_suffix("_e64"))
        .unwrap_or(mnemonic);
    let sat = sat_op(g, mnemonic);
    if let Some(d) = alu64(target, base)
        .or_else(|| float_op(g, base))
        .or_else(|| dot_op(target, base).or_else(|| cvt_scale_op(target, base)))
        .or(sat)
        .or_else(|| true16_op(g, base))
        .or_else(|| sop2_shift(g, base))
        .or_else(|| crate::lift_int::int_op(g, base))
        .or_else(|| carry_in_op(g, base))
    {
        return Some(d);
    }
    if let Some(entry) = vcmp32(base) {
        return cmp(entry);
    }
    match base {
        "v_cndmask_b32" => {
            return Some(AluDef {
                smask: true,
                ..plain("V_CNDMASK_B32", 3)
            })
        }
        // VOP3 gfx9+ (llvm-mc 22 rejects them on gfx6-gfx8, observed 2026-12 on every target).
        "v_lshl_or_b32" if g >= Gen::Gfx9 => return v("V_LSHL_OR_B32", false, 3),
        "v_and_or_b32" if g >= Gen::Gfx9 => return v("V_AND_OR_B32", false, 3),
        // Every target, with or without `_e32`/`_e64` (llvm-mc 22, observed 2026-12).
        "v_bfe_u32" => return v("V_BFE_U32", false, 3),
        "v_mul_lo_u32" => return v("V_MUL_LO_U32", false, 2),
        // The reversed no-carry subtract: gfx9/CDNA v_subrev_u32, gfx10+ v_subrev_nc_u32
        // (gfx11+ also v_subrev_u32), as for v_sub_u32; `clamp` is not modelled here.
        "v_subrev_u32" if gfx9 || gfx11p => return v("V_SUBREV_U32", false, 2),
        "v_subrev_nc_u32" if gfx10p => return v("V_SUBREV_NC_U32", false, 2),
        // gcnsmt's DPP modelling steps (semantics/pcode/dpp.pcode), which `gcnsmt tv` emits for
        // the `_dpp` instructions of gfx8+; no AMD instruction has these names.
        "v_dpp_flags_b32" if g >= Gen::Gfx8 => return v("V_DPP_FLAGS_B32", false, 2),
        "v_dpp_fetch_b32" if g >= Gen::Gfx8 => return v("V_DPP_FETCH_B32", false, 3),
        "v_dpp_write_b32" if g >= Gen::Gfx8 => return v("V_DPP_WRITE_B32", false, 3),
        "v_dpp_same_b32" if g >= Gen::Gfx8 => return v("V_DPP_SAME_B32", false, 3),
        "v_readfirstlane_b32" => {
            return Some(AluDef {
                to_sgpr: true,
                ..plain("V_READFIRSTLANE_B32", 1)
            })
        }
        _ => {}
    }
    if let Some(entry) = mbcnt(mnemonic, gfx11p) {
        return v(entry, false, 2);
    }
    let s64 = |entry| {
        Some(AluDef {
            wide_srcs: 0b1,
            ..s(entry, 1)?
        })
    };
    match mnemonic {
        "s_bcnt1_i32_b64" => s64("S_BCNT1_I32_B64"),
        "s_ff1_i32_b64" => s64("S_FF1_I32_B64"),
        // gfx11 renamed s_ff1 (llvm-mc 22 accepts both names there).
        "s_ctz_i32_b64" if gfx11p => s64("S_CTZ_I32_B64"),
        "v_mov_b32" => v("V_MOV_B32", false, 1),
        "s_mov_b32" => s("S_MOV_B32", 1),
        "v_lshlrev_b32" => v("V_LSHLREV_B32", false, 2),
        "v_lshrrev_b32" => v("V_LSHRREV_B32", false, 2),
        "v_ashrrev_i32" => v("V_ASHRREV_I32", false, 2),
        // The 16-bit shift zeroes the high half on gfx8/gfx9 only (alu.pcode).
        "v_ashrrev_i16" if gfx8 || gfx9 => v("V_ASHRREV_I16", false, 2),
        "v_and_b32" => v("V_AND_B32", false, 2),
        "v_or_b32" => v("V_OR_B32", false, 2),
        "s_and_b32" => s("S_AND_B32", 2),
        "s_or_b32" => s("S_OR_B32", 2),
        "v_xor_b32" => v("V_XOR_B32", false, 2),
        "s_xor_b32" => s("S_XOR_B32", 2),
        "s_add_u32" => s("S_ADD_U32", 2),
        "s_add_i32" => s("S_ADD_I32", 2),
        "s_lshl_b32" => s("S_LSHL_B32", 2),
        // gfx12 spells it s_sub_co_u32; llvm-mc-22 accepts s_sub_u32 there too.
        "s_sub_u32" => s("S_SUB_U32", 2),
        "s_min_u32" => s("S_MIN_U32", 2),
        // SOP2 (every generation, llvm-mc-22): a 64-bit value shifted by a 32-bit amount.
        "s_lshl_b64" => Some(AluDef {
            wide_srcs: 0b01,
            wide_dst: true,
            ..s("S_LSHL_B64", 2)?
        }),
        "v_add_i32" if gcn67 => v("V_ADD_I32", true, 2),
        "v_sub_i32" if gcn67 => v("V_SUB_I32", true, 2),
        "v_add_u32" if gfx8 => v("V_ADD_CO_U32", true, 2),
        "v_sub_u32" if gfx8 => v("V_SUB_CO_U32", true, 2),
        "v_add_co_u32" if gfx9 || gfx10p => v("V_ADD_CO_U32", true, 2),
        "v_sub_co_u32" if gfx9 || gfx10p => v("V_SUB_CO_U32", true, 2),
        // VOP3 forms; llvm-mc 22 accepts v_lshl_add_u32 and v_add3_u32 from gfx9 on and
        // v_mad_u32_u24 everywhere (observed with `llvm-mc-22 -show-encoding`).
        "v_lshl_add_u32" if g >= Gen::Gfx9 => v("V_LSHL_ADD_U32", false, 3),
        "v_add3_u32" if g >= Gen::Gfx9 => v("V_ADD3_U32", false, 3),
        "v_mad_u32_u24" => v("V_MAD_U32_U24", false, 3),
        _ => None,
    }
}

/// Carry/borrow in (the mask S2) and out (SDST), VOP2 `_e32` with vcc / vcc_lo or VOP3b `_e64`
/// with any SGPRs; names per generation as llvm-mc 22 accepts them (observed 2026-12 on every
/// target): gfx6-gfx8 v_addc_u32, v_subb_u32, v_subbrev_u32; gfx9/CDNA the `_co_` names;
/// gfx10+ v_add_co_ci_u32, v_sub_co_ci_u32, v_subrev_co_ci_u32.
fn carry_in_op(g: Gen, base: &str) -> Option<AluDef> {
    let (gcn8, gfx9, gfx10p) = (
        g <= Gen::Gfx8,
        matches!(g, Gen::Gfx9 | Gen::Gfx90a),
        g >= Gen::Gfx10,
    );
    let entry = match base {
        "v_addc_u32" if gcn8 => "V_ADDC_U32",
        "v_subb_u32" if gcn8 => "V_SUBB_U32",
        "v_subbrev_u32" if gcn8 => "V_SUBBREV_U32",
        "v_addc_co_u32" if gfx9 => "V_ADDC_CO_U32",
        "v_subb_co_u32" if gfx9 => "V_SUBB_CO_U32",
        "v_subbrev_co_u32" if gfx9 => "V_SUBBREV_CO_U32",
        "v_add_co_ci_u32" if gfx10p => "V_ADD_CO_CI_U32",
        "v_sub_co_ci_u32" if gfx10p => "V_SUB_CO_CI_U32",
        "v_subrev_co_ci_u32" if gfx10p => "V_SUBREV_CO_CI_U32",
        _ => return None,
    };
    Some(AluDef {
        sdst: true,
        smask: true,
        ..plain_valu(entry, 3)
    })
}

/// The SOP2 right shifts (every generation) and the gfx9+ shift-and-adds (llvm-mc-22 rejects
/// `s_lshl1_add_u32` ... `s_lshl4_add_u32` on gfx6-gfx8, observed 2026-12-05).
fn sop2_shift(g: Gen, mnemonic: &str) -> Option<AluDef> {
    let entry = match mnemonic {
        "s_lshr_b32" => "S_LSHR_B32",
        "s_ashr_i32" => "S_ASHR_I32",
        _ if g < Gen::Gfx9 => return None,
        "s_lshl1_add_u32" => "S_LSHL1_ADD_U32",
        "s_lshl2_add_u32" => "S_LSHL2_ADD_U32",
        "s_lshl3_add_u32" => "S_LSHL3_ADD_U32",
        "s_lshl4_add_u32" => "S_LSHL4_ADD_U32",
        _ => return None,
    };
    Some(AluDef {
        scalar: true,
        ..plain_valu(entry, 2)
    })
}

/// The lane-count ops' semantics entry. llvm-mc 22 takes `v_mbcnt_hi_u32_b32_e64` everywhere
/// but `v_mbcnt_lo_u32_b32_e64` only from gfx11 on (observed 2026-12).
fn mbcnt(mnemonic: &str, gfx11p: bool) -> Option<&'static str> {
    match mnemonic {
        "v_mbcnt_lo_u32_b32" => Some("V_MBCNT_LO_U32_B32"),
        "v_mbcnt_lo_u32_b32_e64" if gfx11p => Some("V_MBCNT_LO_U32_B32"),
        "v_mbcnt_hi_u32_b32" | "v_mbcnt_hi_u32_b32_e64" => Some("V_MBCNT_HI_U32_B32"),
        _ => None,
    }
}

/// The float ops with VOP3/VOP3P modifiers (`base` without `_e32`/`_e64`), as llvm-mc-22 accepts
/// them (observed 2026-12 on every target): v_add_f32, v_mul_f32, v_fma_f32 everywhere,
/// v_max_f32 before gfx12 (gfx12 renamed it v_max_num_f32, with IEEE 754-2019 NaN rules, and
/// llvm-mc-22 prints `v_max_f32_e64` as `v_max_num_f32_e64` there: not this entry),
/// v_pk_add_f16 from gfx9 on, v_pk_mov_b32 on gfx90a/gfx942/gfx950, v_pk_add_f32,
/// v_pk_mul_f32 and v_pk_fma_f32 on gfx90a/gfx942/gfx950 and gfx1250 (not gfx908 or gfx12),
/// v_pk_add_bf16 on gfx1250 only (observed 2026-12-05).
fn float_op(g: Gen, base: &str) -> Option<AluDef> {
    let pk_f32 = matches!(g, Gen::Gfx90a | Gen::Gfx1250);
    let (entry, srcs, mods) = match base {
        "v_pk_add_f32" if pk_f32 => ("V_PK_ADD_F32", 2, AluMods::Packed32),
        "v_pk_mul_f32" if pk_f32 => ("V_PK_MUL_F32", 2, AluMods::Packed32),
        "v_pk_fma_f32" if pk_f32 => ("V_PK_FMA_F32", 3, AluMods::Packed32),
        "v_pk_add_bf16" if g == Gen::Gfx1250 => ("V_PK_ADD_BF16", 2, AluMods::Packed16),
        "v_add_f32" => ("V_ADD_F32", 2, AluMods::Float32),
        "v_mul_f32" => ("V_MUL_F32", 2, AluMods::Float32),
        "v_fma_f32" => ("V_FMA_F32", 3, AluMods::Float32),
        "v_max_f32" if g < Gen::Gfx12 => ("V_MAX_F32", 2, AluMods::Float32),
        "v_pk_add_f16" if g >= Gen::Gfx9 => ("V_PK_ADD_F16", 2, AluMods::Packed16),
        "v_pk_mov_b32" if g == Gen::Gfx90a => ("V_PK_MOV_B32", 2, AluMods::PackedMov),
        _ => return None,
    };
    let pair = matches!(mods, AluMods::PackedMov | AluMods::Packed32);
    Some(AluDef {
        wide_srcs: if pair { (1 << srcs) - 1 } else { 0 },
        wide_dst: pair,
        mods,
        ..plain_valu(entry, srcs)
    })
}

/// `v_dot2_f32_f16` (VOP3P, packed f16 sources, an f32 accumulator and result): llvm-mc-22
/// takes it on gfx908, gfx90a, gfx942, gfx950, gfx1030, gfx1100, gfx1150 and gfx1200, not on
/// gfx600-gfx900, gfx1010 or gfx1250 (observed 2026-12, `v_dot2_f32_f16 v0, v1, v2, v3`).
fn dot_op(target: Target, base: &str) -> Option<AluDef> {
    let has = !matches!(
        target,
        Target::Gfx600
            | Target::Gfx700
            | Target::Gfx802
            | Target::Gfx900
            | Target::Gfx1010
            | Target::Gfx1250
    );
    (base == "v_dot2_f32_f16" && has).then(|| AluDef {
        mods: AluMods::Packed16,
        ..plain_valu("V_DOT2_F32_F16", 3)
    })
}

/// `v_cvt_scalef32_pk_fp8_f16` (gfx950 only: llvm-mc-22 rejects it elsewhere, "NOT-GFX950"
/// in LLVM's MC tests; observed 2026-12 on gfx942 and gfx950): VOP3 `op_sel:[s0,s1,dst]`, the
/// same form as the True16 ops ([`AluMods::True16`]; `OPSEL` bit 3 picks the half written).
fn cvt_scale_op(target: Target, base: &str) -> Option<AluDef> {
    (base == "v_cvt_scalef32_pk_fp8_f16" && target == Target::Gfx950).then(|| AluDef {
        mods: AluMods::True16,
        ..plain_valu("V_CVT_SCALEF32_PK_FP8_F16", 2)
    })
}

/// The gfx11+ 16-bit integer VALU ops on register halves (VOP3 `op_sel`, [`AluMods::True16`])
/// and the SALU packs of 16-bit halves, which tv uses to move SGPR halves (gfx9+; AMD RDNA3
/// ISA guide, SOP2). llvm-mc-22 takes all of them on gfx11 and gfx12 (observed 2026-12).
fn true16_op(g: Gen, base: &str) -> Option<AluDef> {
    let (entry, srcs) = match base {
        "s_pack_ll_b32_b16" | "s_pack_lh_b32_b16" | "s_pack_hh_b32_b16" if g >= Gen::Gfx9 => {
            let entry = match base {
                "s_pack_ll_b32_b16" => "S_PACK_LL_B32_B16",
                "s_pack_lh_b32_b16" => "S_PACK_LH_B32_B16",
                _ => "S_PACK_HH_B32_B16",
            };
            return Some(AluDef {
                scalar: true,
                ..plain_valu(entry, 2)
            });
        }
        _ if g < Gen::Gfx11 => return None,
        "v_add_nc_u16" => ("V_ADD_NC_U16", 2),
        "v_sub_nc_u16" => ("V_SUB_NC_U16", 2),
        "v_mul_lo_u16" => ("V_MUL_LO_U16", 2),
        "v_lshlrev_b16" => ("V_LSHLREV_B16", 2),
        "v_and_b16" => ("V_AND_B16", 2),
        "v_or_b16" => ("V_OR_B16", 2),
        "v_mov_b16" => ("V_MOV_B16", 1),
        _ => return None,
    };
    Some(AluDef {
        mods: AluMods::True16,
        ..plain_valu(entry, srcs)
    })
}

/// The no-carry 32-bit adds and subtracts, whose `clamp` saturates ([`AluMods::SatU32`]):
/// gfx9/CDNA and gfx11+ `v_add_u32`/`v_sub_u32` (gfx11+: aliases of the `_nc_` names, which
/// gfx10+ has), as llvm-mc-22 accepts them.
fn sat_op(g: Gen, mnemonic: &str) -> Option<AluDef> {
    let (gfx9, gfx10p, gfx11p) = (
        matches!(g, Gen::Gfx9 | Gen::Gfx90a),
        g >= Gen::Gfx10,
        g >= Gen::Gfx11,
    );
    let entry = match mnemonic {
        "v_add_u32" if gfx9 || gfx11p => "V_ADD_U32",
        "v_sub_u32" if gfx9 || gfx11p => "V_SUB_U32",
        "v_add_nc_u32" if gfx10p => "V_ADD_NC_U32",
        "v_sub_nc_u32" if gfx10p => "V_SUB_NC_U32",
        _ => return None,
    };
    Some(AluDef {
        mods: AluMods::SatU32,
        ..plain_valu(entry, 2)
    })
}

/// The 32-bit VOPC compares: mnemonic (without `_e32`/`_e64`) -> semantics entry.
fn vcmp32(base: &str) -> Option<&'static str> {
    Some(match base {
        "v_cmp_eq_u32" => "V_CMP_EQ_U32",
        "v_cmp_ne_u32" => "V_CMP_NE_U32",
        "v_cmp_lt_u32" => "V_CMP_LT_U32",
        "v_cmp_le_u32" => "V_CMP_LE_U32",
        "v_cmp_gt_u32" => "V_CMP_GT_U32",
        "v_cmp_ge_u32" => "V_CMP_GE_U32",
        "v_cmp_lt_i32" => "V_CMP_LT_I32",
        "v_cmp_le_i32" => "V_CMP_LE_I32",
        "v_cmp_gt_i32" => "V_CMP_GT_I32",
        "v_cmp_ge_i32" => "V_CMP_GE_I32",
        _ => return None,
    })
}

/// The 64-bit compares, shifts and adds on a target (`base` without `_e32`/`_e64`), as
/// llvm-mc-22 accepts them (observed 2026-12 on every target): the compares everywhere (a pair
/// `s[0:1]` mask on wave64, one SGPR on wave32), `v_lshl_b64` on gfx6/gfx7 and `v_lshlrev_b64`
/// from gfx8 on, `s_lshl_b64` everywhere, `v_lshl_add_u64` on gfx942/gfx950/gfx1250,
/// `v_add_nc_u64` / `v_sub_nc_u64` on gfx1250 only.
fn alu64(target: Target, base: &str) -> Option<AluDef> {
    let g = target.gen();
    let cmp64 = base.len() == "v_cmp_eq_u64".len()
        && base.starts_with("v_cmp_")
        && (base.ends_with("_u64") || base.ends_with("_i64"))
        && ["eq", "ne", "lt", "le", "gt", "ge"].contains(&&base[6..8]);
    // (sources, which are pairs, the destination is a lane mask)
    let (srcs, wide_srcs, dmask) = match base {
        _ if cmp64 => (2, 0b11, true),
        "v_lshl_b64" if g <= Gen::Gfx7 => (2, 0b01, false),
        "v_lshlrev_b64" if g >= Gen::Gfx8 => (2, 0b10, false),
        "v_lshl_add_u64" if matches!(target, Target::Gfx942 | Target::Gfx950 | Target::Gfx1250) => {
            (3, 0b101, false)
        }
        "v_add_nc_u64" | "v_sub_nc_u64" if g == Gen::Gfx1250 => (2, 0b11, false),
        _ => return None,
    };
    let upper = base.to_ascii_uppercase();
    let def: &'static Def = Library::builtin().get(&upper)?;
    let entry = def.names.iter().find(|n| n.name == upper)?.name.as_str();
    Some(AluDef {
        entry,
        sdst: false,
        srcs,
        scalar: false,
        dmask,
        smask: false,
        wide_srcs,
        wide_dst: !dmask,
        to_sgpr: false,
        mods: AluMods::None,
    })
}

/// Whether some target knows this VALU/SALU mnemonic (to tell "unknown" from "not on this target").
pub fn alu_known_anywhere(mnemonic: &str) -> bool {
    Target::ALL
        .iter()
        .any(|t| alu_lookup(*t, mnemonic).is_some())
}

/// Wave size assumed per target: 32 on gfx10+ (llvm-mc's default `wavefrontsize32`), 64 before.
pub fn wave_size(target: Target) -> u32 {
    if target.gen() >= Gen::Gfx10 {
        32
    } else {
        64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_names_follow_llvm_per_generation() {
        assert_eq!(
            alu_lookup(Target::Gfx600, "v_add_i32").unwrap().entry,
            "V_ADD_I32"
        );
        assert!(alu_lookup(Target::Gfx802, "v_add_u32").unwrap().sdst);
        assert!(!alu_lookup(Target::Gfx900, "v_add_u32").unwrap().sdst);
        assert!(alu_lookup(Target::Gfx1030, "v_add_u32").is_none());
        assert!(alu_lookup(Target::Gfx1100, "v_add_u32").is_some());
        assert!(alu_lookup(Target::Gfx802, "v_add_nc_u32").is_none());
    }

    // llvm-mc-22: `v_addc_u32 v1, vcc, v2, v3, vcc` assembles on gfx802 and is "not supported"
    // on gfx900, which takes `v_addc_co_u32`; gfx1030 spells it `v_add_co_ci_u32`.
    #[test]
    fn carry_in_names_follow_llvm_per_generation() {
        let e = |t, m| alu_lookup(t, m).map(|d| (d.entry, d.sdst, d.srcs, d.smask));
        assert_eq!(
            e(Target::Gfx802, "v_addc_u32"),
            Some(("V_ADDC_U32", true, 3, true))
        );
        assert_eq!(e(Target::Gfx900, "v_addc_u32"), None);
        assert_eq!(
            e(Target::Gfx900, "v_addc_co_u32_e64").map(|d| d.0),
            Some("V_ADDC_CO_U32")
        );
        assert_eq!(e(Target::Gfx1030, "v_addc_co_u32"), None);
        assert_eq!(
            e(Target::Gfx1030, "v_add_co_ci_u32").map(|d| d.0),
            Some("V_ADD_CO_CI_U32")
        );
        assert_eq!(
            e(Target::Gfx600, "v_subbrev_u32").map(|d| d.0),
            Some("V_SUBBREV_U32")
        );
        assert_eq!(
            e(Target::Gfx1100, "v_subrev_co_ci_u32").map(|d| d.0),
            Some("V_SUBREV_CO_CI_U32")
        );
    }

    // llvm-mc-22 (observed 2026-12): `v_cmp_lt_u64_e64 s[0:1], v[0:1], v[2:3]` on every wave64
    // target, `s0` on wave32; `v_lshl_b64` on gfx600/gfx700 only and `v_lshlrev_b64` from gfx802;
    // `v_lshl_add_u64` on gfx942, gfx950, gfx1250; `v_add_nc_u64` on gfx1250 only.
    #[test]
    fn sixty_four_bit_ops_follow_llvm_per_generation() {
        let e =
            |t, m| alu_lookup(t, m).map(|d| (d.entry, d.srcs, d.wide_srcs, d.wide_dst, d.dmask));
        assert_eq!(
            e(Target::Gfx900, "v_cmp_lt_u64_e64"),
            Some(("V_CMP_LT_U64", 2, 0b11, false, true))
        );
        assert_eq!(
            e(Target::Gfx1100, "v_cmp_ge_i64").map(|d| d.0),
            Some("V_CMP_GE_I64")
        );
        assert_eq!(
            e(Target::Gfx600, "v_lshl_b64"),
            Some(("V_LSHL_B64", 2, 0b01, true, false))
        );
        assert_eq!(e(Target::Gfx600, "v_lshlrev_b64"), None);
        assert_eq!(
            e(Target::Gfx802, "v_lshlrev_b64"),
            Some(("V_LSHLREV_B64", 2, 0b10, true, false))
        );
        assert_eq!(
            e(Target::Gfx942, "v_lshl_add_u64"),
            Some(("V_LSHL_ADD_U64", 3, 0b101, true, false))
        );
        assert_eq!(e(Target::Gfx90a, "v_lshl_add_u64"), None);
        assert_eq!(e(Target::Gfx1200, "v_add_nc_u64"), None);
        assert!(alu_lookup(Target::Gfx1250, "v_sub_nc_u64").is_some());
        let s = alu_lookup(Target::Gfx600, "s_lshl_b64").unwrap();
        assert!(s.scalar && s.wide_dst && s.wide_srcs == 0b01);
    }

    // llvm-mc-22 (2026-12-05): `v_mad_u64_u32 v[0:1], s[0:1], v1, v2, v[2:3]` on gfx700..gfx950,
    // with `s0` on gfx1010..gfx1250, rejected on gfx600; `s_ctz_i32_b32` on gfx1100..gfx1250
    // only; `v_subrev_u32` with a carry on gfx802 only.
    #[test]
    fn int_op_names_per_generation() {
        let e = |t, m| alu_lookup(t, m).map(|d| (d.entry, d.sdst, d.wide_srcs, d.wide_dst));
        assert_eq!(e(Target::Gfx600, "v_mad_u64_u32"), None);
        assert_eq!(
            e(Target::Gfx700, "v_mad_u64_u32_e64"),
            Some(("V_MAD_U64_U32", true, 0b100, true))
        );
        assert_eq!(
            e(Target::Gfx802, "v_subrev_u32"),
            Some(("V_SUBREV_CO_U32", true, 0, false))
        );
        assert_eq!(
            e(Target::Gfx900, "v_subrev_u32").map(|d| d.1),
            Some(false) // the no-carry form there
        );
        assert_eq!(
            e(Target::Gfx600, "v_subrev_i32").map(|d| d.0),
            Some("V_SUBREV_I32")
        );
        assert!(alu_lookup(Target::Gfx1100, "s_ctz_i32_b32").is_some());
        assert!(alu_lookup(Target::Gfx900, "s_ctz_i32_b32").is_none());
        assert!(alu_lookup(Target::Gfx900, "s_mul_i32").unwrap().scalar);
    }
}
