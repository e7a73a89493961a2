//! Replay: a model (from the solver, or rebuilt from the result cache) run on the concrete
//! interpreter, which turns it into a counterexample or shows it is none. A refutation is only
//! ever reported from a replay that shows the difference, so a wrong model costs a verdict of
//! `error`, never a wrong `refuted`.

use super::assume::fields_ok;
use super::elaborate::{Elaborated, Sides};
use super::inputs::{table, Input, Inputs};
use super::verdict::{Cex, Step};
use crate::machine::{eval_imm, step, Bound, Env, Machine, Op, RegKey};
use crate::smt::{Model, Smt};
use gcnsmt_semantics::eval::{AddrSpace, MemState, PerSpace};
use gcnsmt_semantics::interp::{CMem, Concrete};
use gcnsmt_semantics::settings::LdsLimit;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// What a check compares and its symbolic initial state: the one a solver query is built on
/// and a model is read against.
pub(super) struct Run<'a> {
    pub b: &'a Elaborated,
    pub sides: Sides<'a>,
    pub table: Vec<Input>,
    pub sym: Inputs<Smt>,
}

impl<'a> Run<'a> {
    /// Declare the inputs of `b`'s comparison as solver variables.
    pub fn new(d: &mut Smt, b: &'a Elaborated) -> Run<'a> {
        let sides = Sides::of(b);
        let alloc = [b.settings, b.to_settings]
            .iter()
            .any(|s| s.lds_limit == LdsLimit::Alloc);
        let table = table(sides.keys, &b.imms, alloc, b.lanes.is_some());
        let sym = Inputs::declare(d, &table, b.target, b.settings);
        Run {
            b,
            sides,
            table,
            sym,
        }
    }
}

/// The initial bytes a replay read (address to byte), per space.
type InitialBytes = PerSpace<BTreeMap<u64, u8>>;

/// One side of a replay: its final state, whether its fields fit, and its trace.
pub(super) struct Side {
    pub m: Machine<Concrete>,
    pub fields_ok: bool,
    pub steps: Vec<Step>,
}

/// Replay a model: without lanes, the one pair of programs; under `--lanes`, find a target
/// serialization on which every source serialization differs (what the query asked for) and
/// report the ascending source run beside it.
///
/// Errors: the replay shows no difference, or the source is not valid on the model's inputs.
pub(super) fn replay_sides(model: &Model, run: &Run) -> Result<Cex, String> {
    let sides = &run.sides;
    let Some((mode, e)) = &run.b.lanes else {
        return replay(model, run, sides.src[0], sides.tgt[0]);
    };
    let mut last = String::new();
    for (ti, t) in sides.tgt.iter().enumerate() {
        let mut first: Option<Cex> = None;
        let mut all = true;
        for s in &sides.src {
            match replay(model, run, s, t) {
                Ok(c) => {
                    first.get_or_insert(c);
                }
                Err(err) => {
                    last = err;
                    all = false;
                    break;
                }
            }
        }
        if all {
            let mut c = first.expect("at least one source serialization");
            let order = e.tgt[ti].describe();
            c.lanes = Some(if sides.src.len() == 1 && sides.tgt.len() == 1 {
                mode.describe()
            } else {
                format!(
                    "{}; target serialization: {}; all {} source serialization(s) differ (shown: \
                 ascending)",
                    mode.describe(),
                    if order.is_empty() {
                        "ascending".to_string()
                    } else {
                        order
                    },
                    sides.src.len()
                )
            });
            return Ok(c);
        }
    }
    Err(format!(
        "no target serialization differs from every source serialization ({last})"
    ))
}

/// Replay one source and one target program on the model's inputs.
fn replay(model: &Model, run: &Run, src: &[Bound], tgt: &[Bound]) -> Result<Cex, String> {
    let inputs = run
        .table
        .iter()
        .filter_map(|i| Some((i.name.clone(), model.bv(run.sym.at(&i.slot)), i.shown?)))
        .collect();
    let zeros = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let x = run.sym.concrete(model, zeros);
    let (s, t, seen) = settle(model, run, &x, src, tgt)?;
    if !s.fields_ok || s.m.mem.ub {
        return Err("the source is not valid on the replayed inputs".into());
    }
    let tenv = x.env.on(run.b.to, run.b.to_settings);
    let mut first = if !t.fields_ok {
        Some(encoding_failure(tgt, &tenv, &x.m0))
    } else if t.m.mem.ub {
        Some("the target is undefined where the source is defined".to_string())
    } else {
        None
    };
    let regs = register_differences(&run.sides, src, tgt, &s, &t, &mut first);
    let mem_diffs = memory_differences(&s, &t, &mut first);
    let Some(first_difference) = first else {
        return Err("the concrete run shows no difference".into());
    };
    let b = run.b;
    Ok(Cex {
        inputs,
        mem: seen.map(|_, bytes| bytes.iter().map(|(a, v)| (*a, *v)).collect()),
        vsharp: vsharps(b, &x.m0.regs),
        steps: (s.steps, t.steps),
        regs,
        mem_diffs,
        first_difference,
        lanes: None,
        targets: (b.to != b.target).then_some((b.target, b.to)),
    })
}

/// Each V# the two sides read, decoded by the layout of the side that reads it; a cross-target
/// rule's descriptor read by both sides is shown once per layout (`(on gfx1100)`).
fn vsharps(
    b: &Elaborated,
    regs: &BTreeMap<RegKey, gcnsmt_semantics::interp::Bits>,
) -> Vec<(String, Vec<(&'static str, u128)>)> {
    use crate::machine::buffer::vsharps;
    if b.to == b.target {
        return vsharps(b.src.iter().chain(&b.tgt), regs, b.target);
    }
    let mut out = vsharps(b.src.iter(), regs, b.target);
    for (name, fields) in vsharps(b.tgt.iter(), regs, b.to) {
        out.push((format!("{name} (on {})", b.to), fields));
    }
    out
}

/// Run both programs with initial memory from the model, byte by byte as the interpreter asks
/// for it, until no run asks for a byte not yet fetched. The interpreter's memory function is
/// 'static, so it cannot query the model: each round notes the addresses it asked for that
/// were not fetched yet, fetches them, and runs again. Returns both sides and the initial
/// bytes read, per space.
///
/// Errors: a step fails, or the reads do not settle in 8 rounds.
pub(super) fn settle(
    model: &Model,
    run: &Run,
    x: &Inputs<Concrete>,
    src: &[Bound],
    tgt: &[Bound],
) -> Result<(Side, Side, InitialBytes), String> {
    let arrays = &run.sym.m0.mem;
    let mut need: PerSpace<BTreeSet<u64>> = PerSpace::default();
    for _round in 0..8 {
        let missing: PerSpace<Rc<RefCell<BTreeSet<u64>>>> = PerSpace::default();
        let known: InitialBytes = need.map(|s, addrs| {
            addrs
                .iter()
                .map(|a| (*a, model.byte(&arrays[s], *a)))
                .collect()
        });
        let mem = MemState::new(
            |s| {
                let (known, miss) = (known[s].clone(), missing[s].clone());
                CMem::new_wide(move |a| {
                    known.get(&a).copied().unwrap_or_else(|| {
                        miss.borrow_mut().insert(a);
                        0
                    })
                })
            },
            false,
        );
        let start = Machine {
            regs: x.m0.regs.clone(),
            mem,
        };
        let mut d = Concrete;
        let s = run_side(&mut d, &x.env, &start, src)?;
        let tenv = x.env.on(run.b.to, run.b.to_settings);
        let t = run_side(&mut d, &tenv, &start, tgt)?;
        // Bytes stored by one side only are compared with the other side's initial byte, which
        // the interpreter never read: fetch those too.
        let more: PerSpace<BTreeSet<u64>> = PerSpace::from_fn(|sp| {
            let mut more = missing[sp].borrow().clone();
            for m in [&s.m.mem[sp], &t.m.mem[sp]] {
                more.extend(m.written.keys().filter(|a| !need[sp].contains(a)));
            }
            more
        });
        if more.values().all(|x| x.is_empty()) {
            return Ok((s, t, known));
        }
        for (sp, addrs) in need.iter_mut() {
            addrs.extend(more[sp].iter().copied());
        }
    }
    Err("memory reads did not settle".into())
}

/// Run one program from `start`, recording each instruction's writes.
///
/// Errors: a field or a step fails to evaluate.
fn run_side(
    d: &mut Concrete,
    env: &Env<Concrete>,
    start: &Machine<Concrete>,
    prog: &[Bound],
) -> Result<Side, String> {
    let mut m = start.clone();
    let ok = fields_ok(d, env, &m, prog)?;
    let mut steps = Vec::new();
    for i in prog {
        let before = m.mem.clone();
        // A lane whose EXEC bit is clear runs nothing: say so in the trace.
        let inactive = match &i.op {
            Op::Lane { lane, .. } => {
                let id = m.regs[&RegKey::lane_id(*lane)].value;
                let lo = m.regs[&RegKey::exec_lo()].value;
                let hi = m.regs.get(&RegKey::exec_hi()).map_or(0, |b| b.value);
                (hi << 32 | lo) >> id & 1 == 0
            }
            _ => false,
        };
        step(d, env, &mut m, i)?;
        let writes = if inactive {
            Vec::new()
        } else {
            i.writes()
                .iter()
                // A dead SCC (`Dead: scc`, every rule tv lowers) is no input and not traced.
                .filter(|k| **k != RegKey::scc() || start.regs.contains_key(k))
                .map(|k| (k.to_string(), m.regs[k].value as u32))
                .collect()
        };
        let mut mem_writes = Vec::new();
        for space in AddrSpace::ALL {
            let (old, new) = (&before[space], &m.mem[space]);
            let n = new
                .written
                .iter()
                .filter(|(a, v)| old.get64(**a) != **v)
                .count();
            if n > 0 {
                mem_writes.push((space.label(), n));
            }
        }
        steps.push(Step {
            text: if inactive {
                format!("{} (inactive)", i.text)
            } else {
                i.text.clone()
            },
            writes,
            mem_writes,
        });
    }
    Ok(Side {
        m,
        fields_ok: ok,
        steps,
    })
}

/// Why the target cannot be encoded on the replayed inputs: the first field out of range.
fn encoding_failure(tgt: &[Bound], env: &Env<Concrete>, m0: &Machine<Concrete>) -> String {
    let mut d = Concrete;
    let bad = tgt
        .iter()
        .flat_map(|i| i.fields.iter().map(move |f| (i, f)))
        .find_map(|(i, f)| {
            let v = eval_imm(&mut d, env, m0, &f.expr).ok()?.value;
            (v > f.max as u128).then(|| {
                format!(
                    "the target cannot be encoded: {}:{} = {v} does not fit 0..={} (line {})",
                    f.name,
                    gcnsmt_semantics::print::expr_to_string(&f.expr),
                    f.max,
                    i.loc.line
                )
            })
        });
    bad.unwrap_or_else(|| {
        "the target has an immediate out of range (it cannot be encoded)".to_string()
    })
}

/// The final registers to show (every one either program writes, and every one that differs;
/// SCC, which every SALU op writes, only where it differs) as (name, source value, target
/// value); sets `first` to the first live one that differs.
fn register_differences(
    sd: &Sides,
    src: &[Bound],
    tgt: &[Bound],
    s: &Side,
    t: &Side,
    first: &mut Option<String>,
) -> Vec<(String, u32, u32)> {
    let mut out = Vec::new();
    for k in sd.keys.iter() {
        let (x, y) = (s.m.regs[k].value as u32, t.m.regs[k].value as u32);
        let written = *k != RegKey::scc() && src.iter().chain(tgt).any(|i| i.writes().contains(k));
        if written || x != y {
            out.push((k.to_string(), x, y));
        }
        if x != y && !sd.dead.contains(k) && first.is_none() {
            *first = Some(k.to_string());
        }
    }
    out
}

/// The final memory bytes that differ, as (space, address, source byte, target byte); sets
/// `first` to the first one if it is still unset.
fn memory_differences(
    s: &Side,
    t: &Side,
    first: &mut Option<String>,
) -> Vec<(&'static str, u64, u8, u8)> {
    let mut out = Vec::new();
    for space in AddrSpace::ALL {
        let (ms, mt) = (&s.m.mem[space], &t.m.mem[space]);
        let space = space.label();
        let addrs: BTreeSet<u64> = ms
            .written
            .keys()
            .chain(mt.written.keys())
            .copied()
            .collect();
        for a in addrs {
            let (x, y) = (ms.get64(a), mt.get64(a));
            if x != y {
                out.push((space, a, x, y));
                if first.is_none() {
                    *first = Some(format!("{space}[0x{a:x}]"));
                }
            }
        }
    }
    out
}
