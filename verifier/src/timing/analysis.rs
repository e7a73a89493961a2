//! The pending-access analysis of one function, over its CFG to a fixpoint.
//!
//! Abstract state: the accesses that may still be pending, one entry per (issuing
//! instruction, counter), each with `k`, a lower bound on the number of later accesses of the
//! same in-order kind on that counter that are pending whenever it is (in-order completion:
//! if it is pending, every later access of its kind is too). A wait `counter <= N` completes
//! an entry exactly when `1 + k > N`: otherwise a schedule exists in which the `N` allowed
//! survivors include it (complete the others first). Out-of-order entries keep `k = 0`, so
//! only a wait for 0 completes them. At a join the entries are united and `k` is the minimum
//! (an under-approximation, so never a completion the hardware does not guarantee).

use super::classify::{Access, Action};
use super::regs::RegSet;
use gcnsmt_lifter::counters::{self, Counter, Effect, MemFamily, Order};

/// One issuing point: an instruction, or the accesses the caller left pending.
#[derive(Clone, Debug)]
pub struct Site {
    /// The instruction, if the site is one.
    pub inst: Option<usize>,
    /// Registers written at completion.
    pub writes: RegSet,
    /// Sources read after issue.
    pub held: RegSet,
    /// The counter covering `held`.
    pub held_until: Option<Counter>,
    /// Counters incremented.
    pub effects: Vec<Effect>,
}

/// One pending entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The issuing site.
    pub site: u32,
    /// The counter it is pending on.
    pub counter: Counter,
    /// Later accesses of its in-order kind pending whenever it is (a lower bound).
    pub k: u32,
    /// The predecessor block this entry came from at a block entry (witness paths).
    pub from: u32,
}

/// The abstract state: entries sorted by (site, counter).
pub type State = Vec<Entry>;

/// `k` beyond the largest counter value changes nothing.
const K_CAP: u32 = 64;

/// What went wrong at an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    /// Reads a register a pending access will write.
    Read,
    /// Writes a register a pending access will write (the access's value may land later).
    Overwrite,
    /// Writes a source register a pending access has not read yet.
    OverwriteSource,
    /// Returns to the caller with the access pending (the caller assumes it complete).
    ReturnPending,
    /// Reaches a point where a memory-ordering wait was requested (si-memory-legalizer's
    /// `S_WAITCNT_soft`, `S_WAITCNT_lds_direct`) with the access still pending.
    Ordering,
    /// The same, for an access the sources do not say counts on the counter (a cache
    /// write-back or invalidate, a message): it may or may not hold the wait up.
    OrderingMaybe,
    /// A branch on VCCZ that an SMEM access may have corrupted (gfx6/gfx7, LLVM
    /// `hasReadVCCZBug`; `timing/vccz.rs`).
    Vccz,
}

/// A wait the code must honour before an instruction: every access that wait would complete
/// must already be complete there. Sources: a before-file's waits in tv (si-insert-waitcnts
/// may drop or relax a soft wait only when its counters are already satisfied, and only merge
/// or strengthen a hard one), and the hardware (`S_BARRIER` without back-off, `check.rs`).
#[derive(Clone, Debug)]
pub struct Obligation {
    /// The counters and the values they must be at.
    pub waits: Vec<(Counter, u32)>,
    /// Only accesses that write LDS (LDS DMA) are concerned (`S_WAITCNT_lds_direct`).
    pub lds_only: bool,
    /// Only accesses that may raise a memory exception are concerned (`S_BARRIER` without
    /// back-off): not a cache invalidate, which carries no address.
    pub faulting_only: bool,
    /// Why the wait is required (printed with the hazard).
    pub why: String,
}

/// A hazard: the pending access, where it bites and the registers involved.
#[derive(Clone, Debug)]
pub struct Hazard {
    /// The pending access's site.
    pub site: usize,
    /// The instruction that reads or writes too early.
    pub at: usize,
    /// The counter on which the access may still be pending.
    pub counter: Counter,
    /// Read, overwrite, or overwrite of a held source.
    pub kind: HazardKind,
    /// The registers involved.
    pub regs: RegSet,
}

/// The analysis of one function.
pub struct Analysis<'a> {
    /// Each instruction's action.
    pub actions: &'a [Action],
    /// Blocks.
    pub blocks: &'a [super::cfg::Block],
    /// Issuing sites (instructions first, then the pseudo-sites).
    pub sites: Vec<Site>,
    /// Block of each instruction.
    pub block_of: Vec<usize>,
    /// The state at each block's entry (None: unreachable).
    pub entry: Vec<Option<State>>,
    /// Waits to ignore (the redundancy check).
    pub disabled: Vec<usize>,
    /// A callable function: a return with accesses other than stores pending breaks the
    /// calling convention callers rely on.
    pub check_returns: bool,
    /// VMEM loads of one kind write their VGPRs in issue order (LLVM
    /// `FeatureVmemWriteVgprInOrder`: SI to GFX11, not GFX12 or gfx1250), so a later one
    /// that overwrites a pending one's destination is no hazard; false: a WAW needs a wait.
    pub vgpr_writes_in_order: bool,
    /// Memory-ordering waits to honour before an instruction (by instruction index).
    pub obligations: Vec<(usize, Obligation)>,
}

impl<'a> Analysis<'a> {
    /// Set up: one site per memory instruction, plus `pseudo` sites (the caller's left-overs).
    pub fn new(actions: &'a [Action], blocks: &'a [super::cfg::Block], pseudo: Vec<Site>) -> Self {
        let mut sites: Vec<Site> = actions
            .iter()
            .enumerate()
            .map(|(i, a)| match a {
                Action::Mem(Access {
                    effects,
                    writes,
                    held,
                    held_until,
                    ..
                }) => Site {
                    inst: Some(i),
                    writes: writes.clone(),
                    held: held.clone(),
                    held_until: *held_until,
                    effects: effects.clone(),
                },
                _ => Site {
                    inst: Some(i),
                    writes: RegSet::new(),
                    held: RegSet::new(),
                    held_until: None,
                    effects: vec![],
                },
            })
            .collect();
        sites.extend(pseudo);
        let mut block_of = vec![0; actions.len()];
        for (b, bl) in blocks.iter().enumerate() {
            block_of[bl.start..bl.end].fill(b);
        }
        Analysis {
            actions,
            blocks,
            sites,
            block_of,
            entry: vec![None; blocks.len()],
            disabled: Vec::new(),
            check_returns: false,
            vgpr_writes_in_order: true,
            obligations: Vec::new(),
        }
    }

    /// The order of an entry's effect.
    fn effect(&self, site: u32, c: Counter) -> Effect {
        *self.sites[site as usize]
            .effects
            .iter()
            .find(|e| e.counter == c)
            .expect("entry of an effect")
    }

    /// Add the entries of `site` (issued now).
    pub fn issue(&self, st: &mut State, site: usize) {
        for eff in &self.sites[site].effects {
            if let (true, Order::InOrder(kind)) = (eff.definite, eff.order) {
                for e in st.iter_mut() {
                    if e.counter == eff.counter
                        && self.effect(e.site, e.counter).order == Order::InOrder(kind)
                    {
                        e.k = (e.k + 1).min(K_CAP);
                    }
                }
            }
            let new = Entry {
                site: site as u32,
                counter: eff.counter,
                k: 0,
                from: u32::MAX,
            };
            match st.binary_search_by_key(&(new.site, new.counter), |e| (e.site, e.counter)) {
                Ok(at) => st[at] = new,
                Err(at) => st.insert(at, new),
            }
        }
    }

    /// Apply a wait; whether it completed anything, and whether it completed an access that
    /// writes no register (a store, an LDS write: its wait may order memory for other waves,
    /// which this analysis does not model). An access that completed has also read its
    /// sources and had its address translated: its `held_until` entry (expcnt for gfx6 store
    /// data and GDS, xcnt on gfx1250) goes with it.
    fn wait(&self, st: &mut State, w: &[(Counter, u32)]) -> (bool, bool) {
        let before = st.len();
        let mut done: Vec<u32> = Vec::new();
        let mut memory = false;
        st.retain(|e| {
            let gone = w.iter().any(|&(c, n)| c == e.counter && 1 + e.k > n);
            let site = &self.sites[e.site as usize];
            // A DS access holds LDS on its own counter: that entry is its completion too.
            let own = site.held_until != Some(e.counter) || site.held.overlaps(&RegSet::lds());
            if gone && own {
                done.push(e.site);
                memory |= site.writes.is_empty() || site.writes.overlaps(&RegSet::lds());
            }
            !gone
        });
        if !done.is_empty() {
            // Not where the held counter is the access's own LDS counter (a FLAT access that
            // may reach LDS holds LDS on lgkmcnt/dscnt): completing on vmcnt does not complete
            // it there ([VEGA] FLAT: not done until both counters say so).
            st.retain(|e| {
                let site = &self.sites[e.site as usize];
                !(done.contains(&e.site)
                    && site.held_until == Some(e.counter)
                    && !site.held.overlaps(&RegSet::lds()))
            });
        }
        (st.len() != before, memory)
    }

    /// The accesses still pending at instruction `i` that an obligation there would complete.
    fn unordered(&self, st: &State, i: usize, out: &mut Vec<Hazard>) {
        for (_, ob) in self.obligations.iter().filter(|(at, _)| *at == i) {
            for e in st {
                let site = &self.sites[e.site as usize];
                let invalidate = site.inst.is_some_and(|i| {
                    matches!(&self.actions[i], Action::Mem(a) if a.family == MemFamily::CacheInv)
                });
                let concerned = (!ob.lds_only || site.writes.overlaps(&RegSet::lds()))
                    && !(ob.faulting_only && invalidate);
                let would_complete = ob.waits.iter().any(|&(c, n)| c == e.counter && 1 + e.k > n);
                if concerned && would_complete {
                    let definite = self.effect(e.site, e.counter).definite;
                    out.push(Hazard {
                        site: e.site as usize,
                        at: i,
                        counter: e.counter,
                        kind: if definite {
                            HazardKind::Ordering
                        } else {
                            HazardKind::OrderingMaybe
                        },
                        regs: RegSet::new(),
                    });
                }
            }
        }
    }

    /// The hazards of instruction `i` in state `st`.
    fn hazards(&self, st: &State, i: usize, out: &mut Vec<Hazard>) {
        self.unordered(st, i, out);
        let mut sync_reads = None;
        let (mentions, writes, own) = match &self.actions[i] {
            Action::Sync {
                mentions,
                writes,
                reads,
                ..
            } => {
                sync_reads = Some(reads);
                (mentions.clone(), writes.clone(), None)
            }
            Action::Mem(a) => {
                let mut m = a.reads.clone();
                m.union(&a.writes);
                m.union(&a.held);
                (m, a.writes.clone(), Some(a))
            }
            Action::End { reads, ret: true } if self.check_returns => {
                self.return_pending(st, i, out);
                (reads.clone(), RegSet::new(), None)
            }
            Action::Branch { reads, .. } | Action::End { reads, .. } => {
                (reads.clone(), RegSet::new(), None)
            }
            Action::Call { mentions, writes } => (mentions.clone(), writes.clone(), None),
            Action::Wait(_) | Action::Unknown(_) => return,
        };
        for e in st {
            let site = &self.sites[e.site as usize];
            let holds_writes = e.counter != Counter::X;
            if holds_writes && site.writes.overlaps(&mentions) {
                let hit = site.writes.intersect(&mentions);
                if !self.same_kind_overwrite(e, own, &hit) {
                    let read = match (own, sync_reads) {
                        // A DS store holds LDS but writes it: an overwrite.
                        (Some(a), _) => {
                            a.reads.overlaps(&hit)
                                || (a.held.overlaps(&hit) && hit != RegSet::lds())
                        }
                        (None, Some(r)) => r.overlaps(&hit),
                        (None, None) => !writes.contains(&hit),
                    };
                    out.push(Hazard {
                        site: e.site as usize,
                        at: i,
                        counter: e.counter,
                        kind: if read {
                            HazardKind::Read
                        } else {
                            HazardKind::Overwrite
                        },
                        regs: hit,
                    });
                }
            }
            if site.held_until == Some(e.counter) && site.held.overlaps(&writes) {
                out.push(Hazard {
                    site: e.site as usize,
                    at: i,
                    counter: e.counter,
                    kind: HazardKind::OverwriteSource,
                    regs: site.held.intersect(&writes),
                });
            }
        }
    }

    /// At a return: every access still pending (but stores on vscnt/storecnt) is one the
    /// caller assumes complete.
    fn return_pending(&self, st: &State, i: usize, out: &mut Vec<Hazard>) {
        for e in st {
            if !matches!(e.counter, Counter::Vs | Counter::Store) {
                let site = &self.sites[e.site as usize];
                let mut regs = site.writes.clone();
                regs.union(&site.held);
                out.push(Hazard {
                    site: e.site as usize,
                    at: i,
                    counter: e.counter,
                    kind: HazardKind::ReturnPending,
                    regs,
                });
            }
        }
    }

    /// A later load of the same in-order kind on the same counter that only overwrites the
    /// pending one's destination completes after it, so the register ends with the later value
    /// (LLVM's `VmemType` rule): no hazard.
    fn same_kind_overwrite(&self, e: &Entry, own: Option<&Access>, hit: &RegSet) -> bool {
        let Some(a) = own else { return false };
        if !self.vgpr_writes_in_order {
            return false;
        }
        let Order::InOrder(kind) = self.effect(e.site, e.counter).order else {
            return false;
        };
        let same = a
            .effects
            .iter()
            .any(|f| f.counter == e.counter && f.definite && f.order == Order::InOrder(kind));
        let others_in_order = self.sites[e.site as usize]
            .effects
            .iter()
            .all(|f| matches!(f.order, Order::InOrder(_)));
        // One completion order on vmcnt, but VGPR writes ordered only within a VMEM type
        // (a sampler and a buffer load into one VGPR need a wait: breaker 21's 04 and 09).
        let pending = match self.sites[e.site as usize].inst.map(|i| &self.actions[i]) {
            Some(Action::Mem(p)) => p,
            _ => return false,
        };
        let same_type =
            counters::vgpr_write_type(pending.family) == counters::vgpr_write_type(a.family);
        same && same_type && others_in_order && !a.reads.overlaps(hit) && a.writes.contains(hit)
    }

    /// Run instruction `i` on `st`; record hazards in `out` when given. What a wait completed
    /// is recorded in `useful`: 0 nothing, 1 register accesses only, 2 also a store or an
    /// LDS write.
    pub fn step(
        &self,
        st: &mut State,
        i: usize,
        mut out: Option<&mut Vec<Hazard>>,
        useful: &mut [u8],
    ) {
        // The instruction's own wait (VINTERP `wait_exp`) holds it before it issues, so before
        // it reads or writes any register.
        if let Action::Sync { waits_first, .. } = &self.actions[i] {
            if !waits_first.is_empty() {
                self.wait(st, waits_first);
            }
        }
        if let Some(out) = out.as_deref_mut() {
            self.hazards(st, i, out);
        }
        match &self.actions[i] {
            Action::Wait(w) if !self.disabled.contains(&i) => {
                let (any, memory) = self.wait(st, w);
                useful[i] = useful[i].max(u8::from(any) + u8::from(memory));
            }
            Action::Mem(_) => self.issue(st, i),
            Action::Call { .. } => {
                // LLVM's convention (`callWaitsOnFunctionEntry`, `callWaitsOnFunctionReturn`
                // in SIInsertWaitcnts.cpp): the callee waits for every counter but the store
                // counter at entry and before returning; a callee in the file is checked for
                // it ([`Self::return_pending`] and the caller's pending accesses at its entry).
                let all: Vec<(Counter, u32)> = [
                    Counter::Vm,
                    Counter::Lgkm,
                    Counter::Exp,
                    Counter::Load,
                    Counter::Sample,
                    Counter::Bvh,
                    Counter::Ds,
                    Counter::Km,
                    Counter::Async,
                ]
                .map(|c| (c, 0))
                .to_vec();
                self.wait(st, &all);
                // Sources still held (a gfx1250 store before its xcnt drained): the callee
                // may overwrite any register.
                if let Some(out) = out {
                    for e in st.iter() {
                        let site = &self.sites[e.site as usize];
                        if site.held_until == Some(e.counter) && !site.held.is_empty() {
                            out.push(Hazard {
                                site: e.site as usize,
                                at: i,
                                counter: e.counter,
                                kind: HazardKind::OverwriteSource,
                                regs: site.held.clone(),
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Join `from`'s exit state into block `to`'s entry; whether it changed.
    fn join(&mut self, to: usize, from: usize, exit: &State) -> bool {
        let tagged = exit.iter().map(|e| Entry {
            from: from as u32,
            ..e.clone()
        });
        let Some(cur) = self.entry[to].as_mut() else {
            self.entry[to] = Some(tagged.collect());
            return true;
        };
        let mut changed = false;
        for e in tagged {
            match cur.binary_search_by_key(&(e.site, e.counter), |x| (x.site, x.counter)) {
                Ok(at) if cur[at].k > e.k => {
                    cur[at] = e;
                    changed = true;
                }
                Ok(_) => {}
                Err(at) => {
                    cur.insert(at, e);
                    changed = true;
                }
            }
        }
        changed
    }

    /// The fixpoint from `init` at block 0.
    pub fn solve(&mut self, init: State, useful: &mut [u8]) {
        if self.blocks.is_empty() {
            return;
        }
        self.entry = vec![None; self.blocks.len()];
        self.entry[0] = Some(init);
        let mut work: Vec<usize> = vec![0];
        let mut queued = vec![false; self.blocks.len()];
        queued[0] = true;
        while let Some(b) = work.pop() {
            queued[b] = false;
            let mut st = self.entry[b].clone().expect("queued blocks are reached");
            let stop = self.run_block(b, &mut st, None, useful);
            if stop {
                continue;
            }
            for &s in &self.blocks[b].succs.clone() {
                if self.join(s, b, &st) && !queued[s] {
                    queued[s] = true;
                    work.push(s);
                }
            }
        }
    }

    /// Run block `b`'s instructions; true when the path stops (an unknown instruction).
    pub fn run_block(
        &self,
        b: usize,
        st: &mut State,
        mut out: Option<&mut Vec<Hazard>>,
        useful: &mut [u8],
    ) -> bool {
        let bl = &self.blocks[b];
        for i in bl.start..bl.end {
            if matches!(self.actions[i], Action::Unknown(_)) {
                return true;
            }
            self.step(st, i, out.as_deref_mut(), useful);
        }
        false
    }

    /// Every hazard in the fixpoint (one pass over the reached blocks).
    pub fn collect(&self, useful: &mut [u8]) -> Vec<Hazard> {
        let mut out = Vec::new();
        for b in 0..self.blocks.len() {
            if let Some(init) = &self.entry[b] {
                let mut st = init.clone();
                self.run_block(b, &mut st, Some(&mut out), useful);
            }
        }
        out
    }

    /// The witness path (block indices, issue block first) along which the entry of `h`
    /// survives to `h.at`, following each block entry's provenance.
    pub fn witness(&self, h: &Hazard) -> Vec<usize> {
        let at_block = self.block_of[h.at];
        let site_block = self.sites[h.site].inst.map(|i| self.block_of[i]);
        let mut path = vec![at_block];
        let mut cur = at_block;
        for _ in 0..=self.blocks.len() {
            let issued_here = site_block == Some(cur)
                && (path.len() > 1 || self.sites[h.site].inst.is_some_and(|i| i < h.at));
            if issued_here {
                break;
            }
            let Some(st) = &self.entry[cur] else { break };
            let Some(e) = st
                .iter()
                .find(|e| e.site as usize == h.site && e.counter == h.counter)
            else {
                break;
            };
            if e.from == u32::MAX {
                break;
            }
            cur = e.from as usize;
            path.push(cur);
        }
        path.reverse();
        path
    }
}

impl RegSet {
    /// Whether every unit of `other` is in `self`.
    pub fn contains(&self, other: &RegSet) -> bool {
        other.without(self).is_empty()
    }
}
