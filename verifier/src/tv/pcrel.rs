//! `SI_PC_ADD_REL_OFFSET`: the address of a symbol, computed relative to the program counter.
//!
//! LLVM expands it after register allocation (`SIInstrInfo::expandPostRAPseudo`) to
//! `s_getpc_b64 d; s_add_u32 d.lo, d.lo, sym@rel32@lo+4; s_addc_u32 d.hi, d.hi, sym@rel32@hi+12`,
//! and the linker fills the two literals with `sym - PC` (each fixup relative to its own
//! literal, which the +4/+12 account for). So the result is the symbol's address, a link-time
//! constant the same on both sides, and SCC is the carry out of the 64-bit add `PC + (sym - PC)`:
//! 1 exactly when the relative offset wraps, i.e. when `sym <u PC` (AMD Vega ISA guide,
//! S_ADDC_U32: "SCC = carry-out"). PC, the address the `s_getpc_b64` returns, depends on where
//! the code is laid out, which a pass may change: each side gets its own free PC, so a side whose
//! values depend on that carry is proved only if they hold for every layout, and a refutation
//! that rests on it holds for the layout its counterexample names.

use super::emit::{dwords, Side};
use super::mir::{Inst, OpKind};
use gcnsmt_semantics::target::Target;

pub const OPCODE: &str = "SI_PC_ADD_REL_OFFSET";

/// The rule variable both sides share for the address the symbol operands name: their text
/// (`target-flags(amdgpu-rel32-lo) @ext`, ... with any `+ offset`), hashed.
fn symbol_var(i: &Inst) -> String {
    let text: String = i
        .uses()
        .filter_map(|o| match &o.kind {
            OpKind::Other(s) => Some(s.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ");
    let h = text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("%sym{h:08x}")
}

/// The lines of one `SI_PC_ADD_REL_OFFSET`: the destination pair gets the symbol's address and,
/// `%scc` = (address <u PC) with PC this side's own fresh input (`%pcb1`, `%pca1`).
pub fn lower(
    side: &Side,
    i: &Inst,
    target: Target,
    t: &mut super::scc::Temps,
) -> Result<Vec<String>, String> {
    if !i
        .uses()
        .any(|o| matches!(&o.kind, OpKind::Other(s) if s.contains('@')))
    {
        return Err("no symbol operand".into());
    }
    let d = dwords(side, i.defs.first().ok_or("missing definition")?, target)?;
    let [lo, hi] = d.as_slice() else {
        return Err("the result is not a 64-bit pair".into());
    };
    let sym = symbol_var(i);
    let addr = [format!("{sym}_0"), format!("{sym}_1")];
    // SCC first: it reads the address, not the destination (which may be an input's register).
    let pc = t.pc();
    let mut out = t.bool_of64(super::scc::VAR, "v_cmp_lt_u64", &addr, &pc)?;
    out.push(format!("s_mov_b32 {lo}, {}", addr[0]));
    out.push(format!("s_mov_b32 {hi}, {}", addr[1]));
    Ok(out)
}
