//! [`Encoding::Forward`] against [`Encoding::Bytes`]: random programs of byte stores, loads and
//! merges on `ite` conditions, run in both encodings on the same input terms; z3 proves that
//! every load, and the final memory at a symbolic address, is the same byte in both for every
//! input (a broken pruning or substitution gives a satisfiable difference).

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use z3::{SatResult, Solver, Sort};

/// One program run in both encodings at once: `mems[0]` bytes, `mems[1]` forward.
struct Pair {
    mems: [Mem; 2],
    /// Pairs of loads that must be equal.
    loads: Vec<(BV, BV)>,
    /// Bytes both programs can store (inputs, and earlier loads of each encoding).
    bytes: Vec<[BV; 2]>,
    conds: Vec<Bool>,
    bases: Vec<BV>,
}

impl Pair {
    fn new(width: u32) -> Pair {
        let f = Rc::new(FuncDecl::new(
            "M",
            &[&Sort::bitvector(width)],
            &Sort::bitvector(8),
        ));
        let x = BV::new_const("x", 32);
        let y = BV::new_const("y", 32);
        let c = Bool::new_const("c");
        let ok = x.bvule(&y);
        let mut bytes: Vec<[BV; 2]> = (0..4)
            .map(|i| {
                let b = x.bvadd(&y).extract(8 * i + 7, 8 * i);
                [b.clone(), b]
            })
            .collect();
        // A byte that depends on a condition, so that merging on it substitutes.
        let dep = ok.ite(&x.extract(7, 0), &y.extract(7, 0));
        bytes.push([dep.clone(), dep]);
        let a = BV::new_const("a", width);
        let b = BV::new_const("b", width);
        Pair {
            mems: [
                Mem::new(Base::Uf(f.clone()), width, Encoding::Bytes),
                Mem::new(Base::Uf(f), width, Encoding::Forward),
            ],
            loads: Vec::new(),
            bytes,
            conds: vec![c, ok],
            bases: vec![a, b, BV::from_u64(0, width)],
        }
    }

    fn addr(&self, rng: &mut StdRng) -> BV {
        let w = self.bases[0].get_size();
        let base = &self.bases[rng.gen_range(0..self.bases.len())];
        // Offsets near 0 and near the top of the range (wraparound).
        let off = match rng.gen_range(0..6) {
            0 => u64::MAX,
            _ => rng.gen_range(0..5),
        };
        let off = if w >= 64 { off } else { off & ((1 << w) - 1) };
        base.bvadd(BV::from_u64(off, w))
    }

    /// `n` random steps on `mems` (stores and loads; merges when `depth` allows).
    fn steps(&mut self, rng: &mut StdRng, mems: [Mem; 2], n: usize, depth: u32) -> [Mem; 2] {
        let mut m = mems;
        for _ in 0..n {
            match rng.gen_range(0..10) {
                0..=4 => {
                    let a = self.addr(rng);
                    let i = rng.gen_range(0..self.bytes.len());
                    let cond = Bool::from_bool(true);
                    let [b0, b1] = self.bytes[i].clone();
                    m = [
                        m[0].push(cond.clone(), a.clone(), b0),
                        m[1].push(cond, a, b1),
                    ];
                }
                5..=7 => {
                    let a = self.addr(rng);
                    let (l0, l1) = (m[0].load(&a), m[1].load(&a));
                    self.loads.push((l0.clone(), l1.clone()));
                    self.bytes.push([l0, l1]);
                }
                _ if depth > 0 => {
                    let c = self.conds[rng.gen_range(0..self.conds.len())].clone();
                    let (nt, ne) = (rng.gen_range(1..4), rng.gen_range(0..3));
                    let t = self.steps(rng, m.clone(), nt, depth - 1);
                    let e = self.steps(rng, m.clone(), ne, depth - 1);
                    m = [merge(&c, &t[0], &e[0]), merge(&c, &t[1], &e[1])];
                }
                _ => {}
            }
        }
        m
    }
}

#[test]
fn forward_loads_equal_byte_level_loads() {
    let mut rng = StdRng::seed_from_u64(18);
    for round in 0..60 {
        let width = if round % 3 == 2 { 64 } else { 32 };
        let mut p = Pair::new(width);
        let start = p.mems.clone();
        let end = p.steps(&mut rng, start, 12, 2);
        let k = BV::new_const("k", width);
        let mut diffs = vec![end[0].load(&k).eq(end[1].load(&k)).not()];
        for (a, b) in &p.loads {
            diffs.push(a.eq(b).not());
        }
        let s = Solver::new();
        let refs: Vec<&Bool> = diffs.iter().collect();
        s.assert(Bool::or(&refs));
        assert_eq!(s.check(), SatResult::Unsat, "round {round}");
    }
}

/// The pruning happens: a chain of conditional stores to one address keeps one store, and a
/// load through a store to another offset of the same base does not test it.
#[test]
fn shadowed_and_distinct_stores_are_left_out() {
    let f = Rc::new(FuncDecl::new(
        "M",
        &[&Sort::bitvector(32)],
        &Sort::bitvector(8),
    ));
    let a = BV::new_const("a", 32);
    let c = Bool::new_const("c");
    let at = |o: u64| a.bvadd(BV::from_u64(o, 32));
    let mut m = Mem::new(Base::Uf(f), 32, Encoding::Forward);
    for i in 0..5u64 {
        let stored = m.push(Bool::from_bool(true), at(1), BV::from_u64(i, 8));
        m = merge(&c, &stored, &m);
    }
    assert_eq!(m.stores.as_ref().map(|s| s.depth), Some(1));
    let m = m.push(Bool::from_bool(true), at(2), BV::from_u64(9, 8));
    // Byte 1 is `c ? 4 : M(a + 1)`: the store at a + 2 is not in it.
    let guard = Bool::and(&[&c, &Bool::from_bool(true)]);
    let want = guard.ite(&BV::from_u64(4, 8), &m.base_byte(&at(1)));
    assert_eq!(m.load(&at(1)), want);
    // Byte 2 is the unconditional store alone.
    assert_eq!(m.load(&at(2)), BV::from_u64(9, 8));
}
