//! The equivalence table: for every DS and MUBUF/VBUFFER opcode of one target, whether it and
//! its counterpart on another target are provably the same over all operands.
//!
//! "The same" is a proved cross-target rule in both directions' sense that matters to a
//! translator: the counterpart on the second target refines the opcode on the first (every
//! register either names and every LDS/GDS/buffer byte end equal, the counterpart encodable and
//! defined wherever the original is), for every register value, offset, memory content and V#,
//! under each target's default settings (but `d16_unused=PRESERVED` for the D16 loads, which
//! would leave the half they keep undefined on SRAM-ECC targets), on one lane, without GDS,
//! with offen addressing and the no-return atomic forms. Each row lists these assumptions and the V# fields that the two
//! layouts do not map.

use super::memo::{Memo, Memoed};
use super::pairing::{counterpart, opcodes, rule_text, By, Fam};
use crate::check::{check, Options, Outcome, Verdict, IDENTITY_NOTE};
use crate::rules::{parse_rules, InputError, Rule};
use gcnsmt_semantics::target::Target;

/// How a `same` row was proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Both sides lift to the very same terms (`check/identity.rs`): no solver query.
    Identity,
    /// The refinement query is unsatisfiable.
    Query,
}

impl Proof {
    /// The word of the data file's `proof` field.
    pub fn name(self) -> &'static str {
        match self {
            Proof::Identity => "identity",
            Proof::Query => "solver",
        }
    }
    /// The row's reason.
    pub fn reason(self) -> &'static str {
        match self {
            Proof::Identity => IDENTITY_NOTE,
            Proof::Query => "proved by the solver: no input makes the two differ",
        }
    }
}

/// What the table says of one opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Proved the same, and how.
    Same(Proof),
    /// A counterexample: its inputs (in words) and the first difference.
    Differ {
        /// The witness inputs, `name=value` joined by spaces.
        witness: String,
        /// The first output that differs (`%d`, `LDS[0x0]`, an encoding failure).
        first: String,
    },
    /// The counterpart cannot take the same operands (another shape or width): why.
    Operands(String),
    /// No counterpart on the second target: why.
    NoCounterpart(String),
    /// gcnsmt does not model the opcode on the first target (or it has no rule form): why.
    Unsupported(String),
    /// The solver gave no answer in time: why.
    Unknown(String),
}

impl Status {
    /// The status word of the text and JSON output.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Same(_) => "same",
            Status::Differ { .. } => "differ",
            Status::Operands(_) => "operands_differ",
            Status::NoCounterpart(_) => "no_counterpart",
            Status::Unsupported(_) => "unsupported",
            Status::Unknown(_) => "unknown",
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// DS or buffer.
    pub fam: Fam,
    /// The opcode's mnemonic on the first target.
    pub mnemonic: &'static str,
    /// Its counterpart on the second target, if there is one.
    pub counterpart: Option<String>,
    /// The finding.
    pub status: Status,
    /// What "the same" assumes here: the settings of each side, the V# fields left unmapped.
    pub assumptions: Vec<String>,
}

/// The fixed assumptions of every row (the form of the rule the table checks).
pub const FORM: &str = "one lane, LDS not GDS, offen buffer addressing, no-return atomics";

/// The table of `from` against `to`, in opcode order (DS first), computed in parallel, of the
/// opcodes `keep` selects; verdicts found for the same query before (`memo`) are reused.
pub fn table(
    from: Target,
    to: Target,
    by: By,
    keep: &(dyn Fn(Fam, &str) -> bool + Sync),
    opts: &Options,
    memo: &Memo,
) -> Vec<Row> {
    use rayon::prelude::*;
    let ops: Vec<(Fam, &'static str)> = opcodes(from)
        .into_iter()
        .filter(|(f, m)| keep(*f, m))
        .collect();
    ops.par_iter()
        .map(|(fam, m)| row(*fam, m, from, to, by, opts, memo))
        .collect()
}

/// One opcode's row.
pub fn row(
    fam: Fam,
    m: &'static str,
    from: Target,
    to: Target,
    by: By,
    opts: &Options,
    memo: &Memo,
) -> Row {
    let mut r = Row {
        fam,
        mnemonic: m,
        counterpart: None,
        status: Status::Same(Proof::Query),
        assumptions: Vec::new(),
    };
    let m2 = match counterpart(fam, m, from, to, by) {
        Ok(m2) => m2,
        Err(why) => {
            r.status = unsupported_on_from(fam, m, from).unwrap_or(Status::NoCounterpart(why));
            return r;
        }
    };
    r.counterpart = Some(m2.clone());
    let Some(text) = rule_text(fam, m, from, &m2, to) else {
        r.status = unsupported_on_from(fam, m, from)
            .unwrap_or_else(|| Status::NoCounterpart(format!("{m2} has no rule form")));
        return r;
    };
    r.status = decide(&text, from, opts, memo, &mut r.assumptions);
    r
}

/// `Unsupported` when `m` has no checkable form on `from` alone (same-target rule fails to
/// bind, or there is no rule form).
fn unsupported_on_from(fam: Fam, m: &str, from: Target) -> Option<Status> {
    let Some(text) = rule_text(fam, m, from, m, from) else {
        return Some(Status::Unsupported(
            "no rule form (cache, lds-only or typed op)".into(),
        ));
    };
    let rules = parse_rules("<equiv>", &text).ok()?;
    let opts = Options::default();
    match crate::check::elaborates(&rules[0], from, &opts) {
        Ok(()) => None,
        Err(e) => Some(Status::Unsupported(e.msg)),
    }
}

/// Check the generated rule (or reuse the verdict of the same query) and turn its verdict into
/// a status.
fn decide(
    text: &str,
    from: Target,
    opts: &Options,
    memo: &Memo,
    assumptions: &mut Vec<String>,
) -> Status {
    let rules = match parse_rules("<equiv>", text) {
        Ok(r) => r,
        Err(e) => return Status::Unsupported(format!("internal: {e}")),
    };
    let rule = &rules[0];
    let fp = match crate::smt::with_fresh_context(|| crate::check::fingerprint(rule, from, opts)) {
        Ok(fp) => fp,
        Err(e) => return input_error(e),
    };
    let reused = (fp.as_deref())
        .and_then(|fp| memo.get(fp))
        .and_then(|m| reuse(rule, from, opts, m));
    let o = match reused {
        Some(o) => o,
        None => match crate::smt::with_fresh_context(|| check(rule, from, opts)) {
            Ok(o) => {
                if let (Some(fp), Some(m)) = (fp, memoed(&o)) {
                    memo.put(fp, m);
                }
                o
            }
            Err(e) => return input_error(e),
        },
    };
    assumptions.push(format!("{from}: {}", o.settings_text()));
    if let Some((to, _)) = o.to {
        let other = crate::check::Outcome {
            settings: o.to.map(|t| t.1).unwrap_or(o.settings),
            to: None,
            ..o.clone()
        };
        assumptions.push(format!("{to}: {}", other.settings_text()));
    }
    assumptions.extend(o.assumptions.iter().cloned());
    match o.verdict {
        Verdict::Proved if o.note == Some(IDENTITY_NOTE) => Status::Same(Proof::Identity),
        Verdict::Proved => Status::Same(Proof::Query),
        Verdict::Refuted(c) => Status::Differ {
            witness: c
                .inputs
                .iter()
                .map(|(n, v, _)| format!("{n}=0x{v:x}"))
                .collect::<Vec<_>>()
                .join(" "),
            first: c.first_difference.clone(),
        },
        // No input meets the assumptions at all: nothing to compare.
        Verdict::Inapplicable => Status::Unsupported("no valid input".into()),
        Verdict::Unknown(r) => Status::Unknown(r),
        Verdict::Error(e) => Status::Unknown(format!("error: {e}")),
    }
}

/// An input error of the generated rule: on the source line the opcode itself is not
/// checkable here; elsewhere its counterpart does not take the same operands.
fn input_error(e: InputError) -> Status {
    if e.loc.line == 3 {
        Status::Unsupported(e.msg)
    } else {
        Status::Operands(e.msg)
    }
}

/// What of an outcome the memo keeps: not unknowns or errors, which another try may decide.
fn memoed(o: &Outcome) -> Option<Memoed> {
    match &o.verdict {
        Verdict::Proved => Some(Memoed::Proved(o.note)),
        Verdict::Inapplicable => Some(Memoed::Inapplicable),
        Verdict::Refuted(c) => Some(Memoed::Refuted(c.stored())),
        Verdict::Unknown(_) | Verdict::Error(_) => None,
    }
}

/// The outcome on this pair of a verdict kept for the same fingerprint: a proof or
/// inapplicability as it is, a refutation only if its counterexample replays here.
fn reuse(rule: &Rule, from: Target, opts: &Options, m: Memoed) -> Option<Outcome> {
    match m {
        Memoed::Proved(note) => crate::check::known(rule, from, opts, Verdict::Proved, note).ok(),
        Memoed::Inapplicable => {
            crate::check::known(rule, from, opts, Verdict::Inapplicable, None).ok()
        }
        Memoed::Refuted(c) => {
            crate::smt::with_fresh_context(|| crate::check::replay_stored(rule, from, opts, &c))
        }
    }
}
