//! Per-op lemmas about one lane's memory function `f_d(m)` and the optimizer's operator
//! `x (+) d` (the combine entry's memory update), each decided by z3 for all values:
//!
//! - `commute`: `f_a(f_b(m)) = f_b(f_a(m))`. Adjacent transpositions generate every order, so
//!   this makes the final memory value independent of the serialization for any lane count.
//! - `compose`: `f_b(f_a(m)) = f_{a (+) b}(m)`: by induction the k-th lane of an order returns
//!   `f_{d_1 (+) ... (+) d_{k-1}}(m)`, the exclusive scan.
//! - `identity`: `f_e(m) = m`, `e (+) a = a`, `a (+) e = a`.
//! - `assoc`, `comm` of `(+)`.
//! - `power`: `P(d,0) = e` and `P(d,k) (+) d = P(d,k+1)` for each k < 64 and every d: the
//!   uniform-data closed form (`d * popcount`) for every lane count of a wave.
//!
//! Values of floating-point ops are compared as IEEE data: equal bits, or both NaN (IEEE 754
//! does not fix which NaN an operation returns).

use super::lanes::{LaneData, Space};
use super::ops::{AtomicOp, Power};
use crate::smt::{build, Answer, Mem, Query, Smt, Term};
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use gcnsmt_semantics::ty::FpFmt;
use std::time::{Duration, Instant};

/// The outcome of one lemma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Holds for all values.
    Holds,
    /// A model: input names and values.
    Fails(Vec<(String, u128)>),
    /// z3 gave up or hit the time limit, with the reason.
    Unknown(String),
}

/// One decided lemma.
#[derive(Clone, Debug)]
pub struct Lemma {
    /// The lemma's name: `commute`, `compose`, `identity`, `assoc`, `comm` or `power`.
    pub name: &'static str,
    /// Whether it holds.
    pub outcome: Outcome,
    /// Solver wall time.
    pub time: Duration,
}

/// The z3 context of one op's lemmas: the lane function, the combine function, the memory base.
pub struct Lemmas<'a> {
    /// The op the lemmas are about.
    pub op: &'a AtomicOp,
    smt: Smt,
    base: Mem,
    timeout: Duration,
}

fn fp_eq(d: &mut Smt, fmt: Option<FpFmt>, x: &Term, y: &Term) -> crate::smt::Prop {
    let same = d.cmp(CmpOp::Eq, x, y);
    let Some(fmt) = fmt else {
        return same;
    };
    let nx = is_nan(d, fmt, x);
    let ny = is_nan(d, fmt, y);
    let both = d.and(&nx, &ny);
    d.or(&same, &both)
}

/// NaN test on a bit pattern: exponent all ones, fraction non-zero.
pub fn is_nan<D: Domain>(d: &mut D, fmt: FpFmt, x: &D::Bv) -> D::Bool {
    let w = fmt.width();
    let e = fmt.ebits();
    let exp = d.extract(x, w - 2, w - 1 - e);
    let ones = d.bv((1u128 << e) - 1, e);
    let frac = d.extract(x, w - 2 - e, 0);
    let zero = d.bv(0, w - 1 - e);
    let full = d.cmp(CmpOp::Eq, &exp, &ones);
    let fz = d.cmp(CmpOp::Eq, &frac, &zero);
    let nz = d.lnot(&fz);
    d.and(&full, &nz)
}

impl<'a> Lemmas<'a> {
    /// The context for `op`, with `timeout` bounding each z3 query.
    pub fn new(op: &'a AtomicOp, timeout: Duration) -> Lemmas<'a> {
        let mut smt = Smt;
        // The bytes around the shared value: LDS (32-bit addresses) or global memory (64-bit).
        let base = match op.space {
            Space::Lds => smt.mem("lds"),
            Space::Buffer { .. } => smt.mem_wide("global", 64),
        };
        Lemmas {
            op,
            smt,
            base,
            timeout,
        }
    }

    fn data(&mut self, name: &str) -> (LaneData<Term>, Vec<(String, Term)>) {
        let w0 = self.op.data0.max(32);
        let d0 = self.smt.var(&format!("{name}.data0"), w0);
        let mut named = vec![(format!("{name}.data0"), d0.clone())];
        let d1 = if self.op.data1 > 0 {
            let v = self.smt.var(&format!("{name}.data1"), self.op.data1);
            named.push((format!("{name}.data1"), v.clone()));
            v
        } else {
            self.smt.bv(0, 32)
        };
        (
            LaneData {
                data0: d0,
                data1: d1,
            },
            named,
        )
    }

    fn f(&mut self, m: &Term, x: &LaneData<Term>) -> Result<(Term, Term), String> {
        let (n, r) = self.op.lane().apply(&mut self.smt, &self.base, m, x)?;
        Ok((self.fold(n), self.fold(r)))
    }

    /// Buffer steps: fold the ground address arithmetic and range check of the V# (z3's
    /// simplifier), so the terms are as small as the DS ones; DS terms are left as built.
    fn fold(&self, t: Term) -> Term {
        match self.op.space {
            Space::Lds => t,
            Space::Buffer { .. } => Smt::simplify(&t),
        }
    }

    /// `x (+) y` with the optimizer's combine entry.
    fn combine(&mut self, x: &Term, y: &Term) -> Result<Term, String> {
        let lane = self.op.combine_lane()?;
        let zero = self.smt.bv(0, 32);
        let data = LaneData {
            data0: y.clone(),
            data1: zero,
        };
        let n = lane.apply(&mut self.smt, &self.base, x, &data)?.0;
        Ok(self.fold(n))
    }

    fn decide(
        &mut self,
        name: &'static str,
        lhs: &Term,
        rhs: &Term,
        inputs: &[(String, Term)],
    ) -> Lemma {
        let eq = fp_eq(&mut self.smt, self.op.fp, lhs, rhs);
        self.decide_prop(name, &eq, inputs)
    }

    fn decide_prop(
        &mut self,
        name: &'static str,
        holds: &crate::smt::Prop,
        inputs: &[(String, Term)],
    ) -> Lemma {
        let t0 = Instant::now();
        let mut q = Query::new(self.timeout);
        q.assert(&build::not(holds));
        let outcome = match q.check() {
            Answer::Unsat => Outcome::Holds,
            Answer::Sat(model) => Outcome::Fails(
                inputs
                    .iter()
                    .map(|(n, t)| (n.clone(), model.bv(t)))
                    .collect(),
            ),
            Answer::Unknown(r) => Outcome::Unknown(r),
        };
        Lemma {
            name,
            outcome,
            time: t0.elapsed(),
        }
    }

    fn wvar(&mut self, name: &str) -> (Term, (String, Term)) {
        let t = self.smt.var(name, self.op.width);
        (t.clone(), (name.to_string(), t))
    }

    /// `commute`: the pairwise commutation lemma on the memory value (both data operands per
    /// lane are free).
    pub fn commute(&mut self) -> Result<Lemma, String> {
        let (m, mv) = self.wvar("m");
        let (a, an) = self.data("a");
        let (b, bn) = self.data("b");
        let (ab, _) = self.f(&m, &b)?;
        let (ab, _) = self.f(&ab, &a)?;
        let (ba, _) = self.f(&m, &a)?;
        let (ba, _) = self.f(&ba, &b)?;
        let mut inputs = vec![mv];
        inputs.extend(an);
        inputs.extend(bn);
        Ok(self.decide("commute", &ab, &ba, &inputs))
    }

    /// `compose`: `f_b(f_a(m)) = f_{a (+) b}(m)`, and the returned value of the first step is
    /// `m` (so a lane returns the memory value before it).
    pub fn compose(&mut self) -> Result<Lemma, String> {
        let (m, mv) = self.wvar("m");
        let (a, av) = self.wvar("a");
        let (b, bv) = self.wvar("b");
        let da = self.lane_data(&a);
        let db = self.lane_data(&b);
        let (x, r) = self.f(&m, &da)?;
        let (x, _) = self.f(&x, &db)?;
        let ab = self.combine(&a, &b)?;
        let dab = self.lane_data(&ab);
        let (y, _) = self.f(&m, &dab)?;
        let e1 = fp_eq(&mut self.smt, self.op.fp, &x, &y);
        let e2 = self.smt.cmp(CmpOp::Eq, &r, &m);
        let both = self.smt.and(&e1, &e2);
        Ok(self.decide_prop("compose", &both, &[mv, av, bv]))
    }

    fn lane_data(&mut self, x: &Term) -> LaneData<Term> {
        let zero = self.smt.bv(0, 32);
        LaneData {
            data0: x.clone(),
            data1: zero,
        }
    }

    fn identity_term(&mut self) -> Result<Term, String> {
        let spec = self.op.opt.as_ref().ok_or("no optimizer spec")?;
        let id = spec.identity;
        Ok(self.smt.bv(id, self.op.width))
    }

    /// `identity`: `f_e(m) = m`, `e (+) a = a` and `a (+) e = a`.
    pub fn identity(&mut self) -> Result<Lemma, String> {
        let (m, mv) = self.wvar("m");
        let (a, av) = self.wvar("a");
        let e = self.identity_term()?;
        let de = self.lane_data(&e);
        let (fm, _) = self.f(&m, &de)?;
        let ea = self.combine(&e, &a)?;
        let ae = self.combine(&a, &e)?;
        let fp = self.op.fp;
        let c1 = fp_eq(&mut self.smt, fp, &fm, &m);
        let c2 = fp_eq(&mut self.smt, fp, &ea, &a);
        let c3 = fp_eq(&mut self.smt, fp, &ae, &a);
        let all = build::and(&[c1, c2, c3]);
        Ok(self.decide_prop("identity", &all, &[mv, av]))
    }

    /// `assoc`: `(a (+) b) (+) c = a (+) (b (+) c)`.
    pub fn assoc(&mut self) -> Result<Lemma, String> {
        let (a, av) = self.wvar("a");
        let (b, bv) = self.wvar("b");
        let (c, cv) = self.wvar("c");
        let ab = self.combine(&a, &b)?;
        let l = self.combine(&ab, &c)?;
        let bc = self.combine(&b, &c)?;
        let r = self.combine(&a, &bc)?;
        Ok(self.decide("assoc", &l, &r, &[av, bv, cv]))
    }

    /// `comm`: `a (+) b = b (+) a`.
    pub fn comm(&mut self) -> Result<Lemma, String> {
        let (a, av) = self.wvar("a");
        let (b, bv) = self.wvar("b");
        let l = self.combine(&a, &b)?;
        let r = self.combine(&b, &a)?;
        Ok(self.decide("comm", &l, &r, &[av, bv]))
    }

    /// `idem`: `f_d(f_d(m)) = f_d(m)` and `f_e(m) = m`: with the same data in every lane the
    /// first lane returns m and every other lane `f_d(m)`, which is the uniform form of the
    /// idempotent ops (`k == 0 ? e : d`).
    pub fn idem(&mut self) -> Result<Lemma, String> {
        let (m, mv) = self.wvar("m");
        let (d, dv) = self.wvar("d");
        let dd = self.lane_data(&d);
        let (once, _) = self.f(&m, &dd)?;
        let (twice, _) = self.f(&once, &dd)?;
        let e = self.identity_term()?;
        let de = self.lane_data(&e);
        let (fe, _) = self.f(&m, &de)?;
        let fp = self.op.fp;
        let c1 = fp_eq(&mut self.smt, fp, &twice, &once);
        let c2 = fp_eq(&mut self.smt, fp, &fe, &m);
        let all = build::and(&[c1, c2]);
        Ok(self.decide_prop("idem", &all, &[mv, dv]))
    }

    /// The uniform closed form `P(d, k)` for a `width`-bit lane count `k`.
    fn power_term(&mut self, p: Power, d: &Term, k: &Term) -> Result<Term, String> {
        let w = self.op.width;
        let e = self.identity_term()?;
        Ok(match p {
            Power::Mul => self.smt.op(BvOp::Mul, d, k),
            Power::Parity => {
                let one = self.smt.bv(1, w);
                let par = self.smt.op(BvOp::And, k, &one);
                self.smt.op(BvOp::Mul, d, &par)
            }
            Power::Idempotent | Power::FMul => {
                let zero = self.smt.bv(0, w);
                let z = self.smt.cmp(CmpOp::Eq, k, &zero);
                self.smt.ite(&z, &e, d)
            }
        })
    }

    /// `power`: `P(d,0) = e` and `P(d,k) (+) d = P(d,k+1)` for each k below 64, so the
    /// uniform form holds for every lane count by induction. `None` for the floating-point
    /// multiply form, which has no exact bit-vector statement (see the brute-force search).
    pub fn power(&mut self) -> Result<Option<Lemma>, String> {
        let Some(p) = self.op.opt.as_ref().map(|s| s.power) else {
            return Ok(None);
        };
        if p == Power::FMul {
            return Ok(None);
        }
        let w = self.op.width;
        let (d, dv) = self.wvar("d");
        // One instance per lane count k < 64 with k a constant: multiplying by a constant is
        // linear, where a symbolic multiplier defeats the bit-blaster (a 20 s timeout for
        // 32-bit add). Each instance still holds for every d.
        let zero = self.smt.bv(0, w);
        let p0 = self.power_term(p, &d, &zero)?;
        let e = self.identity_term()?;
        let fp = self.op.fp;
        let mut parts = vec![fp_eq(&mut self.smt, fp, &p0, &e)];
        if p == Power::Mul {
            // d*k (+) d = d*(k+1) is the ring identity d*k + d = d*(k+1) of Z/2^w once (+) is
            // shown to be `+`; stated with the multiplications it is an adder-equivalence
            // problem that the bit-blaster does not finish in 20 s.
            let (x, xv) = self.wvar("x");
            let sum = self.smt.op(BvOp::Add, &x, &d);
            let comb = self.combine(&x, &d)?;
            parts.push(fp_eq(&mut self.smt, fp, &comb, &sum));
            let all = build::and(&parts);
            return Ok(Some(self.decide_prop("power", &all, &[dv, xv])));
        }
        for k in 0..64u128 {
            let kt = self.smt.bv(k, w);
            let k1 = self.smt.bv(k + 1, w);
            let pk = self.power_term(p, &d, &kt)?;
            let step = self.combine(&pk, &d)?;
            let pk1 = self.power_term(p, &d, &k1)?;
            parts.push(fp_eq(&mut self.smt, fp, &step, &pk1));
        }
        let all = build::and(&parts);
        Ok(Some(self.decide_prop("power", &all, &[dv])))
    }
}
