//! Memory timing facts, per generation: which wait counters each memory instruction family
//! increments, which counters complete in issue order, the counters' limits and the encodings
//! of the waits. One definition, next to the opcode tables; `gcnsmt waitcnt`
//! (`verifier/src/timing/`) and `docs/timing.md` (the table with sources) read it.
//!
//! Sources (docs/timing.md cites each row): AMD's ISA guides, section "Data dependency
//! resolution" and the `S_WAITCNT` entries (Southern Islands, Vega, RDNA 1-4, CDNA 3);
//! LLVM's `SIInsertWaitcnts.cpp` (event kinds and which counter each one uses) and
//! `AMDGPUBaseInfo.cpp`/`AMDGPUWaitcnt.cpp` (counter widths and `S_WAITCNT` bit fields).

use gcnsmt_semantics::target::{Gen, Target};

/// A wait counter, by the name the ISA guide of its generation gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Counter {
    /// `vmcnt`: vector memory (before gfx10: loads and stores; gfx10-11: loads only).
    Vm,
    /// `lgkmcnt`: LDS, GDS, scalar ("konstant") memory and messages (before gfx12).
    Lgkm,
    /// `expcnt`: exports, GDS data, gfx6 vector-memory store data, LDS parameter loads.
    Exp,
    /// `vscnt` (gfx10-11): vector memory stores and atomics without return.
    Vs,
    /// `loadcnt` (gfx12+): vector memory loads and atomics with return.
    Load,
    /// `storecnt` (gfx12+): vector memory stores and atomics without return.
    Store,
    /// `samplecnt` (gfx12+): image sample and gather.
    Sample,
    /// `bvhcnt` (gfx12+): BVH intersection.
    Bvh,
    /// `dscnt` (gfx12+): LDS (and FLAT, which may reach LDS).
    Ds,
    /// `kmcnt` (gfx12+): scalar memory and messages.
    Km,
    /// `xcnt` (gfx1250): address translation of vector and scalar memory instructions.
    X,
    /// `asynccnt` (gfx1250): asynchronous loads to LDS.
    Async,
}

impl Counter {
    /// The counter's name as waits spell it (`vmcnt`, `loadcnt`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Counter::Vm => "vmcnt",
            Counter::Lgkm => "lgkmcnt",
            Counter::Exp => "expcnt",
            Counter::Vs => "vscnt",
            Counter::Load => "loadcnt",
            Counter::Store => "storecnt",
            Counter::Sample => "samplecnt",
            Counter::Bvh => "bvhcnt",
            Counter::Ds => "dscnt",
            Counter::Km => "kmcnt",
            Counter::X => "xcnt",
            Counter::Async => "asynccnt",
        }
    }
}

/// The counters of `target` with their largest value (`2^width - 1`; a wait for that value or
/// more waits for nothing). Widths from LLVM's `get*BitWidth` (AMDGPUWaitcnt.cpp).
pub fn counters(target: Target) -> &'static [(Counter, u32)] {
    use Counter::*;
    match target.gen() {
        // vmcnt 4 bits (3:0), expcnt 3, lgkmcnt 4.
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => &[(Vm, 15), (Exp, 7), (Lgkm, 15)],
        // vmcnt 6 bits (3:0 and 15:14).
        Gen::Gfx9 | Gen::Gfx90a => &[(Vm, 63), (Exp, 7), (Lgkm, 15)],
        // lgkmcnt 6 bits; vscnt 6 bits (its own `s_waitcnt_vscnt`).
        Gen::Gfx10 | Gen::Gfx11 => &[(Vm, 63), (Exp, 7), (Lgkm, 63), (Vs, 63)],
        Gen::Gfx12 => &[
            (Load, 63),
            (Store, 63),
            (Sample, 63),
            (Bvh, 7),
            (Ds, 63),
            (Km, 31),
            (Exp, 7),
        ],
        // xcnt 6 bits (getXcntBitWidth: major 12, minor 5). asynccnt: the width is not in
        // the sources read; 63 is the named setting of docs/timing.md (a limit only makes
        // the hardware stall, so it never changes what a wait guarantees). No samplecnt,
        // bvhcnt or expcnt: llvm-mc-22 -mcpu=gfx1250 rejects their waits, images and exports.
        Gen::Gfx1250 => &[
            (Load, 63),
            (Store, 63),
            (Ds, 63),
            (Km, 31),
            (X, 63),
            (Async, 63),
        ],
    }
}

/// The largest value of `c` on `target`, or `None` where the target lacks the counter.
pub fn counter_max(target: Target, c: Counter) -> Option<u32> {
    counters(target)
        .iter()
        .find(|(k, _)| *k == c)
        .map(|(_, m)| *m)
}

/// One `S_WAITCNT` bit field: counter, shift, width (a counter may have two fields: gfx9-10
/// `vmcnt` is bits 3:0 and 15:14).
pub type Field = (Counter, u32, u32);

/// The bit fields of the `S_WAITCNT` immediate (`AMDGPUWaitcnt.cpp` shifts and widths);
/// empty on gfx12+, which has one `S_WAIT_*` per counter instead.
pub fn waitcnt_fields(target: Target) -> &'static [Field] {
    use Counter::*;
    match target.gen() {
        Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 => &[(Vm, 0, 4), (Exp, 4, 3), (Lgkm, 8, 4)],
        Gen::Gfx9 | Gen::Gfx90a => &[(Vm, 0, 4), (Vm, 14, 2), (Exp, 4, 3), (Lgkm, 8, 4)],
        Gen::Gfx10 => &[(Vm, 0, 4), (Vm, 14, 2), (Exp, 4, 3), (Lgkm, 8, 6)],
        Gen::Gfx11 => &[(Vm, 10, 6), (Exp, 0, 3), (Lgkm, 4, 6)],
        Gen::Gfx12 | Gen::Gfx1250 => &[],
    }
}

/// Decode an `S_WAITCNT` immediate: the count each counter is waited down to.
pub fn decode_waitcnt(target: Target, imm: u32) -> Vec<(Counter, u32)> {
    let mut out: Vec<(Counter, u32)> = Vec::new();
    let mut low_width = 0;
    for &(c, shift, width) in waitcnt_fields(target) {
        let v = (imm >> shift) & ((1 << width) - 1);
        match out.iter_mut().find(|(k, _)| *k == c) {
            // The high field of vmcnt holds its bits above the low field's width.
            Some(slot) => slot.1 |= v << low_width,
            None => {
                low_width = width;
                out.push((c, v));
            }
        }
    }
    out
}

/// The gfx12+ combined waits `S_WAIT_LOADCNT_DSCNT` / `S_WAIT_STORECNT_DSCNT`: the first
/// counter in bits 13:8, `dscnt` in bits 5:0 (`getLoadcntStorecntBitShift` = 8,
/// `getDscntBitShift` = 0, widths 6).
pub fn decode_combined(first: Counter, imm: u32) -> Vec<(Counter, u32)> {
    vec![(first, (imm >> 8) & 0x3f), (Counter::Ds, imm & 0x3f)]
}

/// How completions on one counter are ordered relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// Completes in issue order with every other access of the same kind on the same counter
    /// (the kind names an ordering class: `vmem`, `lds`, `sampler`, ...).
    InOrder(&'static str),
    /// May complete before or after anything else on the counter: only a wait for 0 is sure
    /// to cover it (SMEM, FLAT, messages).
    OutOfOrder,
}

/// One counter an instruction increments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// The counter.
    pub counter: Counter,
    /// Its completion order.
    pub order: Order,
    /// Whether the sources say the instruction counts on it. `false`: maybe (cache
    /// write-back/invalidate, messages): such an access is never used to conclude that an
    /// older one completed.
    pub definite: bool,
}

/// The memory families whose timing is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemFamily {
    /// DS to LDS.
    Lds,
    /// DS with `gds` (before gfx12).
    Gds,
    /// MUBUF/MTBUF/VBUFFER, GLOBAL, SCRATCH, MIMG without sampler: loads and returning atomics.
    VmemLoad,
    /// The same: stores and atomics without return.
    VmemStore,
    /// MIMG with a sampler (`image_sample*`, `image_gather4*`, `image_get_lod`).
    Sampler,
    /// `image_bvh*_intersect_ray`.
    BvhRay,
    /// FLAT (`flat_*`) loads and returning atomics: LDS or memory, known only at run time.
    FlatLoad,
    /// FLAT stores and atomics without return.
    FlatStore,
    /// Loads from memory into LDS (`buffer_load_* lds`, `global_load_lds_*`).
    LdsDma,
    /// Scalar memory (`s_load_*`, `s_buffer_load_*`, `s_store_*`, `s_atomic_*`,
    /// `s_memtime`, ...).
    Smem,
    /// Cache write-back, scalar cache operations, prefetches (`buffer_wbl2`, `global_wb`,
    /// `global_wbinv`, `s_dcache_*`, `s_prefetch_*`, ...).
    CacheOp,
    /// Vector cache invalidates (`buffer_wbinvl1`, `_sc`, `_vol`, `buffer_gl0_inv`,
    /// `buffer_gl1_inv`, `buffer_inv`, `buffer_invl2`, gfx12 `global_inv`): LLVM's `IsBufferInv` set but
    /// `BUFFER_WBL2`, and gfx12's `GLOBAL_INV`. They carry no address. AMDGPUUsage ("Memory
    /// Model"): "The s_waitcnt and cache management instructions such as buffer_wbinvl1_vol
    /// are defined with respect to other memory instructions executed by the same thread";
    /// SIInsertWaitcnts counts none of them before gfx12 and waits after none ("BUFFER_WBL2
    /// is included here because unlike invalidates, has to be followed S_WAITCNT vmcnt(0)").
    /// Counted like [`MemFamily::CacheOp`] (maybe); only what they order differs.
    CacheInv,
    /// `s_sendmsg*`.
    Message,
    /// `exp` (export): its data VGPRs are read after issue.
    Export,
    /// LDS parameter and direct loads (`lds_param_load`, `lds_direct_load`, gfx12
    /// `ds_param_load`, `ds_direct_load`): counted on expcnt (LLVM `EXP_LDS_ACCESS`).
    LdsParam,
}

/// The counters an instruction of `family` increments on `target`; empty where the target
/// lacks the family (GDS from gfx12, images and exports on gfx1250).
pub fn effects(target: Target, family: MemFamily) -> Vec<Effect> {
    let out = effects_unchecked(target, family);
    if out.iter().all(|e| counter_max(target, e.counter).is_some())
        && !(family == MemFamily::Gds && target.gen() >= Gen::Gfx12)
    {
        out
    } else {
        Vec::new()
    }
}

fn effects_unchecked(target: Target, family: MemFamily) -> Vec<Effect> {
    use Counter::*;
    use MemFamily::*;
    let g = target.gen();
    let split = g >= Gen::Gfx12;
    let vscnt = matches!(g, Gen::Gfx10 | Gen::Gfx11);
    let e = |counter, order| Effect {
        counter,
        order,
        definite: true,
    };
    let maybe = |counter| Effect {
        counter,
        order: Order::OutOfOrder,
        definite: false,
    };
    let mut out = match family {
        Lds if split => vec![e(Ds, Order::InOrder("lds"))],
        Lds => vec![e(Lgkm, Order::InOrder("lds"))],
        // GDS holds its data and address VGPRs until expcnt (LLVM `GDS_GPR_LOCK`).
        Gds => vec![
            e(Lgkm, Order::InOrder("gds")),
            e(Exp, Order::InOrder("gpr_lock")),
        ],
        VmemLoad | LdsDma if split => vec![e(Load, Order::InOrder("load"))],
        VmemLoad | LdsDma => vec![e(Vm, Order::InOrder("vmem"))],
        VmemStore if split => vec![e(Store, Order::InOrder("store"))],
        VmemStore if vscnt => vec![e(Vs, Order::InOrder("store"))],
        // Before gfx10 stores count on vmcnt with the loads, in one order (LLVM counts both as
        // `VMEM_ACCESS`); gfx6 also holds the store data until expcnt (`VMW_GPR_LOCK`,
        // `vmemWriteNeedsExpWaitcnt`: generation < SEA_ISLANDS).
        VmemStore if g == Gen::Gfx6 => vec![
            e(Vm, Order::InOrder("vmem")),
            e(Exp, Order::InOrder("gpr_lock")),
        ],
        VmemStore => vec![e(Vm, Order::InOrder("vmem"))],
        Sampler if split => vec![e(Sample, Order::InOrder("sample"))],
        BvhRay if split => vec![e(Bvh, Order::InOrder("bvh"))],
        // Before gfx12 every VMEM read decrements vmcnt in issue order, samplers and BVH rays
        // too (LLVM `getVmemWaitEventType`: VMEM_READ_ACCESS without extended counters; D79176:
        // "s_waitcnt orders them all with a single vmcnt counter"); only their VGPR writes are
        // ordered by type ([`vgpr_write_type`]; breaker 21's 09).
        Sampler | BvhRay => vec![e(Vm, Order::InOrder("vmem"))],
        // FLAT may reach LDS or memory: counted on both, out of order on both.
        FlatLoad if split => vec![e(Load, Order::OutOfOrder), e(Ds, Order::OutOfOrder)],
        FlatStore if split => vec![e(Store, Order::OutOfOrder), e(Ds, Order::OutOfOrder)],
        FlatStore if vscnt => vec![e(Vs, Order::OutOfOrder), e(Lgkm, Order::OutOfOrder)],
        FlatLoad | FlatStore => vec![e(Vm, Order::OutOfOrder), e(Lgkm, Order::OutOfOrder)],
        Smem if split => vec![e(Km, Order::OutOfOrder)],
        Smem => vec![e(Lgkm, Order::OutOfOrder)],
        CacheOp | CacheInv if split => vec![maybe(Load), maybe(Store), maybe(Km)],
        CacheOp | CacheInv if vscnt => vec![maybe(Vm), maybe(Vs), maybe(Lgkm)],
        CacheOp | CacheInv => vec![maybe(Vm), maybe(Lgkm)],
        Message if split => vec![maybe(Km)],
        Message => vec![maybe(Lgkm)],
        Export => vec![e(Exp, Order::InOrder("export"))],
        LdsParam => vec![e(Exp, Order::InOrder("lds_param"))],
    };
    // gfx1250: every vector and scalar memory instruction also counts on xcnt until its
    // address is translated; modelled as holding its source registers (docs/timing.md).
    if g == Gen::Gfx1250
        && !matches!(
            family,
            Lds | Export | LdsParam | Message | CacheOp | CacheInv
        )
    {
        out.push(e(X, Order::OutOfOrder));
    }
    out
}

/// LLVM's `VmemType` (`getVmemType`): without a wait, only VMEM accesses of one type write
/// their VGPRs in issue order (D79176: "in the absence of s_waitcnt only instructions of the
/// same VmemType are guaranteed to write their results in order"), although before gfx12
/// they all complete in order on vmcnt. `None`: not a VMEM access.
pub fn vgpr_write_type(family: MemFamily) -> Option<&'static str> {
    use MemFamily::*;
    match family {
        VmemLoad | VmemStore | LdsDma => Some("nosampler"),
        Sampler => Some("sampler"),
        BvhRay => Some("bvh"),
        _ => None,
    }
}

/// Whether the family holds its source (data) registers after issue until a counter says
/// they were read: the counter, or `None` when the sources are read at issue.
pub fn sources_held_until(target: Target, family: MemFamily) -> Option<Counter> {
    match family {
        MemFamily::Gds | MemFamily::Export => Some(Counter::Exp),
        MemFamily::VmemStore if target.gen() == Gen::Gfx6 => Some(Counter::Exp),
        _ if target.gen() == Gen::Gfx1250 => effects(target, family)
            .iter()
            .any(|e| e.counter == Counter::X)
            .then_some(Counter::X),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waitcnt_fields_decode_like_llvm_mc() {
        // llvm-mc-22 -mcpu=gfx900: `s_waitcnt vmcnt(0)` assembles to 0x0f70 (expcnt 7,
        // lgkmcnt 15 left at their maximum).
        let d = decode_waitcnt(Target::Gfx900, 0x0f70);
        assert_eq!(
            d,
            vec![(Counter::Vm, 0), (Counter::Exp, 7), (Counter::Lgkm, 15)]
        );
        // gfx1100: `s_waitcnt lgkmcnt(0)` is 0xfc07 (vmcnt 63 in 15:10, expcnt 7 in 2:0).
        let d = decode_waitcnt(Target::Gfx1100, 0xfc07);
        assert_eq!(
            d,
            vec![(Counter::Vm, 63), (Counter::Exp, 7), (Counter::Lgkm, 0)]
        );
        // gfx900 vmcnt(62): low 4 bits 0xe, high 2 bits 0b11 in 15:14.
        let d = decode_waitcnt(Target::Gfx900, 0xcf7e);
        assert_eq!(d[0], (Counter::Vm, 62));
    }

    #[test]
    fn every_effect_counter_exists_on_its_target() {
        use MemFamily::*;
        let fams = [
            Lds, Gds, VmemLoad, VmemStore, Sampler, BvhRay, FlatLoad, FlatStore, LdsDma, Smem,
            CacheOp, CacheInv, Message, Export, LdsParam,
        ];
        for t in Target::ALL {
            for f in fams {
                for e in effects(t, f) {
                    assert!(counter_max(t, e.counter).is_some(), "{t:?} {f:?} {e:?}");
                }
            }
        }
    }
}
