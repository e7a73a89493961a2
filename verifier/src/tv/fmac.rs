//! `V_FMAC_F32`: the fused multiply-accumulate, lowered as `v_fma_f32` on its MIR sources.
//!
//! AMD's RDNA3.5 guide (V_FMAC_F32: "D0.f32 = fma(S0.f32, S1.f32, D0.f32)") reads the
//! accumulator from the destination; LLVM's MIR names it as `src2`, tied to the definition
//! (`VOP2Instructions.td`, `$vdst = $src2`), so before register allocation it is a separate
//! virtual register whose value the destination's register holds when the instruction runs,
//! and after allocation it is the destination's register itself. Either way the result is
//! `fma(src0, src1, src2)`, the same rounding and MODE denormal handling as V_FMA_F32 (one
//! definition: alu.pcode's V_FMA_F32 entry). A modifier on the accumulator is refused: the
//! guides do not say whether the VOP3 NEG/ABS bits of a MAC's `src2` apply to the destination
//! read (sound: `unsupported`).

use super::mir::{Inst, OpKind, Operand};
use gcnsmt_semantics::target::{Gen, Target};

/// Whether `target` has `v_fmac_f32` (llvm-mc-22, 2026-12-05: gfx908, gfx90a, gfx942, gfx950
/// and gfx1010 on; not gfx600-gfx900, which have the unfused `v_mac_f32`).
pub fn has_fmac(target: Target) -> bool {
    target.gen() >= Gen::Gfx10
        || matches!(
            target,
            Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950
        )
}

/// Refuse a `V_FMAC_F32_e64` whose accumulator (`src2`) carries a source modifier (the fifth
/// explicit use: `src0_modifiers, src0, src1_modifiers, src1, src2_modifiers, ...`).
pub fn check(i: &Inst, uses: &[&Operand]) -> Result<(), String> {
    if !i.opcode.starts_with("V_FMAC_") || !i.opcode.ends_with("_e64") {
        return Ok(());
    }
    match uses.get(4).map(|o| &o.kind) {
        Some(OpKind::Imm(0)) => Ok(()),
        _ => Err("a source modifier on V_FMAC_F32's accumulator is not modelled".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmac_targets() {
        assert!(!has_fmac(Target::Gfx900));
        assert!(has_fmac(Target::Gfx90a));
        assert!(has_fmac(Target::Gfx1200));
        assert!(!has_fmac(Target::Gfx802));
    }
}
