//! The packed f32 entries (V_PK_ADD_F32, V_PK_MUL_F32, V_PK_FMA_F32) and V_PK_ADD_BF16 of
//! alu.pcode against hand computations (AMD CDNA3 guide: each 32-bit lane is the scalar f32 op;
//! the bf16 add rounds each half to nearest even in bf16). Encodings by hand: f32 1.0 =
//! 0x3f800000, 2.0 = 0x40000000, 3.0 = 0x40400000, 5.0 = 0x40a00000, 0.5 = 0x3f000000, -3.0 =
//! 0xc0400000, -6.0 = 0xc0c00000, 7.0 = 0x40e00000, +inf = 0x7f800000, 2^-149 = 0x00000001;
//! bf16 1.0 = 0x3f80, 2.0 = 0x4000, 3.0 = 0x4040, 2^-8 = 0x3b80, 1 + 2^-7 = 0x3f81, 1 + 2^-6 =
//! 0x3f82, +inf = 0x7f80, -inf = 0xff80, the smallest denormal 2^-133 = 0x0001.

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::{Fp32Denorm, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// D0 of `entry` with sources `srcs` of `w` bits each, f32 denormals `denorm`.
fn run_op(entry: &str, srcs: &[u64], w: u32, denorm: Fp32Denorm) -> u64 {
    let def = Library::builtin().get(entry).expect("entry");
    let mut settings = Settings::default_for(Target::Gfx1250);
    settings.fp32_denorm = denorm;
    let frame = Frame {
        settings,
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    for (i, s) in srcs.iter().enumerate() {
        vars.insert(format!("S{i}"), bits((*s).into(), w));
    }
    vars.insert("D0".into(), bits(0xdead_beef, w));
    vars.insert("LANE_ID".into(), bits(0, 32));
    let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    match &out["D0"] {
        Val::Bits(b, _) => b.value as u64,
        _ => panic!("D0 is not bits"),
    }
}

fn pk(hi: u32, lo: u32) -> u64 {
    u64::from(hi) << 32 | u64::from(lo)
}

fn pk32(entry: &str, srcs: &[u64]) -> u64 {
    run_op(entry, srcs, 64, Fp32Denorm::Preserve)
}

fn bf16_add(a: u32, b: u32) -> u32 {
    run_op(
        "V_PK_ADD_BF16",
        &[a.into(), b.into()],
        32,
        Fp32Denorm::Preserve,
    ) as u32
}

#[test]
fn pk_add_f32_by_hand() {
    // <lo 1.0, hi 2.0> + <lo 2.0, hi 3.0> = <3.0, 5.0>: the lanes do not mix.
    let r = pk32(
        "V_PK_ADD_F32",
        &[pk(0x4000_0000, 0x3f80_0000), pk(0x4040_0000, 0x4000_0000)],
    );
    assert_eq!(r, pk(0x40a0_0000, 0x4040_0000));
    // lo: inf + -inf is a NaN; hi: 1.0 + inf = inf.
    let r = pk32(
        "V_PK_ADD_F32",
        &[pk(0x3f80_0000, 0x7f80_0000), pk(0x7f80_0000, 0xff80_0000)],
    );
    let lo = r as u32;
    assert!(
        lo & 0x7f80_0000 == 0x7f80_0000 && lo & 0x007f_ffff != 0,
        "{lo:#x} NaN"
    );
    assert_eq!(r >> 32, 0x7f80_0000);
}

#[test]
fn pk_add_f32_denormals_follow_the_f32_mode() {
    // 2^-149 + 2^-149 = 2^-148 kept; flushed, each input is +0 and so is the sum.
    let s = pk(0x0000_0001, 0x0000_0001);
    assert_eq!(pk32("V_PK_ADD_F32", &[s, s]), pk(2, 2));
    let r = run_op("V_PK_ADD_F32", &[s, s], 64, Fp32Denorm::Flush);
    assert_eq!(r, 0);
}

#[test]
fn pk_mul_and_fma_f32_by_hand() {
    // <2.0, -3.0> * <0.5, 2.0> = <1.0, -6.0>.
    let r = pk32(
        "V_PK_MUL_F32",
        &[pk(0xc040_0000, 0x4000_0000), pk(0x4000_0000, 0x3f00_0000)],
    );
    assert_eq!(r, pk(0xc0c0_0000, 0x3f80_0000));
    // lo: 2 * 3 + 1 = 7. hi, fused: a = 1 + 2^-12 (0x3f800800), a * a = 1 + 2^-11 + 2^-24
    // exactly, c = -(1 + 2^-11) (0xbf801000): the fused result is 2^-24 (0x33800000); rounding
    // the product first (a tie, to even 1 + 2^-11) would give 0.
    let r = pk32(
        "V_PK_FMA_F32",
        &[
            pk(0x3f80_0800, 0x4000_0000),
            pk(0x3f80_0800, 0x4040_0000),
            pk(0xbf80_1000, 0x3f80_0000),
        ],
    );
    assert_eq!(r, pk(0x3380_0000, 0x40e0_0000));
}

#[test]
fn pk_add_bf16_by_hand() {
    // hi 1.0 + 1.0 = 2.0, lo 1.0 + 2.0 = 3.0.
    assert_eq!(bf16_add(0x3f80_3f80, 0x3f80_4000), 0x4000_4040);
    // Ties to even: 1 + 2^-8 is half an ulp (2^-7) above 1.0 -> 1.0 (even); (1 + 2^-7) +
    // 2^-8 is half-way between 0x3f81 and 0x3f82 -> 0x3f82 (even).
    assert_eq!(bf16_add(0x3f80_3f81, 0x3b80_3b80), 0x3f80_3f82);
    // hi: inf + 1 = inf; lo: inf + -inf is a NaN.
    let r = bf16_add(0x7f80_7f80, 0x3f80_ff80);
    assert_eq!(r >> 16, 0x7f80);
    let lo = r & 0xffff;
    assert!(lo & 0x7f80 == 0x7f80 && lo & 0x7f != 0, "{lo:#x} NaN");
    // The smallest bf16 denormal twice: 2^-133 + 2^-133 = 2^-132 (0x0002), kept.
    assert_eq!(bf16_add(0x0001_0001, 0x0001_0000), 0x0002_0001);
}
