//! The verdicts for one op: which lemmas hold, what that proves, and a replayed concrete
//! counterexample for what it does not.

use super::concrete::{mask, permutations, Conc, WaveResult};
use super::lemmas::{Lemma, Lemmas, Outcome};
use super::ops::{AtomicOp, Power};
use super::optimizer::{check_schedule, Needs, Strategy};
use super::{Verdict, Witness};
use gcnsmt_semantics::domain::FpOp;
use gcnsmt_semantics::interp::fp_concrete;
use gcnsmt_semantics::target::Gen;
use gcnsmt_semantics::ty::FpFmt;
use std::time::{Duration, Instant};

/// Every verdict for one op.
#[derive(Clone, Debug)]
pub struct OpReport {
    /// The atomic analysed.
    pub op: AtomicOp,
    /// The lemmas z3 decided for it, in the order they were asked.
    pub lemmas: Vec<Lemma>,
    /// Final memory independent of the order, every lane with the same data.
    pub mem_uniform: Verdict,
    /// Final memory independent of the order, per-lane data.
    pub mem_lanes: Verdict,
    /// Each lane's return is the exclusive scan (with the optimizer's operator) in the order.
    pub ret_scan: Verdict,
    /// The optimizer's iterative rewrite under strict semantics (IEEE for floats).
    pub opt_iter: Verdict,
    /// The optimizer's DPP rewrite under strict semantics, on every wave size of the targets.
    pub opt_dpp: Verdict,
    /// The uniform-data form (multiply by popcount, parity, or the value itself).
    pub opt_uniform: Verdict,
    /// Floating-point ops only: the rewrite if reassociation is allowed.
    pub opt_reassoc: Verdict,
    /// Time of the lemmas behind the optimizer verdicts (all lane counts up to 64) and of the
    /// commutation lemma.
    pub opt_proof_time: Duration,
    /// Time of the commutation lemma alone.
    pub commute_time: Duration,
}

/// The DPP schedules (and wave sizes) that apply on the op's targets: gfx8/gfx9/CDNA wave64 with
/// row broadcasts; gfx10+ wave32 and wave64 with permlanex16. gfx6/gfx7 have no DPP.
pub fn dpp_schedules(op: &AtomicOp) -> Vec<(Strategy, u32)> {
    let mut out = Vec::new();
    if op
        .targets
        .iter()
        .any(|t| matches!(t.gen(), Gen::Gfx8 | Gen::Gfx9 | Gen::Gfx90a))
    {
        out.push((Strategy::DppGfx9, 64));
    }
    if op.targets.iter().any(|t| t.gen() >= Gen::Gfx10) {
        out.push((Strategy::DppGfx10, 32));
        out.push((Strategy::DppGfx10, 64));
    }
    out
}

/// The wave sizes of the op's targets.
pub fn wave_sizes(op: &AtomicOp) -> Vec<u32> {
    let mut w = vec![64];
    if op.targets.iter().any(|t| t.gen() >= Gen::Gfx10) {
        w.insert(0, 32);
    }
    w
}

fn holds(l: &Option<Lemma>) -> bool {
    matches!(
        l,
        Some(Lemma {
            outcome: Outcome::Holds,
            ..
        })
    )
}

fn unknown_of(ls: &[&Option<Lemma>]) -> Option<String> {
    ls.iter().find_map(|l| match l {
        Some(Lemma {
            name,
            outcome: Outcome::Unknown(r),
            ..
        }) => Some(format!("lemma {name}: {r}")),
        _ => None,
    })
}

fn failed<'l>(ls: &[&'l Option<Lemma>]) -> Vec<&'l Lemma> {
    ls.iter()
        .filter_map(|l| match l {
            Some(
                x @ Lemma {
                    outcome: Outcome::Fails(_),
                    ..
                },
            ) => Some(x),
            _ => None,
        })
        .collect()
}

/// Edge values of the op's memory type (for the brute-force cross-check).
pub fn edge_values_pub(op: &AtomicOp) -> Vec<u128> {
    edge_values(op)
}

/// Edge values of the op's memory type, for counterexample search.
fn edge_values(op: &AtomicOp) -> Vec<u128> {
    match op.fp {
        Some(FpFmt::F32) => vec![
            0x0000_0000,
            0x8000_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7149_f2ca,
            0xf149_f2ca,
            0x4b80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
        ],
        Some(_) => vec![
            0,
            0x8000_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0xbff0_0000_0000_0000,
            0x4629_3e59_39a0_8cea,
            0xc629_3e59_39a0_8cea,
            0x4340_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
        ],
        None => {
            let top = 1u128 << (op.width - 1);
            vec![0, 1, 2, top - 1, top, (top << 1) - 1]
        }
    }
}

fn model_values(ls: &[&Lemma]) -> Vec<u128> {
    let mut v = Vec::new();
    for l in ls {
        if let Outcome::Fails(m) = &l.outcome {
            for (_, x) in m {
                if !v.contains(x) {
                    v.push(*x);
                }
            }
        }
    }
    v
}

/// Whether `got` equals the result of some serialization order of the active lanes.
fn matches_some_order(
    c: &Conc,
    got: &WaveResult,
    m: u128,
    data: &[(u128, u128)],
    active: &[usize],
) -> Result<bool, String> {
    for order in permutations(active) {
        if c.same(&c.serialize(m, data, &order)?, got) {
            return Ok(true);
        }
    }
    Ok(false)
}

fn fmt_hex(v: u128, w: u32) -> String {
    format!("{:#0width$x}", v, width = (w / 4) as usize + 2)
}

/// The values a search tries: up to six `seeds` (from the failing lemmas' models), then the
/// type's edge values not among them.
fn value_pool(op: &AtomicOp, seeds: &[u128]) -> Vec<u128> {
    let mut pool: Vec<u128> = seeds.iter().copied().take(6).collect();
    for v in edge_values(op) {
        if !pool.contains(&v) {
            pool.push(v);
        }
    }
    pool
}

/// Every `k`-tuple of values from `pool` (`pool.len()^k` of them).
fn all_tuples(pool: &[u128], k: usize) -> Vec<Vec<u128>> {
    let mut tuples: Vec<Vec<u128>> = vec![vec![]];
    for _ in 0..k {
        tuples = tuples
            .into_iter()
            .flat_map(|p| {
                pool.iter().map(move |&x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    tuples
}

/// Search for an order in which some lane's return is not `f` applied with the exclusive scan
/// (the `(+)`-fold of the lanes before it, from the identity): 2 or 3 active lanes, values from
/// the failing lemmas' models and the type's edge values.
fn search_scan(c: &Conc, seeds: &[u128]) -> Result<Option<Witness>, String> {
    let spec = c.op.opt.as_ref().ok_or("no optimizer spec")?;
    let pool = value_pool(c.op, seeds);
    let w = c.op.width;
    for k in 2..=3usize {
        let active: Vec<usize> = (0..k).collect();
        let tuples = all_tuples(&pool, k);
        for tup in &tuples {
            let data: Vec<(u128, u128)> = tup.iter().map(|&x| (x, 0)).collect();
            for &m in &pool {
                for order in permutations(&active) {
                    let r = c.serialize(m, &data, &order)?;
                    let mut acc = spec.identity;
                    for &l in &order {
                        let want = c.f(m, acc, 0)?.0;
                        let got = r.rets[l].expect("lane in the order returns");
                        if !c.same_value(want, got) {
                            return Ok(Some(Witness {
                                lanes: 64,
                                exec: mask(k as u32),
                                data: active.iter().map(|&i| (i, tup[i], 0)).collect(),
                                mem: m,
                                detail: format!(
                                    "in order {order:?} lane {l} returns {}, f with its exclusive scan {} gives {}",
                                    fmt_hex(got, w),
                                    fmt_hex(acc, w),
                                    fmt_hex(want, w)
                                ),
                            }));
                        }
                        acc = c.combine(acc, tup[l])?;
                    }
                }
            }
        }
    }
    Ok(None)
}

/// Search for a wave on which the optimizer's rewrite (`strategy` on `lanes` lanes, or the
/// uniform form when `uniform`) matches no serialization: 1 to 3 active lanes, data and memory
/// from the failing lemmas' models and the type's edge values.
fn search_opt(
    c: &Conc,
    strategy: Strategy,
    lanes: u32,
    uniform: bool,
    seeds: &[u128],
) -> Result<Option<Witness>, String> {
    let pool = value_pool(c.op, seeds);
    let w = c.op.width;
    for k in 1..=3usize {
        let active: Vec<usize> = (0..k).collect();
        let exec = mask(k as u32);
        let tuples: Vec<Vec<u128>> = if uniform {
            pool.iter().map(|&d| vec![d; k]).collect()
        } else {
            all_tuples(&pool, k)
        };
        for tup in &tuples {
            for &m in &pool {
                let data: Vec<(u128, u128)> = tup.iter().map(|&x| (x, 0)).collect();
                let got = if uniform {
                    uniform_rewrite(c, tup[0], k as u32, m)?
                } else {
                    let mut d = tup.clone();
                    d.resize(lanes as usize, 0);
                    let mut r = c.optimized(strategy, lanes, exec, m, &d)?;
                    r.rets.truncate(k);
                    r
                };
                if !matches_some_order(c, &got, m, &data, &active)? {
                    let serial = c.serialize(m, &data, &active)?;
                    let what = if uniform {
                        "uniform form".to_string()
                    } else {
                        format!("{} wave{lanes}", strategy.name())
                    };
                    return Ok(Some(Witness {
                        lanes: if uniform { 64 } else { lanes },
                        exec,
                        data: active.iter().map(|&i| (i, tup[i], 0)).collect(),
                        mem: m,
                        detail: format!(
                            "{what} leaves {} and returns [{}]; no order does (lane order leaves {}, returns [{}])",
                            fmt_hex(got.mem, w),
                            rets_text(&got, w),
                            fmt_hex(serial.mem, w),
                            rets_text(&serial, w)
                        ),
                    }));
                }
            }
        }
    }
    Ok(None)
}

fn rets_text(r: &WaveResult, w: u32) -> String {
    r.rets
        .iter()
        .flatten()
        .map(|v| fmt_hex(*v, w))
        .collect::<Vec<_>>()
        .join(", ")
}

/// LLVM's uniform form for `n` lanes with data `d`: the reduction `P(d, n)` in one atomic,
/// lane i's return `f_{P(d, i)}(old)`.
pub fn uniform_rewrite(c: &Conc, d: u128, n: u32, m: u128) -> Result<WaveResult, String> {
    let spec = c.op.opt.as_ref().ok_or("no optimizer spec")?;
    let w = c.op.width;
    let ones = if w == 64 {
        u64::MAX as u128
    } else {
        u32::MAX as u128
    };
    let p = |k: u32| -> u128 {
        match spec.power {
            Power::Mul => d.wrapping_mul(k as u128) & ones,
            Power::Parity => {
                if k & 1 == 1 {
                    d
                } else {
                    0
                }
            }
            Power::Idempotent => {
                if k == 0 {
                    spec.identity
                } else {
                    d
                }
            }
            Power::FMul => {
                let fmt = c.op.fp.unwrap_or(FpFmt::F32);
                if k == 0 {
                    spec.identity
                } else {
                    let kf = match fmt {
                        FpFmt::F64 => (k as f64).to_bits() as u128,
                        _ => (k as f32).to_bits() as u128,
                    };
                    fp_concrete(FpOp::Mul, fmt, d, kf)
                }
            }
        }
    };
    let (mem, old) = c.f(m, p(n), 0)?;
    let mut rets = Vec::new();
    for i in 0..n {
        rets.push(Some(c.f(old, p(i), 0)?.0));
    }
    Ok(WaveResult { mem, rets })
}

/// The witness that lanes 0 and 1 with data `a` and `b` leave different memory values from
/// `m` in the two orders, if they do.
fn order_dependence(
    c: &Conc,
    m: u128,
    a: (u128, u128),
    b: (u128, u128),
) -> Result<Option<Witness>, String> {
    let data = [a, b];
    let x = c.serialize(m, &data, &[0, 1])?;
    let y = c.serialize(m, &data, &[1, 0])?;
    if c.same_value(x.mem, y.mem) {
        return Ok(None);
    }
    let w = c.op.width;
    Ok(Some(Witness {
        lanes: wave_sizes(c.op)[0],
        exec: 0b11,
        data: vec![(0, a.0, a.1), (1, b.0, b.1)],
        mem: m,
        detail: format!(
            "order 0,1 leaves {}, order 1,0 leaves {}",
            fmt_hex(x.mem, w),
            fmt_hex(y.mem, w)
        ),
    }))
}

/// Search two lanes whose order matters among the type's edge values (memory, DATA0 and, for
/// ops that have one, DATA1): for float add, memory 2^24 (2^53 for f64) with 1.0 and -1.0 is
/// one (2^24 + 1 rounds back to 2^24, so one order ends at 2^24 - 1, the other at 2^24).
fn search_commute(c: &Conc) -> Result<Option<Witness>, String> {
    let pool = edge_values(c.op);
    let second: Vec<u128> = if c.op.data1 > 0 {
        pool.clone()
    } else {
        vec![0]
    };
    let mut pairs = Vec::new();
    for &d0 in &pool {
        for &d1 in &second {
            pairs.push((d0, d1));
        }
    }
    for &m in &pool {
        for &a in &pairs {
            for &b in &pairs {
                if let Some(wit) = order_dependence(c, m, a, b)? {
                    return Ok(Some(wit));
                }
            }
        }
    }
    Ok(None)
}

/// The lemmas behind the optimizer verdicts (each `None` only where not asked).
struct OptLemmas {
    compose: Option<Lemma>,
    identity: Option<Lemma>,
    assoc: Option<Lemma>,
    comm: Option<Lemma>,
    power: Option<Lemma>,
}

impl OptLemmas {
    /// The lemmas that were asked, in the report's order.
    fn into_lemmas(self) -> impl Iterator<Item = Lemma> {
        [
            self.compose,
            self.identity,
            self.assoc,
            self.comm,
            self.power,
        ]
        .into_iter()
        .flatten()
    }
}

/// Decide every question for one op. `timeout` bounds each z3 query.
///
/// Errors: a semantics entry that fails to evaluate, or a z3 model that the interpreter does
/// not reproduce (an encoding bug).
pub fn analyze(op: &AtomicOp, timeout: Duration) -> Result<OpReport, String> {
    let c = Conc::new(op);
    let mut lm = Lemmas::new(op, timeout);
    let commute = lm.commute()?;
    let commute_time = commute.time;

    let mem_uniform = Verdict::Proved(
        "every lane applies the same function to the memory value, so all orders compose the same functions".into(),
    );
    let mem_lanes = mem_lanes_verdict(op, &c, &commute.outcome)?;

    let mut lemmas = vec![commute];
    let Some(spec) = op.opt.clone() else {
        let na = || Verdict::NotApplicable("AMDGPUAtomicOptimizer leaves this op alone".into());
        return Ok(OpReport {
            op: op.clone(),
            lemmas,
            mem_uniform,
            mem_lanes,
            ret_scan: Verdict::NotApplicable("no scan operator for this op".into()),
            opt_iter: na(),
            opt_dpp: na(),
            opt_uniform: na(),
            opt_reassoc: Verdict::NotApplicable("not a floating-point op".into()),
            opt_proof_time: Duration::ZERO,
            commute_time,
        });
    };
    let t0 = Instant::now();
    let ol = OptLemmas {
        compose: Some(lm.compose()?),
        identity: Some(lm.identity()?),
        assoc: Some(lm.assoc()?),
        comm: Some(lm.comm()?),
        power: lm.power()?,
    };
    let scheds: Vec<(Strategy, u32, Needs)> = dpp_schedules(op)
        .into_iter()
        .map(|(s, n)| (s, n, check_schedule(s, n)))
        .collect();
    let iter_needs: Vec<Needs> = wave_sizes(op)
        .into_iter()
        .map(|n| check_schedule(Strategy::Iterative, n))
        .collect();
    let opt_proof_time = t0.elapsed();

    let ret_scan = ret_scan_verdict(&c, &[&ol.compose, &ol.identity])?;
    let opt_iter = opt_iter_verdict(&c, &ol, &iter_needs)?;
    let opt_dpp = opt_dpp_verdict(&c, &ol, &scheds)?;
    let (opt_uniform, idem) = opt_uniform_verdict(&c, &mut lm, &ol, spec.power)?;
    lemmas.extend(idem);
    let opt_reassoc = opt_reassoc_verdict(op, spec.power, &opt_iter, &opt_dpp, &ol);
    lemmas.extend(ol.into_lemmas());
    Ok(OpReport {
        op: op.clone(),
        lemmas,
        mem_uniform,
        mem_lanes,
        ret_scan,
        opt_iter,
        opt_dpp,
        opt_uniform,
        opt_reassoc,
        opt_proof_time,
        commute_time,
    })
}

/// Final memory independent of the order with per-lane data, from the commutation lemma.
/// Errors: a z3 order dependence the interpreter does not reproduce.
fn mem_lanes_verdict(op: &AtomicOp, c: &Conc, commute: &Outcome) -> Result<Verdict, String> {
    Ok(match commute {
        Outcome::Holds => Verdict::Proved(
            "f_a(f_b(m)) = f_b(f_a(m)) for all m, a, b; adjacent swaps reach every order".into(),
        ),
        // z3 can time out on a rounding counterexample (float add) that an edge value gives at
        // once; a concrete witness refutes whatever the solver says.
        Outcome::Unknown(r) => match search_commute(c)? {
            Some(wit) => Verdict::Refuted(wit),
            None => Verdict::Unknown(format!("lemma commute: {r}")),
        },
        Outcome::Fails(model) => {
            let get = |n: &str| model.iter().find(|(k, _)| k == n).map_or(0, |(_, v)| *v);
            let m = get("m");
            let a = (get("a.data0"), get("a.data1"));
            let b = (get("b.data0"), get("b.data1"));
            match order_dependence(c, m, a, b)? {
                Some(wit) => Verdict::Refuted(wit),
                None => {
                    return Err(format!(
                        "{}: z3 says the order matters for m={m:#x}, a={a:?}, b={b:?}, the interpreter disagrees",
                        op.mnemonic
                    ))
                }
            }
        }
    })
}

/// The verdict when lemmas fail and the search found no concrete witness.
fn no_small_witness(ls: &[&Option<Lemma>]) -> Verdict {
    Verdict::Unknown(format!(
        "lemma {} fails, but no small concrete counterexample was found",
        failed(ls)
            .iter()
            .map(|l| l.name)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// ret-scan: lane k of any order returns f_{d_1 (+) ... (+) d_{k-1}}(m).
fn ret_scan_verdict(c: &Conc, scan_ls: &[&Option<Lemma>]) -> Result<Verdict, String> {
    if scan_ls.iter().all(|l| holds(l)) {
        return Ok(Verdict::Proved(
            "compose and identity lemmas: lane k of an order returns f applied with the exclusive scan"
                .into(),
        ));
    }
    let seeds = model_values(&failed(scan_ls));
    Ok(match search_scan(c, &seeds)? {
        Some(w) => Verdict::Refuted(w),
        None => match unknown_of(scan_ls) {
            Some(r) => Verdict::Unknown(r),
            None => no_small_witness(scan_ls),
        },
    })
}

/// Iterative: the lane-order fold; needs compose and identity only.
fn opt_iter_verdict(c: &Conc, ol: &OptLemmas, iter_needs: &[Needs]) -> Result<Verdict, String> {
    if !iter_needs.iter().all(|n| *n == Needs::Assoc) {
        return Ok(Verdict::Unknown(format!(
            "iterative schedule check: {iter_needs:?}"
        )));
    }
    verdict_from(
        c,
        &[&ol.compose, &ol.identity],
        Strategy::Iterative,
        64,
        false,
        "compose, identity; schedule folds the active lanes in lane order",
    )
}

/// DPP: other bracketings and orders; needs assoc, and comm when the schedule reorders.
fn opt_dpp_verdict(
    c: &Conc,
    ol: &OptLemmas,
    scheds: &[(Strategy, u32, Needs)],
) -> Result<Verdict, String> {
    if scheds.is_empty() {
        return Ok(Verdict::NotApplicable("no DPP on these targets".into()));
    }
    if let Some((s, n, bad)) = scheds.iter().find(|(_, _, x)| matches!(x, Needs::Wrong(_))) {
        return Ok(Verdict::Unknown(format!(
            "{} wave{n} schedule check: {bad:?}",
            s.name()
        )));
    }
    let needs_comm = scheds.iter().any(|(_, _, x)| *x == Needs::AssocComm);
    let mut ls = vec![&ol.compose, &ol.identity, &ol.assoc];
    if needs_comm {
        ls.push(&ol.comm);
    }
    let (s, n, _) = scheds[0];
    let waves: Vec<String> = scheds
        .iter()
        .map(|(s, n, _)| format!("{} wave{n}", s.name()))
        .collect();
    let why = format!(
        "compose, identity, assoc{}; schedules {} combine every lane below each lane once",
        if needs_comm { ", comm" } else { "" },
        waves.join(", ")
    );
    verdict_from(c, &ls, s, n, false, &why)
}

/// The uniform-data form, and the idempotence lemma if it was asked (idempotent ops only).
fn opt_uniform_verdict(
    c: &Conc,
    lm: &mut Lemmas,
    ol: &OptLemmas,
    power: Power,
) -> Result<(Verdict, Option<Lemma>), String> {
    if power == Power::FMul {
        let v = match search_opt(c, Strategy::Iterative, 64, true, &[])? {
            Some(wit) => Verdict::Refuted(wit),
            None => Verdict::Unknown(
                "d * (float)n: no small counterexample found, no proof either".into(),
            ),
        };
        return Ok((v, None));
    }
    if power == Power::Idempotent {
        let idem = Some(lm.idem()?);
        let v = verdict_from(
            c,
            &[&idem],
            Strategy::Iterative,
            64,
            true,
            "idem: f_d(f_d(m)) = f_d(m), f_e(m) = m",
        )?;
        return Ok((v, idem));
    }
    let ls = [&ol.compose, &ol.identity, &ol.power];
    let v = verdict_from(
        c,
        &ls,
        Strategy::Iterative,
        64,
        true,
        "power (each lane count), compose, identity",
    )?;
    Ok((v, None))
}

/// Floating-point ops only: the rewrite if reassociation is allowed.
fn opt_reassoc_verdict(
    op: &AtomicOp,
    power: Power,
    opt_iter: &Verdict,
    opt_dpp: &Verdict,
    ol: &OptLemmas,
) -> Verdict {
    if op.fp.is_none() {
        return Verdict::NotApplicable("not a floating-point op".into());
    }
    if power != Power::FMul {
        // min/max do not round: allowing reassociation changes nothing.
        return match opt_dpp {
            Verdict::NotApplicable(_) => opt_iter.clone(),
            v => v.clone(),
        };
    }
    // Associativity and compose (an instance of it for x (+) d = f_d(x)) are assumed.
    let ls = [&ol.identity, &ol.comm];
    if ls.iter().all(|l| holds(l)) {
        Verdict::Proved(
            "assuming associativity: identity and comm hold; the uniform d*n form is not covered"
                .into(),
        )
    } else if let Some(r) = unknown_of(&ls) {
        Verdict::Unknown(r)
    } else {
        Verdict::Refuted(lemma_witness(&ls, op.width))
    }
}

/// A lemma's own counterexample, as a witness (for the reassociation column, where a failing
/// identity or comm is the reason; the values are the lemma's inputs).
fn lemma_witness(ls: &[&Option<Lemma>], w: u32) -> Witness {
    let f = failed(ls);
    let l = f[0];
    let Outcome::Fails(model) = &l.outcome else {
        unreachable!("failed() keeps failures")
    };
    Witness {
        lanes: 2,
        exec: 0b11,
        data: vec![],
        mem: 0,
        detail: format!(
            "lemma {} fails at {}",
            l.name,
            model
                .iter()
                .map(|(n, v)| format!("{n}={}", fmt_hex(*v, w)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

fn verdict_from(
    c: &Conc,
    ls: &[&Option<Lemma>],
    s: Strategy,
    n: u32,
    uniform: bool,
    why: &str,
) -> Result<Verdict, String> {
    if ls.iter().all(|l| holds(l)) {
        return Ok(Verdict::Proved(why.to_string()));
    }
    // A concrete witness refutes, whatever else is unknown; seeded by the failing lemmas'
    // models when there are any, by edge values alone when a lemma timed out.
    let seeds = model_values(&failed(ls));
    if let Some(w) = search_opt(c, s, n, uniform, &seeds)? {
        return Ok(Verdict::Refuted(w));
    }
    Ok(match unknown_of(ls) {
        Some(r) => Verdict::Unknown(r),
        None => no_small_witness(ls),
    })
}
