//! Volatile loads (breaker 12, finding 02): the value of a volatile load may differ from what
//! the memory model says the location holds. LangRef: volatile accesses may not be merged or
//! removed, and a compiler may not assume two volatile loads of one location return the same
//! value (a device register, or memory another agent changes between them); LLVM never
//! forwards one volatile load's value to another. tv's memory is one state that only the
//! block writes, so a use moved from the second of two volatile loads of one address to the
//! first was proved.
//!
//! Model: the k-th volatile load of a block returns the memory's value XOR a perturbation
//! `%volatile{k}_{d}` (one per result dword), a free input both sides share. `memop.rs` has
//! already required the volatile accesses of the two blocks to be the same, one to one and in
//! order, so the k-th is the same access on both sides. With every perturbation zero this is
//! the memory model; with others it is memory an outside writer changed just before the load.
//! A proof holds for every perturbation, so it cannot rest on two volatile loads being equal
//! (nor on a volatile load equalling a plain load or a stored value), and a correct pass that
//! keeps the loads and their uses is still proved: both sides see the same perturbed value.
//!
//! Sub-dword loads keep their extension: the perturbation is applied to the loaded bits and
//! the result re-extended (`(zext(m) ^ n) & 0xff = zext(m ^ n)`; sign extension distributes
//! over XOR the same way). A volatile load whose result this cannot express (a 16-bit half
//! `_D16` load, a scalar load, an LDS-DMA load, a load with no register result) is
//! `unsupported`.

use super::emit::{self, Side};
use super::mir::{Inst, OpKind};
use gcnsmt_semantics::target::Target;

/// Whether `i` is a volatile load (not an atomic read-modify-write or a store).
pub(super) fn is_volatile_load(i: &Inst, target: Target) -> bool {
    super::memop::is_volatile(i)
        && super::effects::reads_memory(i, target)
        && super::effects::writes(i, target) == (false, false)
}

/// How a sub-dword load extends what it read: (bits, signed).
fn extension(op: &str) -> Option<(u32, bool)> {
    let has = |w: &[&str]| w.iter().any(|x| op.contains(x));
    if has(&["UBYTE", "_U8"]) {
        Some((8, false))
    } else if has(&["SBYTE", "_I8"]) {
        Some((8, true))
    } else if has(&["USHORT", "_U16"]) {
        Some((16, false))
    } else if has(&["SSHORT", "_I16"]) {
        Some((16, true))
    } else {
        None
    }
}

/// The lines that perturb the result of `i`, the `k`-th volatile load of its side.
pub(super) fn perturb(
    side: &Side,
    i: &Inst,
    k: usize,
    target: Target,
) -> Result<Vec<String>, String> {
    let op = i.opcode.as_str();
    let refuse = |why: &str| Err(format!("a volatile load {why} is not modelled"));
    if op.contains("D16") || op.contains("LDS") {
        return refuse("of a 16-bit half or into LDS");
    }
    let Some(dst) = i.defs.first() else {
        return refuse("with no register result");
    };
    if !matches!(dst.kind, OpKind::VReg { .. } | OpKind::Phys(_)) || !emit::is_vgpr_dest(side, dst)
    {
        return refuse("into scalar registers");
    }
    let cells = emit::operand_cells(side, dst, target)?;
    let mut out = Vec::new();
    for (d, c) in cells.iter().enumerate() {
        out.push(format!("v_xor_b32 {c}, {c}, %volatile{k}_{d}"));
        match extension(op) {
            Some((bits, false)) => {
                out.push(format!("v_and_b32 {c}, {:#x}, {c}", (1u64 << bits) - 1))
            }
            Some((bits, true)) => out.push(format!("v_bfe_i32 {c}, {c}, 0, {bits}")),
            None => {}
        }
    }
    Ok(out)
}
