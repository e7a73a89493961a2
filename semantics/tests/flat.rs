//! The FLAT family's semantics (`semantics/pcode/flat.pcode`) on the interpreter: which memory
//! an address reaches, against hand-computed values. The aperture rule (LLVM AMDGPUUsage,
//! "Address Spaces": apertures of 2^32 bytes aligned to 2^32): the high 32 bits of VADDR (not
//! of VADDR + OFFSET) equal to SHARED_BASE select LDS at the low 32 bits of the address, equal
//! to PRIVATE_BASE scratch there, anything else global memory at the whole address.

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

const SHARED: u128 = 0x0000_0010;
const PRIVATE: u128 = 0x0000_0020;

/// Initial bytes, a different pattern per space so a read shows which one it reached: LDS
/// `a`, scratch `a ^ 0x80`, global `a ^ 0x5a` (low byte of the address), GDS 0xee.
fn initial() -> MemState<Concrete> {
    MemState::new(
        |s| match s {
            AddrSpace::Lds => CMem::new_wide(|a| a as u8),
            AddrSpace::Scratch => CMem::new_wide(|a| a as u8 ^ 0x80),
            AddrSpace::Global => CMem::new_wide(|a| a as u8 ^ 0x5a),
            AddrSpace::Gds | AddrSpace::Gws | AddrSpace::GsReg => CMem::new_wide(|_| 0xee),
        },
        false,
    )
}

fn bits(v: u128, w: u32, k: Kind) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(k, w))
}

/// Run a FLAT entry at `vaddr + offset` with `data` to store; the returned value and the
/// final memory.
fn flat(name: &str, vaddr: u64, offset: i32, data: u128) -> (u128, MemState<Concrete>) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx802),
        mem: MemView::Flat,
        aliases: &[],
        buffer: None,
    };
    let mut v = BTreeMap::new();
    v.insert("VADDR".to_string(), bits(vaddr as u128, 64, Kind::B));
    v.insert(
        "OFFSET".to_string(),
        bits(offset as u32 as u128, 32, Kind::I),
    );
    v.insert("VDATA".to_string(), bits(data, 128, Kind::B));
    v.insert("RETURN_DATA".to_string(), bits(0, 128, Kind::B));
    v.insert("SHARED_BASE".to_string(), bits(SHARED, 32, Kind::B));
    v.insert("PRIVATE_BASE".to_string(), bits(PRIVATE, 32, Kind::B));
    let (out, mem) = run(&mut Concrete, &frame, &def.body, v, initial()).expect("runs");
    let r = match &out["RETURN_DATA"] {
        Val::Bits(b, _) => b.value,
        Val::Bool(_) => panic!("boolean"),
    };
    (r, mem)
}

#[test]
fn a_load_reads_the_memory_of_its_aperture() {
    // LDS bytes 0x100..0x103 are 00 01 02 03.
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0010_0000_0100, 0, 0);
    assert_eq!(r & 0xffff_ffff, 0x0302_0100);
    // Scratch bytes 0x200..0x203: 0x80 ^ 00 01 02 03.
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0020_0000_0200, 0, 0);
    assert_eq!(r & 0xffff_ffff, 0x8382_8180);
    // Any other high half: global memory at the whole address, 0x5a ^ 00 01 02 03.
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0030_0000_0100, 0, 0);
    assert_eq!(r & 0xffff_ffff, 0x5958_5b5a);
    // A high half one off the shared base is not LDS.
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0011_0000_0100, 0, 0);
    assert_eq!(r & 0xffff_ffff, 0x5958_5b5a);
}

/// The aperture is VADDR's, whatever the offset: "the memory aperture test ignores the
/// immediate offset" (llvm/llvm-project #153001 and #165427; ROCm/legacy-rocm-build#4389 is
/// the miscompile, `flat_load_b32 v0, v[0:1] offset:4` with v[0:1] 4 bytes below the shared
/// aperture reaching global memory). Inside the aperture the access is at the low 32 bits of
/// VADDR + OFFSET. Expected bytes from the patterns of `initial`, by hand.
#[test]
fn the_aperture_test_ignores_the_offset() {
    // 0x10_ffff_fffc is in the shared aperture; + 8 is 0x11_0000_0004, past its end: still
    // LDS, at the low 32 bits 0x0000_0004 (bytes 04 05 06 07).
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0010_ffff_fffc, 8, 0);
    assert_eq!(r & 0xffff_ffff, 0x0706_0504);
    // 0x11_0000_0004 - 8 = 0x10_ffff_fffc lies in the shared aperture, but VADDR does not:
    // global memory at 0x10_ffff_fffc (bytes 0x5a ^ fc fd fe ff = a6 a7 a4 a5).
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_0011_0000_0004, -8, 0);
    assert_eq!(r & 0xffff_ffff, 0xa5a4_a7a6);
    // The case of #4389: VADDR 4 bytes below the shared aperture, offset 4. The sum is the
    // aperture's first byte, but the access is global, at 0x10_0000_0000 (0x5a ^ 00 01 02 03).
    let (r, _) = flat("FLAT_LOAD_DWORD", 0x0000_000f_ffff_fffc, 4, 0);
    assert_eq!(r & 0xffff_ffff, 0x5958_5b5a);
    // A store likewise: VADDR in the private aperture, its offset past the end: scratch bytes
    // 0x02..0x03 written, nothing global.
    let (_, m) = flat("FLAT_STORE_SHORT", 0x0000_0020_ffff_fffe, 4, 0xaabb);
    assert_eq!(
        m[AddrSpace::Scratch]
            .written
            .keys()
            .copied()
            .collect::<Vec<u64>>(),
        vec![0x02, 0x03]
    );
    assert!(m[AddrSpace::Global].written.is_empty());
}

#[test]
fn a_store_writes_only_the_memory_of_its_aperture() {
    // LDS, GDS, global, scratch (the wave-level GWS and GS_REG spaces stay untouched).
    let written = |m: &MemState<Concrete>| {
        assert!(m[AddrSpace::Gws].written.is_empty() && m[AddrSpace::GsReg].written.is_empty());
        [
            AddrSpace::Lds,
            AddrSpace::Gds,
            AddrSpace::Global,
            AddrSpace::Scratch,
        ]
        .map(|s| m[s].written.keys().copied().collect::<Vec<u64>>())
    };
    let (_, m) = flat("FLAT_STORE_DWORD", 0x0000_0010_0000_0040, 4, 0xaabb_ccdd);
    assert_eq!(
        written(&m),
        [vec![0x44, 0x45, 0x46, 0x47], vec![], vec![], vec![]]
    );
    assert_eq!(m[AddrSpace::Lds].get64(0x44), 0xdd);
    let (_, m) = flat("FLAT_STORE_SHORT", 0x0000_0020_0000_0040, 0, 0xaabb_ccdd);
    assert_eq!(written(&m), [vec![], vec![], vec![], vec![0x40, 0x41]]);
    assert_eq!(m[AddrSpace::Scratch].get64(0x41), 0xcc);
    let (_, m) = flat("FLAT_STORE_BYTE", 0x1234_5678_9abc_def0, 1, 0xaabb_ccdd);
    assert_eq!(
        written(&m),
        [vec![], vec![], vec![0x1234_5678_9abc_def1], vec![]]
    );
    assert_eq!(m[AddrSpace::Global].get64(0x1234_5678_9abc_def1), 0xdd);
}

#[test]
fn sign_extending_loads_and_wide_loads() {
    // LDS byte 0x85 is 0x85: sign-extended to 0xffffff85.
    let (r, _) = flat("FLAT_LOAD_SBYTE", 0x0000_0010_0000_0085, 0, 0);
    assert_eq!(r & 0xffff_ffff, 0xffff_ff85);
    // Sixteen LDS bytes 0x10..0x1f.
    let (r, _) = flat("FLAT_LOAD_DWORDX4", 0x0000_0010_0000_0010, 0, 0);
    assert_eq!(r, 0x1f1e_1d1c_1b1a_1918_1716_1514_1312_1110);
}
