//! Buffer (MUBUF/VBUFFER) semantics on the concrete interpreter against hand computation:
//! V# field positions per generation, the address `base + soffset + index * stride + offset`,
//! raw and structured range checks, OOB_SELECT, per-dword checks of x2 loads, all-or-nothing
//! atomics, the cmpswap data order, swizzled addressing on gfx8, and the named settings.
//!
//! Every expected value is worked out in the comments from the rules in `README.md`
//! ("Buffer instructions"), which cite CLRX `GcnMemHandling.md`, gem5 Vega, Mesa RADV and
//! rocMLIR PR #678; none is taken from gcnsmt's output.

use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::{BufferOffset, BufferOob, BufferSoffset, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// A GCN/CDNA V# (gfx6-gfx950): base 47:0, stride 61:48, num_records 95:64.
fn gcn_vsharp(base: u64, stride: u32, num_records: u32) -> u128 {
    base as u128 | (stride as u128) << 48 | (num_records as u128) << 64
}

/// An RDNA V# (gfx10-gfx12) with OOB_SELECT at 125:124.
fn rdna_vsharp(base: u64, stride: u32, num_records: u32, oob_select: u32) -> u128 {
    gcn_vsharp(base, stride, num_records) | (oob_select as u128) << 124
}

struct Access {
    target: Target,
    offen: bool,
    idxen: bool,
    addr64: bool,
    /// LANE_ID (for ADD_TID_ENABLE).
    lane: u32,
    vaddr: (u128, u32),
    srsrc: u128,
    soffset: u32,
    offset: u32,
    data: (u128, u32),
    settings: Settings,
}

fn access(t: Target, srsrc: u128, soffset: u32, voffset: u32, offset: u32) -> Access {
    Access {
        target: t,
        offen: true,
        idxen: false,
        addr64: false,
        lane: 0,
        vaddr: (voffset as u128, 32),
        srsrc,
        soffset,
        offset,
        data: (0, 32),
        settings: Settings::default_for(t),
    }
}

/// Global memory byte `a` is the low byte of `a` (so a dword at 0x100c reads 0x0f0e0d0c).
fn run_buf(name: &str, a: &Access) -> (BTreeMap<String, u128>, CMem) {
    run_buf_in(Library::builtin(), name, a, CMem::new_wide(|a| a as u8))
}

/// As [`run_buf`] with a given library (loaded once for long tables) and global memory.
fn run_buf_in(
    lib: &Library,
    name: &str,
    a: &Access,
    global: CMem,
) -> (BTreeMap<String, u128>, CMem) {
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: a.settings,
        mem: MemView::Space(AddrSpace::Global),
        aliases: def.aliases_for(name).unwrap_or(&[]),
        buffer: Some(BufferMode {
            target: a.target,
            offen: a.offen,
            idxen: a.idxen,
            addr64: a.addr64,
        }),
    };
    let mut vars = BTreeMap::new();
    vars.insert("VADDR".into(), bits(a.vaddr.0, a.vaddr.1));
    vars.insert("SRSRC".into(), bits(a.srsrc, 128));
    vars.insert("SOFFSET".into(), bits(a.soffset as u128, 32));
    vars.insert("OFFSET".into(), bits(a.offset as u128, 32));
    vars.insert("LANE_ID".into(), bits(a.lane as u128, 32));
    vars.insert("VDATA".into(), bits(a.data.0, a.data.1));
    vars.insert("DATA".into(), bits(a.data.0, a.data.1));
    vars.insert("RETURN_DATA".into(), bits(a.data.0, a.data.1));
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Global] = global;
    let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).expect("runs");
    let outs = out
        .into_iter()
        .filter_map(|(k, v)| match v {
            Val::Bits(b, _) => Some((k, b.value)),
            _ => None,
        })
        .collect();
    (outs, mem[AddrSpace::Global].clone())
}

#[test]
fn raw_dword_load_address_and_bound_with_soffset() {
    // base 0x1000, raw (stride 0), num_records 16, soffset 4, voffset 8, offset 0:
    // address = 0x1000 + 4 + 8 = 0x100c; in range: 8 + 4 <= 16 - 4.
    let a = access(Target::Gfx900, gcn_vsharp(0x1000, 0, 16), 4, 8, 0);
    let (o, _) = run_buf("BUFFER_LOAD_DWORD", &a);
    assert_eq!(o["VDATA"], 0x0f0e_0d0c);
    // voffset 9: 9 + 4 = 13 > 12: out of range, reads 0.
    let a = access(Target::Gfx900, gcn_vsharp(0x1000, 0, 16), 4, 9, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // buffer_soffset=IGNORE: the bound is 16, so 9 + 4 <= 16 is in range at 0x1000 + 4 + 9.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x1000, 0, 16), 4, 9, 0);
    a.settings.buffer_soffset = BufferSoffset::Ignore;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x100f_0e0d);
    // buffer_oob=START: only the first byte counts: 9 < 12 is in range.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x1000, 0, 16), 4, 9, 0);
    a.settings.buffer_oob = BufferOob::Start;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x100f_0e0d);
}

#[test]
fn voffset_plus_offset_overflowing_32_bits_is_out_of_range() {
    // voffset 0xffff_fffc + offset 8 = 0x1_0000_0004: under the default buffer_offset=CHECKED
    // the sum does not wrap (LLVM PR #207821: `voffset +[checked] imm + payload`), so it is far
    // beyond num_records 64: out of range, reads 0. (This test asserted the wrapped reading,
    // offset 4 in range, before breaker 17's finding 05.)
    let a = access(Target::Gfx900, gcn_vsharp(0x2000, 0, 64), 0, 0xffff_fffc, 8);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // buffer_offset=WRAP (CLRX's UINT32 AOFFSET): 4 (mod 2^32), address 0x2000 + 4, in range.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x2000, 0, 64), 0, 0xffff_fffc, 8);
    a.settings.buffer_offset = BufferOffset::Wrap;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x0706_0504);
}

#[test]
fn dwordx2_starting_out_of_range_does_not_wrap_into_range() {
    // voffset 0xffff_fffc, num_records 4, base 0x100: dword 0 at 0xffff_fffc is out of range;
    // dword 1's offset 0xffff_fffc + 4 = 2^32 overflows: out of range too under CHECKED (LLVM
    // PR #115479: the whole access is out of bounds), so {0, 0}.
    let a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 4), 0, 0xffff_fffc, 0);
    let (o, _) = run_buf("BUFFER_LOAD_DWORDX2", &Access { data: (0, 64), ..a });
    assert_eq!(o["VDATA"], 0);
    // WRAP: dword 1 is at offset 0, in range: mem[0x100] = 0x03020100 in the high half.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 4), 0, 0xffff_fffc, 0);
    a.settings.buffer_offset = BufferOffset::Wrap;
    let (o, _) = run_buf("BUFFER_LOAD_DWORDX2", &Access { data: (0, 64), ..a });
    assert_eq!(o["VDATA"], 0x0302_0100_0000_0000);
}

#[test]
fn dwordx2_is_range_checked_per_dword() {
    // num_records 12, offset 8: dword 8..11 in range, dword 12..15 out: {0, mem[0x108]}.
    let a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 12), 0, 8, 0);
    let (o, _) = run_buf("BUFFER_LOAD_DWORDX2", &Access { data: (0, 64), ..a });
    assert_eq!(o["VDATA"], 0x0000_0000_0b0a_0908);
}

#[test]
fn atomic_x2_is_all_or_nothing() {
    // swap_x2 at offset 8 with num_records 12: the 8-byte access ends at 16 > 12: dropped,
    // memory keeps its bytes and the old value returned is 0.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 12), 0, 8, 0);
    a.data = (0x1111_2222_3333_4444, 64);
    let (o, m) = run_buf("BUFFER_ATOMIC_SWAP_X2", &a);
    assert_eq!(o["RETURN_DATA"], 0);
    assert!(m.written.is_empty(), "nothing is written: {:?}", m.written);
    // num_records 16: in range, the bytes at 0x108.. become the data, RETURN_DATA the old.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 16), 0, 8, 0);
    a.data = (0x1111_2222_3333_4444, 64);
    let (o, m) = run_buf("BUFFER_ATOMIC_SWAP_X2", &a);
    assert_eq!(o["RETURN_DATA"], 0x0f0e_0d0c_0b0a_0908);
    assert_eq!(m.get64(0x108), 0x44);
    assert_eq!(m.get64(0x10f), 0x11);
}

#[test]
fn cmpswap_data_is_src_then_cmp() {
    // DATA = {cmp (high), src (low)}. Memory dword at 0x100 is 0x03020100.
    let mut a = access(Target::Gfx900, gcn_vsharp(0x100, 0, 64), 0, 0, 0);
    a.data = ((0x0302_0100u128) << 32 | 0xaabb_ccdd, 64);
    let (o, m) = run_buf("BUFFER_ATOMIC_CMPSWAP", &a);
    assert_eq!(o["RETURN_DATA"] & 0xffff_ffff, 0x0302_0100);
    assert_eq!(
        m.get64(0x100),
        0xdd,
        "compare matched: the low dword is stored"
    );
    // Swapped order (what ds_cmpst would use) does not match: memory unchanged.
    a.data = (0xaabb_ccddu128 << 32 | 0x0302_0100, 64);
    let (_, m) = run_buf("BUFFER_ATOMIC_CMPSWAP", &a);
    // (The atomic writes the old value back: the bytes stay 00 01 02 03.)
    let after: Vec<u8> = (0x100..0x104).map(|x| m.get64(x)).collect();
    assert_eq!(after, [0x00, 0x01, 0x02, 0x03]);
}

#[test]
fn structured_buffer_checks_index_and_offset_within_stride() {
    // gfx900, stride 16, num_records 3 (records), idxen+offen, VADDR = {offset, index}.
    let vs = gcn_vsharp(0x400, 16, 3);
    let mk = |index: u32, off: u32| Access {
        idxen: true,
        vaddr: ((off as u128) << 32 | index as u128, 64),
        ..access(Target::Gfx900, vs, 0, 0, 0)
    };
    // index 2, offset 4: address 0x400 + 2*16 + 4 = 0x424; 2 < 3 and 4 + 4 <= 16.
    assert_eq!(
        run_buf("BUFFER_LOAD_DWORD", &mk(2, 4)).0["VDATA"],
        0x2726_2524
    );
    // index 3 is not below num_records: 0.
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &mk(3, 4)).0["VDATA"], 0);
    // offset 14: 14 + 4 > 16, outside the record: 0.
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &mk(0, 14)).0["VDATA"], 0);
}

#[test]
fn rdna_oob_select_modes() {
    let t = Target::Gfx1030;
    // OOB_SELECT 2: only num_records == 0 is out of range; 1 record, offset 0x40 still reads.
    let a = access(t, rdna_vsharp(0x800, 0, 1, 2), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x4342_4140);
    let a = access(t, rdna_vsharp(0x800, 0, 0, 2), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // OOB_SELECT 3 (raw), 0x41 bytes: gfx10 checks the start of the access (Mesa
    // `ac_set_buf_desc_word3`, "GFX10: ... offset >= NUM_RECORDS"): 0x40 < 0x41, in range;
    // gfx11+ its end ("offset+payload > NUM_RECORDS"): 0x40 + 4 > 0x41, out of range.
    let a = access(t, rdna_vsharp(0x800, 0, 0x41, 3), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x4342_4140);
    let a = access(Target::Gfx1100, rdna_vsharp(0x800, 0, 0x41, 3), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // OOB_SELECT 1 (index only), no idxen: index 0 < 1 record, any offset.
    let a = access(t, rdna_vsharp(0x800, 0, 1, 1), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x4342_4140);
    // OOB_SELECT 0: also the offset within the stride: stride 8, offset 0x40 is outside.
    let a = access(t, rdna_vsharp(0x800, 8, 1, 0), 0, 0x40, 0);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
}

#[test]
fn gfx1250_vsharp_field_positions() {
    // gfx1250: base 56:0, num_records 101:57, stride 121:108, OOB_SELECT 125:124.
    let vs = 0x1_0000_0000_0000u128 // base 2^48 (above the 48-bit base of older layouts)
        | 8u128 << 57 // num_records 8
        | 3u128 << 124; // raw
    let a = access(Target::Gfx1250, vs, 0, 4, 0);
    // address 2^48 + 4, in range (4 + 4 <= 8): bytes 04 05 06 07.
    assert_eq!(run_buf("BUFFER_LOAD_B32", &a).0["VDATA"], 0x0706_0504);
    let a = access(Target::Gfx1250, vs, 0, 5, 0);
    assert_eq!(run_buf("BUFFER_LOAD_B32", &a).0["VDATA"], 0);
}

#[test]
fn gfx8_swizzled_addressing() {
    // CLRX: ES = 2 << element_size, IS = 8 << index_stride;
    // BUFOFFSET = off%ES + ES*(idx%IS) + IS*((idx/IS)*stride + (off/ES)*ES).
    // element_size 1 (ES 4), index_stride 0 (IS 8), stride 16, idx 9, off 6:
    // 6%4 + 4*(9%8) + 8*((9/8)*16 + (6/4)*4) = 2 + 4 + 8*(16 + 4) = 166 = 0xa6.
    let vs = gcn_vsharp(0x1000, 16, 100) | 1u128 << 63 | 1u128 << 115;
    let a = Access {
        idxen: true,
        vaddr: ((6u128) << 32 | 9, 64),
        settings: Settings {
            alignment: gcnsmt_semantics::settings::Alignment::Unaligned,
            ..Settings::default_for(Target::Gfx802)
        },
        ..access(Target::Gfx802, vs, 0, 0, 0)
    };
    // The byte at 0x1000 + 0xa6.
    assert_eq!(run_buf("BUFFER_LOAD_UBYTE", &a).0["VDATA"], 0xa6);
}

#[test]
fn d16_hi_load_keeps_the_low_half() {
    let mut a = access(Target::Gfx900, gcn_vsharp(0x200, 0, 64), 0, 2, 0);
    a.data = (0x1234_5678, 32);
    // ushort at 0x202 = 0x0302 into bits 31:16; bits 15:0 stay 0x5678.
    assert_eq!(
        run_buf("BUFFER_LOAD_SHORT_D16_HI", &a).0["VDATA"],
        0x0302_5678
    );
}

/// The little-endian value of `n` bytes of the pattern memory (byte `a` = `a as u8`) at `a`.
fn pattern(a: u64, n: u64) -> u128 {
    (0..n).fold(0, |v, i| v | ((a + i) as u8 as u128) << (8 * i))
}

#[test]
fn multi_dword_loads_and_stores_by_hand() {
    // Raw buffer at 0x100 with 64 bytes, voffset 8: component k of a dwordx2/x3/x4 is the
    // dword at 0x108 + 4k (AMD: `VDATA[63:32] = MEM[addr + 4U].b32`, ...).
    let t = Target::Gfx900;
    for (name, n) in [
        ("BUFFER_LOAD_DWORDX2", 8u64),
        ("BUFFER_LOAD_DWORDX3", 12),
        ("BUFFER_LOAD_DWORDX4", 16),
    ] {
        let a = Access {
            data: (0, 8 * n as u32),
            ..access(t, gcn_vsharp(0x100, 0, 64), 0, 8, 0)
        };
        assert_eq!(run_buf(name, &a).0["VDATA"], pattern(0x108, n), "{name}");
        // num_records 0x14 = 20: only the dwords ending at or below byte 20 (8..11, 12..15,
        // 16..19) are in range, the rest read 0.
        let a = Access {
            srsrc: gcn_vsharp(0x100, 0, 0x14),
            ..a
        };
        let want = pattern(0x108, n.min(12));
        assert_eq!(run_buf(name, &a).0["VDATA"], want, "{name}, 20 records");
    }
    // Stores: VDATA's bytes land at 0x108.. in order, each dword range-checked alone.
    let data: u128 = 0xf0e0_d0c0_b0a0_9080_7060_5040_3020_1000;
    for (name, n) in [
        ("BUFFER_STORE_BYTE", 1u64),
        ("BUFFER_STORE_SHORT", 2),
        ("BUFFER_STORE_DWORD", 4),
        ("BUFFER_STORE_DWORDX2", 8),
        ("BUFFER_STORE_DWORDX3", 12),
        ("BUFFER_STORE_DWORDX4", 16),
    ] {
        for nr in [64u32, 0x10] {
            let mut a = access(t, gcn_vsharp(0x100, 0, nr), 0, 8, 0);
            a.data = (data & (u128::MAX >> (128 - 8 * n)), 8 * n as u32);
            let (_, m) = run_buf(name, &a);
            // With 16 records only bytes 8..15 (the first two dwords) may be written.
            let written = if nr == 64 { n } else { n.min(8) };
            let want: BTreeMap<u64, u8> = (0..written)
                .map(|i| (0x108 + i, (data >> (8 * i)) as u8))
                .collect();
            assert_eq!(m.written, want, "{name}, {nr} records");
        }
    }
    // The d16_hi stores take VDATA bits 23:16 (byte) and 31:16 (short).
    let mut a = access(t, gcn_vsharp(0x100, 0, 64), 0, 8, 0);
    a.data = (0x4433_2211, 32);
    let (_, m) = run_buf("BUFFER_STORE_BYTE_D16_HI", &a);
    assert_eq!(m.written, BTreeMap::from([(0x108, 0x33)]));
    let (_, m) = run_buf("BUFFER_STORE_SHORT_D16_HI", &a);
    assert_eq!(m.written, BTreeMap::from([(0x108, 0x33), (0x109, 0x44)]));
}

/// Run atomic `name` on a `bytes`-byte old value at 0x100 (memory zero elsewhere), in range;
/// returns (RETURN_DATA, the bytes at 0x100 afterwards).
fn atomic_on(lib: &Library, name: &str, bytes: u64, old: u128, data: (u128, u32)) -> (u128, u128) {
    let mut a = access(Target::Gfx90a, gcn_vsharp(0, 0, 0x1000), 0, 0x100, 0);
    a.data = data;
    let mem = CMem::new_wide(move |x| {
        if (0x100..0x100 + bytes).contains(&x) {
            (old >> (8 * (x - 0x100))) as u8
        } else {
            0
        }
    });
    let (o, m) = run_buf_in(lib, name, &a, mem);
    let after = (0..bytes).fold(0u128, |v, i| v | (m.get64(0x100 + i) as u128) << (8 * i));
    let w = 8 * bytes as u32;
    (o["RETURN_DATA"] & ((1u128 << w) - 1), after)
}

/// Every integer buffer atomic against Rust arithmetic written from the AMD guides' pseudocode
/// (e.g. BUFFER_ATOMIC_INC: `tmp >= DATA ? 0 : tmp + 1`; BUFFER_ATOMIC_DEC: `tmp == 0 || tmp >
/// DATA ? DATA : tmp - 1`; CMPSWAP: DATA = {cmp, src}), on old values and operands at the
/// boundaries (0, 1, equal, signed/unsigned extremes). RETURN_DATA is the old value.
#[test]
fn integer_atomics_by_hand() {
    let lib = Library::builtin();
    let vals32: [u32; 8] = [
        0,
        1,
        2,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_fffe,
        0xffff_ffff,
        0x0302_0100,
    ];
    type Op32 = fn(u32, u32) -> u32;
    let ops32: [(&str, Op32); 14] = [
        ("BUFFER_ATOMIC_SWAP", |_, d| d),
        ("BUFFER_ATOMIC_ADD", |t, d| t.wrapping_add(d)),
        ("BUFFER_ATOMIC_SUB", |t, d| t.wrapping_sub(d)),
        ("BUFFER_ATOMIC_SMIN", |t, d| (t as i32).min(d as i32) as u32),
        ("BUFFER_ATOMIC_UMIN", |t, d| t.min(d)),
        ("BUFFER_ATOMIC_SMAX", |t, d| (t as i32).max(d as i32) as u32),
        ("BUFFER_ATOMIC_UMAX", |t, d| t.max(d)),
        ("BUFFER_ATOMIC_AND", |t, d| t & d),
        ("BUFFER_ATOMIC_OR", |t, d| t | d),
        ("BUFFER_ATOMIC_XOR", |t, d| t ^ d),
        ("BUFFER_ATOMIC_INC", |t, d| if t >= d { 0 } else { t + 1 }),
        (
            "BUFFER_ATOMIC_DEC",
            |t, d| if t == 0 || t > d { d } else { t - 1 },
        ),
        ("BUFFER_ATOMIC_CSUB", |t, d| t.saturating_sub(d)),
        (
            "BUFFER_ATOMIC_COND_SUB_U32",
            |t, d| if t >= d { t - d } else { t },
        ),
    ];
    for t in vals32 {
        for d in vals32 {
            for (name, f) in ops32 {
                let got = atomic_on(lib, name, 4, t as u128, (d as u128, 32));
                assert_eq!(
                    got,
                    (t as u128, f(t, d) as u128),
                    "{name} old {t:#x} data {d:#x}"
                );
            }
            // CMPSWAP: DATA[31:0] = src (here d + 1), DATA[63:32] = cmp (here d).
            let src = d.wrapping_add(1);
            let got = atomic_on(
                lib,
                "BUFFER_ATOMIC_CMPSWAP",
                4,
                t as u128,
                ((d as u128) << 32 | src as u128, 64),
            );
            let new = if t == d { src } else { t };
            assert_eq!(
                got,
                (t as u128, new as u128),
                "CMPSWAP old {t:#x} cmp {d:#x}"
            );
        }
    }
    let vals64: [u64; 8] = [
        0,
        1,
        2,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_fffe,
        u64::MAX,
        0x0000_0001_ffff_ffff,
    ];
    type Op64 = fn(u64, u64) -> u64;
    let ops64: [(&str, Op64); 12] = [
        ("BUFFER_ATOMIC_SWAP_X2", |_, d| d),
        ("BUFFER_ATOMIC_ADD_X2", |t, d| t.wrapping_add(d)),
        ("BUFFER_ATOMIC_SUB_X2", |t, d| t.wrapping_sub(d)),
        ("BUFFER_ATOMIC_SMIN_X2", |t, d| {
            (t as i64).min(d as i64) as u64
        }),
        ("BUFFER_ATOMIC_UMIN_X2", |t, d| t.min(d)),
        ("BUFFER_ATOMIC_SMAX_X2", |t, d| {
            (t as i64).max(d as i64) as u64
        }),
        ("BUFFER_ATOMIC_UMAX_X2", |t, d| t.max(d)),
        ("BUFFER_ATOMIC_AND_X2", |t, d| t & d),
        ("BUFFER_ATOMIC_OR_X2", |t, d| t | d),
        ("BUFFER_ATOMIC_XOR_X2", |t, d| t ^ d),
        (
            "BUFFER_ATOMIC_INC_X2",
            |t, d| if t >= d { 0 } else { t + 1 },
        ),
        ("BUFFER_ATOMIC_DEC_X2", |t, d| {
            if t == 0 || t > d {
                d
            } else {
                t - 1
            }
        }),
    ];
    for t in vals64 {
        for d in vals64 {
            for (name, f) in ops64 {
                let got = atomic_on(lib, name, 8, t as u128, (d as u128, 64));
                assert_eq!(
                    got,
                    (t as u128, f(t, d) as u128),
                    "{name} old {t:#x} data {d:#x}"
                );
            }
            let src = d.wrapping_add(1);
            let got = atomic_on(
                lib,
                "BUFFER_ATOMIC_CMPSWAP_X2",
                8,
                t as u128,
                ((d as u128) << 64 | src as u128, 128),
            );
            let new = if t == d { src } else { t };
            assert_eq!(
                got,
                (t as u128, new as u128),
                "CMPSWAP_X2 old {t:#x} cmp {d:#x}"
            );
        }
    }
}

/// The float buffer atomics on hand-picked IEEE values: 1.0 f32 = 0x3f80_0000, 2.0 =
/// 0x4000_0000, 3.0 = 0x4040_0000, -1.0 = 0xbf80_0000, -0.0 = 0x8000_0000, quiet NaN
/// 0x7fc0_0000, signalling NaN 0x7fa0_0000 (quieted: 0x7fe0_0000); f64 1.0 =
/// 0x3ff0_0000_0000_0000, 2.0 = 0x4000_..., 3.0 = 0x4008_...; f16 1.0 = 0x3c00, 2.0 = 0x4000,
/// 3.0 = 0x4200; bf16 1.0 = 0x3f80, 2.0 = 0x4000, 3.0 = 0x4040. FMIN/FMAX follow the pre-gfx12
/// pseudocode `src < tmp ? src : tmp` (so min(-0, +0) keeps memory's +0); MIN_NUM/MAX_NUM the
/// gfx12 one (NaN loses to a number, two NaNs give the quieted DATA, -0 < +0).
#[test]
fn float_atomics_by_hand() {
    let lib = Library::builtin();
    let f32s = |name: &str, t: u32, d: u32| {
        let (r, m) = atomic_on(lib, name, 4, t as u128, (d as u128, 32));
        assert_eq!(r, t as u128, "{name}: RETURN_DATA is the old value");
        m as u32
    };
    let (one, two, three, m_one) = (0x3f80_0000u32, 0x4000_0000, 0x4040_0000, 0xbf80_0000);
    let (pz, nz, qnan, snan, snan_q) = (0u32, 0x8000_0000, 0x7fc0_0000, 0x7fa0_0000, 0x7fe0_0000);
    assert_eq!(f32s("BUFFER_ATOMIC_ADD_F32", one, two), three);
    assert_eq!(f32s("BUFFER_ATOMIC_ADD_F32", two, m_one), one);
    for (name, t, d, want) in [
        ("BUFFER_ATOMIC_FMIN", one, two, one),
        ("BUFFER_ATOMIC_FMIN", two, one, one),
        ("BUFFER_ATOMIC_FMIN", pz, nz, pz),
        ("BUFFER_ATOMIC_FMIN", nz, pz, nz),
        ("BUFFER_ATOMIC_FMAX", one, two, two),
        ("BUFFER_ATOMIC_FMAX", two, one, two),
        ("BUFFER_ATOMIC_FMAX", pz, nz, pz),
        ("BUFFER_ATOMIC_FMAX", nz, pz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F32", one, two, one),
        ("BUFFER_ATOMIC_MIN_NUM_F32", two, one, one),
        ("BUFFER_ATOMIC_MIN_NUM_F32", pz, nz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F32", nz, pz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F32", one, qnan, one),
        ("BUFFER_ATOMIC_MIN_NUM_F32", qnan, one, one),
        ("BUFFER_ATOMIC_MIN_NUM_F32", qnan, snan, snan_q),
        ("BUFFER_ATOMIC_MAX_NUM_F32", one, two, two),
        ("BUFFER_ATOMIC_MAX_NUM_F32", two, one, two),
        ("BUFFER_ATOMIC_MAX_NUM_F32", pz, nz, pz),
        ("BUFFER_ATOMIC_MAX_NUM_F32", nz, pz, pz),
        ("BUFFER_ATOMIC_MAX_NUM_F32", one, qnan, one),
        ("BUFFER_ATOMIC_MAX_NUM_F32", qnan, one, one),
        ("BUFFER_ATOMIC_MAX_NUM_F32", qnan, snan, snan_q),
        // Negative, unequal: max(-1, -2) = -1 (-2.0 = 0xc000_0000); the sign tests only
        // break ties between zeros.
        ("BUFFER_ATOMIC_MAX_NUM_F32", m_one, 0xc000_0000, m_one),
        ("BUFFER_ATOMIC_MIN_NUM_F32", m_one, 0xc000_0000, 0xc000_0000),
        ("BUFFER_ATOMIC_MIN_NUM_F32", 0xc000_0000, m_one, 0xc000_0000),
    ] {
        assert_eq!(f32s(name, t, d), want, "{name} old {t:#x} data {d:#x}");
    }
    // FCMPSWAP: DATA = {cmp, src}; +0 == -0 as floats, so cmp -0 matches memory +0.
    for (t, cmp, want) in [
        (one, one, two),
        (one, two, one),
        (pz, nz, two),
        (qnan, qnan, qnan),
    ] {
        let (r, m) = atomic_on(
            lib,
            "BUFFER_ATOMIC_FCMPSWAP",
            4,
            t as u128,
            ((cmp as u128) << 32 | two as u128, 64),
        );
        assert_eq!(
            (r, m),
            (t as u128, want as u128),
            "FCMPSWAP old {t:#x} cmp {cmp:#x}"
        );
    }
    // Packed halves: hi and lo added separately, hi stays in bits 31:16.
    let (r, m) = atomic_on(
        lib,
        "BUFFER_ATOMIC_PK_ADD_F16",
        4,
        0x3c00_4000,
        (0x4000_3c00, 32),
    );
    assert_eq!((r, m), (0x3c00_4000, 0x4200_4200));
    let (_, m) = atomic_on(
        lib,
        "BUFFER_ATOMIC_PK_ADD_F16",
        4,
        0x3c00_0000,
        (0x4000_3c00, 32),
    );
    // Different sums per half, so swapped halves show.
    assert_eq!(m, 0x4200_3c00, "PK_ADD_F16: 1+2 = 3 high, 0+1 = 1 low");
    let (_, m) = atomic_on(
        lib,
        "BUFFER_ATOMIC_PK_ADD_BF16",
        4,
        0x3f80_0000,
        (0x4000_3f80, 32),
    );
    assert_eq!(m, 0x4040_3f80, "PK_ADD_BF16: 1+2 = 3 high, 0+1 = 1 low");
    // f64.
    let f64s = |name: &str, t: u64, d: u64| {
        let (r, m) = atomic_on(lib, name, 8, t as u128, (d as u128, 64));
        assert_eq!(r, t as u128, "{name}: RETURN_DATA is the old value");
        m as u64
    };
    let (one, two, three) = (
        0x3ff0_0000_0000_0000u64,
        0x4000_0000_0000_0000,
        0x4008_0000_0000_0000,
    );
    let (m_one, pz, nz) = (0xbff0_0000_0000_0000u64, 0u64, 0x8000_0000_0000_0000);
    let (qnan, snan, snan_q) = (
        0x7ff8_0000_0000_0000u64,
        0x7ff4_0000_0000_0000,
        0x7ffc_0000_0000_0000,
    );
    assert_eq!(f64s("BUFFER_ATOMIC_ADD_F64", one, two), three);
    assert_eq!(f64s("BUFFER_ATOMIC_ADD_F64", two, m_one), one);
    for (name, t, d, want) in [
        ("BUFFER_ATOMIC_FMIN_X2", one, two, one),
        ("BUFFER_ATOMIC_FMIN_X2", two, one, one),
        ("BUFFER_ATOMIC_FMIN_X2", pz, nz, pz),
        ("BUFFER_ATOMIC_FMIN_X2", nz, pz, nz),
        ("BUFFER_ATOMIC_FMAX_X2", one, two, two),
        ("BUFFER_ATOMIC_FMAX_X2", two, one, two),
        ("BUFFER_ATOMIC_FMAX_X2", pz, nz, pz),
        ("BUFFER_ATOMIC_FMAX_X2", nz, pz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F64", one, two, one),
        ("BUFFER_ATOMIC_MIN_NUM_F64", two, one, one),
        ("BUFFER_ATOMIC_MIN_NUM_F64", pz, nz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F64", nz, pz, nz),
        ("BUFFER_ATOMIC_MIN_NUM_F64", one, qnan, one),
        ("BUFFER_ATOMIC_MIN_NUM_F64", qnan, one, one),
        ("BUFFER_ATOMIC_MIN_NUM_F64", qnan, snan, snan_q),
        ("BUFFER_ATOMIC_MAX_NUM_F64", one, two, two),
        ("BUFFER_ATOMIC_MAX_NUM_F64", two, one, two),
        ("BUFFER_ATOMIC_MAX_NUM_F64", pz, nz, pz),
        ("BUFFER_ATOMIC_MAX_NUM_F64", nz, pz, pz),
        ("BUFFER_ATOMIC_MAX_NUM_F64", one, qnan, one),
        ("BUFFER_ATOMIC_MAX_NUM_F64", qnan, one, one),
        ("BUFFER_ATOMIC_MAX_NUM_F64", qnan, snan, snan_q),
        // max(-1, -2) = -1 and min(-1, -2) = -2 (-2.0 = 0xc000_0000_0000_0000).
        (
            "BUFFER_ATOMIC_MAX_NUM_F64",
            m_one,
            0xc000_0000_0000_0000,
            m_one,
        ),
        (
            "BUFFER_ATOMIC_MIN_NUM_F64",
            m_one,
            0xc000_0000_0000_0000,
            0xc000_0000_0000_0000,
        ),
        (
            "BUFFER_ATOMIC_MIN_NUM_F64",
            0xc000_0000_0000_0000,
            m_one,
            0xc000_0000_0000_0000,
        ),
    ] {
        assert_eq!(f64s(name, t, d), want, "{name} old {t:#x} data {d:#x}");
    }
    for (t, cmp, want) in [(one, one, two), (one, two, one), (pz, nz, two)] {
        let (r, m) = atomic_on(
            lib,
            "BUFFER_ATOMIC_FCMPSWAP_X2",
            8,
            t as u128,
            ((cmp as u128) << 64 | two as u128, 128),
        );
        assert_eq!(
            (r, m),
            (t as u128, want as u128),
            "FCMPSWAP_X2 old {t:#x} cmp {cmp:#x}"
        );
    }
}

#[test]
fn gfx7_addr64_adds_everything_and_is_never_range_checked() {
    // CLRX GcnMemHandling.md: with ADDR64 the address is BASE + VADDR (64 bits) + OFFSET +
    // SOFFSET and there is no range check. Base 0x1000, vaddr 0x2_0000_0010, offset 4,
    // soffset 8: 0x1000 + 0x2_0000_0010 + 4 + 8 = 0x2_0000_101c, even with num_records 0.
    for t in [Target::Gfx600, Target::Gfx700] {
        let a = Access {
            offen: false,
            addr64: true,
            vaddr: (0x2_0000_0010, 64),
            ..access(t, gcn_vsharp(0x1000, 0, 0), 8, 0, 4)
        };
        assert_eq!(
            run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"],
            pattern(0x2_0000_101c, 4),
            "{t:?}"
        );
        // vaddr near 2^64: the 64-bit sum wraps: 0x1_0000 + 0xffff_ffff_ffff_0000 = 0, then
        // + 4 + 8 = 0xc.
        let a = Access {
            srsrc: gcn_vsharp(0x1_0000, 0, 0),
            vaddr: (0xffff_ffff_ffff_0000, 64),
            ..a
        };
        assert_eq!(
            run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"],
            pattern(0xc, 4),
            "{t:?}"
        );
    }
}

#[test]
fn gfx8_swizzled_offset_above_36_bits() {
    // Swizzled, offen only (index 0), element_size 1 (ES 4), index_stride 3 (IS 64), voffset
    // 0xffff_fff0: BUFOFFSET = 0xffff_fff0 % 4 + 4 * (0 % 64) + 64 * (0 * stride +
    // (0xffff_fff0 / 4) * 4) = 64 * 0xffff_fff0 = 0x3f_ffff_fc00, which needs 38 bits; the
    // address is 0x1000 + 0x3f_ffff_fc00 = 0x40_0000_0c00. Raw range check on the unswizzled
    // offset: 0xffff_fff0 + 1 <= 0xffff_ffff records. Memory byte a is bits 39:32 of a, so a
    // wrong high part of the address shows.
    // The raw check is `buffer_struct=INDEX`'s (under gfx8's default BYTES a swizzled buffer
    // with a stride takes the index check, and 0xffff_fff0 is beyond the 16-byte stride).
    let vs = gcn_vsharp(0x1000, 16, 0xffff_ffff) | 1u128 << 63 | 1u128 << 115 | 3u128 << 117;
    let mut a = access(Target::Gfx802, vs, 0, 0xffff_fff0, 0);
    a.settings.buffer_struct = gcnsmt_semantics::settings::BufferStruct::Index;
    let (o, _) = run_buf_in(
        Library::builtin(),
        "BUFFER_LOAD_UBYTE",
        &a,
        CMem::new_wide(|x| (x >> 32) as u8),
    );
    assert_eq!(o["VDATA"], 0x40);
}

#[test]
fn add_tid_adds_lane_times_stride_to_the_checked_index() {
    // gem5 Vega Inst_MUBUF::calcAddr: with ADD_TID_ENABLE (V# bit 119) the address gains
    // lane * stride, where on gfx9/CDNA the stride is {data_format (V# 114:111), stride} (18
    // bits). The lane is part of the index the range check reads (AMD RDNA3.5/RDNA4 guides
    // 9.4.2, `Index = (IDXEN ? vgpr_index : 0) + (const_add_tid_enable ? thread_id : 0)`; gem5's
    // `buf_idx`; breaker 19's finding 06). Memory byte a is bits 19:12 of a, so the high part
    // of the address shows.
    let mem = || CMem::new_wide(|x| (x >> 12) as u8);
    let lib = Library::builtin();
    // gfx900, stride 4 | data_format 1 << 14 = 0x4004, lane 2: 0x1000 + 2 * 0x4004 = 0x9008,
    // in range with 0xffff_ffff records (raw check: 0x8008 + 1 byte).
    let vs = gcn_vsharp(0x1000, 4, 0xffff_ffff) | 1u128 << 111 | 1u128 << 119;
    let a = Access {
        lane: 2,
        ..access(Target::Gfx900, vs, 0, 0, 0)
    };
    let got = run_buf_in(lib, "BUFFER_LOAD_UBYTE", &a, mem()).0["VDATA"];
    assert_eq!(got, 0x09);
    // With 16 records the lane's term counts: 0x8008 + 1 > 16, out of range, 0 (gcnsmt read
    // 0x9008 here before finding 06).
    let vs16 = gcn_vsharp(0x1000, 4, 16) | 1u128 << 111 | 1u128 << 119;
    let a16 = Access { srsrc: vs16, ..a };
    let got = run_buf_in(lib, "BUFFER_LOAD_UBYTE", &a16, mem()).0["VDATA"];
    assert_eq!(got, 0x00);
    // Without ADD_TID_ENABLE the lane does not count: 0x1000.
    let a = Access {
        srsrc: vs16 & !(1u128 << 119),
        ..a
    };
    let got = run_buf_in(lib, "BUFFER_LOAD_UBYTE", &a, mem()).0["VDATA"];
    assert_eq!(got, 0x01);
    // gfx1030 (no data_format field): stride 0x1000, lane 3, OOB_SELECT 3: 0x1000 + 3 * 0x1000
    // = 0x4000, in range with 0x3001 bytes (raw offset 0x3000 is the last byte), out of range
    // with 0x3000.
    for (nr, want) in [(0x3001, 0x04), (0x3000, 0x00)] {
        let vs = rdna_vsharp(0x1000, 0x1000, nr, 3) | 1u128 << 119;
        let a = Access {
            lane: 3,
            ..access(Target::Gfx1030, vs, 0, 0, 0)
        };
        let got = run_buf_in(lib, "BUFFER_LOAD_UBYTE", &a, mem()).0["VDATA"];
        assert_eq!(got, want, "num_records {nr:#x}");
    }
}

#[test]
fn gfx8_swizzled_with_add_tid_and_wide_elements() {
    // CLRX: BUFOFFSET = AOFFSET%ES + ES*(INDEX%IS) + IS*((INDEX/IS)*STRIDE + (AOFFSET/ES)*ES),
    // ES = 2 << element_size, IS = 8 << index_stride; gem5 Vega: ADD_TID_ENABLE adds the lane
    // to INDEX. element_size 2 (ES 8), index_stride 1 (IS 16), stride 32, index 26, lane 3
    // (INDEX 29), AOFFSET 26:
    // 26%8 + 8*(29%16) + 16*((29/16)*32 + (26/8)*8) = 2 + 8*13 + 16*(32 + 24) = 1002 = 0x3ea.
    // Range: index 26 < 1000 records, 26 + 1 <= stride 32. Address 0x10000 + 0x3ea.
    let vs = gcn_vsharp(0x10000, 32, 1000) | 1u128 << 63 | 2u128 << 115 | 1u128 << 117;
    let a = Access {
        idxen: true,
        lane: 3,
        vaddr: (26u128 << 32 | 26, 64),
        ..access(Target::Gfx802, vs | 1u128 << 119, 0, 0, 0)
    };
    assert_eq!(run_buf("BUFFER_LOAD_UBYTE", &a).0["VDATA"], 0xea);
    // Without ADD_TID_ENABLE INDEX is 26: 2 + 8*10 + 16*(32 + 24) = 978 = 0x3d2.
    let a = Access { srsrc: vs, ..a };
    assert_eq!(run_buf("BUFFER_LOAD_UBYTE", &a).0["VDATA"], 0xd2);
}
