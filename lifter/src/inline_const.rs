//! AMDGPU inline constants: the immediates an instruction encodes in its source field rather
//! than as a 32-bit literal (LLVM `AMDGPU::isInlinableLiteral32/64/16`; AMD ISA guides,
//! "Inline constants"). Shared by tv's VALU operand check (`verifier/src/tv/vop_bus.rs`) and
//! the rule binder's (`verifier/src/machine/vop_legal.rs`).

use gcnsmt_semantics::target::{Gen, Target};

/// f32 bit patterns of the inline constants 0.5, -0.5, 1, -1, 2, -2, 4, -4.
pub const F32_INLINE: [u32; 8] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
];

/// f64 bit patterns of the same constants.
const F64_INLINE: [u64; 8] = [
    0x3fe0_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x4010_0000_0000_0000,
    0xc010_0000_0000_0000,
];

/// f16 bit patterns of the same constants, and 1/(2*pi) (LLVM 22 `getInlineEncodingV216`).
pub const F16_INLINE: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// bf16 bit patterns of the same constants (LLVM 22 `getInlineEncodingV2BF16`); 1/(2*pi) as
/// bf16 is 0x3e22.
pub const BF16_INLINE: [u16; 8] = [
    0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080,
];

/// 1/(2*pi) is inline from gfx8 on (LLVM `FeatureInv2PiInlineImm`).
pub fn inv2pi(t: Target) -> bool {
    t.gen() >= Gen::Gfx8
}

/// Whether the 32-bit value `v` is an inline constant of a 32-bit operand on `t`.
pub fn inline32(v: u32, t: Target) -> bool {
    (-16..=64).contains(&(v as i32)) || F32_INLINE.contains(&v) || (inv2pi(t) && v == 0x3e22_f983)
}

/// Whether `v` is an inline constant of a 64-bit operand on `t`.
pub fn inline64(v: i64, t: Target) -> bool {
    let u = v as u64;
    (-16..=64).contains(&v) || F64_INLINE.contains(&u) || (inv2pi(t) && u == 0x3fc4_5f30_6dc9_c882)
}

/// Any reading a 16-bit or packed operand could give `v` as an inline constant (lenient).
pub fn inline16(v: u32, t: Target) -> bool {
    let half = |h: u16| {
        (-16..=64).contains(&(h as i16))
            || F16_INLINE.contains(&h)
            || BF16_INLINE.contains(&h)
            || h == 0x3e22
    };
    let (lo, hi) = (v as u16, (v >> 16) as u16);
    inline32(v, t) || (half(lo) && (hi == 0 || hi == 0xffff || hi == lo)) || (lo == 0 && half(hi))
}
