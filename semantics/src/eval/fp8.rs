//! `f16_to_fp8_scale(x.f16, scale.u8)`: AMD's helper of the gfx950 (CDNA4) scaled fp8
//! conversions (`V_CVT_SCALEF32_PK_FP8_F16`), modelled only where its result is certain.
//!
//! What the sources fix. The CDNA4 ISA guide's pseudocode passes `scale = exponent(S1.f32)`,
//! the biased exponent field of the f32 scale operand (the guides' `exponent()` is the field:
//! V_DIV_SCALE_F32 tests `exponent(S2.f32) <= 23` for tiny values), and describes the op as
//! "scale ... using the exponent ..., then convert ... to FP8 with round toward nearest even".
//! FP8 on gfx950 is OCP E4M3 (bias 7, no infinities, S.1111.111 the only NaNs, largest
//! finite 448 = 0x7e), not gfx942's FNUZ format: AMD's HIP header `amd_hip_ocp_fp.hpp` calls
//! `__builtin_amdgcn_cvt_scalef32_pk_fp8_f16` for `__AMD_OCP_E4M3`, CK's gfx950 path
//! static_asserts "Do not support FNUZ FP8 type", RCCL's fp8 type is `__hip_fp8_e4m3` on
//! gfx950 and `__hip_fp8_e4m3_fnuz` on gfx942. A scale field of 127 is the factor 1.0 whichever way the
//! scale applies (2^(127 - 127)); AMD's own code calls these builtins with scale 1.0f for a
//! plain conversion (RCCL's gfx950 `hadd`).
//!
//! What they do not fix, and is therefore not modelled: whether the input is divided or
//! multiplied by 2^(field - 127) (AMD's HIP host emulation applies no scale at all for E4M3),
//! results that overflow 448 (saturate to 448 or NaN?), results below 2^-6 (E4M3 denormals or
//! flushed?), f16 denormal inputs (the f16 denormal mode?), infinities, NaNs, and scale fields
//! 0 and 255. On those inputs the helper is undefined (`UNDEFINED`): the checker assumes a
//! source never reaches it, so an entry that uses this helper serves refutations only; a
//! rule whose instructions read it is never reported proved (`check::partial`).
//!
//! Inside the domain the conversion is exact: a normal f16 x = 1.m * 2^u with -6 <= u <= 8
//! keeps its sign, takes the E4M3 exponent field u + 7 and the fraction m rounded to 3 bits,
//! ties to even; a carry out of the fraction raises the exponent (still normal); the result
//! must be at most 448. +-0 converts to +-0 (sign kept).

use super::*;

impl<D: Domain> Ev<'_, '_, D> {
    /// The E4M3 byte of f16 `v` with scale field `s` (see the module doc); outside the
    /// modelled domain the path is undefined.
    pub(super) fn f16_to_fp8_scale(
        &mut self,
        v: Val<D>,
        s: Val<D>,
        st: &mut St<D>,
    ) -> Result<Val<D>, EvalError> {
        let (Val::Bits(x, Ty::Bits(_, 16)), Val::Bits(scale, Ty::Bits(_, 8))) = (v, s) else {
            return err("f16_to_fp8_scale needs a 16-bit value and an 8-bit scale");
        };
        let d = &mut *self.d;
        let sign = d.extract(&x, 15, 15);
        let e5 = d.extract(&x, 14, 10);
        let frac = d.extract(&x, 9, 0);
        // Round the 10 fraction bits to 3, to nearest, ties to even.
        let keep = d.extract(&frac, 9, 7);
        let half = d.extract(&frac, 6, 6);
        let rest = d.extract(&frac, 5, 0);
        let one1 = d.bv(1, 1);
        let round = d.cmp(CmpOp::Eq, &half, &one1);
        let zero6 = d.bv(0, 6);
        let exact = d.cmp(CmpOp::Eq, &rest, &zero6);
        let sticky = d.lnot(&exact);
        let lsb = d.extract(&keep, 0, 0);
        let odd = d.cmp(CmpOp::Eq, &lsb, &one1);
        let tie_or_more = d.or(&sticky, &odd);
        let up = d.and(&round, &tie_or_more);
        let keep4 = d.zext(&keep, 1);
        let one4 = d.bv(1, 4);
        let bumped = d.op(BvOp::Add, &keep4, &one4);
        let mant4 = d.ite(&up, &bumped, &keep4);
        let carry = d.extract(&mant4, 3, 3);
        let mant = d.extract(&mant4, 2, 0);
        // Exponent field u + 7 = e5 - 8, plus the carry (5 bits: 16 is out of range).
        let eight = d.bv(8, 5);
        let ef = d.op(BvOp::Sub, &e5, &eight);
        let carry5 = d.zext(&carry, 4);
        let ef = d.op(BvOp::Add, &ef, &carry5);
        let ef4 = d.extract(&ef, 3, 0);
        let top = d.concat(&sign, &ef4);
        let normal = d.concat(&top, &mant);
        let zero7 = d.bv(0, 7);
        let signed_zero = d.concat(&sign, &zero7);
        // The domain: scale field 127, and x = +-0 or a normal with 9 <= e5 <= 23 whose
        // rounded magnitude is at most 448 (exponent field below 15, or 15 with fraction < 7).
        let zero5 = d.bv(0, 5);
        let e_zero = d.cmp(CmpOp::Eq, &e5, &zero5);
        let zero10 = d.bv(0, 10);
        let f_zero = d.cmp(CmpOp::Eq, &frac, &zero10);
        let is_zero = d.and(&e_zero, &f_zero);
        let nine = d.bv(9, 5);
        let twenty_three = d.bv(23, 5);
        let ge9 = d.cmp(CmpOp::Ule, &nine, &e5);
        let le23 = d.cmp(CmpOp::Ule, &e5, &twenty_three);
        let in_range = d.and(&ge9, &le23);
        let fifteen = d.bv(15, 5);
        let below15 = d.cmp(CmpOp::Ult, &ef, &fifteen);
        let at15 = d.cmp(CmpOp::Eq, &ef, &fifteen);
        let seven = d.bv(7, 3);
        let not_nan = d.cmp(CmpOp::Ult, &mant, &seven);
        let top_ok = d.and(&at15, &not_nan);
        let fits = d.or(&below15, &top_ok);
        let normal_ok = d.and(&in_range, &fits);
        let value_ok = d.or(&is_zero, &normal_ok);
        let unit = d.bv(127, 8);
        let scale_one = d.cmp(CmpOp::Eq, &scale, &unit);
        let ok = d.and(&scale_one, &value_ok);
        let outside = d.lnot(&ok);
        st.mem.ub = d.or(&st.mem.ub, &outside);
        let out = d.ite(&is_zero, &signed_zero, &normal);
        Ok(Val::Bits(out, Ty::Bits(Kind::B, 8)))
    }
}
