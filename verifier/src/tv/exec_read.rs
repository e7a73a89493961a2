//! Which instructions may read EXEC without naming it (breaker 13: 06, 07).
//!
//! A real machine instruction that reads EXEC lists it as an implicit use in MIR (its
//! MCInstrDesc implicit operands are printed), but several instructions run vector code
//! under EXEC without naming it: `COPY` (and the other generic copies) of a VGPR, which
//! lowers to `v_mov_b32` under EXEC; `INLINEASM` (any text: `global_store_dword`); calls,
//! whose callee runs with the caller's EXEC (AMDGPUUsage); returns, after which the caller
//! runs with the EXEC it gets back; and pseudos the model does not know. So an instruction
//! counts as an EXEC reader unless it is shown not to be one: a scalar machine instruction
//! (`S_*`, but not a jump to other code such as `S_SWAPPC_B64`, nor a read of hardware state
//! such as `S_GETREG_B32` of STATUS, whose EXECZ bit follows EXEC) that does not name EXEC, a
//! generic copy all of whose registers are scalar, or one of a few pseudos that emit no
//! vector code.

use super::mir::{Inst, OpKind};
use std::collections::BTreeMap;

/// Pseudos that emit no code or only scalar code, and never pass EXEC to other code.
const SCALAR_PSEUDOS: &[&str] = &[
    "IMPLICIT_DEF",
    "KILL",
    "CFI_INSTRUCTION",
    "EH_LABEL",
    "ADJCALLSTACKUP",
    "ADJCALLSTACKDOWN",
    "SI_PC_ADD_REL_OFFSET",
    "SI_PC_ADD_REL_OFFSET64",
    "SCHED_BARRIER",
    "SCHED_GROUP_BARRIER",
    "LIFETIME_START",
    "LIFETIME_END",
    "WAVE_BARRIER",
    "ATOMIC_FENCE",
];

/// Generic copies: they copy a VGPR under EXEC (`v_mov_b32`), an SGPR with `s_mov_b32`.
const COPIES: &[&str] = &[
    "COPY",
    "PHI",
    "REG_SEQUENCE",
    "INSERT_SUBREG",
    "EXTRACT_SUBREG",
    "SUBREG_TO_REG",
    "PRED_COPY",
];

/// Whether `i` names EXEC (`$exec`, `$exec_lo`, `$exec_hi`) as an operand.
pub fn names_exec(i: &Inst) -> bool {
    i.ops
        .iter()
        .chain(&i.defs)
        .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
}

/// Whether the physical register `p` (without `$`) is a scalar one.
fn scalar_phys(p: &str) -> bool {
    [
        "sgpr",
        "vcc",
        "m0",
        "scc",
        "ttmp",
        "flat_scr",
        "xnack_mask",
        "src_",
        "exec",
    ]
    .iter()
    .any(|s| p.starts_with(s))
}

/// Whether every register operand of `i` is scalar (an unknown class is not).
fn all_scalar(i: &Inst, classes: &BTreeMap<u32, String>) -> bool {
    i.ops.iter().chain(&i.defs).all(|o| match &o.kind {
        OpKind::Phys(p) => scalar_phys(p),
        OpKind::VReg { id, .. } => classes.get(id).is_some_and(|c| {
            c.starts_with("sgpr") || c.starts_with("sreg") || c.starts_with("ccr_sgpr")
        }),
        _ => true,
    })
}

/// Whether `i` may read EXEC (module doc). `classes`: its function's virtual register classes.
pub fn may_read_exec(i: &Inst, classes: &BTreeMap<u32, String>) -> bool {
    let op = i.opcode.as_str();
    if names_exec(i) {
        return true;
    }
    // A scalar jump to other code (a call, a return, a trap handler) runs that code with EXEC.
    let jumps = ["S_SWAPPC", "S_SETPC", "S_CALL", "S_TRAP", "S_RFE"];
    if jumps.iter().any(|j| op.starts_with(j)) {
        return true;
    }
    // Hardware registers and messages: `S_GETREG_B32 hwreg(HW_REG_STATUS)` reads STATUS, whose
    // bit 9 is EXECZ (breaker 14, 01); a message or trace may carry the wave's state.
    let state = ["S_GETREG", "S_SENDMSG", "S_TTRACEDATA", "S_SETHALT"];
    if state.iter().any(|j| op.starts_with(j)) {
        return true;
    }
    if op.starts_with("S_") || op.starts_with("DBG_") || SCALAR_PSEUDOS.contains(&op) {
        return false;
    }
    !(COPIES.contains(&op) && all_scalar(i, classes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tv::mir::parse;

    fn insts(body: &str) -> (Vec<Inst>, BTreeMap<u32, String>) {
        let text = format!("---\nname: f\nbody: |\n  bb.0:\n{body}...\n");
        let f = parse("t.mir", &text).unwrap().functions.remove(0);
        (f.blocks[0].insts.clone(), f.classes)
    }

    #[test]
    fn readers() {
        // Each line is an EXEC reader: hand classification against AMDGPUUsage / the ISA.
        let (is, cl) = insts(
            "    INLINEASM &\"global_store_dword v[2:3], v1, off\", 1\n    \
             $vgpr0 = COPY %0\n    %2:vgpr_32 = COPY %1:sgpr_32\n    \
             dead $sgpr30_sgpr31 = SI_CALL %20, @f, csr_amdgpu, implicit $vgpr0\n    \
             %5:vreg_1 = COPY %4:sreg_64\n    \
             %3:vgpr_32 = V_MOV_B32_e32 0, implicit $exec\n    \
             $vgpr1 = SOME_UNKNOWN_PSEUDO $vgpr0\n    \
             $sgpr30_sgpr31 = S_SWAPPC_B64 $sgpr16_sgpr17\n    \
             %6:sreg_32 = S_GETREG_B32 2306\n    \
             SI_RETURN implicit $vgpr0\n",
        );
        // (The return last: no instruction may follow a terminator, `mir_shape.rs`.)
        for i in &is {
            assert!(may_read_exec(i, &cl), "{}", i.opcode);
        }
    }

    #[test]
    fn non_readers() {
        let (is, cl) = insts(
            "    %0:sgpr_32 = COPY $sgpr16\n    $sgpr4_sgpr5 = COPY %1:sreg_64\n    \
             %2:sreg_64 = S_ADD_U32 %0, 8, implicit-def $scc\n    \
             ADJCALLSTACKUP 0, 0, implicit-def dead $scc\n    %3:sgpr_32 = IMPLICIT_DEF\n    \
             S_ENDPGM 0\n",
        );
        for i in &is {
            assert!(!may_read_exec(i, &cl), "{}", i.opcode);
        }
    }
}
