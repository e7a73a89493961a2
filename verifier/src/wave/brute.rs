//! Brute-force cross-check of the lemma-based verdicts on the concrete interpreter: every
//! EXEC mask of a 4-lane group, every order of its active lanes, and data and memory values
//! drawn from edge values and a fixed-seed generator. A proved verdict that a run contradicts
//! is counted as a mismatch (and must never happen).

use super::analyze::{dpp_schedules, uniform_rewrite, OpReport};
use super::concrete::{permutations, Conc};
use super::lanes::active;
use super::ops::Power;
use super::optimizer::Strategy;
use super::Verdict;

/// Counts of one op's cross-check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BruteCounts {
    /// Serializations run (one per order per mask per sample).
    pub orders: u64,
    /// Optimizer rewrites run and compared with the lane-order serialization.
    pub rewrites: u64,
    /// Runs that contradict a proved verdict.
    pub mismatches: u64,
    /// Runs that showed a refuted verdict's failure again (order dependence, or a rewrite
    /// matching no order).
    pub refutations_seen: u64,
    /// The first mismatch, for the report.
    pub first_mismatch: Option<String>,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: reproducible runs without a dependency for three lines.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn pick(r: &mut Rng, edges: &[u128], w: u32) -> u128 {
    let x = r.next();
    if x.is_multiple_of(3) {
        edges[(x >> 8) as usize % edges.len()]
    } else {
        let v = (r.next() as u128) << 64 | r.next() as u128;
        if w >= 128 {
            v
        } else {
            v & ((1u128 << w) - 1)
        }
    }
}

/// Cross-check one op's verdicts with `samples` random value sets per EXEC mask of 4 lanes.
///
/// Errors: a semantics entry that fails to evaluate.
pub fn cross_check(rep: &OpReport, samples: u32) -> Result<BruteCounts, String> {
    let op = &rep.op;
    let c = Conc::new(op);
    let mut k = BruteCounts::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ op.mnemonic.len() as u64);
    let edges = super::analyze::edge_values_pub(op);
    let proved = |v: &Verdict| matches!(v, Verdict::Proved(_));
    let refuted = |v: &Verdict| matches!(v, Verdict::Refuted(_));
    let mut strategies = vec![(Strategy::Iterative, 64)];
    strategies.extend(dpp_schedules(op));
    let note = |k: &mut BruteCounts, what: String| {
        k.mismatches += 1;
        if k.first_mismatch.is_none() {
            k.first_mismatch = Some(what);
        }
    };
    for exec in 1..16u64 {
        let act = active(exec, 4);
        let orders = permutations(&act);
        for _ in 0..samples {
            let m = pick(&mut rng, &edges, op.width);
            let uniform = rng.next().is_multiple_of(4);
            let d0 = pick(&mut rng, &edges, op.data0.max(32));
            let d1 = pick(&mut rng, &edges, op.data1.max(32));
            let data: Vec<(u128, u128)> = (0..4)
                .map(|_| {
                    if uniform {
                        (d0, d1)
                    } else {
                        (
                            pick(&mut rng, &edges, op.data0.max(32)),
                            pick(&mut rng, &edges, op.data1.max(32)),
                        )
                    }
                })
                .collect();
            let runs: Vec<_> = orders
                .iter()
                .map(|o| c.serialize(m, &data, o))
                .collect::<Result<_, _>>()?;
            k.orders += runs.len() as u64;
            let independent = runs.iter().all(|r| c.same_value(r.mem, runs[0].mem));
            let v = if uniform {
                &rep.mem_uniform
            } else {
                &rep.mem_lanes
            };
            if proved(v) && !independent {
                note(
                    &mut k,
                    format!(
                        "{}: order dependence at exec {exec:#x}, m {m:#x}, data {data:x?}",
                        op.mnemonic
                    ),
                );
            }
            if refuted(v) && !independent {
                k.refutations_seen += 1;
            }
            let Some(spec) = &op.opt else { continue };
            // ret-scan: the k-th lane of each order returns f with the fold of those before.
            if proved(&rep.ret_scan) {
                for (o, r) in orders.iter().zip(&runs) {
                    let mut acc = spec.identity;
                    for &l in o {
                        let want = c.f(m, acc, 0)?.0;
                        let got = r.rets[l].expect("lane in the order returns");
                        if !c.same_value(want, got) {
                            note(
                                &mut k,
                                format!(
                                    "{}: ret-scan at order {o:?}, m {m:#x}, data {data:x?}",
                                    op.mnemonic
                                ),
                            );
                        }
                        acc = c.combine(acc, data[l].0)?;
                    }
                }
            }
            let lane_order = &runs[0];
            let lane_order_ok = orders[0] == act;
            debug_assert!(
                lane_order_ok,
                "Heap's algorithm starts with the identity order"
            );
            for &(s, n) in &strategies {
                let v = if s == Strategy::Iterative {
                    &rep.opt_iter
                } else {
                    &rep.opt_dpp
                };
                let mut d: Vec<u128> = data.iter().map(|x| x.0).collect();
                d.resize(n as usize, 0);
                let mut got = c.optimized(s, n, exec, m, &d)?;
                got.rets.truncate(4);
                k.rewrites += 1;
                let same = c.same(&got, lane_order);
                if proved(v) && !same {
                    note(
                        &mut k,
                        format!(
                            "{}: {} wave{n} differs at exec {exec:#x}, m {m:#x}, data {data:x?}",
                            op.mnemonic,
                            s.name()
                        ),
                    );
                }
                if refuted(v) && !runs.iter().any(|r| c.same(&got, r)) {
                    k.refutations_seen += 1;
                }
            }
            if uniform && (spec.power != Power::FMul || !proved(&rep.opt_uniform)) {
                let n = act.len() as u32;
                let got = uniform_rewrite(&c, d0, n, m)?;
                // The uniform form numbers lanes by their rank among the active ones.
                let mut want = lane_order.clone();
                want.rets = want.rets.into_iter().flatten().map(Some).collect();
                k.rewrites += 1;
                let same = c.same(&got, &want);
                if proved(&rep.opt_uniform) && !same {
                    note(
                        &mut k,
                        format!(
                            "{}: uniform form differs at n {n}, m {m:#x}, d {d0:#x}",
                            op.mnemonic
                        ),
                    );
                }
                if refuted(&rep.opt_uniform) && !same {
                    k.refutations_seen += 1;
                }
            }
        }
    }
    Ok(k)
}
