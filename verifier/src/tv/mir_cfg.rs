//! The control-flow edges of a machine function: successors llc infers where the MIR leaves
//! them out, and successors and branch targets that must name blocks.

use super::{ErrFn, Function, OpKind};
use crate::rules::InputError;

/// A block without a `successors:` line has the successors llc infers: the blocks its
/// terminators branch to, and the next block in the layout unless it ends in an unconditional
/// branch or a return (llc prints the line whenever there are successors; hand-written MIR may
/// leave it out, and a successor tv does not see would hide its live-in registers).
pub(super) fn infer_successors(f: &mut Function) {
    let nums: Vec<u32> = f.blocks.iter().map(|b| b.num).collect();
    for (k, b) in f.blocks.iter_mut().enumerate() {
        if b.successors_listed {
            continue;
        }
        let mut succ: Vec<u32> = Vec::new();
        for i in b
            .insts
            .iter()
            .filter(|i| crate::tv::lower::is_terminator(&i.opcode))
        {
            for o in &i.ops {
                if let Some(t) = block_ref(o) {
                    let n = Some(t);
                    if let Some(n) = n.filter(|n| !succ.contains(n)) {
                        succ.push(n);
                    }
                }
            }
        }
        let ends = b.insts.last().is_some_and(|i| {
            let op = i.opcode.as_str();
            matches!(op, "S_ENDPGM" | "S_BRANCH" | "SI_TCRETURN" | "S_SETPC_B64")
                || op.starts_with("SI_RETURN")
                || op.starts_with("S_SETPC_B64_return")
        });
        if !ends {
            if let Some(next) = nums.get(k + 1).filter(|n| !succ.contains(n)) {
                succ.push(*next);
            }
        }
        b.successors = succ;
    }
}

/// Every successor a block names must be a block of its function (llc-22: "use of undefined
/// machine basic block").
pub(super) fn check_successors(f: &Function, err: ErrFn) -> Result<(), InputError> {
    for b in &f.blocks {
        for (k, s) in b.successors.iter().enumerate() {
            if !f.blocks.iter().any(|c| c.num == *s) {
                let at = b.successor_locs.get(k).copied().unwrap_or(b.loc);
                return Err(err(
                    at.line as usize - 1,
                    at.col as usize - 1,
                    format!(
                        "bb.{} names a successor %bb.{s} that is not a block of `{}`",
                        b.num, f.name
                    ),
                ));
            }
        }
        for i in &b.insts {
            for o in &i.ops {
                if let Some(t) = block_ref(o) {
                    let n = Some(t);
                    if let Some(n) = n {
                        if !f.blocks.iter().any(|c| c.num == n) {
                            return Err(err(
                                o.loc.line as usize - 1,
                                o.loc.col as usize - 1,
                                format!("use of undefined block %bb.{n}"),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The block an operand names (`%bb.3` -> 3), if it names one.
pub(super) fn block_ref(o: &super::Operand) -> Option<u32> {
    let OpKind::Other(t) = &o.kind else {
        return None;
    };
    let digits: String = t
        .strip_prefix("%bb.")?
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}
