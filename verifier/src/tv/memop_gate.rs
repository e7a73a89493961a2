//! The memory-operand checks (`memop.rs`) of a whole block pair, in `cmd::block_verdict`,
//! which every changed block pair of the block checks passes through whichever path then
//! decides it: one lowering, segments between barriers (`barrier.rs`), a pass whose waits
//! the waitcnt analysis decides (`wait_pass.rs`, which keeps the verdict unless the memory
//! operands are equal). The register-allocation and renaming checkers, which prove functions
//! before the block checks, run them too (`alloc_verdict::guards`; `rename.rs` wants equal
//! memory operands).
//!
//! Before breaker 24's 08 they ran only inside the lowering: a block with a barrier is lowered
//! segment by segment, and a segment whose instruction texts are equal apart from memory
//! operands is proved without lowering (an instruction does the same on the hardware whatever
//! its memory operand says), so `invariant` added to a load, a `volatile` dropped or an
//! agent-scope `acquire` made a plain load were proved; an atomic that is itself a split point
//! (`barrier::is_global_twin`) is in no segment at all.
//!
//! A block checked in segments ties each claim to a before-access of the same address only
//! ([`Tie::Address`]): a [`memop::claim_pairs`] partner is trusted only where the lowering
//! compares the two accesses' operands, which a partner in another segment never gets. The
//! lowering still runs the checks per segment (stricter there: the before-segment is part of
//! the before-block).

use super::cmd::BlockVerdict;
use super::diff::BlockPair;
use super::memop::{self, Tie, CLAIM_GAP};
use gcnsmt_semantics::target::Target;

/// The checks of `bp` on `t`: `Err` with the reason the pair is `unsupported` (a volatile or
/// atomic access changed, a frame object or FLAT address space renamed); `Ok` with the reason a
/// proof is `unsupported` instead (an unbacked claim: a refutation stands, the hardware reads
/// what it reads), if any. `split`: the pair is checked in segments. `file`: the after-file.
pub(super) fn check(
    bp: &BlockPair,
    t: Target,
    split: bool,
    file: &str,
) -> Result<Option<String>, String> {
    let tie = match split {
        true => Tie::Address(t),
        false => Tie::Lowered(t),
    };
    let Some((l, why)) = memop::check(&bp.before, &bp.after, tie) else {
        return Ok(None);
    };
    let why = format!("{file}:{}:{}: {why}", l.line, l.col);
    match why.split_once(CLAIM_GAP) {
        Some((at, rest)) => Ok(Some(format!("{at}{rest}"))),
        None => Err(why),
    }
}

/// A proof of a pair with an unbacked claim is `unsupported`: the claim is what later passes
/// would trust (a hoisted `invariant` load, breaker 24's 08).
pub(super) fn settle(v: &mut BlockVerdict, claim: Option<String>) {
    if let (Some(why), "proved") = (claim, v.verdict) {
        v.verdict = "unsupported";
        v.reason = Some(why);
        v.counterexample = None;
        v.counterexample_data = None;
    }
}
