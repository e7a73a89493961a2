//! The carry-in adds and borrow-in subtracts of alu.pcode against hand computations (AMD Vega
//! guide, VOP2 Instructions, V_ADDC_CO_U32 / V_SUBB_CO_U32 / V_SUBBREV_CO_U32: the carry is bit
//! LANE_ID of S2, the carry out goes to bit LANE_ID of SDST, the other SDST bits are kept).

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// Run entry `name` on one lane: S2 is the carry-in mask, `mask_bits` wide (64 on wave64, 32 on
/// wave32). Returns (D0, SDST).
fn run_carry(
    name: &str,
    s0: u32,
    s1: u32,
    s2: u64,
    sdst: u64,
    lane: u32,
    mask_bits: u32,
) -> (u32, u64) {
    let def = Library::builtin()
        .get(name)
        .unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx900),
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("S0".into(), bits(s0.into(), 32));
    vars.insert("S1".into(), bits(s1.into(), 32));
    vars.insert("S2".into(), bits(s2.into(), mask_bits));
    vars.insert("D0".into(), bits(0xdead_beef, 32));
    vars.insert("SDST".into(), bits(sdst.into(), mask_bits));
    vars.insert("LANE_ID".into(), bits(lane.into(), 32));
    let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    let get = |k: &str| match &out[k] {
        Val::Bits(b, _) => b.value,
        _ => panic!("{k} is not bits"),
    };
    (get("D0") as u32, get("SDST") as u64)
}

const ADDC: [&str; 3] = ["V_ADDC_U32", "V_ADDC_CO_U32", "V_ADD_CO_CI_U32"];
const SUBB: [&str; 3] = ["V_SUBB_U32", "V_SUBB_CO_U32", "V_SUB_CO_CI_U32"];
const SUBBREV: [&str; 3] = ["V_SUBBREV_U32", "V_SUBBREV_CO_U32", "V_SUBREV_CO_CI_U32"];

#[test]
fn add_with_carry_by_hand() {
    // (S0, S1, carry in, D0, carry out), worked by hand:
    // 0xffffffff + 0 + 1 = 0x1_00000000; 0xffffffff + 0xffffffff + 1 = 0x1_ffffffff;
    // 5 + 7 + 1 = 13; 0x80000000 + 0x80000000 + 0 = 0x1_00000000; 0xfffffffe + 1 + 0 = 0xffffffff.
    let cases = [
        (0xffff_ffffu32, 0u32, 1u64, 0u32, 1u64),
        (0xffff_ffff, 0xffff_ffff, 1, 0xffff_ffff, 1),
        (5, 7, 1, 13, 0),
        (5, 7, 0, 12, 0),
        (0x8000_0000, 0x8000_0000, 0, 0, 1),
        (0xffff_fffe, 1, 0, 0xffff_ffff, 0),
    ];
    for name in ADDC {
        for (a, b, cin, d, cout) in cases {
            // Lane 5 of a wave64 mask: carry-in bit 5 of S2, the other bits of S2 are the
            // opposite so a wrong bit shows; SDST's other bits 0xf0f0... are kept.
            let s2 = (!(1u64 << 5) * (1 - cin)) | (cin << 5);
            let sdst = 0xf0f0_f0f0_f0f0_f0f0u64;
            let want_sdst = (sdst & !(1 << 5)) | (cout << 5);
            assert_eq!(
                run_carry(name, a, b, s2, sdst, 5, 64),
                (d, want_sdst),
                "{name} {a:#x}+{b:#x}+{cin}"
            );
        }
        // Lane 63 on wave64: carry-in bit 63 set, carry out 1 sets SDST bit 63.
        assert_eq!(
            run_carry(name, 0xffff_ffff, 0, 1 << 63, 0, 63, 64),
            (0, 1 << 63)
        );
        // Lane 31 of a wave32 mask (one SGPR): 0x10 + 0x20 + 1 = 0x31, carry out 0 clears bit 31.
        assert_eq!(
            run_carry(name, 0x10, 0x20, 0x8000_0000, 0xffff_ffff, 31, 32),
            (0x31, 0x7fff_ffff)
        );
    }
}

#[test]
fn subtract_with_borrow_by_hand() {
    // (S0, S1, borrow in, S0 - S1 - borrow, borrow out), worked by hand:
    // 0 - 0 - 1 = -1 (borrows); 5 - 3 - 1 = 1; 5 - 5 - 1 = -1 (borrows); 5 - 5 - 0 = 0;
    // 7 - 0xffffffff - 1 = 7 - 2^32 (borrows, D0 = 7); 0xffffffff - 0xffffffff - 1 borrows.
    let cases = [
        (0u32, 0u32, 1u64, 0xffff_ffffu32, 1u64),
        (5, 3, 1, 1, 0),
        (5, 5, 1, 0xffff_ffff, 1),
        (5, 5, 0, 0, 0),
        (7, 0xffff_ffff, 1, 7, 1),
        (0xffff_ffff, 0xffff_ffff, 1, 0xffff_ffff, 1),
        (0xffff_ffff, 0xffff_fffe, 1, 0, 0),
    ];
    for (a, b, bin, d, bout) in cases {
        let s2 = bin << 2;
        let sdst = 0x5555_5555_5555_5551u64;
        let want = (sdst & !(1 << 2)) | (bout << 2);
        for name in SUBB {
            assert_eq!(
                run_carry(name, a, b, s2, sdst, 2, 64),
                (d, want),
                "{name} {a:#x}-{b:#x}-{bin}"
            );
        }
        // The reversed forms compute S1 - S0 - borrow: swap the operands.
        for name in SUBBREV {
            assert_eq!(
                run_carry(name, b, a, s2, sdst, 2, 64),
                (d, want),
                "{name} {a:#x}-{b:#x}-{bin}"
            );
        }
    }
}
