//! Fuzzing of the buffer resource descriptor (V#) reader (issue 8): `VsharpLayout::decode` and
//! `buffer::access` on the concrete domain, for every target, every addressing mode
//! (offen/idxen/addr64), every buffer setting and access sizes 1 to 16 bytes.
//!
//! Properties: nothing panics; the decoded fields do not overlap, each fits its width and
//! together they reassemble the input masked to the layout's fields; the computed address has
//! 64 bits. For the plain raw case (no idxen, swizzle_en and add_tid_enable clear) the address
//! and the range check are also compared with a hand-written reference: address = base +
//! soffset + (voffset + offset mod 2^32), in range iff offset + soffset + size <= num_records
//! (GCN; with `buffer_soffset=WRAP` offset + size <= num_records - soffset modulo 2^32, gem5
//! Vega), per OOB_SELECT on RDNA/gfx1250 (README "Buffer instructions").
//!
//! The seeds of `tests/data/fuzz/vsharp/` (one `<target> <dword0..3 in hex>` a line) run first,
//! then proptest feeds arbitrary 128-bit values and bit-flipped seeds. More cases:
//! `PROPTEST_CASES=100000 cargo test -p gcnsmt-semantics --test fuzz_vsharp`.

use gcnsmt_semantics::buffer::{self, BufferInputs, BufferMode, VsharpLayout};
use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::settings::{
    BufferOffset, BufferOob, BufferSoffset, BufferStruct, BufferSwizzle, Settings,
};
use gcnsmt_semantics::target::{Gen, Target};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

const LAYOUTS: [VsharpLayout; 3] = [VsharpLayout::Gcn, VsharpLayout::Rdna, VsharpLayout::Gfx1250];

/// The seeds: (origin `file:line`, target, V#).
fn seeds() -> &'static [(String, Target, u128)] {
    static S: OnceLock<Vec<(String, Target, u128)>> = OnceLock::new();
    S.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fuzz/vsharp");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for p in files {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let origin = format!("{name}:{}", n + 1);
                let mut it = line.split_whitespace();
                let t = it.next().unwrap();
                let target = Target::parse(t).unwrap_or_else(|| panic!("{origin}: target {t}"));
                let dwords: Vec<u32> = it
                    .map(|w| u32::from_str_radix(w, 16).unwrap_or_else(|e| panic!("{origin}: {e}")))
                    .collect();
                assert_eq!(dwords.len(), 4, "{origin}: four dwords");
                let v = dwords
                    .iter()
                    .enumerate()
                    .fold(0u128, |acc, (i, &d)| acc | (d as u128) << (32 * i));
                out.push((origin, target, v));
            }
        }
        out
    })
}

/// Decoded fields are disjoint, fit their widths and reassemble the masked input.
fn check_decode(layout: VsharpLayout, v: u128) -> Result<(), String> {
    let mut covered = 0u128;
    for &(name, hi, lo) in layout.fields() {
        if hi < lo || hi > 127 {
            return Err(format!("{layout:?} {name}: bits {hi}:{lo}"));
        }
        let m = (u128::MAX >> (127 - hi)) & (u128::MAX << lo);
        if covered & m != 0 {
            return Err(format!("{layout:?} {name} overlaps another field"));
        }
        covered |= m;
    }
    let mut back = 0u128;
    for ((name, x), &(_, hi, lo)) in layout.decode(v).into_iter().zip(layout.fields()) {
        let w = hi - lo + 1;
        if w < 128 && x >> w != 0 {
            return Err(format!("{layout:?} {name} = {x:#x} wider than {w} bits"));
        }
        back |= x << lo;
    }
    if back != v & covered {
        return Err(format!(
            "{layout:?}: fields of {v:#034x} reassemble to {back:#034x}, not {:#034x}",
            v & covered
        ));
    }
    Ok(())
}

fn bits(value: u128, width: u32) -> Bits {
    let m = if width >= 128 {
        u128::MAX
    } else {
        (1 << width) - 1
    };
    Bits {
        value: value & m,
        width,
    }
}

/// One access's inputs besides the V#.
#[derive(Clone, Copy, Debug)]
struct Operands {
    vaddr: u64,
    soffset: u32,
    offset: u32,
    lane: u32,
}

/// Every mode, setting and size for `target` on V# `v`: no panic, a 64-bit address, and the
/// raw-case reference where it applies.
fn check_access(target: Target, v: u128, o: Operands) -> Result<(), String> {
    let layout = VsharpLayout::of(target);
    let addr64_ok = target.gen() <= Gen::Gfx7;
    for offen in [false, true] {
        for idxen in [false, true] {
            for addr64 in [false, true] {
                if addr64 && (!addr64_ok || offen || idxen) {
                    continue;
                }
                let mode = BufferMode {
                    target,
                    offen,
                    idxen,
                    addr64,
                };
                let vw = if (offen && idxen) || addr64 { 64 } else { 32 };
                let soffs = [
                    BufferSoffset::Subtract,
                    BufferSoffset::Ignore,
                    BufferSoffset::Wrap,
                ];
                // The defaults, and both gem5 readings at once (bufaudit): a raw access
                // (no idxen) does not depend on buffer_struct, nor an unswizzled one on
                // buffer_swizzle.
                let gem5 = [false, true];
                for (soff_mode, oob, g) in soffs
                    .iter()
                    .flat_map(|s| [BufferOob::End, BufferOob::Start].map(|o| (*s, o)))
                    .flat_map(|(s, o)| gem5.map(|g| (s, o, g)))
                {
                    {
                        let mut settings = Settings {
                            buffer_soffset: soff_mode,
                            buffer_oob: oob,
                            sbuffer_size: gcnsmt_semantics::settings::SbufferSize::Strided,
                            flat_aperture: gcnsmt_semantics::settings::FlatAperture::Any,
                            fp32_denorm: gcnsmt_semantics::settings::Fp32Denorm::Preserve,
                            ieee_mode: gcnsmt_semantics::settings::IeeeMode::On,
                            lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
                            lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
                            append_addr: gcnsmt_semantics::settings::AppendAddr::Offset,
                            ..Settings::default_for(target)
                        };
                        if g {
                            settings.buffer_struct = BufferStruct::Bytes;
                            settings.buffer_swizzle = BufferSwizzle::Formula;
                        }
                        for size in [1u32, 2, 4, 8, 12, 16] {
                            let d = &mut Concrete;
                            let inp = BufferInputs::<Concrete> {
                                vaddr: bits(o.vaddr as u128, vw),
                                srsrc: bits(v, 128),
                                soffset: bits(o.soffset as u128, 32),
                                offset: bits(o.offset as u128, 32),
                                lane_id: bits(o.lane as u128 % 64, 32),
                            };
                            let a =
                                buffer::aoffset(d, &mode, &inp.vaddr, &bits(o.offset as u128, 32));
                            let acc = buffer::access(d, &mode, &settings, &inp, &a, size);
                            let what = || {
                                format!(
                                    "{} {v:#034x} {o:?} offen={offen} idxen={idxen} addr64={addr64} \
                                     {soff_mode:?} {oob:?} gem5={g} size {size}",
                                    target.name()
                                )
                            };
                            if acc.addr.width != 64 || a.width != 32 {
                                return Err(format!(
                                    "{}: address {} bits, AOFFSET {} bits",
                                    what(),
                                    acc.addr.width,
                                    a.width
                                ));
                            }
                            if !idxen && !addr64 {
                                if let Some(e) = raw_reference(layout, v, o, offen, &settings, size)
                                {
                                    if (acc.addr.value as u64, acc.in_range) != e {
                                        return Err(format!(
                                            "{}: got ({:#x}, {}), reference {e:x?}",
                                            what(),
                                            acc.addr.value,
                                            acc.in_range
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The raw (no idxen) address and range check written out from README "Buffer instructions",
/// only where no swizzling and no ADD_TID term apply: `None` otherwise.
fn raw_reference(
    layout: VsharpLayout,
    v: u128,
    o: Operands,
    offen: bool,
    s: &Settings,
    size: u32,
) -> Option<(u64, bool)> {
    let f = |hi: u32, lo: u32| (v >> lo) & ((1u128 << (hi - lo + 1)) - 1);
    let (base, nr, stride, swz, tid, oob) = match layout {
        VsharpLayout::Gcn => (f(47, 0), f(95, 64), f(61, 48), f(63, 63), f(119, 119), None),
        VsharpLayout::Rdna => (
            f(47, 0),
            f(95, 64),
            f(61, 48),
            f(63, 62),
            f(119, 119),
            Some(f(125, 124)),
        ),
        VsharpLayout::Gfx1250 => (f(56, 0), f(101, 57), f(121, 108), 0, 0, Some(f(125, 124))),
    };
    if swz != 0 || tid != 0 {
        return None;
    }
    // AOFFSET: voffset + offset, wrapping at 32 bits.
    let aoff = if offen {
        (o.vaddr as u32).wrapping_add(o.offset)
    } else {
        o.offset
    } as u128;
    let soff = o.soffset as u128;
    let addr = (base + soff + aoff) as u64;
    // (checked offset, bound): SUBTRACT as integers, WRAP modulo the num_records width (gem5).
    let nr_bits = if layout == VsharpLayout::Gfx1250 {
        45
    } else {
        32
    };
    let (checked, bound) = match s.buffer_soffset {
        BufferSoffset::Subtract => (aoff + soff, nr),
        BufferSoffset::Ignore => (aoff, nr),
        BufferSoffset::Wrap => (aoff, nr.wrapping_sub(soff) & ((1u128 << nr_bits) - 1)),
    };
    let raw_ok = match s.buffer_oob {
        BufferOob::End => checked + size as u128 <= bound,
        BufferOob::Start => checked < bound,
    };
    let ok = match oob {
        // GCN without idxen: the raw check, whatever the stride.
        None => raw_ok,
        // OOB_SELECT 0: index (0 here) below num_records and the offset within the stride.
        Some(0) => {
            0 < nr
                && match s.buffer_oob {
                    BufferOob::End => aoff + size as u128 <= stride,
                    BufferOob::Start => aoff < stride,
                }
        }
        Some(1) => 0 < nr,
        Some(2) => nr != 0,
        _ => raw_ok,
    };
    // buffer_offset=CHECKED (LLVM PR #207821): a voffset + offset of 2^32 or more is out of
    // range, whatever the check.
    let overflow = offen && (o.vaddr as u32 as u128) + (o.offset as u128) >= 1u128 << 32;
    let ok = ok && !(s.buffer_offset == BufferOffset::Checked && overflow);
    Some((addr, ok))
}

#[test]
fn seeds_decode_and_access() {
    let seeds = seeds();
    assert!(seeds.len() >= 40, "{} seeds", seeds.len());
    let operands = [
        Operands {
            vaddr: 0,
            soffset: 0,
            offset: 0,
            lane: 0,
        },
        Operands {
            vaddr: 0xffff_fffc_0000_0008,
            soffset: 4,
            offset: 8,
            lane: 63,
        },
        Operands {
            vaddr: u64::MAX,
            soffset: u32::MAX,
            offset: 4095,
            lane: 1,
        },
    ];
    for (origin, target, v) in seeds {
        for layout in LAYOUTS {
            check_decode(layout, *v).unwrap_or_else(|e| panic!("{origin}: {e}"));
        }
        // The seed's own target, and every other target reading the same bits.
        for t in Target::ALL {
            for o in operands {
                check_access(t, *v, o).unwrap_or_else(|e| panic!("{origin} on {}: {e}", t.name()));
            }
        }
        let _ = target;
    }
}

fn operands() -> impl Strategy<Value = Operands> {
    (any::<u64>(), any::<u32>(), 0u32..=0xfff, 0u32..64).prop_map(
        |(vaddr, soffset, offset, lane)| Operands {
            vaddr,
            soffset,
            offset,
            lane,
        },
    )
}

fn target() -> impl Strategy<Value = Target> {
    proptest::sample::select(Target::ALL.to_vec())
}

/// A V#: arbitrary bits, or a seed with a few bits flipped, or a seed with one field set to
/// all ones or zero.
fn vsharp() -> impl Strategy<Value = u128> {
    let n = seeds().len();
    prop_oneof![
        any::<u128>(),
        (0..n, proptest::collection::vec(0u32..128, 1..4)).prop_map(|(i, flips)| {
            flips
                .into_iter()
                .fold(seeds()[i].2, |v, b| v ^ (1u128 << b))
        }),
        (0..n, 0u32..128, 1u32..46, any::<bool>()).prop_map(|(i, lo, w, ones)| {
            let w = w.min(128 - lo);
            let m = ((1u128 << w) - 1) << lo;
            let v = seeds()[i].2;
            if ones {
                v | m
            } else {
                v & !m
            }
        }),
    ]
}

/// `cases` cases from this file's fixed seed (see [`gcnsmt_testkit::proptest_config`]).
fn config(cases: u32) -> gcnsmt_testkit::ProptestConfig {
    gcnsmt_testkit::proptest_config(cases, 0x7623_7368_7270)
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn decode_reassembles(v in any::<u128>()) {
        for layout in LAYOUTS {
            check_decode(layout, v).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn access_never_panics_and_matches_the_raw_reference(
        v in vsharp(), t in target(), o in operands()
    ) {
        let r = std::panic::catch_unwind(|| check_access(t, v, o))
            .map_err(|_| TestCaseError::fail(format!("{} {v:#034x} {o:?}: panicked", t.name())))?;
        r.map_err(TestCaseError::fail)?;
    }
}
