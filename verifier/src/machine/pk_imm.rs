//! gfx1250's operand rules for immediates in packed VOP3P sources, which differ from the
//! earlier targets' (docs/tv.md "Packed f32 and bf16 on gfx1250"):
//! - a packed f32 op (`v_pk_add_f32`, ...) reads only 32 bits of a scalar or literal operand
//!   and gives them to both lanes (llvm/llvm-project#168458, SIFoldOperands: "a packed f32
//!   instruction can only read 32 bits from a scalar operand (SGPR or literal) and replicates
//!   the bits to both channels"; the encoder keeps the low 32 bits of a 64-bit MIR immediate:
//!   llvm-mc-22 prints `v_pk_add_f32 v[0:1], v[2:3], 0x400000003f800000` as `..., 1.0`);
//! - a packed bf16 op (`v_pk_add_bf16`) gets a float inline constant in bits 31:16, 0 in
//!   15:0 (llvm/llvm-project#209861: "v_pk_*_bf16 instructions using inline constants must use
//!   OPSEL to select the upper 16-bits"), so op_sel/op_sel_hi choose between the constant
//!   and 0.
//!
//! Anything else in these sources (SGPR pairs, other packed 16-bit immediates on gfx1250,
//! packed f32 immediates before gfx1250) is refused: not modelled.

use super::mods::SrcMods;
use gcnsmt_lifter::inline_const::BF16_INLINE;
use gcnsmt_lifter::lift::{AluDef, AluMods};
use gcnsmt_semantics::target::Target;

/// Whether source `i`, the immediate `text`, of a packed op on gfx1250 is modelled, and the
/// 32-bit value the hardware reads for it (`None`: not modelled). For a packed f32 source the
/// value is the low 32 bits, which `super::step` gives both lanes.
pub(crate) fn gfx1250_value(alu: &AluDef, mods: &SrcMods, i: usize, text: &str) -> Option<i64> {
    let v = gcnsmt_lifter::asm::parse_int(text)?;
    let neg = (mods.neg | mods.neg_hi) >> i & 1 != 0;
    gfx1250_imm(alu.mods, alu.entry == "V_PK_ADD_BF16", neg, v)
}

/// [`gfx1250_value`] for an op with modifiers `kind` (`bf16`: a packed bf16 op), a source
/// immediate `v` with (`neg`) or without neg_lo/neg_hi; `gcnsmt tv` asks it before lowering.
pub(crate) fn gfx1250_imm(kind: AluMods, bf16: bool, neg: bool, v: i64) -> Option<i64> {
    match kind {
        AluMods::Packed32 if !neg => Some(v & 0xffff_ffff),
        AluMods::Packed16 if v == 0 => Some(0),
        // The bf16 constants (LLVM 22 `getInlineEncodingV2BF16`; 1/(2*pi), 0x3E22, left out: its
        // f32 pattern 0x3E22F983 has other bits than 0 in 15:0; the integer constants'
        // gfx1250 bf16 value no source we have states, 0 is taken: 0 in every reading).
        AluMods::Packed16 if bf16 && u16::try_from(v).is_ok_and(|h| BF16_INLINE.contains(&h)) => {
            Some(v << 16)
        }
        _ => None,
    }
}

/// Whether `target` has gfx1250's packed operand rules.
pub(crate) fn gfx1250(target: Target) -> bool {
    target == Target::Gfx1250
}
