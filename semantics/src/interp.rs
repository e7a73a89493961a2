//! The concrete interpreter: the [`Domain`] of plain bits. Memory is a sparse map over an
//! initial-contents function, so a counterexample's LDS can be supplied lazily.

use crate::domain::{BvOp, CmpOp, Domain, FpOp};
use crate::ty::FpFmt;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A concrete bit-vector: value (always masked to width) and width in bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// The value, zero above `width` (every operation masks its result).
    pub value: u128,
    /// Width in bits, 1..=128.
    pub width: u32,
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The value of the low `w` bits of `v` read as two's complement.
pub fn sign_extend(v: u128, w: u32) -> i128 {
    if w >= 128 {
        v as i128
    } else {
        let s = 128 - w;
        ((v << s) as i128) >> s
    }
}

/// Concrete memory: bytes written so far over an initial-contents function.
#[derive(Clone)]
///
/// Addresses are stored as `u64`: LDS and GDS use 32-bit addresses, global memory (buffer
/// instructions) 64-bit ones.
pub struct CMem {
    /// Bytes stored so far, by address; these shadow [`CMem::initial`].
    pub written: BTreeMap<u64, u8>,
    /// Contents of every byte never written (a counterexample's memory model, or a constant).
    pub initial: Rc<dyn Fn(u64) -> u8>,
}

impl CMem {
    /// A 32-bit-addressed memory (LDS, GDS) whose every byte initially reads `init(addr)`.
    pub fn new(init: impl Fn(u32) -> u8 + 'static) -> CMem {
        CMem {
            written: BTreeMap::new(),
            initial: Rc::new(move |a| init(a as u32)),
        }
    }
    /// A 64-bit-addressed memory (global memory) whose every byte initially reads `init(addr)`.
    pub fn new_wide(init: impl Fn(u64) -> u8 + 'static) -> CMem {
        CMem {
            written: BTreeMap::new(),
            initial: Rc::new(init),
        }
    }
    /// The current byte at a 32-bit address.
    pub fn get(&self, addr: u32) -> u8 {
        self.get64(addr as u64)
    }
    /// The current byte at a 64-bit address.
    pub fn get64(&self, addr: u64) -> u8 {
        self.written
            .get(&addr)
            .copied()
            .unwrap_or_else(|| (self.initial)(addr))
    }
}

/// The concrete domain.
#[derive(Default)]
pub struct Concrete;

impl Domain for Concrete {
    type Bv = Bits;
    type Bool = bool;
    type Mem = CMem;

    fn bv(&mut self, value: u128, width: u32) -> Bits {
        Bits {
            value: value & mask(width),
            width,
        }
    }
    fn boolean(&mut self, b: bool) -> bool {
        b
    }
    fn width(&self, x: &Bits) -> u32 {
        x.width
    }
    fn op(&mut self, op: BvOp, a: &Bits, b: &Bits) -> Bits {
        let w = a.width;
        let (x, y) = (a.value, b.value);
        let m = mask(w);
        let v = match op {
            BvOp::Add => x.wrapping_add(y),
            BvOp::Sub => x.wrapping_sub(y),
            BvOp::Mul => x.wrapping_mul(y),
            BvOp::UDiv => x.checked_div(y).unwrap_or(m),
            BvOp::URem => {
                if y == 0 {
                    x
                } else {
                    x % y
                }
            }
            BvOp::SDiv | BvOp::SRem => {
                // SMT-LIB bvsdiv/bvsrem: truncating division on magnitudes, sign fixed after.
                let (sx, sy) = (sign_extend(x, w), sign_extend(y, w));
                if y == 0 {
                    if op == BvOp::SRem {
                        x
                    } else if sx < 0 {
                        1
                    } else {
                        m
                    }
                } else {
                    let r = if op == BvOp::SDiv {
                        sx.wrapping_div(sy)
                    } else {
                        sx.wrapping_rem(sy)
                    };
                    r as u128
                }
            }
            BvOp::And => x & y,
            BvOp::Or => x | y,
            BvOp::Xor => x ^ y,
            BvOp::Shl => {
                if y >= w as u128 {
                    0
                } else {
                    x << y
                }
            }
            BvOp::LShr => {
                if y >= w as u128 {
                    0
                } else {
                    x >> y
                }
            }
            BvOp::AShr => {
                let s = sign_extend(x, w);
                if y >= w as u128 {
                    if s < 0 {
                        m
                    } else {
                        0
                    }
                } else {
                    (s >> y) as u128
                }
            }
        };
        Bits {
            value: v & m,
            width: w,
        }
    }
    fn not(&mut self, a: &Bits) -> Bits {
        Bits {
            value: !a.value & mask(a.width),
            width: a.width,
        }
    }
    fn cmp(&mut self, op: CmpOp, a: &Bits, b: &Bits) -> bool {
        let w = a.width;
        match op {
            CmpOp::Eq => a.value == b.value,
            CmpOp::Ult => a.value < b.value,
            CmpOp::Ule => a.value <= b.value,
            CmpOp::Slt => sign_extend(a.value, w) < sign_extend(b.value, w),
            CmpOp::Sle => sign_extend(a.value, w) <= sign_extend(b.value, w),
        }
    }
    fn extract(&mut self, a: &Bits, hi: u32, lo: u32) -> Bits {
        let w = hi - lo + 1;
        Bits {
            value: (a.value >> lo) & mask(w),
            width: w,
        }
    }
    fn concat(&mut self, hi: &Bits, lo: &Bits) -> Bits {
        let w = hi.width + lo.width;
        assert!(w <= 128, "concat wider than 128 bits");
        Bits {
            value: (hi.value << lo.width) | lo.value,
            width: w,
        }
    }
    fn zext(&mut self, a: &Bits, by: u32) -> Bits {
        Bits {
            value: a.value,
            width: a.width + by,
        }
    }
    fn sext(&mut self, a: &Bits, by: u32) -> Bits {
        let w = a.width + by;
        Bits {
            value: (sign_extend(a.value, a.width) as u128) & mask(w),
            width: w,
        }
    }
    fn ite(&mut self, c: &bool, a: &Bits, b: &Bits) -> Bits {
        if *c {
            *a
        } else {
            *b
        }
    }
    fn ite_bool(&mut self, c: &bool, a: &bool, b: &bool) -> bool {
        if *c {
            *a
        } else {
            *b
        }
    }
    fn ite_mem(&mut self, c: &bool, a: &CMem, b: &CMem) -> CMem {
        if *c {
            a.clone()
        } else {
            b.clone()
        }
    }
    fn and(&mut self, a: &bool, b: &bool) -> bool {
        *a && *b
    }
    fn or(&mut self, a: &bool, b: &bool) -> bool {
        *a || *b
    }
    fn lnot(&mut self, a: &bool) -> bool {
        !*a
    }
    fn known(&self, b: &bool) -> Option<bool> {
        Some(*b)
    }
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &Bits, b: &Bits) -> Bits {
        Bits {
            value: fp_concrete(op, fmt, a.value, b.value),
            width: fmt.width(),
        }
    }
    fn fma(&mut self, fmt: FpFmt, a: &Bits, b: &Bits, c: &Bits) -> Bits {
        Bits {
            value: fma_concrete(fmt, a.value, b.value, c.value),
            width: fmt.width(),
        }
    }
    fn load(&mut self, m: &CMem, addr: &Bits) -> Bits {
        Bits {
            value: m.get64(addr.value as u64) as u128,
            width: 8,
        }
    }
    fn store(&mut self, m: &CMem, addr: &Bits, byte: &Bits) -> CMem {
        let mut n = m.clone();
        n.written.insert(addr.value as u64, byte.value as u8);
        n
    }
}

/// Fused multiply-add on bit patterns with Rust's `mul_add` (one rounding, as IEEE 754
/// fusedMultiplyAdd); NaN results become the canonical quiet NaN. f32 and f64 only: the 16-bit
/// formats go through f64, which may round twice (the evaluator never asks for them).
pub fn fma_concrete(fmt: FpFmt, a: u128, b: u128, c: u128) -> u128 {
    let r = match fmt {
        FpFmt::F32 => {
            let f = |v: u128| f32::from_bits(v as u32);
            let r = f(a).mul_add(f(b), f(c));
            if r.is_nan() {
                return fmt.canonical_nan();
            }
            return r.to_bits() as u128;
        }
        _ => {
            let f = |v: u128| f64::from_bits(v as u64);
            f(a).mul_add(f(b), f(c))
        }
    };
    if r.is_nan() {
        fmt.canonical_nan()
    } else {
        r.to_bits() as u128
    }
}

/// IEEE arithmetic on bit patterns with Rust's correctly rounded f32/f64. f16 and bf16 go
/// through f64, which is exact-then-rounded-once for +, - and * (53 >= 2*11+2 bits, so the
/// double rounding is innocuous). NaN results become the canonical quiet NaN.
pub fn fp_concrete(op: FpOp, fmt: FpFmt, a: u128, b: u128) -> u128 {
    fn ap(op: FpOp, x: f64, y: f64) -> f64 {
        match op {
            FpOp::Add => x + y,
            FpOp::Sub => x - y,
            FpOp::Mul => x * y,
        }
    }
    // f16 and bf16: `widen` reads a bit pattern as f64, `round` rounds the f64 result back.
    let half = |widen: fn(u16) -> f64, round: fn(f64) -> u16| {
        let r = ap(op, widen(a as u16), widen(b as u16));
        (r.is_nan(), u128::from(round(r)))
    };
    let (nan, bits) = match fmt {
        FpFmt::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            let r = match op {
                FpOp::Add => x + y,
                FpOp::Sub => x - y,
                FpOp::Mul => x * y,
            };
            (r.is_nan(), u128::from(r.to_bits()))
        }
        FpFmt::F64 => {
            let r = ap(op, f64::from_bits(a as u64), f64::from_bits(b as u64));
            (r.is_nan(), u128::from(r.to_bits()))
        }
        FpFmt::F16 => half(
            |h| half::f16::from_bits(h).to_f64(),
            |r| half::f16::from_f64(r).to_bits(),
        ),
        FpFmt::Bf16 => half(
            |h| half::bf16::from_bits(h).to_f64(),
            |r| half::bf16::from_f64(r).to_bits(),
        ),
    };
    if nan {
        fmt.canonical_nan()
    } else {
        bits
    }
}
