//! The solver queries of a check, in VeriISLE's order: first whether the assumptions can hold
//! at all (applicability: input ranges, lanes, precondition, the source encodable and
//! defined), and only then whether the target refines the source under them (the verification
//! condition). A satisfying model of the second is shrunk and replayed on the interpreter.

use super::assume::{fields_ok, holds, precondition, ranges};
use super::elaborate::Elaborated;
use super::identity::identical_terms;
use super::options::Options;
use super::replay::{replay_sides, Run};
use super::shortcut::{egg_proves, identical};
use super::verdict::{Verdict, EGG_NOTE, IDENTITY_NOTE};
use crate::crosscheck::{QueryKind, Sat};
use crate::machine::{exec, Machine};
use crate::rules::Rule;
use crate::smt::{build, Answer, Model, Prop, Query, Smt, Term};
use gcnsmt_semantics::eval::{AddrSpace, PerSpace};

/// The verdict on an elaborated rule, and how it was reached when not by the usual query.
pub(super) fn decide(
    rule: &Rule,
    b: &Elaborated,
    opts: &Options,
) -> (Verdict, Option<&'static str>) {
    let mut d = Smt;
    let run = Run::new(&mut d, b);
    let (mut q, src_states) = match applicability(&mut d, rule, &run, opts) {
        Ok(x) => x,
        Err(v) => return (v, None),
    };
    // Only after the precondition is known satisfiable: an identical rule with a contradictory
    // precondition is inapplicable, not proved.
    if let Some(note) = shortcut(&mut d, rule, &run, &src_states, opts) {
        return (Verdict::Proved, Some(note));
    }
    let mut note = None;
    let v = verification(&mut d, rule, &run, opts, &mut q, &src_states, &mut note);
    (v, note)
}

/// Assert the assumptions and the source's encodability and definedness (in every source
/// serialization), and ask whether they can hold. Returns the query with them asserted and
/// the source's final states.
///
/// Errors (as the verdict to give): inapplicable, unknown, or an evaluation error.
fn applicability(
    d: &mut Smt,
    rule: &Rule,
    run: &Run,
    opts: &Options,
) -> Result<(Query, Vec<Machine<Smt>>), Verdict> {
    let (assumptions, src_states) = assumptions(d, run)?;
    let mut q = Query::new(opts.timeout);
    q.set_memory(opts.memory_mb);
    for a in &assumptions {
        q.assert(a);
    }
    let answer = q.check();
    cross_check(rule, run.b, opts, QueryKind::Pre, &q, &answer).map_err(Verdict::Error)?;
    match answer {
        Answer::Unsat => Err(Verdict::Inapplicable),
        Answer::Unknown(r) => Err(Verdict::Unknown(format!("deciding the precondition: {r}"))),
        Answer::Sat(_) => Ok((q, src_states)),
    }
}

/// The applicability question's assertions (input ranges, precondition, the source's
/// encodability and definedness) and the source's final states.
///
/// Errors (as the verdict to give): an evaluation error.
fn assumptions(d: &mut Smt, run: &Run) -> Result<(Vec<Prop>, Vec<Machine<Smt>>), Verdict> {
    let (b, x) = (run.b, &run.sym);
    let mut assumptions = ranges(d, b, x);
    let pre = precondition(d, b, x).map_err(|e| Verdict::Error(format!("precondition: {e}")))?;
    assumptions.extend(pre);
    assumptions.push(fields_ok(d, &x.env, &x.m0, &b.src).map_err(Verdict::Error)?);
    let mut src_states = Vec::new();
    for prog in &run.sides.src {
        let mut ms = x.m0.clone();
        exec(d, &x.env, &mut ms, prog).map_err(Verdict::Error)?;
        assumptions.push(build::not(&ms.mem.ub));
        src_states.push(ms);
    }
    Ok((assumptions, src_states))
}

/// The SMT-LIB text of every assertion `decide` would make on `b` (applicability, then the
/// refinement condition), without asking the solver anything.
///
/// Errors: a side fails to evaluate.
pub(super) fn query_text(b: &Elaborated, opts: &Options) -> Result<String, String> {
    let mut d = Smt;
    let run = Run::new(&mut d, b);
    let (assumptions, src_states) = assumptions(&mut d, &run).map_err(|v| format!("{v:?}"))?;
    let (per_target, _) = differs(&mut d, &run, &src_states)?;
    let mut q = Query::new(opts.timeout);
    for a in &assumptions {
        q.assert(a);
    }
    q.assert(&build::or(&per_target));
    Ok(q.to_smt2())
}

/// A proof without a refinement query (identical sides, identical lifted terms across
/// targets, or the e-graph pass), with its note.
fn shortcut(
    d: &mut Smt,
    rule: &Rule,
    run: &Run,
    src_states: &[Machine<Smt>],
    opts: &Options,
) -> Option<&'static str> {
    let b = run.b;
    // The same text means different things on two targets (ds_cmpst's operand order, the
    // V# layout), and the e-graph pass evaluates both sides on one target; the lifted terms,
    // each side lifted on its own target, are what may be compared.
    if b.to != b.target {
        if !opts.identity {
            return None;
        }
        return match identical_terms(d, run, src_states) {
            Ok(true) => Some(IDENTITY_NOTE),
            Ok(false) => None,
            // The solver path evaluates the same sides and reports a real failure itself.
            Err(e) => {
                tracing::debug!(rule = %rule.name, target = %b.target, "identity: {e}");
                None
            }
        };
    }
    if opts.egg && identical(&b.src, &b.tgt) {
        return Some(
            "both sides are identical after egg normalisation of immediates; no refinement query",
        );
    }
    if opts.egg && b.lanes.is_none() {
        match egg_proves(b, b.target) {
            Ok(true) => return Some(EGG_NOTE),
            Ok(false) => {}
            // The solver path evaluates the same semantics and reports a real failure itself.
            Err(e) => tracing::debug!(rule = %rule.name, target = %b.target, "egg pass: {e}"),
        }
    }
    None
}

/// Ask whether some state meeting the assumptions makes the target differ from the source.
fn verification(
    d: &mut Smt,
    rule: &Rule,
    run: &Run,
    opts: &Options,
    q: &mut Query,
    src_states: &[Machine<Smt>],
    note: &mut Option<&'static str>,
) -> Verdict {
    let b = run.b;
    let (mut per_target, against_ascending) = match differs(d, run, src_states) {
        Ok(x) => x,
        Err(e) => return Verdict::Error(e),
    };
    // Several source serializations: first the cheap sufficient question, whether every target
    // serialization equals the ascending source one (true of commuting atomics, where the
    // full query, a disjunction over source orders, is hard for the solver).
    if !against_ascending.is_empty() {
        q.push();
        q.assert(&build::or(&against_ascending));
        let answer = q.check();
        if let Err(e) = cross_check(rule, b, opts, QueryKind::RefineAscending, q, &answer) {
            return Verdict::Error(e);
        }
        q.pop();
        if matches!(answer, Answer::Unsat) {
            *note = Some("every target serialization of the lanes equals the ascending source one");
            return Verdict::Proved;
        }
    }
    q.assert(&if per_target.len() == 1 {
        per_target.pop().expect("one")
    } else {
        build::or(&per_target)
    });
    tracing::debug!(rule = %rule.name, target = %b.target, "refinement query:\n{}", q.to_smt2());
    let answer = q.check();
    if let Err(e) = cross_check(rule, b, opts, QueryKind::Refine, q, &answer) {
        return Verdict::Error(e);
    }
    match answer {
        Answer::Unsat => Verdict::Proved,
        Answer::Unknown(r) => Verdict::Unknown(r),
        Answer::Sat(model) => counterexample(rule, run, opts, q, model),
    }
}

/// The verification condition, negated: for each target serialization, that it is not
/// encodable, undefined, or differs from every source serialization (in a live register or a
/// byte of some memory). Returns one such formula per target serialization and, with several
/// source serializations, the weaker "differs from the ascending source one" per target.
///
/// Errors: the target's fields or steps fail to evaluate.
fn differs(
    d: &mut Smt,
    run: &Run,
    src_states: &[Machine<Smt>],
) -> Result<(Vec<Prop>, Vec<Prop>), String> {
    let (sides, x) = (&run.sides, &run.sym);
    // A cross-target rule's target side runs on its own target and settings.
    let tenv = x.env.on(run.b.to, run.b.to_settings);
    let tgt_fields = fields_ok(d, &tenv, &x.m0, &run.b.tgt)?;
    // Differences are witnessed at one address per memory; with several source serializations
    // each needs its own witness (every source order must differ somewhere).
    let witnesses: Vec<PerSpace<Term>> = (0..sides.src.len())
        .map(|i| {
            let sfx = if i == 0 {
                String::new()
            } else {
                format!("!s{i}")
            };
            PerSpace::from_fn(|s| {
                let name = format!("k!{}{sfx}", s.label().to_ascii_lowercase());
                d.var(&name, s.addr_width())
            })
        })
        .collect();
    let mut per_target = Vec::new();
    let mut against_ascending = Vec::new();
    for prog in &sides.tgt {
        let mut mt = x.m0.clone();
        exec(d, &tenv, &mut mt, prog)?;
        let mut bad = vec![build::not(&tgt_fields), mt.mem.ub.clone()];
        let mut every_src = Vec::new();
        for (ms, ks) in src_states.iter().zip(&witnesses) {
            let mut diff = Vec::new();
            for key in sides.keys.iter().filter(|k| !sides.dead.contains(k)) {
                diff.push(build::ne(&ms.regs[key], &mt.regs[key]));
            }
            for (s, w) in ks.iter() {
                let (a, b) = (&ms.mem[s], &mt.mem[s]);
                // The wave-level state spaces, stored to by neither side, cannot differ: no
                // term for them, so queries of rules without wave-level ops stay as they were.
                if matches!(s, AddrSpace::Gws | AddrSpace::GsReg)
                    && a.stores.is_none()
                    && b.stores.is_none()
                {
                    continue;
                }
                diff.push(build::ne(&build::select(a, w), &build::select(b, w)));
            }
            every_src.push(diff);
        }
        if every_src.len() == 1 {
            bad.extend(every_src.pop().expect("one"));
        } else {
            let mut first = bad.clone();
            first.extend(every_src[0].iter().cloned());
            against_ascending.push(build::or(&first));
            let ors: Vec<_> = every_src.iter().map(|x| build::or(x)).collect();
            bad.push(build::and(&ors));
        }
        per_target.push(build::or(&bad));
    }
    Ok((per_target, against_ascending))
}

/// A refutation from a model of the refinement query: shrunk, validated against the
/// assumptions on the interpreter, replayed, and given readable memory bytes.
fn counterexample(rule: &Rule, run: &Run, opts: &Options, q: &mut Query, model: Model) -> Verdict {
    let (b, x) = (run.b, &run.sym);
    // Shrinking is best effort with short limits of its own (see `crate::shrink`).
    let budget = crate::shrink::Budget::after(q.last_check_time(), opts.timeout);
    let inputs = crate::shrink::inputs(&x.env, &x.m0);
    // The solver's own model, replayed now: if a shrinking query later runs into the watchdog,
    // the interrupted context can no longer evaluate any model, and this replay (concrete
    // values, already checked on the interpreter) is the counterexample.
    let first = (holds(&model, b, x))
        .then(|| replay_sides(&model, run).ok())
        .flatten();
    if !opts.shrink {
        if let Some(cex) = first {
            return Verdict::Refuted(Box::new(cex));
        }
    }
    let (model, stats) = crate::shrink::minimize(q, model, &inputs, &budget, |m| {
        holds(m, b, x) && replay_sides(m, run).is_ok()
    });
    tracing::debug!(rule = %rule.name, target = %b.target, first_query = ?stats.first_query, ?stats, "counterexample shrunk");
    if q.interrupted() {
        if let Some(cex) = first {
            tracing::debug!(rule = %rule.name, "shrinking was interrupted; the solver's model is kept");
            return Verdict::Refuted(Box::new(cex));
        }
        return Verdict::Unknown(
            "z3 was interrupted after its time limit and its model can no longer be read".into(),
        );
    }
    // The solver's model must meet the precondition on the interpreter too; `replay` checks
    // the rest.
    if !holds(&model, b, x) {
        return Verdict::Error(
            "counterexample replay mismatch (internal error, please report): the inputs break \
             the precondition or the input ranges on the interpreter"
                .into(),
        );
    }
    match replay_sides(&model, run) {
        Ok(cex) => {
            // Readable memory: every byte read equal to its address's low byte
            // (00 01 02 ...), keeping the solver's bytes if that loses the difference.
            let m = &x.m0.mem;
            let bytes: Vec<(&crate::smt::Mem, u64, u8)> = (cex.mem.iter())
                .flat_map(|(s, bs)| bs.iter().map(move |(a, v)| (&m[s], *a, *v)))
                .collect();
            let nicer =
                crate::shrink::readable_bytes(&model, &bytes, |m| replay_sides(m, run).ok());
            Verdict::Refuted(Box::new(nicer.unwrap_or(cex)))
        }
        Err(e) => Verdict::Error(format!(
            "counterexample replay mismatch (internal error, please report): {e}"
        )),
    }
}

/// Hand one decided query to `--emit-smt2` / `--cross-check` (nothing happens without them).
fn cross_check(
    rule: &Rule,
    b: &Elaborated,
    opts: &Options,
    kind: QueryKind,
    q: &Query,
    answer: &Answer,
) -> Result<(), String> {
    let z3 = match answer {
        Answer::Sat(_) => Sat::Sat,
        Answer::Unsat => Sat::Unsat,
        Answer::Unknown(_) => Sat::Unknown,
    };
    crate::crosscheck::after_query(
        &opts.hooks,
        &rule.name,
        b.target,
        kind,
        || q.to_smt2(),
        z3,
        opts.timeout,
        opts.memory_mb,
    )
}
