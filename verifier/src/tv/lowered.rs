//! What lowering a block pair gives (`lower.rs`): the rule and what a verdict on it must
//! take into account.

use crate::rules::Rule;
use std::collections::BTreeSet;

/// A lowered block pair.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The rule the block pair becomes: the before-block on the left, the after-block on the right.
    pub rule: Rule,
    /// Rule variables that are inputs of dropped unmodelled instructions and nothing else
    /// makes observable: a counterexample differing only in them is not a confirmed
    /// miscompile (the instruction may map both values to one result).
    pub soft: BTreeSet<String>,
    /// Opcodes dropped as uninterpreted whose results the block reads: a refutation may
    /// rest on a value the real instruction cannot produce, so it is `unknown` unless every
    /// difference is computed without those values ([`super::taint`]).
    pub uninterpreted: Vec<String>,
    /// What depends on the uninterpreted results.
    pub taint: super::taint::Taint,
    /// Why a proof covers only waves with one active lane (the EXEC model computed the SCC of a
    /// lane mask, `mask != 0`, from lane L's bit: exact when L is the only active lane, so a
    /// refutation is real, but other lanes could set the bit): a proof is then `unknown`.
    pub bounded: Option<String>,
    /// The pair has image reads (`mimg.rs`) lowered as shared inputs: a refutation that rests
    /// on them is confirmed with [`super::mimg::Texel::Concrete`].
    pub images: bool,
    /// An after-access's memory operand makes a claim no before-access of the same address
    /// makes (`memop::check`): a proof is then `unsupported` (later passes trust the claim),
    /// a refutation stands (the hardware reads what it reads).
    pub claim_gap: Option<String>,
}

impl Lowered {
    /// What a proof of this pair is instead, and why: `unknown` for a proof covering only
    /// waves with one active lane ([`Lowered::bounded`]), `unsupported` for an unbacked claim.
    pub fn proof_caveat(&self) -> Option<(&'static str, String)> {
        (self.claim_gap.clone().map(|r| ("unsupported", r)))
            .or_else(|| self.bounded.clone().map(|r| ("unknown", r)))
    }
}
