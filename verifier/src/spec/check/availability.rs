//! availability: each generation a page says the instruction is available on has it (under
//! the page's name or one of its "Also written as" names) in LLVM 22's opcode tables.

use super::{lower, Body, Ctx};
use crate::spec::Entry;
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "availability";

fn defined(t: Target, name: &str) -> bool {
    let n = lower(name);
    ds_lookup(t, &n).is_some() || mubuf_lookup(t, &n).is_some()
}

/// Each claimed generation has the instruction; a name LLVM has on no target at all is left
/// unchecked (the page may describe an instruction gcnsmt does not know).
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    if e.available.is_empty() {
        return;
    }
    let names: Vec<&str> = std::iter::once(e.name.as_str())
        .chain(e.aliases.iter().map(|a| a.value.as_str()))
        .collect();
    let known: Vec<Target> = Target::ALL
        .iter()
        .copied()
        .filter(|t| names.iter().any(|n| defined(*t, n)))
        .collect();
    if known.is_empty() {
        let line = e.available[0].line;
        c.skip(
            K,
            line,
            Some(&e.name),
            format!("{} is in no target's opcode table", e.name),
        );
        return;
    }
    for a in &e.available {
        let t = a.value;
        if c.opts.targets.as_ref().is_some_and(|ts| !ts.contains(&t)) {
            continue;
        }
        if known.contains(&t) {
            c.ok(K);
            continue;
        }
        let on: Vec<String> = known.iter().map(|t| t.to_string()).collect();
        c.find(
            K,
            a.line,
            Some(&e.name),
            Some(t),
            format!("available on {t}"),
            format!(
                "{} is not an instruction of {t}; LLVM 22 has it on {}",
                e.name,
                on.join(", ")
            ),
            vec![(
                "llvm-mc 22".into(),
                "the opcode tables of LLVM 22 (lifter tables)".into(),
            )],
        );
    }
}
