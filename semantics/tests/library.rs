//! The shipped semantics files parse, print back to text that parses to the same IR, and
//! run on the concrete interpreter with hand-computed expected values.

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::parse::parse_file;
use gcnsmt_semantics::print::def_to_string;
use gcnsmt_semantics::settings::{Alignment, LdsLimit, Settings};
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

#[test]
fn every_entry_round_trips_through_the_printer() {
    let lib = Library::builtin();
    assert!(lib.defs.len() > 100, "only {} entries", lib.defs.len());
    for (file, d) in &lib.defs {
        let text = def_to_string(d);
        let back = parse_file(&text)
            .unwrap_or_else(|e| panic!("{file}: reprint does not parse: {e}\n{text}"));
        assert_eq!(back.len(), 1, "{file}: {text}");
        let mut b = back.into_iter().next().unwrap();
        b.pos = d.pos;
        assert_eq!(&b, d, "{file}: parse(print(x)) != x for\n{text}");
    }
}

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// Run `name` with ADDR, DATA0, DATA1, OFFSET and an LDS whose byte at a is `a as u8`.
fn run_one(
    name: &str,
    settings: Settings,
    addr: u32,
    data0: u128,
    data1: u128,
    offset: u16,
    rd_width: u32,
) -> (u128, CMem) {
    run_mem(
        name,
        settings,
        (addr, data0, data1, offset),
        rd_width,
        |a| a as u8,
    )
}

/// As [`run_one`] with LDS byte `a` equal to `mem(a)`.
fn run_mem(
    name: &str,
    settings: Settings,
    (addr, data0, data1, offset): (u32, u128, u128, u16),
    rd_width: u32,
    mem: fn(u32) -> u8,
) -> (u128, CMem) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap();
    let aliases = def.aliases_for(name).unwrap();
    let frame = Frame {
        settings,
        mem: MemView::Space(AddrSpace::Lds),
        aliases,
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("ADDR".into(), bits(addr as u128, 32));
    vars.insert("DATA0".into(), bits(data0, 64));
    vars.insert("DATA1".into(), bits(data1, 64));
    vars.insert("OFFSET".into(), bits(offset as u128, 16));
    vars.insert("OFFSET0".into(), bits((offset & 0xff) as u128, 8));
    vars.insert("OFFSET1".into(), bits((offset >> 8) as u128, 8));
    vars.insert("M0".into(), bits(0xffff_ffff, 32));
    vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    vars.insert("RETURN_DATA".into(), bits(0xdead_beef_dead_beef, rd_width));
    let mut start = MemState::new(|_| CMem::new_wide(|_| 0), false);
    start[AddrSpace::Lds] = CMem::new(mem);
    let mut d = Concrete;
    let (out, state) = run(&mut d, &frame, &def.body, vars, start).unwrap();
    let Val::Bits(r, _) = &out["RETURN_DATA"] else {
        panic!()
    };
    (r.value, state[AddrSpace::Lds].clone())
}

const UNALIGNED: Settings = Settings {
    alignment: Alignment::Unaligned,
    lds_limit: LdsLimit::Alloc,
    buffer_soffset: gcnsmt_semantics::settings::BufferSoffset::Subtract,
    buffer_oob: gcnsmt_semantics::settings::BufferOob::End,
    buffer_offset: gcnsmt_semantics::settings::BufferOffset::Checked,
    sbuffer_size: gcnsmt_semantics::settings::SbufferSize::Strided,
    sbuffer_offset: gcnsmt_semantics::settings::SbufferOffset::Sum64,
    flat_aperture: gcnsmt_semantics::settings::FlatAperture::Any,
    fp32_denorm: gcnsmt_semantics::settings::Fp32Denorm::Preserve,
    ieee_mode: gcnsmt_semantics::settings::IeeeMode::On,
    lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
    lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
    addtid_m0: gcnsmt_semantics::settings::AddtidM0::Bits16,
    append_addr: gcnsmt_semantics::settings::AppendAddr::Offset,
    gfx6_negative_base: gcnsmt_semantics::settings::Gfx6NegativeBase::Defined,
    // bufaudit
    buffer_struct: gcnsmt_semantics::settings::BufferStruct::Index,
    buffer_swizzle: gcnsmt_semantics::settings::BufferSwizzle::Undefined,
    bvh_pop: gcnsmt_semantics::settings::BvhPop::Pcode,
    bvh_invalid: gcnsmt_semantics::settings::BvhInvalid::AllOnes,
    d16_unused: gcnsmt_semantics::settings::D16Unused::Preserved,
    lds_misaligned: gcnsmt_semantics::settings::LdsMisaligned::Defined,
    flat_offset: gcnsmt_semantics::settings::FlatOffset::Applied,
    sici_soffset_clamp: gcnsmt_semantics::settings::SiciSoffsetClamp::Defined,
};
const DWORD: Settings = Settings {
    alignment: Alignment::Dword,
    lds_limit: LdsLimit::M0,
    buffer_soffset: gcnsmt_semantics::settings::BufferSoffset::Subtract,
    buffer_oob: gcnsmt_semantics::settings::BufferOob::End,
    buffer_offset: gcnsmt_semantics::settings::BufferOffset::Checked,
    sbuffer_size: gcnsmt_semantics::settings::SbufferSize::Strided,
    sbuffer_offset: gcnsmt_semantics::settings::SbufferOffset::Sum64,
    flat_aperture: gcnsmt_semantics::settings::FlatAperture::Any,
    fp32_denorm: gcnsmt_semantics::settings::Fp32Denorm::Preserve,
    ieee_mode: gcnsmt_semantics::settings::IeeeMode::On,
    lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
    lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
    addtid_m0: gcnsmt_semantics::settings::AddtidM0::Bits16,
    append_addr: gcnsmt_semantics::settings::AppendAddr::Offset,
    gfx6_negative_base: gcnsmt_semantics::settings::Gfx6NegativeBase::Defined,
    // bufaudit
    buffer_struct: gcnsmt_semantics::settings::BufferStruct::Index,
    buffer_swizzle: gcnsmt_semantics::settings::BufferSwizzle::Formula,
    bvh_pop: gcnsmt_semantics::settings::BvhPop::Pcode,
    bvh_invalid: gcnsmt_semantics::settings::BvhInvalid::AllOnes,
    d16_unused: gcnsmt_semantics::settings::D16Unused::Preserved,
    lds_misaligned: gcnsmt_semantics::settings::LdsMisaligned::Defined,
    flat_offset: gcnsmt_semantics::settings::FlatOffset::Applied,
    sici_soffset_clamp: gcnsmt_semantics::settings::SiciSoffsetClamp::Defined,
};

fn word(m: &CMem, a: u32) -> u32 {
    u32::from_le_bytes([m.get(a), m.get(a + 1), m.get(a + 2), m.get(a + 3)])
}

#[test]
fn add_rtn_returns_old_and_adds() {
    // LDS at 0x10 holds bytes 10 11 12 13 = 0x13121110.
    let (r, m) = run_one("DS_ADD_RTN_U32", UNALIGNED, 0x8, 5, 0, 8, 32);
    assert_eq!(r, 0x1312_1110);
    assert_eq!(word(&m, 0x10), 0x1312_1115);
}

#[test]
fn inc_and_dec_wrap() {
    // Memory 0x07060504 at 4; DATA below it: inc wraps to 0, dec (tmp > DATA) loads DATA.
    let (_, m) = run_one("DS_INC_U32", UNALIGNED, 4, 7, 0, 0, 32);
    assert_eq!(word(&m, 4), 0);
    let (_, m) = run_one("DS_DEC_U32", UNALIGNED, 4, 7, 0, 0, 32);
    assert_eq!(word(&m, 4), 7);
    let (_, m) = run_one("DS_INC_U32", UNALIGNED, 4, 0xffff_ffff, 0, 0, 32);
    assert_eq!(word(&m, 4), 0x0706_0505);
}

#[test]
fn dword_mode_drops_low_bits() {
    // ds_read_b32 at 6 reads at 4 in DWORD mode: bytes 04 05 06 07.
    let (r, _) = run_one("DS_READ_B32", DWORD, 6, 0, 0, 0, 32);
    assert_eq!(r, 0x0706_0504);
    let (r, _) = run_one("DS_READ_B32", UNALIGNED, 6, 0, 0, 0, 32);
    assert_eq!(r, 0x0908_0706);
    // b64 at 12 in DWORD mode reads at 8.
    let (r, _) = run_one("DS_READ_B64", DWORD, 12, 0, 0, 0, 64);
    assert_eq!(r, 0x0f0e_0d0c_0b0a_0908);
}

#[test]
fn cmpst_operand_order_differs_by_generation() {
    // Memory at 0 = 0x03020100. ds_cmpst: DATA0 = compare, DATA1 = new.
    let (_, m) = run_one("DS_CMPST_B32", UNALIGNED, 0, 0x0302_0100, 0xaaaa, 0, 32);
    assert_eq!(word(&m, 0), 0xaaaa);
    // ds_cmpstore: DATA0 = new, DATA1 = compare.
    let (_, m) = run_one("DS_CMPSTORE_B32", UNALIGNED, 0, 0x0302_0100, 0xaaaa, 0, 32);
    assert_eq!(word(&m, 0), 0x0302_0100);
    let (_, m) = run_one("DS_CMPSTORE_B32", UNALIGNED, 0, 0xaaaa, 0x0302_0100, 0, 32);
    assert_eq!(word(&m, 0), 0xaaaa);
}

#[test]
fn read2st64_b64_scales_by_512() {
    // offset0 = 1, offset1 = 2: 8-byte reads at 512 and 1024.
    let (r, _) = run_one("DS_READ2ST64_B64", UNALIGNED, 0, 0, 0, 0x0201, 128);
    let lo = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7].map(|i| (512 + i) as u8));
    let hi = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7].map(|i| (1024 + i) as u8));
    assert_eq!(r, (hi as u128) << 64 | lo as u128);
}

#[test]
fn d16_hi_preserves_low_half() {
    let (r, _) = run_one("DS_READ_U16_D16_HI", UNALIGNED, 2, 0, 0, 0, 32);
    assert_eq!(r, 0x0302_beef);
}

#[test]
fn m0_bound_drops_writes_and_zeroes_reads() {
    let s = DWORD;
    // M0 = 0xffffffff in run_one: in range.
    let (r, _) = run_one("DS_READ_B32", s, 0x100, 0, 0, 0, 32);
    assert_eq!(r, 0x0302_0100);
}

#[test]
fn min_num_prefers_number_over_nan() {
    // Memory at 0xfc = fc fd fe ff = 0xfffefdfc: exponent all ones, fraction non-zero, a NaN.
    // minimumNumber: DATA 1.0 replaces it.
    let (_, m) = run_one("DS_MIN_NUM_F32", UNALIGNED, 0xfc, 0x3f80_0000, 0, 0, 32);
    assert_eq!(word(&m, 0xfc), 0x3f80_0000);
    // Pre-gfx12 min_f32 keeps the NaN (1.0 < NaN is false).
    let (_, m) = run_one("DS_MIN_F32", UNALIGNED, 0xfc, 0x3f80_0000, 0, 0, 32);
    assert_eq!(word(&m, 0xfc), 0xfffe_fdfc);
}

// Expectations below were computed by hand from the AMD guides' descriptions (each comment
// gives the arithmetic). They kill the semantic mutants scripts/mutate.py found surviving.

/// Memory at 0x10 (pattern `a as u8`) holds 0x13121110.
const W10: u32 = 0x1312_1110;

fn atomic(name: &str, data0: u128, data1: u128) -> (u32, u32) {
    let (r, m) = run_one(name, UNALIGNED, 0x10, data0, data1, 0, 32);
    (r as u32, word(&m, 0x10))
}

#[test]
fn atomic32_arithmetic_by_hand() {
    // rsub: 0x20000000 - 0x13121110 = 0x0cedeef0; returns the old word.
    assert_eq!(
        atomic("DS_RSUB_RTN_U32", 0x2000_0000, 0),
        (W10, 0x0ced_eef0)
    );
    // inc at the limit (MEM == DATA) wraps to 0.
    assert_eq!(atomic("DS_INC_RTN_U32", W10 as u128, 0).1, 0);
    // Signed min/max with DATA = -1 against a positive word; unsigned with DATA = 5.
    assert_eq!(atomic("DS_MIN_RTN_I32", 0xffff_ffff, 0).1, 0xffff_ffff);
    assert_eq!(atomic("DS_MAX_RTN_I32", 0xffff_ffff, 0).1, W10);
    assert_eq!(atomic("DS_MAX_RTN_I32", 0x7fff_ffff, 0).1, 0x7fff_ffff);
    assert_eq!(atomic("DS_MIN_RTN_U32", 5, 0).1, 5);
    assert_eq!(atomic("DS_MIN_RTN_U32", 0xffff_ffff, 0).1, W10);
    assert_eq!(atomic("DS_MAX_RTN_U32", 5, 0).1, W10);
    // Bitwise with 0x0000ffff: and 0x00001110, xor 0x1312eeef.
    assert_eq!(atomic("DS_AND_RTN_B32", 0xffff, 0).1, 0x0000_1110);
    assert_eq!(atomic("DS_XOR_RTN_B32", 0xffff, 0).1, 0x1312_eeef);
    assert_eq!(atomic("DS_OR_RTN_B32", 0xffff, 0).1, 0x1312_ffff);
    // wrap: MEM >= DATA0 subtracts DATA0 (0x13121110 - 0x10000000), equal gives 0, else adds
    // DATA1 (0x13121110 + 5).
    assert_eq!(atomic("DS_WRAP_RTN_B32", 0x1000_0000, 5).1, 0x0312_1110);
    assert_eq!(atomic("DS_WRAP_RTN_B32", W10 as u128, 5).1, 0);
    assert_eq!(atomic("DS_WRAP_RTN_B32", 0x2000_0000, 5).1, 0x1312_1115);
    // cond_sub: subtracts when no underflow (0x13121110 - 0x03000000), equal gives 0, else keeps.
    assert_eq!(atomic("DS_COND_SUB_RTN_U32", 0x0300_0000, 0).1, 0x1012_1110);
    assert_eq!(atomic("DS_COND_SUB_RTN_U32", W10 as u128, 0).1, 0);
    assert_eq!(atomic("DS_COND_SUB_RTN_U32", 0x2000_0000, 0).1, W10);
    // sub_clamp: 0x13121110 - 0x03000000, or 0 when DATA is larger.
    assert_eq!(
        atomic("DS_SUB_CLAMP_RTN_U32", 0x0300_0000, 0).1,
        0x1012_1110
    );
    assert_eq!(atomic("DS_SUB_CLAMP_RTN_U32", 0x2000_0000, 0).1, 0);
}

#[test]
fn condxchg32_by_hand() {
    // ADDR 0x19: (0x19 + 0) & 0xfff8 = 0x18, second dword at 0x1c. Both enable bits (31, 63)
    // set: 0x18 <- 0x00000002, 0x1c <- 0x00000001; returns {MEM[0x1c], MEM[0x18]}.
    let data = 0x8000_0001_8000_0002u128;
    let (r, m) = run_one("DS_CONDXCHG32_RTN_B64", UNALIGNED, 0x19, data, 0, 0, 64);
    assert_eq!(r, 0x1f1e_1d1c_1b1a_1918);
    assert_eq!((word(&m, 0x18), word(&m, 0x1c)), (2, 1));
    // Enable bits clear (bits 30 and 62 set instead): nothing is written.
    let (_, m) = run_one(
        "DS_CONDXCHG32_RTN_B64",
        UNALIGNED,
        0x19,
        0x4000_0001_4000_0002,
        0,
        0,
        64,
    );
    assert_eq!((word(&m, 0x18), word(&m, 0x1c)), (0x1b1a_1918, 0x1f1e_1d1c));
}

/// A pattern without the 256-byte period of `a as u8`, so a stride of 256 and one of 512 read
/// different bytes.
fn pat(a: u32) -> u8 {
    (a as u8) ^ ((a >> 8) as u8).wrapping_mul(37)
}

fn pat_le(a: u32, bytes: u32) -> u128 {
    (0..bytes).rev().fold(0, |v, i| v << 8 | pat(a + i) as u128)
}

fn mem_le(m: &CMem, a: u32, bytes: u32) -> u128 {
    (0..bytes)
        .rev()
        .fold(0, |v, i| v << 8 | m.get(a + i) as u128)
}

#[test]
fn two_address_forms_by_hand() {
    // (names, element bytes, offset scale in bytes): AMD guides, DS_READ2* / DS_WRITE2* /
    // DS_WRXCHG2*: OFFSETn * 4, * 8, and the ST64 forms * 256 (b32) and * 512 (b64).
    let forms = [
        ("B32", 4u32, 4u32),
        ("ST64_B32", 4, 256),
        ("B64", 8, 8),
        ("ST64_B64", 8, 512),
    ];
    // ADDR 4, OFFSET0 1, OFFSET1 3.
    let (addr, off0, off1) = (4u32, 1u32, 3u32);
    let offset = (off1 << 8 | off0) as u16;
    for (suffix, size, scale) in forms {
        let (a1, a2) = (addr + off0 * scale, addr + off1 * scale);
        let bits = size * 8;
        let (d0, d1) = (0x0123_4567_89ab_cdefu128, 0xfedc_ba98_7654_3210u128);
        let mask = (1u128 << bits) - 1;
        let read = if suffix.starts_with("ST64") {
            format!("DS_READ2ST64_{}", &suffix[5..])
        } else {
            format!("DS_READ2_{suffix}")
        };
        let (r, _) = run_mem(&read, UNALIGNED, (addr, 0, 0, offset), 2 * bits, pat);
        assert_eq!(r, pat_le(a2, size) << bits | pat_le(a1, size), "{read}");

        let write = read.replace("READ", "WRITE");
        let (_, m) = run_mem(&write, UNALIGNED, (addr, d0, d1, offset), 32, pat);
        assert_eq!(mem_le(&m, a1, size), d0 & mask, "{write}");
        assert_eq!(mem_le(&m, a2, size), d1 & mask, "{write}");

        let xchg = if suffix.starts_with("ST64") {
            format!("DS_WRXCHG2ST64_RTN_{}", &suffix[5..])
        } else {
            format!("DS_WRXCHG2_RTN_{suffix}")
        };
        let (r, m) = run_mem(&xchg, UNALIGNED, (addr, d0, d1, offset), 2 * bits, pat);
        assert_eq!(r, pat_le(a2, size) << bits | pat_le(a1, size), "{xchg}");
        assert_eq!(mem_le(&m, a1, size), d0 & mask, "{xchg}");
        assert_eq!(mem_le(&m, a2, size), d1 & mask, "{xchg}");
    }
}

/// Run `name` at ADDR 0x10 (OFFSET 0) with LDS bytes 0x10.. holding `m` (little-endian, 16
/// bytes) and every other byte `a as u8`; returns RETURN_DATA (128-bit destination) and
/// the 16 bytes at 0x10 afterwards.
fn at16(name: &str, m: u128, data0: u128, data1: u128) -> (u128, u128) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let aliases = def.aliases_for(name).unwrap();
    let frame = Frame {
        settings: UNALIGNED,
        mem: MemView::Space(AddrSpace::Lds),
        aliases,
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("ADDR".into(), bits(0x10, 32));
    vars.insert("DATA0".into(), bits(data0, 64));
    vars.insert("DATA1".into(), bits(data1, 64));
    vars.insert("OFFSET".into(), bits(0, 16));
    vars.insert("OFFSET0".into(), bits(0, 8));
    vars.insert("OFFSET1".into(), bits(0, 8));
    vars.insert("M0".into(), bits(0xffff_ffff, 32));
    vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    vars.insert("RETURN_DATA".into(), bits(0, 128));
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Lds] = CMem::new(move |a| {
        if (0x10..0x20).contains(&a) {
            (m >> (8 * (a - 0x10))) as u8
        } else {
            a as u8
        }
    });
    let mut d = Concrete;
    let (out, mem) = run(&mut d, &frame, &def.body, vars, mem).unwrap();
    let Val::Bits(r, _) = &out["RETURN_DATA"] else {
        panic!()
    };
    let after = (0..16u32).fold(0u128, |acc, i| {
        acc | (mem[AddrSpace::Lds].get(0x10 + i) as u128) << (8 * i)
    });
    (r.value, after)
}

/// 64-bit atomics against a Rust rendering of the AMD guide's descriptions (Vega ISA guide,
/// "LDS & GDS instructions"), on values that separate signed from unsigned and wrap.
#[test]
fn atomic64_by_hand() {
    let hi: u128 = 0xffff_ffff_ffff_ffff_0000_0000_0000_0000; // bytes 0x18.. stay as given
    let cases: [(u64, u64, u64); 4] = [
        (0x8000_0000_0000_0005, 7, 0x0123),
        (5, 0xffff_ffff_ffff_fffe, 0xff00),
        (0, 3, 0x0f0f),
        (0x7fff_ffff_ffff_ffff, 0x7fff_ffff_ffff_ffff, 1),
    ];
    type F = fn(u64, u64, u64) -> u64;
    let ops: [(&str, F); 14] = [
        ("DS_ADD_RTN_U64", |m, d, _| m.wrapping_add(d)),
        ("DS_SUB_RTN_U64", |m, d, _| m.wrapping_sub(d)),
        ("DS_RSUB_RTN_U64", |m, d, _| d.wrapping_sub(m)),
        ("DS_INC_RTN_U64", |m, d, _| if m >= d { 0 } else { m + 1 }),
        (
            "DS_DEC_RTN_U64",
            |m, d, _| if m == 0 || m > d { d } else { m - 1 },
        ),
        ("DS_MIN_RTN_I64", |m, d, _| (m as i64).min(d as i64) as u64),
        ("DS_MAX_RTN_I64", |m, d, _| (m as i64).max(d as i64) as u64),
        ("DS_MIN_RTN_U64", |m, d, _| m.min(d)),
        ("DS_MAX_RTN_U64", |m, d, _| m.max(d)),
        ("DS_AND_RTN_B64", |m, d, _| m & d),
        ("DS_OR_RTN_B64", |m, d, _| m | d),
        ("DS_XOR_RTN_B64", |m, d, _| m ^ d),
        ("DS_MSKOR_RTN_B64", |m, d0, d1| (m & !d0) | d1),
        ("DS_WRXCHG_RTN_B64", |_, d, _| d),
    ];
    for (name, f) in ops {
        for (m, d0, d1) in cases {
            let (r, after) = at16(name, hi | m as u128, d0 as u128, d1 as u128);
            assert_eq!(r as u64, m, "{name}: returns the old value");
            assert_eq!(
                after as u64,
                f(m, d0, d1),
                "{name}: mem {m:#x}, data {d0:#x}, {d1:#x}"
            );
            assert_eq!(
                after >> 64,
                hi >> 64,
                "{name}: the next 8 bytes are untouched"
            );
        }
    }
    // Compare-and-store: ds_cmpst (DATA0 = compare) and ds_cmpstore (DATA1 = compare).
    for (m, a, b) in [(5u64, 5u64, 9u64), (5, 9, 5), (5, 6, 7)] {
        let (_, after) = at16("DS_CMPST_RTN_B64", m as u128, a as u128, b as u128);
        assert_eq!(
            after as u64,
            if m == a { b } else { m },
            "cmpst {m} {a} {b}"
        );
        let (_, after) = at16("DS_CMPSTORE_RTN_B64", m as u128, a as u128, b as u128);
        assert_eq!(
            after as u64,
            if m == b { a } else { m },
            "cmpstore {m} {a} {b}"
        );
    }
}

/// Float atomics on bit patterns: IEEE sums, the pre-gfx12 `src < tmp ? src : tmp` reading of
/// min/max, IEEE minimumNumber/maximumNumber, IEEE equality for cmpst (-0 == +0, NaN != NaN).
#[test]
fn float_atomics_by_hand() {
    let f = |x: f32| x.to_bits() as u128;
    let d = |x: f64| x.to_bits() as u128;
    let nan32 = 0x7fc0_0001u128;
    let (_, m) = at16("DS_ADD_RTN_F32", f(1.5), f(2.25), 0);
    assert_eq!(m as u32, 3.75f32.to_bits());
    let (_, m) = at16("DS_ADD_RTN_F64", d(1.5), d(-4.0), 0);
    assert_eq!(m as u64, (-2.5f64).to_bits());
    for (name, mem, data, want) in [
        ("DS_MIN_RTN_F32", f(2.0), f(-1.0), f(-1.0)),
        ("DS_MIN_RTN_F32", f(-1.0), f(2.0), f(-1.0)),
        ("DS_MAX_RTN_F32", f(2.0), f(-1.0), f(2.0)),
        ("DS_MAX_RTN_F32", f(-1.0), f(2.0), f(2.0)),
        ("DS_MIN_RTN_F32", nan32, f(1.0), nan32),
        ("DS_MIN_NUM_RTN_F32", nan32, f(1.0), f(1.0)),
        ("DS_MIN_NUM_RTN_F32", f(1.0), nan32, f(1.0)),
        ("DS_MAX_NUM_RTN_F32", nan32, f(1.0), f(1.0)),
        ("DS_MIN_NUM_RTN_F32", f(0.0), f(-0.0), f(-0.0)),
        ("DS_MAX_NUM_RTN_F32", f(-0.0), f(0.0), f(0.0)),
        ("DS_MAX_NUM_RTN_F32", f(3.0), f(2.0), f(3.0)),
        ("DS_MIN_NUM_RTN_F32", 0x7f80_0001, 0x7f80_0002, 0x7fc0_0002),
    ] {
        let (r, m) = at16(name, mem, data, 0);
        assert_eq!(r as u32 as u128, mem, "{name}: returns the old value");
        assert_eq!(
            m as u32 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    for (name, mem, data, want) in [
        ("DS_MIN_RTN_F64", d(2.0), d(-1.0), d(-1.0)),
        ("DS_MAX_RTN_F64", d(2.0), d(-1.0), d(2.0)),
        ("DS_MIN_NUM_RTN_F64", d(f64::NAN), d(1.0), d(1.0)),
        ("DS_MAX_NUM_RTN_F64", d(1.0), d(5.0), d(5.0)),
        ("DS_MIN_NUM_RTN_F64", d(1.0), d(5.0), d(1.0)),
    ] {
        let (_, m) = at16(name, mem, data, 0);
        assert_eq!(
            m as u64 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    // cmpst_f32 (DATA0 = compare): -0 matches +0; a NaN never matches.
    let (_, m) = at16("DS_CMPST_RTN_F32", f(0.0), f(-0.0), f(7.0));
    assert_eq!(m as u32, 7.0f32.to_bits());
    let (_, m) = at16("DS_CMPST_RTN_F32", nan32, nan32, f(7.0));
    assert_eq!(m as u32 as u128, nan32);
    let (_, m) = at16("DS_CMPSTORE_RTN_F32", f(2.0), f(7.0), f(2.0));
    assert_eq!(m as u32, 7.0f32.to_bits());
    let (_, m) = at16("DS_CMPST_RTN_F64", d(-0.0), d(0.0), d(7.0));
    assert_eq!(m as u64, 7.0f64.to_bits());
    // Packed halves: 1.5 + 0.25 in the low half, 2 + 2 in the high half.
    let h = |x: f32| half::f16::from_f32(x).to_bits() as u128;
    let (_, m) = at16(
        "DS_PK_ADD_RTN_F16",
        h(2.0) << 16 | h(1.5),
        h(2.0) << 16 | h(0.25),
        0,
    );
    assert_eq!(m as u32 as u128, h(4.0) << 16 | h(1.75));
    let b = |x: f32| half::bf16::from_f32(x).to_bits() as u128;
    let (_, m) = at16(
        "DS_PK_ADD_RTN_BF16",
        b(-3.0) << 16 | b(1.0),
        b(1.0) << 16 | b(1.0),
        0,
    );
    assert_eq!(m as u32 as u128, b(-2.0) << 16 | b(2.0));
}

/// Loads extend by their type; stores write their width from the right half of DATA.
#[test]
fn loads_and_stores_by_hand() {
    let m: u128 = 0x0f0e_0d0c_0b0a_0908_0706_0504_f3f2_f1f0; // byte 0x10 = 0xf0 (negative)
    for (name, want) in [
        ("DS_READ_U8", 0xf0u128),
        ("DS_READ_I8", 0xffff_fff0),
        ("DS_READ_U16", 0xf1f0),
        ("DS_READ_I16", 0xffff_f1f0),
        ("DS_READ_B32", 0xf3f2_f1f0),
        ("DS_READ_B64", 0x0706_0504_f3f2_f1f0),
        ("DS_READ_B96", 0x0b0a_0908_0706_0504_f3f2_f1f0),
        ("DS_READ_B128", m),
    ] {
        let (r, after) = at16(name, m, 0, 0);
        assert_eq!(r, want, "{name}");
        assert_eq!(after, m, "{name} does not write");
    }
    let data: u128 = 0x8877_6655_4433_2211;
    for (name, bytes_written, value) in [
        ("DS_WRITE_B8", 1, 0x11u128),
        ("DS_WRITE_B16", 2, 0x2211),
        ("DS_WRITE_B32", 4, 0x4433_2211),
        ("DS_WRITE_B64", 8, 0x8877_6655_4433_2211),
        ("DS_WRITE_B8_D16_HI", 1, 0x33),
        ("DS_WRITE_B16_D16_HI", 2, 0x4433),
    ] {
        let (_, after) = at16(name, m, data, 0);
        let mask = (1u128 << (8 * bytes_written)) - 1;
        assert_eq!(after, (m & !mask) | value, "{name}");
    }
}

/// The src2 forms read their second operand from LDS at B = A + stride * (OFFSET[15] ? {A[31],
/// A[31:17]} : {OFFSET[14], OFFSET[14:0]}) (AMD GCN3 guide DS_ADD_SRC2_U32), and write A.
#[test]
fn src2_forms_by_hand() {
    // A = 0x10, OFFSET = 2: B = 0x10 + 4*2 = 0x18 (32-bit ops), 0x10 + 8*2 = 0x20 (64-bit).
    let lib = Library::builtin();
    let run2 = |name: &str| {
        let def = lib.get(name).unwrap();
        let frame = Frame {
            settings: UNALIGNED,
            mem: MemView::Space(AddrSpace::Lds),
            aliases: &[],
            buffer: None,
        };
        let mut vars = BTreeMap::new();
        vars.insert("ADDR".into(), bits(0x10, 32));
        vars.insert("OFFSET".into(), bits(2, 16));
        vars.insert("M0".into(), bits(0xffff_ffff, 32));
        vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
        vars.insert("RETURN_DATA".into(), bits(0, 128));
        let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
        mem[AddrSpace::Lds] = CMem::new(|a| a as u8);
        let (_, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
        (
            word(&mem[AddrSpace::Lds], 0x10),
            word(&mem[AddrSpace::Lds], 0x14),
        )
    };
    let a = 0x1312_1110u32;
    let b = 0x1b1a_1918u32;
    assert_eq!(run2("DS_ADD_SRC2_U32").0, a.wrapping_add(b));
    assert_eq!(run2("DS_SUB_SRC2_U32").0, a.wrapping_sub(b));
    assert_eq!(run2("DS_RSUB_SRC2_U32").0, b.wrapping_sub(a));
    assert_eq!(run2("DS_MIN_SRC2_U32").0, a.min(b));
    assert_eq!(run2("DS_MAX_SRC2_U32").0, a.max(b));
    assert_eq!(run2("DS_AND_SRC2_B32").0, a & b);
    assert_eq!(run2("DS_OR_SRC2_B32").0, a | b);
    assert_eq!(run2("DS_XOR_SRC2_B32").0, a ^ b);
    assert_eq!(run2("DS_WRITE_SRC2_B32").0, b);
    assert_eq!(run2("DS_INC_SRC2_U32").0, if a >= b { 0 } else { a + 1 });
    assert_eq!(
        run2("DS_DEC_SRC2_U32").0,
        if a == 0 || a > b { b } else { a - 1 }
    );
    // 64-bit: B = 0x20.
    let a64 = 0x1716_1514_1312_1110u64;
    let b64 = 0x2726_2524_2322_2120u64;
    let lo_hi = |p: (u32, u32)| (p.1 as u64) << 32 | p.0 as u64;
    assert_eq!(lo_hi(run2("DS_ADD_SRC2_U64")), a64.wrapping_add(b64));
    assert_eq!(lo_hi(run2("DS_MAX_SRC2_U64")), a64.max(b64));
    assert_eq!(lo_hi(run2("DS_WRITE_SRC2_B64")), b64);
    assert_eq!(lo_hi(run2("DS_XOR_SRC2_B64")), a64 ^ b64);
}

/// Cases that separate `<` from `<=` (signed zeros compare equal but differ in bits), the
/// ordered minimumNumber/maximumNumber paths, a NaN only in DATA, and the non-RTN cmpst names.
#[test]
fn float_ties_and_nan_operands_by_hand() {
    let f = |x: f32| x.to_bits() as u128;
    let d = |x: f64| x.to_bits() as u128;
    let nan32 = 0x7fc0_0001u128;
    for (name, mem, data, want) in [
        // -0 < +0 is false under IEEE, so the memory value stays.
        ("DS_MIN_RTN_F32", f(0.0), f(-0.0), f(0.0)),
        ("DS_MAX_RTN_F32", f(-0.0), f(0.0), f(-0.0)),
        ("DS_MIN_NUM_RTN_F32", f(3.0), f(2.0), f(2.0)),
        ("DS_MIN_NUM_RTN_F32", f(2.0), f(3.0), f(2.0)),
        ("DS_MAX_NUM_RTN_F32", f(2.0), f(3.0), f(3.0)),
        ("DS_MAX_NUM_RTN_F32", f(1.0), nan32, f(1.0)),
        ("DS_MIN_NUM_RTN_F32", f(0.0), f(0.0), f(0.0)),
        ("DS_MAX_NUM_RTN_F32", f(-0.0), f(-0.0), f(-0.0)),
    ] {
        let (_, m) = at16(name, mem, data, 0);
        assert_eq!(
            m as u32 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    for (name, mem, data, want) in [
        ("DS_MIN_RTN_F64", d(0.0), d(-0.0), d(0.0)),
        ("DS_MAX_RTN_F64", d(-0.0), d(0.0), d(-0.0)),
        ("DS_MIN_NUM_RTN_F64", d(3.0), d(2.0), d(2.0)),
        ("DS_MIN_NUM_RTN_F64", d(1.0), d(f64::NAN), d(1.0)),
        ("DS_MAX_NUM_RTN_F64", d(1.0), d(f64::NAN), d(1.0)),
        ("DS_MAX_NUM_RTN_F64", d(f64::NAN), d(1.0), d(1.0)),
        ("DS_MIN_NUM_RTN_F64", d(0.0), d(-0.0), d(-0.0)),
        ("DS_MAX_NUM_RTN_F64", d(-0.0), d(0.0), d(0.0)),
    ] {
        let (_, m) = at16(name, mem, data, 0);
        assert_eq!(
            m as u64 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    // Ties between signed zeros and the sign tests of minimumNumber/maximumNumber.
    for (name, mem, data, want) in [
        ("DS_MIN_NUM_RTN_F32", f(-0.0), f(0.0), f(-0.0)),
        ("DS_MAX_NUM_RTN_F32", f(0.0), f(-0.0), f(0.0)),
        ("DS_MAX_NUM_RTN_F32", f(-5.0), f(-7.0), f(-5.0)),
        ("DS_MIN_NUM_RTN_F32", f(5.0), f(7.0), f(5.0)),
    ] {
        let (_, m) = at16(name, mem, data, 0);
        assert_eq!(
            m as u32 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    for (name, mem, data, want) in [
        ("DS_MIN_NUM_RTN_F64", d(-0.0), d(0.0), d(-0.0)),
        ("DS_MAX_NUM_RTN_F64", d(0.0), d(-0.0), d(0.0)),
        ("DS_MAX_NUM_RTN_F64", d(-5.0), d(-7.0), d(-5.0)),
        ("DS_MIN_NUM_RTN_F64", d(5.0), d(7.0), d(5.0)),
    ] {
        let (_, m) = at16(name, mem, data, 0);
        assert_eq!(
            m as u64 as u128, want,
            "{name}: mem {mem:#x} data {data:#x}"
        );
    }
    // Non-returning float cmpstore (gfx11: DATA0 = new, DATA1 = compare).
    let (_, m) = at16("DS_CMPSTORE_F32", f(2.0), f(7.0), f(2.0));
    assert_eq!(m as u32, 7.0f32.to_bits());
    let (_, m) = at16("DS_CMPSTORE_F64", d(2.0), d(7.0), d(2.0));
    assert_eq!(m as u64, 7.0f64.to_bits());
    // Bit pattern 5 is a (denormal) number equal to itself in every form: all store 9.
    for name in [
        "DS_CMPST_B64",
        "DS_CMPST_B32",
        "DS_CMPST_F32",
        "DS_CMPST_F64",
    ] {
        let (_, m) = at16(name, 5, 5, 9);
        assert_eq!(m as u32, 9, "{name}");
    }
    for name in ["DS_CMPSTORE_B64", "DS_CMPSTORE_B32"] {
        let (_, m) = at16(name, 5, 9, 5);
        assert_eq!(m as u32, 9, "{name}");
    }
}

/// Unaligned and no LDS bound: addresses above 64 KiB are plain memory here.
const NO_BOUND: Settings = Settings {
    alignment: Alignment::Unaligned,
    lds_limit: LdsLimit::None,
    buffer_soffset: gcnsmt_semantics::settings::BufferSoffset::Subtract,
    buffer_oob: gcnsmt_semantics::settings::BufferOob::End,
    buffer_offset: gcnsmt_semantics::settings::BufferOffset::Checked,
    sbuffer_size: gcnsmt_semantics::settings::SbufferSize::Strided,
    sbuffer_offset: gcnsmt_semantics::settings::SbufferOffset::Sum64,
    flat_aperture: gcnsmt_semantics::settings::FlatAperture::Any,
    fp32_denorm: gcnsmt_semantics::settings::Fp32Denorm::Preserve,
    ieee_mode: gcnsmt_semantics::settings::IeeeMode::On,
    lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
    lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
    addtid_m0: gcnsmt_semantics::settings::AddtidM0::Bits16,
    append_addr: gcnsmt_semantics::settings::AppendAddr::Offset,
    gfx6_negative_base: gcnsmt_semantics::settings::Gfx6NegativeBase::Defined,
    // bufaudit
    buffer_struct: gcnsmt_semantics::settings::BufferStruct::Index,
    buffer_swizzle: gcnsmt_semantics::settings::BufferSwizzle::Undefined,
    bvh_pop: gcnsmt_semantics::settings::BvhPop::Pcode,
    bvh_invalid: gcnsmt_semantics::settings::BvhInvalid::AllOnes,
    d16_unused: gcnsmt_semantics::settings::D16Unused::Preserved,
    lds_misaligned: gcnsmt_semantics::settings::LdsMisaligned::Defined,
    flat_offset: gcnsmt_semantics::settings::FlatOffset::Applied,
    sici_soffset_clamp: gcnsmt_semantics::settings::SiciSoffsetClamp::Defined,
};

/// Every src2 form, both address modes: B = A + stride * (OFFSET[15] ? {A[31], A[31:17]} :
/// {OFFSET[14], OFFSET[14:0]}) (AMD GCN3 guide DS_ADD_SRC2_U32), against Rust arithmetic.
#[test]
fn every_src2_form_both_modes_by_hand() {
    let lib = Library::builtin();
    // LDS byte at a: a multiplicative hash of the whole address, so addresses that differ only
    // in high bits (B moved by 0x20000) still hold different bytes.
    fn byte(a: u32) -> u8 {
        (a.wrapping_mul(0x9e37_79b1) >> 24) as u8
    }
    let rd = |a: u32, n: u32| (0..n).fold(0u64, |acc, i| acc | (byte(a + i) as u64) << (8 * i));
    type Op = fn(u64, u64, bool) -> u64;
    let ops: [(&str, Op); 16] = [
        ("ADD_F", |a, b, _| {
            let r = f32::from_bits(a as u32) + f32::from_bits(b as u32);
            if r.is_nan() {
                0x7fc0_0000
            } else {
                r.to_bits() as u64
            }
        }),
        ("ADD", |a, b, _| a.wrapping_add(b)),
        ("SUB", |a, b, _| a.wrapping_sub(b)),
        ("RSUB", |a, b, _| b.wrapping_sub(a)),
        ("INC", |a, b, _| if a >= b { 0 } else { a + 1 }),
        ("DEC", |a, b, _| if a == 0 || a > b { b } else { a - 1 }),
        ("MIN_I", |a, b, w| {
            if w {
                (a as i64).min(b as i64) as u64
            } else {
                (a as u32 as i32).min(b as u32 as i32) as u32 as u64
            }
        }),
        ("MAX_I", |a, b, w| {
            if w {
                (a as i64).max(b as i64) as u64
            } else {
                (a as u32 as i32).max(b as u32 as i32) as u32 as u64
            }
        }),
        ("MIN_U", |a, b, _| a.min(b)),
        ("MAX_U", |a, b, _| a.max(b)),
        ("AND_B", |a, b, _| a & b),
        ("OR_B", |a, b, _| a | b),
        ("XOR_B", |a, b, _| a ^ b),
        ("WRITE_B", |_, b, _| b),
        ("MIN_F", |a, b, w| {
            if w {
                if f64::from_bits(b) < f64::from_bits(a) {
                    b
                } else {
                    a
                }
            } else if f32::from_bits(b as u32) < f32::from_bits(a as u32) {
                b
            } else {
                a
            }
        }),
        ("MAX_F", |a, b, w| {
            if w {
                if f64::from_bits(b) > f64::from_bits(a) {
                    b
                } else {
                    a
                }
            } else if f32::from_bits(b as u32) > f32::from_bits(a as u32) {
                b
            } else {
                a
            }
        }),
    ];
    // ADDR 0x10 (mode 0, OFFSET = 0x4003: {1, 0x4003} = 0xc003 elements) and
    // ADDR 0x0003_0010 (mode 1, OFFSET = 0x8000: {A[31], A[31:17]} = 1 element).
    let mut checked = 0;
    for (addr, offset) in [
        (0x10u32, 0x4003u32),
        (0x10, 0x2005),
        (0x10, 0x0001),
        (0x0003_0010, 0x8000),
        (0x8002_0010, 0x8000),
        (0x4002_0010, 0x8000),
    ] {
        for wide in [false, true] {
            let (w, stride) = if wide { (64u32, 8u32) } else { (32, 4) };
            let elems = if offset & 0x8000 != 0 {
                ((addr >> 31) << 15) | ((addr >> 17) & 0x7fff)
            } else {
                (((offset >> 14) & 1) << 15) | (offset & 0x7fff)
            };
            let b_addr = addr.wrapping_add(stride * elems);
            for (op, f) in ops {
                // "MIN_I" -> stem MIN, kind I; plain names are unsigned.
                let (stem, kind) = op.rsplit_once('_').unwrap_or((op, "U"));
                let name = format!("DS_{stem}_SRC2_{kind}{w}");
                let Some(def) = lib.get(&name) else {
                    continue; // not every op has every width (e.g. ADD_SRC2_F64)
                };
                let frame = Frame {
                    settings: NO_BOUND,
                    mem: MemView::Space(AddrSpace::Lds),
                    aliases: &[],
                    buffer: None,
                };
                let mut vars = BTreeMap::new();
                vars.insert("ADDR".into(), bits(addr as u128, 32));
                vars.insert("OFFSET".into(), bits(offset as u128, 16));
                vars.insert("M0".into(), bits(0xffff_ffff, 32));
                vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
                vars.insert("RETURN_DATA".into(), bits(0, 128));
                let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
                mem[AddrSpace::Lds] = CMem::new(byte);
                let (_, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
                let n = w / 8;
                let got = (0..n).fold(0u64, |acc, i| {
                    acc | (mem[AddrSpace::Lds].get(addr + i) as u64) << (8 * i)
                });
                let want =
                    f(rd(addr, n), rd(b_addr, n), wide) & if wide { u64::MAX } else { 0xffff_ffff };
                assert_eq!(
                    got, want,
                    "{name} at {addr:#x}, OFFSET {offset:#x}: B = {b_addr:#x}"
                );
                checked += 1;
            }
        }
    }
    // (15 operations x 2 widths + ADD_SRC2_F32) x 6 addresses: a renamed entry must not be
    // skipped silently.
    assert_eq!(checked, 186);
}

/// addtid: the address is OFFSET + M0[15:0] + LANE_ID * 4, ADDR unused (CDNA4 guide).
#[test]
fn addtid_by_hand() {
    let lib = Library::builtin();
    for name in ["DS_READ_ADDTID_B32", "DS_WRITE_ADDTID_B32"] {
        let def = lib.get(name).unwrap();
        let frame = Frame {
            settings: UNALIGNED,
            mem: MemView::Space(AddrSpace::Lds),
            aliases: &[],
            buffer: None,
        };
        let mut vars = BTreeMap::new();
        vars.insert("ADDR".into(), bits(0x999, 32));
        vars.insert("DATA0".into(), bits(0xaabb_ccdd, 64));
        vars.insert("OFFSET".into(), bits(0x20, 16));
        vars.insert("M0".into(), bits(0x1234_0100, 32)); // M0[15:0] = 0x100
        vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
        vars.insert("LANE_ID".into(), bits(3, 32));
        vars.insert("RETURN_DATA".into(), bits(0, 32));
        let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
        mem[AddrSpace::Lds] = CMem::new(|a| a as u8);
        let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
        let a = 0x20 + 0x100 + 3 * 4; // 0x12c
        if name.starts_with("DS_READ") {
            let Val::Bits(r, _) = &out["RETURN_DATA"] else {
                panic!()
            };
            assert_eq!(r.value, 0x2f2e_2d2c, "{name} reads at {a:#x}");
        } else {
            assert_eq!(
                word(&mem[AddrSpace::Lds], a),
                0xaabb_ccdd,
                "{name} writes at {a:#x}"
            );
        }
    }
}

/// The VALU/SALU entries (alu.pcode) against Rust arithmetic, carry-out bit at LANE_ID of a
/// 64-bit SDST whose other bits are kept (AMD Vega guide V_ADD_CO_U32 / V_SUB_CO_U32).
#[test]
fn alu_by_hand() {
    let lib = Library::builtin();
    let alu = |name: &str, s0: u32, s1: u32, sdst: u64, lane: u32| -> (u32, u64) {
        let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
        let frame = Frame {
            settings: UNALIGNED,
            mem: MemView::Space(AddrSpace::Lds),
            aliases: &[],
            buffer: None,
        };
        let mut vars = BTreeMap::new();
        vars.insert("S0".into(), bits(s0 as u128, 32));
        vars.insert("S1".into(), bits(s1 as u128, 32));
        vars.insert("D0".into(), bits(0xdead_beef, 32));
        vars.insert("SDST".into(), bits(sdst as u128, 64));
        vars.insert("LANE_ID".into(), bits(lane as u128, 32));
        let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
        let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
        let get = |k: &str| match &out[k] {
            Val::Bits(b, _) => b.value,
            _ => panic!(),
        };
        (get("D0") as u32, get("SDST") as u64)
    };
    let cases = [
        (5u32, 7u32),
        (0xffff_fff0, 0x20),
        (3, 0xffff_ffff),
        (0x8000_0000, 0x8000_0000),
    ];
    let sdst = 0xaaaa_5555_f0f0_0f0fu64;
    for (a, b) in cases {
        for lane in [0u32, 5, 63] {
            let set = |bit: bool| (sdst & !(1u64 << lane)) | (u64::from(bit) << lane);
            for name in ["V_ADD_I32", "V_ADD_CO_U32"] {
                let (d, s) = alu(name, a, b, sdst, lane);
                assert_eq!(d, a.wrapping_add(b), "{name}");
                assert_eq!(
                    s,
                    set(a.checked_add(b).is_none()),
                    "{name} carry, lane {lane}"
                );
            }
            for name in ["V_SUB_I32", "V_SUB_CO_U32"] {
                let (d, s) = alu(name, a, b, sdst, lane);
                assert_eq!(d, a.wrapping_sub(b), "{name}");
                assert_eq!(s, set(b > a), "{name} borrow, lane {lane}");
            }
        }
        for (name, want) in [
            ("V_ADD_U32", a.wrapping_add(b)),
            ("V_ADD_NC_U32", a.wrapping_add(b)),
            ("S_ADD_U32", a.wrapping_add(b)),
            ("V_SUB_U32", a.wrapping_sub(b)),
            ("V_SUB_NC_U32", a.wrapping_sub(b)),
            ("V_AND_B32", a & b),
            ("S_AND_B32", a & b),
            ("V_OR_B32", a | b),
            ("S_OR_B32", a | b),
            ("V_MOV_B32", a),
            ("S_MOV_B32", a),
            ("V_LSHLREV_B32", b.wrapping_shl(a & 31)),
            ("S_LSHL_B32", a.wrapping_shl(b & 31)),
        ] {
            assert_eq!(alu(name, a, b, sdst, 0).0, want, "{name} {a:#x} {b:#x}");
        }
    }
}

/// Run the src2 entry `name` at ADDR `addr` with OFFSET `offset` (no LDS bound, unaligned) on
/// an LDS that is zero except for the little-endian values `cells` (address, value, bytes);
/// returns the `bytes` bytes at `addr` afterwards.
fn src2_on(name: &str, addr: u32, offset: u16, cells: &[(u32, u64, u32)]) -> u64 {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: NO_BOUND,
        mem: MemView::Space(AddrSpace::Lds),
        aliases: &[],
        buffer: None,
    };
    let mut vars = BTreeMap::new();
    vars.insert("ADDR".into(), bits(addr as u128, 32));
    vars.insert("OFFSET".into(), bits(offset as u128, 16));
    vars.insert("M0".into(), bits(0xffff_ffff, 32));
    vars.insert("LDS_SIZE".into(), bits(0x10000, 32));
    vars.insert("RETURN_DATA".into(), bits(0, 128));
    let owned: Vec<(u32, u64, u32)> = cells.to_vec();
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Lds] = CMem::new(move |a| {
        for &(at, v, n) in &owned {
            if a.wrapping_sub(at) < n {
                return (v >> (8 * a.wrapping_sub(at))) as u8;
            }
        }
        0
    });
    let (_, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
    let n = if name.ends_with("64") { 8 } else { 4 };
    (0..n).fold(0u64, |acc, i| {
        acc | (mem[AddrSpace::Lds].get(addr.wrapping_add(i)) as u64) << (8 * i)
    })
}

/// The src2 float min/max on signed zeros. AMD GCN3 guide: DS_MIN_SRC2_F32 stores
/// `(DS[B] < DS[A]) ? DS[B] : DS[A]`, DS_MAX_SRC2_F32 `(DS[B] > DS[A]) ? ...`; under IEEE 754
/// -0 < +0 and +0 > -0 are false, so the value at A stays, sign included. ADDR 0x10, OFFSET 2:
/// B = 0x10 + 4 * 2 = 0x18 (32-bit) or 0x10 + 8 * 2 = 0x20 (64-bit).
#[test]
fn src2_float_min_max_signed_zeros_by_hand() {
    const P32: u64 = 0x0000_0000; // +0.0f
    const N32: u64 = 0x8000_0000; // -0.0f
    const P64: u64 = 0;
    const N64: u64 = 0x8000_0000_0000_0000;
    for (name, at_a, at_b, want) in [
        ("DS_MIN_SRC2_F32", P32, N32, P32),
        ("DS_MAX_SRC2_F32", N32, P32, N32),
        ("DS_MIN_SRC2_F64", P64, N64, P64),
        ("DS_MAX_SRC2_F64", N64, P64, N64),
    ] {
        let (n, b) = if name.ends_with("64") {
            (8, 0x20)
        } else {
            (4, 0x18)
        };
        let got = src2_on(name, 0x10, 2, &[(0x10, at_a, n), (b, at_b, n)]);
        assert_eq!(got, want, "{name}: A holds {at_a:#x}, B holds {at_b:#x}");
    }
}

/// The src2 inc/dec at their boundaries. AMD GCN3 guide: DS_INC_SRC2_U32 stores
/// `(DS[A] >= DS[B]) ? 0 : DS[A] + 1`, DS_DEC_SRC2_U32 `(DS[A] == 0 || DS[A] > DS[B]) ? DS[B] :
/// DS[A] - 1`; the U64 forms are the same on 64 bits. ADDR 0x10, OFFSET 2 as above.
#[test]
fn src2_inc_dec_boundaries_by_hand() {
    for w in ["U32", "U64"] {
        let (n, b) = if w == "U64" { (8, 0x20) } else { (4, 0x18) };
        for (op, at_a, at_b, want) in [
            ("INC", 7, 7, 0), // 7 >= 7: wraps to 0
            ("INC", 8, 7, 0), // 8 >= 7
            ("INC", 6, 7, 7), // 6 < 7: 6 + 1
            ("DEC", 7, 7, 6), // 7 > 7 is false and 7 != 0: 7 - 1
            ("DEC", 1, 5, 0), // 1 != 0 and 1 <= 5: 1 - 1
            ("DEC", 0, 5, 5), // 0: reloads DS[B]
            ("DEC", 9, 5, 5), // 9 > 5: reloads DS[B]
        ] {
            let name = format!("DS_{op}_SRC2_{w}");
            let got = src2_on(&name, 0x10, 2, &[(0x10, at_a, n), (b, at_b, n)]);
            assert_eq!(got, want, "{name}: A holds {at_a}, B holds {at_b}");
        }
    }
}

/// Where B is, checked with values for which every operation's result depends on DS[B]: A holds
/// 6 (1.5 for the float forms), B holds 12 (2.25), every other byte is 0. Reading 0 instead of
/// DS[B] would give, per operation: add 6, sub 6, rsub -6, inc 0 (6 >= 0), dec 0 (6 > 0), min 0,
/// max 6, and 0, or 6, xor 6, write 0, float add 1.5, float min 0, float max 1.5; each differs
/// from the result below, so a wrong B cannot pass.
/// B per AMD GCN3 guide DS_ADD_SRC2_U32: A + stride * (OFFSET[15] ? {A[31], A[31:17]} :
/// {OFFSET[14], OFFSET[14:0]}), stride 4 (32-bit) or 8 (64-bit), wrapping at 32 bits.
#[test]
fn src2_address_bits_by_hand() {
    // Mode 1, A = 0x8002_0010, OFFSET = 0x8000: A[31] = 1, A[31:17] = 0x4001, so 0xc001
    // elements; B = A + 0x30004 = 0x8005_0014 (32-bit) or A + 0x60008 = 0x8008_0018 (64-bit).
    // Mode 0, A = 0x10, OFFSET = 0x4003: {OFFSET[14] = 1, 0x4003} = 0xc003 elements;
    // B = 0x10 + 0x3000c = 0x3001c (32-bit) or 0x10 + 0x60018 = 0x60028 (64-bit).
    let places: [(u32, u16, u32, u32); 2] = [
        (0x8002_0010, 0x8000, 0x8005_0014, 0x8008_0018),
        (0x10, 0x4003, 0x3001c, 0x60028),
    ];
    let ints: [(&str, u64, u64); 13] = [
        // (stem, 32-bit result, 64-bit result) for A = 6, B = 12.
        ("ADD_SRC2_U", 18, 18),
        ("SUB_SRC2_U", 0xffff_fffa, 0xffff_ffff_ffff_fffa), // 6 - 12 wraps
        ("RSUB_SRC2_U", 6, 6),
        ("INC_SRC2_U", 7, 7), // 6 < 12: 6 + 1
        ("DEC_SRC2_U", 5, 5), // 6 != 0, 6 <= 12: 6 - 1
        ("MIN_SRC2_I", 6, 6),
        ("MAX_SRC2_I", 12, 12),
        ("MIN_SRC2_U", 6, 6),
        ("MAX_SRC2_U", 12, 12),
        ("AND_SRC2_B", 4, 4),   // 0b0110 & 0b1100
        ("OR_SRC2_B", 14, 14),  // 0b0110 | 0b1100
        ("XOR_SRC2_B", 10, 10), // 0b0110 ^ 0b1100
        ("WRITE_SRC2_B", 12, 12),
    ];
    for (a, offset, b32, b64) in places {
        for (stem, want32, want64) in ints {
            for (w, b, want) in [(4, b32, want32), (8, b64, want64)] {
                let name = format!("DS_{stem}{}", w * 8);
                let got = src2_on(&name, a, offset, &[(a, 6, w), (b, 12, w)]);
                assert_eq!(got, want, "{name} at {a:#x}, OFFSET {offset:#x}, B {b:#x}");
            }
        }
        // 1.5f = 0x3fc0_0000, 2.25f = 0x4010_0000, 3.75f = 0x4070_0000;
        // 1.5 = 0x3ff8_0000_0000_0000, 2.25 = 0x4002_0000_0000_0000.
        for (name, w, b, at_a, at_b, want) in [
            (
                "DS_ADD_SRC2_F32",
                4,
                b32,
                0x3fc0_0000,
                0x4010_0000,
                0x4070_0000,
            ),
            (
                "DS_MIN_SRC2_F32",
                4,
                b32,
                0x3fc0_0000,
                0x4010_0000,
                0x3fc0_0000,
            ),
            (
                "DS_MAX_SRC2_F32",
                4,
                b32,
                0x3fc0_0000,
                0x4010_0000,
                0x4010_0000,
            ),
            (
                "DS_MIN_SRC2_F64",
                8,
                b64,
                0x3ff8_0000_0000_0000,
                0x4002_0000_0000_0000,
                0x3ff8_0000_0000_0000,
            ),
            (
                "DS_MAX_SRC2_F64",
                8,
                b64,
                0x3ff8_0000_0000_0000,
                0x4002_0000_0000_0000,
                0x4002_0000_0000_0000,
            ),
        ] {
            let got = src2_on(name, a, offset, &[(a, at_a, w), (b, at_b, w)]);
            assert_eq!(got, want, "{name} at {a:#x}, OFFSET {offset:#x}, B {b:#x}");
        }
    }
}

/// The returning gfx11 float compare-store: AMD RDNA3.5 guide DS_CMPSTORE_RTN_F64 reads
/// `src = DATA` (DATA0) and `cmp = DATA2` (DATA1), stores `tmp == cmp ? src : tmp` and returns
/// tmp. Memory 2.0, DATA0 7.0, DATA1 2.0: 2.0 == 2.0, so 7.0 is stored and 2.0 returned; with
/// the two swapped, 2.0 != 7.0 and nothing would be stored.
#[test]
fn cmpstore_rtn_float_operand_order_by_hand() {
    let two64 = 0x4000_0000_0000_0000u128; // 2.0
    let seven64 = 0x401c_0000_0000_0000u128; // 7.0
    let (r, m) = at16("DS_CMPSTORE_RTN_F64", two64, seven64, two64);
    assert_eq!(m as u64 as u128, seven64);
    assert_eq!(r as u64 as u128, two64);
    let two32 = 0x4000_0000u128; // 2.0f
    let seven32 = 0x40e0_0000u128; // 7.0f
    let (r, m) = at16("DS_CMPSTORE_RTN_F32", two32, seven32, two32);
    assert_eq!(m as u32 as u128, seven32);
    assert_eq!(r as u32 as u128, two32);
}

/// S_ADD_I32 (alu.pcode) wraps at 32 bits like S_ADD_U32 (AMD Vega ISA guide: D = S0 + S1;
/// only SCC differs: salu_scc.rs). Expected values worked by hand.
#[test]
fn s_add_i32_wraps_by_hand() {
    let def = Library::builtin().get("S_ADD_I32").expect("S_ADD_I32");
    let frame = Frame::plain(UNALIGNED);
    for (a, b, want) in [
        (5u32, 7u32, 12u32),
        (0x7fff_ffff, 1, 0x8000_0000),
        (0xffff_ffff, 0xffff_ffff, 0xffff_fffe),
        (0x8000_0000, 0x8000_0000, 0),
    ] {
        let mut vars = BTreeMap::new();
        vars.insert("S0".into(), bits(a as u128, 32));
        vars.insert("S1".into(), bits(b as u128, 32));
        vars.insert("D0".into(), bits(0, 32));
        let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
        let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
        let Val::Bits(v, _) = &out["D0"] else {
            panic!("D0 is not bits")
        };
        assert_eq!(v.value as u32, want, "S_ADD_I32 {a:#x} {b:#x}");
    }
}

/// The three-operand VALU entries, the VOPC compares and V_CNDMASK_B32 (alu.pcode) against
/// Rust arithmetic written from the AMD Vega/CDNA guides' text: V_LSHL_ADD_U32 is
/// `(S0 << S1[4:0]) + S2`, V_ADD3_U32 `S0 + S1 + S2`, V_MAD_U32_U24 `S0[23:0] * S1[23:0] + S2`
/// (all modulo 2^32); a V_CMP_* writes its result to bit LANE_ID of the 64-bit lane mask D0 and
/// keeps the other bits; V_CNDMASK_B32 picks S1 where bit LANE_ID of the mask S2 is set, else S0.
#[test]
fn alu_three_operand_compare_and_cndmask_by_hand() {
    let lib = Library::builtin();
    let alu = |name: &str, s: [u64; 3], d0: u64, lane: u32| -> u64 {
        let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
        let frame = Frame {
            settings: UNALIGNED,
            mem: MemView::Space(AddrSpace::Lds),
            aliases: &[],
            buffer: None,
        };
        let mut vars = BTreeMap::new();
        vars.insert("S0".into(), bits(s[0] as u128, 32));
        vars.insert("S1".into(), bits(s[1] as u128, 32));
        // S2 is a 32-bit VGPR for the three-operand forms and the 64-bit lane mask (VCC or an
        // SGPR pair) for v_cndmask_b32.
        let s2w = if name == "V_CNDMASK_B32" { 64 } else { 32 };
        vars.insert("S2".into(), bits(s[2] as u128, s2w));
        let d0w = if name.starts_with("V_CMP") { 64 } else { 32 };
        vars.insert("D0".into(), bits(d0 as u128, d0w));
        vars.insert("LANE_ID".into(), bits(lane as u128, 32));
        let mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
        let (out, _) = run(&mut Concrete, &frame, &def.body, vars, mem).unwrap();
        match &out["D0"] {
            Val::Bits(b, _) => b.value as u64,
            _ => panic!("{name}: D0 is not bits"),
        }
    };
    // Pairs where signed and unsigned order disagree, equal operands, and operands with bits
    // above 23 (which V_MAD_U32_U24 must ignore).
    let cases: [(u32, u32, u32); 6] = [
        (5, 7, 9),
        (7, 5, 0xffff_fffe),
        (0x8000_0000, 1, 3),
        (0xffff_ffff, 0xffff_ffff, 0x1234_5678),
        (0x0100_0003, 0xff80_0002, 0x10),
        (0x00ff_ffff, 0x00ff_ffff, 0xffff_ffff),
    ];
    let mask = 0xaaaa_5555_f0f0_0f0fu64;
    for (a, b, c) in cases {
        let s = [a as u64, b as u64, c as u64];
        assert_eq!(
            alu("V_LSHL_ADD_U32", s, 0, 0) as u32,
            a.wrapping_shl(b & 31).wrapping_add(c),
            "V_LSHL_ADD_U32 {a:#x} {b:#x} {c:#x}"
        );
        assert_eq!(
            alu("V_ADD3_U32", s, 0, 0) as u32,
            a.wrapping_add(b).wrapping_add(c),
            "V_ADD3_U32 {a:#x} {b:#x} {c:#x}"
        );
        assert_eq!(
            alu("V_MAD_U32_U24", s, 0, 0) as u32,
            (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c),
            "V_MAD_U32_U24 {a:#x} {b:#x} {c:#x}"
        );
        let (sa, sb) = (a as i32, b as i32);
        for lane in [0u32, 5, 62, 63] {
            let set = |bit: bool| (mask & !(1u64 << lane)) | (u64::from(bit) << lane);
            for (name, want) in [
                ("V_CMP_EQ_U32", a == b),
                ("V_CMP_NE_U32", a != b),
                ("V_CMP_LT_U32", a < b),
                ("V_CMP_LE_U32", a <= b),
                ("V_CMP_GT_U32", a > b),
                ("V_CMP_GE_U32", a >= b),
                ("V_CMP_LT_I32", sa < sb),
                ("V_CMP_LE_I32", sa <= sb),
                ("V_CMP_GT_I32", sa > sb),
                ("V_CMP_GE_I32", sa >= sb),
            ] {
                assert_eq!(
                    alu(name, s, mask, lane),
                    set(want),
                    "{name} {a:#x} {b:#x} lane {lane}"
                );
                // Both values of the lane's old bit: the other bits are kept either way.
                let flipped = mask ^ (1u64 << lane);
                assert_eq!(
                    alu(name, s, flipped, lane),
                    (flipped & !(1u64 << lane)) | (u64::from(want) << lane),
                    "{name} {a:#x} {b:#x} lane {lane}, old bit flipped"
                );
            }
            for vcc in [mask, !mask, 0, u64::MAX] {
                let pick = if vcc >> lane & 1 == 1 { b } else { a };
                assert_eq!(
                    alu(
                        "V_CNDMASK_B32",
                        [a as u64, b as u64, vcc],
                        0xdead_beef,
                        lane
                    ) as u32,
                    pick,
                    "V_CNDMASK_B32 {a:#x} {b:#x} mask {vcc:#x} lane {lane}"
                );
            }
        }
    }
}

// dsnew: the gfx1250 barrier arrive, by hand from Triton's BarrierOpToLLVM.cpp update rule
// (pending [28:0] -= count; on pending < count: phase [31:29] - 1 and pending = reload [63:32]
// + 1 + (pending - count), to 29 bits; [63:32] kept).
#[test]
fn barrier_arrive_by_hand() {
    let qword = |m: &CMem, a: u32| (word(m, a + 4) as u64) << 32 | word(m, a) as u64;
    // LDS at 0x10 holds 0x17161514_13121110: pending 0x13121110, phase 0, reload 0x17161514.
    let (r, m) = run_one(
        "DS_ATOMIC_BARRIER_ARRIVE_RTN_B64",
        UNALIGNED,
        0x10,
        5,
        0,
        0,
        64,
    );
    assert_eq!(r, 0x1716_1514_1312_1110);
    assert_eq!(qword(&m, 0x10), 0x1716_1514_1312_110b);
    // One more than pending: underflow, phase 0 - 1 = 7, pending = 0x17161514 + 1 - 1.
    let (_, m) = run_one(
        "DS_ATOMIC_BARRIER_ARRIVE_RTN_B64",
        UNALIGNED,
        0x10,
        0x1312_1111,
        0,
        0,
        64,
    );
    assert_eq!(qword(&m, 0x10), 0x1716_1514_f716_1514);
    // The async form arrives once: pending - 1.
    let (_, m) = run_one(
        "DS_ATOMIC_ASYNC_BARRIER_ARRIVE_B64",
        UNALIGNED,
        0x8,
        0,
        0,
        8,
        64,
    );
    assert_eq!(qword(&m, 0x10), 0x1716_1514_1312_110f);
}
