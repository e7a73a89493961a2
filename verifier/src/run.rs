//! Running rules: every rule x target checked in parallel (optionally through the result
//! cache), gathered into [`Record`]s in rule order for the output writers.

use crate::cache::{Cache, Cached};
use crate::check::{check, targets_of, Options, Outcome, Verdict};
use crate::record::{Record, Summary};
use crate::rules::{Expect, InputError, Rule};
use gcnsmt_semantics::target::Target;

/// Check every rule on each target it binds on (all targets, or those in `filter`), in
/// parallel and without a result cache. Prints nothing but the progress bar on stderr; returns
/// one record (`Record`: verdict, time, rule and target) per rule x target, in rule order (a rule that binds on no target gets one
/// error record). Printing and the summary are the caller's.
pub fn run_rules(rules: &[Rule], filter: Option<&[Target]>, opts: &Options) -> Vec<Record> {
    run_rules_cached(rules, filter, opts, None)
}

/// Verify rules, print text verdicts to `out`, and return the counts.
pub fn verify_rules(
    rules: &[Rule],
    filter: Option<&[Target]>,
    opts: &Options,
    out: &mut dyn std::io::Write,
) -> Summary {
    let records = run_rules(rules, filter, opts);
    crate::report::print_text(&records, out);
    Summary::of(&records)
}

/// A proved or inapplicable verdict taken from the cache, with the settings the rule would run
/// under.
fn cached_outcome(rule: &Rule, t: Target, opts: &Options, verdict: Verdict) -> Outcome {
    // A cached verdict came from a run whose settings were valid.
    let settings = crate::check::settings_for(rule, t, opts)
        .unwrap_or_else(|_| gcnsmt_semantics::settings::Settings::default_for(t));
    let to = rule.to.map(|(to, _)| {
        let s = crate::check::settings_for(rule, to, opts)
            .unwrap_or_else(|_| gcnsmt_semantics::settings::Settings::default_for(to));
        (to, s)
    });
    let note = Some("from the result cache (rule, semantics, tables and solver unchanged)");
    Outcome {
        lanes: crate::check::lanes_of(rule, t, opts),
        ..crate::check::outcome_of(rule, t, settings, to, opts, verdict, note)
    }
}

/// Every rule x target to check, in rule order: the selected targets a rule binds on, or, for
/// a rule that binds on none, one target to report its binding error on.
pub(crate) fn plan(rules: &[Rule], filter: Option<&[Target]>) -> Vec<(usize, Target)> {
    let mut jobs: Vec<(usize, Target)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if let Some((ts, loc)) = &rule.targets {
            if let Some(f) = filter {
                if !ts.iter().any(|t| f.contains(t)) {
                    tracing::debug!(rule = %rule.name, "no selected target at {}:{}", loc.line, loc.col);
                    continue;
                }
            }
        }
        let mut targets = targets_of(rule, filter);
        // A rule that binds on no target at all is broken, selected targets or not: skipping
        // it under --target would drop an input error silently (exit 0).
        if targets.is_empty() && (filter.is_none() || targets_of(rule, None).is_empty()) {
            // No target has every instruction: report the binding error on the first
            // (selected, if any has it) target that has the first instruction (or gfx900).
            let first = rule
                .source
                .first()
                .map(|l| l.text.split_whitespace().next().unwrap_or("").to_string());
            let has = |t: &Target| {
                first
                    .as_deref()
                    .is_some_and(|m| gcnsmt_lifter::ds_lookup(*t, m).is_some())
            };
            let t = filter
                .and_then(|f| f.iter().copied().find(has))
                .or_else(|| Target::ALL.into_iter().find(has))
                .unwrap_or(Target::Gfx900);
            targets.push(t);
        }
        jobs.extend(targets.into_iter().map(|t| (i, t)));
    }
    jobs
}

/// The content hash of one rule x target under `opts`: its result cache key, which also
/// places it in a `--shard`.
pub(crate) fn check_key(rule: &Rule, t: Target, opts: &Options) -> String {
    // The lane mode changes the question: part of the key.
    let mut overrides = opts.settings.clone();
    if let Some(m) = crate::check::lane_mode(rule, opts) {
        overrides.push(("lanes".into(), m.describe()));
    }
    // `--to` rewrites the rule's target side (the `Targets:` text may say otherwise).
    if let Some((to, _)) = rule.to {
        overrides.push(("to".into(), to.name().into()));
    }
    Cache::key(rule, t, &overrides)
}

/// One check of a run: its position in the unsharded plan ([`plan`]), the rule's index, the
/// target and the content hash.
pub(crate) struct Job {
    /// Position in the whole run's plan (the order unsharded output has).
    pub seq: usize,
    /// Index of the rule in the run's rules.
    pub rule: usize,
    /// The target.
    pub target: Target,
    /// [`check_key`].
    pub key: String,
}

/// The run's checks in plan order.
pub(crate) fn jobs(rules: &[Rule], filter: Option<&[Target]>, opts: &Options) -> Vec<Job> {
    jobs_keyed(rules, filter, |r, t| check_key(r, t, opts))
}

/// The run's checks in plan order, each keyed by `key` (an empty key: not needed).
fn jobs_keyed(
    rules: &[Rule],
    filter: Option<&[Target]>,
    key: impl Fn(&Rule, Target) -> String,
) -> Vec<Job> {
    plan(rules, filter)
        .into_iter()
        .enumerate()
        .map(|(seq, (rule, target))| Job {
            seq,
            rule,
            target,
            key: key(&rules[rule], target),
        })
        .collect()
}

/// One rule x target: from the cache when it holds a verdict (a stored refutation only if its
/// replay reproduces), else checked and stored.
fn check_cached(
    rule: &Rule,
    t: Target,
    opts: &Options,
    cache: Option<&Cache>,
) -> Result<Outcome, InputError> {
    // Each solver run in a z3 context of its own (see `smt::with_fresh_context`); cache hits
    // need none.
    let check = |rule, t, opts| crate::smt::with_fresh_context(|| check(rule, t, opts));
    let Some(c) = cache else {
        return check(rule, t, opts);
    };
    let key = check_key(rule, t, opts);
    let hit = match c.get(&key) {
        // The replay is the evidence; one that does not reproduce is a miss.
        Some(Cached::Refuted(s)) => crate::check::replay_stored(rule, t, opts, &s),
        Some(Cached::Proved) => Some(cached_outcome(rule, t, opts, Verdict::Proved)),
        Some(Cached::Inapplicable) => Some(cached_outcome(rule, t, opts, Verdict::Inapplicable)),
        None => None,
    };
    if let Some(o) = hit {
        return Ok(o);
    }
    // A rule that expects an input error never has an entry (errors are not stored); its
    // error is found before any solver query, so it is still checked.
    if c.read_only() && rule.expect.map(|e| e.0) != Some(Expect::Error) {
        let mut o = cached_outcome(
            rule,
            t,
            opts,
            Verdict::Error(format!(
            "not in the read-only result cache (key {key}): --cache-read-only checks nothing afresh"
        )),
        );
        o.note = None;
        return Ok(o);
    }
    let r = check(rule, t, opts);
    if let Ok(o) = &r {
        match &o.verdict {
            Verdict::Proved => c.put(&key, &Cached::Proved),
            Verdict::Inapplicable => c.put(&key, &Cached::Inapplicable),
            Verdict::Refuted(cex) => c.put(&key, &Cached::Refuted(cex.stored())),
            Verdict::Unknown(_) | Verdict::Error(_) => {}
        }
    }
    r
}

/// [`run_rules`] with a result cache: proved and inapplicable verdicts are looked up and
/// stored, refutations stored as counterexamples and replayed on a hit.
pub fn run_rules_cached(
    rules: &[Rule],
    filter: Option<&[Target]>,
    opts: &Options,
    cache: Option<&Cache>,
) -> Vec<Record> {
    let jobs = jobs_keyed(rules, filter, |_, _| String::new());
    run_jobs(rules, &jobs, opts, cache)
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// Run `jobs` (in parallel, through the cache if given) and return their records in job
/// order, each with its job's `seq`; a rule's input error is reported once, on its first job.
pub(crate) fn run_jobs(
    rules: &[Rule],
    jobs: &[Job],
    opts: &Options,
    cache: Option<&Cache>,
) -> Vec<(usize, Record)> {
    use rayon::prelude::*;
    // Every rule x target was planned first; run them in parallel (each worker thread has its
    // own z3 context; nothing z3 crosses threads), then print in rule order.
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(jobs.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} rule x target  {elapsed}  {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let results: Vec<_> = jobs
        .par_iter()
        .map(|j| {
            let r = check_cached(&rules[j.rule], j.target, opts, cache);
            bar.set_message(format!("{} {}", rules[j.rule].name, j.target));
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();

    let mut records = Vec::new();
    let mut errored: Vec<bool> = vec![false; rules.len()];
    for (j, r) in jobs.iter().zip(results) {
        let i = j.rule;
        let rule = &rules[i];
        match r {
            Err(e) => {
                // One report per rule: the same input error usually repeats on every target.
                if errored[i] {
                    continue;
                }
                errored[i] = true;
                let expected = rule.expect.map(|e| e.0) == Some(Expect::Error);
                records.push((
                    j.seq,
                    Record::Error {
                        rule: rule.name.clone(),
                        error: e,
                        expected,
                    },
                ));
            }
            Ok(o) => records.push((
                j.seq,
                Record::Verdict {
                    outcome: o,
                    line: rule.loc.line,
                },
            )),
        }
    }
    records
}
