//! Whole-wave semantics of the LDS transpose loads (gfx950 `ds_read_b64_tr_b4/_b8/_b16`,
//! `ds_read_b96_tr_b6`; gfx1250 `ds_load_tr4_b64`, `ds_load_tr8_b64`, `ds_load_tr6_b96`,
//! `ds_load_tr16_b128`), over any [`Domain`] so the interpreter, the z3 encoding and `gcnsmt
//! lift`'s text agree.
//!
//! Each active lane reads `read_bits` (64, 96 or 128) contiguous bits at its own address, as
//! the plain `DS_READ_B64`/`B96`/`B128` entry of `semantics/pcode/ds_load.pcode` does; the read
//! is `n = read_bits / elem_bits` elements (element `e` at bits `[e*w + w-1 : e*w]`). Lane `i`'s
//! result element `k` is element `i & (n - 1)` of the read of lane [`Transpose::source`]`(i,
//! k)`: a fixed exchange that depends on lane ids only, never on the addresses.
//!
//! The lane maps, re-derived from hardware tests (facts, not code):
//! - gfx950 (wave64, 16-lane blocks): rocRoller `test/unit/TransposeLoadsTest.cpp`
//!   (`executeTransposeLoad`: its per-lane addresses `trLoadIdx` and its expected-result index
//!   formula, run for 16x32/32x16 b16, 16x64/32x32 b8, 16x128/32x64 b6 and b4 tiles), which
//!   give `source = block + (16k + t) / n` for lane `t` of its block: b16 (n = 4) four
//!   interleaved 4x4 transposes, b8 (n = 8) two interleaved 8x8 ones (also the Mojo
//!   `ds_read_tr8_b64` documentation: "two interleaved 8x8 byte transposes" per 16 lanes), b4
//!   and b6 (n = 16) one 16x16 transpose. DS_READ_B96_TR_B6's 128-bit address alignment:
//!   rocRoller `extraLDSBytesPerElementBlock` ("requires 128b-aligned addresses").
//! - gfx1250 (wave32): `ds_load_tr16_b128` four 8x8 transposes of 8-lane groups (the AMD blog
//!   "A Deep Dive into LDS Optimizations on AMD Instinct MI450 GPUs", 2026, Figure 1a, and the
//!   `ds_load_tr16_b128 Demonstration` HIP example: lane L gets column L of its group);
//!   `ds_load_tr8_b64` 8x8 transposes whose source groups are two runs of four lanes (the same
//!   blog, Figure 1b and its basis table: destination lanes 0-7 read lanes 0-3 and 8-11;
//!   a HIP test `Gfx1250MemoryIsaTranspose.LdsLoadsProduceDocumentedWmmaCoordinates` expects
//!   the tr16 pattern instead: the disagreement is listed in docs/soundness.md);
//!   `ds_load_tr4_b64` and `ds_load_tr6_b96` from that HIP test alone (expected values
//!   `expected_tr4` / `expected_row_major`): 16x16 transposes whose sources span the wave.
//!
//! Not in any source, so modelled conservatively: an element whose source lane is inactive
//! (or absent from a `--lanes` check) is an unconstrained input (`fill`); a lane address not
//! aligned to the access (8 bytes for b64, 16 for b96 and b128) is undefined (see
//! `verifier/src/machine/transpose.rs`); inactive lanes keep their destination.

use crate::domain::{BvOp, CmpOp, Domain};
use crate::wave::Lanes;

/// One of the eight transpose loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Transpose {
    /// gfx950 `ds_read_b64_tr_b4`: 16 4-bit elements per lane.
    ReadB64TrB4,
    /// gfx950 `ds_read_b64_tr_b8`: 8 bytes per lane.
    ReadB64TrB8,
    /// gfx950 `ds_read_b64_tr_b16`: 4 16-bit elements per lane.
    ReadB64TrB16,
    /// gfx950 `ds_read_b96_tr_b6`: 16 6-bit elements per lane.
    ReadB96TrB6,
    /// gfx1250 `ds_load_tr4_b64`: 16 4-bit elements per lane.
    LoadTr4B64,
    /// gfx1250 `ds_load_tr8_b64`: 8 bytes per lane.
    LoadTr8B64,
    /// gfx1250 `ds_load_tr6_b96`: 16 6-bit elements per lane.
    LoadTr6B96,
    /// gfx1250 `ds_load_tr16_b128`: 8 16-bit elements per lane.
    LoadTr16B128,
}

/// Where bit `b` of a source lane id comes from: bit `x` of the reading lane's id, or bit `y`
/// of the element index `k`.
#[derive(Clone, Copy, Debug)]
enum Bit {
    Id(u32),
    K(u32),
}
use Bit::{Id, K};

impl Transpose {
    /// All eight, gfx950 first.
    pub const ALL: [Transpose; 8] = [
        Transpose::ReadB64TrB4,
        Transpose::ReadB64TrB8,
        Transpose::ReadB64TrB16,
        Transpose::ReadB96TrB6,
        Transpose::LoadTr4B64,
        Transpose::LoadTr8B64,
        Transpose::LoadTr6B96,
        Transpose::LoadTr16B128,
    ];

    /// The transpose load a (lower-case, LLVM) mnemonic names, or `None`.
    pub fn of(mnemonic: &str) -> Option<Transpose> {
        Transpose::ALL
            .into_iter()
            .find(|t| t.mnemonic() == mnemonic)
    }

    /// The LLVM 22 mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            Transpose::ReadB64TrB4 => "ds_read_b64_tr_b4",
            Transpose::ReadB64TrB8 => "ds_read_b64_tr_b8",
            Transpose::ReadB64TrB16 => "ds_read_b64_tr_b16",
            Transpose::ReadB96TrB6 => "ds_read_b96_tr_b6",
            Transpose::LoadTr4B64 => "ds_load_tr4_b64",
            Transpose::LoadTr8B64 => "ds_load_tr8_b64",
            Transpose::LoadTr6B96 => "ds_load_tr6_b96",
            Transpose::LoadTr16B128 => "ds_load_tr16_b128",
        }
    }

    /// Element width, bits.
    pub fn elem_bits(self) -> u32 {
        match self {
            Transpose::ReadB64TrB4 | Transpose::LoadTr4B64 => 4,
            Transpose::ReadB96TrB6 | Transpose::LoadTr6B96 => 6,
            Transpose::ReadB64TrB8 | Transpose::LoadTr8B64 => 8,
            Transpose::ReadB64TrB16 | Transpose::LoadTr16B128 => 16,
        }
    }

    /// Bits each lane reads and receives: 64, 96 or 128.
    pub fn read_bits(self) -> u32 {
        match self {
            Transpose::ReadB96TrB6 | Transpose::LoadTr6B96 => 96,
            Transpose::LoadTr16B128 => 128,
            _ => 64,
        }
    }

    /// Elements per lane (4, 8 or 16).
    pub fn elems(self) -> u32 {
        self.read_bits() / self.elem_bits()
    }

    /// The wave size the instruction requires: 64 on gfx950, 32 on gfx1250 (LLVM 22 accepts
    /// the gfx1250 forms only with wavesize32).
    pub fn wave(self) -> u32 {
        match self {
            Transpose::ReadB64TrB4
            | Transpose::ReadB64TrB8
            | Transpose::ReadB64TrB16
            | Transpose::ReadB96TrB6 => 64,
            _ => 32,
        }
    }

    /// The `ds_load.pcode` entry that is each lane's own access.
    pub fn lane_read(self) -> &'static str {
        match self.read_bits() {
            64 => "DS_READ_B64",
            96 => "DS_READ_B96",
            _ => "DS_READ_B128",
        }
    }

    /// The alignment a lane address needs, bytes (the access size rounded up to a power of
    /// two); any other address is undefined.
    pub fn align(self) -> u32 {
        if self.read_bits() == 64 {
            8
        } else {
            16
        }
    }

    /// Source lane id bits, low first (6 on wave64, 5 on wave32); see the module docs.
    fn bits(self) -> &'static [Bit] {
        match self {
            // block | k << 2 | t >> 2
            Transpose::ReadB64TrB16 => &[Id(2), Id(3), K(0), K(1), Id(4), Id(5)],
            // block | k << 1 | t >> 3
            Transpose::ReadB64TrB8 => &[Id(3), K(0), K(1), K(2), Id(4), Id(5)],
            // block | k
            Transpose::ReadB64TrB4 | Transpose::ReadB96TrB6 => {
                &[K(0), K(1), K(2), K(3), Id(4), Id(5)]
            }
            // group | k
            Transpose::LoadTr16B128 => &[K(0), K(1), K(2), Id(3), Id(4)],
            // runs of four: k[1:0], id[3], k[2], id[4]
            Transpose::LoadTr8B64 => &[K(0), K(1), Id(3), K(2), Id(4)],
            Transpose::LoadTr6B96 => &[K(0), K(1), Id(4), K(2), K(3)],
            Transpose::LoadTr4B64 => &[K(0), K(1), K(2), Id(4), K(3)],
        }
    }

    /// `(source lane, source element)` of element `k` of lane `lane`'s result (concrete ids).
    pub fn source(self, lane: u32, k: u32) -> (u32, u32) {
        let mut src = 0;
        for (b, bit) in self.bits().iter().enumerate() {
            let v = match *bit {
                Id(x) => lane >> x & 1,
                K(y) => k >> y & 1,
            };
            src |= v << b;
        }
        (src, lane & (self.elems() - 1))
    }

    /// [`Transpose::source`]'s lane on a symbolic 32-bit lane id.
    fn source_lane<D: Domain>(self, d: &mut D, id: &D::Bv, k: u32) -> D::Bv {
        let mut src = d.bv(0, 32);
        for (b, bit) in self.bits().iter().enumerate() {
            let v = match *bit {
                Id(x) => {
                    let sh = d.bv(x as u128, 32);
                    let one = d.bv(1, 32);
                    let s = d.op(BvOp::LShr, id, &sh);
                    let s = d.op(BvOp::And, &s, &one);
                    let to = d.bv(b as u128, 32);
                    d.op(BvOp::Shl, &s, &to)
                }
                K(y) => d.bv(((k >> y & 1) << b) as u128, 32),
            };
            src = d.op(BvOp::Or, &src, &v);
        }
        src
    }
}

/// The transpose `t` on some lanes of a wave: `l.data[j]` is present lane `j`'s own read
/// (`t.read_bits()` bits), `fill[i]` (as wide) the unconstrained value present lane `i` gets
/// in each element whose source lane is inactive or absent. Returns each present lane's
/// destination: active lanes the exchanged elements, inactive ones `l.old`.
pub fn transpose_lanes<D: Domain>(
    d: &mut D,
    l: &Lanes<D>,
    t: Transpose,
    fill: &[D::Bv],
) -> Vec<D::Bv> {
    let (w, n) = (t.elem_bits(), t.elems());
    let got: Vec<D::Bv> = (0..l.ids.len())
        .map(|i| {
            // Every source gives this lane its element id & (n - 1); an ite over the n
            // candidates (folds to one extract for a known id) rather than a variable shift.
            let mask = d.bv(n as u128 - 1, 32);
            let e = d.op(BvOp::And, &l.ids[i], &mask);
            let is: Vec<D::Bool> = (0..n)
                .map(|c| {
                    let cv = d.bv(c as u128, 32);
                    d.cmp(CmpOp::Eq, &e, &cv)
                })
                .collect();
            let mut out: Option<D::Bv> = None;
            for k in 0..n {
                let src = t.source_lane(d, &l.ids[i], k);
                let mut v = d.extract(&fill[i], k * w + w - 1, k * w);
                for j in 0..l.ids.len() {
                    let hit = d.cmp(CmpOp::Eq, &src, &l.ids[j]);
                    let hit = d.and(&hit, &l.active[j]);
                    if d.known(&hit) == Some(false) {
                        continue;
                    }
                    let mut elem = d.extract(&l.data[j], w - 1, 0);
                    for c in 1..n {
                        let x = d.extract(&l.data[j], c * w + w - 1, c * w);
                        elem = d.ite(&is[c as usize], &x, &elem);
                    }
                    v = d.ite(&hit, &elem, &v);
                }
                out = Some(match out {
                    None => v,
                    Some(lo) => d.concat(&v, &lo),
                });
            }
            out.expect("at least one element")
        })
        .collect();
    got.iter()
        .enumerate()
        .map(|(i, g)| d.ite(&l.active[i], g, &l.old[i]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Concrete;

    /// Run `t` concretely on a whole wave: lane j's read is `reads[j]`, no lane inactive.
    fn run(t: Transpose, reads: &[u128]) -> Vec<u128> {
        let mut d = Concrete;
        let width = t.read_bits();
        let ids: Vec<_> = (0..t.wave()).map(|i| d.bv(i as u128, 32)).collect();
        let data: Vec<_> = reads.iter().map(|r| d.bv(*r, width)).collect();
        let old: Vec<_> = (0..t.wave()).map(|_| d.bv(0, width)).collect();
        let active: Vec<_> = (0..t.wave()).map(|_| d.boolean(true)).collect();
        let l = Lanes {
            wave: t.wave(),
            ids: &ids,
            data: &data,
            old: &old,
            active: &active,
        };
        transpose_lanes(&mut d, &l, t, &old)
            .iter()
            .map(|v| v.value)
            .collect()
    }

    fn elem(v: u128, w: u32, e: u32) -> u32 {
        (v >> (e * w) & ((1 << w) - 1)) as u32
    }

    /// rocRoller's transpose-load test (TransposeLoadsTest.cpp, `executeTransposeLoad`),
    /// re-run on our function: LDS holds the MN x K tile row-major (element index = value),
    /// lane x reads at `trLoadIdx[x]` (two loads, the second `MN` reads further), and the
    /// test's expected-index formula must hold for every lane, register and element. Element
    /// values are narrower than the indices, so each trial stores a different slice of them.
    fn rocroller(t: Transpose, mn: u32, kk: u32) {
        for trial in 0..12u32.div_ceil(t.elem_bits()) {
            rocroller_trial(t, mn, kk, trial * t.elem_bits());
        }
    }

    fn rocroller_trial(t: Transpose, mn: u32, kk: u32, sh: u32) {
        let w = t.elem_bits();
        let bits = t.read_bits();
        let (nx1, ny0) = (mn / 16, bits / w);
        let (nx0, ny1) = (4 / nx1, 16 / ny0);
        let mut tr = vec![0u32; 64];
        for x0 in 0..nx0 {
            for x1 in 0..nx1 {
                for y0 in 0..ny0 {
                    for y1 in 0..ny1 {
                        tr[(nx1 * ny0 * ny1 * x0 + ny0 * ny1 * x1 + ny1 * y0 + y1) as usize] =
                            2 * nx1 * ny0 * ny1 * x0 + nx1 * ny1 * y0 + ny1 * x1 + y1;
                    }
                }
            }
        }
        // LDS slot s (8 bytes, or 16 with b6's padding) holds elements s * n .. s * n + n.
        let val = |f: u32| (f >> sh) & ((1 << w) - 1);
        let read = |s: u32| -> u128 {
            (0..t.elems()).fold(0u128, |acc, e| {
                acc | (val(s * t.elems() + e) as u128) << (e * w)
            })
        };
        let mut result = vec![0u32; 2 * 64 * t.elems() as usize];
        for q in 0..2 {
            let reads: Vec<u128> = (0..64).map(|x| read(tr[x] + q * mn)).collect();
            let out = run(t, &reads);
            for x in 0..64u32 {
                for k in 0..t.elems() {
                    // Where the test stores element k of lane x's load q.
                    let idx = if w == 6 {
                        q * 64 * 16 + 16 * x + k
                    } else {
                        let epd = 32 / w;
                        let (r, i) = (k / epd, k % epd);
                        ((2 * q + r) * 64 + x) * epd + i
                    };
                    result[idx as usize] = elem(out[x as usize], w, k);
                }
            }
        }
        let (ny0c, ny2) = if w == 6 { (2, 16) } else { (4, 32 / w) };
        let ny1c = kk / ny2 / ny0c;
        let nx0c = mn / 16;
        for y0 in 0..ny0c {
            for y1 in 0..ny1c {
                for x0 in 0..nx0c {
                    for x1 in 0..4 {
                        for x2 in 0..4 {
                            for y2 in 0..ny2 {
                                let f = y1 * ny0c * ny2 * nx0c * 16
                                    + y0 * ny2 * nx0c * 16
                                    + y2 * nx0c * 16
                                    + x0 * 16
                                    + x1 * 4
                                    + x2;
                                let g = y0 * ny1c * nx0c * ny2 * 16
                                    + y1 * nx0c * ny2 * 16
                                    + x0 * 16 * ny2
                                    + x1 * 4 * ny2
                                    + x2 * ny2
                                    + y2;
                                assert_eq!(
                                    result[g as usize],
                                    val(f),
                                    "{t:?} {mn}x{kk}: result {g} should hold element {f}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn gfx950_maps_pass_rocrollers_hardware_test() {
        rocroller(Transpose::ReadB64TrB16, 16, 32);
        rocroller(Transpose::ReadB64TrB16, 32, 16);
        rocroller(Transpose::ReadB64TrB8, 16, 64);
        rocroller(Transpose::ReadB64TrB8, 32, 32);
        rocroller(Transpose::ReadB96TrB6, 16, 128);
        rocroller(Transpose::ReadB96TrB6, 32, 64);
        rocroller(Transpose::ReadB64TrB4, 16, 128);
        rocroller(Transpose::ReadB64TrB4, 32, 64);
    }

    /// The gfx1250 HIP test `Gfx1250MemoryIsaTranspose.LdsLoadsProduceDocumentedWmmaCoordinates`
    /// re-run on our function: LDS holds a 16 x `columns` tile column-major (the element at
    /// index `16k + m` is coordinate (m, k), value `16k + m` sliced per trial), each lane
    /// reads at the test's address, and lane L must hold the test's expected coordinates.
    fn hip_test(t: Transpose, trial: u32) {
        let w = t.elem_bits();
        let val =
            |m: u32, k: u32| (16 * k + m).checked_shr(trial * w).unwrap_or(0) & ((1 << w) - 1);
        let reads: Vec<u128> = (0..32u32)
            .map(|lane| {
                let row_half = (lane >> 3) & 1;
                let column16 = (lane & 7) + 8 * (lane >> 4);
                let column6 = 4 * (lane >> 3) + (lane & 3) + 16 * ((lane >> 2) & 1);
                let byte = match t {
                    Transpose::LoadTr4B64 => lane * 8,
                    Transpose::LoadTr6B96 => column6 * 12,
                    Transpose::LoadTr8B64 => column16 * 16 + row_half * 8,
                    _ => column16 * 32 + row_half * 16,
                };
                let first = byte * 8 / w;
                (0..t.elems()).fold(0u128, |acc, e| {
                    let idx = first + e;
                    acc | (val(idx % 16, idx / 16) as u128) << (e * w)
                })
            })
            .collect();
        let out = run(t, &reads);
        for lane in 0..32u32 {
            let want: Vec<u32> = if t == Transpose::LoadTr4B64 {
                // expected_tr4: coordinate (m, k) goes to lane m + 16 k[3], slot k[2:0] + 8 k[4].
                let mut slots = vec![0; 16];
                for k in 0..32 {
                    if lane == lane % 16 + 16 * ((k >> 3) & 1) {
                        slots[((k & 7) + 8 * (k >> 4)) as usize] = val(lane % 16, k);
                    }
                }
                slots
            } else {
                // expected_row_major: lane L holds (L % 16, (L / 16) * n + i).
                let n = t.elems();
                (0..n)
                    .map(|i| val(lane % 16, (lane / 16) * n + i))
                    .collect()
            };
            let got: Vec<u32> = (0..t.elems())
                .map(|e| elem(out[lane as usize], w, e))
                .collect();
            assert_eq!(got, want, "{t:?} trial {trial} lane {lane}");
        }
    }

    #[test]
    fn gfx1250_tr4_tr6_tr16_pass_the_hip_test() {
        for trial in 0..3 {
            hip_test(Transpose::LoadTr4B64, trial);
            hip_test(Transpose::LoadTr6B96, trial);
            hip_test(Transpose::LoadTr16B128, trial);
        }
    }

    // ds_load_tr8_b64 follows the AMD MI450 LDS blog (Figure 1b, basis table): destination
    // lanes 0-7 read source lanes 0-3 and 8-11, destination lane 8 element 0 is source lane 4,
    // element 4 of lane 0 is source lane 8. The HIP test expects tr16's pattern instead.
    #[test]
    fn gfx1250_tr8_follows_the_blog_not_the_hip_test() {
        let t = Transpose::LoadTr8B64;
        let srcs: Vec<u32> = (0..8).map(|k| t.source(2, k).0).collect();
        assert_eq!(srcs, [0, 1, 2, 3, 8, 9, 10, 11]);
        assert_eq!(t.source(2, 5), (9, 2));
        assert_eq!(t.source(8, 0).0, 4);
        assert_eq!(t.source(0, 4).0, 8);
        assert_eq!(t.source(16, 0).0, 16);
        let hip = std::panic::catch_unwind(|| hip_test(t, 0));
        assert!(hip.is_err(), "the two sources disagree on tr8");
    }

    // Each source element goes to exactly one destination (lane, element): the exchange is a
    // permutation of the wave's elements, which is what makes one free fill per reader exact.
    #[test]
    fn every_exchange_is_a_permutation() {
        for t in Transpose::ALL {
            let mut seen = std::collections::BTreeSet::new();
            for lane in 0..t.wave() {
                for k in 0..t.elems() {
                    assert!(seen.insert(t.source(lane, k)), "{t:?} {lane} {k}");
                }
            }
            assert_eq!(seen.len() as u32, t.wave() * t.elems());
        }
    }
}
