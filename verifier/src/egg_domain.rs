//! A third value domain for the evaluator: e-graph terms. Running both sides of a rule in this
//! domain puts every observable output (registers, LDS/GDS/global memory, the UB flag, the
//! encodability condition) into one e-graph; after the rewrites of [`crate::egg_rules`] have
//! run, outputs in the same e-class are equal for every input, and a rule whose outputs all
//! coincide is proved without a refinement query.
//!
//! Every e-class carries its sort (bit-vector of a width, boolean, memory of an address width,
//! or a natural-number parameter of `extract`/`zext`/`sext`/`fp`) and, when known, its constant
//! value. Constants fold through [`Concrete`], the interpreter's own domain, so a folded node
//! means exactly what the interpreter computes (SMT-LIB division by zero, shifts past the
//! width, IEEE rounding of the fp nodes).

use crate::machine::{exec, Bound, Env, Machine, RegKey};
use egg::{Analysis, DidMerge, EGraph, Id, Language, Symbol};
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::eval::MemState;
use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::FpFmt;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

/// A bit-vector constant: `value` (below 2^width) of `width` bits, written `VALUEwWIDTH`
/// (`4w32`) in patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit {
    pub value: u128,
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
    pub name: Symbol,
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
        "load" = Load([Id; 2]),
        "store" = Store([Id; 3]),
        Nat(u32),
        Lit(Lit),
        Input(Input),
    }
}

const FP_OPS: [FpOp; 3] = [FpOp::Add, FpOp::Sub, FpOp::Mul];
const FP_FMTS: [FpFmt; 4] = [FpFmt::F16, FpFmt::Bf16, FpFmt::F32, FpFmt::F64];

/// What an e-class is known to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    pub sort: Sort,
    /// The constant value (bit-vectors, booleans as 0/1, naturals), when every input of some
    /// node of the class is constant.
    pub konst: Option<u128>,
}

/// A concrete value of a non-memory term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Bv(Bits),
    Bool(bool),
    Nat(u32),
}

fn bv_op(t: &Term) -> Option<(BvOp, [Id; 2])> {
    Some(match t {
        Term::Add(c) => (BvOp::Add, *c),
        Term::Sub(c) => (BvOp::Sub, *c),
        Term::Mul(c) => (BvOp::Mul, *c),
        Term::UDiv(c) => (BvOp::UDiv, *c),
        Term::URem(c) => (BvOp::URem, *c),
        Term::SDiv(c) => (BvOp::SDiv, *c),
        Term::SRem(c) => (BvOp::SRem, *c),
        Term::And(c) => (BvOp::And, *c),
        Term::Or(c) => (BvOp::Or, *c),
        Term::Xor(c) => (BvOp::Xor, *c),
        Term::Shl(c) => (BvOp::Shl, *c),
        Term::LShr(c) => (BvOp::LShr, *c),
        Term::AShr(c) => (BvOp::AShr, *c),
        _ => return None,
    })
}

fn cmp_op(t: &Term) -> Option<(CmpOp, [Id; 2])> {
    Some(match t {
        Term::Eq(c) => (CmpOp::Eq, *c),
        Term::Ult(c) => (CmpOp::Ult, *c),
        Term::Ule(c) => (CmpOp::Ule, *c),
        Term::Slt(c) => (CmpOp::Slt, *c),
        Term::Sle(c) => (CmpOp::Sle, *c),
        _ => return None,
    })
}

/// The concrete value of one node given its children's values, with the interpreter's
/// semantics ([`Concrete`]). `None` for inputs, memory nodes, a child without a value, or
/// ill-sorted children (never produced by [`EggDomain`]).
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
        _ => return None,
    })
}

/// The e-graph analysis: sorts, constant folding, and a record of any merge of classes with
/// different constants or sorts (which only an unsound rewrite could cause; a proof is then
/// not trusted).
#[derive(Default)]
pub struct Fold {
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
        Term::Fp([_, fmt, _, _]) => Sort::Bv(FP_FMTS.get(k(fmt) as usize).map_or(0, |f| f.width())),
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

/// The e-graph domain: values are e-class ids of one e-graph.
#[derive(Default)]
pub struct EggDomain {
    pub egraph: EGraph<Term, Fold>,
}

impl EggDomain {
    /// A named bit-vector input of `width` bits.
    pub fn var(&mut self, name: &str, width: u32) -> Id {
        self.egraph.add(Term::Input(Input {
            name: Symbol::from(name),
            sort: Sort::Bv(width),
        }))
    }
    /// A named initial memory with `addr_width`-bit addresses.
    pub fn mem(&mut self, name: &str, addr_width: u32) -> Id {
        self.egraph.add(Term::Input(Input {
            name: Symbol::from(name),
            sort: Sort::Mem(addr_width),
        }))
    }
    fn nat(&mut self, n: u32) -> Id {
        self.egraph.add(Term::Nat(n))
    }
}

impl Domain for EggDomain {
    type Bv = Id;
    type Bool = Id;
    type Mem = Id;

    fn bv(&mut self, value: u128, width: u32) -> Id {
        let value = if width >= 128 {
            value
        } else {
            value & ((1u128 << width) - 1)
        };
        self.egraph.add(Term::Lit(Lit { value, width }))
    }
    fn boolean(&mut self, b: bool) -> Id {
        self.egraph.add(if b { Term::True } else { Term::False })
    }
    fn width(&self, x: &Id) -> u32 {
        match self.egraph[*x].data.sort {
            Sort::Bv(w) => w,
            s => panic!("width of a {s:?} term (the evaluator only asks bit-vectors)"),
        }
    }
    fn op(&mut self, op: BvOp, a: &Id, b: &Id) -> Id {
        let c = [*a, *b];
        self.egraph.add(match op {
            BvOp::Add => Term::Add(c),
            BvOp::Sub => Term::Sub(c),
            BvOp::Mul => Term::Mul(c),
            BvOp::UDiv => Term::UDiv(c),
            BvOp::URem => Term::URem(c),
            BvOp::SDiv => Term::SDiv(c),
            BvOp::SRem => Term::SRem(c),
            BvOp::And => Term::And(c),
            BvOp::Or => Term::Or(c),
            BvOp::Xor => Term::Xor(c),
            BvOp::Shl => Term::Shl(c),
            BvOp::LShr => Term::LShr(c),
            BvOp::AShr => Term::AShr(c),
        })
    }
    fn not(&mut self, a: &Id) -> Id {
        self.egraph.add(Term::Not([*a]))
    }
    fn cmp(&mut self, op: CmpOp, a: &Id, b: &Id) -> Id {
        let c = [*a, *b];
        self.egraph.add(match op {
            CmpOp::Eq => Term::Eq(c),
            CmpOp::Ult => Term::Ult(c),
            CmpOp::Ule => Term::Ule(c),
            CmpOp::Slt => Term::Slt(c),
            CmpOp::Sle => Term::Sle(c),
        })
    }
    fn extract(&mut self, a: &Id, hi: u32, lo: u32) -> Id {
        let (h, l) = (self.nat(hi), self.nat(lo));
        self.egraph.add(Term::Extract([h, l, *a]))
    }
    fn concat(&mut self, hi: &Id, lo: &Id) -> Id {
        self.egraph.add(Term::Concat([*hi, *lo]))
    }
    fn zext(&mut self, a: &Id, by: u32) -> Id {
        if by == 0 {
            return *a;
        }
        let n = self.nat(by);
        self.egraph.add(Term::ZExt([n, *a]))
    }
    fn sext(&mut self, a: &Id, by: u32) -> Id {
        if by == 0 {
            return *a;
        }
        let n = self.nat(by);
        self.egraph.add(Term::SExt([n, *a]))
    }
    fn ite(&mut self, c: &Id, a: &Id, b: &Id) -> Id {
        self.egraph.add(Term::Ite([*c, *a, *b]))
    }
    fn ite_bool(&mut self, c: &Id, a: &Id, b: &Id) -> Id {
        self.egraph.add(Term::Ite([*c, *a, *b]))
    }
    fn ite_mem(&mut self, c: &Id, a: &Id, b: &Id) -> Id {
        match self.known(c) {
            Some(true) => *a,
            Some(false) => *b,
            None => self.egraph.add(Term::Ite([*c, *a, *b])),
        }
    }
    fn and(&mut self, a: &Id, b: &Id) -> Id {
        self.egraph.add(Term::LAnd([*a, *b]))
    }
    fn or(&mut self, a: &Id, b: &Id) -> Id {
        self.egraph.add(Term::LOr([*a, *b]))
    }
    fn lnot(&mut self, a: &Id) -> Id {
        self.egraph.add(Term::LNot([*a]))
    }
    fn known(&self, b: &Id) -> Option<bool> {
        self.egraph[*b].data.konst.map(|k| k != 0)
    }
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &Id, b: &Id) -> Id {
        let o = FP_OPS.iter().position(|x| *x == op).expect("listed") as u32;
        let f = FP_FMTS.iter().position(|x| *x == fmt).expect("listed") as u32;
        let (o, f) = (self.nat(o), self.nat(f));
        self.egraph.add(Term::Fp([o, f, *a, *b]))
    }
    fn load(&mut self, m: &Id, addr: &Id) -> Id {
        self.egraph.add(Term::Load([*m, *addr]))
    }
    fn store(&mut self, m: &Id, addr: &Id, byte: &Id) -> Id {
        self.egraph.add(Term::Store([*m, *addr, *byte]))
    }
}

/// Limits of one e-graph run: small, so that a rule egg cannot settle costs little before the
/// solver takes over.
pub const NODE_LIMIT: usize = 20_000;
/// See [`NODE_LIMIT`].
pub const ITER_LIMIT: usize = 12;
/// See [`NODE_LIMIT`]; milliseconds.
pub const TIME_LIMIT_MS: u64 = 300;

/// The inputs of one rule on one target, as the checker has elaborated them.
pub struct EggRule<'a> {
    pub target: Target,
    pub settings: Settings,
    /// Every register either side names (32 bits each), including M0.
    pub keys: &'a BTreeSet<RegKey>,
    /// Registers whose final value does not matter.
    pub dead: &'a BTreeSet<RegKey>,
    /// Immediate variables (64 bits each).
    pub imms: &'a BTreeSet<String>,
    pub src: &'a [Bound],
    pub tgt: &'a [Bound],
}

/// Whether equality saturation shows the target equal to the source on every output the
/// checker compares: each live register, LDS, GDS and global memory, and, given that the
/// source is encodable and defined, that the target is too (its encodability condition is
/// `true` or the source's, its UB flag `false` or the source's). The equalities hold for every
/// input, so they imply refinement under any precondition; the caller must still establish
/// that the precondition is satisfiable. `false` means "not shown", never "refuted".
///
/// Errors: a semantics entry failed to evaluate (the solver path reports the same error).
pub fn egg_proves(
    r: &EggRule,
    fields_ok: impl Fn(
        &mut EggDomain,
        &Env<EggDomain>,
        &Machine<EggDomain>,
        &[Bound],
    ) -> Result<Id, String>,
) -> Result<bool, String> {
    let mut d = EggDomain::default();
    let regs: BTreeMap<RegKey, Id> = r
        .keys
        .iter()
        .map(|k| (k.clone(), d.var(&k.to_string(), 32)))
        .collect();
    let env = Env {
        target: r.target,
        settings: r.settings,
        imms: r
            .imms
            .iter()
            .map(|v| (v.clone(), d.var(&format!("%{v}"), 64)))
            .collect(),
        lds_size: d.var("LDS_SIZE", 32),
        lane_id: d.var("LANE_ID", 32),
    };
    let f = d.boolean(false);
    let m0 = Machine {
        regs,
        mem: MemState {
            lds: d.mem("LDS", 32),
            gds: d.mem("GDS", 32),
            global: d.mem("MEM", 64),
            ub: f,
        },
    };
    let src_fields = fields_ok(&mut d, &env, &m0, r.src)?;
    let tgt_fields = fields_ok(&mut d, &env, &m0, r.tgt)?;
    let (mut ms, mut mt) = (m0.clone(), m0);
    exec(&mut d, &env, &mut ms, r.src)?;
    exec(&mut d, &env, &mut mt, r.tgt)?;
    let t = d.boolean(true);
    let mut pairs: Vec<(Id, Id)> = r
        .keys
        .iter()
        .filter(|k| !r.dead.contains(k))
        .map(|k| (ms.regs[k], mt.regs[k]))
        .collect();
    pairs.push((ms.mem.lds, mt.mem.lds));
    pairs.push((ms.mem.gds, mt.mem.gds));
    pairs.push((ms.mem.global, mt.mem.global));
    let ub = (ms.mem.ub, mt.mem.ub);
    let fields = (src_fields, tgt_fields);
    let equal = move |eg: &EGraph<Term, Fold>| {
        let same = |a: Id, b: Id| eg.find(a) == eg.find(b);
        pairs.iter().all(|(a, b)| same(*a, *b))
            && (same(ub.1, f) || same(ub.0, ub.1))
            && (same(fields.1, t) || same(fields.0, fields.1))
    };
    let mut egraph = d.egraph;
    egraph.rebuild();
    if equal(&egraph) && !egraph.analysis.conflict {
        return Ok(true);
    }
    let eq2 = equal.clone();
    let runner = egg::Runner::<Term, Fold, ()>::new(Fold::default())
        .with_egraph(egraph)
        .with_node_limit(NODE_LIMIT)
        .with_iter_limit(ITER_LIMIT)
        .with_time_limit(std::time::Duration::from_millis(TIME_LIMIT_MS))
        // Stop as soon as the outputs have met, not at saturation.
        .with_hook(move |runner| {
            if eq2(&runner.egraph) {
                Err("all outputs equal".into())
            } else {
                Ok(())
            }
        })
        .run(&crate::egg_rules::rules());
    let mut egraph = runner.egraph;
    egraph.rebuild();
    Ok(equal(&egraph) && !egraph.analysis.conflict)
}
