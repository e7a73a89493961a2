//! What an opcode the lowering does not translate does to memory and beyond the registers it
//! names: pure, a global read or write, any read, or an effect (`unsupported` when changed).

use super::mir::Inst;
use super::opcodes;
use super::opcodes::MirOp;
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_semantics::target::Target;

const PSEUDO: [&str; 7] = [
    "COPY",
    "REG_SEQUENCE",
    "INSERT_SUBREG",
    "EXTRACT_SUBREG",
    "IMPLICIT_DEF",
    "KILL",
    "PHI",
];

/// A copy pseudo, or a whole-wave / whole-quad marker (a copy for an active lane).
pub(super) fn pseudo(op: &str) -> bool {
    PSEUDO.contains(&op) || super::exec::is_mode_copy(op)
}

/// Block-ending instructions (and `SI_*` control-flow pseudos that end blocks).
pub fn is_terminator(op: &str) -> bool {
    op == "S_ENDPGM"
        || op == "S_BRANCH"
        // The fork/join ops may stand anywhere in a block and set EXEC: effects, not
        // terminators (`WAVE_CONTROL`).
        || op.starts_with("S_CBRANCH") && !op.contains("FORK") && !op.contains("JOIN")
        || op.starts_with("SI_RETURN")
        || op.starts_with("S_SETPC_B64_return")
        || matches!(
            op,
            "SI_IF" | "SI_ELSE" | "SI_LOOP" | "SI_BRCOND" | "S_CBRANCH_EXECZ"
        )
        || op == "SI_TCRETURN"
        // Terminator forms of SALU ops (`S_MOV_B64_term`, `S_AND_B32_term`,
        // `SI_KILL_I1_TERMINATOR`): they write EXEC at the block's end, so they must be
        // identical on both sides and their register uses are live-out.
        || op.ends_with("_term")
        || op.ends_with("_TERMINATOR")
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mem {
    Pure,
    ReadsGlobal,
    /// `GLOBAL_STORE_*` / `GLOBAL_ATOMIC_*`: global memory only, never LDS.
    WritesGlobal,
    ReadsAny,
    Effect,
}

/// SALU ops whose effect is on the wave, not on the registers they name (AMD Vega ISA guide,
/// SOPP/SOP1/SOP2/SOPK/SOPC; RDNA guides for the later ones): halting, killing or waking
/// waves, skipping vector instructions (`S_SETVSKIP`), the fork/join branch stack that sets
/// EXEC (`S_CBRANCH_I_FORK`/`G_FORK`/`JOIN`), the float MODE float ops read
/// (`S_DENORM_MODE`, `S_ROUND_MODE`), returns from traps, ending the program, VGPR
/// allocation, debug and trace data, the gfx10+ subvector loops. Moving code across one
/// changes what runs or what it computes: `unsupported` (break4 06-09).
const WAVE_CONTROL: [&str; 19] = [
    "S_SETHALT",
    "S_SETKILL",
    "S_SETVSKIP",
    "S_CBRANCH_I_FORK",
    "S_CBRANCH_G_FORK",
    "S_CBRANCH_JOIN",
    "S_DENORM_MODE",
    "S_ROUND_MODE",
    "S_WAKEUP",
    "S_ENDPGM_SAVED",
    "S_ENDPGM_ORDERED_PS_DONE",
    "S_RFE",
    "S_TTRACEDATA",
    "S_ALLOC_VGPR",
    "S_SUBVECTOR_LOOP",
    "S_MOV_FED",
    "S_ATC_PROBE",
    "S_GL1_INV",
    "S_WAIT_EVENT",
];

/// The opcode prefix of a load with a cache policy kept uninterpreted (`cpol_pin.rs`): it reads
/// only the memory the block starts with (checked there), so it is a function of its operands.
pub(super) const PINNED: &str = "CPOL_PINNED_";

/// The memory behaviour of an unmodelled opcode.
pub(super) fn memory_of(op: &str) -> Mem {
    if op.starts_with(PINNED) {
        return Mem::Pure;
    }
    const EFFECT: [&str; 23] = [
        "S_BARRIER",
        "S_SENDMSG",
        "S_SETREG",
        "S_GETREG",
        "S_SLEEP",
        "S_TRAP",
        "S_DCACHE",
        "S_ICACHE",
        "S_MEMTIME",
        "S_MEMREALTIME",
        "S_STORE",
        "S_ATOMIC",
        "S_BUFFER_STORE",
        "S_BUFFER_ATOMIC",
        "SI_CALL",
        "SI_KILL",
        // Indirect register access (M0 or the GPR index mode picks the register), LDS reads of
        // interpolation, scratch stores, indirect jumps: effects the operands do not list.
        "S_MOVREL",
        "V_MOVREL",
        "V_INTERP",
        "S_SCRATCH",
        "S_SETPC",
        "S_SET_GPR_IDX",
        // The program counter: its value depends on where the instruction is, so a pass that
        // moves code or adds an instruction before it changes the result.
        "S_GETPC",
    ];
    if EFFECT
        .iter()
        .chain(&WAVE_CONTROL)
        .any(|p| op.starts_with(p))
    {
        return Mem::Effect;
    }
    // The call-frame pseudos only adjust the stack pointer ($sgpr32), which they read and write
    // as physical registers (compared and fresh on the uninterpreted path); the call between
    // them is a split point (`barrier.rs`).
    if op.starts_with("ADJCALLSTACK") {
        return Mem::Pure;
    }
    if op.starts_with("SI_SPILL") {
        return Mem::Effect;
    }
    // LDS DMA and the async loads write LDS (M0 or an operand gives the address): an effect
    // the global-read class would hide (GLOBAL_LOAD_LDS_DWORD, GLOBAL_LOAD_ASYNC_TO_LDS_*).
    if op.contains("_LDS") {
        return Mem::Effect;
    }
    // Image memory is global memory (`mimg.rs`).
    if super::mimg::is_image_read(op)
        || op.starts_with("S_LOAD_")
        || op.starts_with("S_BUFFER_LOAD_")
        || op.starts_with("GLOBAL_LOAD_")
    {
        return Mem::ReadsGlobal;
    }
    if op.starts_with("GLOBAL_STORE_") || op.starts_with("GLOBAL_ATOMIC_") {
        return Mem::WritesGlobal;
    }
    if op.starts_with("FLAT_LOAD_") {
        return Mem::ReadsAny;
    }
    if op.starts_with("V_") || op.starts_with("S_") || op.starts_with("SI_") {
        // Cross-lane reads (V_READLANE, DPP) see one lane in this model, like every VALU op.
        return Mem::Pure;
    }
    Mem::Effect
}

/// Whether an instruction touches no memory and no barrier: a copy pseudo, a modelled ALU op,
/// or an unmodelled `V_*`/`S_*`/`SI_*` op outside the effect list (`V_READFIRSTLANE_B32`).
pub(super) fn is_pure(op: &str, target: Target) -> bool {
    match opcodes::lookup(target, op) {
        Some(MirOp::Alu { .. } | MirOp::Sdwa(_)) => true,
        Some(_) => false,
        None if is_terminator(op) || matches!(op, "IMPLICIT_DEF" | "PHI" | "KILL") => false,
        None => pseudo(op) || super::wide::is_wide(op) || memory_of(op) == Mem::Pure,
    }
}

/// Whether an instruction may read memory (modelled or not).
pub(super) fn reads_memory(i: &Inst, target: Target) -> bool {
    let op = i.opcode.as_str();
    match opcodes::lookup(target, op) {
        Some(MirOp::Alu { .. } | MirOp::Sdwa(_)) => false,
        Some(_) => true,
        None if pseudo(op) || super::wide::is_wide(op) || is_terminator(op) => false,
        None => memory_of(op) != Mem::Pure,
    }
}

/// Whether an instruction may write global / LDS memory (modelled or not).
pub(super) fn writes(i: &Inst, target: Target) -> (bool, bool) {
    let op = i.opcode.as_str();
    match opcodes::lookup(target, op) {
        Some(MirOp::Ds { shape, .. }) => (false, shape.data0 > 0 || op.contains("WRITE")),
        Some(MirOp::Mubuf { shape, lds, .. }) => (shape.class != MubufClass::Load, lds),
        Some(MirOp::Global { op, .. }) => (op.kind == gcnsmt_lifter::GlobalKind::Store, false),
        // A FLAT store may reach LDS or global memory (the aperture decides).
        Some(MirOp::Flat { op, .. }) => {
            let store = op.kind == gcnsmt_lifter::GlobalKind::Store;
            (store, store)
        }
        Some(MirOp::Alu { .. } | MirOp::Sdwa(_) | MirOp::Smem { .. }) => (false, false),
        None if pseudo(op) || is_terminator(op) => (false, false),
        None => match memory_of(op) {
            Mem::Pure | Mem::ReadsGlobal | Mem::ReadsAny => (false, false),
            Mem::WritesGlobal => (true, false),
            Mem::Effect => (true, true),
        },
    }
}

/// The first instruction that reads `$sgpr_null` (other than as a source of a MUBUF or
/// scalar memory instruction) in a block side that also writes it. NULL is no register: reads
/// give 0 and writes are discarded (RDNA ISA guides, "Scalar operands": SGPR encoding 125 on
/// gfx10, 124 on gfx11+). A 32-bit ALU source (`emit::alu`) reads the constant 0, and the buffer
/// and scalar load semantics read a `null` offset as 0 (`machine/buffer.rs`,
/// `machine/smem.rs`); a write goes to a cell no later read in the block sees. Only a read by
/// some other path after a write in the same block would see the written value where the
/// hardware reads 0 (break4 11): `unsupported`. A read on a side that never writes NULL reads
/// either 0 or the `null` cell, an input both sides share, of which 0 is one value: sound.
pub(super) fn names_null(b: &super::mir::Block, target: Target) -> Option<&Inst> {
    let is_null = |o: &super::mir::Operand| matches!(&o.kind, super::mir::OpKind::Phys(p) if p == "sgpr_null");
    let writes = b.insts.iter().any(|i| {
        i.defs.iter().any(is_null)
            || i.ops
                .iter()
                .any(|o| is_null(o) && (o.flags.def || o.flags.implicit_def))
    });
    if !writes {
        return None;
    }
    b.insts.iter().find(|i| {
        let reads_as_zero = matches!(
            opcodes::lookup(target, &i.opcode),
            Some(MirOp::Mubuf { .. } | MirOp::Smem { .. })
        );
        i.ops
            .iter()
            .any(|o| is_null(o) && !o.flags.def && !o.flags.implicit_def && !reads_as_zero)
    })
}

/// The first scalar load (`S_LOAD_*`, `S_BUFFER_LOAD_*`) after a vector memory instruction
/// that may write global memory in the same block. The scalar load runs once per wave; the
/// store runs per active lane, so what the load reads depends on EXEC (a block may run with
/// EXEC = 0 when `S_CBRANCH_EXECZ` is skipped) and on the other lanes' addresses, which one lane
/// does not see (break4 12): `unsupported`.
pub(super) fn scalar_read_after_vector_store(
    b: &super::mir::Block,
    target: Target,
) -> Option<&Inst> {
    let mut stored = false;
    for i in &b.insts {
        let op = i.opcode.as_str();
        if stored && (op.starts_with("S_LOAD_") || op.starts_with("S_BUFFER_LOAD_")) {
            return Some(i);
        }
        // A `BUNDLE` header carries its contents' memory operands, and its contents follow
        // it in `b.insts` and are checked themselves (breaker 24's 04: a bundle of the entry
        // `S_LOAD`s was taken as a store before the first of them).
        stored |= !op.starts_with("S_")
            && !op.starts_with("SI_")
            && op != "BUNDLE"
            && writes(i, target).0;
    }
    None
}

/// The first wave-level DS instruction (GWS, `DS_APPEND`/`DS_CONSUME`, ordered count): it
/// updates shared state once per wave by the number of active lanes, which the `Lanes: 1`
/// rule cannot express (docs/lanes.md, "Wave-level DS instructions"; break4 ERR1).
pub(super) fn wave_level_ds(b: &super::mir::Block, target: Target) -> Option<&Inst> {
    b.insts.iter().find(|i| {
        matches!(opcodes::lookup(target, &i.opcode),
            Some(MirOp::Ds { shape, .. }) if shape.scope != gcnsmt_lifter::table::DsScope::Lane)
    })
}

/// The first after-instruction with an `undef` flag the pass added where the before-block
/// gives the register a value (breaker8 04/05). In MIR an `undef` use reads no value (the
/// register is free for later passes), and an `undef` sub-register def leaves the other lanes
/// undefined; tv's model reads and keeps the register as it is, so it would prove both. An
/// `undef` use of a register the before-block makes with `IMPLICIT_DEF` is what
/// `processimpdefs` writes (the value was undefined before too), and an `undef` def of a
/// register whose same sub-register the before-block does not define without `undef` is a
/// lowered `REG_SEQUENCE` (every lane it leaves undefined was undefined before): both allowed.
pub(crate) fn undef_added<'a>(
    before: &super::mir::Block,
    after: &'a super::mir::Block,
) -> Option<&'a Inst> {
    use super::mir::OpKind;
    let implicit_def: std::collections::BTreeSet<u32> = before
        .insts
        .iter()
        .filter(|i| i.opcode == "IMPLICIT_DEF")
        .flat_map(|i| i.defs.iter())
        .filter_map(|d| match d.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    let read_b = |id: u32| {
        before.insts.iter().any(|i| {
            i.ops.iter().any(|o| {
                !o.flags.def
                    && !o.flags.implicit_def
                    && !o.flags.undef
                    && matches!(o.kind, OpKind::VReg { id: x, .. } if x == id)
            })
        })
    };
    let defined_b = |kind: &OpKind| {
        before
            .insts
            .iter()
            .any(|i| i.defs.iter().any(|d| !d.flags.undef && &d.kind == kind))
    };
    // Registers an earlier after-instruction of the block defines or reads: an `undef`
    // sub-register def of one of them drops lanes that held a value (breaker 12, 01/03: a
    // lowered REG_SEQUENCE whose second copy is `undef` too).
    let mut seen: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    after.insts.iter().find(|i| {
        let earlier = i.defs.iter().any(|d| {
            d.flags.undef
                && matches!(d.kind, OpKind::VReg { id, sub: Some(_) } if seen.contains(&id))
        });
        for o in i.defs.iter().chain(&i.ops) {
            if let OpKind::VReg { id, .. } = o.kind {
                seen.insert(id);
            }
        }
        let uses = i
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def);
        let bad_use = uses.filter(|o| o.flags.undef).any(|o| match o.kind {
            OpKind::VReg { id, .. } => read_b(id) && !implicit_def.contains(&id),
            _ => false,
        });
        let bad_def = i.defs.iter().any(|d| {
            d.flags.undef
                && matches!(d.kind, OpKind::VReg { sub: Some(_), .. })
                && defined_b(&d.kind)
        });
        bad_use || bad_def || earlier
    })
}
