//! One op on the concrete interpreter: the lane function, the combine operator and whole-wave
//! runs (serializations and the optimizer's rewrite), for counterexample replay and the
//! brute-force cross-check.

use super::lanes::{LaneData, Space};
use super::ops::AtomicOp;
use super::optimizer::{self, Strategy};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};

/// The result of one wave-wide run: final memory value and each lane's returned value
/// (`None` for inactive lanes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveResult {
    /// The memory value at the shared address after the wave (the op's width in bits).
    pub mem: u128,
    /// Each lane's returned value (RETURN_DATA), indexed by lane; `None` for an inactive lane.
    pub rets: Vec<Option<u128>>,
}

/// An op on concrete values.
pub struct Conc<'a> {
    /// The op.
    pub op: &'a AtomicOp,
    base: CMem,
}

impl<'a> Conc<'a> {
    /// The op's concrete runner, over a zeroed memory (32-bit addresses for LDS, 64-bit for
    /// global memory).
    pub fn new(op: &'a AtomicOp) -> Conc<'a> {
        // The bytes around the shared value are never read; LDS has 32-bit addresses, global
        // memory 64-bit ones.
        let base = match op.space {
            Space::Lds => CMem::new(|_| 0),
            Space::Buffer { .. } => CMem::new_wide(|_| 0),
        };
        Conc { op, base }
    }

    fn bits(&self, v: u128, w: u32) -> Bits {
        let m = if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        Bits {
            value: v & m,
            width: w,
        }
    }

    /// `f_d(m)`: new memory value and returned value.
    pub fn f(&self, m: u128, d0: u128, d1: u128) -> Result<(u128, u128), String> {
        let lane = self.op.lane();
        let data = LaneData {
            data0: self.bits(d0, self.op.data0.max(32)),
            data1: self.bits(d1, self.op.data1.max(32)),
        };
        let (n, r) = lane.apply(
            &mut Concrete,
            &self.base,
            &self.bits(m, self.op.width),
            &data,
        )?;
        Ok((n.value, r.value))
    }

    /// `x (+) y` with the optimizer's combine entry.
    pub fn combine(&self, x: u128, y: u128) -> Result<u128, String> {
        let lane = self.op.combine_lane()?;
        let data = LaneData {
            data0: self.bits(y, self.op.width),
            data1: self.bits(0, 32),
        };
        Ok(lane
            .apply(
                &mut Concrete,
                &self.base,
                &self.bits(x, self.op.width),
                &data,
            )?
            .0
            .value)
    }

    /// Serialize the lanes in `order` (each lane's data is `(data0, data1)`).
    pub fn serialize(
        &self,
        m: u128,
        data: &[(u128, u128)],
        order: &[usize],
    ) -> Result<WaveResult, String> {
        let mut cur = m;
        let mut rets = vec![None; data.len()];
        for &l in order {
            let (n, r) = self.f(cur, data[l].0, data[l].1)?;
            rets[l] = Some(r);
            cur = n;
        }
        Ok(WaveResult { mem: cur, rets })
    }

    /// The AtomicOptimizer's rewrite on a wave of `lanes` lanes: reduce with the schedule, one
    /// atomic with the reduction (its old value is broadcast), each active lane's return rebuilt
    /// as `f_{scan}(old)`. `data` holds DATA0 per lane (`lanes` values).
    pub fn optimized(
        &self,
        strategy: Strategy,
        lanes: u32,
        exec: u64,
        m: u128,
        data: &[u128],
    ) -> Result<WaveResult, String> {
        let spec = self.op.opt.as_ref().ok_or("no optimizer spec")?;
        let s = optimizer::run(strategy, lanes, exec, data, &spec.identity, &mut |x, y| {
            self.combine(*x, *y)
        })?;
        if exec & mask(lanes) == 0 {
            return Ok(WaveResult {
                mem: m,
                rets: vec![None; lanes as usize],
            });
        }
        let (mem, old) = self.f(m, s.reduction, 0)?;
        let mut rets = vec![None; lanes as usize];
        for (i, r) in rets.iter_mut().enumerate() {
            if exec >> i & 1 == 1 {
                *r = Some(self.f(old, s.exclusive[i], 0)?.0);
            }
        }
        Ok(WaveResult { mem, rets })
    }

    /// Whether two results are the same data: equal, or for floating-point ops both NaN where
    /// they differ.
    pub fn same(&self, a: &WaveResult, b: &WaveResult) -> bool {
        self.same_value(a.mem, b.mem)
            && a.rets.len() == b.rets.len()
            && a.rets.iter().zip(&b.rets).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => self.same_value(*x, *y),
                (None, None) => true,
                _ => false,
            })
    }

    /// Whether two memory values or returns are equal as the op's data: equal bits, or for a
    /// floating-point op both NaN (IEEE 754 does not fix which NaN an operation returns).
    pub fn same_value(&self, a: u128, b: u128) -> bool {
        a == b
            || self.op.fp.is_some_and(|fmt| {
                let w = fmt.width();
                let e = fmt.ebits();
                let nan = |x: u128| {
                    (x >> (w - 1 - e)) & ((1 << e) - 1) == (1 << e) - 1
                        && x & ((1u128 << (w - 1 - e)) - 1) != 0
                };
                nan(a) && nan(b)
            })
    }
}

/// Low `lanes` bits set.
pub fn mask(lanes: u32) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    }
}

/// Every order of `items` (Heap's algorithm), for the brute force over small lane counts.
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut a = items.to_vec();
    let n = a.len();
    let mut c = vec![0usize; n];
    out.push(a.clone());
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            out.push(a.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}
