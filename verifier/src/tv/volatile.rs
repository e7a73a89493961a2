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
//!
//! Volatile and atomic writes (breaker 15, finding 05): a volatile store, an atomic store of
//! any ordering and an atomic read-modify-write are each seen by other agents, waves or a
//! device where they run, even when a later access of the block overwrites the word (every
//! store of an atomic location's modification order may be read by another wave's atomic
//! load). The block's final memory does not show them, so [`observe`] copies the registers
//! and immediates the k-th such access reads (address, data, offsets) into `%observe{k}_{n}`
//! where it runs: variables both sides write and must end equal, like an uninterpreted
//! instruction's inputs. `memop.rs` has already paired the accesses (same opcode and memory
//! operand, one to one, in order), so equal operands mean the same address, data and order.

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
fn perturb(side: &Side, i: &Inst, k: usize, target: Target) -> Result<Vec<String>, String> {
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

/// Whether `i` is a volatile or atomic access that writes memory (a store or an atomic
/// read-modify-write): an event other agents and waves observe where it runs.
fn is_observed_write(i: &Inst, target: Target) -> bool {
    let (g, l) = super::effects::writes(i, target);
    (g || l) && super::memop::marked(i)
}

/// The lines that copy what the `k`-th observed write `i` reads (its explicit register and
/// immediate operands, before it runs) into variables both sides must end equal on. Stricter
/// than the address and data alone (two operand sets naming one address differ), which can
/// only cost a proof, never make one.
pub(super) fn observe(
    side: &Side,
    i: &Inst,
    (prefix, k): (&str, usize),
    target: Target,
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut n = 0usize;
    let uses = i
        .ops
        .iter()
        .filter(|o| !o.flags.implicit && !o.flags.implicit_def && !o.flags.def);
    for o in uses {
        let var = |n: usize| format!("%{prefix}{k}_{n}");
        match &o.kind {
            OpKind::Imm(_) => {
                out.push(format!(
                    "s_mov_b32 {}, {}",
                    var(n),
                    emit::src(side, o, target)?
                ));
                n += 1;
            }
            OpKind::VReg { .. } | OpKind::Phys(_) => {
                let vgpr = match &o.kind {
                    OpKind::Phys(p) => p.starts_with("vgpr"),
                    _ => emit::is_vgpr_dest(side, o),
                };
                let mov = if vgpr { "v_mov_b32" } else { "s_mov_b32" };
                for c in emit::dwords(side, o, target)? {
                    out.push(format!("{mov} {}, {c}", var(n)));
                    n += 1;
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// How many volatile loads and observed writes one side has had so far.
#[derive(Default)]
pub(super) struct Seen {
    loads: usize,
    writes: usize,
}

/// The lines to put before and after `i`'s own: its observation when it is a volatile or
/// atomic write (before: a read-modify-write may return into its data register), its
/// perturbation when it is a volatile load.
pub(super) fn lines(
    side: &Side,
    i: &Inst,
    target: Target,
    exec: bool,
    seen: &mut Seen,
) -> Result<(Vec<String>, Vec<String>), String> {
    let mut pre = Vec::new();
    let mut post = Vec::new();
    if is_observed_write(i, target) {
        pre = observe(side, i, ("observe", seen.writes), target)?;
        seen.writes += 1;
    }
    if is_volatile_load(i, target) {
        if exec {
            // The perturbation would also change inactive lanes' registers.
            return Err("a volatile load under the EXEC model is not modelled".into());
        }
        post = perturb(side, i, seen.loads, target)?;
        seen.loads += 1;
    }
    Ok((pre, post))
}
