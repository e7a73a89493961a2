//! A third value domain for the evaluator: e-graph terms. Running both sides of a rule in this
//! domain puts every observable output (registers, LDS/GDS/global memory, the UB flag, the
//! encodability condition) into one e-graph; after the rewrites of [`crate::egg_rules`] have
//! run, outputs in the same e-class are equal for every input, and a rule whose outputs all
//! coincide is proved without a refinement query.
//!
//! Every e-class carries its sort (bit-vector of a width, boolean, memory of an address width,
//! or a natural-number parameter of `extract`/`zext`/`sext`/`fp`) and, when known, its constant
//! value. Constants fold through [`gcnsmt_semantics::interp::Concrete`], the interpreter's own
//! domain, so a folded node means exactly what the interpreter computes (SMT-LIB division by
//! zero, shifts past the width, IEEE rounding of the fp nodes).

use crate::egg_lang::{bv_term, cmp_term};
use crate::machine::{exec, Bound, Env, Machine, RegKey};
use egg::{EGraph, Id, Symbol};
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::eval::{AddrSpace, MemState};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::FpFmt;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::egg_lang::*;

/// The e-graph domain: values are e-class ids of one e-graph.
#[derive(Default)]
pub struct EggDomain {
    /// The e-graph every value of the domain is a class of, with [`Fold`] as its analysis.
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
        self.egraph.add(bv_term(op, [*a, *b]))
    }
    fn not(&mut self, a: &Id) -> Id {
        self.egraph.add(Term::Not([*a]))
    }
    fn cmp(&mut self, op: CmpOp, a: &Id, b: &Id) -> Id {
        self.egraph.add(cmp_term(op, [*a, *b]))
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
    fn fma(&mut self, fmt: FpFmt, a: &Id, b: &Id, c: &Id) -> Id {
        let f = FP_FMTS.iter().position(|x| *x == fmt).expect("listed") as u32;
        let f = self.nat(f);
        self.egraph.add(Term::Fma([f, *a, *b, *c]))
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
    /// The target the rule is checked on.
    pub target: Target,
    /// The model settings of the check.
    pub settings: Settings,
    /// Every register either side names (32 bits each), including M0.
    pub keys: &'a BTreeSet<RegKey>,
    /// Registers whose final value does not matter.
    pub dead: &'a BTreeSet<RegKey>,
    /// Immediate variables (64 bits each).
    pub imms: &'a BTreeSet<String>,
    /// The source side's instructions, bound to the target.
    pub src: &'a [Bound],
    /// The target side's instructions, bound to the target.
    pub tgt: &'a [Bound],
}

/// Whether equality saturation shows the target equal to the source on every output the
/// checker compares: each live register, the memory of every address space, and, given that the
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
        mem: MemState::new(|s| d.mem(s.label(), s.addr_width()), f),
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
    pairs.extend(AddrSpace::ALL.map(|s| (ms.mem[s], mt.mem[s])));
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
