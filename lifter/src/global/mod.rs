//! The global family: GLOBAL loads and stores (gfx9 on) and scalar loads (`s_load_*`), the
//! accesses to global memory that real blocks mix with DS and buffer code.
//!
//! Syntax and ranges as llvm-mc 22 accepts them (probed 2026-12 with `llvm-mc-22
//! -show-encoding`): `global_load_dword vdst, vaddr, saddr|off [offset:N]`,
//! `global_store_dword vaddr, vdata, saddr|off [offset:N]`, `s_load_dword sdst, sbase, OFFSET`;
//! the gfx11 names (`global_load_b32`, `s_load_b32`) from gfx11 on, where the older names stay
//! accepted as aliases. Offsets are signed bytes: GLOBAL 13 bits on gfx9/CDNA/gfx11, 12 bits on
//! gfx10, 24 bits on gfx12/gfx1250; SMEM 8 bits of dwords on gfx6/gfx7, 20 bits unsigned on gfx8,
//! 21 bits signed on gfx9-gfx11, 24 bits signed on gfx12/gfx1250. Cache-policy modifiers,
//! SGPR offsets of scalar loads and the 256/512-bit scalar loads are not modelled: such lines
//! are errors here, never part of a proof. Encoding is not provided for this family yet.

pub(crate) mod parse;

pub use parse::parse_global_with;

use gcnsmt_semantics::target::{Gen, Target};

use crate::inst::RegTuple;

/// What a global-family instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalKind {
    /// `global_load_*`: VGPRs from global memory.
    Load,
    /// `global_store_*`: VGPRs to global memory.
    Store,
    /// `s_load_*`: SGPRs from global memory (dword aligned).
    ScalarLoad,
}

/// One global-family opcode: kind and access size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalOp {
    /// Load, store or scalar load.
    pub kind: GlobalKind,
    /// Bytes accessed (1, 2, 4, 8, 12 or 16).
    pub bytes: u8,
}

impl GlobalOp {
    /// Registers of the data operand (vdst, vdata or sdst): one per started dword.
    pub fn dwords(self) -> u8 {
        self.bytes.div_ceil(4)
    }
}

/// (pre-gfx11 name, gfx11 name, kind, bytes).
const OPS: &[(&str, &str, GlobalKind, u8)] = &[
    ("global_load_ubyte", "global_load_u8", GlobalKind::Load, 1),
    ("global_load_sbyte", "global_load_i8", GlobalKind::Load, 1),
    ("global_load_ushort", "global_load_u16", GlobalKind::Load, 2),
    ("global_load_sshort", "global_load_i16", GlobalKind::Load, 2),
    ("global_load_dword", "global_load_b32", GlobalKind::Load, 4),
    (
        "global_load_dwordx2",
        "global_load_b64",
        GlobalKind::Load,
        8,
    ),
    (
        "global_load_dwordx3",
        "global_load_b96",
        GlobalKind::Load,
        12,
    ),
    (
        "global_load_dwordx4",
        "global_load_b128",
        GlobalKind::Load,
        16,
    ),
    ("global_store_byte", "global_store_b8", GlobalKind::Store, 1),
    (
        "global_store_short",
        "global_store_b16",
        GlobalKind::Store,
        2,
    ),
    (
        "global_store_dword",
        "global_store_b32",
        GlobalKind::Store,
        4,
    ),
    (
        "global_store_dwordx2",
        "global_store_b64",
        GlobalKind::Store,
        8,
    ),
    (
        "global_store_dwordx3",
        "global_store_b96",
        GlobalKind::Store,
        12,
    ),
    (
        "global_store_dwordx4",
        "global_store_b128",
        GlobalKind::Store,
        16,
    ),
    ("s_load_dword", "s_load_b32", GlobalKind::ScalarLoad, 4),
    ("s_load_dwordx2", "s_load_b64", GlobalKind::ScalarLoad, 8),
    ("s_load_dwordx4", "s_load_b128", GlobalKind::ScalarLoad, 16),
    // Eight SGPRs (a V# and its sampler, or eight kernel arguments), every generation
    // (llvm-mc-22 takes s_load_dwordx8, and s_load_b256 from gfx11 on).
    ("s_load_dwordx8", "s_load_b256", GlobalKind::ScalarLoad, 32),
    // gfx12 on only, and only under its new name (llvm-mc-22 has no `s_load_dwordx3`); the
    // old name is LLVM's MIR opcode (`S_LOAD_DWORDX3_IMM`).
    ("s_load_dwordx3", "s_load_b96", GlobalKind::ScalarLoad, 12),
];

/// The GLOBAL loads and stores as (pre-gfx11 name, gfx11 name, kind, bytes): the FLAT family
/// has the same ops under `flat_` names.
pub(crate) fn vector_ops() -> impl Iterator<Item = (&'static str, &'static str, GlobalKind, u8)> {
    OPS.iter()
        .copied()
        .filter(|(_, _, k, _)| *k != GlobalKind::ScalarLoad)
}

/// Whether llvm-mc 22 knows the op on `target` under its old and its new name.
fn spellings(target: Target, old: &str) -> (bool, bool) {
    let g = target.gen();
    if old == "s_load_dwordx3" {
        return (false, g >= Gen::Gfx12);
    }
    let exists = !old.starts_with("global_") || g >= Gen::Gfx9;
    // From gfx11 the older names stay accepted as aliases (probed with llvm-mc-22).
    (exists, exists && g >= Gen::Gfx11)
}

/// Look up a global-family mnemonic on a target: the opcode and the semantics entry name
/// (upper case, as `semantics/pcode/global.pcode` lists it). `None` if the target lacks it
/// (GLOBAL before gfx9; the gfx11 names before gfx11).
pub fn global_lookup(target: Target, mnemonic: &str) -> Option<(GlobalOp, String)> {
    renamed_lookup(OPS, mnemonic, |old| spellings(target, old))
}

/// The op `mnemonic` names in a rename table (older name, gfx11 name, kind, bytes), if the
/// spelling used is one the target has (`ok(old)` gives whether the older and the gfx11 names
/// exist there), with the semantics entry: the gfx11 name in upper case, as the pcode files
/// list every entry. Shared by the GLOBAL/SMEM and FLAT tables.
pub(crate) fn renamed_lookup(
    ops: &[(&str, &str, GlobalKind, u8)],
    mnemonic: &str,
    ok: impl FnOnce(&str) -> (bool, bool),
) -> Option<(GlobalOp, String)> {
    let (old, new, kind, bytes) = ops
        .iter()
        .find(|(old, new, _, _)| *old == mnemonic || *new == mnemonic)?;
    let (old_ok, new_ok) = ok(old);
    if (mnemonic == *old && !old_ok) || (mnemonic == *new && !new_ok) {
        return None;
    }
    let op = GlobalOp {
        kind: *kind,
        bytes: *bytes,
    };
    Some((op, new.to_ascii_uppercase()))
}

/// The target's own spelling of an op named by either generation's name or by LLVM's MIR
/// opcode base (`s_load_dwordx3` for `S_LOAD_DWORDX3_IMM`): the gfx11 name from gfx11 on, the
/// older one before. `None` where the target lacks the op.
pub fn global_spelling(target: Target, name: &str) -> Option<&'static str> {
    let (old, new, _, _) = OPS.iter().find(|(o, n, _, _)| *o == name || *n == name)?;
    match spellings(target, old) {
        (_, true) => Some(new),
        (true, false) => Some(old),
        (false, false) => None,
    }
}

/// Whether some target has this mnemonic (to tell "unknown" from "not on this target").
pub fn is_global_mnemonic(mnemonic: &str) -> bool {
    OPS.iter()
        .any(|(o, n, _, _)| *o == mnemonic || *n == mnemonic)
}

/// The range of a GLOBAL instruction offset on `target`, bytes (signed).
pub fn global_offset_range(target: Target) -> (i64, i64) {
    match target.gen() {
        Gen::Gfx10 => (-2048, 2047),
        Gen::Gfx12 | Gen::Gfx1250 => (-(1 << 23), (1 << 23) - 1),
        _ => (-4096, 4095),
    }
}

/// The range of a scalar-load offset on `target`, and the unit in bytes (4 on gfx6/gfx7,
/// whose offset counts dwords).
pub fn smem_offset_range(target: Target) -> (i64, i64, i64) {
    match target.gen() {
        Gen::Gfx6 | Gen::Gfx7 => (0, 255, 4),
        Gen::Gfx8 => (0, 0xf_ffff, 1),
        Gen::Gfx12 | Gen::Gfx1250 => (-(1 << 23), (1 << 23) - 1, 1),
        _ => (-(1 << 20), (1 << 20) - 1, 1),
    }
}

/// The last SGPR number llvm-mc 22 accepts: s103 on gfx6/gfx7, s101 on gfx8/gfx9/CDNA, s105
/// from gfx10 on.
pub fn last_sgpr(target: Target) -> u16 {
    match target.gen() {
        Gen::Gfx6 | Gen::Gfx7 => 103,
        Gen::Gfx8 | Gen::Gfx9 | Gen::Gfx90a => 101,
        _ => 105,
    }
}

/// A run of SGPRs `s[first : first+count-1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sgprs {
    /// First SGPR number.
    pub first: u16,
    /// Number of SGPRs.
    pub count: u8,
}

/// One global-family instruction. Operand fields are `Some` exactly when the kind has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalInst {
    /// Target.
    pub target: Target,
    /// The mnemonic as written (either generation's name where both are accepted).
    pub mnemonic: String,
    /// The semantics entry (`GLOBAL_LOAD_DWORD`, ...).
    pub entry: String,
    /// Kind and size.
    pub op: GlobalOp,
    /// Load destination VGPRs.
    pub vdst: Option<RegTuple>,
    /// Address VGPRs: 2 (a 64-bit address) without saddr, 1 (a 32-bit offset) with it.
    pub vaddr: Option<RegTuple>,
    /// Store data VGPRs.
    pub vdata: Option<RegTuple>,
    /// GLOBAL base SGPR pair, `None` for `off`.
    pub saddr: Option<Sgprs>,
    /// Scalar load destination.
    pub sdst: Option<Sgprs>,
    /// Scalar load base pair.
    pub sbase: Option<Sgprs>,
    /// Byte offset (already scaled by 4 for gfx6/gfx7 scalar loads).
    pub offset: i64,
    /// gfx1250 `scale_offset` (GLOBAL with saddr only): the VGPR offset is scaled by the
    /// access size.
    pub scale_offset: bool,
}
