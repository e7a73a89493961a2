//! Shrinking a counterexample: once the refinement query is satisfiable (the rule is refuted),
//! the inputs are pushed toward small values and the memory bytes toward a readable pattern,
//! so the printed counterexample is easy to follow.
//!
//! Shrinking is best effort: the verdict is already known, and whatever model it ends with is
//! replayed on the concrete interpreter like the first one (which is what makes it a
//! counterexample). Solver queries get short time limits ([`Budget`]); one that runs out of
//! time or memory only keeps the values found so far.
//!
//! Inputs are shrunk in a fixed order (immediates, registers, LDS_SIZE, LANE_ID), each to the
//! first of its goals that can hold: 0, else at most 0xff, else at most 0xffff; M0 and
//! LDS_SIZE are tried at their largest first (every access in range). A goal that holds is kept
//! (asserted) for the inputs after it. Most goals cost no solver query, or a small one:
//!
//! - every input at its first goal at once is tried first (replay, then one query): when that
//!   holds, no input can do better and nothing else is asked;
//! - a goal the input's value in the current model already meets is kept as it is;
//! - each goal is tried on the concrete interpreter, changing only that input (to the goal's
//!   value, or its value masked to 0xff / 0xffff) and replaying;
//! - an exact goal (0, or the largest value) is then asked of the solver with every other
//!   input fixed at its current value: only this input and the memory contents may change, so
//!   the query is small (about 10 ms);
//! - the solver with the other inputs free (as large as the refinement query) is asked only
//!   for the largest value of M0 and LDS_SIZE, and to bring an input above 0xff down to at
//!   most 0xff or 0xffff; when that works, the better goals get the cheap tries again. An input
//!   already at most 0xff is never worth such a query.
//!
//! Memory bytes are then set to their address's low byte (00 01 02 ...) and replayed, all at
//! once or else byte by byte, without a query.

use crate::machine::{Env, Machine, RegKey};
use crate::smt::{build, Answer, Mem, Model, Prop, Query, Smt, Term};
use std::time::{Duration, Instant};

/// Time limits for shrinking.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// No shrinking query starts after this.
    pub deadline: Instant,
    /// The time limit of each shrinking query.
    pub per_query: Duration,
}

impl Budget {
    /// The budget after a refinement query that took `first` under the per-query limit
    /// `timeout`: each shrinking query gets four times the first query's time (at least
    /// 200 ms), and no query starts after ten times it (at least 1 s); neither more than
    /// `timeout`. Replays on the interpreter go on after the deadline (they take microseconds
    /// to milliseconds).
    pub fn after(first: Duration, timeout: Duration) -> Budget {
        let per_query = (first * 4).max(Duration::from_millis(200)).min(timeout);
        let total = (first * 10).max(Duration::from_secs(1)).min(timeout);
        Budget {
            deadline: Instant::now() + total,
            per_query,
        }
    }

    fn expired(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// The per-query limit, cut to the time left before the deadline.
    fn limit(&self) -> Duration {
        self.per_query
            .min(self.deadline.saturating_duration_since(Instant::now()))
    }
}

/// One value an input is pushed toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Exactly this value.
    Eq(u128),
    /// At most this value (unsigned).
    Le(u128),
}

impl Goal {
    fn holds(self, v: u128) -> bool {
        match self {
            Goal::Eq(c) => v == c,
            Goal::Le(c) => v <= c,
        }
    }
    /// A value meeting the goal, near `v` (the input's current value).
    fn candidate(self, v: u128) -> u128 {
        self.candidates(v)[0]
    }
    /// Values meeting the goal to try on the interpreter, best guess first: for a bound
    /// `2^k - 1`, `v`'s low bits, its high bits shifted down (the same magnitude, scaled), and
    /// the bound itself.
    fn candidates(self, v: u128) -> Vec<u128> {
        match self {
            Goal::Eq(c) => vec![c],
            Goal::Le(c) => {
                let bits = |x: u128| 128 - x.leading_zeros();
                let mut out = vec![v & c, v >> bits(v).saturating_sub(bits(c)), c];
                out.dedup();
                out
            }
        }
    }
    fn prop(self, t: &Term) -> Prop {
        match self {
            Goal::Eq(c) => build::eq_const(t, c),
            Goal::Le(c) => build::ule_const(t, c),
        }
    }
}

/// An input term and its goals, most preferred first.
pub struct Input {
    /// The input (an immediate, register, `LDS_SIZE` or `LANE_ID`) as a solver term.
    pub term: Term,
    /// Values to push it toward, tried in order.
    pub goals: Vec<Goal>,
}

/// The inputs of a solver run with their goals, in shrinking order: immediates, registers
/// (M0 at its largest first), LDS_SIZE (the target's LDS size first), LANE_ID.
pub fn inputs(env: &Env<Smt>, m0: &Machine<Smt>) -> Vec<Input> {
    let small = |prefer: Option<u128>| -> Vec<Goal> {
        prefer
            .map(Goal::Eq)
            .into_iter()
            .chain([Goal::Eq(0), Goal::Le(0xff), Goal::Le(0xffff)])
            .collect()
    };
    let max = |t: &Term| {
        let w = t.get_size();
        if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        }
    };
    let mut out = Vec::new();
    for v in env.imms.values() {
        out.push(Input {
            term: v.clone(),
            goals: small(None),
        });
    }
    // Under --lanes: lane ids first, each tried at its position (lanes 0, 1, ...), then EXEC
    // with exactly those lanes active, so a counterexample reads as lanes 0..N-1 when it can.
    let lanes = m0.regs.keys().filter(|k| k.base == "lane_id").count() as u32;
    let rank = |k: &RegKey| match k.base.as_str() {
        "lane_id" => 0,
        "exec" => 1,
        _ => 2,
    };
    let mut regs: Vec<(&RegKey, &Term)> = m0.regs.iter().collect();
    regs.sort_by_key(|(k, _)| rank(k));
    for (k, v) in regs {
        let prefer = if *k == RegKey::m0() {
            Some(max(v))
        } else if k.base == "lane_id" {
            k.lane.map(u128::from)
        } else if *k == RegKey::exec_lo() && lanes > 0 {
            Some((1u128 << lanes) - 1)
        } else {
            None
        };
        out.push(Input {
            term: v.clone(),
            goals: small(prefer),
        });
    }
    out.push(Input {
        term: env.lds_size.clone(),
        goals: small(Some(env.target.max_lds_bytes() as u128)),
    });
    out.push(Input {
        term: env.lane_id.clone(),
        goals: small(None),
    });
    out
}

/// Whether an input's first goal is its largest value (M0, LDS_SIZE).
fn prefers_max(i: &Input) -> bool {
    matches!(i.goals.first(), Some(Goal::Eq(c)) if *c != 0)
}

/// What shrinking did (for tracing and tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Solver queries run.
    pub queries: usize,
    /// Candidate models tried on the concrete interpreter.
    pub replays: usize,
    /// Whether every input met its first goal at once.
    pub all_at_once: bool,
    /// Whether a solver model failed to replay (an encoding bug; shrinking stopped there and
    /// returned that model).
    pub broken: bool,
    /// How long the refinement query took (the last check of `q` before shrinking).
    pub first_query: Duration,
    /// How long shrinking the inputs took.
    pub time: Duration,
}

/// Push the inputs toward their goals (see the module documentation). `q` holds the refuting
/// assertions and is left with the goals that held asserted; the result is a model of them.
/// `valid` tells whether a model is still a counterexample on the concrete interpreter
/// (precondition included): each goal is first tried by changing that one input in the current
/// model and asking `valid`, which costs no solver query, and only then by the solver. A
/// solver model (the first or a later one) that is not `valid` is returned at once with
/// `Stats::broken`, for the caller to report as an encoding bug.
pub fn minimize(
    q: &mut Query,
    model: Model,
    inputs: &[Input],
    budget: &Budget,
    valid: impl FnMut(&Model) -> bool,
) -> (Model, Stats) {
    let start = Instant::now();
    let first_query = q.last_check_time();
    let mut run = Shrink {
        q,
        inputs,
        budget,
        valid,
        stats: Stats {
            first_query,
            ..Stats::default()
        },
    };
    let result = run.all_inputs(model);
    let mut stats = run.stats;
    stats.time = start.elapsed();
    // A broken model (`Err`) is returned as it is, for the caller to report.
    (result.unwrap_or_else(|m| m), stats)
}

/// One run of [`minimize`]: the query, the inputs, and what it has done so far. Every step
/// returns `Err(model)` for a solver model that is no counterexample on the interpreter (an
/// encoding bug, `stats.broken`): shrinking stops there and returns it, so that concrete tries
/// do not paper over it.
struct Shrink<'a, V> {
    q: &'a mut Query,
    inputs: &'a [Input],
    budget: &'a Budget,
    valid: V,
    stats: Stats,
}

/// The index of the first goal `m` meets for input `i` (`goals.len()`: none).
fn met(m: &Model, i: &Input) -> usize {
    let v = m.bv(&i.term);
    i.goals
        .iter()
        .position(|g| g.holds(v))
        .unwrap_or(i.goals.len())
}

impl<V: FnMut(&Model) -> bool> Shrink<'_, V> {
    /// Whether `m` is still a counterexample (counted as a replay).
    fn replay(&mut self, m: &Model) -> bool {
        self.stats.replays += 1;
        (self.valid)(m)
    }

    /// A solver model, replayed: `Err` with it when it does not replay.
    fn checked(&mut self, m: Model) -> Result<Model, Model> {
        if self.replay(&m) {
            Ok(m)
        } else {
            self.stats.broken = true;
            Err(m)
        }
    }

    /// One shrinking query: `props` on top of the query's assertions (taken off again); its
    /// model if satisfiable, checked. `what` names the query in the trace.
    fn solve(&mut self, props: &[Prop], what: &str) -> Result<Option<Model>, Model> {
        self.q.push();
        for p in props {
            self.q.assert(p);
        }
        self.stats.queries += 1;
        let answer = self.q.check_within(self.budget.limit());
        self.q.pop();
        tracing::trace!(what, sat = matches!(answer, Answer::Sat(_)), time = ?self.q.last_check_time(), "shrinking query");
        match answer {
            Answer::Sat(m) => self.checked(m).map(Some),
            _ => Ok(None),
        }
    }

    /// Every input toward its goals, from the solver's `model`.
    fn all_inputs(&mut self, model: Model) -> Result<Model, Model> {
        let mut model = self.checked(model)?;
        // Every input at its first goal at once, unless the model already has them all.
        let inputs = self.inputs;
        let open: Vec<&Input> = inputs
            .iter()
            .filter(|i| !i.goals.is_empty() && met(&model, i) > 0)
            .collect();
        if !open.is_empty() {
            let candidate = open.iter().fold(model.clone(), |m, i| {
                let v = i.goals[0].candidate(m.bv(&i.term));
                m.with(&i.term, v)
            });
            if self.replay(&candidate) {
                self.stats.all_at_once = true;
                model = candidate;
            } else if !self.budget.expired() {
                let all: Vec<Prop> = open.iter().map(|i| i.goals[0].prop(&i.term)).collect();
                let what = format!("{} inputs, every one at its first goal", open.len());
                if let Some(m) = self.solve(&[build::and(&all)], &what)? {
                    self.stats.all_at_once = true;
                    model = m;
                }
            }
        }
        for input in inputs {
            let (m, first_met) = self.one_input(model, input)?;
            model = m;
            if first_met < input.goals.len() {
                // The current model meets this goal: keep it for the inputs after this one.
                self.q.assert(&input.goals[first_met].prop(&input.term));
            }
        }
        Ok(model)
    }

    /// `input` toward the first of its goals it can reach from `model`: the new model and
    /// the index of the goal it meets.
    fn one_input(&mut self, model: Model, input: &Input) -> Result<(Model, usize), Model> {
        let first_met = met(&model, input);
        for g in 0..first_met {
            let goal = input.goals[g];
            if let Some(m) = self.cheap_try(&model, input, goal)? {
                return Ok((m, g));
            }
            // The solver with the other inputs free only where it can do much better: for a
            // preferred largest value (M0, LDS_SIZE), and to bring an input above 0xff down
            // to at most 0xff or 0xffff (0 itself is left to the cheap tries, before and after).
            let free = (g == 0 && prefers_max(input))
                || (model.bv(&input.term) > 0xff && matches!(goal, Goal::Le(_)));
            if !free || self.budget.expired() {
                continue;
            }
            let what = format!("{} {goal:?}", input.term);
            if let Some(m) = self.solve(&[goal.prop(&input.term)], &what)? {
                // A second chance, cheaply, for the better goals from the new model.
                for (g2, better) in input.goals[..g].iter().enumerate() {
                    if let Some(m2) = self.cheap_try(&m, input, *better)? {
                        return Ok((m2, g2));
                    }
                }
                return Ok((m, g));
            }
        }
        Ok((model, first_met))
    }

    /// The cheap ways to bring `input` to `goal` from `model`: change only that input and
    /// replay (no solver), then, for an exact value, ask the solver with every other input at
    /// its current value, so that only this input and the memory contents may change (a
    /// small, fast query; not after the deadline). The new model, if either works.
    fn cheap_try(
        &mut self,
        model: &Model,
        input: &Input,
        goal: Goal,
    ) -> Result<Option<Model>, Model> {
        for v in goal.candidates(model.bv(&input.term)) {
            let candidate = model.with(&input.term, v);
            if self.replay(&candidate) {
                return Ok(Some(candidate));
            }
        }
        // The query only for exact values: a bound is left to the free query.
        if self.budget.expired() || matches!(goal, Goal::Le(_)) {
            return Ok(None);
        }
        let others: Vec<Prop> = self
            .inputs
            .iter()
            .filter(|j| j.term != input.term)
            .map(|j| build::eq_const(&j.term, model.bv(&j.term)))
            .collect();
        let what = format!("{} {goal:?}, others fixed", input.term);
        self.solve(&[goal.prop(&input.term), build::and(&others)], &what)
    }
}

/// Readable memory: the initial bytes the counterexample reads (`bytes`: memory, address,
/// byte) are set to their address's low byte (00 01 02 ...), with every input kept at its
/// value in `model`, and the result replayed; if that loses the difference, one byte at a
/// time, keeping those that do not. `replay` turns a model into a counterexample (`None` if it
/// is not one); the result is the last counterexample found, `None` if none (the caller keeps
/// its own). No solver query is needed: with the inputs and the bytes fixed the run is fixed,
/// so the solver could only confirm what the replay shows.
pub fn readable_bytes<C>(
    model: &Model,
    bytes: &[(&Mem, u64, u8)],
    mut replay: impl FnMut(&Model) -> Option<C>,
) -> Option<C> {
    let todo: Vec<(&Mem, u64, u8)> = bytes
        .iter()
        .filter(|(_, a, v)| *v != *a as u8)
        .map(|(m, a, _)| (*m, *a, *a as u8))
        .collect();
    if todo.is_empty() {
        return None;
    }
    if let Some(c) = replay(&model.with_bytes(&todo)) {
        return Some(c);
    }
    let mut model = model.clone();
    let mut found = None;
    for b in todo {
        let candidate = model.with_bytes(&[b]);
        if let Some(c) = replay(&candidate) {
            model = candidate;
            found = Some(c);
        }
    }
    found
}
