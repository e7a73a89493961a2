//! example: each Example assembles for the generation of the page's layout and encodes with
//! the page's constant fields.

use super::{Body, Ctx};
use crate::spec::Entry;
use gcnsmt_lifter::{encode_any, parse_any};
use gcnsmt_semantics::target::Target;

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
            stated_bytes(c, e, t, &b);
            // Rows other than the opcode's: every instruction of the encoding has their
            // constant, so a row that disagrees with the assembled word is the row's fault,
            // reported at the row. The opcode field is the instruction's own (the opcode and
            // identifier checks read it); it stays this check's, at the Example.
            let op_row = |f: &&crate::spec::Field| {
                matches!(f.name.as_str(), "OP" | "OPCODE") || f.name.starts_with(['0', '1'])
            };
            let mut mask = 0u64;
            let mut want = 0u64;
            for f in e
                .layout
                .iter()
                .filter(|f| f.constant.is_some() && f.hi < 64)
            {
                let m = ((1u128 << (f.hi - f.lo + 1)) - 1) as u64;
                let v = f.constant.expect("filtered");
                if op_row(&f) {
                    mask |= m << f.lo;
                    want |= v << f.lo;
                    continue;
                }
                let got = (w >> f.lo) & m;
                if got != v {
                    c.find(
                        super::layout::KIND,
                        f.line,
                        Some(&e.name),
                        Some(t),
                        format!("{} (bits {}:{}) is {v:#x}", f.name, f.hi, f.lo),
                        format!("on {t} every instruction of this encoding has {got:#x} there: the Example `{}` assembles to {w:#018x}", x.value),
                        vec![("assembler".into(), "gcnsmt's assembler (byte-exact with llvm-mc 22)".into())],
                    );
                } else {
                    c.ok(super::layout::KIND);
                }
            }
            if w & mask != want {
                c.find(K, x.line, Some(&e.name), Some(t), format!("Example: {}", x.value), format!("encodes as {w:#018x} on {t}, whose constant fields are {:#x}, not {want:#x}", w & mask), vec![]);
            } else {
                c.ok(K);
            }
        }
    }
}

/// The bytes the page gives for its Example against what it assembles to.
fn stated_bytes(c: &mut Ctx, e: &Entry, t: Target, b: &[u8]) {
    let Some(s) = &e.example_bytes else { return };
    let x = e.example.as_ref().map_or("", |x| x.value.as_str());
    let hex = |v: &[u8]| {
        let h: Vec<String> = v.iter().map(|b| format!("{b:#04x}")).collect();
        format!("[{}]", h.join(","))
    };
    if s.value.as_slice() == b {
        c.ok(KIND);
        return;
    }
    let first = s.value.iter().zip(b).position(|(a, b)| a != b);
    let what = match first {
        Some(i) => format!("byte {i} is {:#04x}, not {:#04x}", s.value[i], b[i]),
        None => format!("{} bytes, not {}", s.value.len(), b.len()),
    };
    c.find(
        KIND,
        s.line,
        Some(&e.name),
        Some(t),
        format!("`{x}` encodes as {}", hex(&s.value)),
        format!("on {t} it encodes as {} ({what})", hex(b)),
        vec![(
            "assembler".into(),
            "gcnsmt's assembler (byte-exact with llvm-mc 22)".into(),
        )],
    );
}
