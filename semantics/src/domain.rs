//! The value domain an evaluation runs in: concrete bits (the interpreter) or solver terms
//! (the verifier's z3 encoding). The evaluator in [`crate::eval`] is written once over this
//! trait, so the interpreter and the SMT encoding differ only in these primitives, and the
//! agreement test exercises exactly them.

use crate::ty::FpFmt;

/// Bit-vector binary operations. Semantics follow SMT-LIB `QF_BV` for every input, including
/// division by zero (`bvudiv x 0 = all ones`, `bvurem x 0 = x`) and shifts by the width or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    UDiv,
    URem,
    SDiv,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

/// Bit-vector comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

/// Floating-point arithmetic over bit patterns, round to nearest even, IEEE 754 with
/// denormals; a NaN result is the format's canonical quiet NaN ([`FpFmt::canonical_nan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FpOp {
    Add,
    Sub,
    Mul,
}

/// Primitive operations of a value domain. Widths are in bits (1..=128); both operands of a
/// binary operation have the same width (the evaluator guarantees it).
pub trait Domain {
    type Bv: Clone + std::fmt::Debug;
    type Bool: Clone + std::fmt::Debug;
    /// A byte-addressed memory: addresses of one fixed width per memory (32 bits for LDS and
    /// GDS, 64 bits for global memory) to 8-bit values.
    type Mem: Clone;

    fn bv(&mut self, value: u128, width: u32) -> Self::Bv;
    fn boolean(&mut self, b: bool) -> Self::Bool;
    fn width(&self, x: &Self::Bv) -> u32;
    fn op(&mut self, op: BvOp, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn not(&mut self, a: &Self::Bv) -> Self::Bv;
    fn cmp(&mut self, op: CmpOp, a: &Self::Bv, b: &Self::Bv) -> Self::Bool;
    /// Bits `hi..=lo`.
    fn extract(&mut self, a: &Self::Bv, hi: u32, lo: u32) -> Self::Bv;
    /// `hi` above `lo`.
    fn concat(&mut self, hi: &Self::Bv, lo: &Self::Bv) -> Self::Bv;
    fn zext(&mut self, a: &Self::Bv, by: u32) -> Self::Bv;
    fn sext(&mut self, a: &Self::Bv, by: u32) -> Self::Bv;
    fn ite(&mut self, c: &Self::Bool, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    fn ite_bool(&mut self, c: &Self::Bool, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    fn ite_mem(&mut self, c: &Self::Bool, a: &Self::Mem, b: &Self::Mem) -> Self::Mem;
    fn and(&mut self, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    fn or(&mut self, a: &Self::Bool, b: &Self::Bool) -> Self::Bool;
    fn lnot(&mut self, a: &Self::Bool) -> Self::Bool;
    /// The value of a boolean if it is known without search (always, for concrete domains).
    fn known(&self, b: &Self::Bool) -> Option<bool>;
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &Self::Bv, b: &Self::Bv) -> Self::Bv;
    /// One byte of memory at an address of the memory's width.
    fn load(&mut self, m: &Self::Mem, addr: &Self::Bv) -> Self::Bv;
    fn store(&mut self, m: &Self::Mem, addr: &Self::Bv, byte: &Self::Bv) -> Self::Mem;
}
