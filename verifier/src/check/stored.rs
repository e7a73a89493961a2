//! A refutation rebuilt from the result cache ([`crate::cache`]): the stored inputs and memory
//! bytes are read as a model of the same inputs table a solver run declares, validated
//! against the assumptions and replayed on the interpreter. That replay, not the cache, is
//! the evidence for the refutation.

use super::assume::holds;
use super::elaborate::elaborate;
use super::inputs::Slot;
use super::options::Options;
use super::replay::{replay_sides, Run};
use super::verdict::{Outcome, Verdict, CACHED_REFUTATION_NOTE};
use crate::cache::StoredCex;
use crate::rules::Rule;
use crate::smt::{Model, Smt};
use gcnsmt_semantics::target::Target;
use std::time::Instant;

/// Rebuild a refutation from a stored counterexample: its inputs and memory bytes are
/// replayed on the concrete interpreter, after checking the precondition and the inputs'
/// ranges there too. `None` when the rule does not elaborate on `target`, an input is
/// missing, or the replay shows no difference: the caller then checks the rule afresh. No
/// solver query is run.
pub fn replay_stored(
    rule: &Rule,
    target: Target,
    opts: &Options,
    stored: &StoredCex,
) -> Option<Outcome> {
    let start = Instant::now();
    let b = elaborate(rule, target, opts).ok()?;
    let run = Run::new(&mut Smt, &b);
    let mut values = Vec::new();
    for i in &run.table {
        let v = match (stored.inputs.iter().find(|(n, _)| *n == i.name), &i.slot) {
            (Some((_, v)), _) => *v,
            // LDS_SIZE is printed (and stored) only under lds_limit=ALLOC; otherwise no run
            // reads it.
            (None, Slot::LdsSize) => 0,
            // Everything else must be there. LANE_ID is not printed under lanes, so a lanes
            // refutation is never rebuilt from the cache but checked afresh.
            (None, _) => return None,
        };
        values.push((run.sym.at(&i.slot).clone(), v));
    }
    let m = &run.sym.m0.mem;
    let bytes: Vec<(&crate::smt::Mem, u64, u8)> = (stored.mem.iter())
        .flat_map(|(s, bs)| bs.iter().map(move |(a, v)| (&m[s], *a, *v)))
        .collect();
    let model = Model::from_values(&values, &bytes);
    if !holds(&model, &b, &run.sym) {
        return None;
    }
    let cex = replay_sides(&model, &run).ok()?;
    let verdict = Verdict::Refuted(Box::new(cex));
    let mut o = outcome(rule, &b, opts, verdict, Some(CACHED_REFUTATION_NOTE));
    o.time = start.elapsed();
    Some(o)
}

/// The outcome of a check of `rule` on `target` whose verdict is already known (a proof or
/// inapplicability found for the same query fingerprint, [`crate::check::fingerprint`]),
/// with the settings and assumptions a check would report. No solver query is run.
///
/// Errors: the input error a check would report.
pub fn known(
    rule: &Rule,
    target: Target,
    opts: &Options,
    verdict: Verdict,
    note: Option<&'static str>,
) -> Result<Outcome, crate::rules::InputError> {
    let b = elaborate(rule, target, opts)?;
    Ok(outcome(rule, &b, opts, verdict, note))
}

fn outcome(
    rule: &Rule,
    b: &super::elaborate::Elaborated,
    opts: &Options,
    verdict: Verdict,
    note: Option<&'static str>,
) -> Outcome {
    let to = (b.to != b.target).then_some((b.to, b.to_settings));
    let verdict = super::masks::restrict(b, verdict, note);
    Outcome {
        lanes: b.lanes.as_ref().map(|(m, _)| *m),
        ..super::outcome_of(rule, b.target, b.settings, to, opts, verdict, note)
    }
}
