//! The evaluator's named functions (`CalcDsAddr`, `CalcDs2Addr`, `CalcBufferAddr`, the float classifiers,
//! `fma`, the f32 denormal mode, bit counts) and the IEEE comparisons written on bit patterns.

use super::*;
use crate::settings::{AppendAddr, BvhInvalid, BvhPop, Fp32Denorm, Gfx6NegativeBase, IeeeMode};

impl<D: Domain> Ev<'_, '_, D> {
    // IEEE comparisons written on the bit patterns, so no verdict rests on a solver's NaN model.
    pub(super) fn f_is_nan(&mut self, fmt: FpFmt, x: &D::Bv) -> D::Bool {
        let w = fmt.width();
        let mag = self.d.extract(x, w - 2, 0);
        let inf = self
            .d
            .bv(((1u128 << fmt.ebits()) - 1) << (fmt.sbits() - 1), w - 1);
        self.d.cmp(CmpOp::Ult, &inf, &mag)
    }

    pub(super) fn f_is_zero(&mut self, fmt: FpFmt, x: &D::Bv) -> D::Bool {
        let w = fmt.width();
        let mag = self.d.extract(x, w - 2, 0);
        let z = self.d.bv(0, w - 1);
        self.d.cmp(CmpOp::Eq, &mag, &z)
    }

    pub(super) fn f_eq(&mut self, fmt: FpFmt, x: &D::Bv, y: &D::Bv) -> D::Bool {
        let nx = self.f_is_nan(fmt, x);
        let ny = self.f_is_nan(fmt, y);
        let any_nan = self.d.or(&nx, &ny);
        let same = self.d.cmp(CmpOp::Eq, x, y);
        let zx = self.f_is_zero(fmt, x);
        let zy = self.f_is_zero(fmt, y);
        let zz = self.d.and(&zx, &zy);
        let eq = self.d.or(&same, &zz);
        let ok = self.d.lnot(&any_nan);
        self.d.and(&ok, &eq)
    }

    pub(super) fn f_lt(&mut self, fmt: FpFmt, x: &D::Bv, y: &D::Bv) -> D::Bool {
        let w = fmt.width();
        let nx = self.f_is_nan(fmt, x);
        let ny = self.f_is_nan(fmt, y);
        let any_nan = self.d.or(&nx, &ny);
        let zx = self.f_is_zero(fmt, x);
        let zy = self.f_is_zero(fmt, y);
        let zz = self.d.and(&zx, &zy);
        let sx = self.d.extract(x, w - 1, w - 1);
        let sy = self.d.extract(y, w - 1, w - 1);
        let one = self.d.bv(1, 1);
        let xneg = self.d.cmp(CmpOp::Eq, &sx, &one);
        let yneg = self.d.cmp(CmpOp::Eq, &sy, &one);
        let mx = self.d.extract(x, w - 2, 0);
        let my = self.d.extract(y, w - 2, 0);
        let mag_lt = self.d.cmp(CmpOp::Ult, &mx, &my);
        let mag_gt = self.d.cmp(CmpOp::Ult, &my, &mx);
        // Signs differ: x < y iff x is the negative one. Same sign: compare magnitudes.
        let t = self.d.boolean(true);
        let both_neg = self.d.ite_bool(&yneg, &mag_gt, &t);
        let xneg_case = both_neg;
        let f = self.d.boolean(false);
        let xpos_case = self.d.ite_bool(&yneg, &f, &mag_lt);
        let lt = self.d.ite_bool(&xneg, &xneg_case, &xpos_case);
        let bad = self.d.or(&any_nan, &zz);
        let ok = self.d.lnot(&bad);
        self.d.and(&ok, &lt)
    }

    /// The number of set bits of `x`, as 32 bits.
    fn count_ones(&mut self, x: &D::Bv) -> D::Bv {
        // A tree of adds one bit wider per level (64 bits: 6 levels of narrow adds), not a
        // chain of 32-bit adds: the solver bit-blasts far fewer adders (ds_append's count).
        let mut terms: Vec<D::Bv> = (0..self.d.width(x))
            .map(|i| self.d.extract(x, i, i))
            .collect();
        let mut w = 1;
        while terms.len() > 1 {
            w += 1;
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            for pair in terms.chunks(2) {
                let a = self.d.zext(&pair[0], 1);
                next.push(match pair.get(1) {
                    Some(b) => {
                        let b = self.d.zext(b, 1);
                        self.d.op(BvOp::Add, &a, &b)
                    }
                    None => a,
                });
            }
            terms = next;
        }
        let sum = terms.pop().expect("a value has at least one bit");
        self.d.zext(&sum, 32 - w)
    }

    /// The index of the lowest set bit of `x`, or -1 (all ones) when none is, as 32 bits.
    fn first_one(&mut self, x: &D::Bv) -> D::Bv {
        let mut acc = self.d.bv(u32::MAX as u128, 32);
        let one = self.d.bv(1, 1);
        for i in (0..self.d.width(x)).rev() {
            let bit = self.d.extract(x, i, i);
            let set = self.d.cmp(CmpOp::Eq, &bit, &one);
            let idx = self.d.bv(i as u128, 32);
            acc = self.d.ite(&set, &idx, &acc);
        }
        acc
    }

    /// The position, counted from the most significant bit, of the highest set bit of `x`, or
    /// -1 (all ones) when none is, as 32 bits: the guides' "find first one from MSB" loop
    /// (V_FFBH_U32, S_FLBIT_I32_B32/B64, RDNA's V_CLZ_I32_U32).
    fn first_one_from_msb(&mut self, x: &D::Bv) -> D::Bv {
        let mut acc = self.d.bv(u32::MAX as u128, 32);
        let one = self.d.bv(1, 1);
        let w = self.d.width(x);
        // From the LSB up, so the highest set bit is the last to choose.
        for i in 0..w {
            let bit = self.d.extract(x, i, i);
            let set = self.d.cmp(CmpOp::Eq, &bit, &one);
            let idx = self.d.bv((w - 1 - i) as u128, 32);
            acc = self.d.ite(&set, &idx, &acc);
        }
        acc
    }

    pub(super) fn call(
        &mut self,
        f: &str,
        args: &[Expr],
        st: &mut St<D>,
    ) -> Result<Val<D>, EvalError> {
        if let Some(v) = self.format_call(f, args, st)? {
            return Ok(v);
        }
        if let Some(v) = self.buffer_hw_call(f, args, st)? {
            return Ok(v);
        }
        if let Some(on) = self.setting_flag(f) {
            if !args.is_empty() {
                return err(format!("{f} takes no arguments"));
            }
            return Ok(Val::Bool(self.d.boolean(on)));
        }
        let vals: Vec<Val<D>> = match f {
            "CalcDsAddr" | "CalcDs2Addr" => {
                let mut v = Vec::new();
                for a in args {
                    v.push(self.expr(a, Some(Ty::U32), st)?);
                }
                v
            }
            _ => {
                let mut v = Vec::new();
                for a in args {
                    v.push(self.expr(a, None, st)?);
                }
                v
            }
        };
        let arity = |n: usize| -> Result<(), EvalError> {
            if vals.len() != n {
                err(format!("{f} takes {n} argument(s), got {}", vals.len()))
            } else {
                Ok(())
            }
        };
        match f {
            "CalcDsAddr" => self.calc_ds_addr(vals, st),
            // The two-address forms: the base, checked against their two element offsets (the
            // pcode adds the scaled offsets itself).
            "CalcDs2Addr" => {
                arity(3)?;
                let mut it = vals.into_iter();
                let a = self.address(it.next().unwrap())?;
                let o0 = self.address(it.next().unwrap())?;
                let o1 = self.address(it.next().unwrap())?;
                let either = self.d.op(BvOp::Or, &o0, &o1);
                self.gfx6_negative_base(st, &a, &either);
                Ok(Val::Bits(a, Ty::U32))
            }
            // In buffer entries: the offset within the record (see `crate::buffer`).
            "CalcBufferAddr" => {
                arity(4)?;
                let Some(mode) = self.frame.buffer else {
                    return err("CalcBufferAddr is only defined for buffer instructions");
                };
                self.sici_soffset(st, &mode, &vals);
                let mut it = vals.into_iter();
                let (Some(Val::Bits(vaddr, _)), _, _, Some(off)) =
                    (it.next(), it.next(), it.next(), it.next())
                else {
                    return err("CalcBufferAddr needs bit-vector operands");
                };
                let off = self.address(off)?;
                Ok(Val::Bits(
                    crate::buffer::aoffset(self.d, &mode, &vaddr, &off),
                    Ty::U32,
                ))
            }
            "isNAN" | "isSignalNAN" | "isQuietNAN" | "cvtToQuietNAN" | "signbit" => {
                arity(1)?;
                self.float_class(f, vals.into_iter().next().unwrap())
            }
            "ReverseBits" | "CountOneBits" | "FindFirstOne" | "FindFirstOneFromMsb" => {
                arity(1)?;
                self.bit_call(f, vals.into_iter().next().unwrap())
            }
            "fma" => {
                arity(3)?;
                let ty = vals[0].ty();
                let fmt = ty.fp().filter(|f| matches!(f, FpFmt::F32 | FpFmt::F64));
                let (Some(fmt), [Val::Bits(a, _), Val::Bits(b, _), Val::Bits(c, _)]) =
                    (fmt, &vals[..])
                else {
                    return err(format!("fma needs three .f32 or .f64 values, got .{ty}"));
                };
                if vals.iter().any(|v| v.ty() != ty) {
                    return err("fma needs three values of one type");
                }
                Ok(Val::Bits(self.d.fma(fmt, a, b, c), ty))
            }
            "f16_to_f32" => {
                arity(1)?;
                self.f16_to_f32(vals.into_iter().next().unwrap())
            }
            // The gfx950 scaled fp8 conversion, on its certain domain only (`fp8.rs`).
            "f16_to_fp8_scale" => {
                arity(2)?;
                let mut it = vals.into_iter();
                let (x, s) = (it.next().unwrap(), it.next().unwrap());
                self.f16_to_fp8_scale(x, s, st)
            }
            "FlushDenormF32" => {
                arity(1)?;
                self.flush_denorm_f32(vals.into_iter().next().unwrap())
            }
            // MODE.IEEE (setting `ieee_mode`): `WAVE_MODE.IEEE` in the guides' V_MAX_F32.
            "IeeeMode" => {
                arity(0)?;
                let on = self.frame.settings.ieee_mode == IeeeMode::On;
                Ok(Val::Bool(self.d.boolean(on)))
            }
            // Whether a D16 load keeps the other half of its destination (setting `d16_unused`:
            // not on SRAM-ECC targets, LLVM `d16PreservesUnusedBits`).
            "D16PreservesUnusedBits" => {
                arity(0)?;
                let on = self.frame.settings.d16_unused == crate::settings::D16Unused::Preserved;
                Ok(Val::Bool(self.d.boolean(on)))
            }
            // Whether `ds_append`/`ds_consume` take M0's base and bound (setting `append_addr`):
            // only on LDS, since with `gds` the GDS window applies them already.
            "AppendM0Base" => {
                arity(0)?;
                let on = self.frame.settings.append_addr == AppendAddr::M0Base
                    && self.frame.mem == MemView::Space(AddrSpace::Lds);
                Ok(Val::Bool(self.d.boolean(on)))
            }
            // One of the BVH stack ops' two readings the sources disagree on (setting
            // `bvh_invalid`; semantics/pcode/ds_bvh.pcode).
            "IsInvalidNode" => {
                arity(1)?;
                let x = self.convert(vals.into_iter().next().unwrap(), Ty::U32)?;
                let Val::Bits(x, _) = x else {
                    return err("IsInvalidNode needs a 32-bit node pointer");
                };
                let (hi, want) = match self.frame.settings.bvh_invalid {
                    BvhInvalid::AllOnes => (x, self.d.bv(0xffff_ffff, 32)),
                    BvhInvalid::Top29 => (self.d.extract(&x, 31, 3), self.d.bv(0x1fff_ffff, 29)),
                };
                Ok(Val::Bool(self.d.cmp(CmpOp::Eq, &hi, &want)))
            }
            _ => err(format!("unknown function `{f}`")),
        }
    }

    /// The settings read as argument-less flags: whether a scalar buffer load's offsets wrap at
    /// 32 bits (`sbuffer_offset`), whether the BVH stack pop decrements first (`bvh_pop`, one
    /// of the two readings the sources disagree on; semantics/pcode/ds_bvh.pcode).
    fn setting_flag(&self, f: &str) -> Option<bool> {
        let s = &self.frame.settings;
        match f {
            "SbufferOffsetWraps" => {
                Some(s.sbuffer_offset == crate::settings::SbufferOffset::Wrap32)
            }
            "BvhDecrementFirst" => Some(s.bvh_pop == BvhPop::Gpurt),
            // The ADDTID ops' M0 width (setting `addtid_m0`; breaker19 08).
            "AddtidM0Bits20" => Some(s.addtid_m0 == crate::settings::AddtidM0::Bits20),
            _ => None,
        }
    }

    /// The one-operand bit builtins: `ReverseBits` (the guides' `D0.u32[31 : 0] =
    /// S0.u32[0 : 31]` of V_BFREV_B32 and S_BREV_B32: bit i of the result is bit w-1-i of the
    /// operand), `CountOneBits`, `FindFirstOne`, `FindFirstOneFromMsb`.
    fn bit_call(&mut self, f: &str, v: Val<D>) -> Result<Val<D>, EvalError> {
        let Val::Bits(x, ty) = v else {
            return err(format!("{f} needs a bit-vector"));
        };
        Ok(match f {
            "ReverseBits" => {
                let w = self.d.width(&x);
                let mut acc = self.d.extract(&x, 0, 0);
                for i in 1..w {
                    let b = self.d.extract(&x, i, i);
                    acc = self.d.concat(&acc, &b);
                }
                Val::Bits(acc, ty)
            }
            "CountOneBits" => Val::Bits(self.count_ones(&x), Ty::U32),
            "FindFirstOne" => Val::Bits(self.first_one(&x), Ty::Bits(Kind::I, 32)),
            _ => Val::Bits(self.first_one_from_msb(&x), Ty::Bits(Kind::I, 32)),
        })
    }

    /// Setting `gfx6_negative_base=UNDEFINED`: a DS access whose base `base` has the sign bit
    /// set and whose offset `off` is not zero is undefined behaviour (LLVM `isDSOffsetLegal`:
    /// on Southern Islands such an access does not work; see [`Gfx6NegativeBase`]).
    fn gfx6_negative_base(&mut self, st: &mut St<D>, base: &D::Bv, off: &D::Bv) {
        if self.frame.settings.gfx6_negative_base != Gfx6NegativeBase::Undefined {
            return;
        }
        let w = self.d.width(base);
        let sign = self.d.extract(base, w - 1, w - 1);
        let one = self.d.bv(1, 1);
        let negative = self.d.cmp(CmpOp::Eq, &sign, &one);
        let ow = self.d.width(off);
        let zero = self.d.bv(0, ow);
        let is_zero = self.d.cmp(CmpOp::Eq, off, &zero);
        let nonzero = self.d.lnot(&is_zero);
        let bad = self.d.and(&negative, &nonzero);
        st.mem.ub = self.d.or(&st.mem.ub, &bad);
    }

    /// `CalcDsAddr(ADDR, OFFSET)` = ADDR + OFFSET mod 2^32 (AMD CDNA4 guide 11.1 "DS address");
    /// the three-argument form takes OFFSET0 and OFFSET1 and forms OFFSET1:OFFSET0. Under
    /// `gfx6_negative_base=UNDEFINED` a negative ADDR with a non-zero offset is undefined.
    fn calc_ds_addr(&mut self, vals: Vec<Val<D>>, st: &mut St<D>) -> Result<Val<D>, EvalError> {
        let n = vals.len();
        let mut it = vals.into_iter();
        let (a, off) = match n {
            2 => {
                let a = it.next().unwrap();
                let o = it.next().unwrap();
                (a, self.address(o)?)
            }
            3 => {
                let a = it.next().unwrap();
                let o0 = self.convert(it.next().unwrap(), Ty::Bits(Kind::B, 8))?;
                let o1 = self.convert(it.next().unwrap(), Ty::Bits(Kind::B, 8))?;
                let (Val::Bits(o0, _), Val::Bits(o1, _)) = (o0, o1) else {
                    unreachable!()
                };
                let o = self.d.concat(&o1, &o0);
                (a, self.d.zext(&o, 16))
            }
            n => return err(format!("CalcDsAddr takes 2 or 3 arguments, got {n}")),
        };
        let a = self.address(a)?;
        self.gfx6_negative_base(st, &a, &off);
        Ok(Val::Bits(self.d.op(BvOp::Add, &a, &off), Ty::U32))
    }

    /// `isNAN`, `isSignalNAN`, `isQuietNAN`, `cvtToQuietNAN` and `signbit` of the float `v`.
    fn float_class(&mut self, f: &str, v: Val<D>) -> Result<Val<D>, EvalError> {
        let ty = v.ty();
        let Some(fmt) = ty.fp() else {
            return err(format!("{f} needs a float, got .{ty}"));
        };
        let Val::Bits(x, _) = v else { unreachable!() };
        let w = fmt.width();
        let qbit = fmt.sbits() - 2;
        match f {
            "isNAN" => Ok(Val::Bool(self.f_is_nan(fmt, &x))),
            "signbit" => {
                let s = self.d.extract(&x, w - 1, w - 1);
                let one = self.d.bv(1, 1);
                Ok(Val::Bool(self.d.cmp(CmpOp::Eq, &s, &one)))
            }
            "cvtToQuietNAN" => {
                let nan = self.f_is_nan(fmt, &x);
                let q = self.d.bv(1u128 << qbit, w);
                let quiet = self.d.op(BvOp::Or, &x, &q);
                Ok(Val::Bits(self.d.ite(&nan, &quiet, &x), ty))
            }
            _ => {
                let nan = self.f_is_nan(fmt, &x);
                let q = self.d.extract(&x, qbit, qbit);
                let one = self.d.bv(1, 1);
                let quiet = self.d.cmp(CmpOp::Eq, &q, &one);
                let want = if f == "isQuietNAN" {
                    quiet
                } else {
                    self.d.lnot(&quiet)
                };
                Ok(Val::Bool(self.d.and(&nan, &want)))
            }
        }
    }

    /// AMD's `f16_to_f32`: the f32 of the same value (exact: every f16 value is an f32 value).
    /// A normal f16 rebiases its exponent (15 -> 127) and widens its fraction; infinities and
    /// NaNs keep their fraction bits (NaN stays NaN); a denormal m * 2^-24 is computed as
    /// 2^-14 * (1 + m/1024) - 2^-14, an exact f32 subtraction (Sterbenz: the operands are
    /// within a factor of 2) whose result is an f32 normal, then the sign is put back.
    fn f16_to_f32(&mut self, v: Val<D>) -> Result<Val<D>, EvalError> {
        let Val::Bits(x, Ty::Bits(_, 16)) = v else {
            return err("f16_to_f32 needs a 16-bit value");
        };
        let d = &mut *self.d;
        let sign = d.extract(&x, 15, 15);
        let e = d.extract(&x, 14, 10);
        let m = d.extract(&x, 9, 0);
        let pad = d.bv(0, 13);
        let frac = d.concat(&m, &pad);
        let wide_e = d.zext(&e, 3);
        let bias = d.bv(112, 8);
        let exp = d.op(BvOp::Add, &wide_e, &bias);
        let top = d.concat(&sign, &exp);
        let normal = d.concat(&top, &frac);
        let all_ones = d.bv(255, 8);
        let top = d.concat(&sign, &all_ones);
        let inf_nan = d.concat(&top, &frac);
        let e113 = d.bv(113, 9);
        let a = d.concat(&e113, &frac);
        let b = d.bv(113 << 23, 32);
        let mag = d.fp(FpOp::Sub, FpFmt::F32, &a, &b);
        let zeros = d.bv(0, 31);
        let sbit = d.concat(&sign, &zeros);
        let small = d.op(BvOp::Or, &mag, &sbit);
        let z5 = d.bv(0, 5);
        let o5 = d.bv(31, 5);
        let is_small = d.cmp(CmpOp::Eq, &e, &z5);
        let is_top = d.cmp(CmpOp::Eq, &e, &o5);
        let big = d.ite(&is_top, &inf_nan, &normal);
        let out = d.ite(&is_small, &small, &big);
        Ok(Val::Bits(out, Ty::Bits(Kind::F, 32)))
    }

    /// The VALU's f32 denormal mode (settings `fp32_denorm`): identity when denormals are
    /// preserved, else a denormal becomes zero of its sign.
    fn flush_denorm_f32(&mut self, v: Val<D>) -> Result<Val<D>, EvalError> {
        let flush = self.frame.settings.fp32_denorm == Fp32Denorm::Flush;
        self.flush_f32(v, flush)
    }

    /// `v` (an .f32) with a denormal made zero of its sign when `flush`, else `v`.
    pub(super) fn flush_f32(&mut self, v: Val<D>, flush: bool) -> Result<Val<D>, EvalError> {
        let Val::Bits(x, ty @ Ty::Bits(Kind::F, 32)) = v else {
            return err("the f32 denormal flush needs an .f32 value");
        };
        if !flush {
            return Ok(Val::Bits(x, ty));
        }
        let exp = self.d.extract(&x, 30, 23);
        let zero8 = self.d.bv(0, 8);
        let denorm_or_zero = self.d.cmp(CmpOp::Eq, &exp, &zero8);
        let sign = self.d.bv(0x8000_0000, 32);
        let signed_zero = self.d.op(BvOp::And, &x, &sign);
        Ok(Val::Bits(self.d.ite(&denorm_or_zero, &signed_zero, &x), ty))
    }
}
