//! Rules with an instruction whose semantics entry is modelled on part of its inputs only and
//! undefined elsewhere (`v_cvt_scalef32_pk_fp8_f16`, semantics/src/eval/fp8.rs).
//!
//! The refinement query assumes the source defined, so a source input outside the modelled
//! part is assumed away: a proof, or "no input applies", would say nothing about the inputs
//! the hardware still converts there. Such a rule is never `proved` or `inapplicable`
//! (`unknown` instead). A refutation stands when both sides are defined on it: the source by
//! the query's assumption, the target when its difference is not "the target is undefined"
//! (replay.rs), so both runs stay where the entry is exact and the counterexample is a real
//! execution. One where the target leaves the modelled part is `unknown`.

use super::verdict::Verdict;
use crate::rules::Rule;

/// The mnemonics whose entries are modelled on part of their inputs only.
const PARTIAL: &[&str] = &["v_cvt_scalef32_pk_fp8_f16"];

/// The first partially modelled mnemonic a line of `rule` uses.
fn partial_op(rule: &Rule) -> Option<&'static str> {
    rule.source.iter().chain(&rule.target).find_map(|l| {
        let word = l.text.split_whitespace().next()?;
        PARTIAL.iter().copied().find(|m| *m == word)
    })
}

/// `verdict` of `rule`, with what a partial entry cannot support turned into `unknown`.
pub(super) fn restrict(rule: &Rule, verdict: Verdict) -> Verdict {
    let Some(m) = partial_op(rule) else {
        return verdict;
    };
    let why = |what: &str| {
        Verdict::Unknown(format!(
            "{what}: {m} is modelled on part of its inputs only (undefined elsewhere, \
             semantics/src/eval/fp8.rs), which the check assumes away"
        ))
    };
    match verdict {
        Verdict::Proved => why("no difference where it is modelled, no proof"),
        Verdict::Inapplicable => why("no input where it is modelled"),
        Verdict::Refuted(c) if c.first_difference.contains("target is undefined") => {
            why("the counterexample leaves the modelled part on the target side")
        }
        v => v,
    }
}
