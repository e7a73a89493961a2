//! What pairing a function's blocks needs of its control-flow graph and register uses,
//! computed once per function in time linear in its size: the blocks by number, the blocks on a
//! cycle, the blocks reading each virtual register and, for MIR without live-in lists, the
//! physical registers read after each block. Asking these per block of the whole function made
//! a function of 10,000 blocks take minutes and gigabytes (issue 33).

use super::mir::{Block, Function, OpKind};
use std::collections::{BTreeSet, HashMap};

/// A function's blocks, indexed (see the module comment).
pub struct FnIndex<'a> {
    f: &'a Function,
    /// Block number -> its position in `f.blocks` (the layout order).
    pos: HashMap<u32, usize>,
    /// Per position: the block is on a cycle (it can run again after itself).
    cyclic: Vec<bool>,
    /// Virtual register -> the numbers of the blocks reading it, each once.
    readers: HashMap<u32, Vec<u32>>,
    /// Per position: SCC is live into the block ([`super::scc_live::live_in`]).
    scc_live_in: Vec<bool>,
    /// Per position: its strongly connected component.
    comp: Vec<usize>,
    /// Per component: the physical registers read before written in it or any component it
    /// reaches (computed only when the function has no live-in lists).
    reads_from: Vec<BTreeSet<String>>,
    /// The function returns to a caller ([`returns`]): asked of every block, so found once.
    pub returns: bool,
}

/// Whether `f` returns to a caller: a return terminator (`SI_RETURN`, `S_SETPC_B64_return*`,
/// `SI_TCRETURN*`); a kernel ends in `S_ENDPGM` instead.
pub fn returns(f: &Function) -> bool {
    f.blocks.iter().flat_map(|x| &x.insts).any(|i| {
        let op = i.opcode.as_str();
        op == "SI_RETURN" || op.starts_with("S_SETPC_B64_return") || op.starts_with("SI_TCRETURN")
    })
}

impl<'a> FnIndex<'a> {
    /// Index `f`.
    pub fn new(f: &'a Function) -> FnIndex<'a> {
        let Cfg {
            pos,
            succ,
            comps,
            comp,
            cyclic,
        } = Cfg::new(f);
        let mut readers: HashMap<u32, Vec<u32>> = HashMap::new();
        for (k, b) in f.blocks.iter().enumerate() {
            let phis = succ[k].iter().map(|&s| &f.blocks[s]);
            for id in reads(b, phis) {
                let v = readers.entry(id).or_default();
                if v.last() != Some(&b.num) {
                    v.push(b.num);
                }
            }
        }
        let open: Vec<bool> = f
            .blocks
            .iter()
            .map(|b| b.successors.iter().any(|s| !pos.contains_key(s)))
            .collect();
        let scc_live_in = super::scc_live::live_in(&f.blocks, &succ, &open);
        let mut ix = FnIndex {
            f,
            pos,
            cyclic,
            scc_live_in,
            readers,
            comp,
            reads_from: Vec::new(),
            returns: returns(f),
        };
        if !f.tracks_liveness {
            ix.reads_from = ix.phys_reads(&comps, &succ);
        }
        ix
    }

    /// The block numbered `num`.
    pub fn block(&self, num: u32) -> Option<&'a Block> {
        self.pos.get(&num).map(|&k| &self.f.blocks[k])
    }

    /// `b`'s successors, each once, in layout order.
    pub fn successors(&self, b: &Block) -> Vec<&'a Block> {
        let mut at: Vec<usize> = b
            .successors
            .iter()
            .filter_map(|s| self.pos.get(s).copied())
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter().map(|k| &self.f.blocks[k]).collect()
    }

    /// Whether SCC is live out of `b` ([`super::scc_live::live_out`]).
    pub fn scc_live_out(&self, b: &Block) -> bool {
        let succ = b
            .successors
            .iter()
            .map(|s| self.pos.get(s).map(|&k| self.scc_live_in[k]));
        super::scc_live::live_out(b, succ)
    }

    /// Which of `ids` are read by instructions of blocks other than `num` (PHI inputs
    /// included), or by `num` itself when it is on a cycle: the next iteration reads what this
    /// one leaves (a loop-carried value, a PHI of the block's own back edge).
    pub fn used_outside(&self, num: u32, ids: impl Iterator<Item = u32>) -> BTreeSet<u32> {
        let cyclic = self.pos.get(&num).is_some_and(|&k| self.cyclic[k]);
        ids.filter(|id| {
            self.readers
                .get(id)
                .is_some_and(|bs| bs.iter().any(|&n| n != num || cyclic))
        })
        .collect()
    }

    /// Physical registers some block reachable from `num` reads before writing it there (see
    /// `diff::phys_liveout`); empty when the function has live-in lists.
    pub fn phys_read_after(&self, num: u32) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.reads_from.is_empty() {
            return out;
        }
        if let Some(b) = self.block(num) {
            for s in self.successors(b) {
                out.extend(self.reads_from[self.comp[self.pos[&s.num]]].iter().cloned());
            }
        }
        out
    }

    /// [`Self::reads_from`]: components come in reverse topological order from
    /// [`components`], so every component a component reaches is done before it.
    fn phys_reads(&self, comps: &[Vec<usize>], succ: &[Vec<usize>]) -> Vec<BTreeSet<String>> {
        let mut out: Vec<BTreeSet<String>> = Vec::with_capacity(comps.len());
        for (c, members) in comps.iter().enumerate() {
            let mut set = BTreeSet::new();
            for &v in members {
                set.extend(exposed(&self.f.blocks[v]));
                for &w in &succ[v] {
                    if self.comp[w] != c {
                        set.extend(out[self.comp[w]].iter().cloned());
                    }
                }
            }
            out.push(set);
        }
        out
    }
}

/// The virtual registers `b`'s instructions read.
/// A function's blocks as positions: successors, the strongly connected components of the
/// CFG (in reverse topological order), each block's component and whether it is on a cycle.
pub(super) struct Cfg {
    pub pos: HashMap<u32, usize>,
    pub succ: Vec<Vec<usize>>,
    pub comps: Vec<Vec<usize>>,
    pub comp: Vec<usize>,
    pub cyclic: Vec<bool>,
}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let pos: HashMap<u32, usize> = f
            .blocks
            .iter()
            .enumerate()
            .map(|(k, b)| (b.num, k))
            .collect();
        let succ = super::dom::successors(f, |n| pos.get(&n).copied());
        let comps = components(&succ);
        let mut comp = vec![0; succ.len()];
        let mut cyclic = vec![false; succ.len()];
        for (c, members) in comps.iter().enumerate() {
            for &v in members {
                comp[v] = c;
                cyclic[v] = members.len() > 1 || succ[v].contains(&v);
            }
        }
        Cfg {
            pos,
            succ,
            comps,
            comp,
            cyclic,
        }
    }
}

/// The virtual registers `b` reads before defining them (a PHI's result counts as not
/// defined: it is an input of the block, set on the edges), and the incoming values of its
/// successors' PHIs from `b`, which the edge's copy reads at `b`'s end. A register read only
/// after the block's own definition is that definition's value, not a value from outside.
pub(super) fn reads<'b>(b: &'b Block, succs: impl Iterator<Item = &'b Block>) -> Vec<u32> {
    let mut out = Vec::new();
    let mut local: BTreeSet<u32> = BTreeSet::new();
    for i in &b.insts {
        if i.opcode == "PHI" {
            continue;
        }
        for o in &i.ops {
            if let OpKind::VReg { id, .. } = o.kind {
                if !o.flags.implicit_def && !o.flags.def && !local.contains(&id) {
                    out.push(id);
                }
            }
        }
        for d in i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        {
            match d.kind {
                // `%5.sub0 = ...` without `undef` keeps the register's other sub-registers: it
                // reads them, and the register stays a value from outside.
                OpKind::VReg { id, sub: Some(_) } if !d.flags.undef && !local.contains(&id) => {
                    out.push(id);
                }
                OpKind::VReg { sub: Some(_), .. } if !d.flags.undef => {}
                OpKind::VReg { id, .. } => {
                    local.insert(id);
                }
                _ => {}
            }
        }
    }
    let here = OpKind::Other(format!("%bb.{}", b.num));
    for s in succs {
        for phi in s.insts.iter().filter(|i| i.opcode == "PHI") {
            for pair in phi.ops.chunks(2) {
                if let [v, from] = pair {
                    match v.kind {
                        OpKind::VReg { id, .. } if from.kind == here && !local.contains(&id) => {
                            out.push(id)
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// The physical registers `b` reads before writing them.
fn exposed(b: &Block) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut written: BTreeSet<&str> = BTreeSet::new();
    for i in &b.insts {
        for o in &i.ops {
            if let OpKind::Phys(p) = &o.kind {
                if !o.flags.def && !o.flags.implicit_def && !written.contains(p.as_str()) {
                    out.insert(p.clone());
                }
            }
        }
        for d in i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
        {
            if let OpKind::Phys(p) = &d.kind {
                written.insert(p.as_str());
            }
        }
    }
    out
}

/// The strongly connected components of the graph `succ` (Tarjan's algorithm, without
/// recursion so that a chain of 10,000 blocks cannot overflow the stack), in reverse
/// topological order: a component comes after every component it reaches.
pub(super) fn components(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const NEW: usize = usize::MAX;
    let n = succ.len();
    let (mut index, mut low, mut on) = (vec![NEW; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != NEW {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        (index[root], low[root], on[root]) = (next, next, true);
        next += 1;
        stack.push(root);
        while let Some(&(v, k)) = call.last() {
            if let Some(&w) = succ[v].get(k) {
                call.last_mut().expect("non-empty").1 += 1;
                if index[w] == NEW {
                    (index[w], low[w], on[w]) = (next, next, true);
                    next += 1;
                    stack.push(w);
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::components;

    /// 0 -> 1 -> 2 -> 1, 2 -> 3, 4 -> 4: components {3}, {1, 2}, {0}, {4} (worked by hand),
    /// each after the ones it reaches.
    #[test]
    fn components_in_reverse_topological_order() {
        let succ = vec![vec![1], vec![2], vec![1, 3], vec![], vec![4]];
        let mut c = components(&succ);
        c.iter_mut().for_each(|m| m.sort());
        assert_eq!(c, vec![vec![3], vec![1, 2], vec![0], vec![4]]);
    }

    /// A chain of 100,000 blocks: no recursion, so no stack overflow.
    #[test]
    fn a_long_chain_does_not_recurse() {
        let n = 100_000;
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|k| if k + 1 < n { vec![k + 1] } else { vec![] })
            .collect();
        assert_eq!(components(&succ).len(), n);
    }
}
