//! Dominators of a control-flow graph given as successor lists by position (the entry at 0):
//! used by `ssa.rs` (which definitions a block may copy in front of itself) and `mir_dom.rs`
//! (every use of a virtual register is dominated by its definition).

/// The successors of each block of `f` by position, through `pos` (block number -> position);
/// a successor with no position is left out.
pub(crate) fn successors(
    f: &super::mir::Function,
    pos: impl Fn(u32) -> Option<usize>,
) -> Vec<Vec<usize>> {
    (f.blocks.iter())
        .map(|b| b.successors.iter().filter_map(|s| pos(*s)).collect())
        .collect()
}

/// Immediate dominators of the blocks at positions `0..succ.len()`, the entry at 0 (its own
/// dominator); `None` for a block the entry does not reach. Cooper, Harvey and Kennedy's
/// iteration over reverse post-order.
pub(super) fn dominators(succ: &[Vec<usize>]) -> Vec<Option<usize>> {
    let n = succ.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (v, ref mut k)) = stack.last_mut() {
        if let Some(&w) = succ[v].get(*k) {
            *k += 1;
            if !seen[w] {
                seen[w] = true;
                stack.push((w, 0));
            }
        } else {
            order.push(v);
            stack.pop();
        }
    }
    order.reverse();
    let mut rpo = vec![usize::MAX; n];
    for (k, &v) in order.iter().enumerate() {
        rpo[v] = k;
    }
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (u, ss) in succ.iter().enumerate() {
        for &v in ss {
            pred[v].push(u);
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &u in pred[v].iter().filter(|&&u| idom[u].is_some()) {
                new = Some(match new {
                    None => u,
                    Some(x) => intersect(&idom, &rpo, x, u),
                });
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom
}

/// The dominator tree numbered depth-first: (entry, exit) times per block, so that `a`
/// dominates `b` when `a`'s interval encloses `b`'s; constant time per question (walking up
/// the tree is linear, quadratic over a chain of 10,000 blocks).
pub(super) struct DomTree {
    order: Vec<(usize, usize)>,
}

impl DomTree {
    pub(super) fn new(idom: &[Option<usize>]) -> DomTree {
        let n = idom.len();
        let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (v, d) in idom.iter().enumerate() {
            if let Some(d) = *d {
                if d != v {
                    kids[d].push(v);
                }
            }
        }
        let mut order = vec![(usize::MAX, 0); n];
        let mut clock = 0;
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        order[0].0 = clock;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&w) = kids[v].get(*k) {
                *k += 1;
                clock += 1;
                order[w].0 = clock;
                stack.push((w, 0));
            } else {
                clock += 1;
                order[v].1 = clock;
                stack.pop();
            }
        }
        DomTree { order }
    }

    /// Whether block `a` dominates block `b` (both reached from the entry): `a` encloses `b`
    /// in the dominator tree's depth-first numbering.
    pub(super) fn dominates(&self, a: usize, b: usize) -> bool {
        let ((ia, oa), (ib, ob)) = (self.order[a], self.order[b]);
        ia <= ib && ob <= oa
    }
}

fn intersect(idom: &[Option<usize>], rpo: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rpo[a] > rpo[b] {
            a = idom[a].expect("processed");
        }
        while rpo[b] > rpo[a] {
            b = idom[b].expect("processed");
        }
    }
    a
}
