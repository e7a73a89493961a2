//! The value domain an evaluation runs in: concrete bits (the interpreter) or solver terms
//! (the verifier's z3 encoding). The evaluator in [`crate::eval`] is written once over this
//! trait, so the interpreter and the SMT encoding differ only in these primitives, and the
//! agreement test exercises exactly them.

use crate::ty::FpFmt;

/// Bit-vector binary operations. Semantics follow SMT-LIB `QF_BV` for every input, including
/// division by zero (`bvudiv x 0 = all ones`, `bvurem x 0 = x`) and shifts by the width or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvOp {
    /// `bvadd`: addition modulo 2^width.
    Add,
    /// `bvsub`: subtraction modulo 2^width.
    Sub,
    /// `bvmul`: multiplication, low `width` bits kept.
    Mul,
    /// `bvudiv`: unsigned division; `x / 0` is all ones.
    UDiv,
    /// `bvurem`: unsigned remainder; `x % 0` is `x`.
    URem,
    /// `bvsdiv`: signed division rounding toward zero; `x / 0` is -1 for `x >= 0`, 1 for `x < 0`.
    SDiv,
    /// `bvsrem`: signed remainder with the dividend's sign; `x % 0` is `x`.
    SRem,
    /// `bvand`: bitwise and.
    And,
    /// `bvor`: bitwise or.
    Or,
    /// `bvxor`: bitwise exclusive or.
    Xor,
    /// `bvshl`: shift left by the (unsigned) second operand; 0 when it is the width or more.
    Shl,
    /// `bvlshr`: logical shift right, zeros in; 0 when the amount is the width or more.
    LShr,
    /// `bvashr`: arithmetic shift right, sign bit in; all sign bits when the amount is the width
    /// or more.
    AShr,
}

/// Bit-vector comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// Equal bits.
    Eq,
    /// Unsigned less than (`bvult`).
    Ult,
    /// Unsigned less than or equal (`bvule`).
    Ule,
    /// Signed (two's-complement) less than (`bvslt`).
    Slt,
    /// Signed (two's-complement) less than or equal (`bvsle`).
    Sle,
}

/// Floating-point arithmetic over bit patterns, round to nearest even, IEEE 754 with
/// denormals; a NaN result is the format's canonical quiet NaN ([`FpFmt::canonical_nan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
}

/// Primitive operations of a value domain. Widths are in bits (1..=128); both operands of a
/// binary operation have the same width (the evaluator guarantees it).
pub trait Domain {
    /// A bit-vector value of 1..=128 bits (the interpreter: [`crate::interp::Bits`]).
    type Bv: Clone + std::fmt::Debug;
    /// A boolean value (the interpreter: `bool`).
    type Bool: Clone + std::fmt::Debug;
    /// A byte-addressed memory: addresses of one fixed width per memory (32 bits for LDS and
    /// GDS, 64 bits for global memory) to 8-bit values.
    type Mem: Clone;

    /// The constant `value` as a bit-vector of `width` bits (only the low `width` bits count).
    fn bv(&mut self, value: u128, width: u32) -> Self::Bv;
    /// The boolean constant `b`.
    fn boolean(&mut self, b: bool) -> Self::Bool;
    /// Width of `x` in bits.
    fn width(&self, x: &Self::Bv) -> u32;
    /// `a op b` (see [`BvOp`] for edge cases); the result has the operands' width.
    fn op(&mut self, op: BvOp, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    /// Bitwise complement, same width.
    fn not(&mut self, a: &Self::Bv) -> Self::Bv;
    /// `a op b` as a boolean (see [`CmpOp`]).
    fn cmp(&mut self, op: CmpOp, a: &Self::Bv, b: &Self::Bv) -> Self::Bool;
    /// Bits `hi..=lo`.
    fn extract(&mut self, a: &Self::Bv, hi: u32, lo: u32) -> Self::Bv;
    /// `hi` above `lo`.
    fn concat(&mut self, hi: &Self::Bv, lo: &Self::Bv) -> Self::Bv;
    /// `a` widened by `by` zero bits on top (result width `width(a) + by`).
    fn zext(&mut self, a: &Self::Bv, by: u32) -> Self::Bv;
    /// `a` widened by `by` copies of its sign bit on top (result width `width(a) + by`).
    fn sext(&mut self, a: &Self::Bv, by: u32) -> Self::Bv;
    /// `c ? a : b` over bit-vectors of one width.
    fn ite(&mut self, c: &Self::Bool, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    /// `c ? a : b` over booleans.
    fn ite_bool(&mut self, c: &Self::Bool, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    /// `c ? a : b` over whole memories (used to merge the two arms of an `if`).
    fn ite_mem(&mut self, c: &Self::Bool, a: &Self::Mem, b: &Self::Mem) -> Self::Mem;
    /// Boolean and.
    fn and(&mut self, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    /// Boolean or.
    fn or(&mut self, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    /// Boolean not.
    fn lnot(&mut self, a: &Self::Bool) -> Self::Bool;
    /// The value of a boolean if it is known without search (always, for concrete domains).
    fn known(&self, b: &Self::Bool) -> Option<bool>;
    /// `a op b` on `fmt`'s bit patterns (see [`FpOp`]); operands and result are `fmt.width()`
    /// bits.
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    /// `a * b + c` rounded once (IEEE 754 fusedMultiplyAdd, round to nearest even) on `fmt`'s
    /// bit patterns; a NaN result is the canonical quiet NaN. Only [`FpFmt::F32`] and
    /// [`FpFmt::F64`] (the evaluator rejects the 16-bit formats).
    fn fma(&mut self, fmt: FpFmt, a: &Self::Bv, b: &Self::Bv, c: &Self::Bv) -> Self::Bv;
    /// One byte of memory at an address of the memory's width.
    fn load(&mut self, m: &Self::Mem, addr: &Self::Bv) -> Self::Bv;
    /// `m` with the 8-bit `byte` written at `addr` (an address of the memory's width); `m` itself
    /// is unchanged.
    fn store(&mut self, m: &Self::Mem, addr: &Self::Bv, byte: &Self::Bv) -> Self::Mem;
    /// The evaluator is about to evaluate a part whose result only counts when `c` holds: an
    /// `if` arm (the condition, or its negation for the rest of the chain), a `?:` arm, the
    /// right operand of `&&` (`c` the left) or `||` (`c` its negation). Paired with
    /// [`Domain::guard_end`]; nested guards stack. Only with an undecided `c` (a symbolic
    /// domain): the vector generator's recorder conditions the decision points it notes on them,
    /// so a vector asked for a comparison's edge also reaches the code the comparison decides.
    /// The default does nothing.
    fn guard_begin(&mut self, c: &Self::Bool) {
        let _ = c;
    }
    /// The evaluator compares the floats `a` and `b` of format `fmt` (`<`, `<=`, `==`, ...,
    /// which it builds from bit-vector operations): a hook for the vector generator's recorder,
    /// which asks for NaNs and signed zeros on both sides. The default does nothing.
    fn fp_compared(&mut self, fmt: FpFmt, a: &Self::Bv, b: &Self::Bv) {
        let _ = (fmt, a, b);
    }
    /// The end of the part begun by the last [`Domain::guard_begin`]. (An evaluation error may
    /// leave guards open; the evaluation is then abandoned.)
    fn guard_end(&mut self) {}
    /// The evaluator made a memory access that takes effect only when `in_range` holds (the
    /// LDS/GDS bound or the buffer range check, per the settings: out of range, a read gives
    /// 0 and a write is dropped). A hook for the vector generator's recorder, which asks the
    /// decision points met after it together with `in_range` where it can, so a comparison's
    /// edge is met where the access it decides lands. The default does nothing.
    fn accessed(&mut self, in_range: &Self::Bool) {
        let _ = in_range;
    }
}
