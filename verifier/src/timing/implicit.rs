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

/// Whether a scalar instruction reads SCC without naming it (LLVM `Uses = [SCC]`): selects,
/// conditional moves, add/subtract with carry-in. (`s_cbranch_scc*` is a branch: `classify.rs`.)
pub fn reads_scc(m: &str) -> bool {
    [
        "s_cselect",
        "s_cmov",
        "s_addc",
        "s_subb",
        "s_add_co_ci",
        "s_sub_co_ci",
    ]
    .iter()
    .any(|p| m.starts_with(p))
}

/// Whether a scalar instruction may write SCC without naming it: every SALU instruction but
/// those known not to (moves, selects, multiplies, bit and pack operations, program control,
/// waits, messages, barriers). Over-approximate: an SCC write only matters while an access
/// that returns SCC (gfx12 `s_barrier_signal_isfirst`) is pending, where it adds hazards.
pub fn may_write_scc(m: &str) -> bool {
    let never = [
        "s_mov",
        "s_cmov",
        "s_cselect",
        "s_mul_i32",
        "s_mul_hi",
        "s_mul_u64",
        "s_pack",
        "s_brev",
        "s_bfm",
        "s_ff0",
        "s_ff1",
        "s_flbit",
        "s_cls",
        "s_clz",
        "s_ctz",
        "s_sext",
        "s_bitset",
        "s_bitreplicate",
        "s_nop",
        "s_wait",
        "s_barrier",
        "s_sendmsg",
        "s_setprio",
        "s_sleep",
        "s_getpc",
        "s_setpc",
        "s_swappc",
        "s_getreg",
        "s_setreg",
        "s_delay_alu",
        "s_clause",
        "s_trap",
        "s_icache",
        "s_code_end",
        "s_inst_prefetch",
        "s_denorm_mode",
        "s_round_mode",
        "s_version",
        "s_ttrace",
        "s_incperflevel",
        "s_decperflevel",
        "s_endpgm",
        "s_branch",
        "s_cbranch",
        "s_get_barrier",
        "s_wakeup",
        "s_singleuse",
        "s_set_inst_prefetch",
    ];
    m.starts_with("s_") && !never.iter().any(|p| m.starts_with(p))
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
