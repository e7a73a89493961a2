//! A multi-dword buffer access through a swizzled V# (SWIZZLE_EN, bit 63) is undefined: LLVM
//! gives swizzled (interleaved) memory no multi-dword access (AMDGPUUsage, private segment:
//! `PRIVATE_ELEMENT_SIZE` is "the interleave (swizzle) element size"; SILoadStoreOptimizer
//! merges no access with the `swz` bit), and no source says how the hardware splits one into
//! elements. A single dword (or narrower) access stays defined and swizzled by CLRX's formula
//! (GcnMemHandling.md), and an unswizzled multi-dword access stays defined. gfx8, where
//! `buffer_swizzle=FORMULA` is the default, so only the multi-dword rule can make one undefined.

use gcnsmt_semantics::buffer::BufferMode;
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

/// GCN V#: base 0x1000, stride 16, num_records 100, element_size 1 (4 bytes, bits 116:115),
/// index_stride 0 (8 records, bits 118:117); SWIZZLE_EN (bit 63) as given.
fn vsharp(swizzled: bool) -> u128 {
    0x1000 | 16u128 << 48 | (swizzled as u128) << 63 | 100u128 << 64 | 1u128 << 115
}

/// Run `name` on gfx802 with offen, VADDR `voffset`, offset 0: (VDATA, undefined?). Global
/// byte `a` is the low byte of `a`.
fn run_on(name: &str, srsrc: u128, voffset: u32) -> (u128, bool) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx802),
        mem: MemView::Space(AddrSpace::Global),
        aliases: def.aliases_for(name).unwrap_or(&[]),
        buffer: Some(BufferMode {
            target: Target::Gfx802,
            offen: true,
            idxen: false,
            addr64: false,
        }),
    };
    let mut vars = BTreeMap::new();
    vars.insert("VADDR".into(), bits(voffset as u128, 32));
    vars.insert("SRSRC".into(), bits(srsrc, 128));
    vars.insert("SOFFSET".into(), bits(0, 32));
    vars.insert("OFFSET".into(), bits(0, 32));
    vars.insert("LANE_ID".into(), bits(0, 32));
    vars.insert("VDATA".into(), bits(0, 128));
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Global] = CMem::new_wide(|a| a as u8);
    let (out, mem) = run(&mut Concrete, &frame, &def.body, vars, mem).expect("runs");
    let vdata = match &out["VDATA"] {
        Val::Bits(b, _) => b.value,
        Val::Bool(_) => panic!("boolean"),
    };
    (vdata, mem.ub)
}

#[test]
fn a_swizzled_dword_load_is_defined() {
    // AOFFSET 4, index 0: CLRX's BUFOFFSET = 4 % 4 + 4 * 0 + 8 * (0 * 16 + (4 / 4) * 4) = 32,
    // so the bytes at 0x1000 + 32 = 0x1020: 20 21 22 23.
    assert_eq!(
        run_on("BUFFER_LOAD_DWORD", vsharp(true), 4),
        (0x2322_2120, false)
    );
}

#[test]
fn a_swizzled_multi_dword_access_is_undefined() {
    for name in [
        "BUFFER_LOAD_DWORDX2",
        "BUFFER_LOAD_DWORDX4",
        "BUFFER_STORE_DWORDX2",
    ] {
        assert!(run_on(name, vsharp(true), 0).1, "{name}");
    }
}

#[test]
fn an_unswizzled_multi_dword_load_is_defined() {
    // Raw: bytes 0x1008..0x100f.
    assert_eq!(
        run_on("BUFFER_LOAD_DWORDX2", vsharp(false), 8),
        (0x0f0e_0d0c_0b0a_0908, false)
    );
}
