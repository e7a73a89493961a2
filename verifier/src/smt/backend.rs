//! Which solver decides a [`Query`]: z3 in process (the default), Bitwuzla in a worker
//! process ([`super::bitwuzla`]), or both at once, taking the first answer (portfolio).
//!
//! Bitwuzla's answers come back as z3 answers, so the rest of the verifier is unchanged:
//! `unsat` as is; `sat` as a z3 model rebuilt from Bitwuzla's values of the inputs and of the
//! memories at the addresses the query reads, and kept only if z3 evaluates every assertion of
//! the query to true under it (otherwise `unknown`, never a verdict). Such a model is then
//! shrunk and replayed on the interpreter exactly as z3's own.

use super::bitwuzla::{self, Reply};
use super::{Answer, Model, Query};
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{FuncDecl, PrepareSynchronized, SatResult, Synchronized};

/// The solver choice of `--solver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// z3 in process (the default; the reference of `--cross-check`).
    Z3,
    /// Bitwuzla in a worker process.
    Bitwuzla,
    /// Both on each query at once; the first decided answer wins.
    Portfolio,
}

impl Backend {
    /// The names `--solver` accepts.
    pub const NAMES: [&'static str; 3] = ["z3", "bitwuzla", "portfolio"];

    /// The name as `--solver` takes it.
    pub fn name(self) -> &'static str {
        Backend::NAMES[self as usize]
    }
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "z3" => Ok(Backend::Z3),
            "bitwuzla" => Ok(Backend::Bitwuzla),
            "portfolio" => Ok(Backend::Portfolio),
            _ => Err(format!("unknown solver `{s}` (z3, bitwuzla or portfolio)")),
        }
    }
}

static BACKEND: AtomicU8 = AtomicU8::new(Backend::Z3 as u8);

/// Use `b` for every later query of this process.
///
/// Errors: `b` needs Bitwuzla and its worker cannot start.
pub fn set_backend(b: Backend) -> Result<(), String> {
    if b != Backend::Z3 {
        bitwuzla::available()?;
    }
    BACKEND.store(b as u8, Ordering::SeqCst);
    Ok(())
}

/// The solver choice in force.
pub fn backend() -> Backend {
    match BACKEND.load(Ordering::SeqCst) {
        1 => Backend::Bitwuzla,
        2 => Backend::Portfolio,
        _ => Backend::Z3,
    }
}

/// Bitwuzla alone.
pub(super) fn check_bitwuzla(q: &Query, limit: Duration) -> Answer {
    let reply = match bitwuzla::start(&q.to_smt2(), limit) {
        Ok(p) => p.wait(),
        Err(e) => Reply::Unknown(e),
    };
    from_reply(&q.assertions, reply)
}

fn from_reply(assertions: &[Bool], reply: Reply) -> Answer {
    match reply {
        Reply::Unsat => Answer::Unsat,
        Reply::Unknown(r) => Answer::Unknown(r),
        Reply::Sat { consts, apps } => transfer(assertions, &consts, &apps),
    }
}

/// The constants and functions of `assertions` named in `names` (those Bitwuzla read from the
/// query's declarations), by name. Matched by name, not by z3's declaration kind: the kind
/// numbers of the z3 crate's bindings are not those of every libz3 it links (Debian 12's
/// 4.8.12 numbers the later kinds differently), and a declared name is never a built-in one.
fn declarations(
    assertions: &[Bool],
    names: &HashSet<&str>,
) -> (HashMap<String, Dynamic>, HashMap<String, FuncDecl>) {
    let (mut consts, mut funs) = (HashMap::new(), HashMap::new());
    let mut seen: HashSet<Dynamic> = HashSet::new();
    let mut stack: Vec<Dynamic> = assertions.iter().map(|a| Dynamic::from_ast(a)).collect();
    while let Some(t) = stack.pop() {
        if !t.is_app() || !seen.insert(t.clone()) {
            continue;
        }
        let d = t.decl();
        let name = d.name();
        if names.contains(name.as_str()) {
            if d.arity() == 0 {
                consts.insert(name, t.clone());
            } else {
                funs.insert(name, d);
            }
        }
        stack.extend(t.children());
    }
    (consts, funs)
}

/// A bit-vector numeral from binary digits (any width).
fn bv_of_bits(bits: &str) -> Option<BV> {
    let mut out: Option<BV> = None;
    let first = match bits.len() % 64 {
        0 => 64,
        r => r,
    };
    let mut at = 0;
    while at < bits.len() {
        let len = if at == 0 { first } else { 64 };
        let chunk = bits.get(at..at + len)?;
        let v = BV::from_u64(u64::from_str_radix(chunk, 2).ok()?, len as u32);
        out = Some(match out {
            None => v,
            Some(hi) => hi.concat(&v),
        });
        at += len;
    }
    out
}

/// A value of the sort of `like` from its text.
fn value_like(like: &Dynamic, text: &str) -> Option<Dynamic> {
    if like.as_bool().is_some() {
        return match text {
            "true" => Some(Dynamic::from_ast(&Bool::from_bool(true))),
            "false" => Some(Dynamic::from_ast(&Bool::from_bool(false))),
            _ => None,
        };
    }
    let v = bv_of_bits(text)?;
    (like.as_bv()?.get_size() == v.get_size()).then(|| Dynamic::from_ast(&v))
}

/// A z3 model of `assertions` from Bitwuzla's values, or unknown if the values are not one.
/// z3 builds the model from ground equalities (each input = its value, each memory read at
/// its address values = its value), which it decides by evaluation alone.
fn transfer(assertions: &[Bool], consts: &[(String, String)], apps: &[Fun]) -> Answer {
    let bad = |why: &str| Answer::Unknown(format!("Bitwuzla's model is not one ({why})"));
    let names: HashSet<&str> = (consts.iter().map(|c| c.0.as_str()))
        .chain(apps.iter().map(|a| a.0.as_str()))
        .collect();
    let (known, funs) = declarations(assertions, &names);
    let solver = z3::Solver::new();
    for (name, text) in consts {
        // Names the query does not use (the `ieee!N` of to_smt2) are skipped.
        let Some(c) = known.get(name) else { continue };
        let Some(v) = value_like(c, text) else {
            return bad(&format!("value {text} for {name}"));
        };
        solver.assert(c.eq(&v));
    }
    for (name, args, text) in apps {
        let Some(f) = funs.get(name) else { continue };
        let Some(args) = args
            .iter()
            .map(|a| bv_of_bits(a))
            .collect::<Option<Vec<BV>>>()
        else {
            return bad(&format!("arguments of {name}"));
        };
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        let app = f.apply(&refs);
        let Some(v) = value_like(&app, text) else {
            return bad(&format!("value {text} of {name}"));
        };
        solver.assert(app.eq(&v));
    }
    if solver.check() != SatResult::Sat {
        return bad("its values contradict each other");
    }
    let Some(m) = solver.get_model() else {
        return bad("no model");
    };
    let holds = |a: &Bool| m.eval(a, true).and_then(|v| v.as_bool()) == Some(true);
    if let Some(a) = assertions.iter().find(|a| !holds(a)) {
        tracing::debug!(
            "Bitwuzla's model {m} makes {a} evaluate to {:?}",
            m.eval(a, true)
        );
        return bad("an assertion is false under it");
    }
    Answer::Sat(Model::of(m))
}

type Fun = (String, Vec<String>, String);

/// The z3 side of a portfolio, run on its own thread and context.
enum Z3Side {
    Sat(Synchronized<z3::Model>),
    Unsat,
    Unknown(String),
}

/// The z3 side's state: running, finished, or told to stop (the other side answered).
struct Flag {
    state: Mutex<u8>,
    wake: Condvar,
}
const RUNNING: u8 = 0;
const DONE: u8 = 1;
const STOP: u8 = 2;

impl Flag {
    /// Move from running to `s`; returns the state then (`STOP` set first stays).
    fn set(&self, s: u8) -> u8 {
        let mut g = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if *g == RUNNING {
            *g = s;
        }
        self.wake.notify_all();
        *g
    }
}

fn z3_side(
    shared: &Synchronized<Vec<Bool>>,
    memory_mb: Option<u32>,
    limit: Duration,
    flag: &Flag,
) -> Z3Side {
    // A thread's first z3 use makes its own context: the terms are translated into it, and
    // interrupting it leaves the caller's context usable.
    let assertions = shared.recover();
    let solver = super::solver_for(&assertions, limit, memory_mb);
    let ctx = z3::Context::thread_local();
    let grace = limit + Duration::from_secs(1);
    let r = std::thread::scope(|s| {
        let handle = ctx.handle();
        s.spawn(move || {
            let g = flag.state.lock().unwrap_or_else(|e| e.into_inner());
            let (g, _) = (flag.wake)
                .wait_timeout_while(g, grace, |st| *st == RUNNING)
                .unwrap_or_else(|e| e.into_inner());
            if *g != DONE {
                handle.interrupt();
            }
        });
        let r = solver.check();
        (r, flag.set(DONE))
    });
    // Told to stop: the context may be interrupted, so nothing more is read from it.
    if r.1 == STOP {
        return Z3Side::Unknown("stopped: Bitwuzla answered first".into());
    }
    match r.0 {
        SatResult::Sat => match solver.get_model() {
            Some(m) => Z3Side::Sat(m.synchronized()),
            None => Z3Side::Unknown("interrupted".into()),
        },
        SatResult::Unsat => Z3Side::Unsat,
        SatResult::Unknown => Z3Side::Unknown(
            solver
                .get_reason_unknown()
                .unwrap_or_else(|| "unknown".into()),
        ),
    }
}

enum Side {
    Z3(Z3Side),
    Bitwuzla(Reply),
}

/// How long Bitwuzla runs alone before z3 joins it on a query. Most queries take Bitwuzla a
/// few milliseconds: those never pay for a second solver (on two cores, running both on
/// every query doubled the CPU time and made the corpus slower than either alone).
const HEAD_START: Duration = Duration::from_millis(200);

/// Bitwuzla on the query, joined by z3 if it has not answered within [`HEAD_START`]; the
/// first decided answer wins and the other solver is stopped. Unknown only when both are.
pub(super) fn check_portfolio(q: &Query, limit: Duration) -> Answer {
    let pending = match bitwuzla::start(&q.to_smt2(), limit) {
        Ok(p) => p,
        Err(_) => return q.check_z3(limit),
    };
    let cancel = pending.canceller();
    let flag = Flag {
        state: Mutex::new(RUNNING),
        wake: Condvar::new(),
    };
    let (tx, rx) = std::sync::mpsc::channel::<Side>();
    let txb = tx.clone();
    let memory_mb = q.memory_mb;
    std::thread::scope(|s| {
        s.spawn(move || txb.send(Side::Bitwuzla(pending.wait())));
        let mut unknown = Vec::new();
        if let Ok(Side::Bitwuzla(reply)) = rx.recv_timeout(HEAD_START.min(limit)) {
            match from_reply(&q.assertions, reply) {
                Answer::Unknown(r) => unknown.push(r),
                decided => return decided,
            }
        }
        let waiting = if unknown.is_empty() { 2 } else { 1 };
        let shared = q.assertions.as_slice().synchronized();
        let flag_ref = &flag;
        s.spawn(move || tx.send(Side::Z3(z3_side(&shared, memory_mb, limit, flag_ref))));
        for side in rx.iter().take(waiting) {
            let answer = match side {
                Side::Bitwuzla(reply) => from_reply(&q.assertions, reply),
                Side::Z3(Z3Side::Sat(m)) => Answer::Sat(Model::of(m.recover())),
                Side::Z3(Z3Side::Unsat) => Answer::Unsat,
                Side::Z3(Z3Side::Unknown(r)) => Answer::Unknown(format!("z3: {r}")),
            };
            match answer {
                Answer::Unknown(r) => unknown.push(r),
                decided => {
                    flag.set(STOP);
                    cancel.cancel();
                    return decided;
                }
            }
        }
        Answer::Unknown(unknown.join("; "))
    })
}
