//! Term rewrites applied while building solver terms: each returns a term equal to the plain
//! construction for every input (the tests below prove it with z3), shaped so that values the
//! two sides of a check compute in different ways become the same term.

use z3::ast::{Ast, BV};

/// `(x >> k) << k` (logical or arithmetic `>>`: both clear the low `k` bits) for a constant
/// `k`, written so that two alignments of one base with constant offsets that differ by a
/// multiple of `2^k` share one term: `((y + c) >> k) << k` becomes `(y & !m) + c` when `c` is a
/// multiple of `2^k` (`m = 2^k - 1`), else `((y + (c & m)) & !m) + (c & !m)`; both are
/// `(y + c) & !m` modulo `2^w`, since adding a multiple of `2^k` does not change the low `k`
/// bits. Merged scalar loads need this: S_LOAD_DWORDX4 at `(s + 36) & !3` reads its third dword
/// at `((s + 36) & !3) + 8`, which the solver otherwise has to prove equal to the unmerged
/// S_LOAD_DWORDX2's `(s + 44) & !3` through every term built on it. `None` when `a`, `b` do not
/// have that shape.
pub(super) fn aligned(a: &BV, b: &BV) -> Option<BV> {
    use z3::DeclKind;
    let k = b.simplify().as_u64()?;
    let w = a.get_size();
    if k == 0 || k >= u64::from(w) || w > 64 || !a.is_app() {
        return None;
    }
    let d = a.decl();
    if !matches!(d.kind(), DeclKind::Blshr | DeclKind::Bashr) || a.num_children() != 2 {
        return None;
    }
    if a.nth_child(1)?.as_bv()?.simplify().as_u64()? != k {
        return None;
    }
    // Simplified, so that a sign-extended immediate offset is a numeral.
    let x = a.nth_child(0)?.as_bv()?.simplify();
    let m = (1u64 << k) - 1;
    let clear = |t: &BV| t.bvand(BV::from_u64(!m, w));
    let sum = x.is_app() && x.decl().kind() == DeclKind::Badd && x.num_children() == 2;
    let split = if sum {
        let (p, q) = (x.nth_child(0)?.as_bv()?, x.nth_child(1)?.as_bv()?);
        match (p.as_u64(), q.as_u64()) {
            (Some(c), None) => Some((q, c)),
            (None, Some(c)) => Some((p, c)),
            _ => None,
        }
    } else {
        None
    };
    let Some((y, c)) = split else {
        return Some(clear(&x));
    };
    let (lo, hi) = (c & m, c & !m);
    let inner = if lo == 0 {
        y
    } else {
        y.bvadd(BV::from_u64(lo, w))
    };
    Some(clear(&inner).bvadd(BV::from_u64(hi, w)))
}

#[cfg(test)]
mod tests {
    use super::aligned;
    use z3::ast::{Ast, BV};
    use z3::{SatResult, Solver};

    /// For every constant offset `c` in 0..12 (and two near the top of the range), every `k`
    /// in 1..=3 and both right shifts, the rewrite equals `((y + c) >> k) << k` for all `y`:
    /// z3 finds no `y` where they differ.
    #[test]
    fn aligned_equals_the_plain_shifts() {
        for w in [32u32, 64] {
            let top = if w == 32 {
                u64::from(u32::MAX)
            } else {
                u64::MAX
            };
            let y = BV::new_const(format!("y{w}"), w);
            for c in (0..12u64).chain([top - 1, top]) {
                for k in 1..=3u64 {
                    let kk = BV::from_u64(k, w);
                    let sum = y.bvadd(BV::from_u64(c, w));
                    for shr in [sum.bvlshr(&kk), sum.bvashr(&kk)] {
                        let plain = shr.bvshl(&kk);
                        let fast = aligned(&shr, &kk).expect("the shape is recognised");
                        let s = Solver::new();
                        s.assert(fast.eq(&plain).not());
                        assert_eq!(s.check(), SatResult::Unsat, "w={w} c={c} k={k}");
                    }
                }
            }
        }
    }

    /// Two alignments of one base whose offsets differ by a multiple of 4 become one term
    /// (the merged S_LOAD case), and other shapes are left alone.
    #[test]
    fn offsets_a_dword_apart_share_a_term() {
        let s = BV::new_const("s", 64);
        let two = BV::from_u64(2, 64);
        let al = |c: u64| aligned(&s.bvadd(BV::from_u64(c, 64)).bvlshr(&two), &two).unwrap();
        let merged = al(36).bvadd(BV::from_u64(8, 64)).simplify();
        assert_eq!(merged, al(44).simplify());
        // Offsets 5 apart: ((s + 33) & !3) + 5 is not (s + 38) & !3 for every s (s = 2: 41 vs
        // 40), so the terms must stay different.
        assert_ne!(
            al(33).bvadd(BV::from_u64(5, 64)).simplify(),
            al(38).simplify()
        );
        // A shift by another amount than the one undone is not this shape.
        assert!(aligned(&s.bvlshr(&two), &BV::from_u64(3, 64)).is_none());
    }
}
