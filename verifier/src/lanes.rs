//! Multi-lane checking: `gcnsmt verify --lanes N` (or `Lanes: N` in a rule).
//!
//! A single-lane check sees one lane's registers. Rewrites whose correctness depends on what
//! *other* lanes of the wave do -- merging two stores whose lanes may hit each other's
//! addresses, reordering atomics, cross-lane DS ops -- need the wave. With N lanes the check
//! covers every wave with at most N active lanes, wherever they are: the N lanes have symbolic
//! lane ids (`LANE_ID@lane0 < LANE_ID@lane1 < ...`, below the wave size), EXEC (`exec_lo`, and
//! `exec_hi` on wave64 targets) is an input with no bit outside those lanes, every vector
//! register (`v`, `a`, and each variable used as a vector operand) has one copy per lane
//! (`v1@lane0`, `v1@lane1`, ...), and scalar registers are shared. Each per-lane instruction
//! runs once per lane, each run guarded by the lane's EXEC bit and with `LANE_ID` = the lane's
//! id; SALU instructions run once; `ds_swizzle_b32`/`ds_permute_b32`/`ds_bpermute_b32` run once
//! over all lanes (a lane that is not one of the N is inactive and reads as 0). `Lanes: 1` is
//! the single-lane check plus EXEC.
//!
//! Lane order. AMD's guides say lanes of one instruction that conflict are serialized, never in
//! which order, so the default is `any`: an instruction that writes memory may serialize its
//! lanes in every order (N! orders), on both sides. The target refines the source when for every
//! input and every target order some source order gives the same registers and memory; the
//! solver query asks for an input and a target order on which every source order differs
//! (source orders are enumerated, at most [`MAX_ORDERS`]). Loads and ALU instructions do not
//! depend on the order (each lane writes only its own registers and its own bit of a lane mask),
//! so they run in ascending order. `ascending` fixes the lowest lane id first everywhere:
//! cheaper, but it proves only what a machine with that order does.
//!
//! The precondition holds in every lane (evaluated with that lane's registers and `LANE_ID`).
//! A VOPC compare or VOP3b carry-out writes 0 to the mask bits of inactive lanes (`VCC[n] =
//! EXEC[n] & test`, AMD RDNA2 ISA guide 3.9; `machine::step`).

pub use crate::lane_mode::{LaneMode, LaneOrder};
use crate::machine::{Bound, Class, Op, RegKey};
use std::collections::BTreeSet;

/// Most serialization orders of one side that `any` enumerates.
pub const MAX_ORDERS: usize = 120;

/// One serialization of one side: the expanded program and, for each instruction whose lanes
/// were not run in ascending order, its index in the side (0-based) and its lane order.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The side's instructions with each per-lane instruction replaced by one [`Op::Lane`] per
    /// lane, in this variant's order, and cross-lane ones given the lane count.
    pub prog: Vec<Bound>,
    /// (0-based instruction index in the side, lane order) for each instruction whose lanes do
    /// not run in ascending order.
    pub orders: Vec<(usize, Vec<u32>)>,
}

impl Variant {
    /// `instruction 2: lanes 1, 0` (empty when every instruction ran in ascending order).
    pub fn describe(&self) -> String {
        self.orders
            .iter()
            .map(|(i, o)| {
                let ls: Vec<String> = o.iter().map(|l| l.to_string()).collect();
                format!("instruction {}: lanes {}", i + 1, ls.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A rule expanded to N lanes.
#[derive(Clone, Debug)]
pub struct Expanded {
    /// Every register of both sides, vector ones once per lane, plus EXEC (`exec_lo`, and
    /// `exec_hi` on wave64) and each lane's id ([`RegKey::lane_id`]).
    pub keys: BTreeSet<RegKey>,
    /// The rule's dead registers, vector ones once per lane.
    pub dead: BTreeSet<RegKey>,
    /// The source side's serializations (one for `ascending`, up to [`MAX_ORDERS`] for `any`).
    pub src: Vec<Variant>,
    /// The target side's serializations, likewise.
    pub tgt: Vec<Variant>,
}

/// Variables used as vector operands anywhere in the rule. A variable used only where either
/// file is allowed (a VALU source) is per-lane too: that covers the uniform case as well.
fn vector_vars(progs: &[&[Bound]]) -> BTreeSet<String> {
    progs
        .iter()
        .flat_map(|p| p.iter())
        .flat_map(|b| &b.var_uses)
        .filter(|u| u.class != Class::Sgpr)
        .map(|u| u.name.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|n| {
            // A variable that is scalar somewhere is scalar (elaboration rejects mixed uses).
            !progs
                .iter()
                .flat_map(|p| p.iter())
                .flat_map(|b| &b.var_uses)
                .any(|u| &u.name == n && u.class == Class::Sgpr)
        })
        .collect()
}

fn is_vector(k: &RegKey, vars: &BTreeSet<String>) -> bool {
    match k.base.as_str() {
        "v" | "a" => true,
        b => b.strip_prefix('%').is_some_and(|n| vars.contains(n)),
    }
}

/// Whether the lanes of `b` can interfere through memory, so their order matters: DS ops with
/// data (stores, atomics), buffer stores, atomics and LDS DMA.
fn order_sensitive(b: &Bound) -> bool {
    match &b.op {
        Op::Ds { shape, .. } => shape.data0 > 0,
        Op::Buf(op) => op.class != gcnsmt_lifter::mubuf_table::MubufClass::Load || op.lds,
        Op::Mem(op) => op.writes_memory,
        _ => false,
    }
}

/// Whether `b` runs once per wave rather than once per lane.
fn per_wave(b: &Bound) -> bool {
    match &b.op {
        Op::Alu { alu, .. } => alu.scalar,
        Op::Cross { .. } => true,
        Op::Mem(op) => op.scalar,
        _ => false,
    }
}

fn permutations(n: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for l in 0..n {
                if !p.contains(&l) {
                    let mut q = p.clone();
                    q.push(l);
                    next.push(q);
                }
            }
        }
        out = next;
    }
    out
}

fn expand_side(
    prog: &[Bound],
    mode: LaneMode,
    vars: &BTreeSet<String>,
) -> Result<Vec<Variant>, String> {
    let ascending: Vec<u32> = (0..mode.lanes).collect();
    let choices: Vec<Vec<Vec<u32>>> = prog
        .iter()
        .map(|b| {
            if mode.order == LaneOrder::Any && order_sensitive(b) && mode.lanes > 1 {
                permutations(mode.lanes)
            } else {
                vec![ascending.clone()]
            }
        })
        .collect();
    let total = choices
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
        .filter(|t| *t <= MAX_ORDERS)
        .ok_or_else(|| {
            let writers = choices.iter().filter(|c| c.len() > 1).count();
            format!(
                "{} with {} instruction(s) that write memory has more than {MAX_ORDERS} \
                 serialization orders ({}!^{writers}); use fewer lanes or `ascending` order",
                mode.describe(),
                writers,
                mode.lanes
            )
        })?;
    let mut out = Vec::with_capacity(total);
    for mut idx in 0..total {
        let mut expanded = Vec::new();
        let mut orders = Vec::new();
        for (i, (b, c)) in prog.iter().zip(&choices).enumerate() {
            let order = &c[idx % c.len()];
            idx /= c.len();
            if *order != ascending {
                orders.push((i, order.clone()));
            }
            if per_wave(b) {
                let mut w = b.clone();
                if let Op::Cross { lanes, .. } = &mut w.op {
                    *lanes = mode.lanes;
                }
                expanded.push(w);
                continue;
            }
            for (j, &l) in order.iter().enumerate() {
                let inner = b.map_regs(&|k: &RegKey| {
                    if is_vector(k, vars) {
                        k.in_lane(l)
                    } else {
                        k.clone()
                    }
                });
                expanded.push(Bound {
                    op: Op::Lane {
                        lane: l,
                        inner: Box::new(inner),
                    },
                    // Immediate fields are uniform: check them once.
                    fields: if j == 0 { b.fields.clone() } else { Vec::new() },
                    text: format!("lane {l}: {}", b.text),
                    ..b.clone()
                });
            }
        }
        out.push(Variant {
            prog: expanded,
            orders,
        });
    }
    Ok(out)
}

/// Expand both sides of a bound rule to `mode.lanes` lanes.
///
/// Errors: more than [`MAX_ORDERS`] orders on one side.
pub fn expand(
    src: &[Bound],
    tgt: &[Bound],
    keys: &BTreeSet<RegKey>,
    dead: &BTreeSet<RegKey>,
    mode: LaneMode,
    wave: u32,
) -> Result<Expanded, String> {
    let vars = vector_vars(&[src, tgt]);
    let per_lane = |ks: &BTreeSet<RegKey>| -> BTreeSet<RegKey> {
        ks.iter()
            .flat_map(|k| {
                if is_vector(k, &vars) {
                    (0..mode.lanes).map(|l| k.in_lane(l)).collect::<Vec<_>>()
                } else {
                    vec![k.clone()]
                }
            })
            .collect()
    };
    let mut all = per_lane(keys);
    all.insert(RegKey::exec_lo());
    if wave == 64 {
        all.insert(RegKey::exec_hi());
    }
    all.extend((0..mode.lanes).map(RegKey::lane_id));
    // What a `ds_bpermute_fi_b32` lane fetches from a lane outside the check: one free DATA0
    // value per present lane, kept in lanes N.. (machine::step reads them there).
    for b in src.iter().chain(tgt) {
        if let Op::Cross {
            kind: crate::machine::CrossKind::BpermuteFi,
            data0,
            ..
        } = &b.op
        {
            for k in data0 {
                all.extend((0..mode.lanes).map(|i| k.in_lane(mode.lanes + i)));
            }
        }
        // A transpose's fill for elements whose source lane is missing: free per lane.
        if let Op::Cross { fill, .. } = &b.op {
            for k in fill {
                all.extend((0..mode.lanes).map(|i| k.in_lane(i)));
            }
        }
    }
    Ok(Expanded {
        keys: all,
        dead: per_lane(dead),
        src: expand_side(src, mode, &vars)?,
        tgt: expand_side(tgt, mode, &vars)?,
    })
}

/// The registers lane `lane` sees, named without their lane (for evaluating the precondition
/// in that lane): `(name in the lane, key in the expanded machine)`.
pub fn lane_view(keys: &BTreeSet<RegKey>, lane: u32) -> Vec<(RegKey, RegKey)> {
    keys.iter()
        .filter(|k| k.lane.is_none() || k.lane == Some(lane))
        .map(|k| {
            (
                RegKey {
                    lane: None,
                    ..k.clone()
                },
                k.clone(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lane_modes() {
        assert_eq!(
            LaneMode::parse("2").unwrap(),
            LaneMode {
                lanes: 2,
                order: LaneOrder::Any
            }
        );
        assert_eq!(
            LaneMode::parse("4 ascending").unwrap().order,
            LaneOrder::Ascending
        );
        assert_eq!(LaneMode::parse("0").unwrap_err().0, 0);
        assert_eq!(LaneMode::parse("2 sideways").unwrap_err().0, 2);
        assert!(LaneMode::parse("9").is_err());
    }

    #[test]
    fn permutations_are_all_distinct_orders() {
        let p = permutations(3);
        assert_eq!(p.len(), 6);
        let set: BTreeSet<_> = p.iter().collect();
        assert_eq!(set.len(), 6);
        assert!(p.iter().all(|q| {
            let mut s = q.clone();
            s.sort();
            s == vec![0, 1, 2]
        }));
    }
}
