//! Refinement checking of one rule on one target.
//!
//! For every initial state satisfying the precondition (LDS and GDS bytes, registers, M0,
//! LDS_SIZE, LANE_ID, immediates) on which the source is defined and encodable, the target
//! must be encodable and defined, leave the same LDS and GDS bytes, and leave the same value in
//! every register either side names, except registers declared `Dead`.
//!
//! The steps, one module each: [`elaborate`](self) binds the rule on the target; the inputs
//! table (`inputs`) names every free value of the initial state; the assumptions (`assume`)
//! are written once over the semantics `Domain` and serve both the solver query (`query`) and
//! the concrete validation of a model; `replay` turns a model into a counterexample on the
//! interpreter; `stored` rebuilds one from the result cache; `verdict` holds what a check
//! answers.

mod assume;
mod elaborate;
mod identity;
mod inputs;
mod masks;
mod options;
mod partial;
mod probe;
mod query;
mod replay;
mod shortcut;
mod stored;
#[cfg(test)]
mod tests;
mod verdict;
mod vsharp;
mod wave_limits;

pub use elaborate::{
    lane_mode, settings_for, targets_of, to_target, uses_addtid, uses_append, uses_buffer,
    uses_d16, uses_flat, uses_float, uses_ieee, uses_lds_dma, uses_mnemonic_prefix, uses_sbuffer,
};
pub use options::{parse_set, Hazards, Options};
pub use probe::{binds, input_widths, probe, replay_inputs, EdgeFn, Probed, Witness};
pub use stored::{known, replay_stored};
pub use verdict::{Cex, Outcome, Step, Verdict, CACHED_REFUTATION_NOTE, EGG_NOTE, IDENTITY_NOTE};
pub use vsharp::vsharp_assumptions;

use crate::rules::{InputError, Rule};
use gcnsmt_semantics::target::Target;
use std::time::Instant;

/// Check one rule on one target.
///
/// Errors: input errors in the rule for this target (the verdict is then not computed).
pub fn check(rule: &Rule, target: Target, opts: &Options) -> Result<Outcome, InputError> {
    let start = Instant::now();
    let b = elaborate::elaborate(rule, target, opts)?;
    let (verdict, note) = query::decide(rule, &b, opts);
    let verdict = partial::restrict(rule, &b.settings, &b.to_settings, verdict);
    let verdict = masks::restrict(&b, verdict, note);
    let to = (b.to != target).then_some((b.to, b.to_settings));
    Ok(Outcome {
        time: start.elapsed(),
        lanes: b.lanes.as_ref().map(|(m, _)| *m),
        ..outcome_of(rule, target, b.settings, to, opts, verdict, note)
    })
}

/// The lanes a check of `rule` on `target` runs with: [`lane_mode`], or 2 when one lane
/// cannot decide it (a lane mask read whole, `check/masks.rs`).
pub fn lanes_of(rule: &Rule, target: Target, opts: &Options) -> Option<crate::lanes::LaneMode> {
    match elaborate::elaborate(rule, target, opts) {
        Ok(b) => b.lanes.map(|(m, _)| m),
        Err(_) => lane_mode(rule, opts),
    }
}

/// The outcome of `rule` on `target` under `settings` (and, for a cross-target rule, the
/// target side's target and settings `to`) with `verdict`: what the rule's instructions read
/// (the settings printed with it), its lane mode and cross-target assumptions. Time zero.
pub fn outcome_of(
    rule: &Rule,
    target: Target,
    settings: gcnsmt_semantics::settings::Settings,
    to: Option<(Target, gcnsmt_semantics::settings::Settings)>,
    opts: &Options,
    verdict: Verdict,
    note: Option<&'static str>,
) -> Outcome {
    Outcome {
        rule: rule.name.clone(),
        file: rule.file.clone(),
        target,
        settings,
        verdict,
        expect: rule.expect.map(|e| e.0),
        time: std::time::Duration::ZERO,
        note,
        buffer: uses_buffer(rule),
        sbuffer: uses_sbuffer(rule),
        flat: uses_flat(rule),
        lds_dma: uses_lds_dma(rule),
        float: uses_float(rule),
        ieee: uses_ieee(rule),
        addtid: uses_addtid(rule),
        append: uses_append(rule),
        bvh: uses_mnemonic_prefix(rule, "ds_bvh_stack_"),
        d16: uses_d16(rule),
        lanes: lane_mode(rule, opts),
        to,
        assumptions: cross_assumptions(rule, target, to.map_or(target, |(t, _)| t)),
    }
}

/// What a cross-target verdict on `from -> to` assumes: for a rule with buffer instructions,
/// each V# field the two layouts do not map onto each other (see `docs/cross-target.md`).
pub fn cross_assumptions(rule: &Rule, from: Target, to: Target) -> Vec<String> {
    if from == to || !uses_buffer(rule) {
        return Vec::new();
    }
    vsharp_assumptions(from, to)
}

/// A fingerprint of the solver queries a check of `rule` on `target` would make (BLAKE3 of
/// their SMT-LIB text), built without asking the solver: two checks with one fingerprint
/// have the same proof or inapplicability, and a refutation of one replays on the other's own
/// targets or not at all ([`replay_stored`]). `Ok(None)` when a side fails to evaluate (the
/// check reports that itself).
///
/// Errors: the input error a check would report.
pub fn fingerprint(
    rule: &Rule,
    target: Target,
    opts: &Options,
) -> Result<Option<String>, InputError> {
    let b = elaborate::elaborate(rule, target, opts)?;
    Ok(query::query_text(&b, opts)
        .ok()
        .map(|t| identity::fingerprint(&t)))
}

/// Whether `rule` elaborates on `target` (binds, encodes, has valid settings), without any
/// solver query.
///
/// Errors: the input error a check would report.
pub fn elaborates(rule: &Rule, target: Target, opts: &Options) -> Result<(), InputError> {
    elaborate::elaborate(rule, target, opts).map(|_| ())
}

/// Whether the e-graph pass alone shows the target equal to the source on every output
/// (see [`crate::egg_domain::egg_proves`]), without any solver query and without looking at
/// the precondition. For tests that compare the pass with the solver.
///
/// Errors: input errors in the rule for this target; a semantics entry that fails to
/// evaluate is reported as `Ok(false)`.
pub fn egg_only(rule: &Rule, target: Target, opts: &Options) -> Result<bool, InputError> {
    let b = elaborate::elaborate(rule, target, opts)?;
    // Multi-lane checks never use the pass (it sees one lane), nor do cross-target ones (it
    // reads both sides with one target's semantics).
    if b.lanes.is_some() || b.to != target {
        return Ok(false);
    }
    Ok(shortcut::egg_proves(&b, target).unwrap_or(false))
}
