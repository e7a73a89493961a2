//! The named rewrite set of the e-graph pass ([`crate::egg_domain`]), in five groups:
//!
//! - `bv-identity`: neutral and absorbing operands of add/sub/mul/and/or/xor (0 and all
//!   ones), self-cancellation, commutativity and associativity of add/mul/and/or/xor,
//!   subtraction of a constant as addition of its negation, shift left by a constant as a
//!   multiplication. Constant folding is not a rewrite: the analysis folds every node whose
//!   inputs are constant with the interpreter's semantics, wrapping at the node's width.
//! - `address`: the low bits of a sum (difference, product, and/or/xor, complement) are the sum
//!   of the operands' low bits; zero extension as concatenation with zeros and back. Nothing
//!   assumes that a sum does not wrap: `zext(a + b)` is never rewritten to `zext a + zext b`.
//! - `extract-concat`: extract of concat, of extract, of the whole value; concat of adjacent
//!   extracts of one value.
//! - `ite`: equal arms, constant conditions, negated conditions; the boolean identities
//!   (`and`/`or` with constants, idempotence, commutativity, double negation, `x = x`).
//! - `memory`: read over write at the same address, and at a provably distinct one; a load
//!   through a memory `ite`; a second store to the same address hides the first; stores to
//!   provably distinct addresses commute (in one direction only: ascending constant offset);
//!   storing back the byte just read changes nothing.
//!
//! Two addresses are provably distinct when they are `x + c1` and `x + c2` (or constants
//! `c1`, `c2`) of the same width with `c1 != c2` (a bare `x` is `x + 0`). Every rule holds
//! for all inputs at every width; `verifier/tests/egg_rules.rs` checks each on random values.

use crate::egg_lang::{Fold, Lit, Sort, Term};
use egg::{rewrite as rw, Applier, EGraph, Id, PatternAst, Rewrite, Subst, Symbol, Var};

type EG = EGraph<Term, Fold>;

/// The group names, in the order [`groups`] returns them.
pub const GROUP_NAMES: [&str; 5] = ["bv-identity", "address", "extract-concat", "ite", "memory"];

fn konst(eg: &EG, id: Id) -> Option<u128> {
    eg[id].data.konst
}

fn width(eg: &EG, id: Id) -> Option<u32> {
    match eg[id].data.sort {
        Sort::Bv(w) => Some(w),
        _ => None,
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn var(s: &str) -> Var {
    s.parse().expect("a pattern variable")
}

/// A condition on one matched bit-vector: constant, and `pred(value, width)`.
fn is_const(v: &str, pred: fn(u128, u32) -> bool) -> impl Fn(&mut EG, Id, &Subst) -> bool {
    let v = var(v);
    move |eg, _, s| match (konst(eg, s[v]), width(eg, s[v])) {
        (Some(k), Some(w)) => pred(k, w),
        _ => false,
    }
}

fn zero(k: u128, _w: u32) -> bool {
    k == 0
}
fn ones(k: u128, w: u32) -> bool {
    k == mask(w)
}
fn one(k: u128, _w: u32) -> bool {
    k == 1
}
fn any(_k: u128, _w: u32) -> bool {
    true
}

/// An applier computing the right-hand side in code from the matched variables; `None`
/// means the rule does not apply to this match.
struct Build {
    vars: Vec<Var>,
    f: fn(&mut EG, &[Id]) -> Option<Id>,
}

impl Applier<Term, Fold> for Build {
    fn apply_one(
        &self,
        eg: &mut EG,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<Term>>,
        _rule: Symbol,
    ) -> Vec<Id> {
        let ids: Vec<Id> = self.vars.iter().map(|v| subst[*v]).collect();
        match (self.f)(eg, &ids) {
            Some(new) if eg.union(eclass, new) => vec![new],
            _ => vec![],
        }
    }
}

fn build(vars: &[&str], f: fn(&mut EG, &[Id]) -> Option<Id>) -> Build {
    Build {
        vars: vars.iter().map(|v| var(v)).collect(),
        f,
    }
}

fn lit(eg: &mut EG, value: u128, width: u32) -> Id {
    eg.add(Term::Lit(Lit {
        value: value & mask(width),
        width,
    }))
}

fn nat(eg: &mut EG, n: u32) -> Id {
    eg.add(Term::Nat(n))
}

/// Every way the e-class `id` is known as `base + constant`: (base class or `None` for a
/// constant, constant).
fn offsets(eg: &EG, id: Id) -> Vec<(Option<Id>, u128)> {
    let mut out = vec![(Some(eg.find(id)), 0)];
    if let Some(k) = konst(eg, id) {
        out.push((None, k));
    }
    for n in &eg[id].nodes {
        if let Term::Add([x, y]) = n {
            if let Some(k) = konst(eg, *y) {
                out.push((Some(eg.find(*x)), k));
            }
            if let Some(k) = konst(eg, *x) {
                out.push((Some(eg.find(*y)), k));
            }
        }
    }
    out
}

/// `Some(ordering)` when `a` and `b` are provably distinct addresses: same width, and
/// `base + c1` and `base + c2` with `c1 != c2` for one common base.
fn distinct(eg: &EG, a: Id, b: Id) -> Option<std::cmp::Ordering> {
    let w = width(eg, a)?;
    if width(eg, b) != Some(w) {
        return None;
    }
    let (oa, ob) = (offsets(eg, a), offsets(eg, b));
    for (ba, ca) in &oa {
        for (bb, cb) in &ob {
            if ba == bb && (ca & mask(w)) != (cb & mask(w)) {
                return Some((ca & mask(w)).cmp(&(cb & mask(w))));
            }
        }
    }
    None
}

fn bv_identity() -> Vec<Rewrite<Term, Fold>> {
    let mut v = vec![
        rw!("add-comm"; "(bvadd ?a ?b)" => "(bvadd ?b ?a)"),
        rw!("add-assoc"; "(bvadd ?a (bvadd ?b ?c))" => "(bvadd (bvadd ?a ?b) ?c)"),
        rw!("mul-comm"; "(bvmul ?a ?b)" => "(bvmul ?b ?a)"),
        rw!("mul-assoc"; "(bvmul ?a (bvmul ?b ?c))" => "(bvmul (bvmul ?a ?b) ?c)"),
        rw!("and-comm"; "(bvand ?a ?b)" => "(bvand ?b ?a)"),
        rw!("and-assoc"; "(bvand ?a (bvand ?b ?c))" => "(bvand (bvand ?a ?b) ?c)"),
        rw!("or-comm"; "(bvor ?a ?b)" => "(bvor ?b ?a)"),
        rw!("or-assoc"; "(bvor ?a (bvor ?b ?c))" => "(bvor (bvor ?a ?b) ?c)"),
        rw!("xor-comm"; "(bvxor ?a ?b)" => "(bvxor ?b ?a)"),
        rw!("xor-assoc"; "(bvxor ?a (bvxor ?b ?c))" => "(bvxor (bvxor ?a ?b) ?c)"),
        rw!("add-zero"; "(bvadd ?a ?z)" => "?a" if is_const("?z", zero)),
        rw!("sub-zero"; "(bvsub ?a ?z)" => "?a" if is_const("?z", zero)),
        rw!("mul-one"; "(bvmul ?a ?o)" => "?a" if is_const("?o", one)),
        rw!("mul-zero"; "(bvmul ?a ?z)" => "?z" if is_const("?z", zero)),
        rw!("and-zero"; "(bvand ?a ?z)" => "?z" if is_const("?z", zero)),
        rw!("and-ones"; "(bvand ?a ?m)" => "?a" if is_const("?m", ones)),
        rw!("and-self"; "(bvand ?a ?a)" => "?a"),
        rw!("or-zero"; "(bvor ?a ?z)" => "?a" if is_const("?z", zero)),
        rw!("or-ones"; "(bvor ?a ?m)" => "?m" if is_const("?m", ones)),
        rw!("or-self"; "(bvor ?a ?a)" => "?a"),
        rw!("xor-zero"; "(bvxor ?a ?z)" => "?a" if is_const("?z", zero)),
        rw!("not-not"; "(bvnot (bvnot ?a))" => "?a"),
    ];
    v.push(rw!("sub-self"; "(bvsub ?a ?a)" => {
        build(&["?a"], |eg, x| Some(lit(eg, 0, width(eg, x[0])?)))
    }));
    v.push(rw!("xor-self"; "(bvxor ?a ?a)" => {
        build(&["?a"], |eg, x| Some(lit(eg, 0, width(eg, x[0])?)))
    }));
    v.push(rw!("sub-const"; "(bvsub ?a ?c)" => {
        build(&["?a", "?c"], |eg, x| {
            let (k, w) = (konst(eg, x[1])?, width(eg, x[1])?);
            let neg = lit(eg, k.wrapping_neg(), w);
            Some(eg.add(Term::Add([x[0], neg])))
        })
    } if is_const("?c", any)));
    v.push(rw!("shl-const"; "(bvshl ?a ?c)" => {
        build(&["?a", "?c"], |eg, x| {
            let (k, w) = (konst(eg, x[1])?, width(eg, x[1])?);
            if k >= w as u128 {
                return None;
            }
            let m = lit(eg, 1u128 << k, w);
            Some(eg.add(Term::Mul([x[0], m])))
        })
    } if is_const("?c", any)));
    v
}

fn address() -> Vec<Rewrite<Term, Fold>> {
    let mut v = Vec::new();
    for op in ["bvadd", "bvsub", "bvmul", "bvand", "bvor", "bvxor"] {
        let lhs: egg::Pattern<Term> = format!("(extract ?h 0 ({op} ?a ?b))")
            .parse()
            .expect("a pattern");
        let rhs: egg::Pattern<Term> = format!("({op} (extract ?h 0 ?a) (extract ?h 0 ?b))")
            .parse()
            .expect("a pattern");
        let name = format!("extract-low-{}", &op[2..]);
        v.push(Rewrite::new(name, lhs, rhs).expect("a well-formed rewrite"));
    }
    v.push(rw!("extract-low-not"; "(extract ?h 0 (bvnot ?a))" => "(bvnot (extract ?h 0 ?a))"));
    v.push(rw!("zext-as-concat"; "(zext ?n ?a)" => {
        build(&["?n", "?a"], |eg, x| {
            let n = konst(eg, x[0])? as u32;
            if n == 0 {
                return None;
            }
            let z = lit(eg, 0, n);
            Some(eg.add(Term::Concat([z, x[1]])))
        })
    }));
    v.push(rw!("concat-zero-as-zext"; "(concat ?z ?a)" => {
        build(&["?z", "?a"], |eg, x| {
            let n = width(eg, x[0])?;
            let by = nat(eg, n);
            Some(eg.add(Term::ZExt([by, x[1]])))
        })
    } if is_const("?z", zero)));
    v
}

fn extract_concat() -> Vec<Rewrite<Term, Fold>> {
    vec![
        rw!("extract-whole"; "(extract ?h ?l ?a)" => {
            build(&["?h", "?l", "?a"], |eg, x| {
                let (h, l, w) = (konst(eg, x[0])?, konst(eg, x[1])?, width(eg, x[2])?);
                (l == 0 && h + 1 == w as u128).then_some(x[2])
            })
        }),
        rw!("extract-extract"; "(extract ?h ?l (extract ?h2 ?l2 ?a))" => {
            build(&["?h", "?l", "?l2", "?a"], |eg, x| {
                let (h, l, l2) = (konst(eg, x[0])? as u32, konst(eg, x[1])? as u32, konst(eg, x[2])? as u32);
                let (nh, nl) = (nat(eg, h + l2), nat(eg, l + l2));
                Some(eg.add(Term::Extract([nh, nl, x[3]])))
            })
        }),
        rw!("extract-concat"; "(extract ?h ?l (concat ?a ?b))" => {
            build(&["?h", "?l", "?a", "?b"], |eg, x| {
                let (h, l, wb) = (konst(eg, x[0])? as u32, konst(eg, x[1])? as u32, width(eg, x[3])?);
                if h < wb {
                    let (nh, nl) = (nat(eg, h), nat(eg, l));
                    Some(eg.add(Term::Extract([nh, nl, x[3]])))
                } else if l >= wb {
                    let (nh, nl) = (nat(eg, h - wb), nat(eg, l - wb));
                    Some(eg.add(Term::Extract([nh, nl, x[2]])))
                } else {
                    None
                }
            })
        }),
        rw!("concat-adjacent"; "(concat (extract ?h ?m1 ?a) (extract ?m0 ?l ?a))" => {
            build(&["?h", "?m1", "?m0", "?l", "?a"], |eg, x| {
                let (m1, m0) = (konst(eg, x[1])?, konst(eg, x[2])?);
                (m1 == m0 + 1).then(|| eg.add(Term::Extract([x[0], x[3], x[4]])))
            })
        }),
    ]
}

fn ite() -> Vec<Rewrite<Term, Fold>> {
    vec![
        rw!("ite-same"; "(ite ?c ?a ?a)" => "?a"),
        rw!("ite-true"; "(ite true ?a ?b)" => "?a"),
        rw!("ite-false"; "(ite false ?a ?b)" => "?b"),
        rw!("ite-not"; "(ite (not ?c) ?a ?b)" => "(ite ?c ?b ?a)"),
        rw!("land-true"; "(and ?a true)" => "?a"),
        rw!("land-comm"; "(and ?a ?b)" => "(and ?b ?a)"),
        rw!("land-self"; "(and ?a ?a)" => "?a"),
        rw!("lor-false"; "(or ?a false)" => "?a"),
        rw!("lor-comm"; "(or ?a ?b)" => "(or ?b ?a)"),
        rw!("lor-self"; "(or ?a ?a)" => "?a"),
        rw!("lnot-lnot"; "(not (not ?a))" => "?a"),
        rw!("eq-self"; "(= ?a ?a)" => "true"),
        rw!("eq-comm"; "(= ?a ?b)" => "(= ?b ?a)"),
    ]
}

fn memory() -> Vec<Rewrite<Term, Fold>> {
    vec![
        rw!("load-store-same"; "(load (store ?m ?a ?v) ?a)" => "?v"),
        rw!("load-store-distinct"; "(load (store ?m ?a ?v) ?b)" => "(load ?m ?b)"
            if |eg: &mut EG, _: Id, s: &Subst| distinct(eg, s[var("?a")], s[var("?b")]).is_some()),
        rw!("load-ite"; "(load (ite ?c ?m ?n) ?a)" => "(ite ?c (load ?m ?a) (load ?n ?a))"),
        rw!("store-store-same"; "(store (store ?m ?a ?v) ?a ?w)" => "(store ?m ?a ?w)"),
        rw!("store-swap"; "(store (store ?m ?a ?v) ?b ?w)" => "(store (store ?m ?b ?w) ?a ?v)"
        if |eg: &mut EG, _: Id, s: &Subst| {
            distinct(eg, s[var("?a")], s[var("?b")]) == Some(std::cmp::Ordering::Greater)
        }),
        rw!("store-load-same"; "(store ?m ?a (load ?m ?a))" => "?m"),
    ]
}

/// The rewrite groups, named as in [`GROUP_NAMES`].
pub fn groups() -> Vec<(&'static str, Vec<Rewrite<Term, Fold>>)> {
    GROUP_NAMES
        .into_iter()
        .zip([bv_identity(), address(), extract_concat(), ite(), memory()])
        .collect()
}

/// Every rewrite of every group.
pub fn rules() -> Vec<Rewrite<Term, Fold>> {
    groups().into_iter().flat_map(|(_, r)| r).collect()
}
