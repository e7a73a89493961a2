//! What the assembly text does not show: registers an instruction reads without naming them
//! (LLVM's `Uses = [...]` lists), and instructions whose registers the text cannot give at all
//! (M0-relative and GPR-index-mode access), which the analysis must not treat as synchronous.

use super::regs::RegSet;
use gcnsmt_lifter::counters::MemFamily;
use gcnsmt_semantics::target::Target;

/// The mnemonic of the pseudo-instruction the `.s` reader puts where llc wrote `; return to
/// shader part epilog` (`SI_RETURN_TO_EPILOG`: no code, the epilog that follows may read any
/// register, and LLVM waits for everything there) or where a function falls off its end.
pub const EPILOG: &str = "<return to shader part epilog>";

/// Why `m` cannot be modelled from its text (`None`: it can).
///
/// - `v_movrels*`, `v_movreld*`, `v_movrelsd*`, `v_swaprel*`, `s_movrels*`, `s_movreld*` read
///   or write `VGPR[operand + M0]` / `SGPR[operand + M0]` ([VEGA], [RDNA] pseudocode): the
///   register is chosen at run time, so the text does not say which pending load it waits for.
/// - `s_set_gpr_idx_on` / `s_set_gpr_idx_mode` (gfx8-gfx9) make the following VALU operands
///   M0-relative until `s_set_gpr_idx_off`.
/// - A mnemonic of no known instruction class (a macro name, a typo): its counters are not
///   known, so it is never treated as synchronous.
pub fn unmodelled(_target: Target, m: &str) -> Option<String> {
    let rel = ["v_movrel", "v_swaprel", "s_movrel"];
    if rel.iter().any(|p| m.starts_with(p)) {
        return Some(format!(
            "`{m}`: M0-relative register access (the register is chosen at run time)"
        ));
    }
    if m.starts_with("s_set_gpr_idx_on") || m.starts_with("s_set_gpr_idx_mode") {
        return Some(format!(
            "`{m}`: GPR index mode (VALU operands become M0-relative)"
        ));
    }
    let known = [
        "v_", "s_", "ds_", "buffer_", "tbuffer_", "global_", "scratch_", "flat_", "image_", "lds_",
        "tensor_",
    ];
    if !(known.iter().any(|p| m.starts_with(p)) || m == "exp" || m == "export" || m == EPILOG) {
        return Some(format!("`{m}`: not a known instruction"));
    }
    None
}

/// Registers a synchronous instruction reads without naming them: VCC for `v_div_fmas_*`
/// (pseudocode `if VCC[laneId]`; LLVM `Uses = [VCC, EXEC]`).
pub fn sync_reads(m: &str, mut regs: RegSet) -> RegSet {
    if m.starts_with("v_div_fmas") {
        regs.union(&RegSet::special("vcc").expect("special"));
    }
    regs
}

/// Registers a memory access reads without naming them:
/// - FLAT and SCRATCH: FLAT_SCRATCH, which forms private addresses at issue (LLVM
///   FLATInstructions.td `Uses = [EXEC, FLAT_SCR]`); read on every target, which can only add
///   hazards (from gfx10 no memory instruction writes it);
/// - M0: messages (`s_sendmsg`), GDS and GWS, `ds_append`/`ds_consume`/`ds_ordered_count`, the
///   `*_addtid` DS forms, LDS parameter loads (LLVM `Uses = [M0, ...]`).
pub fn access_reads(family: MemFamily, m: &str, reads: &mut RegSet) {
    if m.starts_with("flat_") || m.starts_with("scratch_") {
        reads.union(&RegSet::special("flat_scratch").expect("special"));
    }
    let m0 = matches!(
        family,
        MemFamily::Message | MemFamily::Gds | MemFamily::LdsParam
    ) || ["ds_append", "ds_consume", "ds_ordered", "ds_gws"]
        .iter()
        .any(|p| m.starts_with(p))
        || m.contains("addtid");
    if m0 {
        reads.union(&RegSet::special("m0").expect("special"));
    }
}
