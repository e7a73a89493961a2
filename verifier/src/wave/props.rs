//! Properties of the values a wave's lanes get back from one atomic on one address, proved for
//! a symbolic lane index (not by unrolling): a closed form of lane i's return is checked
//! against one step of the instruction's own semantics (induction on i), then distinctness is
//! decided on the closed form.

use super::lanes::{LaneData, LaneFn};
use super::Verdict;
use crate::smt::{build, Answer, Query, Smt, Term};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use std::time::{Duration, Instant};

/// One decided property.
#[derive(Clone, Debug)]
pub struct PropReport {
    pub name: String,
    pub verdict: Verdict,
    pub time: Duration,
}

fn lane(entry: &'static str) -> LaneFn<'static> {
    LaneFn {
        entry,
        def: Library::builtin().get(entry).expect("builtin entry"),
        width: 32,
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
/// (2^27 on wave64, 2^28 on wave32): lane i gets m + i*d, and i*d = j*d (mod 2^32) for some
/// 0 <= i < j < lanes exactly when (j - i) * d = 0, the largest power of two below `lanes`
/// being lanes/2.
pub fn add_distinct(lanes: u32, timeout: Duration) -> PropReport {
    let t0 = Instant::now();
    let k = 32 - lanes.trailing_zeros() + 1;
    let name =
        format!("ds_add_rtn_u32, uniform d, full wave{lanes}: distinct returns <=> d % 2^{k} != 0");
    let mut s = Smt;
    let f = lane("DS_ADD_RTN_U32");
    let (m, d, i, j) = (
        s.var("m", 32),
        s.var("d", 32),
        s.var("i", 32),
        s.var("j", 32),
    );
    let r = |s: &mut Smt, i: &Term| {
        let p = s.op(BvOp::Mul, i, &d);
        s.op(BvOp::Add, &m, &p)
    };
    // Induction: the lane after lane i returns f_d's new memory value.
    let ri = r(&mut s, &i);
    let (next, ret) = step(&mut s, &f, &ri, &d);
    let one = s.bv(1, 32);
    let i1 = s.op(BvOp::Add, &i, &one);
    let ri1 = r(&mut s, &i1);
    let ok_step = build::and(&[build::eq(&next, &ri1), build::eq(&ret, &ri)]);
    let small_i = build::ule_const(&i, lanes as u128 - 1);
    let ind = build::and(&[small_i, build::not(&ok_step)]);
    // Collision implies the multiple.
    let rj = r(&mut s, &j);
    let mask = s.bv((1u128 << k) - 1, 32);
    let low = s.op(BvOp::And, &d, &mask);
    let zero = s.bv(0, 32);
    let multiple = build::eq(&low, &zero);
    let ij = s.cmp(CmpOp::Ult, &i, &j);
    let coll = build::and(&[
        ij,
        build::ule_const(&j, lanes as u128 - 1),
        build::eq(&ri, &rj),
        build::not(&multiple),
    ]);
    // The multiple implies a collision of lanes 0 and lanes/2.
    let half = s.bv(lanes as u128 / 2, 32);
    let rh = r(&mut s, &half);
    let r0 = r(&mut s, &zero);
    let back = build::and(&[multiple, build::ne(&rh, &r0)]);
    let verdict = match all_unsat(
        &[
            ("induction step", ind),
            ("collision => multiple", coll),
            ("multiple => collision", back),
        ],
        timeout,
    ) {
        Ok(()) => Verdict::Proved(format!(
            "lane i returns m + i*d (induction on i < {lanes}), collisions decided on i, j symbolic"
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
/// memory value the lanes get distinct values exactly when n <= L + 1. Closed form: lane i
/// returns (m + i) mod (L + 1) when m <= L; when m > L, lane 0 returns m and lane i >= 1
/// returns (i - 1) mod (L + 1).
pub fn inc_distinct(timeout: Duration) -> PropReport {
    let t0 = Instant::now();
    let name =
        "ds_inc_rtn_u32, limit L, n <= 64 lanes: distinct returns for every m <=> n <= L + 1"
            .to_string();
    let mut s = Smt;
    let f = lane("DS_INC_RTN_U32");
    let (m, l, i, j, n) = (
        s.var("m", 32),
        s.var("L", 32),
        s.var("i", 32),
        s.var("j", 32),
        s.var("n", 32),
    );
    // 64-bit arithmetic so that L + 1 does not wrap.
    let r = |s: &mut Smt, m: &Term, i: &Term| -> Term {
        let m64 = s.zext(m, 32);
        let l64 = s.zext(&l, 32);
        let i64 = s.zext(i, 32);
        let one = s.bv(1, 64);
        let lp1 = s.op(BvOp::Add, &l64, &one);
        let sum = s.op(BvOp::Add, &m64, &i64);
        let low = s.op(BvOp::URem, &sum, &lp1);
        let im1 = s.op(BvOp::Sub, &i64, &one);
        let high = s.op(BvOp::URem, &im1, &lp1);
        let zero = s.bv(0, 64);
        let first = s.cmp(CmpOp::Eq, &i64, &zero);
        let high = s.ite(&first, &m64, &high);
        let above = s.cmp(CmpOp::Ult, &l64, &m64);
        let v = s.ite(&above, &high, &low);
        s.extract(&v, 31, 0)
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
    let ind = build::and(&[build::ule_const(&i, 63), build::not(&ok)]);
    // n <= L + 1 and a collision among the first n lanes: impossible.
    let rj = r(&mut s, &m, &j);
    let ij = s.cmp(CmpOp::Ult, &i, &j);
    let jn = s.cmp(CmpOp::Ult, &j, &n);
    let n64 = s.zext(&n, 32);
    let l64 = s.zext(&l, 32);
    let one64 = s.bv(1, 64);
    let lp1 = s.op(BvOp::Add, &l64, &one64);
    let fits = s.cmp(CmpOp::Ule, &n64, &lp1);
    let coll = build::and(&[
        ij,
        jn,
        build::ule_const(&n, 64),
        fits.clone(),
        build::eq(&ri, &rj),
    ]);
    // n > L + 1: with m = 0, lanes 0 and L + 1 collide.
    let lp1_32 = s.op(BvOp::Add, &l, &one);
    let r_l1 = r(&mut s, &zero, &lp1_32);
    let r_0 = r(&mut s, &zero, &zero);
    let back = build::and(&[
        build::ule_const(&n, 64),
        build::not(&fits),
        build::ne(&r_l1, &r_0),
    ]);
    let verdict = match all_unsat(
        &[
            ("induction step", ind),
            ("n <= L+1 => distinct", coll),
            ("n > L+1 => collision at m = 0", back),
        ],
        timeout,
    ) {
        Ok(()) => Verdict::Proved(
            "closed form by induction on the lane index, collisions decided on symbolic i, j, n, L"
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
