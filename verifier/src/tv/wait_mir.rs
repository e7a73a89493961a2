//! `gcnsmt waitcnt` on MIR after register allocation (`llc -stop-after=si-insert-waitcnts`, or
//! any later point), and the after-side check of `wait_pass.rs`: tv's MIR reader (`mir.rs`)
//! gives the blocks, successors and operands;
//! each instruction is classified here from its MIR opcode and its operands (definitions are
//! what it writes, uses what it reads, implicit ones included: more exact than assembly).
//! Waits carry their encoded immediate (`S_WAITCNT 49279`), decoded as llvm-mc would.

use super::mir::{self, OpKind, Operand};
use crate::timing::analysis::Obligation;
use crate::timing::asm::{Function, Inst};
use crate::timing::cfg::Block;
use crate::timing::check::{check_ordered, FnReport, InputError};
use crate::timing::classify::{self, Access, Action, Settings};
use crate::timing::regs::{parse_regs, RegSet};
use gcnsmt_lifter::counters::{self, MemFamily};
use gcnsmt_semantics::target::Target;

/// The names of the functions whose `machineFunctionInfo` says `isEntryFunction: true`
/// (kernels and shaders: they start with nothing pending).
pub fn entry_function_names(text: &str) -> Vec<String> {
    let (mut out, mut name) = (Vec::new(), None::<String>);
    for l in text.lines() {
        if let Some(n) = l.strip_prefix("name:") {
            name = Some(n.trim().trim_matches('\'').trim_matches('"').to_string());
        } else if l.trim() == "isEntryFunction: true" {
            out.extend(name.clone());
        }
    }
    out
}

/// One MIR physical register (`sgpr4_sgpr5`, `vgpr0_lo16`, `vcc_lo`, `agpr3`) as units;
/// `None` for registers no memory access writes or reads (`mode`, `sgpr_null`, `src_*`).
fn phys(name: &str) -> Option<RegSet> {
    if let Some(r) = RegSet::special(name) {
        return Some(r);
    }
    let name = name.trim_end_matches("_lo16").trim_end_matches("_hi16");
    match name {
        "flat_scr" => return RegSet::special("flat_scratch"),
        "flat_scr_lo" => return RegSet::special("flat_scratch_lo"),
        "flat_scr_hi" => return RegSet::special("flat_scratch_hi"),
        _ => {}
    }
    let mut out = RegSet::new();
    for piece in name.split('_') {
        let r = match piece
            .strip_prefix("sgpr")
            .or_else(|| piece.strip_prefix("vgpr"))
        {
            Some(n) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                format!("{}{n}", &piece[..1])
            }
            _ => match piece
                .strip_prefix("agpr")
                .or_else(|| piece.strip_prefix("ttmp"))
            {
                Some(n) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                    piece.to_string().replace("agpr", "a")
                }
                _ => return None,
            },
        };
        out.union(&parse_regs(&r).ok()?);
    }
    Some(out)
}

/// The registers of an operand; an error for a virtual register.
fn op_regs(o: &Operand) -> Result<RegSet, String> {
    match &o.kind {
        OpKind::Phys(p) => Ok(phys(p).unwrap_or_default()),
        OpKind::VReg { id, .. } => Err(format!(
            "virtual register %{id}: waitcnt needs MIR after register allocation"
        )),
        _ => Ok(RegSet::new()),
    }
}

/// What the instruction writes (definitions, implicit or not) and reads (uses whose value
/// matters: `undef` ones do not). For a memory access or a call (`mem`), implicit operands naming
/// general registers are dropped: they are liveness records (a spill store of one half of a
/// tuple carries `implicit-def $vgpr1_vgpr2, implicit $vgpr1_vgpr2`), not what the hardware
/// reads or writes, which is the explicit operands and the special registers (EXEC, M0).
fn defs_uses(i: &mir::Inst, mem: bool) -> Result<(RegSet, RegSet), String> {
    let (mut w, mut r) = (RegSet::new(), RegSet::new());
    for o in &i.defs {
        w.union(&op_regs(o)?);
    }
    // General registers only: `$flat_scr` (FLAT_SCRATCH, read by FLAT/SCRATCH accesses) is
    // special although `RegSet::special` spells it `flat_scratch`.
    let gpr = |o: &Operand| {
        matches!(&o.kind, OpKind::Phys(p)
            if ["sgpr", "vgpr", "agpr", "ttmp"].iter().any(|g| p.starts_with(g)))
    };
    for o in &i.ops {
        if mem && (o.flags.implicit || o.flags.implicit_def) && gpr(o) {
            continue;
        }
        if o.flags.implicit_def || o.flags.def {
            w.union(&op_regs(o)?);
        } else if !o.flags.undef {
            r.union(&op_regs(o)?);
        }
    }
    Ok((w, r))
}

/// A wait from its MIR form: `S_WAITCNT imm`, `S_WAITCNT_VSCNT reg, imm`, gfx12
/// `S_WAIT_LOADCNT imm`, `S_WAIT_LOADCNT_DSCNT imm` (and the `_soft` forms, still waits at
/// this point). `None`: not one of the counter waits.
pub(super) fn mir_wait(t: Target, i: &mir::Inst) -> Option<Result<Action, String>> {
    let op = i.opcode.trim_end_matches("_soft").to_ascii_lowercase();
    if !(op.starts_with("s_waitcnt") || op.starts_with("s_wait_")) {
        return None;
    }
    let mut parts = Vec::new();
    for o in i.ops.iter().filter(|o| !o.flags.implicit) {
        parts.push(match &o.kind {
            OpKind::Imm(n) => (*n as u64 & 0xffff).to_string(),
            OpKind::Phys(p) if p == "sgpr_null" => "null".into(),
            _ => "s0".into(),
        });
    }
    let w = classify::wait(t, &op, &parts.join(", "))?;
    Some(w.map(Action::Wait))
}

/// The memory family of a MIR opcode, `Some(Err)` for a memory opcode whose counters are not
/// known, `None` for synchronous code. `returns`: it defines a register.
fn family(op: &str, returns: bool) -> Option<Result<MemFamily, String>> {
    use MemFamily::*;
    let has = |s: &str| op.contains(s);
    let unknown = || Some(Err(format!("`{op}`: its wait counters are not known")));
    let vmem = |flat: bool| -> Option<Result<MemFamily, String>> {
        Some(Ok(match () {
            _ if has("_LDS") => LdsDma,
            _ if has("ASYNC") || has("_BLOCK") => return unknown(),
            _ if has("INV") || has("_WB") || has("PREFETCH") => CacheOp,
            _ if has("LOAD") || (has("ATOMIC") && returns) => {
                if flat {
                    FlatLoad
                } else {
                    VmemLoad
                }
            }
            _ if has("STORE") || has("ATOMIC") => {
                if flat {
                    FlatStore
                } else {
                    VmemStore
                }
            }
            _ => return unknown(),
        }))
    };
    let smem = [
        "S_LOAD_",
        "S_BUFFER_LOAD_",
        "S_STORE_",
        "S_BUFFER_STORE_",
        "S_SCRATCH_",
        "S_ATOMIC_",
        "S_BUFFER_ATOMIC_",
        "S_MEMTIME",
        "S_MEMREALTIME",
        "S_SENDMSG_RTN",
        "S_GET_WAVEID_IN_WORKGROUP",
        // gfx12+: returned on kmcnt (SIInsertWaitcnts: SMEM_ACCESS / SCC_WRITE events).
        "S_GET_BARRIER_STATE",
        "S_BARRIER_SIGNAL_ISFIRST",
    ];
    Some(Ok(match op {
        _ if op.starts_with("EXP") => Export,
        _ if has("PARAM_LOAD") || has("DIRECT_LOAD") => LdsParam,
        _ if op.starts_with("DS_GWS") || has("ORDERED_COUNT") || has("_GDS") => Gds,
        _ if op.starts_with("DS_") => Lds,
        _ if op.starts_with("BUFFER_") || op.starts_with("TBUFFER_") => {
            return match () {
                _ if has("WBINVL1") || has("_INV") || has("WBL2") => Some(Ok(CacheOp)),
                _ => vmem(false),
            }
        }
        _ if op.starts_with("GLOBAL_") || op.starts_with("SCRATCH_") => return vmem(false),
        _ if op.starts_with("FLAT_") => return vmem(true),
        _ if op.starts_with("IMAGE_") => match () {
            _ if has("BVH") => BvhRay,
            _ if has("SAMPLE") || has("GATHER4") || has("GET_LOD") => Sampler,
            _ if returns => VmemLoad,
            _ => VmemStore,
        },
        _ if smem.iter().any(|p| op.starts_with(p)) => Smem,
        _ if op.starts_with("S_DCACHE_") || op.starts_with("S_ATC_PROBE") => CacheOp,
        _ if op.starts_with("S_PREFETCH") => CacheOp,
        "S_SENDMSG" | "S_SENDMSGHALT" => Message,
        _ if op.starts_with("TENSOR_") => return unknown(),
        _ => return None,
    }))
}

/// LLVM's `mayAccessLDSThroughFlat` (SIInsertWaitcnts), read from the memory operands llc
/// printed: a FLAT access whose every memory operand names an address space other than flat
/// (0, printed as no `addrspace`) and local (3) cannot reach LDS, so it counts like GLOBAL
/// (vmcnt, in order), which is how llc placed its waits. Sound as far as the IR is: the
/// operand's address space is the IR pointer's, and LDS through a global, constant or private
/// pointer is undefined in LLVM IR. No memory operand (hand-written MIR): it may reach LDS.
pub(super) fn flat_not_lds(mem: &str) -> bool {
    let mut spaces = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (k, c) in mem.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = k;
                }
                depth += 1;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    spaces.push(operand_space(&mem[start..=k]));
                }
            }
            _ => {}
        }
    }
    !spaces.is_empty() && spaces.iter().all(|s| !matches!(s, 0 | 3))
}

/// The address space of one printed memory operand: its `, addrspace N` field (the IR type in
/// a `ptr addrspace(N)` value is not it), 0 when there is none.
fn operand_space(op: &str) -> u32 {
    op.rsplit(", addrspace ")
        .next()
        .filter(|_| op.contains(", addrspace "))
        .and_then(|t| {
            t.trim_end_matches(')')
                .split(|c: char| !c.is_ascii_digit())
                .next()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Classify one MIR instruction.
/// The call opcodes (a tail call, `SI_TCRETURN*`, leaves the path instead).
const CALLS: [&str; 5] = [
    "SI_CALL",
    "S_SWAPPC_B64",
    "S_CALL_B64",
    "S_CALL_I64",
    "S_SWAP_PC_I64",
];

fn classify_mir(t: Target, i: &mir::Inst, set: Settings) -> Result<Action, String> {
    if let Some(w) = mir_wait(t, i) {
        return w;
    }
    let op = i.opcode.as_str();
    let returns = !i.defs.is_empty();
    // A call's implicit general registers are its arguments and results: LLVM's convention
    // has the callee wait for everything at entry (`callWaitsOnFunctionEntry` checks only the
    // call target and the saved PC), as for a `.s` call, which names neither (breaker 21's 12).
    let call = CALLS.contains(&op);
    let tail = op.starts_with("SI_TCRETURN");
    let (writes, reads) = defs_uses(i, call || tail || family(op, returns).is_some())?;
    let mut mentions = writes.clone();
    mentions.union(&reads);
    match op {
        "S_ENDPGM" | "S_ENDPGM_SAVED" | "S_ENDPGM_ORDERED_PS_DONE" | "SI_RETURN_TO_EPILOG" => {
            return Ok(Action::End { reads, ret: false })
        }
        "SI_RETURN" | "S_SETPC_B64_return" | "S_SETPC_B64_return_gfx" | "S_SETPC_B64" => {
            return Ok(Action::End { reads, ret: true })
        }
        // A tail call: the callee waits at entry (LLVM's convention); the path leaves.
        _ if op.starts_with("SI_TCRETURN") => return Ok(Action::End { reads, ret: false }),
        _ if call => return Ok(Action::Call { mentions, writes }),
        // Inline assembly: its counters are not known (docs/timing.md).
        "INLINEASM" | "INLINEASM_BR" => {
            return Ok(Action::Unknown(format!("`{op}`: inline assembly")))
        }
        // Emit nothing: no register is read or written.
        "KILL" | "IMPLICIT_DEF" | "CFI_INSTRUCTION" | "EH_LABEL" | "BUNDLE" => {
            return Ok(Action::Sync {
                mentions: RegSet::new(),
                writes: RegSet::new(),
                reads: RegSet::new(),
                waits_first: Vec::new(),
            })
        }
        _ => {}
    }
    let fam = match family(op, returns) {
        Some(Ok(MemFamily::CacheOp)) if classify::is_cache_invalidate(&op.to_ascii_lowercase()) => {
            MemFamily::CacheInv
        }
        None => {
            return Ok(Action::Sync {
                mentions,
                writes,
                reads,
                waits_first: vinterp_wait(t, i),
            })
        }
        Some(Err(why)) => return Ok(Action::Unknown(why)),
        Some(Ok(MemFamily::FlatLoad)) if set.flat_never_lds || flat_not_lds(&i.mem) => {
            MemFamily::VmemLoad
        }
        Some(Ok(MemFamily::FlatStore)) if set.flat_never_lds || flat_not_lds(&i.mem) => {
            MemFamily::VmemStore
        }
        // A sampler access on every target (LLVM `getVmemType`: `BaseInfo->MSAA`): samplecnt
        // on gfx12 (VSAMPLE), its own VGPR write order before (breaker 21's 04).
        Some(Ok(MemFamily::VmemLoad)) if op.starts_with("IMAGE_MSAA_LOAD") => MemFamily::Sampler,
        Some(Ok(f)) => f,
    };
    let effects = counters::effects(t, fam);
    if effects.is_empty() {
        return Ok(Action::Unknown(format!(
            "`{op}`: {fam:?} has no counters on {}",
            t.name()
        )));
    }
    let held_until = counters::sources_held_until(t, fam);
    let held = match fam {
        // gfx6 stores hold their data: the first explicit use.
        MemFamily::VmemStore if t.gen() == gcnsmt_semantics::target::Gen::Gfx6 => i
            .uses()
            .next()
            .map(op_regs)
            .transpose()?
            .unwrap_or_default(),
        _ if held_until.is_some() => reads.clone(),
        _ => RegSet::new(),
    };
    let mut a = Access {
        family: fam,
        effects,
        writes,
        reads,
        held,
        held_until,
    };
    crate::timing::lds::add_lds(
        &mut a,
        classify::lds_read(fam, op) || (op.starts_with("DS_") && returns),
    );
    Ok(Action::Mem(a))
}

/// A VINTERP's own expcnt wait (`classify::vinterp_wait`): its `waitexp` operand, the last
/// explicit immediate (LLVM VINTERPInstructions.td: `..., Clamp:$clamp, [op_sel0:$op_sel,]
/// WaitEXP:$waitexp`; `V_INTERP_P10_F32_inreg 0, $vgpr2, 0, $vgpr0, 0, $vgpr2, 0, 3`). The
/// VINTERP opcodes are the `V_INTERP_*_inreg*` ones (gfx6-gfx10's VINTRP are not). Without
/// such an operand, no wait (which can only add hazards).
fn vinterp_wait(t: Target, i: &mir::Inst) -> Vec<(counters::Counter, u32)> {
    let vinterp =
        classify::is_vinterp(t, &i.opcode.to_ascii_lowercase()) && i.opcode.contains("_inreg");
    match i.uses().last().map(|o| &o.kind) {
        Some(OpKind::Imm(n)) if vinterp && (0..=7).contains(n) => classify::exp_wait(*n as u32),
        _ => Vec::new(),
    }
}

/// Check every function of the MIR `text` (`path` for messages). `target` overrides each
/// function's `"target-cpu"`.
pub fn check_mir(
    path: &str,
    text: &str,
    target: Option<Target>,
    set: Settings,
) -> Result<(Target, Vec<FnReport>), InputError> {
    let file = mir::parse(path, text).map_err(|e| InputError {
        line: e.loc.line as usize,
        col: e.loc.col as usize,
        msg: e.msg,
    })?;
    let entries = entry_function_names(text);
    let mut out = Vec::new();
    let mut last = target;
    for f in &file.functions {
        let t = match target.or_else(|| f.target_cpu.as_deref().and_then(Target::parse)) {
            Some(t) => t,
            None => {
                return Err(InputError {
                    line: f.loc.line as usize,
                    col: f.loc.col as usize,
                    msg: format!("no \"target-cpu\" for `{}`: give --target", f.name),
                })
            }
        };
        last = Some(t);
        out.push(check_mir_function(t, f, entries.contains(&f.name), set)?);
    }
    let t = last.ok_or(InputError {
        line: 1,
        col: 1,
        msg: "no machine function in the file".into(),
    })?;
    Ok((t, out))
}

/// Check one machine function (physical registers).
pub fn check_mir_function(
    t: Target,
    f: &mir::Function,
    kernel: bool,
    set: Settings,
) -> Result<FnReport, InputError> {
    check_mir_ordered(t, f, (kernel, set), &[])
}

/// [`check_mir_function`] with memory-ordering waits to honour before the instructions at the
/// given lines (`wait_pass.rs`: the before-file's soft waits).
pub fn check_mir_ordered(
    t: Target,
    f: &mir::Function,
    (kernel, set): (bool, Settings),
    obligations: &[(u32, Obligation)],
) -> Result<FnReport, InputError> {
    let mut func = Function {
        name: f.name.clone(),
        kernel,
        line: f.loc.line as usize,
        ..Function::default()
    };
    let (mut actions, mut blocks) = (Vec::new(), Vec::new());
    let index: std::collections::HashMap<u32, usize> = f
        .blocks
        .iter()
        .enumerate()
        .map(|(n, b)| (b.num, n))
        .collect();
    for (n, b) in f.blocks.iter().enumerate() {
        let start = func.insts.len();
        for i in &b.insts {
            let a = classify_mir(t, i, set).map_err(|msg| InputError {
                line: i.loc.line as usize,
                col: i.loc.col as usize,
                msg,
            })?;
            func.insts.push(Inst {
                line: i.loc.line as usize,
                col: i.loc.col as usize,
                mnemonic: i.key.clone(),
                operands: String::new(),
            });
            actions.push(a);
        }
        blocks.push(Block {
            start,
            end: func.insts.len(),
            succs: successors(f, n, &index),
            label: Some(format!("bb.{}", b.num)),
        });
    }
    // Empty blocks: the analysis runs instruction ranges; an empty one passes its state on.
    let at: Vec<(usize, Obligation)> = obligations
        .iter()
        .filter_map(|(line, ob)| {
            let i = func.insts.iter().position(|x| x.line == *line as usize)?;
            Some((i, ob.clone()))
        })
        .collect();
    Ok(check_ordered(t, &func, (&actions, &blocks), at))
}

/// Block `n`'s successors (indices): its `successors:` line, or, where MIR lists none, the
/// blocks its branches name and the next block unless it ends in `S_BRANCH` or a return.
fn successors(
    f: &mir::Function,
    n: usize,
    index: &std::collections::HashMap<u32, usize>,
) -> Vec<usize> {
    let b = &f.blocks[n];
    if b.successors_listed {
        return b
            .successors
            .iter()
            .filter_map(|s| index.get(s).copied())
            .collect();
    }
    let mut out: Vec<usize> = Vec::new();
    for i in &b.insts {
        for o in &i.ops {
            if let OpKind::Other(s) = &o.kind {
                if let Some(num) = s.strip_prefix("%bb.").and_then(|x| x.parse::<u32>().ok()) {
                    out.extend(index.get(&num));
                }
            }
        }
    }
    let ends = b.insts.last().is_some_and(|i| {
        i.opcode == "S_BRANCH"
            || i.opcode.starts_with("S_ENDPGM")
            || i.opcode.starts_with("SI_RETURN")
            || i.opcode.starts_with("S_SETPC")
            || i.opcode.starts_with("SI_TCRETURN")
    });
    if !ends && n + 1 < f.blocks.len() {
        out.push(n + 1);
    }
    out.dedup();
    out
}
