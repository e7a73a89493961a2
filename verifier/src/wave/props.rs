//! Properties of the values a wave's lanes get back from one atomic on one address, proved for
//! a symbolic lane index (not by unrolling): a closed form of lane i's return is checked
//! against one step of the instruction's own semantics (induction on i), then distinctness is
//! decided on the closed form.

use super::lanes::{LaneData, LaneFn, Space};
use super::Verdict;
use crate::smt::{build, Answer, Query, Smt, Term};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use std::time::{Duration, Instant};

/// One decided property.
#[derive(Clone, Debug)]
pub struct PropReport {
    /// The property as a sentence (`ds_add_rtn_u32, uniform d, full wave64: distinct returns <=>
    /// ...`).
    pub name: String,
    /// The verdict, with the reason or witness.
    pub verdict: Verdict,
    /// Solver wall time.
    pub time: Duration,
}

fn lane(entry: &'static str) -> LaneFn<'static> {
    LaneFn {
        entry,
        def: Library::builtin().get(entry).expect("builtin entry"),
        width: 32,
        space: Space::Lds,
    }
}

/// `Some(reason)` if the negation of every claim is unsatisfiable, else the first failure.
fn all_unsat(claims: &[(&str, crate::smt::Prop)], timeout: Duration) -> Result<(), String> {
    for (what, negation) in claims {
        let mut q = Query::new(timeout);
        q.assert(negation);
        match q.check() {
            Answer::Unsat => {}
            Answer::Sat(_) => return Err(format!("{what}: fails")),
            Answer::Unknown(r) => return Err(format!("{what}: unknown ({r})")),
        }
    }
    Ok(())
}

fn step(s: &mut Smt, f: &LaneFn, m: &Term, d: &Term) -> (Term, Term) {
    let base = s.mem("lds");
    let z = s.bv(0, 32);
    f.apply(
        s,
        &base,
        m,
        &LaneData {
            data0: d.clone(),
            data1: z,
        },
    )
    .expect("builtin entry evaluates")
}

/// ds_add_rtn_u32 with uniform data d on a full wave of `lanes` lanes (32 or 64) hands every
/// lane a distinct value exactly when d is not a multiple of 2^(32 - log2(lanes) + 1)
/// (2^27 on wave64, 2^28 on wave32). Proof: the lane function is `x -> (x + d, returns x)`
/// (z3, for all x, d), so lane i of any order returns m + i*d (a ring identity of Z/2^32);
/// lanes i < j collide exactly when (j - i) * d = 0, decided for each difference k < lanes
/// (constant multipliers keep it linear); the multiple collides at k = lanes/2.
pub fn add_distinct(lanes: u32, timeout: Duration) -> PropReport {
    let t0 = Instant::now();
    let bits = 32 - lanes.trailing_zeros() + 1;
    let name = format!(
        "ds_add_rtn_u32, uniform d, full wave{lanes}: distinct returns <=> d % 2^{bits} != 0"
    );
    let mut s = Smt;
    let f = lane("DS_ADD_RTN_U32");
    let (x, d) = (s.var("x", 32), s.var("d", 32));
    let (next, ret) = step(&mut s, &f, &x, &d);
    let sum = s.op(BvOp::Add, &x, &d);
    let is_add = build::and(&[build::eq(&next, &sum), build::eq(&ret, &x)]);
    let mask = s.bv((1u128 << bits) - 1, 32);
    let low = s.op(BvOp::And, &d, &mask);
    let zero = s.bv(0, 32);
    let multiple = build::eq(&low, &zero);
    let mut collide = Vec::new();
    for k in 1..lanes as u128 {
        let kt = s.bv(k, 32);
        let p = s.op(BvOp::Mul, &kt, &d);
        collide.push(build::eq(&p, &zero));
    }
    let coll = build::and(&[build::or(&collide), build::not(&multiple)]);
    let half = s.bv(lanes as u128 / 2, 32);
    let ph = s.op(BvOp::Mul, &half, &d);
    let back = build::and(&[multiple, build::ne(&ph, &zero)]);
    let verdict = match all_unsat(
        &[
            ("lane function is addition", build::not(&is_add)),
            ("collision => multiple", coll),
            ("multiple => collision", back),
        ],
        timeout,
    ) {
        Ok(()) => Verdict::Proved(format!(
            "lane i returns m + i*d; (j-i)*d = 0 for some 0 < j-i < {lanes} exactly for the multiples"
        )),
        Err(e) => Verdict::Unknown(e),
    };
    PropReport {
        name,
        verdict,
        time: t0.elapsed(),
    }
}

/// ds_inc_rtn_u32 with limit L in every lane on n active lanes (n <= 64): for every initial
/// memory value the lanes get distinct values exactly when n <= L + 1.
///
/// Closed form of lane i's return, proved by induction on i against the instruction's own
/// step (for all m): when m <= L, (m + i) mod (L + 1); when m > L, m for lane 0 and
/// (i - 1) mod (L + 1) after. For L >= 63 (symbolic) at most one wrap happens below 64 lanes;
/// each L < 63 is its own query with a constant modulus. Distinctness is then decided on the
/// closed form with i, j, n and m symbolic.
pub fn inc_distinct(timeout: Duration) -> PropReport {
    let t0 = Instant::now();
    let name =
        "ds_inc_rtn_u32, limit L, n <= 64 lanes: distinct returns for every m <=> n <= L + 1"
            .to_string();
    let f = lane("DS_INC_RTN_U32");
    let mut claims: Vec<(String, crate::smt::Prop)> = Vec::new();
    for case in 0..=63u32 {
        let mut s = Smt;
        let (m, i, j, n) = (
            s.var("m", 32),
            s.var("i", 32),
            s.var("j", 32),
            s.var("n", 32),
        );
        let l = if case == 63 {
            s.var("L", 32)
        } else {
            s.bv(case as u128, 32)
        };
        let big = case == 63;
        // 33-bit arithmetic so that L + 1 and m + i do not wrap.
        let r = |s: &mut Smt, m: &Term, i: &Term| -> Term {
            let m64 = s.zext(m, 1);
            let l64 = s.zext(&l, 1);
            let i64 = s.zext(i, 1);
            let one = s.bv(1, 33);
            let lp1 = s.op(BvOp::Add, &l64, &one);
            let sum = s.op(BvOp::Add, &m64, &i64);
            let im1 = s.op(BvOp::Sub, &i64, &one);
            let (low, high) = if big {
                let over = s.cmp(CmpOp::Ult, &l64, &sum);
                let wrapped = s.op(BvOp::Sub, &sum, &lp1);
                (s.ite(&over, &wrapped, &sum), im1)
            } else {
                (s.op(BvOp::URem, &sum, &lp1), s.op(BvOp::URem, &im1, &lp1))
            };
            let zero = s.bv(0, 33);
            let first = s.cmp(CmpOp::Eq, &i64, &zero);
            let high = s.ite(&first, &m64, &high);
            let above = s.cmp(CmpOp::Ult, &l64, &m64);
            let v = s.ite(&above, &high, &low);
            s.extract(&v, 31, 0)
        };
        let big_l = if big {
            build::not(&build::ule_const(&l, 62))
        } else {
            s.boolean(true)
        };
        let ri = r(&mut s, &m, &i);
        let (next, ret) = step(&mut s, &f, &ri, &l);
        let one = s.bv(1, 32);
        let i1 = s.op(BvOp::Add, &i, &one);
        let ri1 = r(&mut s, &m, &i1);
        let zero = s.bv(0, 32);
        let r0 = r(&mut s, &m, &zero);
        let ok = build::and(&[
            build::eq(&next, &ri1),
            build::eq(&ret, &ri),
            build::eq(&r0, &m),
        ]);
        claims.push((
            format!("L={case}: induction step"),
            build::and(&[big_l.clone(), build::ule_const(&i, 62), build::not(&ok)]),
        ));
        let rj = r(&mut s, &m, &j);
        let ij = s.cmp(CmpOp::Ult, &i, &j);
        let jn = s.cmp(CmpOp::Ult, &j, &n);
        let n64 = s.zext(&n, 1);
        let l64 = s.zext(&l, 1);
        let one64 = s.bv(1, 33);
        let lp1 = s.op(BvOp::Add, &l64, &one64);
        let fits = s.cmp(CmpOp::Ule, &n64, &lp1);
        claims.push((
            format!("L={case}: n <= L+1 => distinct"),
            build::and(&[
                big_l.clone(),
                ij,
                jn,
                build::ule_const(&n, 64),
                fits.clone(),
                build::eq(&ri, &rj),
            ]),
        ));
        if !big {
            // n > L + 1: from m = 0, lanes 0 and L + 1 collide.
            let lp1_32 = s.bv(case as u128 + 1, 32);
            let a = r(&mut s, &zero, &lp1_32);
            let b = r(&mut s, &zero, &zero);
            claims.push((format!("L={case}: collision at m = 0"), build::ne(&a, &b)));
        }
    }
    let refs: Vec<(&str, crate::smt::Prop)> = claims
        .iter()
        .map(|(a, b)| (a.as_str(), b.clone()))
        .collect();
    let verdict = match all_unsat(&refs, timeout) {
        Ok(()) => Verdict::Proved(
            "closed form by induction on the lane index; collisions decided on symbolic i, j, n, m"
                .into(),
        ),
        Err(e) => Verdict::Unknown(e),
    };
    PropReport {
        name,
        verdict,
        time: t0.elapsed(),
    }
}

/// Every property, in a fixed order.
pub fn all(timeout: Duration) -> Vec<PropReport> {
    vec![
        add_distinct(64, timeout),
        add_distinct(32, timeout),
        inc_distinct(timeout),
    ]
}
