//! Test vectors from a rule's source side (`gcnsmt vectors`): for each edge predicate of the
//! source program (from [`crate::vectors`]), a model of the check's own assumptions (input
//! ranges, precondition, the source encodable and defined) that makes it true, with don't-care
//! inputs and memory bytes set to random values where the predicate allows, replayed on the
//! interpreter for the expected outputs. The replay, not the model, gives every expected value.

use super::assume::{fields_ok, precondition, ranges};
use super::elaborate::elaborate;
use super::inputs::Slot;
use super::options::Options;
use super::replay::{settle, Run};
use crate::machine::{exec, Bound, Env, Machine};
use crate::rules::{InputError, Rule};
use crate::smt::{build, Answer, Model, Prop, Query, Smt};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{AddrSpace, MemState, PerSpace};
use gcnsmt_semantics::interp::CMem;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One concrete run of a source program: its inputs and what it left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Inputs as a counterexample names them (`v1`, `s[8]`, `m0`, `LDS_SIZE`, `LANE_ID`):
    /// value and width in bits.
    pub inputs: Vec<(String, u128, u32)>,
    /// Initial memory bytes (address, byte) per space: every byte the run read or wrote;
    /// every other byte is 0.
    pub mem: PerSpace<Vec<(u64, u8)>>,
    /// The final value of every register the program writes.
    pub regs: Vec<(String, u32)>,
    /// The final value of every byte the program wrote, per space.
    pub mem_out: PerSpace<Vec<(u64, u8)>>,
    /// Whether the run hit `UNDEFINED` (never, for a generated vector).
    pub undefined: bool,
}

/// The vectors of one rule on one target.
pub struct Probed {
    /// The settings the vectors were made under.
    pub settings: Settings,
    /// Each vector with the labels of the edges it covers (the one asked for first).
    pub vectors: Vec<(Vec<String>, Witness)>,
    /// Edges no input reaches under the assumptions.
    pub unreachable: Vec<String>,
    /// Edges the solver did not decide in time.
    pub unknown: Vec<String>,
}

/// The edge predicates of a program over its symbolic initial state.
pub type EdgeFn = fn(&Env<Smt>, &Machine<Smt>, &[Bound]) -> Result<Vec<(String, Prop)>, String>;

/// Up to `max` vectors covering the edges `edges` finds in `rule`'s source on `target`
/// (a first vector, `random`, asks for nothing but random values). `seed` fixes the random
/// values.
///
/// Errors: the rule does not elaborate on `target`, or its semantics fail to evaluate (at
/// the rule's `Name:` line).
pub fn probe(
    rule: &Rule,
    target: Target,
    opts: &Options,
    edges: EdgeFn,
    seed: u64,
    max: usize,
) -> Result<Probed, InputError> {
    let b = elaborate(rule, target, opts)?;
    let err = |e: String| rule.error(rule.loc, e);
    let mut d = Smt;
    let run = Run::new(&mut d, &b);
    let x = &run.sym;
    let mut assumptions = ranges(&mut d, &b, x);
    assumptions.extend(precondition(&mut d, &b, x).map_err(err)?);
    assumptions.push(fields_ok(&mut d, &x.env, &x.m0, &b.src).map_err(err)?);
    let mut ms = x.m0.clone();
    exec(&mut d, &x.env, &mut ms, &b.src).map_err(err)?;
    assumptions.push(build::not(&ms.mem.ub));
    let mut preds = vec![("random".to_string(), d.boolean(true))];
    preds.extend(edges(&x.env, &x.m0, &b.src).map_err(err)?);
    let mut q = Query::new(opts.timeout);
    q.set_memory(opts.memory_mb);
    for a in &assumptions {
        q.assert(a);
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Probed {
        settings: b.settings,
        vectors: Vec::new(),
        unreachable: Vec::new(),
        unknown: Vec::new(),
    };
    let mut covered = vec![false; preds.len()];
    for i in 0..preds.len() {
        if covered[i] {
            continue;
        }
        if out.vectors.len() >= max {
            break;
        }
        let (label, p) = &preds[i];
        q.push();
        q.assert(p);
        match q.check() {
            Answer::Unsat => out.unreachable.push(label.clone()),
            Answer::Unknown(_) => out.unknown.push(label.clone()),
            Answer::Sat(m) => {
                let checks: Vec<&Prop> = assumptions.iter().chain([p]).collect();
                let m = randomize(&mut q, &run, m, &checks, &mut rng);
                let w = witness(&m, &run, &b.src).map_err(err)?;
                let mut labels = vec![label.clone()];
                covered[i] = true;
                for (j, (l, pj)) in preds.iter().enumerate() {
                    if !covered[j] && m.truth(pj) {
                        covered[j] = true;
                        labels.push(l.clone());
                    }
                }
                out.vectors.push((labels, w));
            }
        }
        q.pop();
    }
    Ok(out)
}

/// A random value for an input slot, inside the ranges the assumptions allow where that is
/// cheap to say (LDS_SIZE at most 64 KiB, LANE_ID below 32), so the first try often holds.
fn random_value(slot: &Slot, width: u32, rng: &mut StdRng) -> u128 {
    let v: u128 = rng.gen::<u128>() & ((1u128 << width.min(127)) - 1);
    match slot {
        Slot::LdsSize => v % 0x1_0001,
        Slot::LaneId => v % 32,
        Slot::Imm(_) => v & 0xffff_ffff,
        Slot::Reg(_) => v,
    }
}

/// `m`, with as many inputs as `checks` (the assumptions and the edge predicate) allow set to
/// random values (all at once, else one at a time; judged by evaluating `checks` in the
/// model, no solver query; an input that cannot take its value so is tried once more with a
/// solver query, [`retie`]), then the initial memory bytes the run reads set to random bytes
/// if a solver query with every input fixed finds the predicate still holds. Leaves `q` as it
/// found it.
fn randomize(q: &mut Query, run: &Run, m: Model, checks: &[&Prop], rng: &mut StdRng) -> Model {
    let fixes: Vec<(&crate::smt::Term, u128)> = run
        .table
        .iter()
        .map(|i| (run.sym.at(&i.slot), random_value(&i.slot, i.width, rng)))
        .collect();
    let ok = |mm: &Model| checks.iter().all(|c| mm.truth(c));
    let all = fixes.iter().fold(m.clone(), |mm, (t, v)| mm.with(t, *v));
    let m = if ok(&all) {
        all
    } else {
        let mut cur = m;
        let mut tied = Vec::new();
        for (t, v) in &fixes {
            let c = cur.with(t, *v);
            if ok(&c) {
                cur = c;
            } else {
                tied.push((*t, *v));
            }
        }
        retie(q, run, cur, &tied)
    };
    // Memory: random bytes wherever the run reads, if the predicate still holds with them.
    let Ok((_, _, seen)) = settle_with(&m, run) else {
        return m;
    };
    let mut d = Smt;
    let mut extra: Vec<Prop> = run
        .table
        .iter()
        .map(|i| build::eq_const(run.sym.at(&i.slot), m.bv(run.sym.at(&i.slot))))
        .collect();
    let n = extra.len();
    for (s, addrs) in seen.iter() {
        let mem = &run.sym.m0.mem[s];
        for a in addrs.keys() {
            let addr = d.bv(*a as u128, s.addr_width());
            let cell = d.load(mem, &addr);
            extra.push(build::eq_const(&cell, rng.gen::<u8>() as u128));
        }
    }
    if extra.len() == n {
        return m;
    }
    q.push();
    let out = try_with(q, &extra).unwrap_or(m);
    q.pop();
    out
}

/// `m`, with each input of `tied` (one the predicate ties to memory or to other inputs, so
/// that it could not take its random value in `m`: `tmp == DATA` with `tmp` read from memory)
/// set to its random value where a solver query with every other input fixed and memory
/// free finds the assertions still hold. Without it such inputs keep the solver's value,
/// often 0, where a mutant may give the same result (`tmp >= DATA ? tmp - DATA : tmp` against
/// `>` at `tmp == DATA == 0`). Leaves `q` as it found it.
fn retie(q: &mut Query, run: &Run, mut m: Model, tied: &[(&crate::smt::Term, u128)]) -> Model {
    for (t, v) in tied {
        let mut fix: Vec<Prop> = run
            .table
            .iter()
            .map(|i| run.sym.at(&i.slot))
            .filter(|x| x != t)
            .map(|x| build::eq_const(x, m.bv(x)))
            .collect();
        fix.push(build::eq_const(t, *v));
        q.push();
        if let Some(n) = try_with(q, &fix) {
            m = n;
        }
        q.pop();
    }
    m
}

/// A model of `q`'s assertions with `extra` asserted too (in the caller's scope), if any.
fn try_with(q: &mut Query, extra: &[Prop]) -> Option<Model> {
    for e in extra {
        q.assert(e);
    }
    match q.check() {
        Answer::Sat(m) => Some(m),
        _ => None,
    }
}

type Settled = (
    super::replay::Side,
    super::replay::Side,
    PerSpace<std::collections::BTreeMap<u64, u8>>,
);

fn settle_with(m: &Model, run: &Run) -> Result<Settled, String> {
    let zeros = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let x = run.sym.concrete(m, zeros);
    settle(m, run, &x, &run.b.src, &run.b.src)
}

/// The concrete run of `prog` on `m`'s inputs.
fn witness(m: &Model, run: &Run, prog: &[Bound]) -> Result<Witness, String> {
    let (s, _, seen) = settle_with(m, run)?;
    let inputs = run
        .table
        .iter()
        .filter_map(|i| Some((i.name.clone(), m.bv(run.sym.at(&i.slot)), i.shown?)))
        .collect();
    let mut regs = Vec::new();
    for b in prog {
        for k in b.writes() {
            let v = s.m.regs[&k].value as u32;
            let name = k.to_string();
            regs.retain(|(n, _): &(String, u32)| *n != name);
            regs.push((name, v));
        }
    }
    Ok(Witness {
        inputs,
        mem: seen.map(|_, bytes| bytes.iter().map(|(a, v)| (*a, *v)).collect()),
        regs,
        mem_out: PerSpace::from_fn(|sp: AddrSpace| {
            s.m.mem[sp].written.iter().map(|(a, v)| (*a, *v)).collect()
        }),
        undefined: s.m.mem.ub,
    })
}

/// Run `rule`'s source on `target` from stored inputs and initial bytes (every other byte 0),
/// as `gcnsmt vectors --check` does to compare a vector's expected outputs with the current
/// semantics. The result's `inputs` and `mem` are the ones given.
///
/// Errors: the rule does not elaborate, an input the program needs is missing, or the
/// semantics fail to evaluate.
pub fn replay_inputs(
    rule: &Rule,
    target: Target,
    opts: &Options,
    inputs: &[(String, u128)],
    mem: &PerSpace<Vec<(u64, u8)>>,
) -> Result<Witness, String> {
    let b = elaborate(rule, target, opts).map_err(|e| e.to_string())?;
    let run = Run::new(&mut Smt, &b);
    let mut values = Vec::new();
    for i in &run.table {
        let v = match (inputs.iter().find(|(n, _)| *n == i.name), &i.slot) {
            (Some((_, v)), _) => *v,
            (None, Slot::LdsSize | Slot::LaneId) => 0,
            (None, _) => return Err(format!("input `{}` missing", i.name)),
        };
        values.push((run.sym.at(&i.slot).clone(), v));
    }
    let m = &run.sym.m0.mem;
    let bytes: Vec<(&crate::smt::Mem, u64, u8)> = (mem.iter())
        .flat_map(|(s, bs)| bs.iter().map(move |(a, v)| (&m[s], *a, *v)))
        .collect();
    let model = Model::from_values(&values, &bytes);
    witness(&model, &run, &b.src)
}

/// The width in bits of each input [`replay_inputs`] reads, by name (registers, immediates,
/// `LDS_SIZE`, `LANE_ID`), so that a caller can refuse a value wider than its input instead of
/// having it truncated. Errors: the binding's, as for [`replay_inputs`].
pub fn input_widths(
    rule: &Rule,
    target: Target,
    opts: &Options,
) -> Result<Vec<(String, u32)>, String> {
    let b = elaborate(rule, target, opts).map_err(|e| e.to_string())?;
    let run = Run::new(&mut Smt, &b);
    Ok(run
        .table
        .iter()
        .map(|i| (i.name.clone(), i.width))
        .collect())
}

/// Whether `rule` binds on `target` (every instruction known there, with semantics and
/// operands the binding accepts): what `gcnsmt coverage` reports an opcode as unsupported by.
///
/// Errors: the binding's input error, as `verify` would report it.
pub fn binds(rule: &Rule, target: Target, opts: &Options) -> Result<(), InputError> {
    elaborate(rule, target, opts).map(|_| ())
}
