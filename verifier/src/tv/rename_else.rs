//! Else-region PHIs in the renaming checker (`rename.rs`): what `si-opt-vgpr-liverange`
//! (SIOptimizeVGPRLiveRange::optimizeLiveRange) adds. For a VGPR `%r` defined above an
//! `SI_IF`/`SI_ELSE` diamond and read in the else-block, it puts
//! `%n = PHI %r, %bb.I, undef %u, %bb.T` into the flow block F (the `SI_ELSE` block) and makes
//! the else-block E read `%n`, so `%r` is dead in the then-block T and the allocator may give
//! its register to T's values.
//!
//! The block checks read the PHI as a whole-register copy on each edge, so the wave that runs
//! T (`undef` on every lane) reads garbage in E: a false alarm in I, T and E (`divergent_loop`,
//! `stencil_2d`). The pass is right per thread (LLVM's meaning of a PHI before control-flow
//! lowering): a thread in E came into F from I (`SI_ELSE` sends the threads that ran T to the
//! end of the `if`), so `%n` holds `%r` there. Soundness (docs/tv.md, "Else-region PHIs"): the
//! after-function is rewritten back, `%n`'s reads reading `%r` and the PHI deleted, only under
//! the conditions of [`find`], which make the per-thread reading hold on the hardware too.

use super::alloc_ops::lane_local;
use super::emit::{class_bank, class_dwords};
use super::mir::{Block, Function, Inst, OpKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `o` writes EXEC (or a half of it).
fn writes_exec(o: &Operand, def: bool) -> bool {
    let exec = matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec"));
    exec && (def || o.flags.def || o.flags.implicit_def)
}

/// Whether `i` may change EXEC, or run code that writes lanes EXEC leaves off (calls, inline
/// assembly, whole-wave mode).
fn exec_effect(i: &Inst) -> bool {
    i.defs.iter().any(|o| writes_exec(o, true))
        || i.ops.iter().any(|o| writes_exec(o, false))
        || i.opcode.starts_with("SI_CALL")
        || i.opcode.starts_with("INLINEASM")
        || i.opcode.contains("WWM")
        || i.opcode.contains("WQM")
        || i.opcode.contains("STRICT")
}

fn vreg(o: &Operand) -> Option<u32> {
    match o.kind {
        OpKind::VReg { id, .. } => Some(id),
        _ => None,
    }
}

/// Every register an instruction defines (explicitly or by a def flag).
fn defs(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        .filter_map(vreg)
}

/// Every register an instruction reads.
fn uses(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def)
        .filter_map(vreg)
}

/// The block number a `%bb.N` operand names.
fn bb(o: &Operand) -> Option<u32> {
    match &o.kind {
        OpKind::Other(s) => s.strip_prefix("%bb.")?.parse().ok(),
        _ => None,
    }
}

struct Cfg<'a> {
    f: &'a Function,
    preds: BTreeMap<u32, Vec<u32>>,
}

impl Cfg<'_> {
    fn block(&self, n: u32) -> Option<&Block> {
        self.f.blocks.iter().find(|b| b.num == n)
    }

    /// The block where `m` is defined by `m = SI_IF %c, %bb.F`, if that is its only definition.
    fn si_if(&self, m: u32, f: u32) -> Option<u32> {
        let mut found = None;
        for b in &self.f.blocks {
            for i in &b.insts {
                if defs(i).any(|d| d == m) {
                    let ok = i.opcode == "SI_IF" && i.ops.get(1).and_then(bb) == Some(f);
                    if !ok || found.is_some() {
                        return None;
                    }
                    found = Some(b.num);
                }
            }
        }
        found
    }

    /// The else-block of flow block `f`: `f` ends in `%m2 = SI_ELSE %m, %bb.X` and a branch to
    /// E != X, E's only predecessor is `f`; returns (I, E) with I the block of `%m`'s `SI_IF`.
    fn diamond(&self, f: &Block) -> Option<(u32, u32)> {
        let k = f.insts.iter().position(|i| i.opcode == "SI_ELSE")?;
        let el = &f.insts[k];
        let m = el.ops.first().and_then(vreg)?;
        let endif = el.ops.get(1).and_then(bb)?;
        let rest = &f.insts[k + 1..];
        let e = match rest {
            [br] if br.opcode == "S_BRANCH" => br.ops.first().and_then(bb)?,
            _ => return None,
        };
        let mut succ = f.successors.clone();
        succ.sort_unstable();
        let mut want = vec![e, endif];
        want.sort_unstable();
        if e == endif || succ != want || self.preds.get(&e)? != &vec![f.num] {
            return None;
        }
        Some((self.si_if(m, f.num)?, e))
    }

    /// The then-block `t` runs only after I, goes only to F, and keeps EXEC.
    fn then_block(&self, t: u32, i: u32, f: u32) -> bool {
        let Some(b) = self.block(t) else { return false };
        t != i
            && self.preds.get(&t) == Some(&vec![i])
            && b.successors == [f]
            && !b.insts.iter().any(exec_effect)
    }
}

/// One candidate PHI of block `f`: `%n = PHI %r, %bb.I, undef %u, %bb.T...` (whole VGPRs of
/// one shape); returns (n, r).
fn phi(cfg: &Cfg, f: &Block, p: &Inst, (i, e): (u32, u32)) -> Option<(u32, u32)> {
    let [d] = p.defs.as_slice() else { return None };
    let OpKind::VReg { id: n, sub: None } = d.kind else {
        return None;
    };
    let class = |r| cfg.f.classes.get(&r).map(String::as_str);
    let vgpr = |r| class(r).is_some_and(|c| class_bank(c) == 'v');
    let shape = |r| class(r).and_then(class_dwords);
    if p.opcode != "PHI" || d.flags.undef || !vgpr(n) || shape(n).is_none() {
        return None;
    }
    let mut r = None;
    let mut from = BTreeSet::new();
    for pair in p.ops.chunks(2) {
        let [v, b] = pair else { return None };
        let (OpKind::VReg { id, sub: None }, Some(b)) = (&v.kind, bb(b)) else {
            return None;
        };
        from.insert(b);
        match (b == i, v.flags.undef) {
            (true, false) if vgpr(*id) && shape(*id) == shape(n) && *id != n => r = Some(*id),
            (false, true) if cfg.then_block(b, i, f.num) => {}
            _ => return None,
        }
    }
    let preds: BTreeSet<u32> = cfg.preds.get(&f.num)?.iter().copied().collect();
    if from != preds || from.len() < 2 {
        return None;
    }
    let r = r?;
    // `%n`: this PHI its only definition, read only in E by lane-local instructions before
    // any EXEC change there. `%r`: defined in none of T, F, E (so not again between I's end
    // and the read).
    let region: BTreeSet<u32> = from
        .iter()
        .copied()
        .filter(|&b| b != i)
        .chain([f.num, e])
        .collect();
    let mut exec_changed = false;
    for b in &cfg.f.blocks {
        for x in &b.insts {
            let is_p = std::ptr::eq(x, p);
            if (!is_p && defs(x).any(|v| v == n))
                || (region.contains(&b.num) && defs(x).any(|v| v == r))
            {
                return None;
            }
            if uses(x).any(|v| v == n) && (b.num != e || exec_changed || !lane_local(&x.opcode)) {
                return None;
            }
            if b.num == e && exec_effect(x) {
                exec_changed = true;
            }
        }
    }
    Some((n, r))
}

/// The else-region PHIs of `af` (module doc) whose register `bf` names nowhere, each with the
/// register its reads become.
pub fn find(bf: &Function, af: &Function) -> BTreeMap<u32, u32> {
    let named: BTreeSet<u32> = bf
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .flat_map(|i| i.defs.iter().chain(&i.ops))
        .filter_map(vreg)
        .collect();
    // The predecessors come from the `successors:` lines: a block without one that does not
    // end the program (hand-written MIR, whose successors llc infers) makes them unknown.
    let ends = |b: &Block| {
        b.insts.last().is_some_and(|i| {
            ["S_ENDPGM", "SI_RETURN", "S_SETPC_B64_return", "SI_TCRETURN"]
                .iter()
                .any(|p| i.opcode.starts_with(p))
        })
    };
    if af.blocks.iter().any(|b| !b.successors_listed && !ends(b)) {
        return BTreeMap::new();
    }
    let mut preds: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for b in &af.blocks {
        for &s in &b.successors {
            preds.entry(s).or_default().push(b.num);
        }
    }
    let cfg = Cfg { f: af, preds };
    let mut out = BTreeMap::new();
    for f in &af.blocks {
        let Some(ie) = cfg.diamond(f) else { continue };
        for p in f.insts.iter().take_while(|i| i.opcode == "PHI") {
            if let Some((n, r)) = phi(&cfg, f, p, ie).filter(|(n, _)| !named.contains(n)) {
                out.insert(n, r);
            }
        }
    }
    out
}

/// `af` with the PHIs of `subst` deleted and their reads reading the PHI's `%r`.
pub fn apply(af: &Function, subst: &BTreeMap<u32, u32>) -> Function {
    let mut f = af.clone();
    for b in &mut f.blocks {
        b.insts.retain(|i| {
            i.opcode != "PHI"
                || !i
                    .defs
                    .iter()
                    .filter_map(vreg)
                    .any(|d| subst.contains_key(&d))
        });
    }
    super::rename_phi::apply(&f, subst)
}
