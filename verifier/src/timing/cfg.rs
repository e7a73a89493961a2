//! Basic blocks of one function: split at labels and after branches and ends.

use super::asm::Function;
use super::classify::Action;

/// One basic block: instruction range and successors.
#[derive(Clone, Debug)]
pub struct Block {
    /// First instruction.
    pub start: usize,
    /// One past the last instruction.
    pub end: usize,
    /// Successor blocks.
    pub succs: Vec<usize>,
    /// The label that names it, if any (for printed paths).
    pub label: Option<String>,
}

/// The blocks of `f` given each instruction's action, or the index of a branch whose label is
/// not in the function.
pub fn blocks(f: &Function, actions: &[Action]) -> Result<Vec<Block>, usize> {
    let n = actions.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for &at in f.labels.values() {
        leader[at] = true;
    }
    for (i, a) in actions.iter().enumerate() {
        if matches!(a, Action::Branch { .. } | Action::End { .. }) {
            leader[i + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
    let mut names: std::collections::HashMap<usize, &String> = Default::default();
    for (l, &at) in &f.labels {
        let e = names.entry(at).or_insert(l);
        if l < *e {
            *e = l;
        }
    }
    let block_of = |i: usize| starts.partition_point(|&s| s <= i) - 1;
    let mut out = Vec::with_capacity(starts.len());
    for (b, &start) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(n);
        let mut succs = Vec::new();
        let fall = (end < n).then_some(b + 1);
        match &actions[end - 1] {
            Action::Branch {
                label, conditional, ..
            } => {
                let &to = f.labels.get(label).ok_or(end - 1)?;
                if to < n {
                    succs.push(block_of(to));
                }
                if *conditional {
                    succs.extend(fall);
                }
            }
            Action::End { .. } => {}
            _ => succs.extend(fall),
        }
        succs.dedup();
        let label = names.get(&start).map(|l| l.to_string());
        out.push(Block {
            start,
            end,
            succs,
            label,
        });
    }
    Ok(out)
}
