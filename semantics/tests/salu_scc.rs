//! SCC of the SALU entries (`semantics/pcode/alu.pcode`) against AMD's pseudocode, computed here
//! in Rust from the texts the entries cite (CDNA4 and RDNA3.5 guides as tinygrad packages them,
//! commit a9069c17, `SOP1Op`/`SOP2Op`): which entries assign SCC, and the bit each assigns on
//! edge values (carries, borrows, signed overflow, zero results, bits shifted out).

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, truth, Frame, MemState, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// Run entry `name` on S0 (`w0` bits wide) and S1; returns (D0's low 32 bits, SCC), SCC `None`
/// when the entry does not assign it (it starts unset here, so an unassigned SCC stays absent).
fn salu(name: &str, s0: u64, w0: u32, s1: u32) -> (u32, Option<bool>) {
    let def = Library::builtin()
        .get(name)
        .unwrap_or_else(|| panic!("{name}"));
    let frame = Frame::plain(Settings::default_for(Target::Gfx900));
    let mut vars = BTreeMap::new();
    vars.insert("S0".into(), bits(u128::from(s0), w0));
    vars.insert("S1".into(), bits(u128::from(s1), 32));
    let dw = if name == "S_LSHL_B64" { 64 } else { 32 };
    vars.insert("D0".into(), bits(0xdead_beef, dw));
    let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    let Val::Bits(d, _) = &out["D0"] else {
        panic!("{name}: D0 is not bits")
    };
    let scc = out.get("SCC").map(|v| truth(&mut Concrete, v.clone()));
    (d.value as u32, scc)
}

fn s2(name: &str, a: u32, b: u32) -> (u32, Option<bool>) {
    salu(name, u64::from(a), 32, b)
}

#[test]
fn only_salu_entries_assign_scc() {
    let lib = Library::builtin();
    let mut writers = Vec::new();
    for (file, def) in &lib.defs {
        if file != "alu.pcode" || !def.assigns("SCC") {
            continue;
        }
        for n in &def.names {
            assert!(n.name.starts_with("S_"), "{} assigns SCC", n.name);
            writers.push(n.name.clone());
        }
    }
    writers.sort();
    // The SALU ops gcnsmt lifts whose AMD pseudocode has an `SCC =` line (SOP2Op/SOP1Op texts).
    let mut want = vec![
        "S_ADD_I32",
        "S_ADD_U32",
        "S_AND_B32",
        "S_ASHR_I32",
        "S_BCNT1_I32_B64",
        "S_LSHL1_ADD_U32",
        "S_LSHL2_ADD_U32",
        "S_LSHL3_ADD_U32",
        "S_LSHL4_ADD_U32",
        "S_LSHL_B32",
        "S_LSHL_B64",
        "S_LSHR_B32",
        "S_MIN_U32",
        "S_OR_B32",
        "S_SUB_U32",
        "S_XOR_B32",
    ];
    want.sort();
    assert_eq!(writers, want);
}

#[test]
fn entries_without_an_scc_line_leave_it() {
    // S_MOV_B32 "D0.b32 = S0.b32", S_MUL_I32 "D0.i32 = S0.i32 * S1.i32", S_BREV_B32, the packs,
    // the find-first ops: no `SCC =` in their pseudocode.
    for name in [
        "S_MOV_B32",
        "S_MUL_I32",
        "S_BREV_B32",
        "S_PACK_LL_B32_B16",
        "S_PACK_LH_B32_B16",
        "S_PACK_HH_B32_B16",
        "S_FF1_I32_B32",
        "S_FLBIT_I32_B32",
    ] {
        assert_eq!(s2(name, 0x8000_0001, 3).1, None, "{name}");
    }
    for name in ["S_FF1_I32_B64", "S_FLBIT_I32_B64"] {
        assert_eq!(salu(name, 1 << 40, 64, 0).1, None, "{name}");
    }
}

#[test]
fn scc_by_hand() {
    let t = Some(true);
    let f = Some(false);
    // (entry, S0, S1, D0, SCC), each worked from the entry's pseudocode.
    let cases: &[(&str, u32, u32, u32, Option<bool>)] = &[
        // S_AND/OR/XOR_B32: SCC = D0 != 0.
        ("S_AND_B32", 0xf0, 0x0f, 0, f),
        ("S_AND_B32", 0xf0, 0x30, 0x30, t),
        ("S_OR_B32", 0, 0, 0, f),
        ("S_OR_B32", 0, 0x8000_0000, 0x8000_0000, t),
        ("S_XOR_B32", 0x1234, 0x1234, 0, f),
        ("S_XOR_B32", 1, 3, 2, t),
        // S_ADD_U32: SCC = 64-bit sum >= 2^32 (the carry).
        ("S_ADD_U32", 0xffff_ffff, 1, 0, t),
        ("S_ADD_U32", 0xffff_fffe, 1, 0xffff_ffff, f),
        ("S_ADD_U32", 0x8000_0000, 0x8000_0000, 0, t),
        // S_ADD_I32: signs of S0, S1 equal and the sum's different (signed overflow).
        ("S_ADD_I32", 0x7fff_ffff, 1, 0x8000_0000, t),
        ("S_ADD_I32", 0x8000_0000, 0x8000_0000, 0, t),
        ("S_ADD_I32", 0xffff_ffff, 1, 0, f),
        ("S_ADD_I32", 0x4000_0000, 0x3fff_ffff, 0x7fff_ffff, f),
        // S_SUB_U32: SCC = S1 > S0 (the borrow).
        ("S_SUB_U32", 0, 1, 0xffff_ffff, t),
        ("S_SUB_U32", 5, 5, 0, f),
        ("S_SUB_U32", 5, 0xffff_ffff, 6, t),
        // Shifts: SCC = D0 != 0 (amount S1[4:0]).
        ("S_LSHL_B32", 0x8000_0000, 1, 0, f),
        ("S_LSHL_B32", 1, 33, 2, t),
        ("S_LSHR_B32", 1, 1, 0, f),
        ("S_LSHR_B32", 0x8000_0000, 31, 1, t),
        ("S_ASHR_I32", 0x8000_0000, 31, 0xffff_ffff, t),
        ("S_ASHR_I32", 0x7fff_ffff, 31, 0, f),
        // S_MIN_U32: SCC = S0 < S1, not D0 != 0 (min(0, 1) = 0 with SCC 1).
        ("S_MIN_U32", 0, 1, 0, t),
        ("S_MIN_U32", 1, 0, 0, f),
        ("S_MIN_U32", 7, 7, 7, f),
        // S_LSHLn_ADD_U32: the carry of the 64-bit (S0 << n) + S1: bits shifted out count.
        ("S_LSHL1_ADD_U32", 0x8000_0000, 0, 0, t),
        ("S_LSHL2_ADD_U32", 0x4000_0000, 0, 0, t),
        ("S_LSHL2_ADD_U32", 0x3fff_ffff, 4, 0, t),
        ("S_LSHL2_ADD_U32", 0x3fff_ffff, 3, 0xffff_ffff, f),
        ("S_LSHL3_ADD_U32", 0x1fff_ffff, 0, 0xffff_fff8, f),
        ("S_LSHL4_ADD_U32", 0x1000_0000, 0, 0, t),
        ("S_LSHL4_ADD_U32", 0x0fff_ffff, 0x10, 0, t),
    ];
    for &(name, a, b, d, scc) in cases {
        assert_eq!(s2(name, a, b), (d, scc), "{name} {a:#x} {b:#x}");
    }
}

#[test]
fn sixty_four_bit_sources_by_hand() {
    // S_BCNT1_I32_B64: SCC = (count != 0), i.e. S0 != 0; a bit in the high dword counts.
    assert_eq!(salu("S_BCNT1_I32_B64", 0, 64, 0), (0, Some(false)));
    assert_eq!(salu("S_BCNT1_I32_B64", 1 << 32, 64, 0), (1, Some(true)));
    assert_eq!(salu("S_BCNT1_I32_B64", u64::MAX, 64, 0), (64, Some(true)));
    // S_LSHL_B64: SCC = D0.u64 != 0: 1 << 32 is zero in its low dword but not as 64 bits.
    assert_eq!(salu("S_LSHL_B64", 1, 64, 32), (0, Some(true)));
    assert_eq!(salu("S_LSHL_B64", 1 << 63, 64, 1), (0, Some(false)));
    assert_eq!(salu("S_LSHL_B64", 3, 64, 64), (3, Some(true)));
}
