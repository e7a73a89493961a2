//! Normalising immediate expressions with egg (equality saturation), so that rewrites whose two
//! sides are the same instructions up to how their offsets are written (`offset:%o+4` against
//! `offset:4+%o`) are proved without a solver query.
//!
//! Immediates are evaluated in 64-bit unsigned arithmetic (see `machine::eval_imm`); every
//! rewrite below holds modulo 2^64, and constants fold with SMT-LIB semantics
//! (`x / 0 = 2^64 - 1`, `x % 0 = x`). Expressions with typed literals (`4U`) or operators
//! outside this set are not normalised (no identity is claimed for them).

use egg::{rewrite as rw, Analysis, DidMerge, EGraph, Id, RecExpr, Runner, Symbol};
use gcnsmt_semantics::ir::{BinOp, Expr, LitSuffix};

egg::define_language! {
    /// Immediate arithmetic on 64-bit unsigned values: `+ - * / % & | << >>` over two
    /// children, `Num` constants and `Var` immediate variables (`%o`).
    // `define_language!` takes no attributes on its variants; the line above documents them.
    #[allow(missing_docs)]
    pub enum Imm {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "/" = Div([Id; 2]),
        "%" = Rem([Id; 2]),
        "&" = And([Id; 2]),
        "|" = Or([Id; 2]),
        "<<" = Shl([Id; 2]),
        ">>" = Shr([Id; 2]),
        Num(u64),
        Var(Symbol),
    }
}

/// Constant folding.
#[derive(Default)]
pub struct Fold;

impl Analysis<Imm> for Fold {
    type Data = Option<u64>;

    fn make(egraph: &mut EGraph<Imm, Self>, enode: &Imm, _id: Id) -> Self::Data {
        let c = |i: &Id| egraph[*i].data;
        Some(match enode {
            Imm::Num(n) => *n,
            Imm::Add([a, b]) => c(a)?.wrapping_add(c(b)?),
            Imm::Sub([a, b]) => c(a)?.wrapping_sub(c(b)?),
            Imm::Mul([a, b]) => c(a)?.wrapping_mul(c(b)?),
            Imm::Div([a, b]) => c(a)?.checked_div(c(b)?).unwrap_or(u64::MAX),
            Imm::Rem([a, b]) => {
                let (x, y) = (c(a)?, c(b)?);
                x.checked_rem(y).unwrap_or(x)
            }
            Imm::And([a, b]) => c(a)? & c(b)?,
            Imm::Or([a, b]) => c(a)? | c(b)?,
            Imm::Shl([a, b]) => {
                let s = c(b)?;
                if s >= 64 {
                    0
                } else {
                    c(a)? << s
                }
            }
            Imm::Shr([a, b]) => {
                let s = c(b)?;
                if s >= 64 {
                    0
                } else {
                    c(a)? >> s
                }
            }
            Imm::Var(_) => return None,
        })
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        egg::merge_option(to, from, |a, b| {
            debug_assert_eq!(*a, b, "merged classes with different constants");
            DidMerge(false, false)
        })
    }

    fn modify(egraph: &mut EGraph<Imm, Self>, id: Id) {
        if let Some(c) = egraph[id].data {
            let n = egraph.add(Imm::Num(c));
            egraph.union(id, n);
        }
    }
}

fn rules() -> Vec<egg::Rewrite<Imm, Fold>> {
    vec![
        rw!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("add-assoc"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("mul-comm"; "(* ?a ?b)" => "(* ?b ?a)"),
        rw!("mul-assoc"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rw!("and-comm"; "(& ?a ?b)" => "(& ?b ?a)"),
        rw!("or-comm"; "(| ?a ?b)" => "(| ?b ?a)"),
        rw!("add-0"; "(+ ?a 0)" => "?a"),
        rw!("sub-0"; "(- ?a 0)" => "?a"),
        rw!("mul-1"; "(* ?a 1)" => "?a"),
        rw!("mul-0"; "(* ?a 0)" => "0"),
        rw!("div-1"; "(/ ?a 1)" => "?a"),
        rw!("sub-self"; "(- ?a ?a)" => "0"),
        rw!("sub-add"; "(- (+ ?a ?b) ?b)" => "?a"),
        rw!("add-sub"; "(+ (- ?a ?b) ?b)" => "?a"),
        rw!("mul-distrib"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
        rw!("shl-is-mul"; "(<< ?a 2)" => "(* ?a 4)"),
    ]
}

fn build(e: &Expr, out: &mut RecExpr<Imm>) -> Option<Id> {
    Some(match e {
        Expr::Lit {
            value,
            suffix: LitSuffix::None,
            ..
        } => out.add(Imm::Num(u64::try_from(*value).ok()?)),
        Expr::Var(v) if v.starts_with('%') => out.add(Imm::Var(Symbol::from(v.as_str()))),
        Expr::Binary(op, a, b) => {
            let (x, y) = (build(a, out)?, build(b, out)?);
            match op {
                BinOp::Add => out.add(Imm::Add([x, y])),
                BinOp::Sub => out.add(Imm::Sub([x, y])),
                BinOp::Mul => out.add(Imm::Mul([x, y])),
                BinOp::Div => out.add(Imm::Div([x, y])),
                BinOp::Rem => out.add(Imm::Rem([x, y])),
                BinOp::And => out.add(Imm::And([x, y])),
                BinOp::Or => out.add(Imm::Or([x, y])),
                BinOp::Shl => out.add(Imm::Shl([x, y])),
                BinOp::Shr => out.add(Imm::Shr([x, y])),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Whether two immediate expressions are equal for every value of their variables, as shown by
/// equality saturation (`false` means "not shown", not "different").
pub fn same_imm(a: &Expr, b: &Expr) -> bool {
    if a == b {
        return true;
    }
    let (mut ra, mut rb) = (RecExpr::default(), RecExpr::default());
    if build(a, &mut ra).is_none() || build(b, &mut rb).is_none() {
        return false;
    }
    let runner = Runner::<Imm, Fold, ()>::default()
        .with_iter_limit(8)
        .with_node_limit(5_000)
        .with_time_limit(std::time::Duration::from_millis(200))
        .with_expr(&ra)
        .with_expr(&rb)
        .run(&rules());
    let (ia, ib) = (runner.roots[0], runner.roots[1]);
    runner.egraph.find(ia) == runner.egraph.find(ib)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcnsmt_semantics::parse::parse_expr;

    fn same(a: &str, b: &str) -> bool {
        same_imm(&parse_expr(a).unwrap(), &parse_expr(b).unwrap())
    }

    #[test]
    fn equal_offsets_are_found() {
        assert!(same("%o+4", "4+%o"));
        assert!(same("%o + 2 + 2", "%o + 4"));
        assert!(same("(%o + 8) - 8", "%o"));
        assert!(same("%i * 4 + %c", "%c + 4 * %i"));
        assert!(same("16", "4 * 4"));
    }

    #[test]
    fn different_offsets_are_not() {
        assert!(!same("%o+4", "%o+8"));
        assert!(!same("%o/4*4", "%o"));
        assert!(!same("%o+4U", "4U+%o"), "typed literals are not normalised");
    }
}
