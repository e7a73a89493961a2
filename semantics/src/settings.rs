//! Named machine assumptions. Each has a per-target default, a name used in rule files
//! (`Settings: alignment=DWORD`) and on the command line, and is printed with every verdict.

use crate::target::{Gen, Target};
use std::fmt;

/// `SH_MEM_CONFIG.ALIGNMENT_MODE` as it applies to LDS/GDS accesses.
///
/// Values from Linux amdgpu `sid.h`/`cikd.h`: 0 DWORD, 1 DWORD_STRICT, 2 STRICT, 3 UNALIGNED.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alignment {
    /// Low address bits are dropped: a DS address is rounded down to the access size rounded
    /// up to a power of two (`&~1` b16, `&~3` b32, `&~7` b64, `&~15` b96/b128), as CLRX
    /// `GcnInstrsDs.md` writes every DS op (`(ADDR+OFFSET)&~3`, `&~7`); a buffer access to at
    /// most a dword (`&~1` 16-bit, `&~3` 32-bit and wider, 64-bit atomics included: CLRX
    /// `GcnMemHandling.md`, "For 32-bit and wider operations, an address are aligned to 4
    /// bytes"). The LDS side of LDS DMA is not rounded (see `machine::buffer` in the verifier).
    Dword,
    /// Accesses use the exact byte address (gfx9+ only; LLVM feature `unaligned-ds-access`).
    Unaligned,
    /// A misaligned access is undefined behaviour.
    Strict,
}

/// Which bound makes an LDS access out of range. Out of range: loads return 0, stores and atomics
/// are dropped (atomics return 0). The whole access must lie below the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsLimit {
    /// `M0` is the exclusive upper bound (gfx6-gfx8; AMD SI/CI/VI guides "LDS instructions use M0
    /// as a clamp", LLVM `ldsRequiresM0Init`).
    M0,
    /// The work-group's LDS allocation `LDS_SIZE` (a symbolic input unless fixed by a precondition),
    /// at most the target's LDS size (gfx9+).
    Alloc,
    /// No bound (every address in range).
    None,
}

/// Whether a raw buffer's range check counts `soffset` against NUM_RECORDS.
///
/// Sources disagree. SUBTRACT (out of range when `offset + size > num_records - soffset` as
/// integers, so a soffset above num_records leaves nothing in range): CLRX `GcnMemHandling.md`
/// ("BUFOFFSET >= NUMRECORDS-SGPR_OFFSET"), rocMLIR PR #678 for RDNA OOB_SELECT 3 ("offset +
/// lengthOfOp > numRecords - sgproffset"), ROCm rocjitsu PR #10928 for CDNA1-4 ("SOFFSET and
/// the instruction offset count toward the bounds check"); none of them says the difference
/// wraps. WRAP: gem5 Vega `Inst_MUBUF::calcAddr` (`op_encodings.hh`) computes
/// `rsrc_desc.numRecords - s_offset.rawData()` in 32-bit unsigned arithmetic, so a soffset
/// above num_records makes the bound `num_records - soffset + 2^32` (almost everything in
/// range). IGNORE: Mesa RADV's OOB_SELECT comment ("3: offset >= NUM_RECORDS (Raw)") names no
/// soffset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferSoffset {
    /// `soffset` is subtracted from NUM_RECORDS before the range check, as integers.
    Subtract,
    /// `soffset` plays no part in the range check.
    Ignore,
    /// `soffset` is subtracted from NUM_RECORDS modulo 2^(width of NUM_RECORDS) (gem5 Vega).
    Wrap,
}

/// The range check of a structured access (idxen, stride != 0) on the GCN/CDNA V# layout
/// (gfx6-gfx950; on gfx10+ the V#'s OOB_SELECT chooses, and this setting has no effect).
///
/// Sources disagree. INDEX (`index < num_records` and the offset within the stride): CLRX
/// `GcnMemHandling.md` ("For STRIDE!=0 if AINDEX >= NUMRECORDS or OFFSET >= STRIDE when IDXEN
/// or TID_ENABLE is set, then an address is out of range"), ROCm rocjitsu PR #10928 for
/// CDNA1-4 (IDXEN selects the index check). BYTES: gem5 Vega `Inst_MUBUF::calcAddr` applies the
/// index check only to swizzled buffers (`stride != 0 && swizzleEn`) and the raw byte check
/// `index * stride + offset` against `num_records - soffset` to every unswizzled one. AMD's
/// drivers program NUM_RECORDS in records for structured buffers on every generation but GFX8
/// (radeonsi `si_set_vb_descriptor`, RADV `radv_make_texel_buffer_descriptor`: `!= GFX8 &&
/// stride`), and in units of stride on GFX8 for swizzled ones (Mesa commit e33910b): BYTES is
/// the default on gfx8, INDEX elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferStruct {
    /// idxen with stride != 0: index below num_records, the offset within the stride.
    Index,
    /// Unswizzled: the byte check on `index * stride + offset`; swizzled with stride != 0: the
    /// index check, idxen or not (gem5 Vega).
    Bytes,
}

/// Swizzled buffer addressing (V# SWIZZLE_EN) on the GCN/CDNA V# layout (gfx6-gfx950; gfx10+
/// descriptors with SWIZZLE_EN set stay undefined whatever this says: no public source gives
/// their formula).
///
/// FORMULA: CLRX `GcnMemHandling.md`'s `AOFFSET%ES + ES*(INDEX%IS) + IS*((INDEX/IS)*STRIDE +
/// (AOFFSET/ES)*ES)` with ES = `2 << ELEMENT_SIZE`, IS = `8 << INDEX_STRIDE`; gem5 Vega
/// `calcAddr` computes the same on gfx9 (and on the CDNA targets it runs). The default on
/// gfx6-gfx8, which CLRX documents. UNDEFINED: a descriptor with SWIZZLE_EN set is undefined
/// behaviour (its states are left out of every proof); the default on gfx9+, because Mesa ACO
/// writes that the element size was removed in GFX9 ("element size removed in GFX9", quoted
/// in shared/notes/isa-facts.md), so the field gem5 reads may not be what the hardware uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferSwizzle {
    /// Computed with CLRX's (and gem5's) formula.
    Formula,
    /// Undefined behaviour: such states are excluded.
    Undefined,
}

/// Which bytes of a buffer access the range check looks at.
///
/// END (the whole access, each dword of a dwordx2/x3/x4 separately, must lie below the
/// bound): LLVM `AMDGPUUsage.rst` "Relaxed Buffer OOB Mode" (an unaligned dword that starts in
/// bounds but ends out of bounds is out of bounds), rocMLIR PR #678, rocjitsu PR #10928 ("an
/// access must end within NUM_RECORDS"). START (only the first byte): gem5 Vega and CLRX
/// (`BUFOFFSET >= ...`, `OFFSET >= STRIDE`). Mesa `ac_descriptors.c` `ac_set_buf_desc_word3`
/// (AMD-maintained) tells the generations apart: GFX10 `offset >= NUM_RECORDS`, `offset >=
/// STRIDE` (START, the default on gfx10), GFX11+ `offset+payload > ...` (END, the default
/// elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferOob {
    /// The whole access (each dword separately) must lie below the bound.
    End,
    /// Only the first byte must lie below the bound.
    Start,
}

/// How a buffer access's record offset VOFFSET + OFFSET (+ the byte offset of a later dword of
/// a dwordx2/x3/x4) enters the range check when the sum exceeds 32 bits.
///
/// CHECKED (the sum is not taken modulo 2^32: an access whose offset overflows is out of
/// range): AMD's LLVM developers, llvm/llvm-project PR #207821 and #207796 ("the buffer OOB
/// formula is `voffset +[checked] imm + payload > num_records -[saturating] soffset`"), PR
/// #169230 (the split conditions checked with Z3 against "the actual hardware behavior": "we
/// just need all these additions to be `nuw`"), and PR #115479 (an access that "starts
/// out-of-bounds and then enters in-bounds" is out of bounds as a whole on the hardware; a
/// Vulkan CTS failure). WRAP (AOFFSET and each later dword's offset wrap at 32 bits, gcnsmt's
/// reading before breaker 17's findings 04 and 05): CLRX `GcnMemHandling.md` (`UINT32
/// AOFFSET`), ROCm rocjitsu PR #10928 (VOFFSET + OFFSET wraps at 32 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferOffset {
    /// An offset sum of 2^32 or more is out of range.
    Checked,
    /// The offset sums wrap at 32 bits.
    Wrap,
}

/// The size a scalar buffer load (`s_buffer_load_*`) range-checks each dword against.
///
/// The guides disagree by generation. STRIDED, `(stride == 0 ? 1 : stride) * num_records`
/// bytes: AMD RDNA3 and RDNA4 ISA guides, section 8.1.2 (`m_size`), and RDNA3 section 8.4.1
/// (out of range when `offset >= (stride == 0 ? 1 : stride) * num_records`). RECORDS,
/// `num_records` bytes whatever the stride: the AMD RDNA2 ISA guide, section 7.2.1, prints
/// `m_size = (m_stride == 0) ? 1 : m_num_records`, with no stride factor (quoted in
/// mattias800/prosper issue #2528, which reads it as an omission).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SbufferSize {
    /// `(stride == 0 ? 1 : stride) * num_records` bytes.
    Strided,
    /// `num_records` bytes; the stride plays no part.
    Records,
}

/// How a scalar buffer load (`s_buffer_load_*`) adds its SGPR offset and its immediate offset.
///
/// SUM64 (the sum, and each later dword's offset, in 64 bits: a sum of 2^32 or more is beyond
/// every bound): LLVM PR #68302 ("s_load instruction extends 32-bit offset to 64-bits, so a
/// 32-bit (address + offset) should not cause unsigned 32-bit integer wraparound, because it
/// performs addition in 64 bits"; LLVM folds an add into the immediate only when it is `nuw`).
/// WRAP32 (`uint32(SOFFSET + OFFSET)`, each dword's offset wrapping too): mattias800/prosper
/// issue #2481's reading of AMD's RDNA2 ISA guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SbufferOffset {
    /// Offsets added in 64 bits.
    Sum64,
    /// Offsets taken modulo 2^32.
    Wrap32,
}

/// Which memories a FLAT access may reach.
///
/// ANY is the machine: the address's high half picks LDS (the shared aperture), the lane's
/// scratch (the private aperture) or global memory (AMDGPUUsage "Address Spaces"). GLOBAL
/// assumes every FLAT address lies outside both apertures, as LLVM does when it merges a FLAT
/// access with a GLOBAL one (SILoadStoreOptimizer, `merge-flat-with-global-load-store.mir`:
/// the GLOBAL access's `addrspace(1)` pointer tells it the object is global, which the machine
/// instructions do not say). A proof under GLOBAL holds only for programs whose FLAT pointers
/// never point into LDS or scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlatAperture {
    /// LDS, scratch or global memory by the aperture of the address.
    Any,
    /// Global memory always.
    Global,
}

/// How the VALU's f32 arithmetic (`v_add_f32`, `v_mul_f32`, `v_fma_f32`) treats denormals:
/// the MODE register's FP_DENORM field for single precision, which the kernel descriptor sets
/// from the function's `"denormal-fp-math-f32"` attribute (LLVM AMDGPUUsage, kernel descriptor
/// `FLOAT_DENORM_MODE_32`). The default is what clang gives a kernel that states nothing:
/// PRESERVE (LLVM's `ieee`) on targets with fast f32 denormals, FLUSH (`preserve-sign`) on the
/// others. clang `AMDGPU.cpp`, `getDefaultDenormsAreZeroForTarget`: denormals are flushed
/// unless the target has `FEATURE_FAST_DENORMAL_F32`, which LLVM's TargetParser
/// (`AMDGPUTargetParser.cpp`) gives gfx9 and later but not gfx6-gfx8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fp32Denorm {
    /// Denormal inputs and results are kept (IEEE 754).
    Preserve,
    /// Denormal inputs are read as zero of the same sign, and denormal results are written as
    /// zero of the same sign.
    Flush,
}

/// The MODE register's IEEE bit, which decides how `v_max_f32` treats NaN inputs (AMD CDNA4 ISA
/// guide, V_MAX_F32: with `WAVE_MODE.IEEE` a signaling NaN input gives that NaN quieted, and
/// equal inputs pick S0 by `>=`). The kernel descriptor sets it (`.amdhsa_ieee_mode`, default 1
/// for compute kernels, LLVM AMDGPUUsage); LLVM's MIR prints it as `mode: ieee:` in
/// `machineFunctionInfo`, which `gcnsmt tv` passes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IeeeMode {
    /// MODE.IEEE = 1.
    On,
    /// MODE.IEEE = 0 (graphics shaders, `amdgpu-ieee`="false").
    Off,
}

/// Which bits of M0 give the LDS address of LDS DMA (`buffer_load_* ... lds`,
/// `buffer_store_lds_dword`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsDmaM0 {
    /// `M0[15:0]` (CLRX GcnMemHandling.md: `LDS_ADDR = LDS_BASE + (M0&0xffff) + LANEID*4`).
    Bits16,
    /// `M0[17:0]` (tinygrad's CDNA emulator, as the audit in issue 15 reports it).
    Bits18,
}

/// Which bits of M0 the ADDTID DS ops (`ds_load_addtid_b32`, `ds_store_addtid_b32`) add to
/// their address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddtidM0 {
    /// `M0[15:0]` (CDNA4/RDNA4 guides, DS_READ_ADDTID_B32; CLRX), and gfx1250's A0 stepping
    /// (ROCm comgr `comgr-hotswap-patch-trampoline.cpp`: "A0 truncates M0 to 16 bits").
    Bits16,
    /// `M0[19:0]`: gfx1250 B0 ("B0 hardware reads only 20 bits of M0 at the DS unit", same
    /// file; gfx1250 has 320 KiB of LDS, which 16 bits cannot address).
    Bits20,
}

/// Whether the instruction offset of LDS DMA also moves the LDS address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsDmaOffset {
    /// It does (LLVM AMDGPUDMAOperations "GFX9 LDS DMA": "offset (immediate) applied to both
    /// src and LDS address"; a rocjitsu report; CLRX's BUFFER_STORE_LDS_DWORD pseudocode).
    Both,
    /// Only the global address (CLRX GcnMemHandling.md's load formula and tinygrad's
    /// emulator have no OFFSET term on the LDS side).
    Global,
}

/// Where `ds_append`/`ds_consume` without `gds` keep their counter.
///
/// The guides disagree. OFFSET, the instruction offset into the work-group's LDS: the AMD RDNA4
/// ISA guide (`addr = offset; // offset by LDS HWBASE`) and CLRX GcnInstrsDs.md for GCN 1.0-1.4
/// (`DS + (OFFSET&~3)`). M0_BASE, `M0[31:16] + offset`, in range only when the counter lies
/// below `M0[15:0]`: the AMD RDNA3.5 ISA guide (`addr = M0.base + offset; // offset by LDS
/// HWBASE, limit to M.size`), and gem5's Vega source comments ("at (M0.base + instr_offset)",
/// quoted in shared/notes/isa-facts.md). Default M0_BASE on gfx11 (the RDNA3 guides), OFFSET on
/// every other target (RDNA4, CLRX for gfx6-gfx9; gfx10 and CDNA follow CLRX for want of their
/// own text at hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AppendAddr {
    /// The counter is at the instruction offset.
    Offset,
    /// The counter is at `M0[31:16] + offset`, bounded by `M0[15:0]`.
    M0Base,
}

/// What a DS access does on Southern Islands (gfx6) when its base address VGPR has the sign
/// bit set and its instruction offset is not zero.
///
/// LLVM `AMDGPUISelDAGToDAG.cpp` `isDSOffsetLegal`: "On Southern Islands instruction with a
/// negative base value and an offset don't seem to work", so LLVM folds an add into a DS
/// offset on gfx6 only when the base's sign bit is known zero (`SignBitIsZero`), and from Sea
/// Islands on always (`hasUsableDSOffset`, gfx7+). No source says what the hardware computes
/// instead. UNDEFINED, the default on gfx6: such an access is undefined behaviour (the states
/// are left out of a source's proof, and a target that reaches them is refuted), for the
/// single-offset forms (`offset:`) and the two-address forms (`offset0`/`offset1`, which
/// `isDSOffsetLegal` also guards). DEFINED, the default on every later target: base + offset
/// as on gfx7+ (the assumption of LLVM's `unsafe-ds-offset-folding` feature on gfx6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gfx6NegativeBase {
    /// A negative base with a non-zero offset is undefined behaviour.
    Undefined,
    /// Base + offset, whatever the base's sign.
    Defined,
}

/// How the BVH stack ops (`ds_bvh_stack_*`, gfx11/gfx12) pop.
///
/// The sources disagree. PCODE: the AMD RDNA3 and RDNA4 ISA guides' pseudocode (as extracted
/// in tinygrad's `rdna3`/`rdna4` pcode tables): the pop reads `MEM[stack_base + stack_index]`,
/// writes INVALID_NODE there, then decrements the index (the push writes at the index, then
/// increments it, so the pop reads the slot above the last push). GPURT: AMD GPURT
/// `rtip3_ds_stack_emulation.hlsl` `pop`: decrement first, then read the slot (the last push),
/// and nothing is written back. Default PCODE on every target (the guides are the ISA's
/// definition; GPURT is a software emulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvhPop {
    /// Read at the index, write INVALID_NODE there, then decrement (AMD's pseudocode).
    Pcode,
    /// Decrement, then read; no write (GPURT's emulation).
    Gpurt,
}

/// Which node pointers the BVH stack ops treat as INVALID_NODE (the guides use the name and
/// never give its value).
///
/// ALL_ONES: the one value `0xffffffff` (GPURT `INVALID_NODE`, Mesa RADV
/// `RADV_BVH_INVALID_NODE`, the value both write). TOP29: every pointer whose bits [31:3] are
/// all ones (GPURT `rtip3_ds_stack_emulation.hlsl` tests `(node >> 3) == 0x1fffffff`, the
/// low bits carrying flags). Default ALL_ONES.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvhInvalid {
    /// Only `0xffffffff`.
    AllOnes,
    /// Any pointer with bits [31:3] set.
    Top29,
}

/// What a D16 load (`ds_read_*_d16*`, `buffer_load_*_d16*`) leaves in the half of its
/// destination it does not load.
///
/// PRESERVED: the old value (AMD Vega ISA guide, "D16 ... preserve the other half"; LLVM's
/// `d16PreservesUnusedBits()` on targets without SRAM ECC). UNDEFINED: the default on targets
/// whose SRAM ECC is on or "any" by default ([`Target::sramecc_default`]): LLVM
/// `GCNSubtarget::d16PreservesUnusedBits() { return hasD16LoadStore() &&
/// !TargetID.isSramEccOnOrAny(); }`, ROCm/rocMLIR PR #422 ("on gfx90a, *_load_short_d16_hi does
/// not preserve the low-order bits of the destination register, even with SramECC disabled"),
/// llvm/llvm-project PR #161256 ("16-bit loads clobber full 32-bit VGPR"); the CDNA5 guide
/// (as ROCm/rocm-systems PR #10445 quotes it) fills with zero, no source does for CDNA1-4. The
/// semantics has no arbitrary value, so the instruction is undefined there and a rule that runs
/// it is never proved (`check::partial`): a target that reaches it is refuted or `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum D16Unused {
    /// The other half keeps its old value.
    Preserved,
    /// The load is undefined (the other half is not known).
    Undefined,
}

/// A multi-dword (wider than 32 bits) LDS access, DS or FLAT, whose address is not a multiple
/// of its size rounded up to a power of two.
///
/// UNDEFINED, the default on gfx1010-gfx1013: LLVM `FeatureLdsMisalignedBug` ("Some GFX10 bug
/// with multi-dword LDS and flat access that is not naturally aligned in WGP mode"; WGP mode
/// is the gfx10 default, `hasLDSMisalignedBug() { return LDSMisalignedBug && !EnableCuMode;
/// }`), and `SITargetLowering::allowsMisalignedMemoryAccessesImpl` refuses such an access
/// whatever the alignment mode, so LLVM emits one only where the IR's alignment says it is
/// naturally aligned. DEFINED (every other target, or gfx101x in CU mode): as the `alignment`
/// setting says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsMisaligned {
    /// As `alignment` says.
    Defined,
    /// Undefined behaviour.
    Undefined,
}

/// The immediate offset of a FLAT instruction (`flat_*`, not `global_*`/`scratch_*`) whose
/// address lies in global memory.
///
/// IGNORED, the default on gfx1010-gfx1013: LLVM `FeatureFlatSegmentOffsetBug` ("GFX10 bug
/// where inst_offset is ignored when flat instructions access global memory"; LLVM never
/// folds an offset into such an access there: `SelectFlatOffsetImpl`,
/// `SIInstrInfo::isLegalFLATOffset`). APPLIED elsewhere: the address is VADDR + OFFSET.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlatOffset {
    /// The global address is VADDR + OFFSET.
    Applied,
    /// The global address is VADDR.
    Ignored,
}

/// What a range-checked MUBUF/MTBUF access (not ADDR64) does on Southern Islands and Sea Islands
/// (gfx6, gfx7) when its SOFFSET is not zero.
///
/// LLVM `splitMUBUFOffset` (AMDGPUBaseInfo.cpp, later SIInstrInfo.cpp): "There is a hardware
/// bug in SI and CI which prevents address clamping in MUBUF instructions from working
/// correctly with SOffsets. The immediate offset is unaffected." LLVM therefore never moves a
/// constant part of a buffer offset into SOFFSET on `<= SEA_ISLANDS`. No source says what the
/// range check computes instead, and CLRX `GcnMemHandling.md` writes the check with SOFFSET
/// for every GCN generation. UNDEFINED, the default on gfx6 and gfx7: such an access is
/// undefined behaviour (left out of a source's proof; a target that reaches it where the source
/// is defined is refuted). DEFINED, the default from gfx8 on: the range check `buffer_soffset`
/// describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SiciSoffsetClamp {
    /// A non-zero SOFFSET makes a range-checked access undefined behaviour.
    Undefined,
    /// The range check counts SOFFSET as `buffer_soffset` says.
    Defined,
}

/// The assumptions in force for one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// `SH_MEM_CONFIG.ALIGNMENT_MODE` for LDS/GDS accesses.
    pub alignment: Alignment,
    /// The bound that makes an LDS access out of range.
    pub lds_limit: LdsLimit,
    /// Raw-buffer range checks: does soffset reduce the bound (buffer instructions only).
    pub buffer_soffset: BufferSoffset,
    /// Buffer range checks: whole access or first byte (buffer instructions only).
    pub buffer_oob: BufferOob,
    /// Buffer range checks: VOFFSET + OFFSET (+ payload) checked or wrapping at 32 bits.
    pub buffer_offset: BufferOffset,
    /// The size scalar buffer loads range-check against (`s_buffer_load_*` only).
    pub sbuffer_size: SbufferSize,
    /// Scalar buffer loads: SOFFSET + OFFSET in 64 bits or modulo 2^32.
    pub sbuffer_offset: SbufferOffset,
    /// The memories a FLAT access may reach (`flat_*` only).
    pub flat_aperture: FlatAperture,
    /// f32 denormal handling of VALU float arithmetic.
    pub fp32_denorm: Fp32Denorm,
    /// MODE.IEEE (`v_max_f32`'s NaN handling).
    pub ieee_mode: IeeeMode,
    /// LDS DMA: the M0 bits of the LDS address.
    pub lds_dma_m0: LdsDmaM0,
    /// LDS DMA: whether the instruction offset applies to the LDS address.
    pub lds_dma_offset: LdsDmaOffset,
    /// ADDTID DS ops: the M0 bits of the address.
    pub addtid_m0: AddtidM0,
    /// `ds_append`/`ds_consume` on LDS: where the counter is.
    pub append_addr: AppendAddr,
    /// gfx6 DS accesses with a negative base and an offset: undefined or base + offset.
    pub gfx6_negative_base: Gfx6NegativeBase,
    // bufaudit
    /// GCN/CDNA structured buffers: the index check or the byte check.
    pub buffer_struct: BufferStruct,
    /// GCN/CDNA swizzled buffers: computed or undefined.
    pub buffer_swizzle: BufferSwizzle,
    /// BVH stack ops: the pop order.
    pub bvh_pop: BvhPop,
    /// BVH stack ops: which pointers are INVALID_NODE.
    pub bvh_invalid: BvhInvalid,
    /// D16 loads: the other half preserved or not known.
    pub d16_unused: D16Unused,
    /// Multi-dword LDS accesses not naturally aligned: as `alignment` says, or undefined.
    pub lds_misaligned: LdsMisaligned,
    /// FLAT accesses of global memory: the immediate offset applied or ignored.
    pub flat_offset: FlatOffset,
    /// gfx6/gfx7 buffer accesses with a non-zero SOFFSET: undefined or range-checked.
    pub sici_soffset_clamp: SiciSoffsetClamp,
}

impl Settings {
    /// Per-target defaults: DWORD alignment and M0 clamp on gfx6-gfx8; UNALIGNED and the
    /// allocation bound on gfx9+. Sources: Linux amdkfd `kfd_device_queue_manager_v9.c` and
    /// amdgpu `gfx_v11_0.c`/`gfx_v12_0.c` (`DEFAULT_SH_MEM_CONFIG`) program
    /// `SH_MEM_CONFIG.ALIGNMENT_MODE = SH_MEM_ALIGNMENT_MODE_UNALIGNED`; LLVM's
    /// `unaligned-ds-access` feature ("unaligned DS access is available from GFX9 onwards",
    /// CodeGen/AMDGPU tests) is why gfx6-gfx8 default to DWORD even though the kernel also
    /// writes UNALIGNED there (`radeon/cik.c`).
    pub fn default_for(t: Target) -> Settings {
        let append_addr = if t.gen() == crate::target::Gen::Gfx11 {
            AppendAddr::M0Base
        } else {
            AppendAddr::Offset
        };
        let gfx6_negative_base = if t.gen() == crate::target::Gen::Gfx6 {
            Gfx6NegativeBase::Undefined
        } else {
            Gfx6NegativeBase::Defined
        };
        let d16_unused = if t.sramecc_default() {
            D16Unused::Undefined
        } else {
            D16Unused::Preserved
        };
        let (lds_misaligned, flat_offset) = if t.gfx101x_bugs() {
            (LdsMisaligned::Undefined, FlatOffset::Ignored)
        } else {
            (LdsMisaligned::Defined, FlatOffset::Applied)
        };
        // LDS DMA's M0 field must reach the whole LDS: gfx950 has 160 KiB (LLVM
        // `getLocalMemorySize` 163840; llc-22 sets `m0 = 0x13880` for an LDS DMA to byte 80000),
        // which 16 bits cannot address. M0[17:0] as tinygrad's CDNA emulator reads it.
        let lds_dma_m0 = if t.max_lds_bytes() > 64 * 1024 {
            LdsDmaM0::Bits18
        } else {
            LdsDmaM0::Bits16
        };
        // gfx1250's shipping (B0) stepping reads M0[19:0] for ADDTID; 16 bits elsewhere.
        let addtid_m0 = if t == Target::Gfx1250 {
            AddtidM0::Bits20
        } else {
            AddtidM0::Bits16
        };
        // LLVM splitMUBUFOffset: SI and CI only (`<= SEA_ISLANDS`).
        let sici_soffset_clamp = if matches!(t.gen(), Gen::Gfx6 | Gen::Gfx7) {
            SiciSoffsetClamp::Undefined
        } else {
            SiciSoffsetClamp::Defined
        };
        // Mesa ac_descriptors.c `ac_set_buf_desc_word3` (AMD-maintained): GFX10's OOB_SELECT
        // checks are on the start of the access (`offset >= NUM_RECORDS`, `offset >= STRIDE`),
        // GFX11+'s on its end (`offset+payload > ...`); breaker 19's finding 01.
        let buffer_oob = if t.gen() == Gen::Gfx10 {
            BufferOob::Start
        } else {
            BufferOob::End
        };
        // radeonsi `si_set_vb_descriptor` (`GFX_VERSION != GFX8 && stride`) and RADV
        // `radv_make_texel_buffer_descriptor` (`gfx_level != GFX8 && stride`) give NUM_RECORDS
        // in records for structured buffers everywhere but GFX8, which takes bytes; breaker
        // 19's finding 02.
        let buffer_struct = if t.gen() == Gen::Gfx8 {
            BufferStruct::Bytes
        } else {
            BufferStruct::Index
        };
        if t.has_unaligned_ds() {
            Settings {
                alignment: Alignment::Unaligned,
                lds_limit: LdsLimit::Alloc,
                buffer_soffset: BufferSoffset::Subtract,
                buffer_oob,
                buffer_offset: BufferOffset::Checked,
                sbuffer_size: SbufferSize::Strided,
                sbuffer_offset: SbufferOffset::Sum64,
                flat_aperture: FlatAperture::Any,
                fp32_denorm: Fp32Denorm::Preserve,
                ieee_mode: IeeeMode::On,
                lds_dma_m0,
                lds_dma_offset: LdsDmaOffset::Both,
                addtid_m0,
                append_addr,
                gfx6_negative_base,
                // bufaudit
                buffer_struct,
                buffer_swizzle: BufferSwizzle::Undefined,
                bvh_pop: BvhPop::Pcode,
                bvh_invalid: BvhInvalid::AllOnes,
                d16_unused,
                lds_misaligned,
                flat_offset,
                sici_soffset_clamp,
            }
        } else {
            Settings {
                alignment: Alignment::Dword,
                lds_limit: LdsLimit::M0,
                buffer_soffset: BufferSoffset::Subtract,
                buffer_oob,
                buffer_offset: BufferOffset::Checked,
                sbuffer_size: SbufferSize::Strided,
                sbuffer_offset: SbufferOffset::Sum64,
                flat_aperture: FlatAperture::Any,
                fp32_denorm: Fp32Denorm::Flush,
                ieee_mode: IeeeMode::On,
                lds_dma_m0,
                lds_dma_offset: LdsDmaOffset::Both,
                addtid_m0,
                append_addr,
                gfx6_negative_base,
                // bufaudit
                buffer_struct,
                buffer_swizzle: BufferSwizzle::Formula,
                bvh_pop: BvhPop::Pcode,
                bvh_invalid: BvhInvalid::AllOnes,
                d16_unused,
                lds_misaligned,
                flat_offset,
                sici_soffset_clamp,
            }
        }
    }

    /// Apply one `name=value` override (names and values as [`SETTINGS`] lists them; values
    /// case-insensitive).
    ///
    /// Errors: unknown name or value, or a value the target does not have (UNALIGNED before gfx9).
    pub fn set(&mut self, t: Target, name: &str, value: &str) -> Result<(), String> {
        let Some((_, values)) = SETTINGS.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = SETTINGS.iter().map(|(n, _)| *n).collect();
            return Err(format!("unknown setting `{name}` ({})", names.join(", ")));
        };
        let upper = value.to_ascii_uppercase();
        let Some(v) = values.iter().find(|v| **v == upper) else {
            return Err(format!("unknown {name} `{value}` ({})", or_list(values)));
        };
        if name == "alignment" && *v == "UNALIGNED" && !t.has_unaligned_ds() {
            return Err(format!(
                "alignment=UNALIGNED does not exist on {t} (gfx9+ only)"
            ));
        }
        let assigned = self.assign(name, v);
        debug_assert!(assigned, "SETTINGS and assign come from one table");
        Ok(())
    }

    /// The settings `names` as `name=VALUE`, comma-separated, in the order given (what
    /// verdicts print for the settings a rule's instructions read).
    pub fn text(&self, names: &[&str]) -> String {
        let items: Vec<String> = names
            .iter()
            .filter_map(|n| Some(format!("{n}={}", self.get(n)?)))
            .collect();
        items.join(", ")
    }
}

/// A setting's values as rule files and `--set` spell them.
pub trait SettingValue: Copy + PartialEq + 'static {
    /// Every value with its name, in the order help texts list them.
    const VALUES: &'static [(&'static str, Self)];
    /// This value's name.
    fn name(self) -> &'static str {
        let named = Self::VALUES.iter().find(|(_, v)| *v == self);
        named.map_or("?", |(n, _)| n)
    }
}

/// The one table of settings: each `field: Type { "NAME" => Variant, ... }` gives the
/// type's [`SettingValue`] names, a row of [`SETTINGS`], and the field's arms of
/// [`Settings::get`] and `Settings::assign`.
macro_rules! settings_table {
    ($($field:ident: $ty:ident { $($name:literal => $variant:ident),+ $(,)? }),+ $(,)?) => {
        $(impl SettingValue for $ty {
            const VALUES: &'static [(&'static str, $ty)] = &[$(($name, $ty::$variant)),+];
        })+

        /// Every setting with its values, as `Settings:` lines and `--set` spell them: the one
        /// list the parser ([`Settings::set`]), its error messages and the command-line help use.
        pub const SETTINGS: &[(&str, &[&str])] = &[$((stringify!($field), &[$($name),+])),+];

        impl Settings {
            /// The value of setting `name`, as [`SETTINGS`] spells it (`None`: no such setting).
            pub fn get(&self, name: &str) -> Option<&'static str> {
                match name {
                    $(stringify!($field) => Some(self.$field.name()),)+
                    _ => None,
                }
            }
            /// Set setting `name` to the value spelled `value` (upper case); whether both exist.
            fn assign(&mut self, name: &str, value: &str) -> bool {
                match name {
                    $(stringify!($field) => {
                        let v = $ty::VALUES.iter().find(|(n, _)| *n == value);
                        v.map(|(_, v)| self.$field = *v).is_some()
                    })+
                    _ => false,
                }
            }
        }
    };
}

settings_table! {
    alignment: Alignment { "DWORD" => Dword, "UNALIGNED" => Unaligned, "STRICT" => Strict },
    lds_limit: LdsLimit { "M0" => M0, "ALLOC" => Alloc, "NONE" => None },
    buffer_soffset: BufferSoffset { "SUBTRACT" => Subtract, "IGNORE" => Ignore, "WRAP" => Wrap },
    buffer_oob: BufferOob { "END" => End, "START" => Start },
    buffer_offset: BufferOffset { "CHECKED" => Checked, "WRAP" => Wrap },
    sbuffer_size: SbufferSize { "STRIDED" => Strided, "RECORDS" => Records },
    sbuffer_offset: SbufferOffset { "SUM64" => Sum64, "WRAP32" => Wrap32 },
    flat_aperture: FlatAperture { "ANY" => Any, "GLOBAL" => Global },
    fp32_denorm: Fp32Denorm { "PRESERVE" => Preserve, "FLUSH" => Flush },
    ieee_mode: IeeeMode { "ON" => On, "OFF" => Off },
    lds_dma_m0: LdsDmaM0 { "BITS16" => Bits16, "BITS18" => Bits18 },
    lds_dma_offset: LdsDmaOffset { "BOTH" => Both, "GLOBAL" => Global },
    addtid_m0: AddtidM0 { "BITS16" => Bits16, "BITS20" => Bits20 },
    append_addr: AppendAddr { "OFFSET" => Offset, "M0_BASE" => M0Base },
    gfx6_negative_base: Gfx6NegativeBase { "UNDEFINED" => Undefined, "DEFINED" => Defined },
    // bufaudit
    buffer_struct: BufferStruct { "INDEX" => Index, "BYTES" => Bytes },
    buffer_swizzle: BufferSwizzle { "FORMULA" => Formula, "UNDEFINED" => Undefined },
    bvh_pop: BvhPop { "PCODE" => Pcode, "GPURT" => Gpurt },
    bvh_invalid: BvhInvalid { "ALL_ONES" => AllOnes, "TOP29" => Top29 },
    d16_unused: D16Unused { "PRESERVED" => Preserved, "UNDEFINED" => Undefined },
    lds_misaligned: LdsMisaligned { "DEFINED" => Defined, "UNDEFINED" => Undefined },
    flat_offset: FlatOffset { "APPLIED" => Applied, "IGNORED" => Ignored },
    sici_soffset_clamp: SiciSoffsetClamp { "UNDEFINED" => Undefined, "DEFINED" => Defined },
}

/// Every setting as `name=A|B|C`, comma-separated (for help texts).
pub fn settings_help() -> String {
    let items: Vec<String> = SETTINGS
        .iter()
        .map(|(n, vs)| format!("{n}={}", vs.join("|")))
        .collect();
    items.join(", ")
}

/// `A, B or C`.
fn or_list(values: &[&str]) -> String {
    match values.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(groups::LDS))
    }
}

/// The settings printed with a verdict, by what the rule's instructions read (each group is
/// printed only when some instruction reads it; the LDS ones always).
pub mod groups {
    /// LDS and GDS accesses.
    pub const LDS: &[&str] = &["alignment", "lds_limit"];
    /// Buffer range checks.
    pub const BUFFER: &[&str] = &["buffer_soffset", "buffer_oob", "buffer_offset"];
    /// `s_buffer_load_*`.
    pub const SBUFFER: &[&str] = &["sbuffer_size", "sbuffer_offset"];
    /// `flat_*`.
    pub const FLAT: &[&str] = &["flat_aperture"];
    /// VALU f32 arithmetic.
    pub const FLOAT: &[&str] = &["fp32_denorm"];
    /// `v_max_f32` (MODE.IEEE).
    pub const IEEE: &[&str] = &["ieee_mode"];
    /// The `lds` buffer forms (LDS DMA).
    pub const LDS_DMA: &[&str] = &["lds_dma_m0", "lds_dma_offset"];
    /// `ds_load_addtid_b32` / `ds_store_addtid_b32` (and the gfx9-gfx10 read/write names).
    pub const ADDTID: &[&str] = &["addtid_m0"];
    /// `ds_append` / `ds_consume`.
    pub const APPEND: &[&str] = &["append_addr"];
    /// DS accesses on gfx6 (printed with every gfx6 verdict).
    pub const DS_GFX6: &[&str] = &["gfx6_negative_base"];
    // bufaudit
    /// Buffer instructions on the GCN/CDNA V# layout (gfx6-gfx950).
    pub const BUFFER_GCN: &[&str] = &["buffer_struct", "buffer_swizzle"];
    /// The BVH stack ops (`ds_bvh_stack_*`).
    pub const BVH: &[&str] = &["bvh_pop", "bvh_invalid"];
    /// D16 loads.
    pub const D16: &[&str] = &["d16_unused"];
    /// gfx1010-gfx1013's hardware bugs (printed with every gfx1010 verdict).
    pub const GFX101X: &[&str] = &["lds_misaligned", "flat_offset"];
    /// Buffer instructions on gfx6/gfx7 (SI/CI's SOFFSET clamping bug).
    pub const BUFFER_SICI: &[&str] = &["sici_soffset_clamp"];
    /// Every group (each setting is in exactly one).
    pub const ALL: [&[&str]; 15] = [
        LDS,
        BUFFER,
        SBUFFER,
        FLAT,
        FLOAT,
        IEEE,
        LDS_DMA,
        ADDTID,
        APPEND,
        DS_GFX6,
        BUFFER_GCN,
        BVH,
        D16,
        GFX101X,
        BUFFER_SICI,
    ];
}

#[cfg(test)]
mod tests;
