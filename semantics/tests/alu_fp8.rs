//! V_CVT_SCALEF32_PK_FP8_F16 of alu.pcode (and the evaluator's `f16_to_fp8_scale`) against
//! hand-computed OCP E4M3 bytes (bias 7; value 2^(e-7) * (1 + m/8); 448 = 0x7e the largest,
//! S.1111.111 NaN; AMD CDNA4 guide: round to nearest even, `{ tmp1, tmp0 }` into the 16-bit
//! half OPSEL[3] picks, the other half kept). f16 encodings by hand: 1.0 = 0x3c00, 2.0 =
//! 0x4000, 0.5 = 0x3800, -1.5 = 0xbe00, 448 = 2^8 * 1.75 = 0x5f00, 2^-6 = 0x2400, 2^-7 =
//! 0x2000, 512 = 0x6000, +inf = 0x7c00, a quiet NaN 0x7e00. f32 scales: 1.0 = 0x3f800000,
//! 1.5 = 0x3fc00000, -1.0 = 0xbf800000 (exponent field 127 each), 2.0 = 0x40000000 (128),
//! 0.5 = 0x3f000000 (126). Outside the modelled part (scale field not 127, overflow, results
//! below 2^-6, denormal, infinite or NaN inputs, a source op_sel bit) the entry is undefined.

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

/// D0 of the entry (`old` the destination's old value), or `None` where it is undefined.
fn cvt(s0: u32, s1: u32, old: u32, opsel: u8) -> Option<u32> {
    let def = Library::builtin()
        .get("V_CVT_SCALEF32_PK_FP8_F16")
        .expect("entry");
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx950),
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("S0".into(), bits(s0.into(), 32));
    vars.insert("S1".into(), bits(s1.into(), 32));
    vars.insert("D0".into(), bits(old.into(), 32));
    vars.insert("OPSEL".into(), bits(opsel.into(), 4));
    vars.insert("LANE_ID".into(), bits(0, 32));
    let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    if mem.ub {
        return None;
    }
    match &out["D0"] {
        Val::Bits(b, _) => Some(b.value as u32),
        _ => panic!("D0 is not bits"),
    }
}

const ONE: u32 = 0x3f80_0000;

/// The two bytes (hi, lo) the entry writes for f16 values `hi`, `lo` with scale 1.0, low half.
fn pair(hi: u16, lo: u16) -> Option<u32> {
    cvt(u32::from(hi) << 16 | u32::from(lo), ONE, 0, 0)
}

#[test]
fn exact_values_by_hand() {
    let cases: &[(u16, u8, &str)] = &[
        (0x3c00, 0x38, "1.0: e = 7, m = 0"),
        (0x4000, 0x40, "2.0: e = 8"),
        (0x3800, 0x30, "0.5: e = 6"),
        (0xbe00, 0xbc, "-1.5: sign, e = 7, m = 4"),
        (0x5f00, 0x7e, "448, the largest finite E4M3"),
        (0xdf00, 0xfe, "-448"),
        (0x2400, 0x08, "2^-6, the smallest E4M3 normal"),
        (0x0000, 0x00, "+0"),
        (0x8000, 0x80, "-0 keeps its sign"),
    ];
    for &(x, want, what) in cases {
        assert_eq!(pair(0, x), Some(u32::from(want)), "{what} (low byte)");
        assert_eq!(pair(x, 0), Some(u32::from(want) << 8), "{what} (high byte)");
    }
}

#[test]
fn rounds_to_nearest_even() {
    let cases: &[(u16, u8, &str)] = &[
        // 1 + 1/16: f16 fraction 64, halfway between 1.0 (m 0, even) and 1.125: 1.0.
        (0x3c40, 0x38, "tie to even, down"),
        // 1 + 3/16: halfway between 1.125 (m 1) and 1.25 (m 2, even): 1.25.
        (0x3cc0, 0x3a, "tie to even, up"),
        // 1 + 65/1024: just above the tie: 1.125.
        (0x3c41, 0x39, "above a tie"),
        // 1 + 15/16: halfway between 1.875 (m 7) and 2.0: the carry makes 2.0 (e = 8, m 0).
        (0x3fc0, 0x40, "carry into the exponent"),
        // 464 = 2^8 * 1.8125: halfway between 448 (m 6, even) and 480: 448.
        (0x5f40, 0x7e, "rounds down to 448"),
    ];
    for &(x, want, what) in cases {
        assert_eq!(pair(0, x), Some(u32::from(want)), "{what}");
    }
}

#[test]
fn outside_the_modelled_part_is_undefined() {
    let cases: &[(u16, &str)] = &[
        // 480 = 2^8 * 1.875 would be S.1111.111, the NaN pattern: saturate or NaN is not known.
        (0x5f80, "overflow (480)"),
        (0x6000, "overflow (512)"),
        (0x2000, "2^-7: an E4M3 denormal or flushed"),
        (0x0001, "an f16 denormal input"),
        (0x7c00, "+inf"),
        (0x7e00, "NaN"),
    ];
    for &(x, what) in cases {
        assert_eq!(pair(0, x), None, "{what}");
    }
    // The scale: field 127 only (2^0, the same whether the value is divided or multiplied).
    assert_eq!(cvt(0x3c00, 0x3fc0_0000, 0, 0), Some(0x38), "1.5: field 127");
    assert_eq!(
        cvt(0x3c00, 0xbf80_0000, 0, 0),
        Some(0x38),
        "-1.0: field 127"
    );
    assert_eq!(cvt(0x3c00, 0x4000_0000, 0, 0), None, "scale 2.0 (2^1)");
    assert_eq!(cvt(0x3c00, 0x3f00_0000, 0, 0), None, "scale 0.5 (2^-1)");
    assert_eq!(cvt(0x3c00, ONE, 0, 0b0001), None, "op_sel on src0");
    assert_eq!(cvt(0x3c00, ONE, 0, 0b0010), None, "op_sel on src1");
}

#[test]
fn op_sel_picks_the_half_and_keeps_the_other() {
    // <1.0, 2.0> (0x40003c00) -> bytes 0x38 (low value), 0x40 (high value): 0x4038.
    let src = 0x4000_3c00;
    assert_eq!(cvt(src, ONE, 0xaaaa_5555, 0), Some(0xaaaa_4038), "low half");
    assert_eq!(
        cvt(src, ONE, 0xaaaa_5555, 0b1000),
        Some(0x4038_5555),
        "high half"
    );
    // <0.5, -448>: 0xfe30.
    assert_eq!(cvt(0xdf00_3800, ONE, 0, 0), Some(0xfe30), "two values");
}
