//! Values that cross blocks (issue 28): a block that reads a virtual register another block
//! defines by a pure, lane-local computation gets a copy of that computation (its *preamble*),
//! so a pass that moves or folds the computation between blocks (si-fold-operands folding an
//! `S_MOV_B32 1` of bb.0 into its use in a loop, machine-cse reusing a dominating block's
//! value, early-machinelicm hoisting, machine-sink) leaves equal values on both sides.
//!
//! Why it is sound. The definition `D` of `%x` is its only one in the function and dominates
//! the reading block `P`. Then no definition of an operand of `D` runs between the last run of
//! `D` and the read (such a path from an operand's definition to `P` would avoid `D`, and the
//! operand's definition dominates `D`, so `P` would be reachable from the entry without `D`).
//! So at `P`, `%x` equals `D` applied to the operands' current values:
//! - wave-level values (SALU ops, copies between SGPRs) exactly;
//! - a VALU result per lane, for a lane that ran `D` (LLVM's SSA semantics: a lane reads only
//!   values defined while it was active; reading one it never wrote is undefined), when `D`
//!   runs at most once per operand value: `D` is on no CFG cycle, or every operand is defined
//!   outside `D`'s cycles. A VALU result defined on a cycle from values of that cycle is not
//!   copied: a lane that left the loop early keeps the value of its last active iteration
//!   while the wave's operands moved on (temporal divergence).
//!
//! A VALU preamble runs under `P`'s EXEC, so it gives the right value only in `P`'s active
//! lanes: it is not added to a block that writes EXEC, or reads other lanes (DPP, readlane,
//! readfirstlane and VGPR-to-SGPR copies, permutes, whole-wave ops, calls, inline assembly).
//! Ops that read a lane mask's inactive bits, write EXEC or VCC, read memory or physical
//! registers (other than EXEC, and MODE when nothing writes it) are never copied. A preamble
//! that writes SCC is not added to a block SCC is live into. An SALU op that reads SCC (the
//! carry-in of `S_ADDC_U32` that finalize-isel's `S_ADD_U64_PSEUDO` expansion leaves) is copied
//! right after a copy of its block's nearest earlier SCC writer, with nothing between them
//! that writes SCC: SCC then holds the same value there as at the original read.
//!
//! The copied computation's operands that are not copied themselves stay inputs shared by
//! both sides; they are read in `P`, so [`super::fn_index`] makes them live out of the block
//! that defines them, where the two sides are compared. A register only a preamble defines is
//! not live out of `P` ([`super::diff`]): its real definition is elsewhere.

use super::dom::{dominators, DomTree};
use super::emit::class_bank;
use super::mir::{Block, Function, Inst, MirFile, OpKind};
use super::ssa_widen::{inst_defs, writes_phys, Widening};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// At most this many instructions per preamble, and chains at most this deep: a longer chain
/// is cut, its operands there stay inputs (compared where they are defined), which is sound at
/// any cut.
const BUDGET: usize = 48;

/// How a definition may be copied into another block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// A wave-level value: SALU op or SGPR copy.
    Scalar,
    /// A per-lane value (VALU op, copy into a VGPR).
    Vector,
}

/// Which file a function comes from: the after-file's preambles need every lane that reads a
/// value to have run its definition (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    Before,
    After,
}

/// Both files canonicalised (`canon.rs`), with the preambles of values that cross blocks
/// (`ssa.rs`) in every function both hold.
pub(super) fn canonical(before: &MirFile, after: &MirFile) -> (MirFile, MirFile) {
    let (mut b, mut a) = (before.clone(), after.clone());
    for fa in &mut a.functions {
        if let Some(fb) = b.functions.iter().find(|g| g.name == fa.name) {
            super::phi_elim::restore(fb, fa);
        }
    }
    // Which form each SI_IF's saved mask has is a property of the function (`cf_lower.rs`).
    b.functions.iter_mut().for_each(super::cf_lower::annotate);
    a.functions.iter_mut().for_each(super::cf_lower::annotate);
    b.functions
        .iter_mut()
        .for_each(super::cf_lower::mark_exec_dead);
    a.functions
        .iter_mut()
        .for_each(super::cf_lower::mark_exec_dead);
    // Twice: a piece read through a copy (`%29 = COPY %1.sub0`, `%1 = COPY %22`) is a piece
    // read (`%22.sub0`) only once the copies are propagated (machine-sink deleting `%1`).
    for _ in 0..2 {
        for fb in &mut b.functions {
            if let Some(fa) = a.functions.iter_mut().find(|g| g.name == fb.name) {
                super::canon::pieces_pair(fb, fa);
            }
        }
        b.functions.iter_mut().for_each(super::canon::canonicalize);
        a.functions.iter_mut().for_each(super::canon::canonicalize);
    }
    for fb in &mut b.functions {
        if let Some(fa) = a.functions.iter_mut().find(|g| g.name == fb.name) {
            let merged = super::ssa_load::merged_claims(fb, fa);
            inline_pair(fb, fa);
            super::ssa_load::justify_claims(fb, fa, &merged);
        }
    }
    (b, a)
}

/// Add the preambles to a function of the before-file and the same function of the
/// after-file. The after-file's come first: a register the after-block reads but does not
/// copy (a lane may have been turned on since its definition) is not copied into the
/// before-block either, so both sides read the same input rather than the before-side a
/// value the after-side cannot be shown to have. Conversely (a trial run first) the
/// after-block does not copy what the before-block reads without copying.
pub fn inline_pair(before: &mut Function, after: &mut Function) {
    // A trial of both, to find what the before-file reads without copying it (a definition
    // that is no pure instruction there, `SI_IF_BREAK`, while the pass made it one,
    // `S_OR_B64`): the after-file must not copy those either, else the after-side computes a
    // value the before-side only has as an input (a false alarm).
    // Loads the before-file (the pass's input) says are invariant (`ssa_load.rs`).
    let trusted = super::ssa_load::invariant_defs(before);
    let moved = super::ssa_load::moved_loads(before, after);
    let none = BTreeSet::new();
    // And the after-file's loads si-load-store-opt merged from trusted ones.
    let mut merged = super::ssa_load::merged_invariant(before, after);
    merged.extend(trusted.iter().copied());
    let (t, ta) = ((&trusted, &none), (&merged, &moved));
    let mut trial_a = after.clone();
    inline_defs(&mut trial_a, Side::After, ta, &|_, _| true);
    let (reads_a, copied_a) = reads_copied(&trial_a);
    let mut trial_b = before.clone();
    inline_defs(&mut trial_b, Side::Before, t, &|num, id| {
        allowed(&reads_a, &copied_a, num, id)
    });
    let (reads_b, copied_b) = reads_copied(&trial_b);
    inline_defs(after, Side::After, ta, &|num, id| {
        allowed(&reads_b, &copied_b, num, id)
    });
    let (reads_a, copied_a) = reads_copied(after);
    inline_defs(before, Side::Before, t, &|num, id| {
        allowed(&reads_a, &copied_a, num, id)
    });
}

type PerBlock = HashMap<u32, BTreeSet<u32>>;

/// Whether a block `num` of one file may copy register `id`: the other file's block copies it
/// too, or does not read it.
fn allowed(reads: &PerBlock, copied: &PerBlock, num: u32, id: u32) -> bool {
    copied.get(&num).is_some_and(|c| c.contains(&id))
        || !reads.get(&num).is_some_and(|r| r.contains(&id))
}

/// What each block reads, its preamble included (a copied definition may read a register the
/// preamble does not copy), and the incoming values of its successors' PHIs (read at its end);
/// and what its preamble copies.
fn reads_copied(f: &Function) -> (PerBlock, PerBlock) {
    let by_num: HashMap<u32, &Block> = f.blocks.iter().map(|b| (b.num, b)).collect();
    let reads = f
        .blocks
        .iter()
        .map(|b| {
            let succs = b.successors.iter().filter_map(|s| by_num.get(s).copied());
            // Only reads the block's own definitions do not precede: a register the block
            // computes itself before reading it is no input there (licm_salu in
            // tests/data/tv/ssa: the before-block adds what LICM hoisted out of it).
            let mut read = BTreeSet::new();
            let mut defined = BTreeSet::new();
            // A PHI reads its incoming values on the edge, at the predecessor's end (counted
            // there, below), not in its own block: counting them here kept a block from
            // copying a constant machinelicm hoisted into the preheader that also feeds a
            // PHI of the loop header (`divergent_loop` bb.3, tests/data/tv/licm/phi_feed).
            for i in b.insts.iter().filter(|i| i.opcode != "PHI") {
                read.extend(inst_reads(i).filter(|id| !defined.contains(id)));
                defined.extend(i.defs.iter().filter_map(|d| match d.kind {
                    OpKind::VReg { id, .. } => Some(id),
                    _ => None,
                }));
            }
            read.extend(
                super::fn_index::reads(b, succs)
                    .into_iter()
                    .filter(|id| !defined.contains(id)),
            );
            (b.num, read)
        })
        .collect();
    let copied = f
        .blocks
        .iter()
        .map(|b| (b.num, b.inlined.clone()))
        .collect();
    (reads, copied)
}

/// Add, to every block of `f` reached from its entry, the preamble of pure definitions it reads
/// from dominating blocks (see the module documentation), and record them in `Block::inlined`.
/// `allow(block, register)`: whether the block's preamble may define the register.
fn inline_defs(
    f: &mut Function,
    side: Side,
    trusted: (&BTreeSet<u32>, &BTreeSet<u32>),
    allow: &dyn Fn(u32, u32) -> bool,
) {
    let n = f.blocks.len();
    if n < 2 {
        return;
    }
    let super::fn_index::Cfg {
        pos,
        succ,
        comp,
        cyclic,
        ..
    } = super::fn_index::Cfg::new(f);
    let idom = dominators(&succ);
    let open: Vec<bool> = f
        .blocks
        .iter()
        .map(|b| b.successors.iter().any(|s| !pos.contains_key(s)))
        .collect();
    let scc_in = super::scc_live::live_in(&f.blocks, &succ, &open);
    let defs = def_sites(f);
    let mode_written = f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
        writes_phys(i, |p| p == "mode")
            || ["S_SETREG", "S_DENORM_MODE", "S_ROUND_MODE", "SI_CALL"]
                .iter()
                .any(|p| i.opcode.starts_with(p))
    });
    // The after-file must not turn a lane on between a definition and a read (`SI_END_CF`,
    // `S_OR_B64_term $exec`): that lane never ran the definition, and what the after-program
    // reads there is not the definition's value.
    let widen = match side {
        // The before-program may read a lane it never wrote: that value is unspecified, so
        // taking it to be the definition's value is one of its behaviours.
        Side::Before => Widening::default(),
        Side::After => Widening::new(f, &succ),
    };
    let ctx = Ctx {
        f,
        defs: &defs,
        dom: &DomTree::new(&idom),
        comp: &comp,
        cyclic: &cyclic,
        mode_written,
        widen: &widen,
        allow,
        loads: &super::ssa_load::Stability::new(f, &succ, &cyclic, trusted),
    };
    let mut pre: Vec<(Vec<Inst>, BTreeSet<u32>)> = Vec::with_capacity(n);
    for p in 0..n {
        pre.push(if idom[p].is_some() && p != 0 {
            ctx.preamble(p, &succ, scc_in[p])
        } else {
            Default::default()
        });
    }
    // VALU copies go after a block's leading `SI_END_CF`s (`ssa_widen::leading_end_cfs`): they
    // then run under the restored EXEC, on every lane the block's code runs on.
    let vector: Vec<Vec<bool>> = pre
        .iter()
        .map(|(insts, _)| insts.iter().map(|i| writes_vector(i, &f.classes)).collect())
        .collect();
    for ((b, (insts, ids)), vec) in f.blocks.iter_mut().zip(pre).zip(vector) {
        if insts.is_empty() {
            continue;
        }
        let at = b.insts.iter().take_while(|i| i.opcode == "PHI").count();
        let ends = super::ssa_widen::leading_end_cfs(b);
        let (vs, ss): (Tagged, Tagged) = if ends > 0 {
            insts.into_iter().zip(vec).partition(|(_, v)| *v)
        } else {
            (Vec::new(), insts.into_iter().zip(vec).collect())
        };
        let after_ends = at + ends;
        b.insts
            .splice(after_ends..after_ends, vs.into_iter().map(|(i, _)| i));
        b.insts.splice(at..at, ss.into_iter().map(|(i, _)| i));
        b.inlined = ids;
    }
}

/// Preamble instructions, each with whether it is a VALU copy.
type Tagged = Vec<(Inst, bool)>;

/// Whether `i` defines a register outside the SGPRs (a VALU copy of the preamble).
fn writes_vector(i: &Inst, classes: &BTreeMap<u32, String>) -> bool {
    i.defs.iter().any(|d| match d.kind {
        OpKind::VReg { id, .. } => classes.get(&id).is_none_or(|c| class_bank(c) != 's'),
        _ => true,
    })
}

/// The only definition of each virtual register defined once: (block position, index).
fn def_sites(f: &Function) -> HashMap<u32, (usize, usize)> {
    let mut count: HashMap<u32, (u32, usize, usize)> = HashMap::new();
    for (k, b) in f.blocks.iter().enumerate() {
        for (j, i) in b.insts.iter().enumerate() {
            for id in inst_defs(i) {
                let e = count.entry(id).or_insert((0, k, j));
                e.0 += 1;
            }
        }
    }
    count
        .into_iter()
        .filter(|(_, (c, _, _))| *c == 1)
        .map(|(id, (_, k, j))| (id, (k, j)))
        .collect()
}

/// Virtual registers `i` reads (not `undef` ones: they read nothing defined).
fn inst_reads(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def && !o.flags.undef)
        .filter_map(|o| match o.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
}

struct Ctx<'a> {
    f: &'a Function,
    defs: &'a HashMap<u32, (usize, usize)>,
    dom: &'a DomTree,
    comp: &'a [usize],
    cyclic: &'a [bool],
    mode_written: bool,
    /// Where the after-program turns lanes on (see [`inline_defs`]).
    widen: &'a Widening,
    /// Whether the preamble of block `num` may define a register (see [`inline_pair`]).
    allow: &'a dyn Fn(u32, u32) -> bool,
    /// Whether memory stays as it is from a load to a reader (`ssa_load.rs`).
    loads: &'a super::ssa_load::Stability<'a>,
}

impl Ctx<'_> {
    /// The preamble of block `p` and the registers it defines.
    fn preamble(
        &self,
        p: usize,
        succ: &[Vec<usize>],
        scc_live: bool,
    ) -> (Vec<Inst>, BTreeSet<u32>) {
        let b = &self.f.blocks[p];
        let lanes_ok = !touches_other_lanes(b, &self.f.classes);
        // What `p` reads before defining it, and what its successors' PHIs read on the edge.
        let wanted = super::fn_index::reads(b, succ[p].iter().map(|&s| &self.f.blocks[s]));
        let mut out = Vec::new();
        let mut done: BTreeSet<u32> = BTreeSet::new();
        let mut seen: BTreeSet<u32> = BTreeSet::new();
        for id in wanted {
            self.visit(
                (id, 0),
                p,
                (lanes_ok, scc_live),
                &mut seen,
                &mut done,
                &mut out,
            );
        }
        (out, done)
    }

    /// Add `id`'s definition (after its operands') to the preamble of `p` if it may be copied.
    fn visit(
        &self,
        (id, depth): (u32, usize),
        p: usize,
        ok: (bool, bool),
        seen: &mut BTreeSet<u32>,
        done: &mut BTreeSet<u32>,
        out: &mut Vec<Inst>,
    ) {
        if depth >= BUDGET || out.len() >= BUDGET || !seen.insert(id) {
            return;
        }
        let Some(&(k, j)) = self.defs.get(&id) else {
            return;
        };
        if !(self.allow)(self.f.blocks[p].num, id) {
            return;
        }
        if k == p || !self.dominates(k, p) {
            return;
        }
        let d = &self.f.blocks[k].insts[j];
        let Some(kind) = self.kind(d) else {
            return;
        };
        if super::ssa_load::load_kind(d).is_some() && !self.loads.stable(d, id, (k, j), p) {
            return;
        }
        // Every register it reads has one definition too: an operand written again between
        // the definition and the read (MIR out of SSA) would give the copy another value.
        if !inst_reads(d).all(|op| self.defs.contains_key(&op)) {
            return;
        }
        let (lanes_ok, scc_live) = ok;
        if kind == Kind::Vector
            && (!lanes_ok
                || !self.once_per_value(d, k)
                || self.widen.between(k, p, &|a, b| self.dominates(a, b)))
        {
            return;
        }
        if scc_live && writes_phys(d, |r| r == "scc") {
            return;
        }
        // A carry-in (`S_ADDC_U32`, `S_SUBB_U32`, `S_CSELECT_*`) reads the SCC its block's
        // nearest earlier SCC writer left: that writer is copied right before it.
        let carry = match super::scc::reads(d) {
            false => None,
            // The writer's copy would overwrite the SCC the block reads.
            true if scc_live => return,
            true => match self.scc_writer(k, j) {
                Some(w) => Some(w),
                None => return,
            },
        };
        for op in inst_reads(d).collect::<Vec<_>>() {
            self.visit((op, depth + 1), p, ok, seen, done, out);
        }
        if let Some(w) = carry {
            for op in inst_reads(w).collect::<Vec<_>>() {
                self.visit((op, depth + 1), p, ok, seen, done, out);
            }
            let last_scc = out.iter().rposition(|i| writes_phys(i, |r| r == "scc"));
            // A compare defines no register: copying it again is harmless.
            let w_done = inst_defs(w).next().is_some() && inst_defs(w).all(|id| done.contains(&id));
            match (w_done, last_scc) {
                // The writer's copy is the last SCC write of the preamble: SCC is still its.
                (true, Some(at)) if inst_defs(&out[at]).eq(inst_defs(w)) => {}
                // Copied earlier and SCC overwritten since: a second copy would define its
                // registers twice; the carry-in is not copied (its readers stay inputs).
                (true, _) => return,
                (false, _) if out.len() + 2 > BUDGET => return,
                (false, _) => {
                    seen.extend(inst_defs(w));
                    done.extend(inst_defs(w));
                    out.push(w.clone());
                }
            }
        }
        if out.len() < BUDGET {
            // Every register it defines is defined once: `kind` refuses other definitions.
            done.extend(inst_defs(d));
            out.push(d.clone());
        }
    }

    /// The instruction of block `k` before index `j` that last wrote SCC, when it may be
    /// copied as a scalar value and nothing between it and `j` may clobber SCC unseen (a call,
    /// inline assembly).
    fn scc_writer(&self, k: usize, j: usize) -> Option<&Inst> {
        let insts = &self.f.blocks[k].insts[..j];
        let at = insts.iter().rposition(|i| writes_phys(i, |r| r == "scc"))?;
        let opaque = |i: &Inst| i.opcode.contains("CALL") || i.opcode.starts_with("INLINEASM");
        if insts[at + 1..].iter().any(opaque) {
            return None;
        }
        let w = &insts[at];
        let ok = (self.kind(w) == Some(Kind::Scalar) || self.scalar_compare(w))
            && !super::scc::reads(w)
            && inst_reads(w).all(|op| self.defs.contains_key(&op))
            && inst_defs(w).all(|id| self.defs.get(&id) == Some(&(k, at)));
        ok.then_some(w)
    }

    /// Whether block `a` dominates block `b` (both reached from the entry): `a` encloses `b`
    /// in the dominator tree's depth-first numbering.
    fn dominates(&self, a: usize, b: usize) -> bool {
        self.dom.dominates(a, b)
    }

    /// A VALU definition runs at most once per value of its operands: it is on no cycle, or
    /// every register it reads is defined once, outside its cycle.
    fn once_per_value(&self, d: &Inst, k: usize) -> bool {
        !self.cyclic[k]
            || inst_reads(d).all(|op| {
                self.defs
                    .get(&op)
                    .is_some_and(|&(ko, _)| self.comp[ko] != self.comp[k])
            })
    }

    /// An SALU compare (`S_CMP_*`, `S_BITCMP*`): SGPR or constant operands, SCC its one result.
    fn scalar_compare(&self, w: &Inst) -> bool {
        let op = w.opcode.as_str();
        let scalar = |o: &super::mir::Operand| match &o.kind {
            OpKind::VReg { id, .. } => self.f.classes.get(id).is_some_and(|c| class_bank(c) == 's'),
            OpKind::Phys(p) => p == "scc" && (o.flags.def || o.flags.implicit_def),
            OpKind::Imm(_) => true,
            _ => false,
        };
        (op.starts_with("S_CMP_") || op.starts_with("S_BITCMP"))
            && inst_defs(w).next().is_none()
            && w.defs.iter().chain(&w.ops).all(scalar)
    }

    /// Whether `d` may be copied, and how: see the module documentation.
    fn kind(&self, d: &Inst) -> Option<Kind> {
        let op = d.opcode.as_str();
        let bank = |o: &super::mir::Operand| match o.kind {
            OpKind::VReg { id, .. } => self.f.classes.get(&id).map(|c| class_bank(c)),
            _ => None,
        };
        // Every register it defines is a virtual register defined only here.
        let mut out_banks = Vec::new();
        for o in d
            .defs
            .iter()
            .chain(d.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        {
            match &o.kind {
                OpKind::VReg { id, .. } if self.defs.contains_key(id) => out_banks.push(bank(o)?),
                OpKind::Phys(p) if p == "scc" && op.starts_with("S_") => {}
                _ => return None,
            }
        }
        if out_banks.is_empty() {
            return None;
        }
        // Physical registers read: EXEC (a VALU op's mask) and MODE when nothing writes it.
        for o in d
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
        {
            if let OpKind::Phys(p) = &o.kind {
                let vector = op.starts_with("V_") || op.starts_with("GLOBAL_LOAD_");
                // SCC: a carry-in, copied with its writer (`visit`).
                let allowed = (p == "exec" && vector)
                    || (p == "mode" && !self.mode_written)
                    || (p == "scc" && op.starts_with("S_"));
                if !allowed {
                    return None;
                }
            }
        }
        let in_banks: Vec<char> = d.ops.iter().filter_map(bank).collect();
        let scalar_out = out_banks.iter().all(|&b| b == 's');
        if matches!(
            op,
            "COPY" | "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG"
        ) {
            return match scalar_out {
                // A VGPR-to-SGPR copy reads the first active lane: EXEC decides.
                true if in_banks.iter().all(|&b| b == 's') => Some(Kind::Scalar),
                true => None,
                false if out_banks.iter().all(|&b| b != 's') => Some(Kind::Vector),
                false => None,
            };
        }
        // A load whose memory stays as it is (checked by the caller, `ssa_load.rs`).
        match super::ssa_load::load_kind(d) {
            Some(super::ssa_load::LoadKind::Scalar) if scalar_out => return Some(Kind::Scalar),
            Some(super::ssa_load::LoadKind::Vector) if out_banks.iter().all(|&b| b != 's') => {
                return Some(Kind::Vector)
            }
            Some(_) => return None,
            None => {}
        }
        if op.starts_with("S_") && scalar_out && in_banks.iter().all(|&b| b == 's') {
            return (super::effects::memory_of(op) == super::effects::Mem::Pure
                && !super::effects::is_terminator(op)
                && !scalar_excluded(op))
            .then_some(Kind::Scalar);
        }
        if op.starts_with("V_") && out_banks.iter().all(|&b| b != 's') {
            return (super::effects::memory_of(op) == super::effects::Mem::Pure
                && !other_lanes(op))
            .then_some(Kind::Vector);
        }
        None
    }
}

/// SALU ops whose result is not a function of their register operands alone.
fn scalar_excluded(op: &str) -> bool {
    // The EXEC-writing and -reading forms read a physical register the operands name anyway
    // (refused above); these read state the operands do not name.
    [
        "S_GETPC",
        "S_GETREG",
        "S_MEMTIME",
        "S_MEMREALTIME",
        "S_SENDMSG",
        "S_TTRACE",
        "S_RFE",
    ]
    .iter()
    .any(|p| op.starts_with(p))
}

/// VALU ops that read or write other lanes than their own, or run whole-wave.
fn other_lanes(op: &str) -> bool {
    const CROSS: [&str; 7] = [
        "V_READLANE",
        "V_READFIRSTLANE",
        "V_WRITELANE",
        "V_PERMLANE",
        "V_SET_INACTIVE",
        "V_MOV_B32_DPP",
        "V_MOV_B64_DPP",
    ];
    CROSS.iter().any(|p| op.starts_with(p))
        || op.contains("_dpp")
        || op.contains("DPP")
        || op.contains("WWM")
        || op.contains("WQM")
}

/// Whether block `b` may read a lane its EXEC leaves inactive, or writes EXEC before its
/// terminators: a VALU preamble (which writes only the active lanes) is then not added.
fn touches_other_lanes(b: &Block, classes: &BTreeMap<u32, String>) -> bool {
    // Leading `SI_END_CF`s only restore lanes before the VALU copies run (see `inline_defs`);
    // which lanes they turn on is `Widening`'s question.
    let phis = b.insts.iter().take_while(|i| i.opcode == "PHI").count();
    let skip = phis..phis + super::ssa_widen::leading_end_cfs(b);
    b.insts
        .iter()
        .enumerate()
        .filter(|(k, _)| !skip.contains(k))
        .any(|(_, i)| {
            let op = i.opcode.as_str();
            let vgpr_to_sgpr = matches!(
                op,
                "COPY" | "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG"
            ) && i.defs.iter().any(|d| match d.kind {
                OpKind::VReg { id, .. } => classes.get(&id).is_some_and(|c| class_bank(c) == 's'),
                OpKind::Phys(ref p) => {
                    p.starts_with("sgpr") || p.starts_with("vcc") || p.starts_with("exec")
                }
                _ => false,
            }) && i.ops.iter().any(|o| match o.kind {
                OpKind::VReg { id, .. } => classes.get(&id).is_some_and(|c| class_bank(c) != 's'),
                OpKind::Phys(ref p) => p.starts_with("vgpr") || p.starts_with("agpr"),
                _ => false,
            });
            vgpr_to_sgpr
            || other_lanes(op)
            || op.starts_with("DS_BPERMUTE")
            || op.starts_with("DS_PERMUTE")
            || op.starts_with("DS_SWIZZLE")
            || op.starts_with("SI_CALL")
            || op.starts_with("S_SETPC")
            || op.starts_with("INLINEASM")
            // SI_IF_BREAK ORs EXEC & a lane mask into a mask: no VGPR lane is read.
            || (op.starts_with("SI_") && !super::effects::is_terminator(op) && op != "SI_IF_BREAK")
            || op.starts_with("STRICT_")
            || op.starts_with("ENTER_STRICT")
            || op.starts_with("EXIT_STRICT")
            || (!super::effects::is_terminator(op) && writes_phys(i, |p| p.starts_with("exec")))
        })
}
