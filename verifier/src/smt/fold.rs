//! Local rewrites of `concat` and `ite` under [`super::mem::Encoding::Forward`]: each returns
//! a term equal to the plain construction for every input (`tests` below proves it with z3).
//! They let the bytes of a loaded word, each `c ? byte_i(v) : old_i` after a conditional
//! store of `v`, become `c ? v : old` again, so a value stored and loaded back is the value.

use z3::ast::{Ast, Bool, BV};
use z3::DeclKind;

/// `(hi, lo, x)` when `t` is `extract hi lo x`.
pub(super) fn as_extract(t: &BV) -> Option<(u32, u32, BV)> {
    if !t.is_app() || t.decl().kind() != DeclKind::Extract {
        return None;
    }
    let x = t.nth_child(0)?.as_bv()?;
    let ctx = z3::Context::thread_local();
    // SAFETY: `t` is a live application of the thread-local context (checked above), so its
    // declaration exists, and an `extract` declaration has the two integer parameters hi, lo.
    let (hi, lo) = unsafe {
        let c = ctx.get_z3_context();
        let app = z3_sys::Z3_to_app(c, t.get_z3_ast())?;
        let d = z3_sys::Z3_get_app_decl(c, app)?;
        (
            z3_sys::Z3_get_decl_int_parameter(c, d, 0),
            z3_sys::Z3_get_decl_int_parameter(c, d, 1),
        )
    };
    Some((u32::try_from(hi).ok()?, u32::try_from(lo).ok()?, x))
}

/// `c` without a conjunct `true` (the memory's store conditions are `guard && true`).
fn core(c: &Bool) -> Bool {
    if c.is_app() && c.decl().kind() == DeclKind::And && c.num_children() == 2 {
        let kids: Vec<Bool> = c.children().iter().filter_map(|k| k.as_bool()).collect();
        match (kids[0].as_bool(), kids[1].as_bool()) {
            (_, Some(true)) => return kids[0].clone(),
            (Some(true), _) => return kids[1].clone(),
            _ => {}
        }
    }
    c.clone()
}

/// `(c, a, b)` when `t` is `ite c a b`, `c` without a conjunct `true`.
fn as_ite(t: &BV) -> Option<(Bool, BV, BV)> {
    if !t.is_app() || t.decl().kind() != DeclKind::Ite {
        return None;
    }
    Some((
        core(&t.nth_child(0)?.as_bool()?),
        t.nth_child(1)?.as_bv()?,
        t.nth_child(2)?.as_bv()?,
    ))
}

/// `concat hi lo`, with two `ite`s on one condition turned into one `ite` of concats, and in
/// their branches adjacent extracts of one computed value joined (the whole value when they
/// cover it): those are the bytes of a stored value read back. Extracts elsewhere are left
/// apart (the immediates' fields: z3 joins those itself, and the queries of rules without
/// stored values stay the same terms, which z3's search time depends on).
pub(super) fn concat(hi: &BV, lo: &BV) -> BV {
    join(hi, lo, false)
}

fn join(hi: &BV, lo: &BV, in_branch: bool) -> BV {
    if in_branch {
        if let (Some((h1, l1, x)), Some((h2, l2, y))) = (as_extract(hi), as_extract(lo)) {
            if x == y && l1 == h2 + 1 && x.num_children() > 0 {
                return if l2 == 0 && h1 + 1 == x.get_size() {
                    x
                } else {
                    x.extract(h1, l2)
                };
            }
        }
    }
    if let (Some((c, a1, b1)), Some((d, a2, b2))) = (as_ite(hi), as_ite(lo)) {
        if c == d {
            return c.ite(&join(&a1, &a2, true), &join(&b1, &b2, true));
        }
    }
    hi.concat(lo)
}

/// `c ? a : b`, taking the matching branch of an `ite` on the same condition in `a` or `b`;
/// `a` itself when both branches are one term (the lanes' merge of registers a lane did not
/// write builds `active ? x : x` for every input, which hides that two addresses are one).
pub(super) fn ite(c: &Bool, a: &BV, b: &BV) -> BV {
    if a == b {
        return a.clone();
    }
    let k = core(c);
    let a = match as_ite(a) {
        Some((d, t, _)) if d == k => t,
        _ => a.clone(),
    };
    let b = match as_ite(b) {
        Some((d, _, e)) if d == k => e,
        _ => b.clone(),
    };
    c.ite(&a, &b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    fn equal_for_all(x: &BV, y: &BV) {
        let s = Solver::new();
        s.assert(x.eq(y).not());
        assert_eq!(s.check(), SatResult::Unsat, "{x} != {y}");
    }

    /// Each rewrite against the plain term, for all values of the variables (z3).
    #[test]
    fn folds_equal_the_plain_terms() {
        let (p, q) = (BV::new_const("p", 32), BV::new_const("q", 32));
        // Computed values (extracts of inputs are not joined).
        let v = p.bvadd(&q);
        let w = p.bvmul(&q);
        let c = Bool::new_const("c");
        // In ite branches adjacent extracts join; the whole value comes back; non-adjacent
        // ones stay.
        let zero = |n: u32| BV::from_u64(0, n);
        for (h1, l1, h2, l2) in [
            (31, 24, 23, 0),
            (15, 8, 7, 0),
            (31, 16, 15, 8),
            (31, 24, 15, 8),
        ] {
            let hi = c.ite(&v.extract(h1, l1), &zero(h1 - l1 + 1));
            let lo = c.ite(&v.extract(h2, l2), &zero(h2 - l2 + 1));
            equal_for_all(&concat(&hi, &lo), &hi.concat(&lo));
        }
        let whole = concat(
            &c.ite(&v.extract(31, 8), &zero(24)),
            &c.ite(&v.extract(7, 0), &zero(8)),
        );
        assert_eq!(whole, c.ite(&v, &zero(24).concat(zero(8))));
        // Outside ite branches, and for different values or an input, extracts stay apart.
        assert!(as_extract(&concat(&v.extract(31, 8), &v.extract(7, 0))).is_none());
        let mixed = join(&v.extract(31, 8), &w.extract(7, 0), true);
        equal_for_all(&mixed, &v.extract(31, 8).concat(w.extract(7, 0)));
        assert!(as_extract(&mixed).is_none());
        let input = join(&p.extract(31, 8), &p.extract(7, 0), true);
        assert!(as_extract(&input).is_none());
        equal_for_all(&input, &p);
        // Two ites on one condition.
        let (hi, lo) = (
            c.ite(&v.extract(31, 8), &w.extract(31, 8)),
            c.ite(&v.extract(7, 0), &w.extract(7, 0)),
        );
        let folded = concat(&hi, &lo);
        equal_for_all(&folded, &hi.concat(&lo));
        assert_eq!(folded, c.ite(&v, &w));
        // A condition `c && true` is `c`.
        let t = Bool::from_bool(true);
        let guarded = Bool::and(&[&c, &t]).ite(&v.extract(7, 0), &w.extract(7, 0));
        let folded = concat(&hi, &guarded);
        equal_for_all(&folded, &hi.concat(&guarded));
        assert_eq!(folded, c.ite(&v, &w));
        // ite of an ite on the same condition, either branch.
        let z = BV::from_u64(0, 32);
        equal_for_all(&ite(&c, &c.ite(&v, &w), &z), &c.ite(&c.ite(&v, &w), &z));
        equal_for_all(&ite(&c, &z, &c.ite(&v, &w)), &c.ite(&z, &c.ite(&v, &w)));
        assert_eq!(ite(&c, &c.ite(&v, &w), &z), c.ite(&v, &z));
        // Equal branches are the branch.
        assert_eq!(ite(&c, &v, &v), v);
        // Another condition is left alone.
        let d = Bool::new_const("d");
        assert_eq!(ite(&c, &d.ite(&v, &w), &z), c.ite(&d.ite(&v, &w), &z));
    }
}
