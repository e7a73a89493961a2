//! Cross-lane DS semantics against hand computations from the swizzle macros' meaning (LLVM
//! AMDGPU assembler syntax: QUAD_PERM, SWAP, REVERSE, BROADCAST, BITMASK_PERM, FFT, ROTATE),
//! the offsets llvm-mc 22 encodes for them (`tests/data/swizzle_llvm_mc22.tsv`), the FFT table
//! of the AMD CDNA4 guide, and the permute formulas of the AMD guides.

use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::wave::*;

fn llvm_offsets() -> Vec<(String, u16)> {
    include_str!("data/swizzle_llvm_mc22.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (m, o) = l.split_once('\t').unwrap();
            (
                m.to_string(),
                u16::from_str_radix(o.trim_start_matches("0x"), 16).unwrap(),
            )
        })
        .collect()
}

/// The source lane each macro means, for lane i of a 32-lane group (hand-written from the
/// macro definitions).
fn meaning(m: &str, i: u32) -> u32 {
    match m {
        "QUAD_PERM,1,0,3,2" => (i & !3) | [1, 0, 3, 2][(i & 3) as usize],
        "SWAP,16" => i ^ 16,
        "SWAP,1" => i ^ 1,
        "REVERSE,8" => i ^ 7,
        "REVERSE,32" => i ^ 31,
        "BROADCAST,4,1" => (i & !3) | 1,
        "BROADCAST,32,5" => 5,
        // bit 4 = 0, bit 3 = 1, bit 2 preserved, bit 1 inverted, bit 0 preserved.
        "BITMASK_PERM,\"01pip\"" => 8 | (i & 5) | (!i & 2),
        // CDNA4 guide table, offset 0x00: bit-reversed lane index.
        "FFT,0" => (i.reverse_bits() >> 27) & 31,
        // offset 0x10: {1,9,5,d,3,b,7,f,2,a,6,e,4,c,8,10,11,19,...} (1-based).
        "FFT,16" => ((i.reverse_bits() >> 27) >> 1) | (i & 16),
        "FFT,31" => i,
        // Rotate left by one: every lane reads the next lane up (wrapping in the group).
        "ROTATE,0,1" => (i + 1) & 31,
        // Rotate right by 3: every lane reads the lane three below.
        "ROTATE,1,3" => i.wrapping_sub(3) & 31,
        "ROTATE,1,31" => i.wrapping_sub(31) & 31,
        _ => panic!("no meaning for {m}"),
    }
}

#[test]
fn swizzle_modes_match_llvm_mc_offsets_and_macro_meaning() {
    let rows = llvm_offsets();
    assert_eq!(rows.len(), 14);
    for (m, off) in rows {
        for lane in 0..64 {
            let want = (lane & 32) | meaning(&m, lane & 31);
            assert_eq!(swizzle_source(off, lane, true), want, "{m} lane {lane}");
        }
    }
}

#[test]
fn fft_table_rows_of_the_cdna4_guide() {
    // 1-based rows of the guide's table, offsets 0x00 and 0x10.
    let row0 = [
        0x1, 0x11, 0x9, 0x19, 0x5, 0x15, 0xd, 0x1d, 0x3, 0x13, 0xb, 0x1b, 0x7, 0x17, 0xf, 0x1f,
        0x2, 0x12, 0xa, 0x1a, 0x6, 0x16, 0xe, 0x1e, 0x4, 0x14, 0xc, 0x1c, 0x8, 0x18, 0x10, 0x20,
    ];
    let row16 = [
        0x1, 0x9, 0x5, 0xd, 0x3, 0xb, 0x7, 0xf, 0x2, 0xa, 0x6, 0xe, 0x4, 0xc, 0x8, 0x10, 0x11,
        0x19, 0x15, 0x1d, 0x13, 0x1b, 0x17, 0x1f, 0x12, 0x1a, 0x16, 0x1e, 0x14, 0x1c, 0x18, 0x20,
    ];
    for i in 0..32u32 {
        assert_eq!(swizzle_source(0xe000, i, true) + 1, row0[i as usize]);
        assert_eq!(swizzle_source(0xe010, i, true) + 1, row16[i as usize]);
    }
}

#[test]
fn before_gfx9_high_offsets_are_quad_permutes() {
    // 0xe01f on gfx8: bit 15 set, so a quad permute with selects 3,3,0,0 (bits 7:0 = 0x1f).
    for i in 0..8u32 {
        assert_eq!(
            swizzle_source(0xe01f, i, false),
            (i & !3) | [3, 3, 1, 0][(i & 3) as usize]
        );
    }
}

fn b(v: u128) -> Bits {
    Bits {
        value: v,
        width: 32,
    }
}

#[test]
fn swizzle_inactive_source_reads_zero_inactive_destination_keeps_old() {
    let data: Vec<Bits> = (0..32).map(|i| b(100 + i)).collect();
    let old: Vec<Bits> = (0..32).map(|_| b(7)).collect();
    // SWAP,1 with lanes 0, 1, 2 active: lane 2 reads lane 3 (inactive) -> 0, lane 3 keeps 7.
    let w = Wave {
        data: &data,
        old: &old,
        exec: 0b111,
    };
    let out = swizzle(&mut Concrete, &w, 0x041f, true);
    assert_eq!(out[0].value, 101);
    assert_eq!(out[1].value, 100);
    assert_eq!(out[2].value, 0);
    assert_eq!(out[3].value, 7);
}

#[test]
fn bpermute_and_permute_by_hand() {
    let n = 64;
    let data: Vec<Bits> = (0..n).map(|i| b(1000 + i)).collect();
    let old: Vec<Bits> = (0..n).map(|_| b(9)).collect();
    // bpermute: lane i reads lane i ^ 1 (byte address 4 * (i ^ 1)).
    let addr: Vec<Bits> = (0..n).map(|i| b(4 * (i ^ 1))).collect();
    let all = u64::MAX;
    let out = bpermute(
        &mut Concrete,
        &Wave {
            data: &data,
            old: &old,
            exec: all,
        },
        &LaneIndex {
            addr: &addr,
            offset: 0,
            wrap: PermuteWrap::Lanes64,
        },
    );
    assert_eq!(out[0].value, 1001);
    assert_eq!(out[63].value, 1062);
    // Wrap: byte address 4*64 + 8 with offset 4 is lane (264+4)/4 % 64 = 3; low bits dropped.
    let addr: Vec<Bits> = (0..n).map(|_| b(4 * 64 + 8 + 3)).collect();
    let out = bpermute(
        &mut Concrete,
        &Wave {
            data: &data,
            old: &old,
            exec: all,
        },
        &LaneIndex {
            addr: &addr,
            offset: 4,
            wrap: PermuteWrap::Lanes64,
        },
    );
    assert_eq!(out[17].value, 1003);
    // gfx10/11: modulo 32 even on wave64: (4*40)/4 % 32 = 8.
    let addr: Vec<Bits> = (0..n).map(|_| b(4 * 40)).collect();
    let out = bpermute(
        &mut Concrete,
        &Wave {
            data: &data,
            old: &old,
            exec: all,
        },
        &LaneIndex {
            addr: &addr,
            offset: 0,
            wrap: PermuteWrap::Lanes32,
        },
    );
    assert_eq!(out[50].value, 1008);
    // EXEC applies to the source: lane 8 inactive -> 0; inactive lane 8 keeps its old value.
    let exec = all & !(1 << 8);
    let out = bpermute(
        &mut Concrete,
        &Wave {
            data: &data,
            old: &old,
            exec,
        },
        &LaneIndex {
            addr: &addr,
            offset: 0,
            wrap: PermuteWrap::Lanes32,
        },
    );
    assert_eq!(out[50].value, 0);
    assert_eq!(out[8].value, 9);
    // permute: every lane writes lane 60 except: lanes 0 and 1 write lane 5 (the higher
    // source wins), lane 6 writes lane 7, lane 7 writes lane 61. Lane 6 gets nothing (0).
    let mut addr: Vec<Bits> = (0..n).map(|_| b(4 * 60)).collect();
    addr[0] = b(20);
    addr[1] = b(20);
    addr[6] = b(4 * 7);
    addr[7] = b(4 * 61);
    let out = permute(
        &mut Concrete,
        &Wave {
            data: &data,
            old: &old,
            exec: all,
        },
        &LaneIndex {
            addr: &addr,
            offset: 0,
            wrap: PermuteWrap::Lanes64,
        },
    );
    assert_eq!(out[5].value, 1001);
    assert_eq!(out[6].value, 0);
    assert_eq!(out[7].value, 1006);
    assert_eq!(out[61].value, 1007);
    assert_eq!(out[60].value, 1063);
    assert_eq!(out[0].value, 0);
}

#[test]
fn append_hands_every_lane_the_same_old_value() {
    let (new, ret) = append_consume(&mut Concrete, &b(40), 0b1011_0000, true);
    assert_eq!((new.value, ret.value), (43, 40));
    let (new, _) = append_consume(&mut Concrete, &b(1), 0b111, false);
    assert_eq!(new.value, 0xffff_fffe);
}

/// `ds_bpermute_fi_b32`, RDNA4 guide pseudocode by hand: `src_lane = (ADDR[i] + OFFSET) / 4 %
/// num_lanes; tmp[i] = VGPR[src_lane][DATA0]` with no EXEC test on the source, then
/// `if EXEC[i] then VDST[i] = tmp[i]`.
#[test]
fn bpermute_fi_reads_inactive_sources() {
    let bits = |v: u32| Bits {
        value: v as u128,
        width: 32,
    };
    let n = 32;
    let data: Vec<Bits> = (0..n).map(|i| bits(0x100 + i)).collect();
    let old: Vec<Bits> = (0..n).map(|i| bits(0xdead_0000 + i)).collect();
    // Lane i reads lane (i + 3) % 32 through ADDR = 4 * i + 8 and OFFSET = 4.
    let addr: Vec<Bits> = (0..n).map(|i| bits(4 * i + 8)).collect();
    // Only the even lanes are active.
    let exec = 0x5555_5555u64;
    let w = Wave {
        data: &data,
        old: &old,
        exec,
    };
    let at = LaneIndex {
        addr: &addr,
        offset: 4,
        wrap: PermuteWrap::WaveSize,
    };
    let got = bpermute_fi(&mut Concrete, &w, &at);
    let plain = bpermute(&mut Concrete, &w, &at);
    for i in 0..n as usize {
        let src = (i + 3) % 32;
        if i % 2 == 0 {
            // An even reader reads an odd (inactive) source: the FI form still gets its data,
            // the plain form 0.
            assert_eq!(got[i].value, 0x100 + src as u128, "lane {i}");
            assert_eq!(plain[i].value, 0, "lane {i}");
        } else {
            assert_eq!(got[i].value, 0xdead_0000 + i as u128, "inactive lane {i}");
        }
    }
    // With every lane of the wave present, the `_lanes` form is the whole-wave one.
    let ids: Vec<Bits> = (0..n).map(bits).collect();
    let active: Vec<bool> = (0..n).map(|i| exec >> i & 1 == 1).collect();
    let l = Lanes {
        wave: 32,
        ids: &ids,
        data: &data,
        old: &old,
        active: &active,
    };
    let absent: Vec<Bits> = (0..n).map(|_| bits(0x7777)).collect();
    let lanes = bpermute_fi_lanes(&mut Concrete, &l, &at, &absent);
    assert_eq!(lanes, got);
}

/// `bpermute_fi_lanes` with lane 0 only: every source lane but 0 is outside the check, so the
/// reader gets its `absent` value; two readers of one outside lane get the first one's.
#[test]
fn bpermute_fi_lanes_absent_sources_are_consistent() {
    let bits = |v: u32| Bits {
        value: v as u128,
        width: 32,
    };
    // Lanes 2 and 5 present, both active; each case gives the byte addresses they read
    // (lane = address / 4) and the values lanes 2 and 5 get.
    let ids = [bits(2), bits(5)];
    let data = [bits(0xa), bits(0xb)];
    let old = [bits(0), bits(0)];
    let active = [true, true];
    let absent = [bits(0x111), bits(0x222)];
    let l = Lanes {
        wave: 32,
        ids: &ids,
        data: &data,
        old: &old,
        active: &active,
    };
    let cases = [
        // Both reading lane 9 (absent): the first reader's absent value for both.
        ([36, 36], (0x111, 0x111)),
        // Reading different absent lanes (9 and 10): each its own value.
        ([36, 40], (0x111, 0x222)),
        // Lane 5 reading present lane 2 gets its data.
        ([36, 8], (0x111, 0xa)),
    ];
    for (bytes, want) in cases {
        let addr = bytes.map(bits);
        let at = LaneIndex {
            addr: &addr,
            offset: 0,
            wrap: PermuteWrap::WaveSize,
        };
        let got = bpermute_fi_lanes(&mut Concrete, &l, &at, &absent);
        assert_eq!((got[0].value, got[1].value), want, "addresses {bytes:?}");
    }
}
