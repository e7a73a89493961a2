//! Where the after-program may turn EXEC lanes on between a VALU definition and a read
//! (`ssa.rs`, "Values that cross blocks" in docs/tv.md): a lane turned on there never ran the
//! definition, so its value is not copied across, unless the lanes turned on are ones an
//! `SI_IF` after the definition saved (`SI_END_CF`).

use super::mir::{Function, Inst, OpKind};
use std::collections::HashMap;

/// The blocks of the after-program with an instruction that may turn EXEC bits on: any EXEC
/// write but a terminator that only clears bits ([`narrows_exec`]): `SI_END_CF`, `SI_ELSE`,
/// WWM, `SI_INIT_EXEC`, `$exec = S_MOV_B64`, `$exec = S_OR_B64_term $exec, %m`. A lane turned on
/// between a definition and a read never ran the definition, so the after-program reads
/// whatever its register held there: a VALU definition is not copied across such a block.
#[derive(Default)]
pub(super) struct Widening {
    /// Per widening block: the blocks it reaches, and the blocks that reach it.
    reach: Vec<(usize, Vec<bool>, Vec<bool>)>,
    /// Per widening block whose only widening instructions are `SI_END_CF %m` of masks an
    /// `SI_IF` saved: the blocks of those `SI_IF`s ([`Widening::restores`]).
    ends: HashMap<usize, Vec<usize>>,
    /// Too many widening blocks to track: no VALU definition is copied.
    all: bool,
}

impl Widening {
    pub(super) fn new(f: &Function, succ: &[Vec<usize>]) -> Widening {
        let at: Vec<usize> = (0..f.blocks.len())
            .filter(|&k| f.blocks[k].insts.iter().any(widens_exec))
            .collect();
        if at.len() > 64 {
            return Widening {
                reach: Vec::new(),
                ends: HashMap::new(),
                all: true,
            };
        }
        let mut pred: Vec<Vec<usize>> = vec![Vec::new(); succ.len()];
        for (u, ss) in succ.iter().enumerate() {
            for &v in ss {
                pred[v].push(u);
            }
        }
        let ends = end_cf_blocks(f, &at);
        let reach = at
            .into_iter()
            .map(|w| (w, closure(w, succ), closure(w, &pred)))
            .collect();
        Widening {
            reach,
            ends,
            all: false,
        }
    }

    /// Whether a widening block lies on a path from block `k` (a definition there) to block
    /// `p` (its read), either end included, that may turn on a lane which did not run the
    /// definition ([`Widening::restores`]). `dom(a, b)`: block `a` dominates block `b`.
    pub(super) fn between(&self, k: usize, p: usize, dom: &dyn Fn(usize, usize) -> bool) -> bool {
        self.all
            || self
                .reach
                .iter()
                .any(|(w, fwd, back)| back[k] && fwd[p] && !self.restores(*w, k, dom))
    }

    /// Whether widening block `w` only turns on lanes that ran a definition in block `k`: its
    /// widening instructions are `SI_END_CF %m`, each `%m` saved by an `SI_IF` in a block `k`
    /// dominates (`k` itself included: the `SI_IF` is its terminator, after the definition),
    /// and no widening block lies on a path from `k` to that `SI_IF`. *Sound:* `SI_END_CF %m`
    /// is `EXEC |= %m`, and `%m` (SILowerControlFlow::emitIf: EXEC, or EXEC & ~cond) holds a
    /// subset of the lanes active at the `SI_IF`; on every path from the definition to the
    /// `SI_IF` EXEC only lost lanes, so those lanes ran the definition's latest run. Every other
    /// widening block between `k` and the reader is checked the same way, so by induction over
    /// the path each lane active at the reader ran it (and `once_per_value` makes an earlier run
    /// give the same value). Before 2026-12-06 a VGPR value of the `SI_IF` block reused after
    /// the join (machine-cse's `V_LSHLREV_B32` of `%6` in the entry block for an equal one after
    /// `SI_END_CF`) was an unrelated input there (breaker 16's 05, `k2.ll`).
    fn restores(&self, w: usize, k: usize, dom: &dyn Fn(usize, usize) -> bool) -> bool {
        self.ends.get(&w).is_some_and(|ifs| {
            ifs.iter().all(|&bi| {
                dom(k, bi) && !self.reach.iter().any(|(_, fwd, back)| back[k] && fwd[bi])
            })
        })
    }
}

/// The widening blocks (positions `at`) whose every widening instruction is `SI_END_CF %m`
/// with `%m` defined once, by an `SI_IF`: each with the blocks of those `SI_IF`s.
fn end_cf_blocks(f: &Function, at: &[usize]) -> HashMap<usize, Vec<usize>> {
    let mut count: HashMap<u32, usize> = HashMap::new();
    let mut saved: HashMap<u32, usize> = HashMap::new();
    for (k, b) in f.blocks.iter().enumerate() {
        for i in &b.insts {
            for id in inst_defs(i) {
                *count.entry(id).or_default() += 1;
                if i.opcode == "SI_IF" {
                    saved.insert(id, k);
                }
            }
        }
    }
    let mut out = HashMap::new();
    for &w in at {
        let mut ifs = Vec::new();
        let all = f.blocks[w]
            .insts
            .iter()
            .filter(|i| widens_exec(i))
            .all(|i| {
                let mask = i.uses().find(|o| !o.flags.implicit).map(|o| &o.kind);
                match (i.opcode.as_str(), mask) {
                    ("SI_END_CF", Some(OpKind::VReg { id, sub: None }))
                        if count.get(id) == Some(&1) =>
                    {
                        saved.get(id).map(|&bi| ifs.push(bi)).is_some()
                    }
                    _ => false,
                }
            });
        if all && !ifs.is_empty() {
            out.insert(w, ifs);
        }
    }
    out
}

/// The blocks reached from `w` along `edges`, `w` included.
fn closure(w: usize, edges: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; edges.len()];
    let mut work = vec![w];
    seen[w] = true;
    while let Some(v) = work.pop() {
        for &x in &edges[v] {
            if !seen[x] {
                seen[x] = true;
                work.push(x);
            }
        }
    }
    seen
}

/// Whether `i` may turn EXEC bits on (see [`Widening`]).
pub(super) fn widens_exec(i: &Inst) -> bool {
    writes_phys(i, |p| p.starts_with("exec"))
        && !(super::effects::is_terminator(&i.opcode) && narrows_exec(i))
}

/// Whether terminator `i` can only clear EXEC bits: `SI_IF` (EXEC &= cond), `SI_LOOP`, or
/// `$exec = S_AND(N2)_B64/B32_term $exec, x` / `S_AND_SAVEEXEC_*_term x` (EXEC & x, EXEC & !x).
fn narrows_exec(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    let exec = |o: Option<&super::mir::Operand>| {
        o.is_some_and(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
    };
    let to_exec = i.defs.len() == 1 && exec(i.defs.first());
    let mut srcs = i.uses().filter(|o| !o.flags.implicit);
    match op {
        // SI_LOOP is EXEC &= ~mask (SILowerControlFlow::emitLoop, `cf_lower.rs`): the loop's
        // next iteration runs a subset of this one's lanes.
        "SI_IF" | "SI_LOOP" => true,
        "S_AND_SAVEEXEC_B64_term" | "S_AND_SAVEEXEC_B32_term" => true,
        "S_AND_B64_term" | "S_AND_B32_term" => {
            let (a, b) = (srcs.next(), srcs.next());
            to_exec && (exec(a) || exec(b))
        }
        "S_ANDN2_B64_term" | "S_ANDN2_B32_term" => to_exec && exec(srcs.next()),
        _ => false,
    }
}

pub(super) fn inst_defs(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
}

pub(super) fn writes_phys(i: &Inst, pick: impl Fn(&str) -> bool) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .any(|o| matches!(&o.kind, OpKind::Phys(p) if pick(p)))
}

/// How many `SI_END_CF`s start `b` (after its PHIs): the join of one or more `SI_IF`s.
pub(super) fn leading_end_cfs(b: &super::mir::Block) -> usize {
    b.insts
        .iter()
        .skip_while(|i| i.opcode == "PHI")
        .take_while(|i| i.opcode == "SI_END_CF")
        .count()
}
