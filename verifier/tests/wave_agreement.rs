//! The cross-lane semantics (`gcnsmt_semantics::wave`) and the wave atomics' lane function
//! (DS and buffer atomics) give the same results on the interpreter and on the z3 encoding:
//! 1,000 random inputs per cross-lane op, 100 per atomic, under `GCNSMT_SLOW=1` (a quarter of
//! that by default), the z3 terms built from constants and simplified to numerals.

use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::interp::{Bits, Concrete};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::wave::*;
use gcnsmt_verifier::smt::Smt;
use gcnsmt_verifier::wave::concrete::Conc;
use gcnsmt_verifier::wave::lanes::{LaneData, Space};
use gcnsmt_verifier::wave::ops::all_atomics;
use rand::{Rng, SeedableRng};

/// Random inputs per cross-lane op: 1,000 in the slow tier, 250 by default.
fn runs() -> usize {
    gcnsmt_testkit::tiered(250, 1000)
}

fn vals(r: &mut impl Rng, n: usize) -> Vec<u32> {
    (0..n).map(|_| r.gen()).collect()
}

fn conc(v: &[u32]) -> Vec<Bits> {
    v.iter()
        .map(|x| Bits {
            value: *x as u128,
            width: 32,
        })
        .collect()
}

fn sym(s: &mut Smt, v: &[u32]) -> Vec<gcnsmt_verifier::smt::Term> {
    v.iter().map(|x| s.bv(*x as u128, 32)).collect()
}

fn ground(v: &[gcnsmt_verifier::smt::Term]) -> Vec<u128> {
    v.iter().map(|t| Smt::ground(t).expect("ground")).collect()
}

fn values(v: &[Bits]) -> Vec<u128> {
    v.iter().map(|b| b.value).collect()
}

#[test]
fn swizzle_permute_append_agree() {
    let mut r = rand::rngs::StdRng::seed_from_u64(5);
    for run in 0..runs() {
        let (data, old) = (vals(&mut r, 64), vals(&mut r, 64));
        let exec: u64 = r.gen();
        let off: u16 = r.gen();
        let g9 = r.gen::<bool>();
        let (cd, co) = (conc(&data), conc(&old));
        let cw = Wave {
            data: &cd,
            old: &co,
            exec,
        };
        let c = swizzle(&mut Concrete, &cw, off, g9);
        let mut s = Smt;
        let (d, o) = (sym(&mut s, &data), sym(&mut s, &old));
        let z = swizzle(
            &mut s,
            &Wave {
                data: &d,
                old: &o,
                exec,
            },
            off,
            g9,
        );
        assert_eq!(values(&c), ground(&z), "swizzle run {run}");

        // Permutes on wave32 (the z3 side builds lanes x lanes ite chains).
        let n = 32;
        let (data, old) = (vals(&mut r, n), vals(&mut r, n));
        let addr: Vec<u32> = (0..n).map(|_| r.gen::<u32>() & 0x1ff).collect();
        let exec: u64 = r.gen::<u64>() & 0xffff_ffff;
        let off: u16 = r.gen::<u16>() & 0xff;
        let wrap = [
            PermuteWrap::Lanes64,
            PermuteWrap::Lanes32,
            PermuteWrap::WaveSize,
        ][run % 3];
        let (ca, cd, co) = (conc(&addr), conc(&data), conc(&old));
        let mut s = Smt;
        let (za, zd, zo) = (sym(&mut s, &addr), sym(&mut s, &data), sym(&mut s, &old));
        let (cw, zw) = (
            Wave {
                data: &cd,
                old: &co,
                exec,
            },
            Wave {
                data: &zd,
                old: &zo,
                exec,
            },
        );
        let (cat, zat) = (
            LaneIndex {
                addr: &ca,
                offset: off,
                wrap,
            },
            LaneIndex {
                addr: &za,
                offset: off,
                wrap,
            },
        );
        let c = bpermute(&mut Concrete, &cw, &cat);
        let z = bpermute(&mut s, &zw, &zat);
        assert_eq!(values(&c), ground(&z), "bpermute run {run}");
        let c = permute(&mut Concrete, &cw, &cat);
        let z = permute(&mut s, &zw, &zat);
        assert_eq!(values(&c), ground(&z), "permute run {run}");
        let c = bpermute_fi(&mut Concrete, &cw, &cat);
        let z = bpermute_fi(&mut s, &zw, &zat);
        assert_eq!(values(&c), ground(&z), "bpermute_fi run {run}");

        let counter: u32 = r.gen();
        let add = r.gen::<bool>();
        let exec: u64 = r.gen();
        let (cn, cr) = append_consume(&mut Concrete, &conc(&[counter])[0], exec, add);
        let zc = sym(&mut s, &[counter]);
        let (zn, zr) = append_consume(&mut s, &zc[0], exec, add);
        assert_eq!(
            (cn.value, cr.value),
            (Smt::ground(&zn).unwrap(), Smt::ground(&zr).unwrap()),
            "append/consume run {run}"
        );
    }
}

#[test]
fn atomic_lane_function_agrees() {
    let mut r = rand::rngs::StdRng::seed_from_u64(6);
    let ops = all_atomics(&Target::ALL);
    assert!(ops
        .iter()
        .any(|o| matches!(o.space, Space::Buffer { pair: true, .. })));
    for op in &ops {
        let c = Conc::new(op);
        let lane = op.lane();
        for _ in 0..runs() / 10 {
            let mask = |w: u32| {
                if w >= 128 {
                    u128::MAX
                } else {
                    (1u128 << w) - 1
                }
            };
            let m = r.gen::<u128>() & mask(op.width);
            let d0 = r.gen::<u128>() & mask(op.data0.max(32));
            let d1 = r.gen::<u128>() & mask(op.data1.max(32));
            let (cn, cr) = c.f(m, d0, d1).unwrap();
            let mut s = Smt;
            let base = match op.space {
                Space::Lds => s.mem("lds"),
                Space::Buffer { .. } => s.mem_wide("global", 64),
            };
            let data = LaneData {
                data0: s.bv(d0, op.data0.max(32)),
                data1: s.bv(d1, op.data1.max(32)),
            };
            let mt = s.bv(m, op.width);
            let (zn, zr) = lane.apply(&mut s, &base, &mt, &data).unwrap();
            assert_eq!(
                (cn, cr),
                (Smt::ground(&zn).unwrap(), Smt::ground(&zr).unwrap()),
                "{} m={m:#x} d0={d0:#x} d1={d1:#x}",
                op.mnemonic
            );
        }
    }
}

/// The `*_lanes` forms `verify --lanes` uses, given every lane of the wave (ids 0..n as solver
/// terms, EXEC bits built as terms: bit i of a 64-bit term compared with 1), agree with the
/// whole-wave interpreter forms.
#[test]
fn lane_forms_agree_with_whole_wave_forms() {
    use gcnsmt_semantics::domain::CmpOp;
    let mut r = rand::rngs::StdRng::seed_from_u64(7);
    let bits = |s: &mut Smt, exec: u64, n: usize| {
        let e = s.bv(exec as u128, 64);
        let one = s.bv(1, 1);
        (0..n as u32)
            .map(|i| {
                let b = s.extract(&e, i, i);
                s.cmp(CmpOp::Eq, &b, &one)
            })
            .collect::<Vec<_>>()
    };
    for run in 0..runs() / 20 {
        let n = if run % 2 == 0 { 32 } else { 64 };
        let (data, old) = (vals(&mut r, n), vals(&mut r, n));
        let addr: Vec<u32> = (0..n).map(|_| r.gen::<u32>() & 0x1ff).collect();
        let exec: u64 = r.gen();
        let off: u16 = r.gen();
        let g9 = r.gen::<bool>();
        let mut s = Smt;
        let act = bits(&mut s, exec, n);
        let ids: Vec<_> = (0..n).map(|i| s.bv(i as u128, 32)).collect();
        let (za, zd, zo) = (sym(&mut s, &addr), sym(&mut s, &data), sym(&mut s, &old));
        let (ca, cd, co) = (conc(&addr), conc(&data), conc(&old));
        let w = n as u32;
        let cw = Wave {
            data: &cd,
            old: &co,
            exec,
        };
        let zl = Lanes {
            wave: w,
            ids: &ids,
            data: &zd,
            old: &zo,
            active: &act,
        };
        let c = swizzle(&mut Concrete, &cw, off, g9);
        let z = swizzle_lanes(&mut s, &zl, off, g9);
        assert_eq!(values(&c), ground(&z), "swizzle_lanes run {run}");
        let off8 = off & 0xff;
        let wrap = [
            PermuteWrap::Lanes64,
            PermuteWrap::Lanes32,
            PermuteWrap::WaveSize,
        ][run % 3];
        let cat = LaneIndex {
            addr: &ca,
            offset: off8,
            wrap,
        };
        let zat = LaneIndex {
            addr: &za,
            offset: off8,
            wrap,
        };
        let c = bpermute(&mut Concrete, &cw, &cat);
        let z = bpermute_lanes(&mut s, &zl, &zat);
        assert_eq!(values(&c), ground(&z), "bpermute_lanes run {run}");
        let c = permute(&mut Concrete, &cw, &cat);
        let z = permute_lanes(&mut s, &zl, &zat);
        assert_eq!(values(&c), ground(&z), "permute_lanes run {run}");
    }
}

/// Given only some lanes of a wave, the `*_lanes` forms equal the whole-wave forms with every
/// other lane inactive (the interpreter on both sides).
#[test]
fn lane_forms_on_a_subset_equal_the_wave_with_the_rest_inactive() {
    let mut r = rand::rngs::StdRng::seed_from_u64(8);
    for run in 0..runs() / 4 {
        let n = 64usize;
        let (data, old) = (vals(&mut r, n), vals(&mut r, n));
        let addr: Vec<u32> = (0..n).map(|_| r.gen::<u32>() & 0x1ff).collect();
        let present: u64 = r.gen::<u64>() & r.gen::<u64>() & r.gen::<u64>();
        let exec: u64 = r.gen::<u64>() & present;
        let off: u16 = r.gen();
        let ids: Vec<usize> = (0..n).filter(|i| present >> i & 1 == 1).collect();
        let mut c = Concrete;
        let pick = |v: &[u32]| conc(&ids.iter().map(|i| v[*i]).collect::<Vec<_>>());
        let cid: Vec<Bits> = ids
            .iter()
            .map(|i| Bits {
                value: *i as u128,
                width: 32,
            })
            .collect();
        let act: Vec<bool> = ids.iter().map(|i| exec >> i & 1 == 1).collect();
        let (cdata, cold, caddr) = (conc(&data), conc(&old), conc(&addr));
        let whole = Wave {
            data: &cdata,
            old: &cold,
            exec,
        };
        let (pdata, pold, paddr) = (pick(&data), pick(&old), pick(&addr));
        let some_lanes = Lanes {
            wave: 64,
            ids: &cid,
            data: &pdata,
            old: &pold,
            active: &act,
        };
        let full = swizzle(&mut c, &whole, off, true);
        let some = swizzle_lanes(&mut c, &some_lanes, off, true);
        let want: Vec<u128> = ids.iter().map(|i| full[*i].value).collect();
        assert_eq!(want, values(&some), "swizzle run {run}");
        let off8 = off & 0xff;
        let wrap = PermuteWrap::Lanes64;
        let at_all = LaneIndex {
            addr: &caddr,
            offset: off8,
            wrap,
        };
        let at_some = LaneIndex {
            addr: &paddr,
            offset: off8,
            wrap,
        };
        let full = bpermute(&mut c, &whole, &at_all);
        let some = bpermute_lanes(&mut c, &some_lanes, &at_some);
        let want: Vec<u128> = ids.iter().map(|i| full[*i].value).collect();
        assert_eq!(want, values(&some), "bpermute run {run}");
        let full = permute(&mut c, &whole, &at_all);
        let some = permute_lanes(&mut c, &some_lanes, &at_some);
        let want: Vec<u128> = ids.iter().map(|i| full[*i].value).collect();
        assert_eq!(want, values(&some), "permute run {run}");
    }
}

/// `bpermute_fi_lanes` (the form `verify --lanes N` runs) on 1-4 present lanes of a wave32,
/// with the absent-lane fetches, on both domains.
#[test]
fn bpermute_fi_lanes_agree() {
    let mut r = rand::rngs::StdRng::seed_from_u64(7);
    for run in 0..runs() {
        let n = 1 + run % 4;
        let mut ids: Vec<u32> = (0..32).collect();
        rand::seq::SliceRandom::shuffle(&mut ids[..], &mut r);
        let mut ids = ids[..n].to_vec();
        ids.sort();
        // Small addresses so readers often hit present lanes and each other's sources.
        let addr: Vec<u32> = (0..n).map(|_| (r.gen::<u32>() % 8) * 4).collect();
        let (data, old, absent) = (vals(&mut r, n), vals(&mut r, n), vals(&mut r, n));
        let act: Vec<bool> = (0..n).map(|_| r.gen()).collect();
        let off: u16 = r.gen::<u16>() & 0xf;
        let c = {
            let (ci, ca, cd, co, cx) = (
                conc(&ids),
                conc(&addr),
                conc(&data),
                conc(&old),
                conc(&absent),
            );
            let l = Lanes {
                wave: 32,
                ids: &ci,
                data: &cd,
                old: &co,
                active: &act,
            };
            let at = LaneIndex {
                addr: &ca,
                offset: off,
                wrap: PermuteWrap::WaveSize,
            };
            values(&bpermute_fi_lanes(&mut Concrete, &l, &at, &cx))
        };
        let mut s = Smt;
        let (zi, za, zd, zo, zx) = (
            sym(&mut s, &ids),
            sym(&mut s, &addr),
            sym(&mut s, &data),
            sym(&mut s, &old),
            sym(&mut s, &absent),
        );
        let zact: Vec<_> = act.iter().map(|b| s.boolean(*b)).collect();
        let l = Lanes {
            wave: 32,
            ids: &zi,
            data: &zd,
            old: &zo,
            active: &zact,
        };
        let at = LaneIndex {
            addr: &za,
            offset: off,
            wrap: PermuteWrap::WaveSize,
        };
        let z = bpermute_fi_lanes(&mut s, &l, &at, &zx);
        assert_eq!(c, ground(&z), "bpermute_fi_lanes run {run}");
    }
}

/// The transpose loads (`gcnsmt_semantics::transpose::transpose_lanes`, the function `verify
/// --lanes` and `lift` run): on 1-6 present lanes of a wave (random increasing ids, EXEC bits,
/// reads, fills) the interpreter and the z3 encoding agree, 50 inputs per op; and the present
/// lanes get what the whole wave gives them when every other lane is inactive.
#[test]
fn transpose_lanes_agree() {
    use gcnsmt_semantics::transpose::{transpose_lanes, Transpose};
    let mut r = rand::rngs::StdRng::seed_from_u64(8);
    for t in Transpose::ALL {
        let (n, w) = (t.wave(), t.read_bits());
        let mask = if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        let bits = |v: u128| Bits {
            value: v & mask,
            width: w,
        };
        for run in 0..50 {
            // Ids near each other so present lanes often read each other.
            let k = r.gen_range(1..=6usize);
            let base = r.gen_range(0..n - 16);
            let mut ids: Vec<u32> = (0..k).map(|_| base + r.gen_range(0..16)).collect();
            ids.sort();
            ids.dedup();
            let k = ids.len();
            let reads: Vec<u128> = (0..k).map(|_| r.gen::<u128>() & mask).collect();
            let fill: Vec<u128> = (0..k).map(|_| r.gen::<u128>() & mask).collect();
            let old: Vec<u128> = (0..k).map(|_| r.gen::<u128>() & mask).collect();
            let on: Vec<bool> = (0..k).map(|_| r.gen_ratio(4, 5)).collect();
            let cid: Vec<Bits> = conc(&ids);
            let (cr, cf, co): (Vec<Bits>, Vec<Bits>, Vec<Bits>) = (
                reads.iter().map(|v| bits(*v)).collect(),
                fill.iter().map(|v| bits(*v)).collect(),
                old.iter().map(|v| bits(*v)).collect(),
            );
            let cl = Lanes {
                wave: n,
                ids: &cid,
                data: &cr,
                old: &co,
                active: &on,
            };
            let c = values(&transpose_lanes(&mut Concrete, &cl, t, &cf));
            let mut s = Smt;
            let zid = sym(&mut s, &ids);
            let zv = |s: &mut Smt, v: &[u128]| v.iter().map(|x| s.bv(*x, w)).collect::<Vec<_>>();
            let (zr, zf, zo) = (zv(&mut s, &reads), zv(&mut s, &fill), zv(&mut s, &old));
            let zon: Vec<_> = on.iter().map(|b| s.boolean(*b)).collect();
            let zl = Lanes {
                wave: n,
                ids: &zid,
                data: &zr,
                old: &zo,
                active: &zon,
            };
            let z = transpose_lanes(&mut s, &zl, t, &zf);
            assert_eq!(c, ground(&z), "{t:?} run {run}");

            // The whole wave, the absent lanes inactive: the present lanes' results match.
            let mut wr = vec![0u128; n as usize];
            let mut wf = wr.clone();
            let mut wo = wr.clone();
            let mut won = vec![false; n as usize];
            for (i, id) in ids.iter().enumerate() {
                let id = *id as usize;
                (wr[id], wf[id], wo[id], won[id]) = (reads[i], fill[i], old[i], on[i]);
            }
            let all: Vec<u32> = (0..n).collect();
            let (wid, wr, wf, wo): (Vec<Bits>, Vec<Bits>, Vec<Bits>, Vec<Bits>) = (
                conc(&all),
                wr.iter().map(|v| bits(*v)).collect(),
                wf.iter().map(|v| bits(*v)).collect(),
                wo.iter().map(|v| bits(*v)).collect(),
            );
            let wl = Lanes {
                wave: n,
                ids: &wid,
                data: &wr,
                old: &wo,
                active: &won,
            };
            let whole = values(&transpose_lanes(&mut Concrete, &wl, t, &wf));
            let picked: Vec<u128> = ids.iter().map(|id| whole[*id as usize]).collect();
            assert_eq!(
                c, picked,
                "{t:?} run {run}: present lanes vs the whole wave"
            );
        }
    }
}
