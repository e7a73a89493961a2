//! The VOPC f32 compares (`V_CMP_GT_F32_e64 0, %a, 0, %b, 0`): IEEE comparisons into this
//! lane's bit of a lane mask (alu.pcode's V_CMP_*_F32 entries). Two things are refused here and
//! in [`super::fpmode`]: a set `clamp` bit (meaningless on a compare; the lowering would apply
//! the float clamp to the mask) and a MODE that flushes f32 denormals (whether a compare sees a
//! flushed input the guides do not say).

use super::mir::{Inst, OpKind, Operand};

/// Whether `mnemonic` is one of the f32 compares.
pub fn is_fcmp(mnemonic: &str) -> bool {
    mnemonic.starts_with("v_cmp_") && mnemonic.ends_with("_f32")
}

/// Refuse a `V_CMP_*_F32_e64` whose `clamp` (the fifth explicit use: `src0_modifiers, src0,
/// src1_modifiers, src1, clamp`) is set.
pub fn check(i: &Inst, uses: &[&Operand]) -> Result<(), String> {
    if !(i.opcode.starts_with("V_CMP_") && i.opcode.ends_with("_F32_e64")) {
        return Ok(());
    }
    match uses.get(4).map(|o| &o.kind) {
        Some(OpKind::Imm(0)) => Ok(()),
        _ => Err("clamp on an f32 compare is not modelled".into()),
    }
}
