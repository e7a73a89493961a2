//! Whole-wave semantics of the cross-lane DS instructions, over any [`Domain`] so the
//! interpreter and the z3 encoding agree: `ds_swizzle_b32` (every offset mode),
//! `ds_permute_b32`, `ds_bpermute_b32`, and `ds_append`/`ds_consume` (one atomic per wave).
//!
//! Lane vectors hold one 32-bit value per lane (`lanes` = 32 or 64 entries) and EXEC is a
//! concrete mask (`u64`). The `*_lanes` forms, which `gcnsmt verify --lanes N` uses, take only
//! some lanes of a wave: their (possibly symbolic) lane ids, in increasing order, and one
//! (possibly symbolic) EXEC bit each; every other lane of the wave is inactive. Lanes that are
//! inactive keep their old destination value (`old`).
//!
//! Sources (facts, not text): AMD RDNA3/RDNA4/CDNA4 ISA guides, DS_SWIZZLE_B32,
//! DS_PERMUTE_B32, DS_BPERMUTE_B32, DS_APPEND, DS_CONSUME pseudocode (as extracted in
//! tinygrad's `str_pcode.py`); swizzle modes and their gfx9+ availability as LLVM 22
//! `SIDefines.h` namespace `Swizzle` and `AMDGPUAsmParser` encode them.

use crate::domain::{BvOp, CmpOp, Domain};

/// The source lane of `lane` (0..64) for a `ds_swizzle_b32` offset, within its group of 32.
///
/// - offset >= 0xe000 (gfx9+): FFT mode, mask = `offset[4:0]`:
///   `j = (reverse5(lane & 31) >> popcount(mask)) | (lane & mask)`;
/// - 0xc000..=0xdfff (gfx9+): rotate mode, mask = `offset[4:0]`, amount = `offset[9:5]`,
///   negated when `offset[10]` is set: `j = (lane & mask) | ((lane + amount) & ~mask & 31)`. The
///   direction (`offset[10]` = 0: lane i reads lane i + amount, LLVM's `ROTATE,0,n` "left") is
///   our reading of LLVM's macro; no guide text at hand confirms it;
/// - `offset[15]` set otherwise: quad permute,
///   `j = (lane & ~3) | offset[2*(lane&3)+1 : 2*(lane&3)]`;
/// - `offset[15]` clear: bit masks, and = `offset[4:0]`, or = `offset[9:5]`, xor = `offset[14:10]`:
///   `j = ((lane & and) | or) ^ xor`.
///
/// Before gfx9 every offset with bit 15 set is a quad permute.
pub fn swizzle_source(offset: u16, lane: u32, gfx9_plus: bool) -> u32 {
    let hi = lane & 0x20;
    let i = lane & 0x1f;
    let o = offset as u32;
    let j = if gfx9_plus && o >= 0xe000 {
        let mask = o & 0x1f;
        let rev = (i.reverse_bits() >> 27) & 0x1f;
        (rev >> mask.count_ones()) | (i & mask)
    } else if gfx9_plus && o >= 0xc000 {
        let mask = o & 0x1f;
        let mut amount = (o >> 5) & 0x1f;
        if o >> 10 & 1 == 1 {
            amount = amount.wrapping_neg();
        }
        (i & mask) | (i.wrapping_add(amount) & !mask & 0x1f)
    } else if o & 0x8000 != 0 {
        (i & !3) | ((o >> (2 * (i & 3))) & 3)
    } else {
        let and = o & 0x1f;
        let or = (o >> 5) & 0x1f;
        let xor = (o >> 10) & 0x1f;
        ((i & and) | or) ^ xor
    };
    hi | (j & 0x1f)
}

/// `ds_swizzle_b32`: active lane i gets `data[j]` for its source lane j, or 0 when lane j is
/// inactive; inactive lanes keep `old`.
pub fn swizzle<D: Domain>(
    d: &mut D,
    data: &[D::Bv],
    old: &[D::Bv],
    exec: u64,
    offset: u16,
    gfx9_plus: bool,
) -> Vec<D::Bv> {
    let active = mask(d, exec, data.len());
    (0..data.len())
        .map(|i| {
            let j = swizzle_source(offset, i as u32, gfx9_plus) as usize;
            let zero = d.bv(0, 32);
            let got = d.ite(&active[j], &data[j], &zero);
            d.ite(&active[i], &got, &old[i])
        })
        .collect()
}

/// EXEC bits as booleans, lane 0 first.
fn mask<D: Domain>(d: &mut D, exec: u64, lanes: usize) -> Vec<D::Bool> {
    (0..lanes).map(|i| d.boolean(exec >> i & 1 == 1)).collect()
}

/// How many lanes the permute lane index wraps at: 64 on gfx8/gfx9/CDNA (`% 64U`, CDNA4
/// guide), 32 on gfx10/gfx11 whatever the wave size ("destination lane is MOD 32 regardless of
/// wave size", RDNA3 guide), the wave size on gfx12 (`% num_lanes`, RDNA4 guide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermuteWrap {
    /// Lane index modulo 64 (gfx8, gfx9, CDNA).
    Lanes64,
    /// Lane index modulo 32 whatever the wave size (gfx10, gfx11).
    Lanes32,
    /// Lane index modulo the wave size, 32 or 64 (gfx12).
    WaveSize,
}

impl PermuteWrap {
    /// The wrap of `target`'s permute instructions (see the type's documentation).
    pub fn of(target: crate::target::Target) -> PermuteWrap {
        use crate::target::Gen;
        match target.gen() {
            g if g >= Gen::Gfx12 => PermuteWrap::WaveSize,
            g if g >= Gen::Gfx10 => PermuteWrap::Lanes32,
            _ => PermuteWrap::Lanes64,
        }
    }
}

fn lane_index<D: Domain>(d: &mut D, addr: &D::Bv, offset: u16, modulus: u32) -> D::Bv {
    let off = d.bv(offset as u128, 32);
    let a = d.op(BvOp::Add, addr, &off);
    let two = d.bv(2, 32);
    let q = d.op(BvOp::LShr, &a, &two);
    let m = d.bv(modulus as u128 - 1, 32);
    d.op(BvOp::And, &q, &m)
}

fn modulus(wrap: PermuteWrap, lanes: usize) -> u32 {
    match wrap {
        PermuteWrap::Lanes64 => 64,
        PermuteWrap::Lanes32 => 32,
        PermuteWrap::WaveSize => lanes as u32,
    }
}

/// `ds_bpermute_b32` (backward: each lane reads): active lane i gets `data[k]` with
/// `k = ((addr[i] + offset) / 4) % wrap`, or 0 when lane k is inactive (EXEC applies to the
/// source); inactive lanes keep `old`. An index at or above the wave size reads 0 (wave32 with
/// a 64-lane wrap has no such lane).
pub fn bpermute<D: Domain>(
    d: &mut D,
    addr: &[D::Bv],
    data: &[D::Bv],
    old: &[D::Bv],
    exec: u64,
    offset: u16,
    wrap: PermuteWrap,
) -> Vec<D::Bv> {
    let active = mask(d, exec, data.len());
    let n = data.len();
    let modn = modulus(wrap, n);
    let src: Vec<D::Bv> = (0..modn as usize)
        .map(|k| {
            let zero = d.bv(0, 32);
            if k < n {
                d.ite(&active[k], &data[k], &zero)
            } else {
                zero
            }
        })
        .collect();
    (0..n)
        .map(|i| {
            let k = lane_index(d, &addr[i], offset, modn);
            let got = select(d, &src, &k);
            d.ite(&active[i], &got, &old[i])
        })
        .collect()
}

/// `ds_permute_b32` (forward: each active lane writes): `tmp[((addr[i] + offset) / 4) % wrap]
/// = data[i]` for active i in increasing order (the highest-numbered source wins), tmp
/// starting at 0; active lanes get tmp, inactive lanes keep `old`.
pub fn permute<D: Domain>(
    d: &mut D,
    addr: &[D::Bv],
    data: &[D::Bv],
    old: &[D::Bv],
    exec: u64,
    offset: u16,
    wrap: PermuteWrap,
) -> Vec<D::Bv> {
    let active = mask(d, exec, data.len());
    let n = data.len();
    let modn = modulus(wrap, n);
    let mut tmp: Vec<D::Bv> = (0..n).map(|_| d.bv(0, 32)).collect();
    for i in 0..n {
        if d.known(&active[i]) == Some(false) {
            continue;
        }
        let k = lane_index(d, &addr[i], offset, modn);
        for (t, slot) in tmp.iter_mut().enumerate() {
            let kt = d.bv(t as u128, 32);
            let hit = d.cmp(CmpOp::Eq, &k, &kt);
            let hit = d.and(&hit, &active[i]);
            *slot = d.ite(&hit, &data[i], slot);
        }
    }
    (0..n)
        .map(|i| d.ite(&active[i], &tmp[i], &old[i]))
        .collect()
}

fn select<D: Domain>(d: &mut D, v: &[D::Bv], k: &D::Bv) -> D::Bv {
    let mut out = d.bv(0, 32);
    for (t, x) in v.iter().enumerate().rev() {
        let kt = d.bv(t as u128, 32);
        let hit = d.cmp(CmpOp::Eq, k, &kt);
        out = d.ite(&hit, x, &out);
    }
    out
}

/// `ds_append` (`add`) / `ds_consume`: one atomic for the whole wave on the counter value
/// `counter`: it becomes `counter +/- popcount(EXEC)` and every active lane gets the old value
/// (the guides: "return to all valid threads"). Returns (new counter, value of each active
/// lane). An empty EXEC leaves the counter alone.
pub fn append_consume<D: Domain>(
    d: &mut D,
    counter: &D::Bv,
    exec: u64,
    add: bool,
) -> (D::Bv, D::Bv) {
    let c = d.bv(exec.count_ones() as u128, 32);
    let op = if add { BvOp::Add } else { BvOp::Sub };
    (d.op(op, counter, &c), counter.clone())
}

/// The value of the present lane whose id is `src` if that lane is active, else 0 (an absent
/// lane is inactive).
fn read_lane<D: Domain>(
    d: &mut D,
    ids: &[D::Bv],
    data: &[D::Bv],
    active: &[D::Bool],
    src: &D::Bv,
) -> D::Bv {
    let mut out = d.bv(0, 32);
    for j in 0..ids.len() {
        let hit = d.cmp(CmpOp::Eq, src, &ids[j]);
        let hit = d.and(&hit, &active[j]);
        out = d.ite(&hit, &data[j], &out);
    }
    out
}

/// [`swizzle`] on some lanes of a `wave`-lane wave: lane `ids[i]` (32-bit, increasing, below
/// `wave`) holds `data[i]` and runs when `active[i]`; absent lanes are inactive.
#[allow(clippy::too_many_arguments)]
pub fn swizzle_lanes<D: Domain>(
    d: &mut D,
    wave: u32,
    ids: &[D::Bv],
    data: &[D::Bv],
    old: &[D::Bv],
    active: &[D::Bool],
    offset: u16,
    gfx9_plus: bool,
) -> Vec<D::Bv> {
    (0..ids.len())
        .map(|i| {
            // The source lane of a symbolic lane id: the swizzle function tabulated over the
            // wave's lanes.
            let mut src = d.bv(swizzle_source(offset, wave - 1, gfx9_plus) as u128, 32);
            for v in (0..wave - 1).rev() {
                let at = d.bv(v as u128, 32);
                let here = d.cmp(CmpOp::Eq, &ids[i], &at);
                let s = d.bv(swizzle_source(offset, v, gfx9_plus) as u128, 32);
                src = d.ite(&here, &s, &src);
            }
            let got = read_lane(d, ids, data, active, &src);
            d.ite(&active[i], &got, &old[i])
        })
        .collect()
}

/// [`bpermute`] on some lanes of a `wave`-lane wave (see [`swizzle_lanes`]).
#[allow(clippy::too_many_arguments)]
pub fn bpermute_lanes<D: Domain>(
    d: &mut D,
    wave: u32,
    ids: &[D::Bv],
    addr: &[D::Bv],
    data: &[D::Bv],
    old: &[D::Bv],
    active: &[D::Bool],
    offset: u16,
    wrap: PermuteWrap,
) -> Vec<D::Bv> {
    let modn = modulus(wrap, wave as usize);
    (0..ids.len())
        .map(|i| {
            // An index at or above the wave size matches no lane: 0.
            let k = lane_index(d, &addr[i], offset, modn);
            let got = read_lane(d, ids, data, active, &k);
            d.ite(&active[i], &got, &old[i])
        })
        .collect()
}

/// [`permute`] on some lanes of a `wave`-lane wave (see [`swizzle_lanes`]): the active lane
/// with the highest id among those that write a lane wins.
#[allow(clippy::too_many_arguments)]
pub fn permute_lanes<D: Domain>(
    d: &mut D,
    wave: u32,
    ids: &[D::Bv],
    addr: &[D::Bv],
    data: &[D::Bv],
    old: &[D::Bv],
    active: &[D::Bool],
    offset: u16,
    wrap: PermuteWrap,
) -> Vec<D::Bv> {
    let modn = modulus(wrap, wave as usize);
    let dest: Vec<D::Bv> = (0..ids.len())
        .map(|j| lane_index(d, &addr[j], offset, modn))
        .collect();
    (0..ids.len())
        .map(|i| {
            let mut tmp = d.bv(0, 32);
            // Ids increase with j, so the last hit is the highest-numbered writer.
            for j in 0..ids.len() {
                let hit = d.cmp(CmpOp::Eq, &dest[j], &ids[i]);
                let hit = d.and(&hit, &active[j]);
                tmp = d.ite(&hit, &data[j], &tmp);
            }
            d.ite(&active[i], &tmp, &old[i])
        })
        .collect()
}
