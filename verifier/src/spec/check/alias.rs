//! alias: "Also written as X" names the same opcode, and the page's semantics hold under X.

use super::{doc_side, lower, Body, Ctx};
use crate::spec::equiv::{compare, Family, Outcome, Side};
use crate::spec::Entry;
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "alias";

/// Targets on which `name` is a DS or MUBUF instruction, with its opcode.
fn where_defined(name: &str) -> Vec<(Target, u32)> {
    let n = lower(name);
    Target::ALL
        .iter()
        .filter_map(|t| {
            ds_lookup(*t, &n)
                .map(|(o, _)| (*t, o as u32))
                .or_else(|| mubuf_lookup(*t, &n).map(|(o, _)| (*t, o as u32)))
        })
        .collect()
}
/// "Also written as X": X names the same opcode on the generations that use it, and the
/// page's semantics hold under X (an operand swap between the names shows as a difference).
pub(super) fn check(c: &mut Ctx, e: &Entry, body: &mut Body) {
    const K: &str = KIND;
    let body = body.get(c, e);
    // `--target` limits the targets an alias is checked on, as it does every other check.
    let wanted = |t: &Target| c.opts.targets.as_ref().is_none_or(|ts| ts.contains(t));
    let mine: Vec<_> = where_defined(&e.name)
        .into_iter()
        .filter(|x| wanted(&x.0))
        .collect();
    for a in &e.aliases {
        // A page that lists its own name among the aliases says nothing about another name.
        if lower(&a.value) == lower(&e.name) {
            continue;
        }
        let all_theirs = where_defined(&a.value);
        let theirs: Vec<_> = all_theirs
            .iter()
            .copied()
            .filter(|x| wanted(&x.0))
            .collect();
        if theirs.is_empty() && !all_theirs.is_empty() {
            c.skip(
                K,
                a.line,
                Some(&e.name),
                format!("{} is not an instruction of the targets asked for", a.value),
            );
            continue;
        }
        if theirs.is_empty() {
            c.find(
                K,
                a.line,
                Some(&e.name),
                None,
                format!("also written as {}", a.value),
                format!("{} is no instruction of any target LLVM 22 knows", a.value),
                vec![],
            );
            continue;
        }
        // Same opcode on targets of the same layout where one name gives way to the other.
        let paired = theirs.iter().find_map(|(ta, oa)| {
            mine.iter()
                .filter(|(tm, _)| same_layout(&e.name, *tm, *ta))
                .min_by_key(|(tm, _)| (*tm as i32 - *ta as i32).abs())
                .map(|(tm, om)| (*ta, *oa, *tm, *om))
        });
        let Some((ta, oa, tm, om)) = paired else {
            c.skip(
                K,
                a.line,
                Some(&e.name),
                format!(
                    "no target with the same encoding layout has both {} and {}",
                    e.name, a.value
                ),
            );
            continue;
        };
        if oa != om {
            c.find(
                K,
                a.line,
                Some(&e.name),
                Some(ta),
                format!("also written as {}", a.value),
                format!(
                    "{} is opcode {oa} on {ta}, {} is opcode {om} on {tm}",
                    a.value,
                    lower(&e.name)
                ),
                vec![],
            );
            continue;
        }
        c.ok(K);
        // The page's semantics under the alias, on a target that uses the alias.
        let (Some(body), Some(p)) = (body, &e.pcode) else {
            continue;
        };
        let an = lower(&a.value);
        let Some((en, def)) = ds_semantics(&an) else {
            continue;
        };
        if ds_lookup(ta, &an).is_none() {
            continue;
        }
        let doc = doc_side(Family::Ds, "document", body, p);
        let own = ds_semantics(&lower(&e.name));
        // When the page's Semantics do not hold for its own name either, the fault is in the
        // Semantics (pcode-vs-semantics reports it), not in the operand order of the names.
        if let Some((on, odef)) = &own {
            let mine_side = Side::ours(on, odef);
            let own_t = if ds_lookup(ta, &lower(&e.name)).is_some() {
                ta
            } else {
                tm
            };
            if !matches!(
                compare(
                    Family::Ds,
                    &lower(&e.name),
                    own_t,
                    &doc,
                    &mine_side,
                    c.opts.timeout
                ),
                Outcome::Same
            ) {
                c.skip(
                    K,
                    a.line,
                    Some(&e.name),
                    format!("the page's Semantics do not hold for {} itself (see pcode-vs-semantics), so what they say about {} is not a fact about the names", e.name, a.value),
                );
                continue;
            }
        }
        let ours = Side::ours(&en, def);
        match compare(Family::Ds, &an, ta, &doc, &ours, c.opts.timeout) {
            Outcome::Same => c.ok(K),
            Outcome::Unknown(r) => c.skip(K, a.line, Some(&e.name), format!("{ta}: {r}")),
            Outcome::Differs(mut ev) => {
                ev.insert(
                    0,
                    (
                        "operands".into(),
                        format!("{} with the page's operands on {ta}", a.value),
                    ),
                );
                c.find(
                    K,
                    a.line,
                    Some(&e.name),
                    Some(ta),
                    format!("also written as {} (the same instruction)", a.value),
                    format!("the same opcode, but the page's Semantics do not hold for {} on {ta}: the names differ in operand order", a.value),
                    ev,
                );
            }
        }
    }
}
/// Whether two targets encode `name`'s family alike (DS: LLVM's DS layouts; MUBUF: the
/// lifter's MUBUF layouts, which gfx11 renumbered).
fn same_layout(name: &str, a: Target, b: Target) -> bool {
    if lower(name).starts_with("ds_") {
        a.ds_layout() == b.ds_layout()
    } else {
        gcnsmt_lifter::MubufLayout::of(a) == gcnsmt_lifter::MubufLayout::of(b)
    }
}
