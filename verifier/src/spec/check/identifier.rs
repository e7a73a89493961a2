//! identifier: a reference page's identifier against its drawn layout, and the layout's
//! opcode field against the Opcode line and gcnsmt's layout of the page's generation.

use super::layout::ds_fields;
use super::{is_ds, Body, Ctx};
use crate::spec::Entry;

pub(super) const KIND: &str = "identifier";

/// The identifier against the drawn layout, and the layout's opcode field against the Opcode
/// line and gcnsmt's layout of the page's generation.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    if e.layout.is_empty() {
        return;
    }
    let mut rebuilt: u64 = 0;
    for f in e.layout.iter().filter(|f| f.constant.is_some()) {
        if f.lo < 64 {
            rebuilt |= f.constant.expect("filtered") << f.lo;
        }
    }
    let op_field = e
        .layout
        .iter()
        .find(|f| f.constant.is_some() && f.hi < 26 && f.lo >= 14 || f.name == "OP");
    let mut bad = false;
    if let (Some(id), Some(_)) = (&e.identifier, op_field) {
        if id.value != rebuilt {
            bad = true;
            c.find(
                K,
                id.line,
                Some(&e.name),
                None,
                format!("Identifier {:#018x}", id.value),
                format!("the drawn layout's constant fields give {rebuilt:#018x}"),
                vec![("layout".into(), fields_text(e))],
            );
        }
    }
    if let (Some(op), Some(f)) = (&e.opcode, op_field) {
        if f.constant.is_some_and(|v| v != op.value as u64) {
            bad = true;
            c.find(
                K,
                f.line,
                Some(&e.name),
                None,
                format!("OP field {} at {}:{}", f.name, f.hi, f.lo),
                format!("the Opcode line says {}", op.value),
                vec![],
            );
        }
        if let Some(&t) = e.gens.first() {
            if is_ds(e) {
                let (hi, lo, _) = ds_fields(t);
                if (f.hi, f.lo) != (hi, lo) {
                    bad = true;
                    c.find(
                        K,
                        f.line,
                        Some(&e.name),
                        Some(t),
                        format!("OP is bits {}:{}", f.hi, f.lo),
                        format!("on {t} the DS opcode is bits {hi}:{lo} (llvm-mc 22)"),
                        vec![],
                    );
                }
            }
        }
    }
    if !bad {
        c.ok(K);
    }
}
fn fields_text(e: &Entry) -> String {
    e.layout
        .iter()
        .map(|f| format!("{} {}:{}", f.name, f.hi, f.lo))
        .collect::<Vec<_>>()
        .join(", ")
}
