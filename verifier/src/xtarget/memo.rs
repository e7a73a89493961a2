//! Verdicts shared across the pairs of an equivalence table, keyed by the fingerprint of the
//! query ([`crate::check::fingerprint`]): many targets run the same semantics entry with the
//! same settings read and the same V# bits, so the question for `ds_add_u32` from gfx900 to
//! gfx1030 is, assertion for assertion, the one from gfx908 to gfx1100. A proof or an
//! inapplicability is reused as it is (the same query has the same answer); a refutation is
//! kept as its counterexample and replayed on each new pair's own targets, so the evidence is
//! always a replay there. Unknowns are not kept: another try may decide them.

use crate::cache::StoredCex;
use std::collections::HashMap;
use std::sync::Mutex;

/// A verdict found for one fingerprint.
#[derive(Clone, Debug)]
pub enum Memoed {
    /// Proved, with how (the check's note: identity, or `None` for the refinement query).
    Proved(Option<&'static str>),
    /// No input meets the assumptions.
    Inapplicable,
    /// Refuted by this counterexample (to replay).
    Refuted(StoredCex),
}

/// The verdicts of one run, by fingerprint; shared by the threads of a run.
#[derive(Debug, Default)]
pub struct Memo {
    map: Mutex<HashMap<String, Memoed>>,
}

impl Memo {
    /// The verdict kept for `fp`, if any.
    pub fn get(&self, fp: &str) -> Option<Memoed> {
        self.map.lock().ok()?.get(fp).cloned()
    }
    /// Keep `v` for `fp` (a later verdict for the same fingerprint replaces it; both are
    /// answers to one query).
    pub fn put(&self, fp: String, v: Memoed) {
        if let Ok(mut m) = self.map.lock() {
            m.insert(fp, v);
        }
    }
    /// How many fingerprints have a verdict.
    pub fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }
    /// Whether no fingerprint has a verdict yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
