//! The shape rules of a machine function that llc-22's machine verifier enforces and tv's block
//! model relies on (breaker 18's 05, 08, 10): PHIs stand first in their block, no
//! non-terminator follows a block's first terminator, and the layout agrees with the
//! `successors:` lines. A file that breaks one is not code llc could have written: an input
//! error at the offending line, rather than a verdict about what the file's text does (tv runs
//! a block's instructions in text order and pairs blocks by number, so such a file would be
//! checked as something it is not).

use super::{ErrFn, Function, Inst, OpKind};
use crate::rules::InputError;
use crate::tv::effects::is_terminator;

/// Check every block of `f` (see the module documentation).
pub(super) fn check(f: &Function, err: ErrFn) -> Result<(), InputError> {
    for b in &f.blocks {
        order(&b.insts, err)?;
    }
    successors(f, err)?;
    super::dom::check(f, err)
}

fn at(i: &Inst, err: ErrFn, msg: String) -> InputError {
    err(i.loc.line as usize - 1, i.loc.col as usize - 1, msg)
}

/// PHIs first ("Found PHI instruction after non-PHI"); nothing but terminators after the first
/// terminator ("Non-terminator instruction after the first terminator"). Inside a bundle the
/// verifier looks at the bundle only; tv reads a bundle's members as instructions, so a block
/// with a `BUNDLE` is left to llc.
fn order(insts: &[Inst], err: ErrFn) -> Result<(), InputError> {
    if let Some(i) = insts
        .iter()
        .skip_while(|i| i.opcode == "PHI")
        .find(|i| i.opcode == "PHI")
    {
        let first = insts
            .iter()
            .find(|i| i.opcode != "PHI")
            .expect("one before it");
        return Err(at(
            i,
            err,
            format!(
                "PHI after the non-PHI instruction `{}` at line {} (llc-22: \"Found PHI \
                 instruction after non-PHI\"): PHIs must stand first in their block",
                first.opcode, first.loc.line
            ),
        ));
    }
    if insts.iter().any(|i| i.opcode == "BUNDLE") {
        return Ok(());
    }
    let Some(k) = insts.iter().position(|i| is_terminator(&i.opcode)) else {
        return Ok(());
    };
    match insts[k..].iter().find(|i| !terminator_like(&i.opcode)) {
        Some(i) => Err(at(
            i,
            err,
            format!(
                "`{}` after the block's first terminator `{}` at line {} (llc-22: \
                 \"Non-terminator instruction after the first terminator\"): it would never run",
                i.opcode, insts[k].opcode, insts[k].loc.line
            ),
        )),
        None => Ok(()),
    }
}

/// Terminators `effects::is_terminator` does not name but LLVM marks as such (tail calls,
/// chain calls, indirect branches, unreachable markers): accepted after a terminator, so that
/// valid llc output is never refused for a name the list lacks.
fn terminator_like(op: &str) -> bool {
    is_terminator(op)
        || op.contains("TCRETURN")
        || op.starts_with("SI_CS_CHAIN_TC")
        || op.starts_with("S_SETPC_B64")
        || op.starts_with("S_ENDPGM")
        || op.starts_with("SI_BR")
        || op.contains("UNREACHABLE")
        || op.contains("TERMINATOR")
        // SIInstructions.td: the structured control-flow pseudos are terminators
        // (`isTerminator = 1`), SI_END_CF and SI_IF_BREAK are not.
        || matches!(op, "SI_IF" | "SI_ELSE" | "SI_LOOP" | "SI_WATERFALL_LOOP")
        || op.starts_with("SI_RETURN")
}

/// The block ends without falling through: an unconditional branch, a return, the end of the
/// program (the shapes `mir_cfg::infer_successors` treats as ends).
fn ends(insts: &[Inst]) -> bool {
    insts.last().is_some_and(|i| {
        let op = i.opcode.as_str();
        op == "S_BRANCH"
            || op.starts_with("S_ENDPGM")
            || op.starts_with("SI_RETURN")
            || op.starts_with("S_SETPC_B64")
            || op.contains("TCRETURN")
            || op.starts_with("SI_CS_CHAIN_TC")
    })
}

/// The blocks the instructions of block `k` name (`%bb.N` operands).
fn targets(f: &Function, k: usize) -> Vec<u32> {
    let ops = f.blocks[k].insts.iter().flat_map(|i| &i.ops);
    ops.filter_map(super::cfg::block_ref).collect()
}

impl Function {
    /// The block that block `k` (a layout position) falls through to: the next block in the
    /// layout, when `k` does not end in an unconditional branch or return and the next block
    /// is among its successors (a block that falls off into a block it does not list ends in
    /// unreachable code: LLVM's verifier allows that for an unconditional fallthrough).
    pub fn fallthrough(&self, k: usize) -> Option<u32> {
        let b = &self.blocks[k];
        let next = self.blocks.get(k + 1)?.num;
        (!ends(&b.insts) && b.successors.contains(&next)).then_some(next)
    }
}

/// Each successor a block lists is a block it branches to or the next block in the layout
/// when it may fall through ("MBB has unexpected successors which are not branch targets,
/// fallthrough, ..."), and a block that branches conditionally without an unconditional
/// branch lists the next block ("MBB exits via conditional branch/fall-through but the CFG
/// successors don't match the actual successors!"). So the layout decides no edge the
/// `successors:` lines do not show (breaker 18's 05: two blocks swapped in the layout, the
/// lists kept).
fn successors(f: &Function, err: ErrFn) -> Result<(), InputError> {
    for (k, b) in f.blocks.iter().enumerate() {
        let (tg, next) = (targets(f, k), f.blocks.get(k + 1).map(|n| n.num));
        let falls = !ends(&b.insts);
        let bad = |msg: String| {
            let at = b.insts.last().map_or(b.loc, |i| i.loc);
            err(at.line as usize - 1, at.col as usize - 1, msg)
        };
        if b.successors_listed {
            if let Some((n, s)) = (b.successors.iter().enumerate())
                .find(|(_, s)| !tg.contains(s) && (!falls || next != Some(**s)))
            {
                let at = b.successor_locs.get(n).copied().unwrap_or(b.loc);
                return Err(err(
                    at.line as usize - 1,
                    at.col as usize - 1,
                    format!(
                        "bb.{} lists successor %bb.{s}, which it neither branches to nor falls \
                     through to (the next block in the layout is {}): the layout and the \
                     `successors:` line disagree",
                        b.num,
                        next.map_or("none".into(), |n| format!("bb.{n}"))
                    ),
                ));
            }
        }
        let conditional = b.insts.iter().any(|i| {
            is_terminator(&i.opcode)
                && i.ops
                    .iter()
                    .any(|o| matches!(&o.kind, OpKind::Other(t) if t.starts_with("%bb.")))
        });
        if falls && conditional && !next.is_some_and(|n| b.successors.contains(&n)) {
            return Err(bad(format!(
                "bb.{} branches conditionally and falls through to {}, which is not among \
                 its successors {:?}",
                b.num,
                next.map_or("the end of the function".into(), |n| format!("bb.{n}")),
                b.successors
            )));
        }
    }
    Ok(())
}
