//! VOP3/VOP3P source and output modifiers on bit patterns: what the hardware applies around an
//! instruction's pseudocode (AMD Vega and CDNA ISA guides, "VOP3" and "VOP3P" encodings: the
//! input modifiers act on each source before the operation, `clamp` on the result after it).
//!
//! - `abs` clears a float's sign bit and `neg` flips it, `abs` first (`-|x|` is negative); on a
//!   NaN they change only the sign, as on every other value (bit operations, no arithmetic).
//! - `clamp` of a float result gives a value in [0.0, 1.0]: below 0.0 gives +0.0, above 1.0
//!   (+inf included) gives 1.0, a NaN gives +0.0 (MODE.DX10_CLAMP = 1, LLVM's default for
//!   every kernel and the only mode `gcnsmt tv` accepts), and -0.0 stays -0.0, as LLVM's
//!   constant folding of the clamp node (`SITargetLowering::performClampCombine`: only `F <
//!   0.0` becomes 0.0, and -0.0 is not below 0.0) assumes.
//! - VOP3P packed 16-bit sources: `op_sel` picks the half the low result half reads, `op_sel_hi`
//!   the half the high result half reads, then `neg_lo` / `neg_hi` flip that half's sign (AMD
//!   CDNA4 guide 12.10; LLVM SIDefines.h SISrcMods OP_SEL_0, OP_SEL_1, NEG, NEG_HI).

use crate::domain::{BvOp, CmpOp, Domain};
use crate::ty::FpFmt;

/// `x` with `abs` then `neg` applied to its sign bit (the top bit of `x`).
pub fn neg_abs<D: Domain>(d: &mut D, x: &D::Bv, neg: bool, abs: bool) -> D::Bv {
    let w = d.width(x);
    let sign = d.bv(1u128 << (w - 1), w);
    let mut v = x.clone();
    if abs {
        let mag = d.not(&sign);
        v = d.op(BvOp::And, &v, &mag);
    }
    if neg {
        v = d.op(BvOp::Xor, &v, &sign);
    }
    v
}

/// The output clamp of an f32 or f16 result `x` (see the module comment).
pub fn clamp<D: Domain>(d: &mut D, fmt: FpFmt, x: &D::Bv) -> D::Bv {
    let w = fmt.width();
    let one_bits: u128 = match fmt {
        FpFmt::F16 => 0x3c00,
        FpFmt::Bf16 => 0x3f80,
        FpFmt::F32 => 0x3f80_0000,
        FpFmt::F64 => 0x3ff0_0000_0000_0000,
    };
    let mag = d.extract(x, w - 2, 0);
    let inf = d.bv(((1u128 << fmt.ebits()) - 1) << (fmt.sbits() - 1), w - 1);
    let nan = d.cmp(CmpOp::Ult, &inf, &mag);
    let s = d.extract(x, w - 1, w - 1);
    let one1 = d.bv(1, 1);
    let negative = d.cmp(CmpOp::Eq, &s, &one1);
    let zero_mag = d.bv(0, w - 1);
    let is_zero = d.cmp(CmpOp::Eq, &mag, &zero_mag);
    let nonzero = d.lnot(&is_zero);
    let below = d.and(&negative, &nonzero);
    let one = d.bv(one_bits, w);
    // Positive (sign clear) and above 1.0: the bit patterns order like the values.
    let big = d.cmp(CmpOp::Ult, &one, x);
    let positive = d.lnot(&negative);
    let above = d.and(&positive, &big);
    let zero = d.bv(0, w);
    let to_zero = d.or(&nan, &below);
    let capped = d.ite(&above, &one, x);
    d.ite(&to_zero, &zero, &capped)
}

/// `clamp` on an unsigned 32-bit add (`sub` false) or subtract of `a` and `b` whose wrapped
/// result is `v`: the sum saturates at 0xffffffff (it wrapped iff `v < a`), the difference at
/// 0 (it wrapped iff `b > a`).
pub fn saturate_u32<D: Domain>(d: &mut D, sub: bool, a: &D::Bv, b: &D::Bv, v: &D::Bv) -> D::Bv {
    if sub {
        let wrapped = d.cmp(CmpOp::Ult, a, b);
        let zero = d.bv(0, 32);
        d.ite(&wrapped, &zero, v)
    } else {
        let wrapped = d.cmp(CmpOp::Ult, v, a);
        let max = d.bv(0xffff_ffff, 32);
        d.ite(&wrapped, &max, v)
    }
}

/// A VOP3P packed 16-bit source: the 32-bit `x` after `op_sel` (`sel_lo`), `op_sel_hi`
/// (`sel_hi`), `neg_lo` and `neg_hi`.
pub fn packed16<D: Domain>(
    d: &mut D,
    x: &D::Bv,
    sel_lo: bool,
    sel_hi: bool,
    neg_lo: bool,
    neg_hi: bool,
) -> D::Bv {
    packed(d, x, 16, (sel_lo, sel_hi), (neg_lo, neg_hi))
}

/// VOP3P input modifiers of a packed f32 source `x` (64 bits): the low lane reads dword
/// `sel_lo` (op_sel), the high lane dword `sel_hi` (op_sel_hi), each negated by
/// `neg_lo`/`neg_hi` (AMD CDNA3 ISA guide, VOP3P: "OPSEL ... for 32-bit packed operands selects
/// the low or high dword"; llvm-mc-22 `v_pk_mov_b32`/`v_pk_add_f32` op_sel syntax).
pub fn packed32<D: Domain>(
    d: &mut D,
    x: &D::Bv,
    sel_lo: bool,
    sel_hi: bool,
    neg_lo: bool,
    neg_hi: bool,
) -> D::Bv {
    packed(d, x, 32, (sel_lo, sel_hi), (neg_lo, neg_hi))
}

/// A packed source of two `w`-bit lanes: each lane reads the lane its select names, negated
/// if asked.
fn packed<D: Domain>(d: &mut D, x: &D::Bv, w: u32, sel: (bool, bool), neg: (bool, bool)) -> D::Bv {
    let lane = |d: &mut D, hi: bool| {
        if hi {
            d.extract(x, 2 * w - 1, w)
        } else {
            d.extract(x, w - 1, 0)
        }
    };
    let lo = lane(d, sel.0);
    let hi = lane(d, sel.1);
    let lo = neg_abs(d, &lo, neg.0, false);
    let hi = neg_abs(d, &hi, neg.1, false);
    d.concat(&hi, &lo)
}

/// [`clamp`] on each f16 half of a packed result.
pub fn clamp_packed16<D: Domain>(d: &mut D, x: &D::Bv) -> D::Bv {
    let lo = d.extract(x, 15, 0);
    let hi = d.extract(x, 31, 16);
    let lo = clamp(d, FpFmt::F16, &lo);
    let hi = clamp(d, FpFmt::F16, &hi);
    d.concat(&hi, &lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Concrete;

    fn c(fmt: FpFmt, x: u128) -> u128 {
        let mut d = Concrete;
        let v = d.bv(x, fmt.width());
        clamp(&mut d, fmt, &v).value
    }

    // Expected values: IEEE 754 single/half encodings written by hand (1.0 = 0x3f800000,
    // 0.5 = 0x3f000000, -0.5 = 0xbf000000, 2.0 = 0x40000000, +inf = 0x7f800000, a quiet NaN
    // 0x7fc00000; f16 1.0 = 0x3c00, 2.0 = 0x4000, -1.0 = 0xbc00).
    #[test]
    fn clamp_keeps_zero_to_one_and_cuts_the_rest() {
        let f = FpFmt::F32;
        assert_eq!(c(f, 0x3f00_0000), 0x3f00_0000); // 0.5
        assert_eq!(c(f, 0xbf00_0000), 0); // -0.5 -> +0
        assert_eq!(c(f, 0x4000_0000), 0x3f80_0000); // 2.0 -> 1.0
        assert_eq!(c(f, 0x7f80_0000), 0x3f80_0000); // +inf -> 1.0
        assert_eq!(c(f, 0xff80_0000), 0); // -inf -> +0
        assert_eq!(c(f, 0x7fc0_0000), 0); // NaN -> +0 (DX10_CLAMP)
        assert_eq!(c(f, 0xffc0_0001), 0); // negative NaN -> +0
        assert_eq!(c(f, 0x8000_0000), 0x8000_0000); // -0 stays (LLVM's fold)
        assert_eq!(c(f, 0x3f80_0000), 0x3f80_0000); // 1.0
        assert_eq!(c(FpFmt::F16, 0x4000), 0x3c00);
        assert_eq!(c(FpFmt::F16, 0xbc00), 0);
        assert_eq!(c(FpFmt::F16, 0x3800), 0x3800); // 0.5
    }

    #[test]
    fn neg_abs_and_packed_selection() {
        let mut d = Concrete;
        let x = d.bv(0xbf00_0000, 32); // -0.5
        assert_eq!(neg_abs(&mut d, &x, false, true).value, 0x3f00_0000); // |x|
        assert_eq!(neg_abs(&mut d, &x, true, true).value, 0xbf00_0000); // -|x|
        assert_eq!(neg_abs(&mut d, &x, true, false).value, 0x3f00_0000); // -x
        let p = d.bv(0x4400_3c00, 32); // {hi 4.0, lo 1.0}
                                       // op_sel:[1] op_sel_hi:[0]: the halves swap.
        assert_eq!(
            packed16(&mut d, &p, true, false, false, false).value,
            0x3c00_4400
        );
        // Defaults (op_sel 0, op_sel_hi 1) with neg_hi: {-4.0, 1.0}.
        assert_eq!(
            packed16(&mut d, &p, false, true, false, true).value,
            0xc400_3c00
        );
        // Saturation: 0xffffffff + 1 -> 0xffffffff; 0 - 1 -> 0; 5 - 3 = 2 stays.
        let (a, b) = (d.bv(0xffff_ffff, 32), d.bv(1, 32));
        let wrapped = d.bv(0, 32);
        assert_eq!(
            saturate_u32(&mut d, false, &a, &b, &wrapped).value,
            0xffff_ffff
        );
        let (a, b, w) = (d.bv(0, 32), d.bv(1, 32), d.bv(0xffff_ffff, 32));
        assert_eq!(saturate_u32(&mut d, true, &a, &b, &w).value, 0);
        let (a, b, w) = (d.bv(5, 32), d.bv(3, 32), d.bv(2, 32));
        assert_eq!(saturate_u32(&mut d, true, &a, &b, &w).value, 2);
        let q = d.bv(0x4000_bc00, 32); // {2.0, -1.0}
        assert_eq!(clamp_packed16(&mut d, &q).value, 0x3c00_0000);
    }
}
