//! The find-first-one ops, V_BFE_I32, the bit reverses and gfx12's V_MAX_NUM_F32 /
//! V_MIN_NUM_F32 of alu.pcode against hand computations from the guides' pseudocode (AMD Vega
//! ISA guide V_FFBH_U32, V_FFBL_B32, S_FLBIT_I32_B32/B64, V_BFE_I32, V_BFREV_B32; AMD RDNA3.5
//! guide V_CLZ_I32_U32, V_CTZ_I32_B32, V_BFE_I32, S_BREV_B32; AMD RDNA4 guide V_MAX_NUM_F32,
//! V_MIN_NUM_F32). Each expected value is worked out in the comment next to it.

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

/// Run entry `name` on one lane with sources `srcs` (`w` bits wide each); D0 as 32 bits.
fn run_op(name: &str, srcs: &[u64], w: u32) -> u32 {
    let def = Library::builtin()
        .get(name)
        .unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx1200),
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    for (k, s) in srcs.iter().enumerate() {
        vars.insert(format!("S{k}"), bits((*s).into(), w));
    }
    vars.insert("D0".into(), bits(0xdead_beef, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    match &out["D0"] {
        Val::Bits(b, _) => b.value as u32,
        _ => panic!("D0 is not bits"),
    }
}

#[test]
fn find_first_one_from_msb() {
    // (S0, leading zeros): 1 has 31 zeros above it; 0x80000000 none; 0x00010000 15 (bit 16 is
    // set, 31 - 16 = 15); 0x0000ffff 16; 0 has no one: -1.
    let cases = [
        (1u32, 31u32),
        (0x8000_0000, 0),
        (0x0001_0000, 15),
        (0x0000_ffff, 16),
        (0x7fff_ffff, 1),
        (0, u32::MAX),
    ];
    for name in [
        "V_FFBH_U32",
        "V_CLZ_I32_U32",
        "S_FLBIT_I32_B32",
        "S_CLZ_I32_U32",
    ] {
        for (x, want) in cases {
            assert_eq!(run_op(name, &[x.into()], 32), want, "{name} {x:#x}");
        }
    }
    // 64 bits: bit 32 set gives 63 - 32 = 31; bit 63 gives 0; bit 0 gives 63; 0 gives -1.
    for name in ["S_FLBIT_I32_B64", "S_CLZ_I32_U64"] {
        for (x, want) in [
            (1u64 << 32, 31u32),
            (1 << 63, 0),
            (1, 63),
            (0x0000_0000_8000_0001, 32),
            (0, u32::MAX),
        ] {
            assert_eq!(run_op(name, &[x], 64), want, "{name} {x:#x}");
        }
    }
}

#[test]
fn find_first_one_from_lsb() {
    // (S0, trailing zeros): 1 -> 0; 0x80000000 -> 31; 0x00010000 -> 16; 0xffff0000 -> 16;
    // 0 -> -1.
    for name in ["V_FFBL_B32", "V_CTZ_I32_B32"] {
        for (x, want) in [
            (1u32, 0u32),
            (0x8000_0000, 31),
            (0x0001_0000, 16),
            (0xffff_0000, 16),
            (0, u32::MAX),
        ] {
            assert_eq!(run_op(name, &[x.into()], 32), want, "{name} {x:#x}");
        }
    }
}

#[test]
fn signed_bitfield_extract() {
    // (S0, offset, width, D0):
    // 0xf0, 4, 4: field 0xf, top bit set -> -1.
    // 0x70, 4, 4: field 0x7, top bit clear -> 7.
    // 0x80000000, 28, 8: S0 >> 28 (arithmetic) = 0xfffffff8, & 0xff = 0xf8, bit 7 set ->
    //   0xfffffff8 (LLVM's constantFoldBFE: offset + width >= 32 gives S0 >> offset, the same).
    // 0x12345678, 8, 0: width 0 -> 0.
    // 0x12345678, 0, 16: 0x5678, bit 15 clear -> 0x5678.
    // 0x1234c678, 0, 16: 0xc678, bit 15 set -> 0xffffc678.
    // 0xabcd, 36 (= 4 in S1[4:0]), 40 (= 8 in S2[4:0]): (0xabcd >> 4) & 0xff = 0xbc, bit 7 set
    //   -> 0xffffffbc.
    // 5, 0, 1: field 1, its only bit set -> -1.
    let cases = [
        (0xf0u32, 4u32, 4u32, 0xffff_ffffu32),
        (0x70, 4, 4, 7),
        (0x8000_0000, 28, 8, 0xffff_fff8),
        (0x1234_5678, 8, 0, 0),
        (0x1234_5678, 0, 16, 0x5678),
        (0x1234_c678, 0, 16, 0xffff_c678),
        (0xabcd, 36, 40, 0xffff_ffbc),
        (5, 0, 1, 0xffff_ffff),
    ];
    for (x, off, w, want) in cases {
        let got = run_op("V_BFE_I32", &[x.into(), off.into(), w.into()], 32);
        assert_eq!(got, want, "V_BFE_I32 {x:#x}, {off}, {w}");
    }
}

#[test]
fn max_min_num_nan_and_zero_rules() {
    const QNAN: u32 = 0x7fc0_0000;
    const SNAN: u32 = 0x7f80_0001;
    const ONE: u32 = 0x3f80_0000; // 1.0
    const TWO: u32 = 0x4000_0000; // 2.0
    const NEG_ONE: u32 = 0xbf80_0000; // -1.0
    const PZ: u32 = 0;
    const NZ: u32 = 0x8000_0000;
    // (S0, S1, max, min), from the RDNA4 pseudocode: a NaN input gives the other input (a
    // signaling one too: no quieting unless both are NaN); both NaN: S0 quieted (0x7f800001
    // with the quiet bit 22 set is 0x7fc00001); +0 is above -0 either way round.
    let cases = [
        (ONE, TWO, TWO, ONE),
        (TWO, NEG_ONE, TWO, NEG_ONE),
        (QNAN, ONE, ONE, ONE),
        (ONE, QNAN, ONE, ONE),
        (SNAN, ONE, ONE, ONE),
        (ONE, SNAN, ONE, ONE),
        (SNAN, QNAN, 0x7fc0_0001, 0x7fc0_0001),
        (QNAN, SNAN, QNAN, QNAN),
        (PZ, NZ, PZ, NZ),
        (NZ, PZ, PZ, NZ),
        (ONE, ONE, ONE, ONE),
    ];
    for (a, b, max, min) in cases {
        let w = |v: u32| u64::from(v);
        assert_eq!(
            run_op("V_MAX_NUM_F32", &[w(a), w(b)], 32),
            max,
            "max {a:#x} {b:#x}"
        );
        assert_eq!(
            run_op("V_MIN_NUM_F32", &[w(a), w(b)], 32),
            min,
            "min {a:#x} {b:#x}"
        );
    }
}

#[test]
fn bit_reverse() {
    // (S0, D0): bit i goes to bit 31 - i. 1 -> 0x80000000; 0x0000ffff -> 0xffff0000;
    // 0x12345678 = 0001 0010 0011 0100 0101 0110 0111 1000, read backwards 0001 1110 0110
    // 1010 0010 1100 0100 1000 = 0x1e6a2c48; 0 -> 0.
    for name in ["V_BFREV_B32", "S_BREV_B32"] {
        for (x, want) in [
            (1u32, 0x8000_0000u32),
            (0x0000_ffff, 0xffff_0000),
            (0x1234_5678, 0x1e6a_2c48),
            (0, 0),
        ] {
            assert_eq!(run_op(name, &[x.into()], 32), want, "{name} {x:#x}");
        }
    }
}
