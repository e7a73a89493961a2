//! A refutation through a first-lane read of a 16-bit half whose source is not uniform
//! (`half16.rs`: `%s:sreg_32 = COPY %v.hi16`), kept only where it holds with lane F = lane L.
//!
//! si-fix-sgpr-copies rewrites such a copy's users to read the VGPR half per lane, which is
//! right when the copy's source is uniform (LLVM selects a VGPR-to-SGPR copy only for values
//! its divergence analysis calls uniform). The first-lane model (`firstlane.rs`) reads lane F's
//! copy of the source, with lane F's inputs free, so a correct rewrite is refuted through lanes
//! that hold different values. Here such a refutation is checked again with every lane-F
//! input equal to lane L's (`%r<N+SHADOW>_k == %r<N>_k`, `%lfvN == vN`): that is the wave in
//! which lane L is the first active lane (F = L), which exists, so a refutation found there is
//! real; one that needs F's inputs to differ from L's is `unknown`. Proofs are untouched: a
//! proof of the first check holds for every pair of lanes.

use super::dpp::{Checked, Checker};
use super::firstlane::SHADOW;

/// The precondition F = L for a rule text: every lane-F register the text names equals lane
/// L's (`None`: the text names none).
pub fn same_lane_pre(text: &str) -> Option<String> {
    let shadow = regex::Regex::new(r"%r(\d{7,})_(\d+)\b").expect("regex");
    let phys = regex::Regex::new(r"%lfv(\d+)\b").expect("regex");
    let mut eqs = std::collections::BTreeSet::new();
    for c in shadow.captures_iter(text) {
        let Ok(id) = c[1].parse::<u32>() else {
            continue;
        };
        // DPP's lane-S copies are numbered from 2 * SHADOW on (`dpp.rs`).
        if (SHADOW..2 * SHADOW).contains(&id) {
            eqs.insert(format!("%r{id}_{} == %r{}_{}", &c[2], id - SHADOW, &c[2]));
        }
    }
    for c in phys.captures_iter(text) {
        eqs.insert(format!("%lfv{} == v{}", &c[1], &c[1]));
    }
    (!eqs.is_empty()).then(|| eqs.into_iter().collect::<Vec<_>>().join(" && "))
}

/// `check` of `rule`; where `half_read` (the block has a first-lane read of a non-uniform
/// 16-bit half, at the location it names) and the rule is refuted, the refutation is kept only
/// if it holds with F = L ([`same_lane_pre`]), else the verdict is `unknown`.
pub fn recheck(
    rule: &crate::rules::Rule,
    check: &Checker,
    half_read: Option<&str>,
) -> Option<Checked> {
    let first = check(rule)?;
    let (Some(at), Ok(o)) = (half_read, &first) else {
        return Some(first);
    };
    if !matches!(o.verdict, crate::check::Verdict::Refuted(_)) {
        return Some(first);
    }
    let text: String = rule
        .source
        .iter()
        .chain(&rule.target)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let Some(pre) = same_lane_pre(&text) else {
        return Some(first);
    };
    let mut strict = rule.clone();
    strict.pre = Some(match &rule.pre {
        Some(p) => crate::rules::Line {
            text: format!("({}) && {pre}", p.text),
            loc: p.loc,
        },
        None => crate::rules::Line {
            text: pre,
            loc: Default::default(),
        },
    });
    let second = check(&strict)?;
    if let Ok(o2) = &second {
        if matches!(o2.verdict, crate::check::Verdict::Refuted(_)) {
            return Some(second);
        }
    }
    // Not refuted with F = L (or the recheck gave no verdict): the first refutation may need
    // lanes that differ.
    let mut o = first.ok()?;
    o.verdict = crate::check::Verdict::Unknown(format!(
        "refuted only where lanes hold different values of the source of the first-lane read \
         of a 16-bit half at {at}, which LLVM assumes is uniform"
    ));
    Some(Ok(o))
}
