use super::*;
use crate::tv::mir::parse;

// Expected values: the inline constant rules of the AMD ISA guides (Vega "Inline Constants":
// 128..192 = 0..64, 193..208 = -1..-16, 240..247 = ±0.5, ±1, ±2, ±4, 248 = 1/(2*pi) from
// gfx8), and llvm-mc-22 on gfx900: `v_add3_u32 v0, v1, s2, 1.0`, `..., -16` and
// `..., 0.15915494` assemble, `..., 0x186a0` does not.
#[test]
fn inline_constants() {
    let t = Target::Gfx900;
    assert!(inline32(64, t) && inline32(-16i32 as u32, t));
    assert!(!inline32(65, t) && !inline32(-17i32 as u32, t) && !inline32(100_000, t));
    assert!(inline32(0x3f80_0000, t) && inline32(0xc080_0000, t));
    assert!(inline32(0x3e22_f983, t) && !inline32(0x3e22_f983, Target::Gfx700));
    assert!(inline64(0x3ff0_0000_0000_0000, t) && !inline64(0x3f80_0000, t));
    assert!(inline16(0x3c00, t) && inline16(0x3c00_3c00, t) && !inline16(0x1234, t));
}

/// Whether `inst` (one MIR instruction) is accepted on `t`.
fn legal(inst: &str, t: Target) -> bool {
    let text = format!("---\nname: f\nbody: |\n  bb.0:\n    {inst}\n...\n");
    let f = parse("t.mir", &text).unwrap().functions.remove(0);
    violation(&f, &f.blocks[0].insts[0], t).is_none()
}

/// Each instruction with whether llvm-mc-22 assembles its assembly form on gfx900 and on
/// gfx1100 (2026-12-06; `echo "v_add3_u32 v0, v1, s2, s3" | llvm-mc-22 -arch=amdgcn
/// -mcpu=gfx900 -show-encoding`: "invalid operand (violates constant bus restrictions)").
/// gfx1100 lines use wave32's `vcc_lo` and single-SGPR masks where the gfx900 ones use pairs.
#[test]
fn llvm_mc_acceptance() {
    #[rustfmt::skip] // one case a line: MIR, the assembly llvm-mc-22 was given, gfx900, gfx1100
    let cases: &[(&str, &str, bool, bool)] = &[
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, $sgpr3, implicit $exec", "v_add3_u32 v0, v1, s2, s3", false, true),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, $sgpr2, implicit $exec", "v_add3_u32 v0, v1, s2, s2", true, true),
        ("$vgpr0 = V_ADD3_U32_e64 $sgpr1, $sgpr2, $sgpr3, implicit $exec", "v_add3_u32 v0, s1, s2, s3", false, false),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $vgpr2, 100000, implicit $exec", "v_add3_u32 v0, v1, v2, 0x186a0", false, true),
        ("$vgpr0 = V_ADD3_U32_e64 $sgpr1, $vgpr2, 100000, implicit $exec", "v_add3_u32 v0, s1, v2, 0x186a0", false, true),
        ("$vgpr0 = V_ADD3_U32_e64 $sgpr1, $sgpr2, 100000, implicit $exec", "v_add3_u32 v0, s1, s2, 0x186a0", false, false),
        ("$vgpr0 = V_ADD3_U32_e64 100000, $vgpr2, 100000, implicit $exec", "v_add3_u32 v0, 0x186a0, v2, 0x186a0", false, true),
        ("$vgpr0 = V_ADD3_U32_e64 100000, $vgpr2, 100001, implicit $exec", "v_add3_u32 v0, 0x186a0, v2, 0x186a1", false, false),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, 64, implicit $exec", "v_add3_u32 v0, v1, s2, 64", true, true),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, -16, implicit $exec", "v_add3_u32 v0, v1, s2, -16", true, true),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, 1065353216, implicit $exec", "v_add3_u32 v0, v1, s2, 1.0", true, true),
        ("$vgpr0 = V_ADD3_U32_e64 $vgpr1, $sgpr2, 1042479491, implicit $exec", "v_add3_u32 v0, v1, s2, 0.15915494", true, true),
        ("$vgpr0 = V_ADD_U32_e32 $vgpr1, $sgpr2, implicit $exec", "v_add_u32_e32 v0, v1, s2 (gfx1100: v_add_nc_u32_e32)", false, false),
        ("$vgpr0 = V_ADD_U32_e32 $sgpr1, $vgpr2, implicit $exec", "v_add_u32_e32 v0, s1, v2", true, true),
        ("$vgpr0 = V_ADD_U32_e32 100000, $vgpr2, implicit $exec", "v_add_u32_e32 v0, 0x186a0, v2", true, true),
        ("$vgpr0 = V_ADD_U32_e32 $vgpr1, 5, implicit $exec", "v_add_u32_e32 v0, v1, 5", false, false),
        ("$vgpr0 = V_MUL_LO_U32_e64 $sgpr1, $sgpr2, implicit $exec", "v_mul_lo_u32 v0, s1, s2", false, true),
        ("$vgpr0 = V_MOV_B32_e64 4660, implicit $exec", "v_mov_b32_e64 v0, 0x1234", false, true),
        ("$vgpr0_vgpr1 = V_LSHLREV_B64_e64 $sgpr0, $sgpr2_sgpr3, implicit $exec", "v_lshlrev_b64 v[0:1], s0, s[2:3]", false, false),
        ("$vgpr0_vgpr1 = V_LSHLREV_B64_e64 $sgpr0, $vgpr2_vgpr3, implicit $exec", "v_lshlrev_b64 v[0:1], s0, v[2:3]", true, true),
        ("$vgpr0_vgpr1 = V_LSHLREV_B64_e64 4660, $vgpr2_vgpr3, implicit $exec", "v_lshlrev_b64 v[0:1], 0x1234, v[2:3]", false, true),
        ("$vgpr0_vgpr1 = V_LSHLREV_B64_e64 $sgpr0, 4660, implicit $exec", "v_lshlrev_b64 v[0:1], s0, 0x1234", false, false),
        ("$vgpr0 = V_PK_ADD_F16 8, $sgpr1, 8, $sgpr2, 0, 0, 0, 0, 0, implicit $exec", "v_pk_add_f16 v0, s1, s2", false, true),
        ("$vgpr0 = V_PK_ADD_F16 8, $vgpr1, 8, 4660, 0, 0, 0, 0, 0, implicit $exec", "v_pk_add_f16 v0, v1, 0x1234", false, true),
        ("V_CMP_EQ_U32_e32 $vgpr1, $sgpr2, implicit-def $vcc, implicit $exec", "v_cmp_eq_u32_e32 vcc, v1, s2", false, false),
    ];
    for (mir, asm, gfx900, gfx1100) in cases {
        assert_eq!(legal(mir, Target::Gfx900), *gfx900, "gfx900: {mir} ({asm})");
        assert_eq!(
            legal(mir, Target::Gfx1100),
            *gfx1100,
            "gfx1100: {mir} ({asm})"
        );
    }
}

/// The lane-mask reads: an SGPR mask operand and the `_e32` forms' implicit VCC take the
/// constant bus (llvm-mc-22 on gfx900: `v_cndmask_b32_e32 v0, s1, v2, vcc`, `..., 0x1234, v2,
/// vcc`, `v_cndmask_b32_e64 v0, s1, v2, s[4:5]`, `v_addc_co_u32_e32 v0, vcc, s1, v2, vcc`
/// rejected; on gfx1100 (wave32) `v_cndmask_b32_e32 v0, s1, v2, vcc_lo`, `v_cndmask_b32_e64 v0,
/// s1, v2, s4` and `v_add_co_ci_u32_e32 v0, vcc_lo, s1, v2, vcc_lo` assemble,
/// `v_cndmask_b32_e64 v0, s1, s2, s4` does not).
#[test]
fn lane_mask_reads() {
    let g9 = Target::Gfx900;
    let g11 = Target::Gfx1100;
    assert!(!legal(
        "$vgpr0 = V_CNDMASK_B32_e32 $sgpr1, $vgpr2, implicit $vcc, implicit $exec",
        g9
    ));
    assert!(!legal(
        "$vgpr0 = V_CNDMASK_B32_e32 4660, $vgpr2, implicit $vcc, implicit $exec",
        g9
    ));
    assert!(legal(
        "$vgpr0 = V_CNDMASK_B32_e32 64, $vgpr2, implicit $vcc, implicit $exec",
        g9
    ));
    assert!(!legal(
        "$vgpr0 = V_CNDMASK_B32_e64 0, $sgpr1, 0, $vgpr2, $sgpr4_sgpr5, implicit $exec",
        g9
    ));
    assert!(legal(
        "$vgpr0 = V_CNDMASK_B32_e64 0, 0, 0, $vgpr2, $sgpr4_sgpr5, implicit $exec",
        g9
    ));
    assert!(!legal(
        "$vgpr0 = V_ADDC_U32_e32 $sgpr1, $vgpr2, implicit-def $vcc, implicit $vcc, implicit $exec",
        g9
    ));
    assert!(legal(
        "$vgpr0 = V_CNDMASK_B32_e32 $sgpr1, $vgpr2, implicit $vcc_lo, implicit $exec",
        g11
    ));
    assert!(legal(
        "$vgpr0 = V_CNDMASK_B32_e64 0, $sgpr1, 0, $vgpr2, $sgpr4, implicit $exec",
        g11
    ));
    assert!(!legal(
        "$vgpr0 = V_CNDMASK_B32_e64 0, $sgpr1, 0, $sgpr2, $sgpr4, implicit $exec",
        g11
    ));
    assert!(legal("$vgpr0 = V_ADDC_U32_e32 $sgpr1, $vgpr2, implicit-def $vcc_lo, implicit $vcc_lo, implicit $exec", g11));
}

/// Before register allocation the bank is the register class's, and a register is a
/// (register, sub-register) pair as in LLVM's `isOperandLegal`: `%1.sub0` and `%1.sub1` of an
/// SGPR pair become two SGPRs (llvm-mc-22 gfx900: `v_add3_u32 v0, v1, s2, s3` rejected,
/// `v_add3_u32 v0, v1, s2, s2` accepted); a VGPR class reads no SGPR.
#[test]
fn virtual_registers_by_class() {
    let g9 = Target::Gfx900;
    let add3 = |a: &str, b: &str| {
        format!("%0:vgpr_32 = V_ADD3_U32_e64 %3:vgpr_32, {a}, {b}, implicit $exec")
    };
    assert!(!legal(&add3("%1:sreg_32", "%2:sreg_32"), g9));
    assert!(legal(&add3("%1:sreg_32", "%1:sreg_32"), g9));
    assert!(!legal(&add3("%1.sub0:sreg_64", "%1.sub1:sreg_64"), g9));
    assert!(legal(&add3("%1.sub0:sreg_64", "%1.sub0:sreg_64"), g9));
    assert!(legal(&add3("%1:sreg_32", "%2:vgpr_32"), g9));
    assert!(legal(&add3("%1:sreg_32", "%2:sreg_32"), Target::Gfx1100));
}
