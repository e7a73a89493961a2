//! The AtomicOptimizer's reduction and scan schedules, written once over any value type:
//! run on concrete values they are the rewritten program; run on [`LaneSet`]s (which lanes'
//! data a value combines, and whether in lane order) they are checked for every lane of a
//! wave32 or wave64 at once.
//!
//! Schedules as LLVM `AMDGPUAtomicOptimizer.cpp` builds them (LLVM 17-22):
//! - iterative: a loop over the active lanes in increasing order writes the running value to
//!   the lane (its exclusive scan) and then combines the lane's data into it;
//! - DPP (`buildScan` + `buildShiftRight`): inactive lanes get the identity (`set_inactive`),
//!   then `v = v (+) dpp(v)` with `row_shr:1,2,4,8` (16-lane rows, identity shifted in);
//!   gfx9: `row_bcast:15` into rows 1 and 3 (row mask 0xa) and `row_bcast:31` into rows 2
//!   and 3 (0xc); gfx10+: `v_permlanex16` with all selects 15 into rows 1 and 3, and on wave64
//!   `v_readlane(v, 31)` into rows 2 and 3. The inclusive scan becomes exclusive by
//!   `wave_shr:1` (gfx9) or `row_shr:1` plus `v_writelane` of lanes 15, 31, 47 into lanes
//!   16, 32, 48 (gfx10+). The reduction is `v_readlane(v, wave size - 1)`. The combine is
//!   `op(v, shifted)`: the own (higher) lanes on the left.

/// Which schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The loop over the active lanes in increasing order (LLVM
    /// `-amdgpu-atomic-optimizer-strategy=Iterative`).
    Iterative,
    /// DPP on gfx9/CDNA (row broadcasts; wave64 only).
    DppGfx9,
    /// DPP on gfx10+ (permlanex16 and readlane).
    DppGfx10,
}

impl Strategy {
    /// The schedule's name in output (`iterative`, `dpp-gfx9`, `dpp-gfx10`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Iterative => "iterative",
            Strategy::DppGfx9 => "dpp-gfx9",
            Strategy::DppGfx10 => "dpp-gfx10",
        }
    }
}

/// The schedule's results: the reduction one lane hands to the atomic, and each lane's
/// exclusive scan (meaningful for active lanes).
#[derive(Clone, Debug)]
pub struct Scan<T> {
    /// The value the one atomic lane applies: the combine of every active lane's data.
    pub reduction: T,
    /// Each lane's exclusive scan, indexed by lane (`lanes` values): the combine of the data of
    /// the active lanes below it.
    pub exclusive: Vec<T>,
}

/// A strategy as [`run`] executes it: as written, or (in this module's tests of
/// [`check_schedule`]) with one DPP step left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    strategy: Strategy,
    skip: Option<Skip>,
}

impl From<Strategy> for Plan {
    fn from(strategy: Strategy) -> Plan {
        Plan {
            strategy,
            skip: None,
        }
    }
}

/// A DPP step left out on purpose, to show that [`check_schedule`] catches the mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    /// Leave out the `row_shr` by this amount.
    Shift(usize),
    /// Leave out the row-1/row-3 step (row_bcast:15 / permlanex16).
    CrossRow,
    /// Leave out the wave64 lanes-32..63 step (row_bcast:31 / readlane 31).
    Half,
}

/// Run `plan` (a [`Strategy`]) on a wave of `lanes` lanes (32 or 64) with EXEC mask `exec`
/// and per-lane `data` (`lanes` values). `op(x, y)` is `x (+) y`.
///
/// Errors: whatever `op` returns.
pub fn run<T: Clone, E>(
    plan: impl Into<Plan>,
    lanes: u32,
    exec: u64,
    data: &[T],
    identity: &T,
    op: &mut impl FnMut(&T, &T) -> Result<T, E>,
) -> Result<Scan<T>, E> {
    let Plan {
        strategy,
        skip: mutation,
    } = plan.into();
    let n = lanes as usize;
    let on = |i: usize| exec >> i & 1 == 1;
    if strategy == Strategy::Iterative {
        let mut acc = identity.clone();
        let mut ex = vec![identity.clone(); n];
        for (i, x) in data.iter().enumerate().take(n) {
            if on(i) {
                ex[i] = acc.clone();
                acc = op(&acc, x)?;
            }
        }
        return Ok(Scan {
            reduction: acc,
            exclusive: ex,
        });
    }
    let mut v: Vec<T> = (0..n)
        .map(|i| {
            if on(i) {
                data[i].clone()
            } else {
                identity.clone()
            }
        })
        .collect();
    for k in [1usize, 2, 4, 8] {
        if mutation == Some(Skip::Shift(k)) {
            continue;
        }
        let old = v.clone();
        for i in 0..n {
            if i % 16 >= k {
                v[i] = op(&old[i], &old[i - k])?;
            } else {
                v[i] = op(&old[i], identity)?;
            }
        }
    }
    // Rows 1 and 3 take lane 15 of the row below (row_bcast:15 on gfx9, permlanex16 with every
    // select 15 on gfx10+: the same lanes).
    let old = v.clone();
    for i in 0..n {
        if mutation == Some(Skip::CrossRow) {
            break;
        }
        let row = i / 16;
        v[i] = if row % 2 == 1 {
            op(&old[i], &old[16 * row - 1])?
        } else {
            op(&old[i], identity)?
        };
    }
    if n == 64 && mutation != Some(Skip::Half) {
        let old = v.clone();
        for i in 0..n {
            v[i] = if i / 16 >= 2 {
                op(&old[i], &old[31])?
            } else {
                op(&old[i], identity)?
            };
        }
    }
    // wave_shr:1 (gfx9), or row_shr:1 with lanes 16, 32, 48 patched by v_writelane (gfx10+):
    // both move lane i-1 into lane i and the identity into lane 0.
    let mut ex = vec![identity.clone(); n];
    ex[1..n].clone_from_slice(&v[..n - 1]);
    Ok(Scan {
        reduction: v[n - 1].clone(),
        exclusive: ex,
    })
}

/// An abstract value: the set of lanes whose data it combines, and whether every combine that
/// built it had all lanes of its left operand below all lanes of its right one (so the value
/// is the lane-order product, needing associativity only) and disjoint operands (no lane
/// counted twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSet {
    /// Bit `i` set when lane `i`'s data is in the value.
    pub lanes: u64,
    /// Every combine that built it had its left operand's lanes all below its right one's.
    pub ordered: bool,
    /// No combine that built it had a lane on both sides.
    pub disjoint: bool,
}

impl LaneSet {
    /// The identity: no lanes, in order and disjoint.
    pub const EMPTY: LaneSet = LaneSet {
        lanes: 0,
        ordered: true,
        disjoint: true,
    };
    /// Lane `i`'s own data (`i` below 64).
    pub fn lane(i: usize) -> LaneSet {
        LaneSet {
            lanes: 1 << i,
            ..LaneSet::EMPTY
        }
    }
    /// `x (+) y` on lane sets: the union, in order when `x`'s lanes are all below `y`'s (or
    /// either is empty), disjoint when they share no lane.
    pub fn combine(x: &LaneSet, y: &LaneSet) -> LaneSet {
        let in_order =
            x.lanes == 0 || y.lanes == 0 || 63 - x.lanes.leading_zeros() < y.lanes.trailing_zeros();
        LaneSet {
            lanes: x.lanes | y.lanes,
            ordered: x.ordered && y.ordered && in_order,
            disjoint: x.disjoint && y.disjoint && x.lanes & y.lanes == 0,
        }
    }
}

/// What a schedule needs of the operator, found by running it on lane sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Correct with an associative operator with identity.
    Assoc,
    /// Correct with an associative and commutative operator with identity.
    AssocComm,
    /// Wrong for every operator: some lane's scan or the reduction has the wrong lanes; the
    /// first such lane (64 = the reduction).
    Wrong(u32),
}

/// Check a schedule on every lane of a `lanes`-lane wave: lane i's exclusive scan must combine
/// exactly the lanes below i, the reduction all lanes. Inactive lanes hold the identity, so
/// checking with all lanes active covers every EXEC mask (given the identity lemma).
pub fn check_schedule(strategy: Strategy, lanes: u32) -> Needs {
    check_mutated(strategy, lanes, None)
}

fn check_mutated(strategy: Strategy, lanes: u32, mutation: Option<Skip>) -> Needs {
    let n = lanes as usize;
    let data: Vec<LaneSet> = (0..n).map(LaneSet::lane).collect();
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let s = run::<_, ()>(
        Plan {
            strategy,
            skip: mutation,
        },
        lanes,
        all,
        &data,
        &LaneSet::EMPTY,
        &mut |x, y| Ok(LaneSet::combine(x, y)),
    )
    .expect("lane-set combine does not fail");
    let mut ordered = true;
    for (i, x) in s.exclusive.iter().enumerate() {
        if x.lanes != (1u64 << i) - 1 || !x.disjoint {
            return Needs::Wrong(i as u32);
        }
        ordered &= x.ordered;
    }
    if s.reduction.lanes != all || !s.reduction.disjoint {
        return Needs::Wrong(64);
    }
    if ordered && s.reduction.ordered {
        Needs::Assoc
    } else {
        Needs::AssocComm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_left_out_dpp_step_is_caught() {
        // Hand: without row_shr:k, lane k of a row misses lane 0 of its row (first wrong lane
        // k + 1 at the latest); without the cross-row step lane 17 misses lanes 0..15; without
        // the half step lane 33 misses lanes 0..31.
        for s in [Strategy::DppGfx9, Strategy::DppGfx10] {
            for k in [1, 2, 4, 8] {
                assert!(
                    matches!(check_mutated(s, 64, Some(Skip::Shift(k))), Needs::Wrong(i) if i <= k as u32 + 1)
                );
            }
            assert_eq!(check_mutated(s, 64, Some(Skip::CrossRow)), Needs::Wrong(17));
            assert_eq!(check_mutated(s, 64, Some(Skip::Half)), Needs::Wrong(33));
        }
        assert_eq!(
            check_mutated(Strategy::DppGfx10, 32, Some(Skip::CrossRow)),
            Needs::Wrong(17)
        );
    }

    #[test]
    fn lane_sets_flag_reordering_and_double_counting() {
        let (a, b) = (LaneSet::lane(0), LaneSet::lane(1));
        assert!(LaneSet::combine(&a, &b).ordered);
        assert!(!LaneSet::combine(&b, &a).ordered);
        assert!(!LaneSet::combine(&a, &a).disjoint);
    }
}
