//! The FLAT family: FLAT loads and stores (gfx7 on), whose one 64-bit address reaches LDS,
//! scratch or global memory by the aperture it lies in (the semantics decide,
//! `semantics/pcode/flat.pcode`). The instruction has the GLOBAL family's shape without
//! `saddr`, so it is a [`GlobalInst`] with `saddr` `None` and a two-VGPR `vaddr`.
//!
//! Syntax and ranges as llvm-mc 22 accepts them (probed 2026-12 with `llvm-mc-22
//! -show-encoding` on gfx700 to gfx1250): `flat_load_dword vdst, vaddr [offset:N]`,
//! `flat_store_dword vaddr, vdata [offset:N]`; no FLAT on gfx6; the gfx11 names
//! (`flat_load_b32`) from gfx11 on, where the older names stay accepted. Offsets in bytes:
//! none on gfx7/gfx8 (only `offset:0` is accepted), unsigned 12 bits on gfx9, CDNA and gfx11,
//! unsigned 11 bits on gfx10, signed 24 bits on gfx12/gfx1250. Cache-policy modifiers and the
//! atomics are not modelled: such lines are errors here, never part of a proof. Encoding is not
//! provided for this family yet.

mod parse;

pub use parse::parse_flat_with;

use crate::global::{renamed_lookup, vector_ops, GlobalKind, GlobalOp};
use gcnsmt_semantics::target::{Gen, Target};
use std::sync::OnceLock;

/// (pre-gfx11 name, gfx11 name, kind, bytes): the GLOBAL vector ops as `flat_*`.
fn ops() -> &'static [(&'static str, &'static str, GlobalKind, u8)] {
    static OPS: OnceLock<Vec<(&'static str, &'static str, GlobalKind, u8)>> = OnceLock::new();
    OPS.get_or_init(|| {
        let flat = |g: &str| -> &'static str {
            let rest = g.strip_prefix("global_").expect("a GLOBAL name");
            Box::leak(format!("flat_{rest}").into_boxed_str())
        };
        vector_ops()
            .map(|(old, new, kind, bytes)| (flat(old), flat(new), kind, bytes))
            .collect()
    })
}

/// Whether llvm-mc 22 knows FLAT on `target` under the old and the new names.
fn spellings(target: Target) -> (bool, bool) {
    let g = target.gen();
    let exists = g >= Gen::Gfx7;
    (exists, exists && g >= Gen::Gfx11)
}

/// Look up a FLAT mnemonic on a target: the op and the semantics entry name (upper case, the
/// gfx11 name, as `semantics/pcode/flat.pcode` lists it). `None` if the target lacks it.
pub fn flat_lookup(target: Target, mnemonic: &str) -> Option<(GlobalOp, String)> {
    renamed_lookup(ops(), mnemonic, |_| spellings(target))
}

/// The target's own spelling of a FLAT op named by either generation's name: the gfx11 name
/// from gfx11 on, the older one before. `None` where the target lacks FLAT.
pub fn flat_spelling(target: Target, name: &str) -> Option<&'static str> {
    let (old, new, _, _) = ops().iter().find(|(o, n, _, _)| *o == name || *n == name)?;
    match spellings(target) {
        (_, true) => Some(new),
        (true, false) => Some(old),
        (false, false) => None,
    }
}

/// Whether some target has this FLAT mnemonic.
pub fn is_flat_mnemonic(mnemonic: &str) -> bool {
    ops()
        .iter()
        .any(|(o, n, _, _)| *o == mnemonic || *n == mnemonic)
}

/// The range of a FLAT instruction offset on `target`, bytes.
pub fn flat_offset_range(target: Target) -> (i64, i64) {
    match target.gen() {
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => (0, 0),
        Gen::Gfx10 => (0, 2047),
        Gen::Gfx12 | Gen::Gfx1250 => (-(1 << 23), (1 << 23) - 1),
        Gen::Gfx9 | Gen::Gfx90a | Gen::Gfx11 => (0, 4095),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Names and ranges as llvm-mc-22 accepts them (module doc).
    #[test]
    fn names_and_offsets_per_generation() {
        assert!(flat_lookup(Target::Gfx600, "flat_load_dword").is_none());
        let (op, entry) = flat_lookup(Target::Gfx802, "flat_load_dwordx3").unwrap();
        assert_eq!(
            (op.kind, op.bytes, entry.as_str()),
            (GlobalKind::Load, 12, "FLAT_LOAD_B96")
        );
        assert!(flat_lookup(Target::Gfx1030, "flat_store_b32").is_none());
        assert!(flat_lookup(Target::Gfx1100, "flat_store_b32").is_some());
        assert!(flat_lookup(Target::Gfx1200, "flat_store_dword").is_some());
        gcnsmt_testkit::assert_cases(
            flat_spelling,
            &[
                (Target::Gfx1100, "flat_load_ubyte", Some("flat_load_u8")),
                (Target::Gfx802, "flat_load_u8", Some("flat_load_ubyte")),
            ],
        );
        assert_eq!(flat_offset_range(Target::Gfx802), (0, 0));
        assert_eq!(flat_offset_range(Target::Gfx900), (0, 4095));
        assert_eq!(flat_offset_range(Target::Gfx1030), (0, 2047));
        assert_eq!(flat_offset_range(Target::Gfx1200), (-8388608, 8388607));
        assert!(is_flat_mnemonic("flat_store_short") && !is_flat_mnemonic("flat_atomic_add"));
    }
}
