//! The shipped semantics files parse, print back to text that parses to the same IR, and
//! run on the concrete interpreter with hand-computed expected values.

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, Frame, MemState, Val};
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
        gds: false,
        aliases,
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
    let mem = MemState {
        lds: CMem::new(mem),
        gds: CMem::new(|_| 0),
        ub: false,
    };
    let mut d = Concrete;
    let (out, mem) = run(&mut d, &frame, &def.body, vars, mem).unwrap();
    let Val::Bits(r, _) = &out["RETURN_DATA"] else {
        panic!()
    };
    (r.value, mem.lds)
}

const UNALIGNED: Settings = Settings {
    alignment: Alignment::Unaligned,
    lds_limit: LdsLimit::Alloc,
};
const DWORD: Settings = Settings {
    alignment: Alignment::Dword,
    lds_limit: LdsLimit::M0,
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
