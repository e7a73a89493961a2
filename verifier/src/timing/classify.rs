//! What one instruction does to the wait counters and registers: a wait, a memory access
//! (which counters it increments, which registers it writes when it completes, which sources
//! it reads after issue), a branch, the end of a path, or ordinary synchronous code.
//! The counter facts come from `gcnsmt_lifter::counters`; the operand roles from the opcode
//! tables (`ds_lookup`, `buffer_lookup`) and LLVM's assembly syntax (destination first).

use super::asm::Inst;
use super::regs::{parse_regs, RegSet};
use gcnsmt_lifter::counters::{self, Counter, Effect, MemFamily};
use gcnsmt_lifter::{buffer_lookup, ds_lookup, MubufClass};
use gcnsmt_semantics::target::{Gen, Target};

/// A memory access as the timing model sees it.
#[derive(Clone, Debug)]
pub struct Access {
    /// Its family.
    pub family: MemFamily,
    /// The counters it increments.
    pub effects: Vec<Effect>,
    /// Registers it writes when it completes (loads, returning atomics).
    pub writes: RegSet,
    /// Registers it reads at issue.
    pub reads: RegSet,
    /// Sources it still reads after issue, until `held_until` says they were read.
    pub held: RegSet,
    /// The counter that covers `held`.
    pub held_until: Option<Counter>,
}

/// What an instruction is.
#[derive(Clone, Debug)]
pub enum Action {
    /// Synchronous: reads and writes registers when it issues.
    Sync {
        /// Every register it names or implies (reads and writes).
        mentions: RegSet,
        /// The registers it may write.
        writes: RegSet,
        /// The registers it reads.
        reads: RegSet,
        /// A wait the instruction itself performs before it issues: gfx11+ VINTERP's
        /// `wait_exp` field (empty for every other instruction).
        waits_first: Vec<(Counter, u32)>,
    },
    /// A memory access.
    Mem(Access),
    /// A wait: each counter down to a count.
    Wait(Vec<(Counter, u32)>),
    /// A branch to a label; `conditional` also falls through.
    Branch {
        /// Label.
        label: String,
        /// Whether it may fall through.
        conditional: bool,
        /// Registers the condition reads.
        reads: RegSet,
    },
    /// The path ends (`s_endpgm`; `s_setpc_b64` returns or jumps out of the function).
    End {
        /// Registers it reads.
        reads: RegSet,
        /// A return: LLVM's convention makes the callee wait for everything first.
        ret: bool,
    },
    /// A call. LLVM's convention: the callee waits for every counter (but vscnt/storecnt)
    /// at entry and before it returns, so the call completes every register access.
    Call {
        /// Registers it names.
        mentions: RegSet,
        /// The return address it writes (first operand).
        writes: RegSet,
    },
    /// An instruction whose counters gcnsmt does not know: never treated as synchronous.
    Unknown(String),
}

/// A bad-input error (the caller adds the file position).
pub type BadInput = String;

/// The operands split at top-level commas.
fn split_operands(ops: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in ops.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ops[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !ops.trim().is_empty() {
        out.push(ops[start..].trim());
    }
    out
}

/// The registers of the first operand (the destination in LLVM syntax).
fn first_regs(ops: &str) -> Result<RegSet, BadInput> {
    let first = split_operands(ops).first().copied().unwrap_or("");
    parse_regs(first.split_whitespace().next().unwrap_or(""))
}

/// Whether the modifier token `m` appears (`glc`, `sc0`, `gds`, `lds`, `th:...RETURN`).
fn has_modifier(ops: &str, pred: impl Fn(&str) -> bool) -> bool {
    ops.split(|c: char| c.is_whitespace() || c == ',').any(pred)
}

/// Whether an atomic returns its pre-op value: `glc` (before gfx940 and on gfx10-11), `sc0`
/// (gfx940-gfx950), `th:TH_ATOMIC_RETURN` (gfx12+).
fn atomic_returns(target: Target, ops: &str) -> bool {
    has_modifier(ops, |m| match target.gen() {
        Gen::Gfx12 | Gen::Gfx1250 => m.starts_with("th:") && m.contains("RETURN"),
        Gen::Gfx90a if target != Target::Gfx90a => m == "sc0",
        _ => m == "glc",
    })
}

/// Parse a count: decimal or `0x` hex.
fn parse_count(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A wait instruction, if `m` is one (`m` lower case, `ops` in assembly syntax).
pub(crate) fn wait(
    target: Target,
    m: &str,
    ops: &str,
) -> Option<Result<Vec<(Counter, u32)>, BadInput>> {
    use Counter::*;
    let single = |c: Counter| -> Result<Vec<(Counter, u32)>, BadInput> {
        let parts = split_operands(ops);
        // The SOPK forms `s_waitcnt_vscnt SREG, IMM` wait for SREG + IMM; only `null` is a
        // known register value, so any other register makes the wait guarantee nothing.
        let (reg, imm) = match parts.as_slice() {
            [imm] => ("null", *imm),
            [reg, imm] => (*reg, *imm),
            _ => return Err(format!("`{m}` takes a count")),
        };
        let n = parse_count(imm).ok_or_else(|| format!("bad count `{imm}`"))?;
        Ok(if reg == "null" { vec![(c, n)] } else { vec![] })
    };
    let r = match m {
        "s_waitcnt" => waitcnt(target, ops),
        "s_waitcnt_vscnt" => single(Vs),
        "s_waitcnt_vmcnt" => single(Vm),
        "s_waitcnt_expcnt" => single(Exp),
        "s_waitcnt_lgkmcnt" => single(Lgkm),
        "s_wait_loadcnt" => single(Load),
        "s_wait_storecnt" => single(Store),
        "s_wait_samplecnt" => single(Sample),
        "s_wait_bvhcnt" => single(Bvh),
        "s_wait_dscnt" => single(Ds),
        "s_wait_kmcnt" => single(Km),
        "s_wait_expcnt" => single(Exp),
        "s_wait_xcnt" => single(X),
        "s_wait_asynccnt" => single(Async),
        "s_wait_loadcnt_dscnt" | "s_wait_storecnt_dscnt" => {
            let first = if m.contains("load") { Load } else { Store };
            parse_count(ops)
                .map(|n| counters::decode_combined(first, n))
                .ok_or_else(|| format!("bad count `{ops}`"))
        }
        // gfx12 `s_wait_idle`: every counter at zero.
        "s_wait_idle" => Ok(counters::counters(target)
            .iter()
            .map(|(c, _)| (*c, 0))
            .collect()),
        _ => return None,
    };
    Some(r.and_then(|w| {
        match w
            .iter()
            .find(|(c, _)| counters::counter_max(target, *c).is_none())
        {
            Some((c, _)) => Err(format!(
                "`{m}` waits on {}, which {} lacks",
                c.name(),
                target.name()
            )),
            None => Ok(w),
        }
    }))
}

/// `s_waitcnt`: `vmcnt(N) expcnt(N) lgkmcnt(N)` (any subset, `_sat` too, `&` or spaces
/// between) or the raw immediate.
fn waitcnt(target: Target, ops: &str) -> Result<Vec<(Counter, u32)>, BadInput> {
    if target.gen() == Gen::Gfx12 {
        // gfx12 keeps `s_waitcnt` (SOPP opcode 9, gfx11's field layout: llvm-mc-22 assembles
        // `s_waitcnt 0` to 0xbf890000 for gfx1200 and rejects it for gfx1250), and llc-22 emits
        // it for `llvm.amdgcn.s.waitcnt`: SIInsertWaitcnts leaves it as written ("Don't crash
        // if the programmer used legacy waitcnt intrinsics", LLVM #92306: the hardware still
        // accepts them "but they have a conservative effect"). So it waits at least for what
        // its fields say in gfx11 terms: vmcnt for loadcnt, samplecnt and bvhcnt (gfx11's vmcnt
        // counted all three), lgkmcnt for dscnt and kmcnt, expcnt for expcnt. A stronger
        // reading (ROCm composable_kernel #3003: "equivalent to s_wait_idle") only completes
        // more, so this one is sound under both.
        return waitcnt(Target::Gfx1100, ops).map(|w| {
            use Counter::*;
            w.into_iter()
                .flat_map(|(c, n)| match c {
                    Vm => vec![(Load, n), (Sample, n), (Bvh, n)],
                    Lgkm => vec![(Ds, n), (Km, n)],
                    _ => vec![(c, n)],
                })
                .collect()
        });
    }
    if counters::waitcnt_fields(target).is_empty() {
        return Err(format!(
            "{} has no s_waitcnt (it has s_wait_*)",
            target.name()
        ));
    }
    if !ops.contains('(') {
        let n = parse_count(ops).ok_or_else(|| format!("bad s_waitcnt operand `{ops}`"))?;
        return Ok(counters::decode_waitcnt(target, n));
    }
    let mut out = Vec::new();
    for item in ops.split(|c: char| c.is_whitespace() || c == '&' || c == ',') {
        if item.is_empty() {
            continue;
        }
        let (name, rest) = item
            .split_once('(')
            .ok_or_else(|| format!("bad s_waitcnt field `{item}`"))?;
        let n = rest
            .strip_suffix(')')
            .and_then(parse_count)
            .ok_or_else(|| format!("bad s_waitcnt field `{item}`"))?;
        let c = match name.trim_end_matches("_sat") {
            "vmcnt" => Counter::Vm,
            "expcnt" => Counter::Exp,
            "lgkmcnt" => Counter::Lgkm,
            _ => return Err(format!("unknown counter `{name}`")),
        };
        // llvm-mc-22 keeps the last value of a repeated field (`vmcnt(0) vmcnt(5)` assembles
        // to vmcnt(5)), so a later field replaces an earlier one.
        // Beyond the field: llvm-mc-22 rejects it ("too large value for vmcnt"); `_sat`
        // clamps it to the maximum.
        let n = match counters::counter_max(target, c) {
            Some(max) if n > max && name.ends_with("_sat") => max,
            Some(max) if n > max => return Err(format!("too large value for {name}")),
            _ => n,
        };
        out.retain(|(k, _)| *k != c);
        out.push((c, n));
    }
    Ok(out)
}

/// Named settings where the sources leave a choice (docs/timing.md).
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// `flat-lds=never`: assume no FLAT instruction reaches LDS, so FLAT counts like GLOBAL
    /// (vmcnt only, in order). llc assumes this where its alias analysis proves the address
    /// is not LDS, which the `.s` file no longer shows. Default (false): FLAT may reach LDS
    /// and counts on both counters, out of order.
    pub flat_never_lds: bool,
}

/// Classify one instruction on `target`.
pub fn classify(target: Target, inst: &Inst, set: Settings) -> Result<Action, BadInput> {
    let m = inst.mnemonic.as_str();
    let ops = inst.operands.as_str();
    known(target, m)?;
    if m.starts_with("buffer_store_lds") && !has_modifier(ops, |t| t == "lds") {
        return Err(format!(
            "`{m}` without its `lds` operand (llvm-mc-22: too few operands for instruction)"
        ));
    }
    if let Some(w) = wait(target, m, ops) {
        return w.map(Action::Wait);
    }
    let mentions = parse_regs(ops)?;
    if let Some(why) = super::implicit::unmodelled(target, m) {
        return Ok(Action::Unknown(why));
    }
    if let Some(a) = control(m, ops, &mentions)? {
        return Ok(a);
    }
    match memory_family(target, m, ops) {
        Some(Ok(MemFamily::FlatLoad)) if set.flat_never_lds => Ok(Action::Mem(access(
            target,
            MemFamily::VmemLoad,
            m,
            ops,
            mentions,
        )?)),
        Some(Ok(MemFamily::FlatStore)) if set.flat_never_lds => Ok(Action::Mem(access(
            target,
            MemFamily::VmemStore,
            m,
            ops,
            mentions,
        )?)),
        Some(Ok(family)) if counters::effects(target, family).is_empty() => Ok(Action::Unknown(
            format!("`{m}`: {family:?} has no counters on {}", target.name()),
        )),
        Some(Ok(family)) => Ok(Action::Mem(access(target, family, m, ops, mentions)?)),
        Some(Err(why)) => Ok(Action::Unknown(why)),
        None => {
            let (writes, reads) = sync_operands(m, ops)?;
            let mut mentions = mentions;
            // Registers it writes or reads without naming them (EXEC of `s_and_saveexec`, SCC).
            mentions.union(&writes);
            mentions.union(&reads);
            Ok(Action::Sync {
                writes,
                reads: super::implicit::sync_reads(m, with_implicit(m, reads)),
                mentions: super::implicit::sync_reads(m, with_implicit(m, mentions)),
                waits_first: vinterp_wait(target, m, ops)?,
            })
        }
    }
}

/// An input error unless llvm-mc-22 accepts `m` on `target`: an unknown name is never
/// treated as synchronous code (whose wait counters would then be assumed untouched).
fn known(target: Target, m: &str) -> Result<(), BadInput> {
    use gcnsmt_lifter::mnemonics::{validity, Validity};
    if m == super::implicit::EPILOG {
        // The reader's name for llc's `; return to shader part epilog` line.
        return Ok(());
    }
    match validity(target, m) {
        Validity::Valid => Ok(()),
        Validity::NotOnTarget => Err(format!(
            "`{m}` is not an instruction of {} (llvm-mc-22: instruction not supported on this GPU)",
            target.name()
        )),
        Validity::Unknown => Err(format!(
            "unknown instruction `{m}` (llvm-mc-22 knows no such mnemonic)"
        )),
    }
}

/// Branches, ends and calls.
fn control(m: &str, ops: &str, mentions: &RegSet) -> Result<Option<Action>, BadInput> {
    let label = || ops.split_whitespace().next().unwrap_or("").to_string();
    Ok(Some(match m {
        "s_branch" => Action::Branch {
            label: label(),
            conditional: false,
            reads: RegSet::new(),
        },
        "s_cbranch_join" | "s_cbranch_g_fork" | "s_cbranch_i_fork" => {
            return Ok(Some(Action::Unknown(format!("`{m}` (computed branch)"))))
        }
        _ if m.starts_with("s_cbranch_") => {
            let mut reads = RegSet::new();
            for r in ["vcc", "exec", "scc"] {
                if m.contains(&r[..3]) {
                    reads.union(&RegSet::special(r).expect("special"));
                }
            }
            Action::Branch {
                label: label(),
                conditional: true,
                reads,
            }
        }
        // llc's `SI_RETURN_TO_EPILOG`: the epilog may read any register, and LLVM waits for
        // every load before it ("All waits must be resolved at call return").
        super::implicit::EPILOG => Action::End {
            reads: RegSet::all(),
            ret: false,
        },
        "s_endpgm" | "s_endpgm_saved" | "s_endpgm_ordered_ps_done" => Action::End {
            reads: mentions.clone(),
            ret: false,
        },
        // A return (or a jump out of the function: llc emits none within one).
        "s_setpc_b64" | "s_set_pc_i64" => Action::End {
            reads: mentions.clone(),
            ret: true,
        },
        "s_swappc_b64" | "s_call_b64" | "s_swap_pc_i64" | "s_call_i64" => Action::Call {
            mentions: mentions.clone(),
            writes: first_regs(ops)?,
        },
        _ => return Ok(None),
    }))
}

/// EXEC is read by every VALU instruction (and by vector memory, which names it nowhere).
fn with_implicit(m: &str, mut mentions: RegSet) -> RegSet {
    // EXEC: every VALU instruction and the scalar ops on EXEC (`s_and_saveexec_b64`, ...);
    // M0: relative moves, messages, LDS-parameter interpolation.
    if m.starts_with("v_") || m.contains("exec") {
        mentions.union(&RegSet::special("exec").expect("special"));
    }
    if m.contains("movrel") || m.starts_with("s_sendmsg") || m.starts_with("v_interp") {
        mentions.union(&RegSet::special("m0").expect("special"));
    }
    mentions
}

/// The registers a synchronous instruction may write and those it reads. Written: its first
/// operand (LLVM puts the destination first), both destinations of VOP3b carry and division
/// ops, both operands of `v_swap`, EXEC for `v_cmpx`; nothing for compares into SCC and
/// no-ops. Read: the other operands (and both operands of `v_swap`).
fn sync_operands(m: &str, ops: &str) -> Result<(RegSet, RegSet), BadInput> {
    let none = [
        "s_cmp",
        "s_bitcmp",
        "s_nop",
        "s_barrier",
        "s_sendmsg",
        "s_set",
        "s_sleep",
    ];
    let parts = split_operands(ops);
    let dsts = match () {
        _ if none.iter().any(|p| m.starts_with(p)) && !m.starts_with("s_setreg") => 0,
        _ if m.starts_with("v_")
            && [
                "_co_",
                "addc",
                "subb",
                "div_scale",
                "mad_u64",
                "mad_i64",
                "v_swap",
            ]
            .iter()
            .any(|p| m.contains(p)) =>
        {
            2
        }
        _ => 1,
    };
    let (mut w, mut r) = (RegSet::new(), RegSet::new());
    for (n, p) in parts.iter().enumerate() {
        // The first operand's register only: modifiers may follow it (`v1 clamp`).
        let regs = parse_regs(p)?;
        if n < dsts {
            w.union(&regs);
        } else {
            r.union(&regs);
        }
    }
    if m.starts_with("v_swap") {
        r.union(&w);
    }
    // `s_and_saveexec_b64 s[0:1], vcc` names its saved copy first; EXEC is written too.
    if m.starts_with("v_cmpx") || m.contains("saveexec") || m.contains("wrexec") {
        w.union(&RegSet::special("exec").expect("special"));
    }
    let scc = RegSet::special("scc").expect("special");
    if super::implicit::reads_scc(m) {
        r.union(&scc);
    }
    if super::implicit::may_write_scc(m) {
        w.union(&scc);
    }
    Ok((w, r))
}

/// The memory family of `m`, `Some(Err)` for a memory instruction whose timing is not known,
/// `None` for synchronous code.
fn memory_family(target: Target, m: &str, ops: &str) -> Option<Result<MemFamily, String>> {
    use MemFamily::*;
    let unknown = || Some(Err(format!("`{m}`: its wait counters are not known")));
    let returns = atomic_returns(target, ops);
    let fam = match m {
        "exp" | "export" => Export,
        "lds_param_load" | "lds_direct_load" | "ds_param_load" | "ds_direct_load" => LdsParam,
        _ if m.starts_with("ds_") => match ds_lookup(target, m) {
            None => return unknown(),
            Some(_) if m.starts_with("ds_gws") || m == "ds_ordered_count" => Gds,
            Some(_) if has_modifier(ops, |t| t == "gds") => Gds,
            Some(_) => Lds,
        },
        _ if m.starts_with("buffer_") || m.starts_with("tbuffer_") => {
            match buffer_lookup(target, m) {
                None => return unknown(),
                Some((_, s)) => match s.class {
                    // `buffer_store_lds_dword` reads LDS at M0 + lane * 4 until vmcnt says it
                    // is done; a DS write before then may change what it stores, and that
                    // LDS read is not modelled (docs/timing.md): inconclusive, not clean.
                    _ if s.lds_only => {
                        return Some(Err(format!(
                            "`{m}`: its asynchronous LDS read is not modelled"
                        )))
                    }
                    MubufClass::Load if has_modifier(ops, |t| t == "lds") => LdsDma,
                    MubufClass::Load => VmemLoad,
                    MubufClass::Store => VmemStore,
                    MubufClass::Atomic if returns => VmemLoad,
                    MubufClass::Atomic => VmemStore,
                    MubufClass::Cache => CacheOp,
                },
            }
        }
        _ if ["global_", "scratch_", "flat_"]
            .iter()
            .any(|p| m.starts_with(p)) =>
        {
            let flat = m.starts_with("flat_");
            match () {
                _ if m.contains("async") || m.contains("_block") => return unknown(),
                _ if m.contains("_lds") => LdsDma,
                // gfx9/gfx10 spell GLOBAL_LOAD_LDS_* `global_load_dword vADDR, sBASE lds`: the
                // LDS-DMA form, whose first operand is the address, not a destination.
                _ if !flat && m.contains("load") && has_modifier(ops, |t| t == "lds") => LdsDma,
                _ if m.contains("_inv") || m.contains("_wb") || m.contains("prefetch") => CacheOp,
                _ if m.contains("load") || (m.contains("atomic") && returns) => {
                    if flat {
                        FlatLoad
                    } else {
                        VmemLoad
                    }
                }
                _ if m.contains("store") || m.contains("atomic") => {
                    if flat {
                        FlatStore
                    } else {
                        VmemStore
                    }
                }
                _ => return unknown(),
            }
        }
        _ if m.starts_with("image_") => match () {
            _ if m.contains("bvh") => BvhRay,
            _ if m.contains("sample") || m.contains("gather4") || m.contains("get_lod") => Sampler,
            // A sampler access on every target (LLVM `getVmemType`: `BaseInfo->MSAA` is
            // VMEM_SAMPLER, "still classified as sampler instructions for the purposes of e.g.
            // waitcnt"): gfx12 counts it on samplecnt (VSAMPLE), gfx10.3/gfx11 write its VGPRs
            // out of order with other loads (breaker 21's 04).
            _ if m.starts_with("image_msaa_load") => Sampler,
            _ if m.contains("store") || (m.contains("atomic") && !returns) => VmemStore,
            _ => VmemLoad,
        },
        _ if is_smem(m) => Smem,
        _ if m.starts_with("s_dcache_") || m.starts_with("s_atc_probe") => CacheOp,
        _ if m.starts_with("s_prefetch") => CacheOp,
        "s_sendmsg" | "s_sendmsghalt" => Message,
        _ if m.starts_with("s_sendmsg_rtn") => Smem,
        // gfx12+: the barrier state and the `isfirst` SCC come back asynchronously on kmcnt
        // (LLVM SIInsertWaitcnts `updateEventWaitcntAfter`: `S_GET_BARRIER_STATE_*` are
        // SMEM_ACCESS events, `isSBarrierSCCWrite` a SCC_WRITE event, both on KM_CNT).
        _ if m.starts_with("s_barrier_signal_isfirst") || m.starts_with("s_get_barrier_state") => {
            Smem
        }
        _ if m.starts_with("tensor_") => return unknown(),
        _ => return None,
    };
    Some(Ok(match fam {
        CacheOp if is_cache_invalidate(m) => CacheInv,
        _ => fam,
    }))
}

/// LLVM's vector cache invalidates ([`MemFamily::CacheInv`]), by lower-case mnemonic (or MIR
/// opcode): `IsBufferInv` in BUFInstructions.td but `BUFFER_WBL2` (a write-back), and gfx12's
/// `GLOBAL_INV`.
pub(crate) fn is_cache_invalidate(m: &str) -> bool {
    matches!(
        m,
        "buffer_wbinvl1"
            | "buffer_wbinvl1_sc"
            | "buffer_wbinvl1_vol"
            | "buffer_gl0_inv"
            | "buffer_gl1_inv"
            | "buffer_inv"
            | "buffer_invl2"
            | "global_inv"
    )
}

/// Scalar memory reads, writes and atomics, and the SMEM clock reads.
fn is_smem(m: &str) -> bool {
    [
        "s_load_",
        "s_buffer_load_",
        "s_store_",
        "s_buffer_store_",
        "s_scratch_",
        "s_atomic_",
        "s_buffer_atomic_",
        "s_memtime",
        "s_memrealtime",
        // gfx10 SMEM encoding (LLVM SMInstructions.td): returns on lgkmcnt.
        "s_get_waveid_in_workgroup",
    ]
    .iter()
    .any(|p| m.starts_with(p))
}

/// The registers of an access: the destination (first operand) for families that return
/// data, and the sources held after issue.
fn access(
    target: Target,
    family: MemFamily,
    m: &str,
    ops: &str,
    mentions: RegSet,
) -> Result<Access, BadInput> {
    use MemFamily::*;
    let returns_data = match family {
        VmemLoad | FlatLoad | Sampler | BvhRay | LdsParam => true,
        Lds | Gds => ds_lookup(target, m).is_some_and(|(_, s)| s.vdst > 0),
        Smem => !(m.contains("store") || m.contains("atomic")) || atomic_returns(target, ops),
        _ => false,
    };
    let mut writes = match () {
        // Its result is SCC, which the text does not name (its operand is the barrier id).
        _ if m.starts_with("s_barrier_signal_isfirst") => RegSet::special("scc").expect("special"),
        _ if returns_data => first_regs(ops)?,
        _ => RegSet::new(),
    };
    // The sources: every operand after the destination, even one naming the destination's
    // registers (pointer chasing `global_load_dwordx2 v[0:1], v[0:1], off`, `ds_read_b32 v1,
    // v1`: the address is read at issue, before the pending value lands; breaker 21's 11). A
    // returning buffer/image atomic's first operand is data and destination.
    let mut reads = if returns_data && !(m.contains("atomic") && matches!(family, VmemLoad)) {
        parse_regs(after_first(ops))?
    } else {
        mentions.clone()
    };
    writes.union(&tied_writes(target, family, m, ops)?);
    let sources = reads.clone();
    reads.union(&RegSet::special("exec").expect("special"));
    // DS before gfx9 reads M0 (the LDS size limit); LDS DMA reads M0 (the LDS address).
    if (matches!(family, Lds | Gds) && target.lds_uses_m0()) || family == LdsDma {
        reads.union(&RegSet::special("m0").expect("special"));
    }
    super::implicit::access_reads(family, m, &mut reads);
    let held_until = counters::sources_held_until(target, family);
    let mut held = match family {
        // gfx6 stores hold their data (the first operand of buffer and image stores).
        VmemStore if target.gen() == Gen::Gfx6 => first_regs(ops)?,
        _ if held_until.is_some() => sources,
        _ => RegSet::new(),
    };
    // "Export and GDS instructions do not read the EXEC mask until after the export is
    // granted": EXEC may not be written before expcnt says they are done (LLVM
    // SIInsertWaitcnts `generateWaitcntInstBefore`; the MIR form names `implicit $exec`).
    if matches!(family, Export | Gds) {
        held.union(&RegSet::special("exec").expect("special"));
    }
    let mut a = Access {
        family,
        effects: counters::effects(target, family),
        writes,
        reads,
        held,
        held_until,
    };
    super::lds::add_lds(&mut a, lds_read(family, m));
    Ok(a)
}

/// Whether `m` is a VINTERP instruction: every `v_interp_*` of gfx11 and gfx12 (gfx6-gfx10's
/// VINTRP `v_interp_p1_f32`, ... have no `wait_exp` field; llvm-mc-22 accepts no `v_interp_*`
/// on gfx1250).
pub(crate) fn is_vinterp(target: Target, m: &str) -> bool {
    matches!(target.gen(), Gen::Gfx11 | Gen::Gfx12) && m.starts_with("v_interp_")
}

/// The wait a VINTERP instruction performs before it issues, from its `wait_exp:N` field:
/// "Specifies a wait on the EXP counter before issuing the current instruction. The counter
/// must be less than or equal to this value before the instruction is issued. If set to 7, no
/// wait is performed. The default value is zero" (LLVM `AMDGPUModifierSyntax.rst`,
/// `wait_exp`; llvm-mc-22 encodes an omitted field as 0). SIInsertWaitcnts puts the expcnt
/// wait a VINTERP needs there instead of in an `s_waitcnt` ("ExpCnt can be merged into
/// VINTERP"). Bad input as llvm-mc-22 rejects it: a value above 7, the field twice, or not
/// in lower case.
fn vinterp_wait(target: Target, m: &str, ops: &str) -> Result<Vec<(Counter, u32)>, BadInput> {
    if !is_vinterp(target, m) {
        return Ok(Vec::new());
    }
    let mut field = None;
    for t in ops.split(|c: char| c.is_whitespace() || c == ',') {
        let Some(v) = t
            .to_ascii_lowercase()
            .strip_prefix("wait_exp:")
            .map(str::to_string)
        else {
            continue;
        };
        if !t.starts_with("wait_exp:") || field.is_some() {
            return Err(format!("invalid operand `{t}` (llvm-mc-22 rejects it)"));
        }
        field = Some(
            parse_count(&v)
                .filter(|&n| n <= 7)
                .ok_or_else(|| format!("invalid wait_exp value `{v}` (0..7)"))?,
        );
    }
    Ok(exp_wait(field.unwrap_or(0)))
}

/// The wait of a VINTERP `wait_exp` value `n`: expcnt <= n, none for 7 (expcnt's largest
/// value on gfx11/gfx12, "no wait is performed").
pub(crate) fn exp_wait(n: u32) -> Vec<(Counter, u32)> {
    if n >= 7 {
        Vec::new()
    } else {
        vec![(Counter::Exp, n)]
    }
}

/// Whether a DS or FLAT instruction reads LDS (a load or an atomic: not a store).
pub(crate) fn lds_read(family: MemFamily, m: &str) -> bool {
    let m = m.to_ascii_lowercase();
    match family {
        MemFamily::Lds => !(m.contains("write") || m.contains("store")),
        MemFamily::FlatLoad => true,
        _ => false,
    }
}

/// The operands after the first (the destination of an instruction that returns data).
fn after_first(ops: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in ops.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => return &ops[i + 1..],
            _ => {}
        }
    }
    ""
}

/// Address operands an access also writes when it completes, as the lifter's operand tables
/// define them: the BVH stack ops' ADDR (`table::writes_addr`), gfx12's BVH rays' origin and
/// direction (`table::image_writes_vaddr`; breaker 21's 01 and 03).
fn tied_writes(target: Target, family: MemFamily, m: &str, ops: &str) -> Result<RegSet, BadInput> {
    let parts = split_operands(ops);
    let mut out = RegSet::new();
    let vdst = ds_lookup(target, m).is_some_and(|(_, s)| s.vdst > 0);
    if matches!(family, MemFamily::Lds | MemFamily::Gds) && gcnsmt_lifter::table::writes_addr(m) {
        // vdst, addr, data0, data1 (lifter/src/table.rs `DsShape`).
        let addr = parts.get(usize::from(vdst)).copied().unwrap_or("");
        out.union(&parse_regs(addr)?);
    }
    let elems = gcnsmt_lifter::table::image_writes_vaddr(m);
    if !elems.is_empty() {
        let vaddr = parts.get(1).copied().unwrap_or("");
        match vaddr.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            Some(list) => {
                let list = split_operands(list);
                for &e in elems {
                    out.union(&parse_regs(list.get(e).copied().unwrap_or(""))?);
                }
            }
            // Not the bracketed list llvm-mc-22 requires: all of it may be written.
            None => out.union(&parse_regs(vaddr)?),
        }
    }
    Ok(out)
}
