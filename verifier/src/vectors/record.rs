//! A semantics [`Domain`] that runs another one and notes every decision point the evaluation
//! passes: comparisons, additions and subtractions (their wrap), masks (`&`), conditions of
//! `if` and `?:` (the arms' merge), and floating-point operations and comparisons. The vector
//! generator turns each into edge predicates ([`super::edges`]); since it sits under the one
//! evaluator, every branch of every semantics entry and of the buffer and LDS address rules in
//! `semantics/src/eval` is seen, with no list of edges to keep by hand. Each point is noted with the guards the evaluator
//! was under ([`Domain::guard_begin`]: the `if` and `?:` arms, the right side of `&&` and
//! `||`), so its edges can be asked for on the path where it decides something, and with the
//! number of memory accesses made before it ([`Domain::accessed`]), so they can also be asked
//! for with those accesses in range (where an out-of-range access would hide the decision).

use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::ty::FpFmt;

/// One decision point, with the operands as the inner domain's values.
#[derive(Clone, Debug)]
pub enum Tap<D: Domain> {
    /// `a op b` compared.
    Cmp(CmpOp, D::Bv, D::Bv),
    /// `a + b` or `a - b` (bit-vector, modulo 2^width).
    Arith(BvOp, D::Bv, D::Bv),
    /// The condition of an `if` or `?:` whose arms were merged.
    Branch(D::Bool),
    /// A floating-point `+ - *` on `fmt`'s bit patterns.
    Fp(FpOp, FpFmt, D::Bv, D::Bv),
    /// A floating-point comparison of `fmt`'s bit patterns.
    FpCmp(FpFmt, D::Bv, D::Bv),
    /// `a & b` (bit-vector).
    Mask(D::Bv, D::Bv),
}

/// One noted decision point: the [`Tap`], the guards open at that point (outermost first),
/// and how many of [`Recorder::accesses`] came before it.
pub type Noted<D> = (Tap<D>, Vec<<D as Domain>::Bool>, usize);

/// `inner` with every [`Tap`] noted, in evaluation order, with the guards open at that point
/// and the memory accesses made before it.
pub struct Recorder<D: Domain> {
    /// The domain that computes.
    pub inner: D,
    /// What was noted so far.
    pub taps: Vec<Noted<D>>,
    /// For each memory access made so far that could be out of range, in evaluation order: the
    /// condition that it is in range or not made (its guards false).
    pub accesses: Vec<D::Bool>,
    guards: Vec<D::Bool>,
}

impl<D: Domain> Recorder<D> {
    /// A recorder over `inner`, with nothing noted.
    pub fn new(inner: D) -> Self {
        Recorder {
            inner,
            taps: Vec::new(),
            accesses: Vec::new(),
            guards: Vec::new(),
        }
    }

    fn note(&mut self, t: Tap<D>) {
        self.taps
            .push((t, self.guards.clone(), self.accesses.len()));
    }
}

impl<D: Domain> Domain for Recorder<D> {
    type Bv = D::Bv;
    type Bool = D::Bool;
    type Mem = D::Mem;

    fn bv(&mut self, value: u128, width: u32) -> D::Bv {
        self.inner.bv(value, width)
    }
    fn boolean(&mut self, b: bool) -> D::Bool {
        self.inner.boolean(b)
    }
    fn width(&self, x: &D::Bv) -> u32 {
        self.inner.width(x)
    }
    fn op(&mut self, op: BvOp, a: &D::Bv, b: &D::Bv) -> D::Bv {
        match op {
            BvOp::Add | BvOp::Sub => self.note(Tap::Arith(op, a.clone(), b.clone())),
            BvOp::And => self.note(Tap::Mask(a.clone(), b.clone())),
            _ => {}
        }
        self.inner.op(op, a, b)
    }
    fn not(&mut self, a: &D::Bv) -> D::Bv {
        self.inner.not(a)
    }
    fn cmp(&mut self, op: CmpOp, a: &D::Bv, b: &D::Bv) -> D::Bool {
        self.note(Tap::Cmp(op, a.clone(), b.clone()));
        self.inner.cmp(op, a, b)
    }
    fn extract(&mut self, a: &D::Bv, hi: u32, lo: u32) -> D::Bv {
        self.inner.extract(a, hi, lo)
    }
    fn concat(&mut self, hi: &D::Bv, lo: &D::Bv) -> D::Bv {
        self.inner.concat(hi, lo)
    }
    fn zext(&mut self, a: &D::Bv, by: u32) -> D::Bv {
        self.inner.zext(a, by)
    }
    fn sext(&mut self, a: &D::Bv, by: u32) -> D::Bv {
        self.inner.sext(a, by)
    }
    fn ite(&mut self, c: &D::Bool, a: &D::Bv, b: &D::Bv) -> D::Bv {
        self.note(Tap::Branch(c.clone()));
        self.inner.ite(c, a, b)
    }
    fn ite_bool(&mut self, c: &D::Bool, a: &D::Bool, b: &D::Bool) -> D::Bool {
        self.note(Tap::Branch(c.clone()));
        self.inner.ite_bool(c, a, b)
    }
    fn ite_mem(&mut self, c: &D::Bool, a: &D::Mem, b: &D::Mem) -> D::Mem {
        self.note(Tap::Branch(c.clone()));
        self.inner.ite_mem(c, a, b)
    }
    fn and(&mut self, a: &D::Bool, b: &D::Bool) -> D::Bool {
        self.inner.and(a, b)
    }
    fn or(&mut self, a: &D::Bool, b: &D::Bool) -> D::Bool {
        self.inner.or(a, b)
    }
    fn lnot(&mut self, a: &D::Bool) -> D::Bool {
        self.inner.lnot(a)
    }
    fn known(&self, b: &D::Bool) -> Option<bool> {
        self.inner.known(b)
    }
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &D::Bv, b: &D::Bv) -> D::Bv {
        self.note(Tap::Fp(op, fmt, a.clone(), b.clone()));
        self.inner.fp(op, fmt, a, b)
    }
    fn fma(&mut self, fmt: FpFmt, a: &D::Bv, b: &D::Bv, c: &D::Bv) -> D::Bv {
        self.inner.fma(fmt, a, b, c)
    }
    fn load(&mut self, m: &D::Mem, addr: &D::Bv) -> D::Bv {
        self.inner.load(m, addr)
    }
    fn store(&mut self, m: &D::Mem, addr: &D::Bv, byte: &D::Bv) -> D::Mem {
        self.inner.store(m, addr, byte)
    }
    fn fp_compared(&mut self, fmt: FpFmt, a: &D::Bv, b: &D::Bv) {
        self.note(Tap::FpCmp(fmt, a.clone(), b.clone()));
        self.inner.fp_compared(fmt, a, b)
    }
    fn guard_begin(&mut self, c: &D::Bool) {
        self.guards.push(c.clone());
        self.inner.guard_begin(c)
    }
    fn guard_end(&mut self) {
        self.guards.pop();
        self.inner.guard_end()
    }
    fn accessed(&mut self, in_range: &D::Bool) {
        self.inner.accessed(in_range);
        if self.inner.known(in_range) == Some(true) {
            return;
        }
        // Under guards `g`, the access is made only when they hold: `!(g1 && ...) || in_range`.
        let mut c = in_range.clone();
        if !self.guards.is_empty() {
            let mut all = self.guards[0].clone();
            for g in &self.guards[1..] {
                all = self.inner.and(&all, g);
            }
            let off = self.inner.lnot(&all);
            c = self.inner.or(&off, &c);
        }
        self.accesses.push(c);
    }
}
