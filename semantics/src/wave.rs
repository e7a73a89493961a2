//! Whole-wave semantics of the cross-lane DS instructions, over any [`Domain`] so the
//! interpreter and the z3 encoding agree: `ds_swizzle_b32` (every offset mode),
//! `ds_permute_b32`, `ds_bpermute_b32`, `ds_bpermute_fi_b32` (gfx12: the source lane is read
//! whatever its EXEC bit), and `ds_append`/`ds_consume` (one atomic per wave).
//!
//! Lane vectors hold one 32-bit value per lane (`lanes` = 32 or 64 entries) and EXEC is a
//! concrete mask (`u64`). The `*_lanes` forms, which `gcnsmt verify --lanes N` uses, take only
//! some lanes of a wave: their (possibly symbolic) lane ids, in increasing order, and one
//! (possibly symbolic) EXEC bit each; every other lane of the wave is inactive. Lanes that are
//! inactive keep their old destination value (`old`).
//!
//! Sources (facts, not text): AMD RDNA3/RDNA4/CDNA4 ISA guides, DS_SWIZZLE_B32,
//! DS_PERMUTE_B32, DS_BPERMUTE_B32, DS_BPERMUTE_FI_B32 (RDNA4), DS_APPEND, DS_CONSUME pseudocode (as extracted in
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

/// A whole wave's operands of one cross-lane instruction: one 32-bit value per lane in
/// `data` and `old` (the destination's value before), and the concrete EXEC mask.
pub struct Wave<'a, D: Domain> {
    /// The value each lane offers (32 or 64 lanes).
    pub data: &'a [D::Bv],
    /// The destination before the instruction, which inactive lanes keep.
    pub old: &'a [D::Bv],
    /// EXEC, lane 0 in bit 0.
    pub exec: u64,
}

/// Some lanes of a `wave`-lane wave (the `*_lanes` forms): lane `ids[i]` (32-bit, increasing,
/// below `wave`) holds `data[i]` and `old[i]` and runs when `active[i]`; absent lanes are
/// inactive.
pub struct Lanes<'a, D: Domain> {
    /// The wave size, 32 or 64.
    pub wave: u32,
    /// The present lanes' ids.
    pub ids: &'a [D::Bv],
    /// The value each present lane offers.
    pub data: &'a [D::Bv],
    /// The destination before the instruction, which inactive lanes keep.
    pub old: &'a [D::Bv],
    /// Whether each present lane runs (its EXEC bit).
    pub active: &'a [D::Bool],
}

/// The lane a permute reads or writes for lane i: `((addr[i] + offset) / 4) % wrap`.
pub struct LaneIndex<'a, D: Domain> {
    /// The byte address VGPR of each lane (of the whole wave or of the present lanes).
    pub addr: &'a [D::Bv],
    /// The instruction's 16-bit offset, bytes.
    pub offset: u16,
    /// Where the lane index wraps.
    pub wrap: PermuteWrap,
}

/// `ds_swizzle_b32`: active lane i gets `data[j]` for its source lane j, or 0 when lane j is
/// inactive; inactive lanes keep `old`.
pub fn swizzle<D: Domain>(d: &mut D, w: &Wave<D>, offset: u16, gfx9_plus: bool) -> Vec<D::Bv> {
    let active = mask(d, w.exec, w.data.len());
    let got: Vec<D::Bv> = (0..w.data.len())
        .map(|i| {
            let j = swizzle_source(offset, i as u32, gfx9_plus) as usize;
            let zero = d.bv(0, 32);
            d.ite(&active[j], &w.data[j], &zero)
        })
        .collect();
    keep_inactive(d, &active, got, w.old)
}

/// Lane i gets `got[i]` when `active[i]`, else `old[i]`.
fn keep_inactive<D: Domain>(
    d: &mut D,
    active: &[D::Bool],
    got: Vec<D::Bv>,
    old: &[D::Bv],
) -> Vec<D::Bv> {
    got.iter()
        .enumerate()
        .map(|(i, g)| d.ite(&active[i], g, &old[i]))
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

/// `ds_bpermute_b32` (backward: each lane reads): active lane i gets `data[k]` for its
/// lane index k (`at`), or 0 when lane k is inactive (EXEC applies to the source); inactive
/// lanes keep `old`. An index at or above the wave size reads 0 (wave32 with a 64-lane wrap
/// has no such lane).
pub fn bpermute<D: Domain>(d: &mut D, w: &Wave<D>, at: &LaneIndex<D>) -> Vec<D::Bv> {
    let n = w.data.len();
    let active = mask(d, w.exec, n);
    let modn = modulus(at.wrap, n);
    let src: Vec<D::Bv> = (0..modn as usize)
        .map(|k| {
            let zero = d.bv(0, 32);
            if k < n {
                d.ite(&active[k], &w.data[k], &zero)
            } else {
                zero
            }
        })
        .collect();
    let got: Vec<D::Bv> = (0..n)
        .map(|i| {
            let k = lane_index(d, &at.addr[i], at.offset, modn);
            select(d, &src, &k)
        })
        .collect();
    keep_inactive(d, &active, got, w.old)
}

/// `ds_bpermute_fi_b32` (gfx12, "fetch inactive"): as [`bpermute`] but the source lane's
/// DATA0 is read whatever its EXEC bit (RDNA4 guide pseudocode: "Source VGPR is read even if
/// src_lane is invalid in EXEC mask"); inactive lanes keep `old`. An index at or above the
/// wave size (only with a wrap wider than the wave) reads 0.
pub fn bpermute_fi<D: Domain>(d: &mut D, w: &Wave<D>, at: &LaneIndex<D>) -> Vec<D::Bv> {
    let n = w.data.len();
    let active = mask(d, w.exec, n);
    let modn = modulus(at.wrap, n);
    let mut src = w.data.to_vec();
    src.resize(modn as usize, d.bv(0, 32));
    let got: Vec<D::Bv> = (0..n)
        .map(|i| {
            let k = lane_index(d, &at.addr[i], at.offset, modn);
            select(d, &src, &k)
        })
        .collect();
    keep_inactive(d, &active, got, w.old)
}

/// `ds_permute_b32` (forward: each active lane writes): `tmp[k] = data[i]` for the lane index
/// k of each active lane i (`at`) in increasing order (the highest-numbered source wins), tmp
/// starting at 0; active lanes get tmp, inactive lanes keep `old`.
pub fn permute<D: Domain>(d: &mut D, w: &Wave<D>, at: &LaneIndex<D>) -> Vec<D::Bv> {
    let n = w.data.len();
    let active = mask(d, w.exec, n);
    let modn = modulus(at.wrap, n);
    let mut tmp: Vec<D::Bv> = (0..n).map(|_| d.bv(0, 32)).collect();
    for (i, on) in active.iter().enumerate() {
        if d.known(on) == Some(false) {
            continue;
        }
        let k = lane_index(d, &at.addr[i], at.offset, modn);
        for (t, slot) in tmp.iter_mut().enumerate() {
            let kt = d.bv(t as u128, 32);
            let hit = d.cmp(CmpOp::Eq, &k, &kt);
            let hit = d.and(&hit, on);
            *slot = d.ite(&hit, &w.data[i], slot);
        }
    }
    keep_inactive(d, &active, tmp, w.old)
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
fn read_lane<D: Domain>(d: &mut D, l: &Lanes<D>, src: &D::Bv) -> D::Bv {
    let mut out = d.bv(0, 32);
    for j in 0..l.ids.len() {
        let hit = d.cmp(CmpOp::Eq, src, &l.ids[j]);
        let hit = d.and(&hit, &l.active[j]);
        out = d.ite(&hit, &l.data[j], &out);
    }
    out
}

/// Present lane i gets the value of the lane whose id `source(d, i)` is (0 when that lane
/// is inactive or absent) when it is active, else keeps its old value: the gather that
/// [`swizzle_lanes`] and [`bpermute_lanes`] share.
fn gather<D: Domain>(
    d: &mut D,
    l: &Lanes<D>,
    mut source: impl FnMut(&mut D, usize) -> D::Bv,
) -> Vec<D::Bv> {
    let got: Vec<D::Bv> = (0..l.ids.len())
        .map(|i| {
            let src = source(d, i);
            read_lane(d, l, &src)
        })
        .collect();
    keep_inactive(d, l.active, got, l.old)
}

/// [`swizzle`] on some lanes of a wave.
pub fn swizzle_lanes<D: Domain>(
    d: &mut D,
    l: &Lanes<D>,
    offset: u16,
    gfx9_plus: bool,
) -> Vec<D::Bv> {
    let wave = l.wave;
    gather(d, l, |d, i| {
        // The source lane of a symbolic lane id: the swizzle function tabulated over the
        // wave's lanes.
        let mut src = d.bv(swizzle_source(offset, wave - 1, gfx9_plus) as u128, 32);
        for v in (0..wave - 1).rev() {
            let at = d.bv(v as u128, 32);
            let here = d.cmp(CmpOp::Eq, &l.ids[i], &at);
            let s = d.bv(swizzle_source(offset, v, gfx9_plus) as u128, 32);
            src = d.ite(&here, &s, &src);
        }
        src
    })
}

/// [`bpermute`] on some lanes of a wave; `at.addr` holds the present lanes' addresses.
pub fn bpermute_lanes<D: Domain>(d: &mut D, l: &Lanes<D>, at: &LaneIndex<D>) -> Vec<D::Bv> {
    let modn = modulus(at.wrap, l.wave as usize);
    // An index at or above the wave size matches no lane: 0.
    gather(d, l, |d, i| lane_index(d, &at.addr[i], at.offset, modn))
}

/// [`bpermute_fi`] on some lanes of a wave; `at.addr` holds the present lanes' addresses.
/// A source lane that is absent from the check still holds a DATA0 value, which this variant
/// reads: `absent[i]` is what present lane i fetches when its source lane is absent (the
/// caller makes each a free input), and two present lanes whose sources are one absent lane
/// fetch the value of the first of them, so the model is exact, not merely a superset.
pub fn bpermute_fi_lanes<D: Domain>(
    d: &mut D,
    l: &Lanes<D>,
    at: &LaneIndex<D>,
    absent: &[D::Bv],
) -> Vec<D::Bv> {
    let modn = modulus(at.wrap, l.wave as usize);
    let src: Vec<D::Bv> = (0..l.ids.len())
        .map(|i| lane_index(d, &at.addr[i], at.offset, modn))
        .collect();
    let mut fetched_absent: Vec<D::Bv> = Vec::with_capacity(src.len());
    let got: Vec<D::Bv> = (0..src.len())
        .map(|i| {
            let mut out = absent[i].clone();
            for p in (0..i).rev() {
                let same = d.cmp(CmpOp::Eq, &src[i], &src[p]);
                out = d.ite(&same, &fetched_absent[p], &out);
            }
            fetched_absent.push(out.clone());
            for j in 0..l.ids.len() {
                let hit = d.cmp(CmpOp::Eq, &src[i], &l.ids[j]);
                out = d.ite(&hit, &l.data[j], &out);
            }
            out
        })
        .collect();
    keep_inactive(d, l.active, got, l.old)
}

/// [`permute`] on some lanes of a wave (`at.addr`: the present lanes' addresses): the active
/// lane with the highest id among those that write a lane wins.
pub fn permute_lanes<D: Domain>(d: &mut D, l: &Lanes<D>, at: &LaneIndex<D>) -> Vec<D::Bv> {
    let modn = modulus(at.wrap, l.wave as usize);
    let dest: Vec<D::Bv> = (0..l.ids.len())
        .map(|j| lane_index(d, &at.addr[j], at.offset, modn))
        .collect();
    let got: Vec<D::Bv> = l
        .ids
        .iter()
        .map(|id| {
            let mut tmp = d.bv(0, 32);
            // Ids increase with j, so the last hit is the highest-numbered writer.
            for (j, to) in dest.iter().enumerate() {
                let hit = d.cmp(CmpOp::Eq, to, id);
                let hit = d.and(&hit, &l.active[j]);
                tmp = d.ite(&hit, &l.data[j], &tmp);
            }
            tmp
        })
        .collect();
    keep_inactive(d, l.active, got, l.old)
}
