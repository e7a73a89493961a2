//! layout: the CLRX field table against the DS encoding of each generation the page covers.

use super::Ctx;
use crate::spec::{Field, Format};
use gcnsmt_lifter::{encode_any, parse_any};
use gcnsmt_semantics::target::{DsLayout, Target};

pub(super) const KIND: &str = "layout";

/// Where a DS target's OP and GDS fields are (LLVM `DSInstructions.td`, llvm-mc 22 probes).
pub(super) fn ds_fields(t: Target) -> (u32, u32, Option<u32>) {
    match t.ds_layout() {
        DsLayout::Si => (25, 18, Some(17)),
        DsLayout::Vi => (24, 17, Some(16)),
        DsLayout::Vds => (25, 18, None),
    }
}
/// The CLRX field table against each generation the page covers.
pub(super) fn check(c: &mut Ctx) {
    const K: &str = KIND;
    // The DS field table only: MUBUF pages draw another encoding.
    if c.doc.format != Format::Clrx || !c.doc.fields.iter().any(|f| f.name == "OFFSET0") {
        return;
    }
    let gens = c.doc.gens.clone();
    for t in gens {
        let (ophi, oplo, gds) = ds_fields(t);
        let applies = |f: &&Field| f.gens.is_empty() || f.gens.contains(&t);
        let fields: Vec<Field> = c.doc.fields.iter().filter(applies).cloned().collect();
        let evidence = |hi: u32, lo: u32| -> Vec<(String, String)> {
            let word = parse_any(t, "ds_write_b32 v1, v2")
                .map(|i| encode_any(&i))
                .ok()
                .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes")));
            let mut ev = vec![(
                "llvm-mc 22".into(),
                format!(
                    "{t}: OP is bits {ophi}:{oplo}{}",
                    gds.map(|g| format!(", GDS bit {g}")).unwrap_or_default()
                ),
            )];
            if let Some(w) = word {
                let read = (w >> lo) & ((1u64 << (hi - lo + 1)) - 1);
                ev.push(("encoding".into(), format!("ds_write_b32 v1, v2 (opcode 13) is {w:#018x} on {t}; bits {hi}:{lo} of it read {read}")));
            }
            ev
        };
        for f in &fields {
            let is_op = f.name == "OPCODE" || f.name == "OP";
            if is_op && (f.hi, f.lo) != (ophi, oplo) {
                let ev = evidence(f.hi, f.lo);
                c.find(
                    K,
                    f.line,
                    None,
                    Some(t),
                    format!("{} is bits {}-{}", f.name, f.lo, f.hi),
                    format!("on {t} the opcode is bits {oplo}-{ophi}"),
                    ev,
                );
            } else if f.name == "GDS" && gds.is_some_and(|g| (f.hi, f.lo) != (g, g)) {
                let g = gds.expect("checked");
                let ev = evidence(f.hi, f.lo);
                c.find(
                    K,
                    f.line,
                    None,
                    Some(t),
                    format!("GDS is bit {}", f.lo),
                    format!("on {t} GDS is bit {g}"),
                    ev,
                );
            } else if is_op || f.name == "GDS" {
                c.ok(K);
            }
        }
        super::fields::check_rows(c, t, &fields);
    }
}
