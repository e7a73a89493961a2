//! V_DOT2_F32_F16 of alu.pcode (and the evaluator's `f16_to_f32`) against hand computations
//! (AMD RDNA3 / CDNA3 guides, V_DOT2_F32_F16: D0.f32 = S2.f32 + S0.lo * S1.lo + S0.hi * S1.hi,
//! f16 values widened to f32, each addition rounded to nearest even). Encodings by hand:
//! f16 1.0 = 0x3c00, 2.0 = 0x4000, -1.0 = 0xbc00, 0.5 = 0x3800, +inf = 0x7c00, 65504 = 0x7bff,
//! the smallest denormal 2^-24 = 0x0001; f32 1.0 = 0x3f800000, 2^-24 = 0x33800000,
//! 65504 = 0x477fe000, +inf = 0x7f800000, the canonical quiet NaN 0x7fc00000.

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

/// D0 of V_DOT2_F32_F16 with sources `s0`, `s1` (packed f16) and `s2` (f32).
fn dot2(s0: u32, s1: u32, s2: u32) -> u32 {
    let def = Library::builtin().get("V_DOT2_F32_F16").expect("entry");
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx942),
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("S0".into(), bits(s0.into(), 32));
    vars.insert("S1".into(), bits(s1.into(), 32));
    vars.insert("S2".into(), bits(s2.into(), 32));
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
fn dot2_by_hand() {
    let cases: &[(u32, u32, u32, u32, &str)] = &[
        // <1.0, 1.0> . <1.0, 2.0> + 0 = 1 + 2 = 3.0 = 0x40400000.
        (0x3c00_3c00, 0x4000_3c00, 0, 0x4040_0000, "1*1 + 1*2"),
        // <0.5, -1.0> . <2.0, 1.0> + 1.0 = 1 + 1 - 1 = 1.0.
        (
            0xbc00_3800,
            0x3c00_4000,
            0x3f80_0000,
            0x3f80_0000,
            "0.5*2 - 1*1 + 1",
        ),
        // The denormal 2^-24 widened exactly: 2^-24 * 1.0 + 0 (high halves 0) = 0x33800000.
        (
            0x0000_0001,
            0x0000_3c00,
            0,
            0x3380_0000,
            "denormal f16 widened",
        ),
        // -2^-15 (0x8200 = -512 * 2^-24): -2^-15 = 0xb8000000.
        (
            0x0000_8200,
            0x0000_3c00,
            0,
            0xb800_0000,
            "negative denormal",
        ),
        // 65504 * 65504 = 4290774016 = 0xffc00400 = f32 0x4f7fc004 exactly (f32 holds 22 significand bits).
        (
            0x0000_7bff,
            0x0000_7bff,
            0,
            0x4f7f_c004,
            "largest f16 squared, exact in f32",
        ),
        // +inf * 1.0 = +inf.
        (0x0000_7c00, 0x0000_3c00, 0, 0x7f80_0000, "infinity"),
        // +inf * 0 is NaN (canonical quiet NaN).
        (0x0000_7c00, 0, 0, 0x7fc0_0000, "inf * 0"),
        // Two roundings: S2 = 1.0, the low product 2^-24 is lost (1 + 2^-24 ties to even 1.0),
        // then + 2^-24 again: 1.0. A single rounding of the exact sum 1 + 2^-23 would give
        // 0x3f800001.
        (
            0x0001_0001,
            0x3c00_3c00,
            0x3f80_0000,
            0x3f80_0000,
            "rounded per addition",
        ),
    ];
    for &(s0, s1, s2, want, what) in cases {
        assert_eq!(
            dot2(s0, s1, s2),
            want,
            "{what}: {s0:#x} . {s1:#x} + {s2:#x}"
        );
    }
}
