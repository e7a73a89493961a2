//! opcode: entry opcodes against the document's own tables and gcnsmt's per-target tables.

use super::{lower, Body, Ctx};
use crate::spec::Entry;
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "opcode";

/// Entry opcodes against the document's own tables and gcnsmt's per-target tables.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    let Some(op) = &e.opcode else { return };
    let name = lower(&e.name);
    // The opcode the entry claims for a generation.
    let claimed = |t: Target| -> Option<u32> {
        if e.opcode_gens.is_empty() {
            Some(op.value)
        } else {
            e.opcode_gens
                .iter()
                .find(|(_, g)| g.contains(&t))
                .map(|(v, _)| *v)
        }
    };
    let mut ev = Vec::new();
    let mut claim_wrong = false;
    let mut wrong_value = op.value;
    for row in &c.doc.table {
        for (t, n) in &row.names {
            if n.eq_ignore_ascii_case(&e.name) && claimed(*t).is_some_and(|v| v != row.opcode) {
                claim_wrong = true;
                wrong_value = claimed(*t).unwrap_or(op.value);
                ev.push((
                    "opcode table".into(),
                    format!(
                        "line {}: {} is opcode {} ({:#x}) on {t}",
                        row.line, e.name, row.opcode, row.opcode
                    ),
                ));
                break;
            }
        }
    }
    let mut ours: Option<(Target, u32)> = None;
    for t in c.targets(e) {
        let found = if lower(&e.name).starts_with("ds_") {
            ds_lookup(t, &name).map(|(o, _)| o as u32)
        } else {
            mubuf_lookup(t, &name).map(|(o, _)| o as u32)
        };
        if let (Some(o), Some(cl)) = (found, claimed(t)) {
            if o != cl && ours.is_none() {
                ours = Some((t, o));
                claim_wrong = true;
                wrong_value = cl;
                ev.push((
                    "llvm-mc 22".into(),
                    format!("{name} is opcode {o} ({o:#x}) on {t}"),
                ));
            }
        }
    }
    for other in &c.doc.entries {
        if other.name != e.name
            && other
                .opcode
                .as_ref()
                .is_some_and(|o| o.value == wrong_value)
            && claim_wrong
        {
            ev.push((
                "same opcode".into(),
                format!(
                    "line {}: {} also says opcode {}",
                    other.line, other.name, wrong_value
                ),
            ));
        }
    }
    if claim_wrong {
        let truth = match ours {
            Some((t, o)) => format!("{} is opcode {o} ({o:#x}) on {t}", e.name),
            None => "the document's opcode table gives another opcode".into(),
        };
        c.find(
            K,
            op.line,
            Some(&e.name),
            ours.map(|x| x.0),
            format!("Opcode: {wrong_value} ({wrong_value:#x})"),
            truth,
            ev,
        );
    } else {
        c.ok(K);
    }
}
