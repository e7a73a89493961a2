//! example: each Example assembles for the generation of the page's layout and encodes with
//! the page's constant fields.

use super::{Body, Ctx};
use crate::spec::Entry;
use gcnsmt_lifter::{encode_any, parse_any};

pub(super) const KIND: &str = "example";

/// Each Example assembles for the generation of the page's layout, and encodes with the
/// page's constant fields.
pub(super) fn check(c: &mut Ctx, e: &Entry, _body: &mut Body) {
    const K: &str = KIND;
    let Some(x) = &e.example else { return };
    let Some(&t) = e.gens.first() else {
        c.skip(
            K,
            x.line,
            Some(&e.name),
            "the page names no generation for its layout".into(),
        );
        return;
    };
    match parse_any(t, &x.value) {
        Err(err) => c.find(
            K,
            x.line,
            Some(&e.name),
            Some(t),
            format!("Example: {}", x.value),
            format!("not valid on {t}, the generation of the page's layout: {err}"),
            vec![(
                "assembler".into(),
                "gcnsmt's assembler (byte-exact with llvm-mc 22)".into(),
            )],
        ),
        Ok(inst) => {
            let b = encode_any(&inst);
            let w = u64::from_le_bytes(b[..8].try_into().expect("at least 8 bytes"));
            let mut mask = 0u64;
            let mut want = 0u64;
            for f in e
                .layout
                .iter()
                .filter(|f| f.constant.is_some() && f.hi < 64)
            {
                let m = ((1u128 << (f.hi - f.lo + 1)) - 1) as u64;
                mask |= m << f.lo;
                want |= f.constant.expect("filtered") << f.lo;
            }
            if w & mask != want {
                c.find(K, x.line, Some(&e.name), Some(t), format!("Example: {}", x.value), format!("encodes as {w:#018x} on {t}, whose constant fields are {:#x}, not {want:#x}", w & mask), vec![]);
            } else {
                c.ok(K);
            }
        }
    }
}
