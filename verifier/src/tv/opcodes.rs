//! MIR opcode names (LLVM's pseudo instructions, `DS_READ2_B32_gfx9`,
//! `BUFFER_LOAD_DWORDX2_OFFEN_exact`, `V_ADD_U32_e64`) -> the target's llvm-mc mnemonic and
//! the MIR operand order.
//!
//! Operand orders, from LLVM's `DSInstructions.td` and `BUFInstructions.td` (llvm-project
//! 0050368623c6, read 2026-12) and checked against llc-22 output in `tests/data/tv`:
//! - DS: defs `vdst`; uses `addr`, `data0`, `data1` (each if the op has it), then `offset` or
//!   `offset0, offset1`, then `gds`. The gfx6-8 forms (no `_gfx9` suffix) also read
//!   `implicit $m0`.
//! - MUBUF/VBUFFER (`getMUBUFInsDA`): loads define `vdata`; stores and atomics take `vdata`
//!   first; then `vaddr` (not for `_OFFSET`), `srsrc`, `soffset`, `offset`, `cpol`, and `swz`
//!   for loads and stores. `_LDS` loads have no `vdata` and read `implicit $m0`.
//! - SMEM (`SMInstructions.td`): `sdst = S_BUFFER_LOAD_* sbase, [soffset,] [offset,] cpol`.
//! - VALU/SALU: defs `vdst` (and the carry-out for `_CO_` and the carry-in ops), uses
//!   `src0..srcN`, then `clamp` where the VOP3 form has it. The carry-in ops (`VOP2bInst`
//!   V_ADDC_U32, V_SUBB_U32, V_SUBBREV_U32 in `VOP2Instructions.td`; one MIR name on every
//!   generation, llc-22 prints `%d:vgpr_32, %c:sreg_64_xexec = V_ADDC_U32_e64 %a, %b,
//!   killed %cin, 0, implicit $exec`, `sreg_32_xm0_xexec` masks on wave32) read the mask as
//!   `src2`.
//!
//! The mnemonic comes from the lifter's tables (`ds_lookup`, `mubuf_lookup`, `alu_lookup`),
//! choosing among the names of the op's semantics entry (`DS_READ_B32, DS_LOAD_B32`) the one
//! the target spells.

use gcnsmt_lifter::lift::{alu_lookup, AluMods};
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, MubufClass, MubufShape};
use gcnsmt_lifter::table::{ds_lookup, DsShape};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::target::Target;

/// How a MUBUF op addresses memory (the MIR name's suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrKind {
    /// `_OFFSET`: no VADDR; the address comes from the V#, SOFFSET and the offset field.
    Offset,
    /// `_OFFEN`: VADDR holds a byte offset.
    Offen,
    /// `_IDXEN`: VADDR holds a record index.
    Idxen,
    /// `_BOTHEN`: a 64-bit VADDR pair, index first, then byte offset.
    Bothen,
    /// `_ADDR64` (gfx6/gfx7): VADDR is a 64-bit address.
    Addr64,
}

/// The offset operands of an `S_BUFFER_LOAD_*` MIR opcode (`SMInstructions.td`:
/// `SM_Load_Pseudo` with `OffsetMode` IMM, SGPR or SGPR_IMM): after `sbase`, `offset` (`_IMM`),
/// `soffset` (`_SGPR`) or `soffset, offset` (`_SGPR_IMM`), then `cpol`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmemForm {
    /// `_IMM`: an immediate offset.
    Imm,
    /// `_SGPR`: an SGPR offset.
    Sgpr,
    /// `_SGPR_IMM` (gfx9+): an SGPR and an immediate offset.
    SgprImm,
}

/// A modelled MIR opcode on one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MirOp {
    /// A DS opcode (`DS_*`).
    Ds {
        /// The llvm-mc mnemonic the target spells.
        mnemonic: &'static str,
        /// Its operand layout from the lifter's DS table.
        shape: DsShape,
    },
    /// A MUBUF/VBUFFER opcode (`BUFFER_*`).
    Mubuf {
        /// The llvm-mc mnemonic the target spells.
        mnemonic: &'static str,
        /// Its operand layout from the lifter's MUBUF table.
        shape: MubufShape,
        /// How it addresses memory (the opcode's suffix).
        addr: AddrKind,
        /// The `_LDS` form: the loaded dword goes to LDS at `M0`, there is no `vdata`.
        lds: bool,
        /// Atomic `_RTN`: vdst is defined and tied to vdata.
        rtn: bool,
    },
    /// GLOBAL loads/stores and scalar loads (`lifter/src/global/`).
    Global {
        /// The mnemonic (the pre-gfx11 name, which llvm-mc 22 accepts on every target).
        mnemonic: String,
        /// The lifter's GLOBAL/SMEM op the mnemonic names.
        op: gcnsmt_lifter::GlobalOp,
        /// The `_SADDR` form: an SGPR-pair base and a 32-bit VGPR offset.
        saddr: bool,
    },
    /// A scalar buffer load (`S_BUFFER_LOAD_*`, `lifter/src/smem/`).
    Smem {
        /// The target's spelling of the mnemonic.
        mnemonic: &'static str,
        /// The MIR form: which offsets the operands hold.
        form: SmemForm,
    },
    /// FLAT loads/stores (`lifter/src/flat/`): the GLOBAL shape without saddr.
    Flat {
        /// The target's spelling of the mnemonic.
        mnemonic: &'static str,
        /// The lifter's op the mnemonic names.
        op: gcnsmt_lifter::GlobalOp,
    },
    /// A VALU/SALU opcode of the subset `alu_lookup` knows.
    Alu {
        /// The llvm-mc mnemonic the target spells.
        mnemonic: &'static str,
        /// Register/immediate sources.
        srcs: u8,
        /// A carry-out definition follows vdst.
        sdst: bool,
        /// Trailing immediates after the sources that must be 0 (`clamp`).
        trailing: u8,
        /// How many leading sources have a VOP3 source-modifier immediate before them
        /// (`V_CNDMASK_B32_e64`: 2, which must be 0; the f32 and packed ops: every source).
        mods: u8,
        /// Which of those modifiers and `clamp` are modelled ([`super::vop_mods`]): the
        /// lifter's [`AluMods`] for the `_e64` and VOP3P forms, none otherwise.
        vop: AluMods,
        /// Which sources are 64-bit pairs (bit `i` for source `i`; the lifter's `wide_srcs`):
        /// `S_BCNT1_I32_B64`'s S0, the 64-bit compares, shifts and adds.
        wide: u8,
        /// `V_ADD_U64_PSEUDO` / `V_SUB_U64_PSEUDO`: a 64-bit add or subtract LLVM expands after
        /// selection; lowered by [`super::alu64::pseudo`] (`mnemonic` is the low half's op).
        pseudo: bool,
        /// The last source is a wave-sized lane mask (`V_CNDMASK_B32_e64`'s select, the
        /// carry-in of `V_ADDC_U32_e64`): an SGPR pair on wave64, one SGPR on wave32.
        mask: bool,
        /// The `_e32` carry form: the carry-out is `vcc` (implicit-def in MIR). Also set for the
        /// 64-bit pseudos, whose `implicit-def dead $vcc` is the clobber of their carry pair,
        /// and for the VOPC `_e32` compares, whose destination is `vcc` (see `vcc_dst`).
        vcc: bool,
        /// The `_e32` form of `V_CNDMASK_B32` and the carry-in ops: the mask source (the last)
        /// is the implicit `$vcc` (`$vcc_lo` on wave32), not an explicit operand.
        vcc_in: bool,
        /// The VOPC `_e32` compares: no explicit definition, the lane mask goes to `vcc`.
        vcc_dst: bool,
    },
    /// The SDWA form of a modelled VOP1/VOP2 op (`V_ADD_U32_sdwa`; [`super::sdwa`]).
    Sdwa(super::sdwa::SdwaOp),
}

/// The modelled op for a MIR opcode on `target`, or `None` when gcnsmt does not model it
/// there (the caller decides whether that is `unsupported`).
pub fn lookup(target: Target, opcode: &str) -> Option<MirOp> {
    if opcode.starts_with("DS_") {
        ds(target, opcode)
    } else if opcode.starts_with("BUFFER_") {
        mubuf(target, opcode)
    } else if opcode.starts_with("GLOBAL_") || opcode.starts_with("S_LOAD_") {
        global(target, opcode)
    } else if opcode.starts_with("S_BUFFER_LOAD_") {
        smem(target, opcode)
    } else if opcode.starts_with("FLAT_") {
        flat(target, opcode)
    } else if opcode.ends_with("_sdwa") {
        super::sdwa::lookup(target, opcode).map(MirOp::Sdwa)
    } else {
        alu(target, opcode)
    }
}

/// `GLOBAL_LOAD_DWORD[_SADDR]`, `GLOBAL_STORE_DWORDX2[_SADDR]`, `S_LOAD_DWORD_IMM[_ec]`
/// (`FLATInstructions.td`, `SMInstructions.td`): the mnemonic is the lower-case name without
/// the form suffixes. The `_SGPR` (register offset) scalar forms, D16 and LDS forms and the
/// atomics are not modelled.
fn global(target: Target, opcode: &str) -> Option<MirOp> {
    let base = opcode.strip_suffix("_ec").unwrap_or(opcode);
    let (base, saddr) = match base.strip_suffix("_SADDR") {
        Some(b) => (b, true),
        None => (base, false),
    };
    let base = if base.starts_with("S_LOAD_") {
        base.strip_suffix("_IMM")?
    } else {
        base
    };
    let mnemonic = gcnsmt_lifter::global_spelling(target, &base.to_ascii_lowercase())?.to_string();
    let (op, _) = gcnsmt_lifter::global_lookup(target, &mnemonic)?;
    Some(MirOp::Global {
        mnemonic,
        op,
        saddr,
    })
}

/// `S_BUFFER_LOAD_DWORDX2_IMM[_ec]`, `S_BUFFER_LOAD_DWORD_SGPR`, `..._SGPR_IMM`: the mnemonic
/// is the lower-case name without the form suffixes (`_ec` is the early-clobber variant of
/// the same instruction). The gfx7 literal-offset form (`_IMM_ci`) is not modelled.
fn smem(target: Target, opcode: &str) -> Option<MirOp> {
    let base = opcode.strip_suffix("_ec").unwrap_or(opcode);
    let (base, form) = [
        ("_SGPR_IMM", SmemForm::SgprImm),
        ("_SGPR", SmemForm::Sgpr),
        ("_IMM", SmemForm::Imm),
    ]
    .iter()
    .find_map(|(suf, f)| base.strip_suffix(suf).map(|b| (b, *f)))?;
    let mnemonic = gcnsmt_lifter::smem_spelling(target, &base.to_ascii_lowercase())?;
    Some(MirOp::Smem { mnemonic, form })
}

/// `FLAT_LOAD_DWORD`, `FLAT_STORE_DWORDX2` (`FLATInstructions.td`): the mnemonic is the
/// lower-case name. The `_SADDR` forms (gfx12 FLAT with an SGPR base), D16 forms and atomics
/// are not modelled.
fn flat(target: Target, opcode: &str) -> Option<MirOp> {
    let mnemonic = gcnsmt_lifter::flat_spelling(target, &opcode.to_ascii_lowercase())?;
    let (op, _) = gcnsmt_lifter::flat_lookup(target, mnemonic)?;
    Some(MirOp::Flat { mnemonic, op })
}

/// Whether the gfx6-8 DS form (no `_gfx9` suffix) is meant: it reads M0.
pub fn ds_reads_m0(opcode: &str) -> bool {
    opcode.starts_with("DS_") && !opcode.ends_with("_gfx9")
}

/// Among the names of `upper`'s semantics entry, the one `exists` accepts on the target,
/// preferring `upper` itself and then names with the same returning-ness (`_RTN_`).
fn target_name(upper: &str, exists: impl Fn(&str) -> bool) -> Option<&'static str> {
    let lib = Library::builtin();
    let def = lib.get(upper)?;
    let rtn = upper.contains("_RTN");
    let mut best: Option<&'static str> = None;
    for n in &def.names {
        let lower = n.name.to_ascii_lowercase();
        if !exists(&lower) {
            continue;
        }
        if n.name == upper {
            return Some(intern(lower));
        }
        if n.name.contains("_RTN") == rtn && best.is_none() {
            best = Some(intern(lower));
        }
    }
    best
}

/// Mnemonics are few; keep one leaked copy of each.
fn intern(s: String) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static SEEN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut g = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(x) = g.get(s.as_str()) {
        return x;
    }
    let x: &'static str = Box::leak(s.into_boxed_str());
    g.insert(x);
    x
}

fn ds(target: Target, opcode: &str) -> Option<MirOp> {
    let base = opcode
        .strip_suffix("_gfx9")
        .or_else(|| opcode.strip_suffix("_vi"))
        .unwrap_or(opcode);
    let mnemonic = target_name(base, |m| ds_lookup(target, m).is_some())?;
    let (_, shape) = ds_lookup(target, mnemonic)?;
    Some(MirOp::Ds { mnemonic, shape })
}

fn mubuf(target: Target, opcode: &str) -> Option<MirOp> {
    let mut s = opcode.strip_suffix("_exact").unwrap_or(opcode);
    let rtn = match s.strip_suffix("_RTN") {
        Some(r) => {
            s = r;
            true
        }
        None => false,
    };
    let kinds = [
        ("_OFFSET", AddrKind::Offset),
        ("_OFFEN", AddrKind::Offen),
        ("_IDXEN", AddrKind::Idxen),
        ("_BOTHEN", AddrKind::Bothen),
        ("_ADDR64", AddrKind::Addr64),
    ];
    let (rest, addr) = kinds
        .iter()
        .find_map(|(suf, k)| s.strip_suffix(suf).map(|r| (r, *k)))?;
    let rest = rest.strip_suffix("_VBUFFER").unwrap_or(rest);
    if rest.ends_with("_TFE") {
        return None; // tfe is not modelled
    }
    let (base, lds) = match rest.strip_suffix("_LDS") {
        Some(b) => (b, true),
        None => (rest, false),
    };
    let mnemonic = target_name(base, |m| mubuf_lookup(target, m).is_some())?;
    let (_, shape) = mubuf_lookup(target, mnemonic)?;
    if lds && !shape.lds {
        return None;
    }
    if rtn && (shape.class != MubufClass::Atomic || !shape.rtn) {
        return None;
    }
    Some(MirOp::Mubuf {
        mnemonic,
        shape,
        addr,
        lds,
        rtn,
    })
}

/// VALU/SALU opcodes: MIR base name, candidate llvm-mc names (the first the target knows with
/// the same carry-out is taken), source count, trailing zero immediates of the `_e64` form.
const ALU: &[(&str, &[&str], u8, u8)] = &[
    ("V_MOV_B32", &["v_mov_b32"], 1, 0),
    // The True16 VOP3 forms (gfx11+; `half16.rs`): MIR `src0_modifiers, src0, [src1_modifiers,
    // src1,] [clamp,] op_sel`; only the adds and subtracts have `clamp` (llc-22's machine
    // verifier, gfx1100 and gfx1200, 2026-12-05). The halves are the registers' (`%5.hi16`).
    ("V_ADD_NC_U16_t16", &["v_add_nc_u16"], 2, 2),
    ("V_SUB_NC_U16_t16", &["v_sub_nc_u16"], 2, 2),
    ("V_MUL_LO_U16_t16", &["v_mul_lo_u16"], 2, 1),
    ("V_LSHLREV_B16_t16", &["v_lshlrev_b16"], 2, 1),
    ("V_AND_B16_t16", &["v_and_b16"], 2, 1),
    ("V_OR_B16_t16", &["v_or_b16"], 2, 1),
    ("V_MOV_B16_t16", &["v_mov_b16"], 1, 1),
    // An immediate into a VGPR or AGPR, chosen by the allocator (`SIInstructions.td`
    // `AV_MOV_B32_IMM_PSEUDO`, expanded to `v_mov_b32` or `v_accvgpr_write_b32`): the same 32
    // bits either way, and `av_*` registers are VGPRs here (assumption 6 in docs/tv.md).
    ("AV_MOV_B32_IMM_PSEUDO", &["v_mov_b32"], 1, 0),
    ("S_MOV_B32", &["s_mov_b32"], 1, 0),
    ("V_LSHLREV_B32", &["v_lshlrev_b32"], 2, 0),
    ("V_LSHRREV_B32", &["v_lshrrev_b32"], 2, 0),
    ("V_ASHRREV_I32", &["v_ashrrev_i32"], 2, 0),
    // gfx8/gfx9 only (the lifter's `alu_lookup`): the high half is written 0 there.
    ("V_ASHRREV_I16", &["v_ashrrev_i16"], 2, 0),
    ("V_AND_B32", &["v_and_b32"], 2, 0),
    ("V_OR_B32", &["v_or_b32"], 2, 0),
    ("V_XOR_B32", &["v_xor_b32"], 2, 0),
    ("S_XOR_B32", &["s_xor_b32"], 2, 0),
    ("S_AND_B32", &["s_and_b32"], 2, 0),
    ("S_OR_B32", &["s_or_b32"], 2, 0),
    ("S_ADD_U32", &["s_add_u32"], 2, 0),
    ("S_ADD_I32", &["s_add_i32"], 2, 0),
    // SOPK forms (AMD Vega ISA guide: S_MOVK_I32 "D.i = signext(SIMM16)", S_ADDK_I32 "D.i =
    // D.i + signext(SIMM16); SCC = overflow", S_MULK_I32 "D.i = D.i * signext(SIMM16)"): MIR
    // prints SIMM16 sign-extended and ties D to its old value (llc-22 -stop-after=
    // si-shrink-instructions,1: `$sgpr2 = S_MULK_I32 killed $sgpr2, -300`), so they are the
    // SOP1/SOP2 op on the same operands; `emit.rs` refuses an immediate outside SIMM16.
    ("S_MOVK_I32", &["s_mov_b32"], 1, 0),
    ("S_ADDK_I32", &["s_add_i32"], 2, 0),
    ("S_MULK_I32", &["s_mul_i32"], 2, 0),
    // SCC (S0 < S1) is not modelled: read, it is `unsupported` (`scc.rs`).
    ("S_MIN_U32", &["s_min_u32"], 2, 0),
    ("S_LSHL_B32", &["s_lshl_b32"], 2, 0),
    ("S_LSHR_B32", &["s_lshr_b32"], 2, 0),
    ("S_ASHR_I32", &["s_ashr_i32"], 2, 0),
    ("S_LSHL1_ADD_U32", &["s_lshl1_add_u32"], 2, 0),
    ("S_LSHL2_ADD_U32", &["s_lshl2_add_u32"], 2, 0),
    ("S_LSHL3_ADD_U32", &["s_lshl3_add_u32"], 2, 0),
    ("S_LSHL4_ADD_U32", &["s_lshl4_add_u32"], 2, 0),
    ("V_ADD_U32", &["v_add_u32", "v_add_nc_u32"], 2, 1),
    ("V_SUB_U32", &["v_sub_u32", "v_sub_nc_u32"], 2, 1),
    ("V_SUBREV_U32", &["v_subrev_u32", "v_subrev_nc_u32"], 2, 1),
    (
        "V_ADD_CO_U32",
        &["v_add_co_u32", "v_add_u32", "v_add_i32"],
        2,
        1,
    ),
    (
        "V_SUB_CO_U32",
        &["v_sub_co_u32", "v_sub_u32", "v_sub_i32"],
        2,
        1,
    ),
    ("V_LSHL_ADD_U32", &["v_lshl_add_u32"], 3, 0),
    ("V_ADD3_U32", &["v_add3_u32"], 3, 0),
    ("V_MAD_U32_U24", &["v_mad_u32_u24"], 3, 1),
    // llc-22 -stop-after=finalize-isel (gfx900, gfx90a, gfx1100, gfx1200; 2026-12-05):
    // `V_MUL_U32_U24_e64 %a, %b, 0` (clamp), `V_MUL_HI_U32_U24_e64 %a, %b`, `V_MIN_U32_e64 %a,
    // %b`, `S_MUL_I32 %a, %b`, `S_FF1_I32_B32 %a`, `%d:vreg_64, %c:sreg_64 = V_MAD_U64_U32_e64
    // %a, %b, %c64, 0` (gfx11: `V_MAD_U64_U32_gfx11_e64`, early-clobber, the same operands).
    ("V_MUL_U32_U24", &["v_mul_u32_u24"], 2, 1),
    ("V_MUL_HI_U32_U24", &["v_mul_hi_u32_u24"], 2, 0),
    ("V_MIN_U32", &["v_min_u32"], 2, 0),
    ("V_MAX_U32", &["v_max_u32"], 2, 0),
    ("V_MIN_I32", &["v_min_i32"], 2, 0),
    ("V_MAX_I32", &["v_max_i32"], 2, 0),
    ("S_MUL_I32", &["s_mul_i32"], 2, 0),
    ("S_FF1_I32_B32", &["s_ff1_i32_b32"], 1, 0),
    // llc-22 -stop-after=finalize-isel (gfx900, gfx1200; 2026-12-05): `V_FFBH_U32_e64 %a`,
    // `V_FFBL_B32_e64 %a`, `V_BFE_I32_e64 %a, %off, %width`, `S_FLBIT_I32_B32 %a`,
    // `S_FLBIT_I32_B64 %a64` (no SCC def); the gfx11+ names are the RDNA3 spellings.
    ("V_FFBH_U32", &["v_ffbh_u32", "v_clz_i32_u32"], 1, 0),
    ("V_FFBL_B32", &["v_ffbl_b32", "v_ctz_i32_b32"], 1, 0),
    ("V_BFE_I32", &["v_bfe_i32"], 3, 0),
    // `V_BFREV_B32_e64 %a` (llc-22 -stop-after=finalize-isel, gfx900, 2026-12-05).
    ("V_BFREV_B32", &["v_bfrev_b32"], 1, 0),
    ("S_BREV_B32", &["s_brev_b32"], 1, 0),
    (
        "S_FLBIT_I32_B32",
        &["s_flbit_i32_b32", "s_clz_i32_u32"],
        1,
        0,
    ),
    (
        "S_FLBIT_I32_B64",
        &["s_flbit_i32_b64", "s_clz_i32_u64"],
        1,
        0,
    ),
    ("V_MAD_U64_U32", &["v_mad_u64_u32"], 3, 1),
    ("V_MAD_U64_U32_gfx11", &["v_mad_u64_u32"], 3, 1),
    (
        "V_SUBREV_CO_U32",
        &["v_subrev_co_u32", "v_subrev_u32", "v_subrev_i32"],
        2,
        1,
    ),
    ("V_CMP_EQ_U32", &["v_cmp_eq_u32"], 2, 0),
    // f32 compares: `V_CMP_GT_F32_e64 0, %a, 0, %b, 0` (modifiers, clamp; llc-22, 2026-12-05).
    ("V_CMP_LT_F32", &["v_cmp_lt_f32"], 2, 1),
    ("V_CMP_EQ_F32", &["v_cmp_eq_f32"], 2, 1),
    ("V_CMP_LE_F32", &["v_cmp_le_f32"], 2, 1),
    ("V_CMP_GT_F32", &["v_cmp_gt_f32"], 2, 1),
    ("V_CMP_LG_F32", &["v_cmp_lg_f32"], 2, 1),
    ("V_CMP_GE_F32", &["v_cmp_ge_f32"], 2, 1),
    ("V_CMP_O_F32", &["v_cmp_o_f32"], 2, 1),
    ("V_CMP_U_F32", &["v_cmp_u_f32"], 2, 1),
    ("V_CMP_NGE_F32", &["v_cmp_nge_f32"], 2, 1),
    ("V_CMP_NLG_F32", &["v_cmp_nlg_f32"], 2, 1),
    ("V_CMP_NGT_F32", &["v_cmp_ngt_f32"], 2, 1),
    ("V_CMP_NLE_F32", &["v_cmp_nle_f32"], 2, 1),
    ("V_CMP_NEQ_F32", &["v_cmp_neq_f32"], 2, 1),
    ("V_CMP_NLT_F32", &["v_cmp_nlt_f32"], 2, 1),
    ("V_CMP_NE_U32", &["v_cmp_ne_u32"], 2, 0),
    ("V_CMP_LT_U32", &["v_cmp_lt_u32"], 2, 0),
    ("V_CMP_LE_U32", &["v_cmp_le_u32"], 2, 0),
    ("V_CMP_GT_U32", &["v_cmp_gt_u32"], 2, 0),
    ("V_CMP_GE_U32", &["v_cmp_ge_u32"], 2, 0),
    ("V_CMP_LT_I32", &["v_cmp_lt_i32"], 2, 0),
    ("V_CMP_LE_I32", &["v_cmp_le_i32"], 2, 0),
    ("V_CMP_GT_I32", &["v_cmp_gt_i32"], 2, 0),
    ("V_CMP_GE_I32", &["v_cmp_ge_i32"], 2, 0),
    ("V_CNDMASK_B32", &["v_cndmask_b32"], 3, 0),
    ("V_LSHL_OR_B32", &["v_lshl_or_b32"], 3, 0),
    ("V_AND_OR_B32", &["v_and_or_b32"], 3, 0),
    ("V_BFE_U32", &["v_bfe_u32"], 3, 0),
    ("V_MUL_LO_U32", &["v_mul_lo_u32"], 2, 0),
    ("V_MBCNT_LO_U32_B32", &["v_mbcnt_lo_u32_b32"], 2, 0),
    ("V_MBCNT_HI_U32_B32", &["v_mbcnt_hi_u32_b32"], 2, 0),
    ("V_READFIRSTLANE_B32", &["v_readfirstlane_b32"], 1, 0),
    ("S_BCNT1_I32_B64", &["s_bcnt1_i32_b64"], 1, 0),
    ("S_FF1_I32_B64", &["s_ff1_i32_b64"], 1, 0),
    // 64-bit compares, shifts and adds (`VOPCInstructions.td`, `VOP3Instructions.td`,
    // `SOPInstructions.td`; operand orders as llc-22 -stop-after=finalize-isel prints them:
    // `V_CMP_LT_U64_e64 %a, %b`, `V_LSHLREV_B64_e64 %amount, %value`, gfx6 `V_LSHL_B64_e64
    // %value, %amount`, `V_LSHL_ADD_U64_e64 %a, 0, %b`, gfx1250 `V_ADD_U64_e64 %a, %b, 0`).
    ("V_CMP_EQ_U64", &["v_cmp_eq_u64"], 2, 0),
    ("V_CMP_NE_U64", &["v_cmp_ne_u64"], 2, 0),
    ("V_CMP_LT_U64", &["v_cmp_lt_u64"], 2, 0),
    ("V_CMP_LE_U64", &["v_cmp_le_u64"], 2, 0),
    ("V_CMP_GT_U64", &["v_cmp_gt_u64"], 2, 0),
    ("V_CMP_GE_U64", &["v_cmp_ge_u64"], 2, 0),
    ("V_CMP_EQ_I64", &["v_cmp_eq_i64"], 2, 0),
    ("V_CMP_NE_I64", &["v_cmp_ne_i64"], 2, 0),
    ("V_CMP_LT_I64", &["v_cmp_lt_i64"], 2, 0),
    ("V_CMP_LE_I64", &["v_cmp_le_i64"], 2, 0),
    ("V_CMP_GT_I64", &["v_cmp_gt_i64"], 2, 0),
    ("V_CMP_GE_I64", &["v_cmp_ge_i64"], 2, 0),
    ("V_LSHLREV_B64", &["v_lshlrev_b64"], 2, 0),
    // gfx12's MIR name for the same VOP3 shift (llc-22 -mcpu=gfx1200: `V_LSHLREV_B64_pseudo_e64
    // %amount, %value`; `SIInstrInfo` turns it into v_lshlrev_b64).
    ("V_LSHLREV_B64_pseudo", &["v_lshlrev_b64"], 2, 0),
    ("V_LSHL_B64", &["v_lshl_b64"], 2, 0),
    ("S_LSHL_B64", &["s_lshl_b64"], 2, 0),
    ("V_LSHL_ADD_U64", &["v_lshl_add_u64"], 3, 0),
    ("V_ADD_U64", &["v_add_nc_u64"], 2, 1),
    ("V_SUB_U64", &["v_sub_nc_u64"], 2, 1),
    // The pseudos (`SIInstructions.td`; `%d:vreg_64 = V_ADD_U64_PSEUDO %a, %b, implicit-def
    // dead $vcc`): the names are the low half's op of the carry-pair expansion.
    (
        "V_ADD_U64_PSEUDO",
        &["v_add_co_u32", "v_add_u32", "v_add_i32"],
        2,
        0,
    ),
    (
        "V_SUB_U64_PSEUDO",
        &["v_sub_co_u32", "v_sub_u32", "v_sub_i32"],
        2,
        0,
    ),
    // `_e64`: a modifier before each source, then clamp and omod (llc-22 -stop-after=finalize-isel:
    // `V_FMA_F32_e64 0, %a, 0, %b, 0, %c, 0, 0`).
    ("V_ADD_F32", &["v_add_f32"], 2, 2),
    ("V_MUL_F32", &["v_mul_f32"], 2, 2),
    ("V_FMA_F32", &["v_fma_f32"], 3, 2),
    // `D = S0 * S1 + D` fused (AMD RDNA3.5 guide, V_FMAC_F32: "D0.f32 = fma(S0.f32, S1.f32,
    // D0.f32)"): in SSA MIR the accumulator is `src2`, tied to the definition
    // (`V_FMAC_F32_e64 0, %a, 0, %b, 0, %c, 0, 0`; `_e32`: `%a, %b, %c`), so it is v_fma_f32
    // on those sources. Only where the target has v_fmac_f32 ([`super::fmac`]).
    ("V_FMAC_F32", &["v_fma_f32"], 3, 2),
    // gfx12 keeps LLVM's MIR name and encodes it as v_max_num_f32 (llc-22 -mcpu=gfx1200:
    // `V_MAX_F32_e64 0, %a, 0, %b, 0, 0`; llvm-mc-22 assembles `v_max_f32` as
    // `v_max_num_f32_e32` there), whose NaN rules differ (`alu.pcode`, V_MAX_NUM_F32).
    ("V_MAX_F32", &["v_max_f32", "v_max_num_f32"], 2, 2),
    ("V_MIN_F32", &["v_min_num_f32"], 2, 2),
    // VOP3P (no `_e64` suffix; llc-22: `V_PK_ADD_F16 8, %a, 8, %b, 0, 0, 0, 0, 0`): a modifier
    // before each source, then clamp, op_sel, op_sel_hi, neg_lo, neg_hi.
    ("V_PK_ADD_F16", &["v_pk_add_f16"], 2, 5),
    ("V_PK_MOV_B32", &["v_pk_mov_b32"], 2, 5),
    ("V_DOT2_F32_F16", &["v_dot2_f32_f16"], 3, 5),
    ("V_PK_ADD_F32", &["v_pk_add_f32"], 2, 5),
    ("V_PK_MUL_F32", &["v_pk_mul_f32"], 2, 5),
    ("V_PK_FMA_F32", &["v_pk_fma_f32"], 3, 5),
    ("V_PK_ADD_BF16", &["v_pk_add_bf16"], 2, 5),
    (
        "V_ADDC_U32",
        &["v_addc_u32", "v_addc_co_u32", "v_add_co_ci_u32"],
        3,
        1,
    ),
    (
        "V_SUBB_U32",
        &["v_subb_u32", "v_subb_co_u32", "v_sub_co_ci_u32"],
        3,
        1,
    ),
    (
        "V_SUBBREV_U32",
        &["v_subbrev_u32", "v_subbrev_co_u32", "v_subrev_co_ci_u32"],
        3,
        1,
    ),
];

/// The f32 ops: every `_e64` source has a modifier (neg/abs).
const FLOAT: &[&str] = &[
    "V_ADD_F32",
    "V_MUL_F32",
    "V_FMA_F32",
    "V_FMAC_F32",
    "V_MAX_F32",
    "V_MIN_F32",
];

/// The VOP3P ops: only one (VOP3P) form, with a modifier before every source.
const PACKED: &[&str] = &[
    "V_PK_ADD_F16",
    "V_PK_MOV_B32",
    "V_DOT2_F32_F16",
    "V_PK_ADD_F32",
    "V_PK_MUL_F32",
    "V_PK_FMA_F32",
    "V_PK_ADD_BF16",
];

/// Whether `opcode` is a modelled VOP3P op (its MIR name has no `_e64` suffix).
pub(super) fn packed(opcode: &str) -> bool {
    PACKED.contains(&opcode)
}

/// The ops with a carry-in mask as `src2` (and a carry-out).
const CARRY_IN: &[&str] = &["V_ADDC_U32", "V_SUBB_U32", "V_SUBBREV_U32"];

fn alu(target: Target, opcode: &str) -> Option<MirOp> {
    let (base, e64) = if let Some(b) = opcode.strip_suffix("_e64") {
        (b, true)
    } else if let Some(b) = opcode.strip_suffix("_e32") {
        (b, false)
    } else {
        (opcode, false)
    };
    let (_, names, srcs, trailing) = ALU.iter().find(|(n, ..)| *n == base)?;
    if base == "V_FMAC_F32" && !super::fmac::has_fmac(target) {
        return None;
    }
    let packed = PACKED.contains(&base);
    let e64 = e64 || packed;
    let carry_in = CARRY_IN.contains(&base);
    let pseudo = base.ends_with("_U64_PSEUDO");
    let carry = base.contains("_CO_") || carry_in || pseudo || base.starts_with("V_MAD_U64_U32");
    let (mnemonic, def) = names.iter().find_map(|m| {
        let d = alu_lookup(target, m).filter(|d| d.sdst == carry && d.srcs == *srcs)?;
        Some((*m, d))
    })?;
    let cnd = base == "V_CNDMASK_B32";
    // VOPC, v_cndmask and carry-in `_e32` forms read or write vcc implicitly
    // (`VOPCInstructions.td` `VOPC_Pseudo`: `Defs = [VCC]`; `VOP2Instructions.td` V_CNDMASK_B32
    // and `VOP2bInst`: `Uses = [VCC]`): the same op with `vcc` as the mask operand, as llvm-mc
    // prints the `_e32` form (`v_cndmask_b32_e32 v0, v1, v2, vcc`, `v_cmp_eq_u32_e32 vcc, v0, v1`).
    let cmp = base.starts_with("V_CMP");
    let fcmp = cmp && base.ends_with("_F32");
    let vcc_in = !e64 && (cnd || carry_in);
    Some(MirOp::Alu {
        mnemonic,
        srcs: *srcs,
        sdst: carry,
        trailing: if e64 { *trailing } else { 0 },
        vop: if e64 { def.mods } else { AluMods::None },
        mods: match (
            e64,
            cnd,
            FLOAT.contains(&base) || packed || base.ends_with("_t16") || fcmp,
        ) {
            (true, true, _) => 2,
            (true, _, true) => *srcs,
            _ => 0,
        },
        wide: if pseudo { 0b11 } else { def.wide_srcs },
        pseudo,
        mask: cnd || carry_in,
        vcc: (carry || cmp) && !e64,
        vcc_in,
        vcc_dst: cmp && !e64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcnsmt_testkit::assert_cases;

    fn mn(t: Target, op: &str) -> Option<&'static str> {
        match lookup(t, op)? {
            MirOp::Ds { mnemonic, .. }
            | MirOp::Mubuf { mnemonic, .. }
            | MirOp::Smem { mnemonic, .. }
            | MirOp::Alu { mnemonic, .. } => Some(mnemonic),
            MirOp::Sdwa(s) => Some(s.mnemonic),
            MirOp::Global { .. } | MirOp::Flat { .. } => None,
        }
    }

    /// A `lookup` in short: the mnemonic, then `saddr` (GLOBAL's `_SADDR` form), the SMEM form
    /// or the FLAT access size in bytes; `-` if the target has no such op.
    fn form(t: Target, op: &str) -> String {
        match lookup(t, op) {
            Some(MirOp::Global {
                mnemonic, saddr, ..
            }) => format!("{mnemonic}{}", if saddr { " saddr" } else { "" }),
            Some(MirOp::Smem { mnemonic, form }) => format!("{mnemonic} {form:?}"),
            Some(MirOp::Flat { mnemonic, op }) => format!("{mnemonic} {}", op.bytes),
            _ => mn(t, op).unwrap_or("-").into(),
        }
    }

    #[test]
    fn names_and_forms_per_generation() {
        #[rustfmt::skip] // one case a line
        let cases = [
            // FLATInstructions.td / SMInstructions.td names as llc-22 prints them (tests/data/tv).
            (Target::Gfx900, "GLOBAL_LOAD_DWORD_SADDR", "global_load_dword saddr"),
            (Target::Gfx1100, "GLOBAL_STORE_DWORDX2", "global_store_b64"),
            // S_LOAD_DWORDX3 exists from gfx12 on, spelled s_load_b96 only (llvm-mc-22).
            (Target::Gfx1200, "S_LOAD_DWORDX3_IMM", "s_load_b96"),
            (Target::Gfx1100, "S_LOAD_DWORDX3_IMM", "-"),
            (Target::Gfx900, "S_LOAD_DWORDX2_IMM_ec", "s_load_dwordx2"),
            (Target::Gfx600, "S_LOAD_DWORD_IMM", "s_load_dword"),
            // No GLOBAL on gfx8 (FLAT only); register-offset scalar loads are not modelled.
            (Target::Gfx802, "GLOBAL_LOAD_DWORD", "-"),
            (Target::Gfx900, "S_LOAD_DWORD_SGPR", "-"),
            // SMInstructions.td forms as llc-22 prints them (tests/data/tv/smem_merge.ll, gen/).
            (Target::Gfx900, "S_BUFFER_LOAD_DWORDX2_IMM_ec", "s_buffer_load_dwordx2 Imm"),
            (Target::Gfx1100, "S_BUFFER_LOAD_DWORD_SGPR_IMM", "s_buffer_load_b32 SgprImm"),
            (Target::Gfx802, "S_BUFFER_LOAD_DWORDX4_SGPR", "s_buffer_load_dwordx4 Sgpr"),
            (Target::Gfx1200, "S_BUFFER_LOAD_DWORDX3_IMM", "s_buffer_load_b96 Imm"),
            (Target::Gfx1100, "S_BUFFER_LOAD_DWORDX3_IMM", "-"),
            (Target::Gfx700, "S_BUFFER_LOAD_DWORD_IMM_ci", "-"),
            // FLATInstructions.td names as llc-22 prints them on gfx802 (tests/data/tv/gen),
            // spelled as llvm-mc-22 accepts them per generation.
            (Target::Gfx802, "FLAT_LOAD_DWORD", "flat_load_dword 4"),
            (Target::Gfx802, "FLAT_STORE_DWORDX2", "flat_store_dwordx2 8"),
            (Target::Gfx1100, "FLAT_LOAD_UBYTE", "flat_load_u8 1"),
            (Target::Gfx600, "FLAT_LOAD_DWORD", "-"),
            (Target::Gfx900, "FLAT_LOAD_DWORD_SADDR", "-"),
            (Target::Gfx900, "FLAT_ATOMIC_ADD", "-"),
            // Expected names: llvm-mc-22's spelling per generation (proofs/README.md, AMD ISA
            // guides: gfx11 renamed ds_read*/ds_write* to ds_load*/ds_store* and dword to b32).
            (Target::Gfx900, "DS_READ2_B32_gfx9", "ds_read2_b32"),
            (Target::Gfx802, "DS_READ2_B32", "ds_read2_b32"),
            (Target::Gfx1100, "DS_READ2ST64_B64_gfx9", "ds_load_2addr_stride64_b64"),
            (Target::Gfx1100, "DS_WRITE_B32_gfx9", "ds_store_b32"),
            (Target::Gfx900, "DS_ADD_RTN_U32_gfx9", "ds_add_rtn_u32"),
            (Target::Gfx900, "DS_ADD_U32_gfx9", "ds_add_u32"),
            (Target::Gfx900, "DS_NOT_AN_OP", "-"),
            (Target::Gfx1100, "BUFFER_LOAD_DWORD_OFFEN", "buffer_load_b32"),
            (Target::Gfx1200, "BUFFER_LOAD_DWORDX4_VBUFFER_IDXEN", "buffer_load_b128"),
            (Target::Gfx600, "BUFFER_LOAD_DWORD_ADDR64", "buffer_load_dword"),
            (Target::Gfx900, "V_ADD_U32_e64", "v_add_u32"),
            (Target::Gfx1030, "V_ADD_U32_e64", "v_add_nc_u32"),
            (Target::Gfx802, "V_ADD_U32_e64", "-"), // gfx8 has only the carry form
            (Target::Gfx802, "V_ADD_CO_U32_e64", "v_add_u32"),
            (Target::Gfx600, "V_ADD_CO_U32_e64", "v_add_i32"),
            (Target::Gfx900, "V_LSHLREV_B32_e32", "v_lshlrev_b32"),
            (Target::Gfx900, "V_MUL_LO_U32_e64", "v_mul_lo_u32"),
            (Target::Gfx90a, "AV_MOV_B32_IMM_PSEUDO", "v_mov_b32"),
            // One MIR name per carry-in op (VOP2Instructions.td V_ADDC_U32), spelled per
            // generation as llvm-mc-22 accepts it.
            (Target::Gfx900, "V_ADDC_U32_e64", "v_addc_co_u32"),
            (Target::Gfx1030, "V_ADDC_U32_e64", "v_add_co_ci_u32"),
            (Target::Gfx600, "V_SUBB_U32_e64", "v_subb_u32"),
            (Target::Gfx1100, "V_SUBBREV_U32_e64", "v_subrev_co_ci_u32"),
            // 64-bit ops (llc-22 MIR names; llvm-mc-22 acceptance per target, observed
            // 2026-12): v_lshl_b64 gfx6/7 only, v_lshlrev_b64 gfx8+, v_lshl_add_u64 gfx942,
            // gfx950, gfx1250, v_add_nc_u64 gfx1250 only; VOPC `_e32` writes vcc implicitly
            // (llvm-mc-22 on gfx900: `v_cmp_lt_u64_e32 vcc, v[0:1], v[2:3]`).
            (Target::Gfx600, "V_LSHL_B64_e64", "v_lshl_b64"),
            (Target::Gfx600, "V_LSHLREV_B64_e64", "-"),
            (Target::Gfx900, "V_LSHLREV_B64_e64", "v_lshlrev_b64"),
            (Target::Gfx900, "V_LSHL_ADD_U64_e64", "-"),
            (Target::Gfx942, "V_LSHL_ADD_U64_e64", "v_lshl_add_u64"),
            (Target::Gfx1250, "V_ADD_U64_e64", "v_add_nc_u64"),
            (Target::Gfx1200, "V_ADD_U64_e64", "-"),
            (Target::Gfx1030, "V_CMP_LT_I64_e64", "v_cmp_lt_i64"),
            (Target::Gfx900, "V_CMP_LT_U64_e32", "v_cmp_lt_u64"),
            (Target::Gfx802, "S_LSHL_B64", "s_lshl_b64"),
            (Target::Gfx900, "V_ADD_U64_PSEUDO", "v_add_co_u32"),
            (Target::Gfx600, "V_SUB_U64_PSEUDO", "v_sub_i32"),
        ];
        assert_cases(form, &cases);
    }

    #[test]
    fn ds_m0_reads() {
        assert!(ds_reads_m0("DS_READ_B32"));
        assert!(!ds_reads_m0("DS_READ_B32_gfx9"));
    }

    #[test]
    fn mubuf_forms() {
        let Some(MirOp::Mubuf {
            mnemonic,
            addr,
            lds,
            rtn,
            ..
        }) = lookup(Target::Gfx900, "BUFFER_STORE_DWORDX2_OFFSET_exact")
        else {
            panic!("not found")
        };
        assert_eq!(
            (mnemonic, addr, lds, rtn),
            ("buffer_store_dwordx2", AddrKind::Offset, false, false)
        );
        let Some(MirOp::Mubuf { lds, .. }) = lookup(Target::Gfx900, "BUFFER_LOAD_DWORD_LDS_OFFEN")
        else {
            panic!("lds form")
        };
        assert!(lds);
        assert!(lookup(Target::Gfx900, "BUFFER_LOAD_DWORD_TFE_OFFEN").is_none());
    }

    // One MIR name per op (VOP2Instructions.td V_ADDC_U32), spelled per generation as
    // llvm-mc-22 accepts it; llc-22 emits only the `_e64` form before register allocation.
    #[test]
    fn carry_in_forms() {
        let f = |t, op| match lookup(t, op) {
            Some(MirOp::Alu {
                mnemonic,
                srcs,
                sdst,
                trailing,
                mask,
                ..
            }) => Some((mnemonic, srcs, sdst, trailing, mask)),
            _ => None,
        };
        assert_eq!(
            f(Target::Gfx802, "V_ADDC_U32_e64"),
            Some(("v_addc_u32", 3, true, 1, true))
        );
        // Their names per generation are in names_per_generation.
        // The `_e32` form reads and writes vcc implicitly (llvm-mc-22 on gfx900:
        // `v_addc_co_u32_e32 v0, vcc, v1, v2, vcc`): no clamp operand, the mask is vcc.
        assert_eq!(
            f(Target::Gfx900, "V_ADDC_U32_e32"),
            Some(("v_addc_co_u32", 3, true, 0, true))
        );
    }
}
