//! MODE written somewhere in the function (breaker 14, 03). The float ops of a block are
//! checked under the function's `mode:` (rounding and denormal modes, a block input both sides
//! share: `uninterp.rs` refuses a block that writes MODE itself). An `S_SETREG*`,
//! `S_DENORM_MODE` or `S_ROUND_MODE` in another block changes the rounding under which this
//! block runs (round toward -inf makes `x + -0.0` differ from `x * 1.0` at `x = +0.0`), so a
//! changed block that reads MODE, in a function that writes it anywhere, is `unsupported`.

use super::diff::{BlockPair, FnPair};
use super::mir::{Function, Inst, OpKind};

/// Whether `i` may write MODE: a `$mode` definition, or an opcode that sets hardware registers
/// or the float modes (`S_SETREG_B32`, `S_SETREG_IMM32_B32`, `S_DENORM_MODE`, `S_ROUND_MODE`).
fn writes_mode(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    op.starts_with("S_SETREG")
        || op.starts_with("S_DENORM_MODE")
        || op.starts_with("S_ROUND_MODE")
        || super::uninterp::writes_mode(i)
}

/// Whether `i` reads MODE (`implicit $mode`, the float ops).
fn reads_mode(i: &Inst) -> bool {
    i.ops.iter().any(|o| {
        !o.flags.implicit_def && !o.flags.def && matches!(&o.kind, OpKind::Phys(p) if p == "mode")
    })
}

fn any_writer(f: &Function) -> Option<&Inst> {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find(|i| writes_mode(i))
}

/// Why the block pair's float ops cannot be checked under the function's mode, if so.
pub(super) fn written_elsewhere(fp: &FnPair, bp: &BlockPair) -> Option<String> {
    // The block's own test first: the function's is a scan of all of it (per proved block).
    let reads = bp
        .before
        .insts
        .iter()
        .chain(&bp.after.insts)
        .any(reads_mode);
    if !reads {
        return None;
    }
    let w = any_writer(fp.before).or_else(|| any_writer(fp.after))?;
    Some(format!(
        "line {}: {} writes MODE (rounding and denormal modes) in this function; the \
         block's float ops are checked under the function's `mode:` only",
        w.loc.line, w.opcode
    ))
}
