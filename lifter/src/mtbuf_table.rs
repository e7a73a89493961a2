//! MTBUF (typed buffer, 64-bit, gfx6-gfx11): opcodes, operand shapes, the word layout per
//! generation, and the names of the instruction's 7-bit FORMAT field. An MTBUF instruction is a
//! [`crate::MubufInst`] whose shape is `typed` on a non-VBUFFER target: it shares the MUBUF
//! decoder, encoder, printer and parser, which branch on [`is_mtbuf`] only for the opcode and
//! flag positions and the format spelling.
//!
//! Sources (facts only): LLVM `BUFInstructions.td` (`Base_MTBUF_Real_gfx6_gfx7_gfx10_gfx11`,
//! `MTBUF_Real_gfx6_gfx7`, `MTBUF_Real_Base_vi`, `MTBUF_Real_gfx80`, `MTBUF_Real_gfx90a`,
//! `MTBUF_Real_gfx10`, `MTBUF_Real_gfx11` and their `defm TBUFFER_*` opcode lists: 8 ops on
//! gfx6/gfx7, 16 with the d16 forms from gfx8, renamed `tbuffer_{load,store}_d16_format_*` on
//! gfx11; none on gfx1250); the format names of LLVM `AMDGPUAsmUtils.cpp`
//! (`BUF_DATA_FORMAT_*`, `BUF_NUM_FORMAT_*`, `BUF_FMT_*`) as printed in LLVM's MC tests
//! `mtbuf.s`, `mtbuf-gfx10.s`, `buf-fmt-d16-packed.s`, `gfx11_asm_mtbuf.s`, whose lines
//! `tests/data/mtbuf_llvm_mc.txt` keeps and `lifter/tests/mtbuf_oracle.rs` checks. The unified
//! (gfx10+) code of each (data format, number format) pair is the semantics' own table
//! ([`gcnsmt_semantics::buffer::format::ufmt_table`]), so the printer and the semantics read
//! one definition.

use gcnsmt_semantics::buffer::format::ufmt_table;
use gcnsmt_semantics::target::{Gen, Target};

use crate::mubuf_table::{MubufClass, MubufLayout, MubufShape};

/// Data format names (4-bit DFMT code 0-15, `BUF_DATA_FORMAT_` omitted; LLVM
/// `AMDGPUAsmUtils.cpp`, MSB component first, e.g. code 6 `10_11_11`).
pub const DFMT_NAMES: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];

/// Number format names (3-bit NFMT code 0-7, `BUF_NUM_FORMAT_` omitted); code 6 is
/// `SNORM_OGL` on gfx6/gfx7 and `RESERVED_6` on gfx8/gfx9/CDNA (llvm `mtbuf.s`), and has no
/// name on gfx10+.
pub fn nfmt_name(target: Target, n: u8) -> Option<&'static str> {
    Some(match n & 7 {
        0 => "UNORM",
        1 => "SNORM",
        2 => "USCALED",
        3 => "SSCALED",
        4 => "UINT",
        5 => "SINT",
        6 if target.gen() <= Gen::Gfx7 => "SNORM_OGL",
        6 if ufmt_table(target).is_none() => "RESERVED_6",
        6 => return None,
        _ => "FLOAT",
    })
}

/// Whether `target` uses the MTBUF encoding (bits 31:26 = 0x3a) for `tbuffer_*`: every
/// target before gfx12 (gfx12 has VBUFFER typed forms, gfx1250 none).
pub fn has_mtbuf(target: Target) -> bool {
    MubufLayout::of(target) != MubufLayout::Vbuffer
}

/// Whether `shape` on `target` is an MTBUF instruction (a typed op before gfx12).
pub fn is_mtbuf(target: Target, shape: &MubufShape) -> bool {
    shape.typed && has_mtbuf(target)
}

/// MTBUF names by opcode before gfx11 (`OP` 0-15; 8-15 from gfx8).
const NAMES: [&str; 16] = [
    "tbuffer_load_format_x",
    "tbuffer_load_format_xy",
    "tbuffer_load_format_xyz",
    "tbuffer_load_format_xyzw",
    "tbuffer_store_format_x",
    "tbuffer_store_format_xy",
    "tbuffer_store_format_xyz",
    "tbuffer_store_format_xyzw",
    "tbuffer_load_format_d16_x",
    "tbuffer_load_format_d16_xy",
    "tbuffer_load_format_d16_xyz",
    "tbuffer_load_format_d16_xyzw",
    "tbuffer_store_format_d16_x",
    "tbuffer_store_format_d16_xy",
    "tbuffer_store_format_d16_xyz",
    "tbuffer_store_format_d16_xyzw",
];

/// gfx11's names of the d16 opcodes 8-15 (`MTBUF_Real_AllAddr_gfx11_gfx12_Renamed`).
const NAMES_GFX11_D16: [&str; 8] = [
    "tbuffer_load_d16_format_x",
    "tbuffer_load_d16_format_xy",
    "tbuffer_load_d16_format_xyz",
    "tbuffer_load_d16_format_xyzw",
    "tbuffer_store_d16_format_x",
    "tbuffer_store_d16_format_xy",
    "tbuffer_store_d16_format_xyz",
    "tbuffer_store_d16_format_xyzw",
];

/// Word bits no MTBUF field of the layout uses: LLVM leaves them unassigned (`ps.tfe`,
/// which no MTBUF pseudo sets) or gives them to a cache-policy bit the target's assembler
/// rejects (SCC 53 on gfx8/gfx9). Not probed (no llvm-mc-22 here): a word with one set is
/// rejected, never guessed.
fn free_bits(layout: MubufLayout) -> u128 {
    match layout {
        MubufLayout::Si | MubufLayout::Vi => (1 << 53) | (1 << 55),
        MubufLayout::Gfx10 => 1 << 55,
        MubufLayout::Gfx11 => 1 << 53,
        _ => 0,
    }
}

/// Number of MTBUF opcodes on `target`: 8 on gfx6/gfx7, 16 on gfx8-gfx11, 0 from gfx12.
fn op_count(target: Target) -> u8 {
    match MubufLayout::of(target) {
        MubufLayout::Vbuffer => 0,
        MubufLayout::Si => 8,
        _ => 16,
    }
}

/// Mnemonic and shape of MTBUF opcode `op` on `target`, or `None`. vdata is 1-4 dwords by
/// component count; d16 forms pack two components per dword, except on gfx8.0 (gfx802,
/// LLVM `HasUnpackedD16VMem`, `MTBUF_Real_gfx80`), which keeps one per VGPR.
pub fn mtbuf_by_opcode(target: Target, op: u8) -> Option<(&'static str, MubufShape)> {
    if op >= op_count(target) {
        return None;
    }
    let name = if op >= 8 && target.gen() >= Gen::Gfx11 {
        NAMES_GFX11_D16[usize::from(op - 8)]
    } else {
        NAMES[usize::from(op)]
    };
    let comps = (op & 3) + 1;
    let vdata = if op < 8 || target == Target::Gfx802 {
        comps
    } else {
        comps.div_ceil(2)
    };
    let shape = MubufShape {
        class: if op & 4 == 0 {
            MubufClass::Load
        } else {
            MubufClass::Store
        },
        vdata,
        tfe: false,
        lds: false,
        typed: true,
        rtn: false,
        lds_only: false,
        invalid_bits: free_bits(MubufLayout::of(target)),
        ignored_bits: 0,
    };
    Some((name, shape))
}

/// Opcode and shape of MTBUF `mnemonic` on `target`, or `None`.
pub fn mtbuf_lookup(target: Target, mnemonic: &str) -> Option<(u8, MubufShape)> {
    (0..op_count(target)).find_map(|op| {
        let (n, s) = mtbuf_by_opcode(target, op)?;
        (n == mnemonic).then_some((op, s))
    })
}

/// Opcode and shape of a MUBUF/VBUFFER ([`crate::mubuf_lookup`]) or MTBUF ([`mtbuf_lookup`],
/// `tbuffer_*` before gfx12) mnemonic on `target`.
pub fn buffer_lookup(target: Target, mnemonic: &str) -> Option<(u8, MubufShape)> {
    crate::mubuf_table::mubuf_lookup(target, mnemonic).or_else(|| mtbuf_lookup(target, mnemonic))
}

/// Targets on which the MUBUF/VBUFFER or MTBUF `mnemonic` exists.
pub(crate) fn buffer_targets_with(mnemonic: &str) -> Vec<Target> {
    Target::ALL
        .into_iter()
        .filter(|t| buffer_lookup(*t, mnemonic).is_some())
        .collect()
}

/// All MTBUF mnemonics of `target`, in opcode order (none from gfx12).
pub fn mtbuf_mnemonics(target: Target) -> impl Iterator<Item = &'static str> {
    (0..op_count(target)).filter_map(move |op| mtbuf_by_opcode(target, op).map(|x| x.0))
}

/// The opcode of an MTBUF word `w` of `layout`: OP 18:16 (gfx6/gfx7), 18:16 with OP[3] in
/// bit 53 (gfx10), 18:15 (gfx8/gfx9/CDNA, gfx11).
pub(crate) fn mtbuf_opcode(layout: MubufLayout, w: u128) -> u8 {
    let f = |hi: u32, lo: u32| ((w >> lo) & ((1 << (hi - lo + 1)) - 1)) as u8;
    match layout {
        MubufLayout::Si => f(18, 16),
        MubufLayout::Gfx10 => f(18, 16) | (f(53, 53) << 3),
        _ => f(18, 15),
    }
}

/// The OP bits of opcode `op` in an MTBUF word of `layout` (inverse of [`mtbuf_opcode`]).
pub(crate) fn mtbuf_opcode_bits(layout: MubufLayout, op: u8) -> u128 {
    let op = u128::from(op);
    match layout {
        MubufLayout::Si => (op & 7) << 16,
        MubufLayout::Gfx10 => ((op & 7) << 16) | (((op >> 3) & 1) << 53),
        _ => (op & 15) << 15,
    }
}

/// Where an MTBUF word of `layout` keeps each flag, in [`MubufLayout::flag_bits`]'s order
/// (offen idxen addr64 lds tfe acc glc slc dlc scc nv; 0 = none). GLC 14 everywhere; SLC 54
/// before gfx11; ADDR64 15 on gfx6/gfx7; SCC (`sc1`) 53 and ACC 55 on gfx90a/gfx942/gfx950;
/// DLC 15 on gfx10; gfx11: SLC 12, DLC 13, OFFEN 54, IDXEN 55. No LDS or TFE bit.
#[rustfmt::skip]
pub(crate) fn mtbuf_flag_bits(layout: MubufLayout) -> [u32; 11] {
    match layout {
        //                   offen idxen addr64 lds tfe acc glc slc dlc scc nv
        MubufLayout::Si =>     [12, 13, 15, 0, 0,  0, 14, 54,  0,  0, 0],
        MubufLayout::Gfx90a | MubufLayout::Gfx940 =>
                               [12, 13,  0, 0, 0, 55, 14, 54,  0, 53, 0],
        MubufLayout::Gfx10 =>  [12, 13,  0, 0, 0,  0, 14, 54, 15,  0, 0],
        MubufLayout::Gfx11 =>  [54, 55,  0, 0, 0,  0, 14, 12, 13,  0, 0],
        _ =>                   [12, 13,  0, 0, 0,  0, 14, 54,  0,  0, 0],
    }
}

/// The name of unified format `code` (gfx10+: `BUF_FMT_<data>_<num>`, `BUF_FMT_INVALID`
/// for 0) from the target's table, or `None` past the table (printed as a number).
fn unified_name(table: &[(u8, u8)], code: u8) -> Option<String> {
    match table.get(usize::from(code))? {
        _ if code == 0 => Some("BUF_FMT_INVALID".into()),
        &(d, n) => {
            let nf = [
                "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "", "FLOAT",
            ];
            Some(format!(
                "BUF_FMT_{}_{}",
                DFMT_NAMES[usize::from(d)],
                nf[usize::from(n)]
            ))
        }
    }
}

/// Append ` format:...` for FORMAT `code` of a typed op on `target` as llvm-mc 22 prints it
/// (nothing for the default 1, BUF_FMT_8_UNORM / dfmt 8 nfmt UNORM): gfx10+ `[BUF_FMT_*]` or
/// the number where the table has no name; gfx6-gfx9/CDNA `[BUF_DATA_FORMAT_*,BUF_NUM_FORMAT_*]`
/// without a part that has its default (dfmt 1, nfmt 0).
pub(crate) fn push_format(out: &mut String, target: Target, code: u8) {
    if code == 1 {
        return;
    }
    out.push_str(" format:");
    if let Some(table) = ufmt_table(target) {
        match unified_name(table, code) {
            Some(n) => {
                out.push('[');
                out.push_str(&n);
                out.push(']');
            }
            None => out.push_str(&code.to_string()),
        }
        return;
    }
    let (d, n) = (code & 15, (code >> 4) & 7);
    let mut parts: Vec<String> = Vec::new();
    if d != 1 {
        parts.push(format!("BUF_DATA_FORMAT_{}", DFMT_NAMES[usize::from(d)]));
    }
    if n != 0 {
        let name = nfmt_name(target, n).unwrap_or("RESERVED_6");
        parts.push(format!("BUF_NUM_FORMAT_{name}"));
    }
    out.push('[');
    out.push_str(&parts.join(","));
    out.push(']');
}

/// The FORMAT code (7 bits) that the value `v` of a `format:` modifier names on `target`, or
/// a sentence saying why it names none. Accepted as llvm-mc 22 accepts them: a number
/// 0..=127; `[BUF_FMT_*]` (gfx10+); `[BUF_DATA_FORMAT_*, BUF_NUM_FORMAT_*]`, either part
/// optional (dfmt 8 / nfmt UNORM) and in either order, which gfx10+ map to their unified
/// code ("unsupported format" where the pair has none).
pub(crate) fn parse_format(target: Target, v: &str) -> Result<u8, String> {
    let Some(inner) = v.strip_prefix('[').and_then(|x| x.strip_suffix(']')) else {
        return match crate::lex::parse_int(v) {
            Some(i) if (0..=127).contains(&i) => Ok(i as u8),
            Some(i) => Err(format!("out of range format {i} (0..=127)")),
            None => Err(format!("unknown format `{v}`")),
        };
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let table = ufmt_table(target);
    if let (Some(t), [one]) = (table, parts.as_slice()) {
        if let Some(code) = (0..t.len() as u8).find(|c| unified_name(t, *c).as_deref() == Some(one))
        {
            return Ok(code);
        }
    }
    if parts.len() > 2 {
        return Err(format!("at most a data and a number format, got `{v}`"));
    }
    let (mut d, mut n): (Option<u8>, Option<u8>) = (None, None);
    for p in &parts {
        if let Some(x) = p.strip_prefix("BUF_DATA_FORMAT_") {
            let Some(i) = DFMT_NAMES.iter().position(|m| *m == x) else {
                return Err(format!("unsupported format `{p}`"));
            };
            if d.replace(i as u8).is_some() {
                return Err("duplicate data format".into());
            }
        } else if let Some(x) = p.strip_prefix("BUF_NUM_FORMAT_") {
            let Some(i) = (0..8u8).find(|i| nfmt_name(target, *i) == Some(x)) else {
                return Err(format!("unsupported format `{p}` on {target}"));
            };
            if n.replace(i).is_some() {
                return Err("duplicate numeric format".into());
            }
        } else {
            return Err(format!("unsupported format `{p}` on {target}"));
        }
    }
    let (d, n) = (d.unwrap_or(1), n.unwrap_or(0));
    match table {
        None => Ok((n << 4) | d),
        Some(t) => t
            .iter()
            .enumerate()
            .find(|(c, pair)| **pair == (d, n) && (*c > 0 || d == 0))
            .map(|(c, _)| c as u8)
            .ok_or_else(|| format!("unsupported format `{v}` on {target}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_names_are_the_probed_gfx12_names() {
        // One definition: gfx11/gfx12 names derived from the semantics' table equal the
        // llvm-mc-22 probed list the VBUFFER printer used.
        let t = ufmt_table(Target::Gfx1200).unwrap();
        for (c, want) in crate::mubuf_table::BUF_FORMATS.iter().enumerate() {
            assert_eq!(unified_name(t, c as u8).as_deref(), Some(*want), "{c}");
        }
        assert_eq!(unified_name(t, 64), None);
    }

    #[test]
    fn opcode_counts_and_names() {
        assert_eq!(mtbuf_mnemonics(Target::Gfx600).count(), 8);
        assert_eq!(mtbuf_mnemonics(Target::Gfx90a).count(), 16);
        assert_eq!(mtbuf_mnemonics(Target::Gfx1200).count(), 0);
        assert_eq!(mtbuf_mnemonics(Target::Gfx1250).count(), 0);
        assert_eq!(
            mtbuf_lookup(Target::Gfx1100, "tbuffer_store_d16_format_xyzw").map(|x| x.0),
            Some(15)
        );
        assert_eq!(
            mtbuf_lookup(Target::Gfx1100, "tbuffer_store_format_d16_x"),
            None
        );
        let (_, s) = mtbuf_lookup(Target::Gfx802, "tbuffer_load_format_d16_xyzw").unwrap();
        assert_eq!(s.vdata, 4);
        let (_, s) = mtbuf_lookup(Target::Gfx900, "tbuffer_load_format_d16_xyzw").unwrap();
        assert_eq!(s.vdata, 2);
    }

    #[test]
    fn formats_parse_and_print_back() {
        for t in Target::ALL.into_iter().filter(|t| *t != Target::Gfx1250) {
            for code in 0..=127u8 {
                let mut s = String::new();
                push_format(&mut s, t, code);
                let v = s.strip_prefix(" format:").unwrap_or("1");
                assert_eq!(parse_format(t, v), Ok(code), "{t} {code} {s}");
            }
        }
        assert!(parse_format(Target::Gfx1010, "[BUF_DATA_FORMAT_32]").is_err());
        assert!(parse_format(Target::Gfx900, "[BUF_NUM_FORMAT_SNORM_OGL]").is_err());
        assert!(parse_format(Target::Gfx900, "128").is_err());
        assert!(parse_format(Target::Gfx900, "[BUF_FMT_32_UINT]").is_err());
    }
}
