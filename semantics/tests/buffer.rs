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
use gcnsmt_semantics::eval::{run, Frame, MemState, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::{BufferOob, BufferSoffset, Settings};
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
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: a.settings,
        gds: false,
        aliases: def.aliases_for(name).unwrap_or(&[]),
        buffer: Some(BufferMode {
            target: a.target,
            offen: a.offen,
            idxen: a.idxen,
            addr64: false,
        }),
    };
    let mut vars = BTreeMap::new();
    vars.insert("VADDR".into(), bits(a.vaddr.0, a.vaddr.1));
    vars.insert("SRSRC".into(), bits(a.srsrc, 128));
    vars.insert("SOFFSET".into(), bits(a.soffset as u128, 32));
    vars.insert("OFFSET".into(), bits(a.offset as u128, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    vars.insert("VDATA".into(), bits(a.data.0, a.data.1));
    vars.insert("DATA".into(), bits(a.data.0, a.data.1));
    vars.insert("RETURN_DATA".into(), bits(a.data.0, a.data.1));
    let mem = MemState {
        lds: CMem::new(|_| 0),
        gds: CMem::new(|_| 0),
        global: CMem::new_wide(|a| a as u8),
        ub: false,
    };
    let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).expect("runs");
    let outs = out
        .into_iter()
        .filter_map(|(k, v)| match v {
            Val::Bits(b, _) => Some((k, b.value)),
            _ => None,
        })
        .collect();
    (outs, mem.global)
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
fn instruction_offset_and_voffset_wrap_at_32_bits() {
    // voffset 0xffff_fffc + offset 8 = 4 (mod 2^32): address 0x2000 + 4, in range of 64.
    let a = access(Target::Gfx900, gcn_vsharp(0x2000, 0, 64), 0, 0xffff_fffc, 8);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x0706_0504);
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
    // OOB_SELECT 3 (raw): 0x40 + 4 > 0x41: out of range.
    let a = access(t, rdna_vsharp(0x800, 0, 0x41, 3), 0, 0x40, 0);
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
