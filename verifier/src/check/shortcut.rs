//! Proofs without a refinement query: two sides that are the same instructions, or whose
//! outputs the e-graph pass ([`crate::egg_domain`]) puts in one e-class. Both are sound only
//! once the precondition is known satisfiable, which the query establishes first.

use super::assume::fields_ok;
use super::elaborate::Elaborated;
use crate::machine::{Bound, Op, Src};
use crate::normalize::same_imm;
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::target::Target;

/// Whether two programs are the same instructions on the same registers, with immediates equal
/// after egg normalisation. Then the target trivially refines the source.
pub(super) fn identical(src: &[Bound], tgt: &[Bound]) -> bool {
    src.len() == tgt.len() && src.iter().zip(tgt).all(|(x, y)| same_op(&x.op, &y.op))
}

fn same_op(x: &Op, y: &Op) -> bool {
    let same_opt = |a: &Option<Expr>, b: &Option<Expr>| match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => same_imm(x, y),
        _ => false,
    };
    match (x, y) {
        (
            Op::Ds {
                mnemonic: m1,
                vdst: v1,
                addr: a1,
                data0: d1,
                data1: e1,
                offset: o1,
                offset0: p1,
                offset1: q1,
                gds: g1,
                ..
            },
            Op::Ds {
                mnemonic: m2,
                vdst: v2,
                addr: a2,
                data0: d2,
                data1: e2,
                offset: o2,
                offset0: p2,
                offset1: q2,
                gds: g2,
                ..
            },
        ) => {
            m1 == m2
                && v1 == v2
                && a1 == a2
                && d1 == d2
                && e1 == e2
                && g1 == g2
                && same_opt(o1, o2)
                && same_opt(p1, p2)
                && same_opt(q1, q2)
        }
        (
            Op::Alu {
                mnemonic: m1,
                d0: x1,
                sdst: s1,
                srcs: r1,
                mods: o1,
                ..
            },
            Op::Alu {
                mnemonic: m2,
                d0: x2,
                sdst: s2,
                srcs: r2,
                mods: o2,
                ..
            },
        ) => {
            m1 == m2
                && o1 == o2
                && x1 == x2
                && s1 == s2
                && r1.len() == r2.len()
                && r1.iter().zip(r2).all(|(a, b)| match (a, b) {
                    (Src::Reg(p), Src::Reg(q)) => p == q,
                    (Src::Imm(p), Src::Imm(q)) => same_imm(p, q),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// Whether the e-graph pass shows the target equal to the source on every output (one lane).
///
/// Errors: a semantics entry fails to evaluate in the e-graph domain.
pub(super) fn egg_proves(b: &Elaborated, target: Target) -> Result<bool, String> {
    let r = crate::egg_domain::EggRule {
        target,
        settings: b.settings,
        keys: &b.keys,
        dead: &b.dead,
        imms: &b.imms,
        src: &b.src,
        tgt: &b.tgt,
    };
    crate::egg_domain::egg_proves(&r, fields_ok)
}
