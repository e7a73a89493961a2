//! opcode-table: CLRX opcode table rows against gcnsmt's per-target tables (llvm-mc 22).

use super::{lower, Ctx};
use gcnsmt_lifter::mubuf_table::mubuf_lookup;
use gcnsmt_lifter::table::{ds_by_opcode, ds_lookup};
use gcnsmt_semantics::target::Target;

pub(super) const KIND: &str = "opcode-table";

/// CLRX opcode table rows against gcnsmt's per-target tables (llvm-mc 22).
pub(super) fn check(c: &mut Ctx) {
    const K: &str = KIND;
    // Within one generation a mnemonic has one opcode.
    let mut seen: Vec<(Target, String, u32, u32)> = Vec::new();
    for row in &c.doc.table {
        for (t, name) in &row.names {
            let n = lower(name);
            if let Some((_, _, op, line)) = seen.iter().find(|(st, sn, _, _)| st == t && *sn == n) {
                let (op, line) = (*op, *line);
                if op != row.opcode {
                    c.find(
                        K,
                        row.line,
                        Some(name),
                        Some(*t),
                        format!("opcode {} ({:#x}) is {name} on {t}", row.opcode, row.opcode),
                        format!("line {line} already gives {name} opcode {op} on {t}; a mnemonic has one opcode per generation"),
                        vec![],
                    );
                }
            } else {
                seen.push((*t, n, row.opcode, row.line));
            }
        }
    }
    for row in &c.doc.table {
        // One finding per row and name, naming every generation it is wrong for.
        let mut wrong: Vec<(String, Vec<Target>, String)> = Vec::new();
        for (t, name) in &row.names {
            if c.opts.targets.as_ref().is_some_and(|f| !f.contains(t)) {
                continue;
            }
            let n = lower(name);
            let is_buf = n.starts_with("buffer_") || n.starts_with("tbuffer_");
            let at = u8::try_from(row.opcode).ok().and_then(|op| {
                if is_buf {
                    gcnsmt_lifter::mubuf_by_opcode(*t, op).map(|x| x.0)
                } else {
                    ds_by_opcode(*t, op).map(|x| x.0)
                }
            });
            let lookup = |n: &str| {
                if is_buf {
                    mubuf_lookup(*t, n).map(|x| x.0)
                } else {
                    ds_lookup(*t, n).map(|x| x.0)
                }
            };
            let family = if is_buf { "MUBUF" } else { "DS" };
            let truth = match (at, lookup(&n)) {
                (Some(ours), _) if ours == n => {
                    c.ok(K);
                    continue;
                }
                (Some(ours), Some(op)) => {
                    format!("opcode {} is {ours}; {n} is opcode {op}", row.opcode)
                }
                (Some(ours), None) => {
                    format!(
                        "opcode {} is {ours}; {n} is no instruction there",
                        row.opcode
                    )
                }
                // Nothing at this opcode, but the mnemonic is elsewhere: the row is wrong.
                (None, Some(op)) => format!(
                    "LLVM 22 has no {family} instruction at opcode {}; {n} is opcode {op}",
                    row.opcode
                ),
                (None, None) => {
                    let why = format!(
                        "LLVM 22 has no {family} instruction at opcode {} on {t}",
                        row.opcode
                    );
                    c.skip(K, row.line, Some(name), why);
                    continue;
                }
            };
            // One finding per wrong statement, listing every target it is wrong on.
            match wrong
                .iter_mut()
                .find(|(w, _, tr)| w == name && *tr == truth)
            {
                Some((_, ts, _)) => ts.push(*t),
                None => wrong.push((name.clone(), vec![*t], truth)),
            }
        }
        for (name, ts, truth) in wrong {
            let names: Vec<&str> = ts.iter().map(|t| t.name()).collect();
            c.find(
                K,
                row.line,
                Some(&name),
                ts.first().copied(),
                format!("opcode {} ({:#x}) is {name}", row.opcode, row.opcode),
                format!("on {}: {truth}", names.join(", ")),
                vec![(
                    "source".into(),
                    "lifter/data/{ds,mubuf}_opcodes_by_target.csv (llvm-mc 22)".into(),
                )],
            );
        }
    }
}
