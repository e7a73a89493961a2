//! Whether a refutation is one: a counterexample resting on an uninterpreted result, or
//! differing only in inputs of dropped instructions, is `unknown`; and the counterexample's
//! rule variables named back in MIR terms.

use super::diff::FnPair;
use super::lower::Lowered;

/// `refuted` only for a counterexample that shows a real difference: not one resting on the
/// fresh result of an uninterpreted instruction, nor one where the sides differ only in the
/// inputs of dropped unmodelled instructions (which may map both to one result): `unknown`.
pub(super) fn classify_refutation(
    l: &Lowered,
    c: &crate::check::Cex,
    fp: &FnPair,
) -> (&'static str, String) {
    let dead = |n: &str| {
        l.rule
            .dead
            .iter()
            .any(|(d, _)| d == n.trim_start_matches('%'))
    };
    let differing: Vec<&str> = c
        .regs
        .iter()
        .filter(|(n, x, y)| x != y && !dead(n))
        .map(|(n, _, _)| n.as_str())
        .collect();
    let only_soft = c.mem_diffs.is_empty()
        && !differing.is_empty()
        && differing.iter().all(|n| l.soft.contains(*n));
    if !l.uninterpreted.is_empty() && !l.taint.real(c, &l.rule, &differing, &l.soft) {
        let ops = l.uninterpreted.join(", ");
        (
            "unknown",
            format!("a counterexample rests on the uninterpreted result of {ops}"),
        )
    } else if c.mem_diffs.is_empty()
        && !differing.is_empty()
        && differing
            .iter()
            .all(|n| n.trim_start_matches('%').starts_with("claimop"))
    {
        // Only the operands of an access paired for its claims differ (`memop::claim_pairs`):
        // the claim is not shown to be about the same bytes, and nothing the code computes
        // differs; the claim, not the code, is what is not backed.
        (
            "unsupported",
            "a memory operand's claim rests on an access of other operands (the paired \
             accesses' operands differ; their values do not)"
                .into(),
        )
    } else if only_soft {
        let regs = mir_names(&differing.join(", "), fp);
        (
            "unknown",
            format!("the sides differ only in inputs of unmodelled instructions ({regs})"),
        )
    } else {
        ("refuted", mir_names(&c.first_difference, fp))
    }
}

/// Rule variable names back in MIR terms: `%r14_0` -> `%14` (one dword) or `%14.sub0`.
pub(super) fn mir_names(text: &str, fp: &FnPair) -> String {
    let dwords = |id: u32| {
        let cls = fp
            .before
            .classes
            .get(&id)
            .or_else(|| fp.after.classes.get(&id));
        cls.and_then(|c| super::half16::class_cells(c))
    };
    // DPP's lane-S copies first (`%16@quad_perm:[1,0,0,0]`).
    let text = &super::dpp::mir_names(text, &dwords);
    let re = regex::Regex::new(r"%r(\d+)_(\d+)").expect("valid regex");
    re.replace_all(text, |c: &regex::Captures| {
        let id: u32 = c[1].parse().unwrap_or(0);
        let cls = fp
            .before
            .classes
            .get(&id)
            .or_else(|| fp.after.classes.get(&id));
        match cls.and_then(|c| super::half16::class_cells(c)) {
            Some(1) => format!("%{id}"),
            _ => format!("%{id}.sub{}", &c[2]),
        }
    })
    .into_owned()
}
