//! The buffer-side points of issue 15's audit on the concrete interpreter, each against a hand
//! computation written in the test: DWORD alignment of 64-bit buffer atomics (CLRX
//! `GcnMemHandling.md`: "32-bit and wider operations" align to 4), `buffer_soffset=WRAP` (gem5
//! Vega's 32-bit `numRecords - soffset`), `buffer_struct=BYTES` (gem5's byte check of
//! unswizzled structured buffers) and `buffer_swizzle` on gfx9 (CLRX's formula, or undefined).
//!
//! Global memory byte `a` holds the low byte of `a`, so a dword at 0x100c reads 0x0f0e0d0c.

use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::{Alignment, BufferSoffset, BufferStruct, BufferSwizzle, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(Kind::B, w))
}

/// A GCN/CDNA V#: base 47:0, stride 61:48, num_records 95:64.
fn vsharp(base: u64, stride: u32, num_records: u32) -> u128 {
    base as u128 | (stride as u128) << 48 | (num_records as u128) << 64
}

/// One access: the instruction's mode bits, VADDR (value, width), V#, soffset, DATA (value,
/// width) and the settings.
struct Access {
    target: Target,
    offen: bool,
    idxen: bool,
    vaddr: (u128, u32),
    srsrc: u128,
    soffset: u32,
    data: (u128, u32),
    settings: Settings,
}

fn offen(t: Target, srsrc: u128, soffset: u32, voffset: u32) -> Access {
    Access {
        target: t,
        offen: true,
        idxen: false,
        vaddr: (voffset as u128, 32),
        srsrc,
        soffset,
        data: (0, 32),
        settings: Settings::default_for(t),
    }
}

/// Run entry `name`: its outputs and whether it hit undefined behaviour.
fn run_buf(name: &str, a: &Access) -> (BTreeMap<String, u128>, bool) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: a.settings,
        mem: MemView::Space(AddrSpace::Global),
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
    vars.insert("OFFSET".into(), bits(0, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    for k in ["VDATA", "DATA", "RETURN_DATA"] {
        vars.insert(k.into(), bits(a.data.0, a.data.1));
    }
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Global] = CMem::new_wide(|a| a as u8);
    let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).expect("runs");
    let outs = out
        .into_iter()
        .filter_map(|(k, v)| match v {
            Val::Bits(b, _) => Some((k, b.value)),
            _ => None,
        })
        .collect();
    (outs, mem.ub)
}

#[test]
fn x2_atomic_rounds_to_a_dword_under_dword_alignment() {
    // gfx802 (DWORD): base 0x100, voffset 0xd: address 0x10d, rounded to 4 bytes: 0x10c (not
    // 0x108, as a 64-bit DS access would be). The swap returns bytes 0x0c..0x13.
    let mut a = offen(Target::Gfx802, vsharp(0x100, 0, 0x1000), 0, 0xd);
    a.data = (0, 64);
    let (o, _) = run_buf("BUFFER_ATOMIC_SWAP_X2", &a);
    assert_eq!(o["RETURN_DATA"], 0x1312_1110_0f0e_0d0c);
    // A dword atomic at the same address rounds to 0x10c too.
    let a = offen(Target::Gfx802, vsharp(0x100, 0, 0x1000), 0, 0xd);
    assert_eq!(
        run_buf("BUFFER_ATOMIC_ADD", &a).0["RETURN_DATA"],
        0x0f0e_0d0c
    );
    // UNALIGNED (gfx900): the exact address 0x10d.
    let mut a = offen(Target::Gfx900, vsharp(0x100, 0, 0x1000), 0, 0xd);
    a.data = (0, 64);
    assert_eq!(
        run_buf("BUFFER_ATOMIC_SWAP_X2", &a).0["RETURN_DATA"],
        0x1413_1211_100f_0e0d
    );
    // STRICT keeps the access size: 0x10c is not 8-byte aligned, so it is undefined.
    let mut a = offen(Target::Gfx802, vsharp(0x100, 0, 0x1000), 0, 0xc);
    a.data = (0, 64);
    a.settings.alignment = Alignment::Strict;
    assert!(run_buf("BUFFER_ATOMIC_SWAP_X2", &a).1);
}

#[test]
fn soffset_above_num_records_wraps_under_wrap() {
    // num_records 16, soffset 20, voffset 8, base 0x1000: address 0x1000 + 20 + 8 = 0x101c.
    // SUBTRACT: 8 + 4 > 16 - 20 (negative): out of range, 0.
    let a = offen(Target::Gfx900, vsharp(0x1000, 0, 16), 20, 8);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // WRAP: the bound is 16 - 20 + 2^32 = 0xffff_fffc; 8 + 4 is below it.
    let mut a = offen(Target::Gfx900, vsharp(0x1000, 0, 16), 20, 8);
    a.settings.buffer_soffset = BufferSoffset::Wrap;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x1f1e_1d1c);
    // The edge: voffset 0xffff_fff8 ends at the bound (in range, at 0x1_0000_100c), 0xffff_fff9
    // one byte past it.
    a.vaddr = (0xffff_fff8, 32);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x0f0e_0d0c);
    a.vaddr = (0xffff_fff9, 32);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // soffset at most num_records: WRAP and SUBTRACT agree (16 - 4 = 12: 8 + 4 in, 9 + 4 out).
    let mut a = offen(Target::Gfx802, vsharp(0x1000, 0, 16), 4, 9);
    a.settings.buffer_soffset = BufferSoffset::Wrap;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    a.vaddr = (8, 32);
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x0f0e_0d0c);
}

#[test]
fn structured_unswizzled_buffers_by_index_or_by_bytes() {
    // stride 4, num_records 100, idxen + offen: VADDR = {offset 8, index 0}.
    // INDEX: the offset 8 + 4 > stride 4: out of range. BYTES: 0 * 4 + 8 + 4 <= 100: in range
    // at 0x1000 + 8.
    let vs = vsharp(0x1000, 4, 100);
    let mut a = Access {
        idxen: true,
        vaddr: (8u128 << 32, 64),
        ..offen(Target::Gfx90a, vs, 0, 0)
    };
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    a.settings.buffer_struct = BufferStruct::Bytes;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x0b0a_0908);
    // Index 30, offset 0: INDEX: 30 < 100, in range at 0x1000 + 120 = 0x1078. BYTES: 120 + 4
    // > 100, out of range.
    let mut a = Access {
        idxen: true,
        offen: false,
        vaddr: (30, 32),
        ..offen(Target::Gfx600, vs, 0, 0)
    };
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x7b7a_7978);
    a.settings.buffer_struct = BufferStruct::Bytes;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // BYTES counts soffset: index 20 ends at 84 <= 100 - 16, not <= 100 - 17.
    a.vaddr = (20, 32);
    a.soffset = 16;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x6362_6160);
    a.soffset = 17;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
    // RDNA's OOB_SELECT decides there (0: index and offset): BYTES changes nothing.
    let vs = vsharp(0x1000, 4, 100);
    let mut a = Access {
        idxen: true,
        vaddr: (8u128 << 32, 64),
        ..offen(Target::Gfx1030, vs, 0, 0)
    };
    a.settings.buffer_struct = BufferStruct::Bytes;
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0);
}

#[test]
fn gfx9_swizzle_is_undefined_or_the_clrx_formula() {
    // element_size 1 (ES 4), index_stride 0 (IS 8), stride 16, swizzle_en, index 9, offset 0:
    // BUFOFFSET = 0 % 4 + 4 * (9 % 8) + 8 * ((9 / 8) * 16 + 0) = 4 + 128 = 0x84.
    let vs = vsharp(0x1000, 16, 100) | 1u128 << 63 | 1u128 << 115;
    let mut a = Access {
        idxen: true,
        offen: false,
        vaddr: (9, 32),
        ..offen(Target::Gfx942, vs, 0, 0)
    };
    // Default on gfx9+: undefined.
    assert_eq!(a.settings.buffer_swizzle, BufferSwizzle::Undefined);
    assert!(run_buf("BUFFER_LOAD_DWORD", &a).1);
    a.settings.buffer_swizzle = BufferSwizzle::Formula;
    let (o, ub) = run_buf("BUFFER_LOAD_DWORD", &a);
    assert!(!ub);
    assert_eq!(o["VDATA"], 0x8786_8584);
    // gfx8 computes it by default; with UNDEFINED it is undefined there too.
    let mut a = Access {
        target: Target::Gfx802,
        settings: Settings {
            alignment: Alignment::Unaligned,
            ..Settings::default_for(Target::Gfx802)
        },
        ..a
    };
    assert_eq!(run_buf("BUFFER_LOAD_DWORD", &a).0["VDATA"], 0x8786_8584);
    a.settings.buffer_swizzle = BufferSwizzle::Undefined;
    assert!(run_buf("BUFFER_LOAD_DWORD", &a).1);
    // gfx10+: SWIZZLE_EN (63:62) stays undefined whatever the setting.
    let mut a = Access {
        target: Target::Gfx1030,
        settings: Settings::default_for(Target::Gfx1030),
        ..a
    };
    a.settings.buffer_swizzle = BufferSwizzle::Formula;
    assert!(run_buf("BUFFER_LOAD_DWORD", &a).1);
}
