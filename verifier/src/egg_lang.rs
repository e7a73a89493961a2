//! The e-graph language of the egg pass: terms over bit-vectors, booleans and memories, their
//! sorts, and constant folding through the interpreter's own domain ([`Concrete`]). Shared by
//! the domain ([`crate::egg_domain`]) and its rewrites ([`crate::egg_rules`]).

use egg::{Analysis, DidMerge, EGraph, Id, Language, Symbol};
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::ty::FpFmt;
use std::fmt;
use std::str::FromStr;

/// A bit-vector constant: `value` (below 2^width) of `width` bits, written `VALUEwWIDTH`
/// (`4w32`) in patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit {
    /// The value, below `2^width`.
    pub value: u128,
    /// The width in bits, 1 to 128.
    pub width: u32,
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}w{}", self.value, self.width)
    }
}

impl FromStr for Lit {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let (v, w) = s.split_once('w').ok_or(())?;
        let width: u32 = w.parse().map_err(|_| ())?;
        let value: u128 = v.parse().map_err(|_| ())?;
        if width == 0 || width > 128 || (width < 128 && value >> width != 0) {
            return Err(());
        }
        Ok(Lit { value, width })
    }
}

/// The sort of an e-class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sort {
    /// A bit-vector of this many bits.
    Bv(u32),
    /// A boolean (comparisons, `and`/`or`/`not`, the condition of `ite`).
    Bool,
    /// A byte memory with addresses of this many bits (32: LDS/GDS, 64: global memory).
    Mem(u32),
    /// A natural-number parameter (bit positions, extension amounts, fp op and format codes).
    Nat,
}

/// A named input (register, immediate, initial memory), written `NAME:bW` for a `W`-bit vector
/// and `NAME:mW` for a memory with `W`-bit addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Input {
    /// The input's name (a register such as `v1`, an immediate variable, `LDS`, `GDS`, `MEM`).
    pub name: Symbol,
    /// Its sort: `:bW` a `W`-bit vector, `:mW` a memory with `W`-bit addresses, `:bool`, `:nat`.
    pub sort: Sort,
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sort {
            Sort::Bv(w) => write!(f, "{}:b{w}", self.name),
            Sort::Mem(w) => write!(f, "{}:m{w}", self.name),
            Sort::Bool => write!(f, "{}:bool", self.name),
            Sort::Nat => write!(f, "{}:nat", self.name),
        }
    }
}

impl FromStr for Input {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let (name, sort) = s.rsplit_once(':').ok_or(())?;
        let sort = match sort {
            "bool" => Sort::Bool,
            "nat" => Sort::Nat,
            _ if sort.starts_with('b') => Sort::Bv(sort[1..].parse().map_err(|_| ())?),
            _ if sort.starts_with('m') => Sort::Mem(sort[1..].parse().map_err(|_| ())?),
            _ => return Err(()),
        };
        if name.is_empty() {
            return Err(());
        }
        Ok(Input {
            name: Symbol::from(name),
            sort,
        })
    }
}

egg::define_language! {
    /// Terms of the evaluator's primitives (see [`gcnsmt_semantics::domain::Domain`]).
    /// `extract` is `(extract HI LO x)`, `zext`/`sext` are `(zext BY x)`, `fp` is
    /// `(fp OP FMT a b)` with OP 0/1/2 = add/sub/mul and FMT 0..3 = f16/bf16/f32/f64; those
    /// parameters are [`Term::Nat`] leaves. `load` reads one byte, `store` writes one.
    // `define_language!` takes no attributes on its variants; the names above document them.
    #[allow(missing_docs)]
    pub enum Term {
        "true" = True,
        "false" = False,
        "bvadd" = Add([Id; 2]),
        "bvsub" = Sub([Id; 2]),
        "bvmul" = Mul([Id; 2]),
        "bvudiv" = UDiv([Id; 2]),
        "bvurem" = URem([Id; 2]),
        "bvsdiv" = SDiv([Id; 2]),
        "bvsrem" = SRem([Id; 2]),
        "bvand" = And([Id; 2]),
        "bvor" = Or([Id; 2]),
        "bvxor" = Xor([Id; 2]),
        "bvshl" = Shl([Id; 2]),
        "bvlshr" = LShr([Id; 2]),
        "bvashr" = AShr([Id; 2]),
        "bvnot" = Not([Id; 1]),
        "=" = Eq([Id; 2]),
        "bvult" = Ult([Id; 2]),
        "bvule" = Ule([Id; 2]),
        "bvslt" = Slt([Id; 2]),
        "bvsle" = Sle([Id; 2]),
        "and" = LAnd([Id; 2]),
        "or" = LOr([Id; 2]),
        "not" = LNot([Id; 1]),
        "ite" = Ite([Id; 3]),
        "extract" = Extract([Id; 3]),
        "concat" = Concat([Id; 2]),
        "zext" = ZExt([Id; 2]),
        "sext" = SExt([Id; 2]),
        "fp" = Fp([Id; 4]),
        "fma" = Fma([Id; 4]),
        "load" = Load([Id; 2]),
        "store" = Store([Id; 3]),
        Nat(u32),
        Lit(Lit),
        Input(Input),
    }
}

pub(crate) const FP_OPS: [FpOp; 3] = [FpOp::Add, FpOp::Sub, FpOp::Mul];
pub(crate) const FP_FMTS: [FpFmt; 4] = [FpFmt::F16, FpFmt::Bf16, FpFmt::F32, FpFmt::F64];

/// What an e-class is known to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    /// The class's sort.
    pub sort: Sort,
    /// The constant value (bit-vectors, booleans as 0/1, naturals), when every input of some
    /// node of the class is constant.
    pub konst: Option<u128>,
}

/// A concrete value of a non-memory term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A bit-vector value with its width.
    Bv(Bits),
    /// A boolean.
    Bool(bool),
    /// A natural-number parameter.
    Nat(u32),
}

/// The terms of a two-operand operator enum (`BvOp`, `CmpOp`), whose variants have the names
/// of their [`Term`]s: `$of` gives a term's operator and operands, `$term` the term of one.
macro_rules! operator_terms {
    ($op:ident, $term:ident, $of:ident: $($v:ident),+) => {
        fn $of(t: &Term) -> Option<($op, [Id; 2])> {
            Some(match t {
                $(Term::$v(c) => ($op::$v, *c),)+
                _ => return None,
            })
        }

        /// The term of `op` on `c`.
        pub(crate) fn $term(op: $op, c: [Id; 2]) -> Term {
            match op {
                $($op::$v => Term::$v(c),)+
            }
        }
    };
}

operator_terms!(BvOp, bv_term, bv_op: Add, Sub, Mul, UDiv, URem, SDiv, SRem, And, Or, Xor, Shl, LShr, AShr);
operator_terms!(CmpOp, cmp_term, cmp_op: Eq, Ult, Ule, Slt, Sle);

/// The concrete value of one node given its children's values, with the interpreter's
/// semantics ([`Concrete`]). `None` for inputs, memory nodes, a child without a value, or
/// ill-sorted children (never produced by [`crate::egg_domain::EggDomain`]).
pub fn eval_node(node: &Term, child: &dyn Fn(Id) -> Option<Value>) -> Option<Value> {
    let mut c = Concrete;
    let bv = |i: Id| match child(i)? {
        Value::Bv(b) => Some(b),
        _ => None,
    };
    let boolean = |i: Id| match child(i)? {
        Value::Bool(b) => Some(b),
        _ => None,
    };
    let nat = |i: Id| match child(i)? {
        Value::Nat(n) => Some(n),
        _ => None,
    };
    if let Some((op, [a, b])) = bv_op(node) {
        let (x, y) = (bv(a)?, bv(b)?);
        return (x.width == y.width).then(|| Value::Bv(c.op(op, &x, &y)));
    }
    if let Some((op, [a, b])) = cmp_op(node) {
        let (x, y) = (bv(a)?, bv(b)?);
        return (x.width == y.width).then(|| Value::Bool(c.cmp(op, &x, &y)));
    }
    Some(match node {
        Term::True => Value::Bool(true),
        Term::False => Value::Bool(false),
        Term::Nat(n) => Value::Nat(*n),
        Term::Lit(l) => Value::Bv(Bits {
            value: l.value,
            width: l.width,
        }),
        Term::Not([a]) => Value::Bv(c.not(&bv(*a)?)),
        // Short circuits: a constant false (true) operand decides `and` (`or`) alone.
        Term::LAnd([a, b]) => match (boolean(*a), boolean(*b)) {
            (Some(false), _) | (_, Some(false)) => Value::Bool(false),
            (Some(x), Some(y)) => Value::Bool(x && y),
            _ => return None,
        },
        Term::LOr([a, b]) => match (boolean(*a), boolean(*b)) {
            (Some(true), _) | (_, Some(true)) => Value::Bool(true),
            (Some(x), Some(y)) => Value::Bool(x || y),
            _ => return None,
        },
        Term::LNot([a]) => Value::Bool(!boolean(*a)?),
        Term::Ite([k, a, b]) => match boolean(*k) {
            Some(true) => child(*a)?,
            Some(false) => child(*b)?,
            None => {
                let (x, y) = (child(*a)?, child(*b)?);
                return (x == y).then_some(x);
            }
        },
        Term::Extract([h, l, a]) => {
            let (h, l, x) = (nat(*h)?, nat(*l)?, bv(*a)?);
            if l > h || h >= x.width {
                return None;
            }
            Value::Bv(c.extract(&x, h, l))
        }
        Term::Concat([a, b]) => {
            let (x, y) = (bv(*a)?, bv(*b)?);
            if x.width + y.width > 128 {
                return None;
            }
            Value::Bv(c.concat(&x, &y))
        }
        Term::ZExt([by, a]) | Term::SExt([by, a]) => {
            let (by, x) = (nat(*by)?, bv(*a)?);
            if x.width + by > 128 {
                return None;
            }
            Value::Bv(if matches!(node, Term::ZExt(_)) {
                c.zext(&x, by)
            } else {
                c.sext(&x, by)
            })
        }
        Term::Fp([op, fmt, a, b]) => {
            let op = *FP_OPS.get(nat(*op)? as usize)?;
            let fmt = *FP_FMTS.get(nat(*fmt)? as usize)?;
            let (x, y) = (bv(*a)?, bv(*b)?);
            if x.width != fmt.width() || y.width != fmt.width() {
                return None;
            }
            Value::Bv(c.fp(op, fmt, &x, &y))
        }
        Term::Fma([fmt, a, b, z]) => {
            let fmt = *FP_FMTS.get(nat(*fmt)? as usize)?;
            let (x, y, z) = (bv(*a)?, bv(*b)?, bv(*z)?);
            if [&x, &y, &z].iter().any(|v| v.width != fmt.width()) {
                return None;
            }
            Value::Bv(c.fma(fmt, &x, &y, &z))
        }
        _ => return None,
    })
}

/// The e-graph analysis: sorts, constant folding, and a record of any merge of classes with
/// different constants or sorts (which only an unsound rewrite could cause; a proof is then
/// not trusted).
#[derive(Default)]
pub struct Fold {
    /// Set when two classes with different constants or sorts were merged: the e-graph's
    /// equalities are then not trusted.
    pub conflict: bool,
}

fn sort_of(egraph: &EGraph<Term, Fold>, node: &Term) -> Sort {
    let s = |i: &Id| egraph[*i].data.sort;
    let k = |i: &Id| egraph[*i].data.konst.unwrap_or(0) as u32;
    let w = |i: &Id| match s(i) {
        Sort::Bv(w) => w,
        _ => 0,
    };
    if bv_op(node).is_some() {
        return s(&node.children()[0]);
    }
    if cmp_op(node).is_some() {
        return Sort::Bool;
    }
    match node {
        Term::True | Term::False | Term::LAnd(_) | Term::LOr(_) | Term::LNot(_) => Sort::Bool,
        Term::Nat(_) => Sort::Nat,
        Term::Lit(l) => Sort::Bv(l.width),
        Term::Input(i) => i.sort,
        Term::Not([a]) => s(a),
        Term::Ite([_, a, _]) => s(a),
        Term::Extract([h, l, _]) => Sort::Bv((k(h) + 1).saturating_sub(k(l))),
        Term::Concat([a, b]) => Sort::Bv(w(a) + w(b)),
        Term::ZExt([by, a]) | Term::SExt([by, a]) => Sort::Bv(w(a) + k(by)),
        Term::Fp([_, fmt, _, _]) | Term::Fma([fmt, _, _, _]) => {
            Sort::Bv(FP_FMTS.get(k(fmt) as usize).map_or(0, |f| f.width()))
        }
        Term::Load(_) => Sort::Bv(8),
        Term::Store([m, _, _]) => s(m),
        _ => unreachable!("every node kind is covered above"),
    }
}

fn value_of(sort: Sort, k: u128) -> Option<Value> {
    match sort {
        Sort::Bv(w) => Some(Value::Bv(Bits { value: k, width: w })),
        Sort::Bool => Some(Value::Bool(k != 0)),
        Sort::Nat => Some(Value::Nat(k as u32)),
        Sort::Mem(_) => None,
    }
}

impl Analysis<Term> for Fold {
    type Data = Data;

    fn make(egraph: &mut EGraph<Term, Self>, enode: &Term, _id: Id) -> Data {
        let sort = sort_of(egraph, enode);
        let child = |i: Id| {
            let d = &egraph[i].data;
            value_of(d.sort, d.konst?)
        };
        let konst = eval_node(enode, &child).map(|v| match v {
            Value::Bv(b) => b.value,
            Value::Bool(b) => b as u128,
            Value::Nat(n) => n as u128,
        });
        Data { sort, konst }
    }

    fn merge(&mut self, to: &mut Data, from: Data) -> DidMerge {
        if to.sort != from.sort {
            self.conflict = true;
        }
        match (to.konst, from.konst) {
            (Some(a), Some(b)) => {
                if a != b {
                    self.conflict = true;
                }
                DidMerge(false, false)
            }
            (None, Some(b)) => {
                to.konst = Some(b);
                DidMerge(true, false)
            }
            (Some(_), None) => DidMerge(false, true),
            (None, None) => DidMerge(false, false),
        }
    }

    fn modify(egraph: &mut EGraph<Term, Self>, id: Id) {
        let d = egraph[id].data.clone();
        let Some(k) = d.konst else { return };
        let leaf = match d.sort {
            Sort::Bv(width) if (1..=128).contains(&width) => Term::Lit(Lit { value: k, width }),
            Sort::Bool => {
                if k != 0 {
                    Term::True
                } else {
                    Term::False
                }
            }
            Sort::Nat => Term::Nat(k as u32),
            _ => return,
        };
        let n = egraph.add(leaf);
        egraph.union(id, n);
    }
}
