//! Cross-lane reads in the EXEC model (docs/tv.md, "Cross-lane reads in the EXEC model").
//!
//! In a block pair the EXEC model checks (`exec.rs`: one lane L, a lane mask known by its bit
//! L), an instruction whose result depends on other lanes -- `V_READFIRSTLANE_B32` (and the
//! 32-bit VGPR-to-SGPR `COPY` it implements), `V_READLANE_B32`, `S_BCNT1_I32_B64/B32`,
//! `S_FF1_I32_B64/B32` and `V_MBCNT_LO/HI` -- is an
//! uninterpreted function of its whole-wave inputs (`uninterp.rs`): it must have a same-text
//! twin on the other side, its inputs (lane L's VGPR values, the bit-L form of its masks, EXEC)
//! are compared where it runs, and its results are fresh values both sides share.
//!
//! Why comparing lane L's inputs suffices: the model's invariant (docs/tv.md, "Why bit L
//! suffices") is that with L = k and lane k's inputs, every VGPR value is lane k's and every
//! mask's bit k is the real bit k. So when the compared inputs are equal for every L and every
//! input, each real VGPR input is equal in every lane and each real mask in every bit: the
//! whole-wave inputs are equal, and so are the instruction's real results, which the shared
//! fresh values stand for. A 32-bit half of a wave64 mask (`COPY %m.sub0`/`.sub1`) keeps lane
//! k's bit at bit k or k - 32 and may flow only into these instructions ([`is_part_copy`]).

use super::emit::Side;
use super::firstlane;
use super::mir::{Block, Inst, OpFlags, OpKind, Operand};
use gcnsmt_semantics::target::Target;

/// Whether the EXEC model leaves `op` to the uninterpreted path (a cross-lane read). Each
/// writes an SGPR (by SALU, not guarded by lane L's EXEC bit) or, `V_MBCNT`, a VGPR only in
/// active lanes as the hardware does. Not `V_WRITELANE_B32`: it writes lane `sel` even when
/// inactive, which the guarded copy of a fresh value would not show.
pub fn uninterpreted(op: &str) -> bool {
    matches!(
        op,
        "V_READFIRSTLANE_B32"
            | "S_BCNT1_I32_B64"
            | "S_BCNT1_I32_B32"
            | "V_MBCNT_LO_U32_B32_e64"
            | "V_MBCNT_HI_U32_B32_e64"
            | "V_MBCNT_LO_U32_B32_e32"
            | "V_MBCNT_HI_U32_B32_e32"
            | "V_READLANE_B32"
            | "S_FF1_I32_B64"
            | "S_FF1_I32_B32"
    )
}

/// In the EXEC model (`exec`), `block` with each 32-bit VGPR-to-SGPR `COPY` written as the `V_READFIRSTLANE_B32` LLVM
/// lowers it to (si-fix-sgpr-copies; the same value), keeping its text as its key so that
/// twins still pair.
pub fn reads(exec: bool, side: &Side, mut block: Block) -> Block {
    for i in block.insts.iter_mut().filter(|_| exec) {
        let one_dword = i.defs.first().is_some_and(|d| match &d.kind {
            OpKind::VReg { id, sub: None } => {
                side.classes
                    .get(id)
                    .and_then(|c| super::emit::class_dwords(c))
                    == Some(1)
            }
            _ => false,
        });
        let src_dword = i.uses().next().is_some_and(|u| match &u.kind {
            OpKind::VReg { id, sub } => match sub {
                None => {
                    side.classes
                        .get(id)
                        .and_then(|c| super::emit::class_dwords(c))
                        == Some(1)
                }
                Some(s) => s.starts_with("sub") && !s.contains('_') && !s.contains("16"),
            },
            _ => false,
        });
        if one_dword && src_dword && firstlane::to_sgpr_copy(side, i) && i.ops.len() == 1 {
            i.opcode = "V_READFIRSTLANE_B32".into();
            // It reads EXEC (the first active lane), which must be compared too.
            let loc = i.ops[0].loc;
            i.ops.push(Operand {
                kind: OpKind::Phys("exec".into()),
                flags: OpFlags {
                    implicit: true,
                    ..OpFlags::default()
                },
                loc,
            });
        }
    }
    block
}

/// Which half of a wave64 lane mask `i` copies into a 32-bit register (`COPY %m.sub0`:
/// `"lo"`, lanes 0-31 at bits 0-31; `COPY %m.sub1`: `"hi"`, lanes 32-63 at bits 0-31), if it
/// is one (`is_mask` tells whether `%m` is a whole mask).
pub fn part_copy(i: &Inst, wave64: bool, is_mask: impl Fn(u32) -> bool) -> Option<&'static str> {
    if !(wave64 && i.opcode == "COPY" && i.defs.len() == 1 && i.uses().count() == 1) {
        return None;
    }
    if !matches!(&i.defs[0].kind, OpKind::VReg { sub: None, .. }) {
        return None;
    }
    match &i.uses().next()?.kind {
        OpKind::VReg { id, sub: Some(s) } if is_mask(*id) => match s.as_str() {
            "sub0" => Some("lo"),
            "sub1" => Some("hi"),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the cross-lane op `op` may read the mask halves `parts` (`"lo"`/`"hi"`, one per
/// half read): only `V_MBCNT_LO` a low half and `V_MBCNT_HI` a high half. Then on both sides
/// the compared input holds, for each bit b, the real bit at the same lane (b, or 32 + b), or
/// is data (real in every lane); a value whose bit b is real at another lane than the other
/// side's would make "equal for every L" say less than "equal".
pub fn reads_parts(op: &str, parts: &[&str]) -> bool {
    let want = if op.starts_with("V_MBCNT_LO") {
        "lo"
    } else if op.starts_with("V_MBCNT_HI") {
        "hi"
    } else {
        return parts.is_empty();
    };
    parts.iter().all(|p| *p == want)
}

/// Whether a side reads a lane mask by a cross-lane op (which the one-lane model, where the
/// other lanes' bits of a mask are stale, must not see): [`super::exec::lanewise_with`]
/// without this module's ops fails on a mask.
pub fn reads_mask((before, after): (&Side, &Side), target: Target) -> bool {
    [before, after].iter().any(|s| {
        super::exec::lanewise_with(s, target, false)
            .is_err_and(|(_, m)| m.contains("a lane mask") || m.contains("lane bits"))
    })
}
