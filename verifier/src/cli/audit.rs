//! `verify --cache-audit N`: re-prove N of a run's proofs that came from the result cache,
//! chosen at random, without the cache. A stored `proved` is believed as it is (only
//! refutations are replayed), so this is the check that a shared cache still tells the truth;
//! each disagreement is an error record (exit 2).

use crate::check::{Options, Verdict};
use crate::record::Record;
use crate::rules::{InputError, Rule};

/// The note of an outcome taken from the cache (`run.rs`'s `cached_outcome`).
fn from_cache(note: Option<&str>) -> bool {
    note.is_some_and(|n| n.starts_with("from the result cache"))
}

/// Re-check up to `n` cached proofs among `records` (rules by name from `rules`); returns an
/// error record per proof the fresh check does not confirm, and prints a count on stderr.
pub(super) fn audit(records: &[Record], rules: &[Rule], opts: &Options, n: usize) -> Vec<Record> {
    let mut picks: Vec<(&Rule, gcnsmt_semantics::target::Target, [u8; 32])> = Vec::new();
    // A fresh seed per run: any cached proof may be picked.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    for r in records {
        let Record::Verdict { outcome: o, .. } = r else {
            continue;
        };
        if !matches!(o.verdict, Verdict::Proved) || !from_cache(o.note) {
            continue;
        }
        let Some(rule) = rules.iter().find(|x| x.name == o.rule) else {
            continue;
        };
        let mut h = blake3::Hasher::new();
        h.update(&seed.to_le_bytes());
        h.update(o.rule.as_bytes());
        h.update(o.target.name().as_bytes());
        picks.push((rule, o.target, *h.finalize().as_bytes()));
    }
    // Sorting by a seeded hash is a shuffle.
    picks.sort_by_key(|p| p.2);
    let total = picks.len();
    picks.truncate(n);
    let mut errors = Vec::new();
    for (rule, t, _) in &picks {
        let fresh = crate::smt::with_fresh_context(|| crate::check::check(rule, *t, opts));
        let said = match &fresh {
            Ok(o) if matches!(o.verdict, Verdict::Proved) => continue,
            Ok(o) => o.verdict.name().to_string(),
            Err(e) => format!("an input error ({})", e.msg),
        };
        errors.push(Record::Error {
            rule: rule.name.clone(),
            error: InputError {
                file: rule.file.clone(),
                loc: rule.loc,
                msg: format!(
                    "cache audit: the cache says `{}` is proved on {t}, a fresh check says {said}",
                    rule.name
                ),
            },
            expected: false,
        });
    }
    eprintln!(
        "cache audit: re-checked {} of the run's {total} cached proofs, {} disagree",
        picks.len(),
        errors.len()
    );
    errors
}
