//! The z3 encoding: the semantics [`Domain`] over z3 bit-vectors, booleans and arrays. This is
//! the only module that names `z3::`. Floating-point `+ - *` go through z3's FP theory on
//! operands converted from their bit patterns; a NaN result is replaced by the canonical
//! quiet NaN before converting back, so no verdict depends on z3's single-NaN abstraction.

mod backend;
mod bitwuzla;
mod fold;
mod mem;
mod rewrite;
mod watchdog;
pub use backend::{backend, set_backend, Backend};
pub use bitwuzla::PYTHON_VAR;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain, FpOp};
use gcnsmt_semantics::ty::FpFmt;
pub use mem::{encoding, set_encoding, Base, Encoding, Mem, Store, ENCODING_VAR};
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic, Float, RoundingMode, BV};
use z3::{FuncDecl, Params, SatResult, Solver, Sort};

/// The environment variable that deliberately breaks one primitive of the encoding, so a test
/// can show that counterexample replay catches encoding bugs. `ult-signed` encodes unsigned
/// `<` as signed `<`. Never set in normal runs; read once per process, so it costs nothing.
pub const BREAK_ENCODING_VAR: &str = "GCNSMT_BREAK_ENCODING";

fn ult_is_broken() -> bool {
    static BROKEN: OnceLock<bool> = OnceLock::new();
    *BROKEN
        .get_or_init(|| std::env::var(BREAK_ENCODING_VAR).is_ok_and(|v| v.trim() == "ult-signed"))
}

/// The solver's full version text (part of the result cache's key).
pub fn solver_version() -> &'static str {
    z3::full_version()
}

/// Run `f` with a z3 context of its own (fresh, and dropped afterwards) instead of the thread's
/// long-lived one. z3's speed on a query depends on the state its context has accumulated
/// (term ids, caches): in one long-lived context the same query took 0.6 s or 3.5 s depending
/// on what ran before it. One context per rule x target makes each check's solver work
/// independent of the others and of their order. Terms must not leave `f`.
pub fn with_fresh_context<R: Send + Sync>(f: impl FnOnce() -> R + Send + Sync) -> R {
    z3::with_z3_config(&z3::Config::new(), f)
}

/// Solver terms. Construction never fails; the solver is consulted only through [`Query`].
#[derive(Default)]
pub struct Smt;

/// A z3 bit-vector term.
pub type Term = BV;
/// A z3 boolean term.
pub type Prop = Bool;
impl Smt {
    /// A fresh named bit-vector input.
    pub fn var(&mut self, name: &str, width: u32) -> BV {
        BV::new_const(name, width)
    }
    /// A named memory input (32-bit address to byte: LDS, GDS).
    pub fn mem(&mut self, name: &str) -> Mem {
        self.mem_wide(name, 32)
    }
    /// A named memory input with `addr_width`-bit addresses (64 for global memory).
    pub fn mem_wide(&mut self, name: &str, addr_width: u32) -> Mem {
        let f = FuncDecl::new(name, &[&Sort::bitvector(addr_width)], &Sort::bitvector(8));
        Mem::new(Base::Uf(Rc::new(f)), addr_width, encoding())
    }
    /// A 32-bit-addressed memory with known initial bytes (ground evaluation only).
    pub fn table_mem(&mut self, f: impl Fn(u32) -> u8 + 'static) -> Mem {
        Mem::new(Base::Table(Rc::new(move |a| f(a as u32))), 32, encoding())
    }
    /// A 64-bit-addressed memory with known initial bytes (ground evaluation only).
    pub fn table_mem_wide(&mut self, f: impl Fn(u64) -> u8 + 'static) -> Mem {
        Mem::new(Base::Table(Rc::new(f)), 64, encoding())
    }
    /// The value of a ground term (`None` if it does not simplify to a numeral).
    pub fn ground(t: &BV) -> Option<u128> {
        let s = t.simplify();
        let w = s.get_size();
        if w <= 64 {
            s.as_u64().map(u128::from)
        } else {
            let hi = s.extract(w - 1, 64).simplify().as_u64()?;
            let lo = s.extract(63, 0).simplify().as_u64()?;
            Some((hi as u128) << 64 | lo as u128)
        }
    }
    /// `t` rewritten by z3's simplifier (constant folding and the like): an equivalent term,
    /// often much smaller when parts of it are ground.
    pub fn simplify(t: &BV) -> BV {
        t.simplify()
    }
    /// The truth of a ground proposition.
    pub fn ground_bool(b: &Bool) -> Option<bool> {
        b.simplify().as_bool()
    }
}

fn float_of(fmt: FpFmt, x: &BV) -> Float {
    float_of_sort(&Sort::float(fmt.ebits(), fmt.sbits()), x)
}

/// `(_ to_fp e s)` of a bit-vector, for the floating-point sort `sort`.
fn float_of_sort(sort: &Sort, x: &BV) -> Float {
    let ctx = z3::Context::thread_local();
    // SAFETY: both handles are live z3 objects of the thread-local context, kept alive by
    // `x` and `sort` for the duration of the call; the result is wrapped (and ref-counted)
    // immediately.
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), x.get_z3_ast(), sort.get_z3_sort())
                .expect("Z3_mk_fpa_to_fp_bv on a bit-vector of the format's width");
        Float::wrap(&ctx, raw)
    }
}

impl Domain for Smt {
    type Bv = BV;
    type Bool = Bool;
    type Mem = Mem;

    fn bv(&mut self, value: u128, width: u32) -> BV {
        if width <= 64 {
            BV::from_u64(value as u64, width)
        } else {
            let hi = BV::from_u64((value >> 64) as u64, width - 64);
            let lo = BV::from_u64(value as u64, 64);
            hi.concat(&lo)
        }
    }
    fn boolean(&mut self, b: bool) -> Bool {
        Bool::from_bool(b)
    }
    fn width(&self, x: &BV) -> u32 {
        x.get_size()
    }
    fn op(&mut self, op: BvOp, a: &BV, b: &BV) -> BV {
        match op {
            BvOp::Add => a.bvadd(b),
            BvOp::Sub => a.bvsub(b),
            BvOp::Mul => a.bvmul(b),
            BvOp::UDiv => a.bvudiv(b),
            BvOp::URem => a.bvurem(b),
            BvOp::SDiv => a.bvsdiv(b),
            BvOp::SRem => a.bvsrem(b),
            BvOp::And => a.bvand(b),
            BvOp::Or => a.bvor(b),
            BvOp::Xor => a.bvxor(b),
            BvOp::Shl => rewrite::aligned(a, b).unwrap_or_else(|| a.bvshl(b)),
            BvOp::LShr => a.bvlshr(b),
            BvOp::AShr => a.bvashr(b),
        }
    }
    fn not(&mut self, a: &BV) -> BV {
        a.bvnot()
    }
    fn cmp(&mut self, op: CmpOp, a: &BV, b: &BV) -> Bool {
        match op {
            CmpOp::Eq => a.eq(b),
            // Only the solver side is broken: the interpreter that replays counterexamples keeps
            // the right meaning, which is what the replay test relies on.
            CmpOp::Ult if ult_is_broken() => a.bvslt(b),
            CmpOp::Ult => a.bvult(b),
            CmpOp::Ule => a.bvule(b),
            CmpOp::Slt => a.bvslt(b),
            CmpOp::Sle => a.bvsle(b),
        }
    }
    fn extract(&mut self, a: &BV, hi: u32, lo: u32) -> BV {
        a.extract(hi, lo)
    }
    fn concat(&mut self, hi: &BV, lo: &BV) -> BV {
        if encoding() == Encoding::Forward {
            return fold::concat(hi, lo);
        }
        hi.concat(lo)
    }
    fn zext(&mut self, a: &BV, by: u32) -> BV {
        a.zero_ext(by)
    }
    fn sext(&mut self, a: &BV, by: u32) -> BV {
        a.sign_ext(by)
    }
    fn ite(&mut self, c: &Bool, a: &BV, b: &BV) -> BV {
        if encoding() == Encoding::Forward {
            return fold::ite(c, a, b);
        }
        c.ite(a, b)
    }
    fn ite_bool(&mut self, c: &Bool, a: &Bool, b: &Bool) -> Bool {
        c.ite(a, b)
    }
    fn ite_mem(&mut self, c: &Bool, a: &Mem, b: &Mem) -> Mem {
        match c.simplify().as_bool() {
            Some(true) => a.clone(),
            Some(false) => b.clone(),
            None => mem::merge(c, a, b),
        }
    }
    fn and(&mut self, a: &Bool, b: &Bool) -> Bool {
        Bool::and(&[a, b])
    }
    fn or(&mut self, a: &Bool, b: &Bool) -> Bool {
        Bool::or(&[a, b])
    }
    fn lnot(&mut self, a: &Bool) -> Bool {
        a.not()
    }
    fn known(&self, b: &Bool) -> Option<bool> {
        b.simplify().as_bool()
    }
    fn fp(&mut self, op: FpOp, fmt: FpFmt, a: &BV, b: &BV) -> BV {
        let rm = RoundingMode::round_nearest_ties_to_even();
        let (x, y) = (float_of(fmt, a), float_of(fmt, b));
        let r = match op {
            FpOp::Add => x.add_with_rounding_mode(&y, &rm),
            FpOp::Sub => x.sub_with_rounding_mode(&y, &rm),
            FpOp::Mul => x.mul_with_rounding_mode(&y, &rm),
        };
        let nan = self.bv(fmt.canonical_nan(), fmt.width());
        r.is_nan().ite(&nan, &r.to_ieee_bv())
    }
    fn fma(&mut self, fmt: FpFmt, a: &BV, b: &BV, c: &BV) -> BV {
        let rm = RoundingMode::round_nearest_ties_to_even();
        let (x, y, z) = (float_of(fmt, a), float_of(fmt, b), float_of(fmt, c));
        let r = x.fma_with_rounding_mode(&y, &z, &rm);
        let nan = self.bv(fmt.canonical_nan(), fmt.width());
        r.is_nan().ite(&nan, &r.to_ieee_bv())
    }
    fn load(&mut self, m: &Mem, addr: &BV) -> BV {
        m.load(addr)
    }
    fn store(&mut self, m: &Mem, addr: &BV, byte: &BV) -> Mem {
        m.push(Bool::from_bool(true), addr.clone(), byte.clone())
    }
}

/// The answer to one satisfiability question.
pub enum Answer {
    /// A model: read values with [`Model::bv`].
    Sat(Model),
    /// No assignment satisfies the assertions (for a refinement query: no counterexample exists).
    Unsat,
    /// The solver gave up or hit the time limit; the reason as z3 gives it.
    Unknown(String),
}

/// A satisfying assignment: the solver's, with some inputs replaced by other values
/// ([`Model::with`]), or values alone ([`Model::from_values`], for replaying stored
/// counterexamples). Models are cheap to clone.
#[derive(Clone)]
pub struct Model {
    z3: Option<Rc<z3::Model>>,
    /// Input constants whose values replace the solver's.
    fixed: Vec<(BV, u128)>,
    /// Initial memory bytes that replace the solver's: memory name, address, byte.
    bytes: std::collections::BTreeMap<(String, u64), u8>,
}

impl Model {
    fn of(m: z3::Model) -> Model {
        Model {
            z3: Some(Rc::new(m)),
            fixed: Vec::new(),
            bytes: Default::default(),
        }
    }

    /// A model of given values, without a solver: `values` of input constants (made with
    /// [`Smt::var`]) and `bytes` of initial memories (`(memory, address, byte)`, memories made
    /// with [`Smt::mem`]/[`Smt::mem_wide`]). Everything else reads 0.
    pub fn from_values(values: &[(BV, u128)], bytes: &[(&Mem, u64, u8)]) -> Model {
        Model {
            z3: None,
            fixed: values.to_vec(),
            bytes: bytes
                .iter()
                .filter_map(|(m, a, v)| Some(((mem_name(m)?, *a), *v)))
                .collect(),
        }
    }

    /// This model with the input constant `t` set to `value`.
    pub fn with(&self, t: &BV, value: u128) -> Model {
        let mut m = self.clone();
        m.fixed.retain(|(x, _)| x != t);
        m.fixed.push((t.clone(), value));
        m
    }

    /// This model with the given initial memory bytes (`(memory, address, byte)`).
    pub fn with_bytes(&self, bytes: &[(&Mem, u64, u8)]) -> Model {
        let mut m = self.clone();
        for (mem, a, v) in bytes {
            if let Some(n) = mem_name(mem) {
                m.bytes.insert((n, *a), *v);
            }
        }
        m
    }

    /// The value of a bit-vector term (model completion on: unconstrained inputs read 0).
    /// Replaced memory bytes count only through [`Model::byte`].
    pub fn bv(&self, t: &BV) -> u128 {
        if let Some((_, v)) = self.fixed.iter().find(|(x, _)| x == t) {
            return *v;
        }
        let t = self.substituted(t);
        let v = match &self.z3 {
            // Evaluation fails when the watchdog interrupted this context (a query that
            // ignored its time limit). Reading 0 is safe: every counterexample is replayed on
            // the interpreter before it is shown, so a wrong value can only cost a replay
            // mismatch, never a wrong verdict -- and it is no panic.
            Some(m) => match m.eval(&t, true) {
                Some(v) => v,
                None => return 0,
            },
            None => t.simplify(),
        };
        let w = t.get_size();
        if w <= 64 {
            v.as_u64().unwrap_or(0) as u128
        } else {
            let hi = v.extract(w - 1, 64).simplify().as_u64().unwrap_or(0) as u128;
            let lo = v.extract(63, 0).simplify().as_u64().unwrap_or(0) as u128;
            hi << 64 | lo
        }
    }
    /// The byte at a constant address of a memory.
    pub fn byte(&self, m: &Mem, addr: u64) -> u8 {
        if let Some(v) = mem_name(m).and_then(|n| self.bytes.get(&(n, addr)).copied()) {
            return v;
        }
        if self.z3.is_none() {
            return 0;
        }
        self.bv(&m.load(&BV::from_u64(addr, m.addr_width))) as u8
    }
    /// The value of `b` in the model (replaced inputs substituted first); `false` when it does
    /// not evaluate to a constant.
    pub fn truth(&self, b: &Bool) -> bool {
        let b = self.substituted(b);
        match &self.z3 {
            Some(m) => m.eval(&b, true).and_then(|v| v.as_bool()).unwrap_or(false),
            None => b.simplify().as_bool().unwrap_or(false),
        }
    }
    /// `t` with the replaced inputs substituted by their values.
    fn substituted<T: Ast + Clone>(&self, t: &T) -> T {
        if self.fixed.is_empty() {
            return t.clone();
        }
        let consts: Vec<(BV, BV)> = self
            .fixed
            .iter()
            .map(|(x, v)| (x.clone(), Smt.bv(*v, x.get_size())))
            .collect();
        let pairs: Vec<(&BV, &BV)> = consts.iter().map(|(x, v)| (x, v)).collect();
        t.substitute(&pairs)
    }
}

/// The name of a memory's initial contents (`LDS`, `GDS`, `MEM`), if it is an input.
fn mem_name(m: &Mem) -> Option<String> {
    match &m.base {
        Base::Uf(f) => Some(f.name()),
        Base::Table(_) => None,
    }
}

/// A set of assertions decided by a fresh solver at each check. No push/pop reaches z3, so
/// z3 runs its non-incremental tactics (simplify, bit-blast, SAT), much faster on these queries.
pub struct Query {
    assertions: Vec<Bool>,
    marks: Vec<usize>,
    timeout: Duration,
    memory_mb: Option<u32>,
    /// How long the last check took (wall time).
    last: std::cell::Cell<Duration>,
    /// Set when the watchdog interrupted the context (see [`Query::interrupted`]).
    interrupted: std::sync::atomic::AtomicBool,
}

impl Query {
    /// `timeout` bounds each check (z3 `timeout` parameter, milliseconds).
    pub fn new(timeout: Duration) -> Query {
        Query {
            assertions: Vec::new(),
            marks: Vec::new(),
            timeout,
            memory_mb: None,
            last: std::cell::Cell::new(Duration::ZERO),
            interrupted: std::sync::atomic::AtomicBool::new(false),
        }
    }
    /// Bound each check's memory (z3 `max_memory` parameter, megabytes). z3 counts the
    /// memory of the whole process, so with several worker threads the bound is on their sum.
    pub fn set_memory(&mut self, mb: Option<u32>) {
        self.memory_mb = mb;
    }
    /// Add `b` to the assertions of every later check.
    pub fn assert(&mut self, b: &Bool) {
        self.assertions.push(b.clone());
    }
    /// Mark the current assertions, so [`Query::pop`] can drop those added after.
    pub fn push(&mut self) {
        self.marks.push(self.assertions.len());
    }
    /// Drop the assertions added since the matching [`Query::push`]. Panics without one.
    pub fn pop(&mut self) {
        let n = self.marks.pop().expect("pop after push");
        self.assertions.truncate(n);
    }
    fn solver(&self, timeout: Duration) -> Solver {
        solver_for(&self.assertions, timeout, self.memory_mb)
    }
    /// Decide the assertions so far.
    pub fn check(&self) -> Answer {
        self.check_within(self.timeout)
    }

    /// [`Query::check`] with a shorter time limit for this one check (`limit`, at most the
    /// query's own): for best-effort queries such as shrinking a counterexample.
    pub fn check_within(&self, limit: Duration) -> Answer {
        let limit = limit.min(self.timeout);
        let start = std::time::Instant::now();
        let answer = match backend() {
            Backend::Z3 => self.check_z3(limit),
            Backend::Bitwuzla => backend::check_bitwuzla(self, limit),
            Backend::Portfolio => backend::check_portfolio(self, limit),
        };
        self.last.set(start.elapsed());
        answer
    }

    /// [`Query::check_within`] by z3 in this thread's context.
    fn check_z3(&self, limit: Duration) -> Answer {
        let solver = self.solver(limit);
        let r = self.watched(&solver, limit);
        match r {
            // The watchdog may interrupt the context just as z3 answers: then there is no
            // model to read, and the answer is unknown (never a verdict).
            SatResult::Sat => match solver.get_model() {
                Some(m) => Answer::Sat(Model::of(m)),
                None => Answer::Unknown("interrupted after the time limit".into()),
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => {
                let r = solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".to_string());
                Answer::Unknown(match self.memory_mb {
                    Some(mb) if r.contains("memory") => {
                        format!("memory limit of {mb} MB reached (--memory; z3: {r})")
                    }
                    _ => r,
                })
            }
        }
    }

    /// `solver.check()` under a watchdog: z3's own `timeout` parameter normally ends a hard
    /// query, but if it has not returned a second after that, the watchdog interrupts the
    /// context, and the answer is `unknown` (never `proved`).
    fn watched(&self, solver: &Solver, timeout: Duration) -> SatResult {
        let ctx = z3::Context::thread_local();
        let handle = ctx.handle();
        let interrupted = &self.interrupted;
        let stop = move || {
            tracing::warn!("z3 ignored its time limit; interrupting it");
            interrupted.store(true, std::sync::atomic::Ordering::SeqCst);
            handle.interrupt();
        };
        watchdog::within(timeout + Duration::from_secs(1), stop, || solver.check())
    }

    /// Whether the watchdog has interrupted this query's context: models it gave before can no
    /// longer be evaluated (they read 0), so nothing read from them may be trusted.
    pub fn interrupted(&self) -> bool {
        self.interrupted.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How long the last [`Query::check`] took, from building the solver to its answer.
    pub fn last_check_time(&self) -> Duration {
        self.last.get()
    }

    /// The assertions as a standalone SMT-LIB 2 script (`set-logic`, declarations, asserts,
    /// `check-sat`) that other solvers accept. z3's `fp.to_ieee_bv` is not SMT-LIB: each
    /// application is replaced by a fresh bit-vector `ieee!N` with
    /// `(or (fp.isNaN r) (= ((_ to_fp e s) ieee!N) r))`. That is equisatisfiable because the
    /// encoding only reads `fp.to_ieee_bv r` under `(ite (fp.isNaN r) NAN ...)`, and a non-NaN
    /// float has exactly one bit pattern.
    pub fn to_smt2(&self) -> String {
        let text = self.solver(self.timeout).to_smt2();
        let body = if text.contains("fp.to_ieee_bv") {
            let solver = Solver::new();
            for a in portable(&self.assertions) {
                solver.assert(&a);
            }
            solver.to_smt2()
        } else {
            text
        };
        // ALL: the queries mix bit-vectors, uninterpreted functions and floating point.
        format!("(set-logic ALL)\n{body}")
    }
}

/// A fresh z3 solver with `assertions`, a time limit and an optional memory bound (MB).
fn solver_for(assertions: &[Bool], timeout: Duration, memory_mb: Option<u32>) -> Solver {
    let solver = Solver::new();
    let mut p = Params::new();
    p.set_u32(
        "timeout",
        timeout.as_millis().clamp(1, u32::MAX as u128) as u32,
    );
    if let Some(mb) = memory_mb {
        p.set_u32("max_memory", mb.max(1));
    }
    solver.set_params(&p);
    for a in assertions {
        solver.assert(a);
    }
    solver
}

/// The assertions with every `fp.to_ieee_bv` replaced as [`Query::to_smt2`] describes.
fn portable(assertions: &[Bool]) -> Vec<Bool> {
    // The terms are DAGs with much sharing: visit each node once.
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut found: Vec<Dynamic> = Vec::new();
    let mut stack: Vec<Dynamic> = assertions.iter().map(|a| Dynamic::from_ast(a)).collect();
    while let Some(t) = stack.pop() {
        if !t.is_app() || !seen.insert(t.clone()) {
            continue;
        }
        // By name: the z3 crate's kind numbers for the later declaration kinds are not those of
        // Debian 12's libz3 4.8.12 (smt/backend.rs, `declarations`).
        if t.decl().name() == "fp.to_ieee_bv" {
            found.push(t.clone());
        }
        stack.extend(t.children());
    }
    let fresh: Vec<Dynamic> = found
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let w = t.as_bv().expect("fp.to_ieee_bv is a bit-vector").get_size();
            Dynamic::from_ast(&BV::new_const(format!("ieee!{i}"), w))
        })
        .collect();
    let map: Vec<(&Dynamic, &Dynamic)> = found.iter().zip(&fresh).collect();
    let mut out: Vec<Bool> = assertions.iter().map(|a| a.substitute(&map)).collect();
    for (t, b) in found.iter().zip(&fresh) {
        // An inner `fp.to_ieee_bv` inside `r` is replaced too (simultaneous substitution).
        let r = t.children()[0].substitute(&map);
        let r = r.as_float().expect("fp.to_ieee_bv of a float");
        let f = float_of_sort(&r.get_sort(), &b.as_bv().expect("fresh bit-vector"));
        out.push(Bool::or(&[&r.is_nan(), &f.eq(&r)]));
    }
    out
}

/// Helpers the rest of the verifier uses to build constraints without naming z3.
pub mod build {
    use super::*;
    /// `join` of `xs`, or the constant `empty` when there are none.
    fn join(xs: &[Bool], empty: bool, join: fn(&[&Bool]) -> Bool) -> Bool {
        let refs: Vec<&Bool> = xs.iter().collect();
        if refs.is_empty() {
            Bool::from_bool(empty)
        } else {
            join(&refs)
        }
    }
    /// The conjunction of `xs` (`true` when empty).
    pub fn and(xs: &[Bool]) -> Bool {
        join(xs, true, |r| Bool::and(r))
    }
    /// The disjunction of `xs` (`false` when empty).
    pub fn or(xs: &[Bool]) -> Bool {
        join(xs, false, |r| Bool::or(r))
    }
    /// `a != b` (same width).
    pub fn ne(a: &BV, b: &BV) -> Bool {
        a.eq(b).not()
    }
    /// `a == b` (same width).
    pub fn eq(a: &BV, b: &BV) -> Bool {
        a.eq(b)
    }
    /// `a <= c`, unsigned, with `c` as a constant of `a`'s width.
    pub fn ule_const(a: &BV, c: u128) -> Bool {
        let w = a.get_size();
        a.bvule(Smt.bv(c, w))
    }
    /// `a == c`, with `c` as a constant of `a`'s width.
    pub fn eq_const(a: &BV, c: u128) -> Bool {
        let w = a.get_size();
        a.eq(Smt.bv(c, w))
    }
    /// The byte of `m` at address `k` (`k` of `m`'s address width).
    pub fn select(m: &Mem, k: &BV) -> BV {
        m.load(k)
    }
    /// The negation of `b`.
    pub fn not(b: &Bool) -> Bool {
        b.not()
    }
    /// Whether `a` and `b` are one term: z3 shares every term it builds (hash-consing), so
    /// two constructions of the same expression are the same AST. No reasoning, no rewriting.
    pub fn same_bv(a: &BV, b: &BV) -> bool {
        PartialEq::eq(a, b)
    }
    /// [`same_bv`] for booleans.
    pub fn same_bool(a: &Bool, b: &Bool) -> bool {
        PartialEq::eq(a, b)
    }
    /// Whether `b` is the literal constant `v` (not whether it simplifies to it).
    pub fn is_literal(b: &Bool, v: bool) -> bool {
        b.as_bool() == Some(v)
    }
    /// Whether two memories are one term: the same initial contents (the same uninterpreted
    /// function) under the same stores, store for store ([`same_bv`], [`same_bool`]).
    pub fn same_mem(a: &Mem, b: &Mem) -> bool {
        let base = match (&a.base, &b.base) {
            (Base::Uf(f), Base::Uf(g)) => Rc::ptr_eq(f, g),
            (Base::Table(f), Base::Table(g)) => Rc::ptr_eq(f, g),
            _ => false,
        };
        let (mut x, mut y) = (a.stores.clone(), b.stores.clone());
        if !base || a.addr_width != b.addr_width {
            return false;
        }
        loop {
            match (x, y) {
                (None, None) => return true,
                (Some(s), Some(t)) => {
                    if !(same_bool(&s.cond, &t.cond)
                        && same_bv(&s.addr, &t.addr)
                        && same_bv(&s.byte, &t.byte))
                    {
                        return false;
                    }
                    (x, y) = (s.prev.clone(), t.prev.clone());
                }
                _ => return false,
            }
        }
    }
}
