//! Edge predicates of one instruction, derived from its semantics as evaluated: the source
//! program runs symbolically under a [`Recorder`], and each decision point it passed becomes
//! the predicates a test vector should make true, each with a label:
//!
//! - an `if` or `?:` condition: taken and not taken (`branchK:true`, `branchK:false`);
//! - a comparison `a op b`: true and false, `a == b`, and for orderings `a == b + 1` and
//!   `a + 1 == b` (off by one either way);
//! - `a + b`: wraps (`a + b < a`, unsigned); `a - b`: borrows (`a < b`) and is zero;
//! - a float `+ - *` or comparison: the two operands zeros of opposite signs, then each
//!   operand NaN (quiet and signalling), +0 and -0, denormal, infinite;
//! - `a & b`: each of the low three bits (the alignment bits) set in one operand and dropped by
//!   the other.
//!
//! Each predicate is asked for together with the guards of its point (the `if` and `?:` arms,
//! the right side of `&&` and `||` it sits in): the symbolic run evaluates both arms of every
//! undecided branch, and an edge met where its result is thrown away (`tmp > DATA` at equality
//! while `tmp == 0` already chose) tells no mutant of the comparison apart.
//!
//! A point met after memory accesses that may be out of range ([`Domain::accessed`]: the LDS
//! bound, the buffer range check) also gets each predicate with those accesses in range, as a
//! separate edge labelled `... in-range` and asked for first. Out of range, a read gives 0 and
//! a write is dropped, so `tmp >= DATA` at equality decides nothing when its `tmp` was read out
//! of range; where no input has both, the plain edge still gets its own vector.
//!
//! The float edges come first, the rest in evaluation order: a vector set is capped per line
//! (`vectors -n`), and a buffer atomic's range check alone has more comparison edges than the
//! cap, while only a vector with the exact bit pattern (a NaN, a zero of either sign) reaches
//! a float edge, so asked last they went without (gfx1200's `buffer_atomic_min_num_f32`
//! signed-zero mutants survived so).
//!
//! `K` counts decision points of one kind in evaluation order, so a label names the same
//! point from run to run. Predicates that simplify to a constant are left out (no input can
//! change them), as are repeats of one predicate.

use super::record::{Recorder, Tap};
use crate::machine::{exec, Bound, Env, Machine};
use crate::smt::{build, Prop, Smt, Term};
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::eval::MemState;
use gcnsmt_semantics::ty::FpFmt;
use std::collections::HashSet;

/// Run `prog` from the symbolic state (`env`, `m`) and return its edge predicates, labelled.
///
/// Errors: a semantics entry fails to evaluate.
pub fn edges(
    env: &Env<Smt>,
    m: &Machine<Smt>,
    prog: &[Bound],
) -> Result<Vec<(String, Prop)>, String> {
    let mut r = Recorder::new(Smt);
    let renv: Env<Recorder<Smt>> = Env {
        target: env.target,
        settings: env.settings,
        imms: env.imms.clone(),
        lds_size: env.lds_size.clone(),
        lane_id: env.lane_id.clone(),
    };
    let mut rm: Machine<Recorder<Smt>> = Machine {
        regs: m.regs.clone(),
        mem: MemState {
            spaces: m.mem.spaces.clone(),
            ub: m.mem.ub.clone(),
        },
    };
    exec(&mut r, &renv, &mut rm, prog)?;
    let mut d = Smt;
    let mut out = Vec::new();
    let mut floats = Vec::new();
    let mut seen: HashSet<Prop> = HashSet::new();
    // Each new predicate on its path (`guard`), preceded by the same with the accesses before
    // it in range (`acc`), when there were any: asked first, so where it is satisfiable its
    // vector covers both, and where not the plain one still gets its own.
    let mut push = |label: String, p: Prop, path: Path, out: &mut Vec<(String, Prop)>| {
        let (guard, acc) = path;
        let plain = with(guard, &[], &p);
        if Smt.known(&plain).is_some() || !seen.insert(plain.clone()) {
            return;
        }
        if !acc.is_empty() {
            let strong = with(guard, acc, &p);
            if Smt.known(&strong).is_none() && seen.insert(strong.clone()) {
                out.push((format!("{label} in-range"), strong));
            }
        }
        out.push((label, plain));
    };
    let (mut nb, mut nc, mut na, mut nf, mut nm) = (0, 0, 0, 0, 0);
    for (tap, g, n) in &r.taps {
        let g: Path = (g.as_slice(), &r.accesses[..*n]);
        match tap {
            Tap::Branch(c) => {
                if d.known(c).is_some() {
                    continue;
                }
                push(format!("branch{nb}:true"), c.clone(), g, &mut out);
                push(format!("branch{nb}:false"), build::not(c), g, &mut out);
                nb += 1;
            }
            Tap::Cmp(op, a, b) => {
                let before = out.len();
                for (what, p) in compare_edges(&mut d, *op, a, b) {
                    push(
                        format!("cmp{nc} {}/{}:{what}", cmp_name(*op), d.width(a)),
                        p,
                        g,
                        &mut out,
                    );
                }
                nc += usize::from(out.len() > before);
            }
            Tap::Arith(op, a, b) => {
                let before = out.len();
                let w = d.width(a);
                let sum = d.op(*op, a, b);
                let (name, edge) = match op {
                    BvOp::Add => ("add", d.cmp(CmpOp::Ult, &sum, a)),
                    _ => ("sub", d.cmp(CmpOp::Ult, a, b)),
                };
                let what = if *op == BvOp::Add { "wrap" } else { "borrow" };
                push(format!("{name}{na}/{w}:{what}"), edge, g, &mut out);
                if *op == BvOp::Sub {
                    push(format!("{name}{na}/{w}:zero"), build::eq(a, b), g, &mut out);
                }
                na += usize::from(out.len() > before);
            }
            Tap::Fp(_, fmt, a, b) | Tap::FpCmp(fmt, a, b) => {
                let before = floats.len();
                let name = match tap {
                    Tap::Fp(op, ..) => fp_name(*op, *fmt),
                    _ => format!("cmp.{fmt:?}").to_ascii_lowercase(),
                };
                // The pairs first: each vector of one covers an operand's +0 and the other's -0.
                for (what, p) in zero_pairs(&mut d, *fmt, a, b) {
                    push(format!("fp{nf} {name}:{what}"), p, g, &mut floats);
                }
                for (side, x) in [("a", a), ("b", b)] {
                    for (what, p) in fp_edges(&mut d, *fmt, x) {
                        push(format!("fp{nf} {name}:{side}={what}"), p, g, &mut floats);
                    }
                }
                nf += usize::from(floats.len() > before);
            }
            Tap::Mask(a, b) => {
                let before = out.len();
                for (what, p) in mask_edges(&mut d, a, b) {
                    push(format!("and{nm}/{}:{what}", d.width(a)), p, g, &mut out);
                }
                nm += usize::from(out.len() > before);
            }
        }
    }
    floats.extend(out);
    Ok(floats)
}

/// Where a decision point sits: the guards of its path, and the in-range conditions of the
/// memory accesses before it.
type Path<'a> = (&'a [Prop], &'a [Prop]);

/// `guard && acc && p`, or `p` alone.
fn with(guard: &[Prop], acc: &[Prop], p: &Prop) -> Prop {
    if guard.is_empty() && acc.is_empty() {
        return p.clone();
    }
    build::and(&[guard, acc, std::slice::from_ref(p)].concat())
}

/// The low bits a mask can clear: 0..=2, the byte, halfword and dword alignment bits (a
/// changed mask constant, `& 0xfff8` for `& 0xfff9`, shows only when such a bit is set).
const MASK_BITS: u32 = 3;

/// For `a & b`: each low bit set in one operand and clear in the other (the bits the mask
/// drops); those a constant mask cannot drop simplify away.
fn mask_edges(d: &mut Smt, a: &Term, b: &Term) -> Vec<(String, Prop)> {
    let mut out = Vec::new();
    let one = d.bv(1, 1);
    for (side, x, y) in [("a", a, b), ("b", b, a)] {
        let ny = d.not(y);
        let dropped = d.op(BvOp::And, x, &ny);
        for j in 0..MASK_BITS.min(d.width(a)) {
            let bit = d.extract(&dropped, j, j);
            out.push((format!("{side}[{j}]dropped"), build::eq(&bit, &one)));
        }
    }
    out
}

/// Both operands zero with opposite signs, either way round: where `<` and `<=` (or `min`
/// picking either operand) differ in the bits they give, since -0 == +0.
fn zero_pairs(d: &mut Smt, fmt: FpFmt, a: &Term, b: &Term) -> Vec<(&'static str, Prop)> {
    let w = fmt.width();
    let neg = d.bv(1u128 << (w - 1), w);
    let (pa, na) = (build::eq_const(a, 0), build::eq(a, &neg));
    let (pb, nb) = (build::eq_const(b, 0), build::eq(b, &neg));
    vec![
        ("a=+0,b=-0", build::and(&[pa, nb])),
        ("a=-0,b=+0", build::and(&[na, pb])),
    ]
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ult => "ult",
        CmpOp::Ule => "ule",
        CmpOp::Slt => "slt",
        CmpOp::Sle => "sle",
    }
}

fn fp_name(op: FpOp, fmt: FpFmt) -> String {
    let op = match op {
        FpOp::Add => "add",
        FpOp::Sub => "sub",
        FpOp::Mul => "mul",
    };
    format!("{op}.{fmt:?}").to_ascii_lowercase()
}

/// The comparison true and false, its operands equal, and off by one either way.
fn compare_edges(d: &mut Smt, op: CmpOp, a: &Term, b: &Term) -> Vec<(&'static str, Prop)> {
    let r = d.cmp(op, a, b);
    let mut out = vec![
        ("true", r.clone()),
        ("false", build::not(&r)),
        ("equal", build::eq(a, b)),
    ];
    if op != CmpOp::Eq {
        let w = d.width(a);
        let one = d.bv(1, w);
        let b1 = d.op(BvOp::Add, b, &one);
        let a1 = d.op(BvOp::Add, a, &one);
        out.push(("a=b+1", build::eq(a, &b1)));
        out.push(("a+1=b", build::eq(&a1, b)));
    }
    out
}

/// Special values of one float operand `x` of format `fmt`, as predicates on its bits.
fn fp_edges(d: &mut Smt, fmt: FpFmt, x: &Term) -> Vec<(&'static str, Prop)> {
    let w = fmt.width();
    let frac = fmt.sbits() - 1;
    let exp = d.extract(x, w - 2, frac);
    let man = d.extract(x, frac - 1, 0);
    let ones = d.bv((1u128 << fmt.ebits()) - 1, fmt.ebits());
    let ezero = d.bv(0, fmt.ebits());
    let mzero = d.bv(0, frac);
    let quiet = d.extract(x, frac - 1, frac - 1);
    let one = d.bv(1, 1);
    let exp_ones = build::eq(&exp, &ones);
    let exp_zero = build::eq(&exp, &ezero);
    let man_zero = build::eq(&man, &mzero);
    let man_nz = build::not(&man_zero);
    let q = build::eq(&quiet, &one);
    let nq = build::not(&q);
    let sign = d.bv(1u128 << (w - 1), w);
    vec![
        ("qnan", build::and(&[exp_ones.clone(), q])),
        ("snan", build::and(&[exp_ones.clone(), man_nz.clone(), nq])),
        ("+0", build::eq_const(x, 0)),
        ("-0", build::eq(x, &sign)),
        ("denormal", build::and(&[exp_zero, man_nz])),
        ("inf", build::and(&[exp_ones, man_zero])),
    ]
}
