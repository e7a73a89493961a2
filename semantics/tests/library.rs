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
        lds: CMem::new(|a| a as u8),
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
