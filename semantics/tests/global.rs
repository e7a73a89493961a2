//! The global family's semantics (`semantics/pcode/global.pcode`) on the interpreter, against
//! addresses and values computed by hand from the AMD guides' formulas: GLOBAL address =
//! VADDR[63:0] + offset, or SADDR + VADDR[31:0] + offset (CDNA3 ISA, "Global instructions");
//! scalar loads at SBASE + offset with the two low bits ignored (Vega ISA, "Scalar Memory
//! Operations").

use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

fn bits(v: u128, w: u32, k: Kind) -> Val<Concrete> {
    Val::Bits(Bits { value: v, width: w }, Ty::Bits(k, w))
}

/// Run `name` with global memory byte `a` = `a as u8 ^ 0x5a`; returns the output variable
/// `out` and the final memory.
fn run_global(name: &str, vars: &[(&str, u128, u32, Kind)], out: &str) -> (u128, CMem) {
    let lib = Library::builtin();
    let def = lib.get(name).unwrap_or_else(|| panic!("{name}"));
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx900),
        mem: MemView::Space(AddrSpace::Global),
        aliases: &[],
        buffer: None,
    };
    let mut v = BTreeMap::new();
    for (n, x, w, k) in vars {
        v.insert(n.to_string(), bits(*x, *w, *k));
    }
    v.insert(out.to_string(), bits(0, 128, Kind::B));
    let mut mem = MemState::new(|_| CMem::new_wide(|_| 0), false);
    mem[AddrSpace::Global] = CMem::new_wide(|a| (a as u8) ^ ((a >> 32) as u8) ^ 0x5a);
    let (o, m) = run(&mut Concrete, &frame, &def.body, v, mem).unwrap();
    let r = match o.get(out) {
        Some(Val::Bits(b, _)) => b.value,
        _ => 0,
    };
    (r, m[AddrSpace::Global].clone())
}

fn byte(a: u64) -> u128 {
    ((a as u8) ^ ((a >> 32) as u8) ^ 0x5a) as u128
}

#[test]
fn global_load_dword_without_saddr_reads_vaddr64_plus_signed_offset() {
    // Above 4 GiB, so a 32-bit address would read other bytes (0x1000 - 16 ^ 0x5a differs).
    let base: u64 = 0x1_0000_1000;
    let (r, _) = run_global(
        "GLOBAL_LOAD_DWORD",
        &[
            ("VADDR", base as u128, 64, Kind::B),
            ("SADDR", 0, 64, Kind::B),
            ("OFFSET", (-16i32 as u32) as u128, 32, Kind::I),
        ],
        "RETURN_DATA",
    );
    let a = base - 16;
    let want = byte(a) | byte(a + 1) << 8 | byte(a + 2) << 16 | byte(a + 3) << 24;
    assert_eq!(r & 0xffff_ffff, want);
}

#[test]
fn global_load_sbyte_with_saddr_sign_extends() {
    // 0x1_0000_0000 + 0x80 + 4: byte = 0x84 ^ 0x01 ^ 0x5a = 0xdf, negative.
    let (r, _) = run_global(
        "GLOBAL_LOAD_SBYTE",
        &[
            ("VADDR", 0x80, 32, Kind::B),
            ("SADDR", 0x1_0000_0000, 64, Kind::B),
            ("OFFSET", 4, 32, Kind::I),
        ],
        "RETURN_DATA",
    );
    assert_eq!(r & 0xffff_ffff, 0xffff_ffdf);
}

#[test]
fn global_store_short_writes_two_bytes() {
    let (_, m) = run_global(
        "GLOBAL_STORE_SHORT",
        &[
            ("VADDR", 0x2000, 64, Kind::B),
            ("SADDR", 0, 64, Kind::B),
            ("OFFSET", 2, 32, Kind::I),
            ("VDATA", 0xaabb_ccdd, 32, Kind::B),
        ],
        "RETURN_DATA",
    );
    assert_eq!(m.get64(0x2002), 0xdd);
    assert_eq!(m.get64(0x2003), 0xcc);
    assert_eq!(m.get64(0x2004), byte(0x2004) as u8);
}

#[test]
fn s_load_dword_ignores_the_two_low_address_bits() {
    let (r, _) = run_global(
        "S_LOAD_DWORD",
        &[
            ("SBASE", 0x3000, 64, Kind::B),
            ("OFFSET", 0x13, 32, Kind::I),
        ],
        "SDATA",
    );
    let a = 0x3010;
    let want = byte(a) | byte(a + 1) << 8 | byte(a + 2) << 16 | byte(a + 3) << 24;
    assert_eq!(r & 0xffff_ffff, want);
}
