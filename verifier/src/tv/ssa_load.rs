//! Loads that cross blocks (issue 28): which load definitions `ssa.rs` may copy into a block
//! that reads their result, as it copies pure computations. early-machinelicm hoists loads out
//! of loops (kernel-argument `S_LOAD`s, loads from loops that store nothing) and machine-sink
//! sinks them into the block that uses them; without a copy the reading block sees the loaded
//! register as an input the other side computes itself, a false alarm.
//!
//! Why a copy placed at the start of the reading block `P` has the load's value. `ssa.rs`
//! already gives: the load `D` is the register's only definition, dominates `P`, and its address
//! operands have the same values at `P` as at the last run of `D`. So a copy reads the same
//! bytes as `D` unless memory at those bytes changed between the last run of `D` and the entry
//! of `P`. That is ruled out, in the file whose `D` is copied, when either:
//! - **the memory is invariant**: every memory operand of `D` says `invariant` (LLVM's
//!   `MachineMemOperand::MOInvariant`, from IR `!invariant.load` or a kernel-argument /
//!   constant-pool load: "the memory access always returns the same value (or traps)",
//!   MachineMemOperand.h, the fact `MachineInstr::isDereferenceableInvariantLoad` and
//!   MachineLICM's hoisting of loads out of loops with stores rely on), and the register's
//!   definition in the *before-file* is such a load too: a pass cannot make a load invariant by
//!   saying so (breaker 8, `effects::memoperand_claims`); or
//! - **no instruction on any path from `D` to `P` may write memory or let another agent's
//!   writes in**: every instruction of the blocks strictly between them (reached from `D`'s
//!   block, reaching `P`), those after `D` in its block, and all of `P` when `P` is on a cycle
//!   (a later entry of `P` follows its own stores), is a copy pseudo or an opcode whose class
//!   (`effects::memory_of`) is pure or a read: no store, atomic, barrier, fence, cache
//!   invalidate, call or unknown instruction. A non-volatile, non-atomic load that races with
//!   another agent's store reads an undefined value in LLVM's memory model, so other waves do
//!   not change what a race-free load reads between two synchronisation points. A `P` with a
//!   barrier-like split point anywhere is refused too: a segment after the split starts with
//!   the preamble again, where memory may have changed (`barrier.rs`).
//!
//! Only the modelled loads whose result is a pure function of memory and the address operands
//! are copied: `S_LOAD_*` and `S_BUFFER_LOAD_*` (once per wave, a scalar value) and
//! `GLOBAL_LOAD_*` without D16 halves or LDS transfer (per lane, a vector value with the lane
//! conditions of `ssa.rs`); never a volatile or atomic one.

use super::mir::{Function, Inst, OpKind};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How a copyable load's result is shared: once per wave (scalar) or per lane (vector).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum LoadKind {
    Scalar,
    Vector,
}

/// Whether `d` is a load whose copy may stand for it (given the memory condition), and how.
pub(super) fn load_kind(d: &Inst) -> Option<LoadKind> {
    let op = d.opcode.as_str();
    if d.mem.is_empty() || mem_words(d).any(|w| ATOMIC_OR_VOLATILE.contains(&w)) {
        return None;
    }
    if op.contains("_LDS") || op.contains("D16") {
        return None;
    }
    if op.starts_with("S_LOAD_") || op.starts_with("S_BUFFER_LOAD_") {
        return Some(LoadKind::Scalar);
    }
    op.starts_with("GLOBAL_LOAD_").then_some(LoadKind::Vector)
}

/// Memory-operand words that make a load's value depend on more than memory at one point.
const ATOMIC_OR_VOLATILE: [&str; 7] = [
    "volatile",
    "unordered",
    "monotonic",
    "acquire",
    "release",
    "acq_rel",
    "seq_cst",
];

/// Memory-operand orderings that synchronise with other agents (LLVM's atomic orderings above
/// monotonic).
pub(super) const ORDERING: [&str; 4] = ["acquire", "release", "acq_rel", "seq_cst"];

/// Whether every memory operand of `d` says `dereferenceable` (LLVM's `MODereferenceable`:
/// the access may run where the program did not run it, it does not trap), the license a
/// pass needs to hoist a load to where it runs more often.
pub(super) fn dereferenceable(d: &Inst) -> bool {
    let ops = operands(&d.mem);
    !ops.is_empty()
        && ops.iter().all(|m| {
            m.split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
                .any(|w| w == "dereferenceable")
        })
}

/// The registers the after-file defines (once) by a load in another block than the
/// before-file does: a copy of such a load in the after-file may run it where the pass's input
/// did not (speculation), which is sound only for a [`dereferenceable`] load (breaker 10: 02,
/// 10, a load hoisted above the branch that guards it).
pub(super) fn moved_loads(before: &Function, after: &Function) -> BTreeSet<u32> {
    let sites = |f: &Function| {
        let mut m: HashMap<u32, (u32, usize)> = HashMap::new();
        for b in &f.blocks {
            for i in &b.insts {
                for o in &i.defs {
                    if let OpKind::VReg { id, .. } = o.kind {
                        m.entry(id).or_insert((b.num, 0)).1 += 1;
                    }
                }
            }
        }
        m
    };
    let (sb, sa) = (sites(before), sites(after));
    after
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(move |i| (b.num, i)))
        .filter(|(_, i)| load_kind(i).is_some())
        .flat_map(|(num, i)| {
            i.defs.iter().filter_map(move |o| match o.kind {
                OpKind::VReg { id, .. } => Some((num, id)),
                _ => None,
            })
        })
        .filter(|(num, id)| sb.get(id) != Some(&(*num, 1)) || sa.get(id) != Some(&(*num, 1)))
        .filter(|(num, id)| !into_sole_successor(after, *num, sb.get(id).map(|x| x.0)))
        .map(|(_, id)| id)
        .collect()
}

/// Whether a load hoisted into block `num` of the after-file runs exactly when its
/// before-file block does: `num` has that block as its only successor and writes no EXEC (a
/// preheader falling into its loop's first block, which runs at least once, on the same
/// lanes). Then hoisting it is no speculation.
fn into_sole_successor(after: &Function, num: u32, before_block: Option<u32>) -> bool {
    let Some(b) = after.blocks.iter().find(|b| b.num == num) else {
        return false;
    };
    let exec =
        |o: &super::mir::Operand| matches!(&o.kind, OpKind::Phys(r) if r.starts_with("exec"));
    let writes_exec = b
        .insts
        .iter()
        .any(|i| i.defs.iter().any(exec) || i.ops.iter().any(|o| o.flags.def && exec(o)));
    before_block.is_some_and(|p| b.successors == [p]) && !writes_exec
}

fn mem_words(d: &Inst) -> impl Iterator<Item = &str> {
    d.mem
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
        .filter(|w| !w.is_empty())
}

/// Whether every memory operand of `d` is `invariant`.
pub(super) fn invariant(d: &Inst) -> bool {
    let groups = operands(&d.mem);
    !groups.is_empty()
        && groups.iter().all(|g| {
            g.split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .any(|w| w == "invariant")
        })
}

/// The memory operands of a `mem` text: its top-level `(...)` groups (`(load (s32) from x,
/// addrspace 4), (store ...)`: a group holds `(s32)` and commas of its own).
fn operands(mem: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    for (k, c) in mem.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = k;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&mem[start..=k]);
                }
            }
            _ => {}
        }
    }
    out
}

/// The virtual registers whose only definition in `f` is an invariant load ([`invariant`]).
pub(super) fn invariant_defs(f: &Function) -> BTreeSet<u32> {
    let mut count: HashMap<u32, (u32, bool)> = HashMap::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        for o in i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        {
            if let OpKind::VReg { id, .. } = o.kind {
                let e = count.entry(id).or_insert((0, false));
                e.0 += 1;
                e.1 = load_kind(i).is_some() && invariant(i);
            }
        }
    }
    count
        .into_iter()
        .filter(|(_, (n, inv))| *n == 1 && *inv)
        .map(|(id, _)| id)
        .collect()
}

/// The after-file's registers defined by an invariant scalar load (`S_LOAD_*_IMM`) that
/// si-load-store-opt made by merging the before-file's: every byte it reads is read, at the
/// same base register, by invariant `S_LOAD_*_IMM`s of the before-file. Invariance is a fact
/// about the bytes, which the before-file (the pass's input) states for each of them; the
/// merged load's own claim adds nothing. The immediate offset counts bytes from gfx8 on,
/// dwords before (SMEM encoding); a function without a known target is not trusted.
pub(super) fn merged_invariant(before: &Function, after: &Function) -> BTreeSet<u32> {
    merged_claims(before, after).into_keys().collect()
}

/// The memory-operand claims of a load (`memop::claims` of each group).
fn claims_of(i: &Inst) -> BTreeSet<String> {
    super::memop::groups(&i.mem)
        .into_iter()
        .flat_map(super::memop::claims)
        .collect()
}

/// An `S_LOAD_*_IMM`'s base operand, first byte, end byte and def.
type Span = (OpKind, i64, i64, u32);

/// The bytes a scalar load reads, from its operands (not its memory operand, which is a
/// claim): (base operand, SGPR offset operand, first byte, end byte) of an `S_LOAD_DWORD*` or
/// `S_BUFFER_LOAD_DWORD*` in its `_IMM`, `_SGPR` or `_SGPR_IMM` form. gfx6/7 count the
/// immediate in dwords.
pub(super) fn smem_bytes(
    i: &Inst,
    t: gcnsmt_semantics::target::Target,
) -> Option<(OpKind, Option<OpKind>, i64, i64)> {
    use gcnsmt_semantics::target::Gen;
    let op = i.opcode.as_str();
    let rest =
        (op.strip_prefix("S_LOAD_DWORD")).or_else(|| op.strip_prefix("S_BUFFER_LOAD_DWORD"))?;
    let (size, form) = rest.split_once('_').unwrap_or((rest, ""));
    let n: i64 = match size {
        "" => 1,
        x => x.strip_prefix('X')?.parse().ok()?,
    };
    let base = i.ops.first()?.kind.clone();
    let imm = |k: usize| match i.ops.get(k)?.kind {
        OpKind::Imm(v) => Some(v),
        _ => None,
    };
    let reg = |k: usize| {
        let o = &i.ops.get(k)?.kind;
        matches!(o, OpKind::VReg { .. } | OpKind::Phys(_)).then(|| o.clone())
    };
    let (soff, off) = match form.trim_end_matches("_ec") {
        "IMM" => (None, imm(1)?),
        "SGPR" => (Some(reg(1)?), 0),
        "SGPR_IMM" => (Some(reg(1)?), imm(2)?),
        _ => return None,
    };
    let unit = if t.gen() < Gen::Gfx8 { 4 } else { 1 };
    Some((base, soff, off * unit, off * unit + 4 * n))
}

/// [`merged_invariant`]'s loads, each with the claims (`dereferenceable`, `invariant`, ...)
/// the before-file's loads make for every one of its bytes: a load of the bytes covered by
/// loads that make claim C may make C too (a claim is about the bytes, as invariance is).
pub(super) fn merged_claims(
    before: &Function,
    after: &Function,
) -> BTreeMap<u32, BTreeSet<String>> {
    use gcnsmt_semantics::target::Target;
    let Some(t) = after.target_cpu.as_deref().and_then(Target::parse) else {
        return BTreeMap::new();
    };
    // (base operand, first byte, end byte) of an invariant `S_LOAD_*_IMM`, and its def.
    let span = |i: &Inst| -> Option<Span> {
        if load_kind(i).is_none() || !invariant(i) {
            return None;
        }
        if !i.opcode.starts_with("S_LOAD_") {
            return None;
        }
        let (base, None, lo, hi) = smem_bytes(i, t)? else {
            return None;
        };
        let [d] = i.defs.as_slice() else {
            return None;
        };
        let OpKind::VReg { id, sub: None } = d.kind else {
            return None;
        };
        Some((base, lo, hi, id))
    };
    let (before_defs, after_defs) = (invariant_defs(before), invariant_defs(after));
    let known: Vec<(Span, BTreeSet<String>)> = before
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| span(i).map(|s| (s, claims_of(i))))
        .filter(|((_, _, _, kid), _)| before_defs.contains(kid))
        .collect();
    let mut out = BTreeMap::new();
    for i in after.blocks.iter().flat_map(|b| &b.insts) {
        let Some((base, lo, hi, id)) = span(i).filter(|s| after_defs.contains(&s.3)) else {
            continue;
        };
        // Per dword, the claims of the loads covering it; a dword no load covers: none.
        let mut made: Option<BTreeSet<String>> = None;
        let mut covered = true;
        for b in (lo..hi).step_by(4) {
            let here: Vec<&BTreeSet<String>> = known
                .iter()
                .filter(|((kb, klo, khi, _), _)| *kb == base && *klo <= b && b + 4 <= *khi)
                .map(|(_, c)| c)
                .collect();
            covered &= !here.is_empty();
            let union: BTreeSet<String> = here.into_iter().flatten().cloned().collect();
            made = Some(match made {
                None => union,
                Some(m) => m.intersection(&union).cloned().collect(),
            });
        }
        if covered {
            out.insert(id, made.unwrap_or_default());
        }
    }
    out
}

/// Whether an instruction leaves memory as it is for a load of another instruction: a copy
/// pseudo, or an opcode whose class is pure or a read (see the module documentation).
fn quiet(i: &Inst) -> bool {
    use super::effects::{memory_of, pseudo, Mem};
    let op = i.opcode.as_str();
    // An atomic with an ordering synchronises with other agents, whatever memory it names: a
    // load moved across an acquire reads before the data it guards is published (breaker 10:
    // 01, 04-07). Monotonic and unordered ones order nothing else.
    if mem_words(i).any(|w| ORDERING.contains(&w)) {
        return false;
    }
    if pseudo(op) || super::barrier::is_barrier(op) || super::barrier::is_cache_op(op) {
        return pseudo(op);
    }
    // LDS accesses never reach the global memory the copied loads read; GWS and ordered-count
    // operations synchronise waves, so they are not quiet.
    if op.starts_with("DS_") {
        return !op.contains("GWS") && !op.contains("ORDERED");
    }
    matches!(memory_of(op), Mem::Pure | Mem::ReadsGlobal | Mem::ReadsAny)
}

/// Whether `op` may split a block (`barrier::is_split`, which needs the target): a barrier,
/// fence, call or cache operation, or a global access outside the plain modelled forms.
fn may_split(op: &str) -> bool {
    use super::effects::{memory_of, Mem};
    let plain = (op.starts_with("GLOBAL_STORE_") || op.starts_with("GLOBAL_LOAD_"))
        && !op.contains("D16")
        && !op.ends_with("_ci");
    super::barrier::is_barrier(op)
        || (matches!(memory_of(op), Mem::ReadsGlobal | Mem::WritesGlobal)
            && !(plain
                || super::mimg::is_image_read(op)
                || op.starts_with("S_BUFFER_LOAD_")
                || (op.starts_with("S_LOAD_") && op.ends_with("_IMM"))))
}

/// Answers "does memory stay as it is from a load to a reading block" for one function
/// (`ssa.rs` asks once per copied load and reader; reachability is cached per block).
pub(super) struct Stability<'a> {
    f: &'a Function,
    succ: &'a [Vec<usize>],
    pred: Vec<Vec<usize>>,
    cyclic: &'a [bool],
    /// The registers the before-file also defines by an invariant load (see the module doc).
    trusted: &'a BTreeSet<u32>,
    /// The after-file's loads the pass moved to another block ([`moved_loads`]; empty for the
    /// before-file).
    moved: &'a BTreeSet<u32>,
    fwd: RefCell<HashMap<usize, Vec<bool>>>,
    back: RefCell<HashMap<usize, Vec<bool>>>,
}

impl<'a> Stability<'a> {
    pub(super) fn new(
        f: &'a Function,
        succ: &'a [Vec<usize>],
        cyclic: &'a [bool],
        (trusted, moved): (&'a BTreeSet<u32>, &'a BTreeSet<u32>),
    ) -> Stability<'a> {
        let mut pred: Vec<Vec<usize>> = vec![Vec::new(); succ.len()];
        for (u, ss) in succ.iter().enumerate() {
            for &v in ss {
                pred[v].push(u);
            }
        }
        Stability {
            f,
            succ,
            pred,
            cyclic,
            trusted,
            moved,
            fwd: RefCell::default(),
            back: RefCell::default(),
        }
    }

    /// Whether the load `d`, defining `id` at instruction `j` of block `k`, reads the same
    /// bytes when copied to the start of block `p` (see the module documentation).
    pub(super) fn stable(&self, d: &Inst, id: u32, (k, j): (usize, usize), p: usize) -> bool {
        if self.moved.contains(&id) && !dereferenceable(d) {
            return false;
        }
        if invariant(d) && self.trusted.contains(&id) {
            return true;
        }
        let blocks = &self.f.blocks;
        if blocks[k].insts.iter().skip(j + 1).any(|i| !quiet(i)) {
            return false;
        }
        // All of `p` when a later entry of `p` follows its own instructions; else only its
        // split points (a segment after one starts with the preamble again).
        let p_bad = |i: &Inst| !quiet(i) && (self.cyclic[p] || may_split(&i.opcode));
        if blocks[p].insts.iter().any(p_bad) {
            return false;
        }
        let fwd = self.reach(k, true);
        let back = self.reach(p, false);
        (0..blocks.len())
            .filter(|&w| w != p && fwd[w] && back[w])
            .all(|w| {
                // `k` again only on a cycle through it: then all of it runs after `D`.
                blocks[w].insts.iter().all(quiet)
            })
    }

    /// The blocks reached from `v`'s successors (`forward`) or reaching `v`'s predecessors.
    fn reach(&self, v: usize, forward: bool) -> Vec<bool> {
        let cache = if forward { &self.fwd } else { &self.back };
        if let Some(r) = cache.borrow().get(&v) {
            return r.clone();
        }
        let edges: &[Vec<usize>] = if forward { self.succ } else { &self.pred };
        let mut seen = vec![false; edges.len()];
        let mut work: Vec<usize> = edges[v].clone();
        while let Some(x) = work.pop() {
            if !seen[x] {
                seen[x] = true;
                work.extend(edges[x].iter().copied());
            }
        }
        cache.borrow_mut().insert(v, seen.clone());
        seen
    }
}

/// Mark the after-file's loads that a pass moved to another block with their memory operand
/// unchanged (early-machinelicm, machine-sink): their claims are the before-file's, so
/// `memop::check`, which compares one block pair, must not take them for claims the pass
/// added. A load is marked when the before-file defines its register by the same instruction
/// text and the same memory operand; each claim the before-block does not back is renamed
/// `invariant-as-before` (`!noalias-as-before !7`), which that check (and [`invariant`],
/// already asked) do not read. Run after the preambles.
/// And the loads si-load-store-opt merged (`merged`, [`merged_claims`] of the functions
/// without preambles): new registers, whose claims the before-file's loads of the same bytes
/// back, each renamed only where they do.
pub(super) fn justify_claims(
    before: &Function,
    after: &mut Function,
    merged: &BTreeMap<u32, BTreeSet<String>>,
) {
    let mut def_of: HashMap<u32, &Inst> = HashMap::new();
    for i in before.blocks.iter().flat_map(|b| &b.insts) {
        for d in &i.defs {
            if let OpKind::VReg { id, .. } = d.kind {
                def_of.entry(id).or_insert(i);
            }
        }
    }
    for ba in &mut after.blocks {
        let Some(bb) = before.blocks.iter().find(|b| b.num == ba.num) else {
            continue;
        };
        for i in &mut ba.insts {
            let same = !i.defs.is_empty()
                && i.defs.iter().all(|d| match d.kind {
                    OpKind::VReg { id, .. } => def_of
                        .get(&id)
                        .is_some_and(|j| j.key == i.key && j.mem == i.mem),
                    _ => false,
                });
            let backed = match i.defs.as_slice() {
                [d] => match d.kind {
                    OpKind::VReg { id, .. } if !def_of.contains_key(&id) => merged.get(&id),
                    _ => None,
                },
                _ => None,
            };
            if !(same || backed.is_some()) || load_kind(i).is_none() {
                continue;
            }
            let unbacked: Vec<String> = super::memop::groups(&i.mem)
                .into_iter()
                .flat_map(|g| super::memop::unbacked(g, bb))
                .filter(|c| backed.is_none_or(|m| m.contains(c)))
                .collect();
            for c in unbacked {
                i.mem = match c.split_once(' ') {
                    // Metadata: `!noalias !7`.
                    Some((k, v)) if k.starts_with('!') => {
                        i.mem.replace(&c, &format!("{k}-as-before {v}"))
                    }
                    _ => rename_word(&i.mem, c.trim_matches('"')),
                };
            }
        }
    }
}

/// `mem` with every whole word `flag` renamed `flag-as-before`.
fn rename_word(mem: &str, flag: &str) -> String {
    let mut out = String::with_capacity(mem.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(word);
        if word == flag {
            out.push_str("-as-before");
        }
        word.clear();
    };
    for c in mem.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::operands;

    #[test]
    fn memory_operands_are_top_level_groups() {
        let one = "(dereferenceable invariant load (s32), addrspace 4)";
        assert_eq!(operands(one), vec![one]);
        let two = "(load (s32) from %ir.p, addrspace 1), (invariant load (s64), align 4)";
        assert_eq!(operands(two).len(), 2);
    }
}
