//! The scalar buffer-load family: `s_buffer_load_*`, which reads SGPRs from global memory
//! through a buffer resource (V#) in four SGPRs, range-checked against the V#'s size.
//!
//! Syntax and ranges as llvm-mc 22 accepts them (probed 2026-12 with `llvm-mc-22
//! -show-encoding` on gfx600..gfx1250): `s_buffer_load_dword sdst, sbase, OFFSET` where
//! OFFSET is an immediate or an SGPR (`s2`, `m0`, `null` from gfx10), and from gfx9 on an SGPR
//! with an immediate (`s_buffer_load_dword s5, s[8:11], s2 offset:0x10`). Immediates are
//! unsigned: 8 bits of dwords on gfx6/gfx7, 20 bits of bytes on gfx8-gfx11, 23 bits on gfx12
//! and gfx1250. Names: `s_buffer_load_dword`, `_dwordx2`, `_dwordx4`, `_dwordx8`, `_dwordx16`
//! on every target; from gfx11 `s_buffer_load_b32` .. `_b512`, the older names staying
//! aliases; `s_buffer_load_b96` from gfx12 only (llvm-mc 22 has no `s_buffer_load_dwordx3`).
//! Destinations: pairs even-aligned, three and more SGPRs 4-aligned; SBASE 4-aligned.
//! Cache-policy modifiers are not modelled (errors here). No encoder yet.

mod parse;

pub use parse::parse_smem_with;

use gcnsmt_semantics::target::{Gen, Target};

use crate::global::Sgprs;

/// (pre-gfx11 name, gfx11 name, dwords loaded).
const OPS: &[(&str, &str, u8)] = &[
    ("s_buffer_load_dword", "s_buffer_load_b32", 1),
    ("s_buffer_load_dwordx2", "s_buffer_load_b64", 2),
    // gfx12 on, new name only; the old name is LLVM's MIR opcode (`S_BUFFER_LOAD_DWORDX3_IMM`).
    ("s_buffer_load_dwordx3", "s_buffer_load_b96", 3),
    ("s_buffer_load_dwordx4", "s_buffer_load_b128", 4),
    ("s_buffer_load_dwordx8", "s_buffer_load_b256", 8),
    ("s_buffer_load_dwordx16", "s_buffer_load_b512", 16),
];

/// Whether llvm-mc 22 knows the op on `target` under its old and its new name.
fn spellings(target: Target, old: &str) -> (bool, bool) {
    let g = target.gen();
    if old == "s_buffer_load_dwordx3" {
        return (false, g >= Gen::Gfx12);
    }
    (true, g >= Gen::Gfx11)
}

/// Look up an `s_buffer_load_*` mnemonic on a target: the dwords it loads and its semantics
/// entry (upper case gfx11 name, as `semantics/pcode/smem.pcode` lists it). `None` where the
/// target lacks that spelling.
pub fn smem_lookup(target: Target, mnemonic: &str) -> Option<(u8, String)> {
    let (old, new, dwords) = OPS
        .iter()
        .find(|(o, n, _)| *o == mnemonic || *n == mnemonic)?;
    let (old_ok, new_ok) = spellings(target, old);
    if (mnemonic == *old && !old_ok) || (mnemonic == *new && !new_ok) {
        return None;
    }
    Some((*dwords, new.to_ascii_uppercase()))
}

/// The target's spelling of an op named by either name or by LLVM's MIR opcode base
/// (`s_buffer_load_dwordx2` for `S_BUFFER_LOAD_DWORDX2_IMM`). `None` where the target lacks it.
pub fn smem_spelling(target: Target, name: &str) -> Option<&'static str> {
    let (old, new, _) = OPS.iter().find(|(o, n, _)| *o == name || *n == name)?;
    match spellings(target, old) {
        (_, true) => Some(new),
        (true, false) => Some(old),
        (false, false) => None,
    }
}

/// Whether some target has this mnemonic.
pub fn is_smem_mnemonic(mnemonic: &str) -> bool {
    OPS.iter().any(|(o, n, _)| *o == mnemonic || *n == mnemonic)
}

/// The range of an `s_buffer_load` immediate offset on `target` (unsigned) and its unit in
/// bytes (4 on gfx6/gfx7, whose offset counts dwords).
pub fn smem_buffer_offset_range(target: Target) -> (i64, i64, i64) {
    match target.gen() {
        Gen::Gfx6 | Gen::Gfx7 => (0, 255, 4),
        Gen::Gfx12 | Gen::Gfx1250 => (0, (1 << 23) - 1, 1),
        _ => (0, 0xf_ffff, 1),
    }
}

/// The register offset of an `s_buffer_load`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SOffset {
    /// An SGPR.
    Sgpr(u16),
    /// `m0`.
    M0,
}

/// One `s_buffer_load_*` instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmemInst {
    /// Target.
    pub target: Target,
    /// The mnemonic as written.
    pub mnemonic: String,
    /// The semantics entry (`S_BUFFER_LOAD_B32`, ...).
    pub entry: String,
    /// Destination SGPRs (1, 2, 3, 4, 8 or 16).
    pub sdst: Sgprs,
    /// The four SGPRs holding the V#.
    pub sbase: Sgprs,
    /// The register offset, `None` for an immediate-only form or `null`.
    pub soffset: Option<SOffset>,
    /// The immediate byte offset (already scaled by 4 on gfx6/gfx7).
    pub offset: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holes::NoHoles;
    use gcnsmt_testkit::assert_cases;

    fn parse(t: Target, line: &str) -> Result<SmemInst, String> {
        parse_smem_with(t, line, &mut NoHoles).map_err(|e| e.msg)
    }

    // Accepted and rejected lines as llvm-mc-22 -show-encoding answered them (2026-12).
    #[test]
    fn llvm_mc_22_syntax_per_generation() {
        let i = parse(Target::Gfx900, "s_buffer_load_dword s5, s[8:11], 0x10").unwrap();
        assert_eq!((i.sdst.first, i.sbase.first, i.offset), (5, 8, 16));
        assert_eq!(i.soffset, None);
        let i = parse(Target::Gfx900, "s_buffer_load_dwordx2 s[0:1], s[4:7], s2").unwrap();
        assert_eq!((i.sdst.count, i.soffset), (2, Some(SOffset::Sgpr(2))));
        let i = parse(
            Target::Gfx900,
            "s_buffer_load_dword s5, s[8:11], s2 offset:0x10",
        )
        .unwrap();
        assert_eq!((i.soffset, i.offset), (Some(SOffset::Sgpr(2)), 16));
        // gfx6/gfx7 count the immediate in dwords (encoding [0x10,0x89,0x02,0xc2]: 16 dwords).
        assert_eq!(
            parse(Target::Gfx600, "s_buffer_load_dword s5, s[8:11], 0x10")
                .unwrap()
                .offset,
            64
        );
        let ok = |t: &str, line: &str| parse(t.parse().unwrap(), line).is_ok();
        gcnsmt_testkit::assert_accepts(
            ok,
            "gfx802 err s_buffer_load_dword s5, s[8:11], s2 offset:0x10
             gfx900 err s_buffer_load_dword s5, s[8:11], -4
             gfx900 err s_buffer_load_dword s5, s[8:11], 0x100000
             gfx900 ok s_buffer_load_dword s5, s[8:11], 0xfffff
             gfx1200 ok s_buffer_load_b32 s5, s[8:11], 0x7fffff
             gfx1200 err s_buffer_load_b32 s5, s[8:11], 0x800000
             gfx1100 err s_buffer_load_b32 s5, s[8:11], 0x100000
             gfx900 ok s_buffer_load_dword s5, s[8:11], m0
             gfx1030 ok s_buffer_load_dword s5, s[8:11], null
             gfx900 err s_buffer_load_dword s5, s[8:11], null
             gfx900 err s_buffer_load_dword s5, s[8:11], 0 glc",
        );
    }

    #[test]
    fn widths_alignment_and_names() {
        let ok = |t: &str, line: &str| parse(t.parse().unwrap(), line).is_ok();
        gcnsmt_testkit::assert_accepts(
            ok,
            "# `invalid register alignment` from llvm-mc-22 for each of these.
             gfx900 err s_buffer_load_dwordx2 s[1:2], s[4:7], 0
             gfx900 err s_buffer_load_dword s5, s[2:5], 0
             gfx900 err s_buffer_load_dwordx4 s[2:5], s[4:7], 4
             gfx1200 err s_buffer_load_b96 s[5:7], s[8:11], 0x10
             # Wrong tuple widths.
             gfx900 err s_buffer_load_dwordx2 s0, s[4:7], 0
             gfx900 err s_buffer_load_dword s5, s[8:9], 0
             gfx900 ok s_buffer_load_dwordx16 s[0:15], s[4:7], 4
             # b-names from gfx11; b96 from gfx12 only; no dwordx3 spelling anywhere.
             gfx1030 err s_buffer_load_b32 s5, s[8:11], 0x10
             gfx1100 ok s_buffer_load_b512 s[0:15], s[4:7], 4
             gfx1100 err s_buffer_load_b96 s[4:6], s[8:11], 0x10
             gfx1200 ok s_buffer_load_b96 s[4:6], s[8:11], 0x10
             gfx1200 err s_buffer_load_dwordx3 s[4:6], s[8:11], 0x10",
        );
        assert_cases(
            smem_spelling,
            &[
                (
                    Target::Gfx1100,
                    "s_buffer_load_dwordx2",
                    Some("s_buffer_load_b64"),
                ),
                (
                    Target::Gfx900,
                    "s_buffer_load_dwordx2",
                    Some("s_buffer_load_dwordx2"),
                ),
                (Target::Gfx1100, "s_buffer_load_dwordx3", None),
            ],
        );
    }
}
