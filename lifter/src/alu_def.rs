//! The operand layout of a VALU/SALU op gcnsmt knows ([`AluDef`]), shared by the lookups
//! of `lift.rs` and `lift_int.rs`.

/// A VALU/SALU instruction gcnsmt knows: operand layout and semantics entry for one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluDef {
    /// The semantics entry (`alu.pcode`).
    pub entry: &'static str,
    /// Whether a carry/borrow-out SGPR operand (`vcc`, `vcc_lo`, `s[0:1]`) follows the destination.
    pub sdst: bool,
    /// Number of sources (S0, S1).
    pub srcs: u8,
    /// Scalar (SALU): destination is an SGPR or m0.
    pub scalar: bool,
    /// The destination is a wave-sized lane mask (`vcc`, `s[0:1]`; `vcc_lo`, `sN` on wave32):
    /// the VOPC compares.
    pub dmask: bool,
    /// The last source is a wave-sized lane mask (`v_cndmask_b32`'s `vcc` / `s[0:1]`, the
    /// carry-in of `v_addc_u32` and its kin).
    pub smask: bool,
    /// Which sources are 64-bit register pairs (bit `i` for source `i`): `s_bcnt1_i32_b64`'s
    /// S0, both sources of the 64-bit compares, the value of the 64-bit shifts, S0 and S2 of
    /// `v_lshl_add_u64`. The others are one dword.
    pub wide_srcs: u8,
    /// The destination is a 64-bit register pair (the 64-bit shifts and adds).
    pub wide_dst: bool,
    /// A VALU result written to an SGPR (`v_readfirstlane_b32`): a cross-lane read, so only a
    /// single-lane check models it.
    pub to_sgpr: bool,
    /// The VOP3/VOP3P modifiers the op takes in rule assembly (none for the integer ops).
    pub mods: AluMods,
}

/// The source and output modifiers a VALU op accepts, as llvm-mc-22 spells them (AMDGPU
/// operand syntax: `-v1`, `|v1|`, `-|v1|`, `clamp`, `op_sel:[0,1]`, `op_sel_hi:[1,1]`,
/// `neg_lo:[1,0]`, `neg_hi:[0,1]`). Output multipliers (`mul:2`, `div:2`) are not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluMods {
    /// None: integer and bit ops.
    None,
    /// VOP3 f32 ops: `neg` and `abs` per source, `clamp` on the result.
    Float32,
    /// VOP3P packed f16 ops: `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi` per source, `clamp`.
    Packed16,
    /// `v_pk_mov_b32`: `op_sel` picks each source's dword (`op_sel_hi` is not read).
    PackedMov,
    /// VOP3P packed f32 ops (`v_pk_add_f32`, 64-bit sources and result): `op_sel` picks the
    /// dword each source gives the low lane, `op_sel_hi` the high lane's, `neg_lo`/`neg_hi`
    /// negate a lane's f32; no `clamp` here (not modelled).
    Packed32,
    /// The gfx11+ VOP3 16-bit integer ops on register halves: `op_sel:[s0,..,dst]` picks each
    /// source's half and the destination's half (the other half is kept).
    True16,
    /// The no-carry 32-bit integer add and subtract: `clamp` saturates to the unsigned range
    /// (AMD CDNA4 guide, V_ADD_U32 / V_SUB_U32: "Supports saturation (unsigned 32-bit integer
    /// domain)"; LLVM selects `uaddsat`/`usubsat` as `V_ADD_U32_e64`/`V_SUB_U32_e64` with
    /// clamp set).
    SatU32,
}

/// A plain one-dword VALU op without modifiers: the form every other entry changes.
pub(crate) fn plain_valu(entry: &'static str, srcs: u8) -> AluDef {
    AluDef {
        entry,
        sdst: false,
        srcs,
        scalar: false,
        dmask: false,
        smask: false,
        wide_srcs: 0,
        wide_dst: false,
        to_sgpr: false,
        mods: AluMods::None,
    }
}
