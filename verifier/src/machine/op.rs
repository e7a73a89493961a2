//! What a bound instruction is: [`Op`] (DS, ALU, buffer, cross-lane, per-lane) and [`Bound`].

use super::regkey::{RegKey, Src, VarUse};
use crate::rules::Loc;
use gcnsmt_lifter::lift::AluDef;
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_lifter::table::DsShape;
use gcnsmt_semantics::buffer::{BufferMode, VsharpLayout};
use gcnsmt_semantics::eval::MemView;
use gcnsmt_semantics::ir::{Def, Expr};
use gcnsmt_semantics::transpose::Transpose;

/// What a bound instruction does.
#[derive(Clone, Debug)]
pub enum Op {
    /// A per-lane DS instruction with a semantics entry (one of `semantics/pcode/ds_*.pcode`).
    Ds {
        /// Mnemonic as written in the rule, lower case (`ds_write_b32`).
        mnemonic: String,
        /// Its semantics entry, from [`gcnsmt_lifter::lift::ds_semantics`].
        def: &'static Def,
        /// The entry name the mnemonic selects in `def` (the mnemonic in upper case,
        /// `DS_WRITE_B32`).
        entry: String,
        /// The operand layout from the lifter's DS table: which operands exist and their widths.
        shape: DsShape,
        /// Destination VGPRs/AGPRs, one key per dword, low dword first (empty when the op returns
        /// nothing).
        vdst: Vec<RegKey>,
        /// The address VGPR (one dword: a byte address into LDS/GDS).
        addr: Vec<RegKey>,
        /// DATA0 registers, one key per dword, low dword first (empty when the op has no data0).
        data0: Vec<RegKey>,
        /// DATA1 registers, one key per dword (the second source of two-data ops such as
        /// `ds_write2_b32` and `ds_cmpst_b32`).
        data1: Vec<RegKey>,
        /// Immediate fields: `offset` (16 bits) or `offset0`/`offset1` (8 bits each).
        offset: Option<Expr>,
        /// The 8-bit `offset0` field of two-address ops, in units of the element size (or 64
        /// elements for the `st64` forms), as the ISA guide's `DS_WRITE2_B32` pseudocode scales it.
        offset0: Option<Expr>,
        /// The 8-bit `offset1` field, scaled like `offset0`.
        offset1: Option<Expr>,
        /// The `gds` flag: the op addresses GDS instead of LDS.
        gds: bool,
    },
    /// A VALU or SALU instruction of the subset in `semantics/pcode/alu.pcode`.
    Alu {
        /// Mnemonic as written in the rule.
        mnemonic: String,
        /// Its semantics entry (the `alu.pcode` entry named by `alu.entry`).
        def: &'static Def,
        /// Operand layout and entry for this target, from [`gcnsmt_lifter::lift::alu_lookup`].
        alu: AluDef,
        /// Destination registers (`D0`), one key per dword: VGPRs for VALU, an SGPR or `m0`
        /// for SALU, a wave-sized lane mask for the VOPC compares.
        d0: Vec<RegKey>,
        /// The carry/borrow-out SGPRs (`vcc`, `s[0:1]`), empty when the op has none.
        sdst: Vec<RegKey>,
        /// The sources `S0`, `S1`, ... in operand order (32 bits each; the last is a lane mask for
        /// `v_cndmask_b32`).
        srcs: Vec<Src>,
        /// VOP3/VOP3P modifiers ([`super::mods`]).
        mods: super::mods::SrcMods,
    },
    /// A MUBUF/VBUFFER load, store or atomic (see [`crate::machine::buffer`]).
    Buf(Box<BufOp>),
    /// A memory instruction bound by its family's frame (GLOBAL and scalar loads, see
    /// [`crate::machine::global`]).
    Mem(Box<MemOp>),
    /// A cross-lane DS instruction: it reads other lanes' registers, so it runs once for the
    /// whole wave and only under `--lanes N` (`lanes` is 0 until [`crate::lanes`] expands the
    /// rule). Semantics: `semantics/src/wave.rs`.
    Cross {
        /// Mnemonic as written in the rule.
        mnemonic: String,
        /// Which cross-lane op it is.
        kind: CrossKind,
        /// Destination VGPR of every lane (one dword; the keys are lane-free until expansion).
        vdst: Vec<RegKey>,
        /// The address VGPR: permute/bpermute take the lane index `((addr + offset) / 4) % wrap`
        /// from it (`semantics/src/wave.rs`); swizzle has none.
        addr: Vec<RegKey>,
        /// The DATA0 VGPR whose values are moved between lanes.
        data0: Vec<RegKey>,
        /// The 16-bit `offset` field, a constant (the swizzle mode depends on its bits).
        offset: u16,
        /// How many lanes the check has (`--lanes N`); 0 until the rule is expanded.
        lanes: u32,
        /// Transpose loads only: the free value each lane gets where a source lane is missing,
        /// one lane-free key per destination dword ([`RegKey::tr_fill`]); empty otherwise.
        fill: Vec<RegKey>,
    },
    /// One lane's run of a per-lane instruction under `--lanes N`: `inner`, whose vector
    /// registers are those of lane `lane`, runs with `LANE_ID = lane` when bit `lane` of
    /// `exec_lo` is set, and changes nothing otherwise.
    Lane {
        /// The lane (0..N) whose registers `inner` uses.
        lane: u32,
        /// The per-lane instruction (DS, ALU or buffer).
        inner: Box<Bound>,
    },
}

/// The cross-lane DS instructions rules can use (AMD ISA guides, `DS_SWIZZLE_B32`,
/// `DS_PERMUTE_B32`, `DS_BPERMUTE_B32`, `DS_BPERMUTE_FI_B32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossKind {
    /// `ds_swizzle_b32`: lanes exchange data in a pattern given by the offset bits.
    Swizzle,
    /// `ds_permute_b32`: each lane writes its data to the lane its address names (push).
    Permute,
    /// `ds_bpermute_b32`: each lane reads the data of the lane its address names (pull).
    Bpermute,
    /// `ds_bpermute_fi_b32` (gfx12): as `Bpermute`, reading the source lane whatever its EXEC
    /// bit (RDNA4 guide, DS_BPERMUTE_FI_B32).
    BpermuteFi,
    /// A transpose load (gfx950 `ds_read_b*_tr_b*`, gfx1250 `ds_load_tr*`): every lane reads
    /// LDS at its address and the wave exchanges elements (`semantics/src/transpose.rs`).
    Transpose(Transpose),
}

impl CrossKind {
    /// The kind of a cross-lane mnemonic, or `None`.
    pub fn of(mnemonic: &str) -> Option<CrossKind> {
        match mnemonic {
            "ds_swizzle_b32" => Some(CrossKind::Swizzle),
            "ds_permute_b32" => Some(CrossKind::Permute),
            "ds_bpermute_b32" => Some(CrossKind::Bpermute),
            "ds_bpermute_fi_b32" => Some(CrossKind::BpermuteFi),
            _ => Transpose::of(mnemonic).map(CrossKind::Transpose),
        }
    }
    /// The `gcnsmt_semantics::wave` function that gives its semantics.
    pub fn function(self) -> &'static str {
        match self {
            CrossKind::Swizzle => "swizzle_lanes",
            CrossKind::Permute => "permute_lanes",
            CrossKind::Bpermute => "bpermute_lanes",
            CrossKind::BpermuteFi => "bpermute_fi_lanes",
            CrossKind::Transpose(_) => "transpose_lanes",
        }
    }
}

/// An immediate field whose value must lie in `0..=max` for the instruction to exist.
#[derive(Clone, Debug)]
pub struct Field {
    /// The field name as the ISA guide spells it (`offset`, `offset0`, `offset1`, ...).
    pub name: &'static str,
    /// Its value: a constant or an expression over the rule's immediate variables.
    pub expr: Expr,
    /// The largest value the field holds (`0xffff` for a 16-bit field, `0xff` for 8 bits).
    pub max: u64,
    /// Where the field's value is written in the rules file.
    pub loc: Loc,
}

/// An instruction of a rule, bound to a target.
#[derive(Clone, Debug)]
pub struct Bound {
    /// What the instruction does, with its operands bound to registers.
    pub op: Op,
    /// Where the instruction's line starts in the rules file.
    pub loc: Loc,
    /// The instruction as written, trimmed (for messages and counterexamples).
    pub text: String,
    /// Its immediate fields, whose ranges the checker assumes or checks.
    pub fields: Vec<Field>,
    /// Register-variable uses, checked for one class and one width per variable.
    pub var_uses: Vec<VarUse>,
}

impl Bound {
    /// Registers this instruction writes.
    pub fn writes(&self) -> Vec<RegKey> {
        match &self.op {
            Op::Ds {
                vdst,
                addr,
                mnemonic,
                ..
            } => {
                let mut w = vdst.clone();
                if gcnsmt_lifter::table::writes_addr(mnemonic) {
                    w.extend(addr.iter().cloned());
                }
                w
            }
            Op::Cross { vdst, lanes, .. } => lane_keys(vdst, *lanes),
            Op::Lane { inner, .. } => inner.writes(),
            Op::Alu {
                d0, sdst, alu, def, ..
            } => {
                let mut w: Vec<RegKey> = d0.iter().chain(sdst).cloned().collect();
                if writes_scc(alu, def) {
                    w.push(RegKey::scc());
                }
                w
            }
            Op::Buf(b) => b.writes(),
            Op::Mem(o) => o.outputs.iter().flat_map(|(_, k)| k.clone()).collect(),
        }
    }
    /// Registers this instruction reads or writes.
    pub fn regs(&self) -> Vec<RegKey> {
        match &self.op {
            Op::Ds {
                vdst,
                addr,
                data0,
                data1,
                shape,
                ..
            } => {
                let mut v: Vec<RegKey> = vdst
                    .iter()
                    .chain(addr)
                    .chain(data0)
                    .chain(data1)
                    .cloned()
                    .collect();
                v.push(RegKey::m0());
                // A wave-level op reads the wave's EXEC (ds_append counts its bits).
                if shape.scope != gcnsmt_lifter::table::DsScope::Lane {
                    v.push(RegKey::exec_lo());
                    v.push(RegKey::exec_hi());
                }
                v
            }
            Op::Alu {
                d0,
                sdst,
                srcs,
                alu,
                def,
                ..
            } => {
                let mut v: Vec<RegKey> = d0.iter().chain(sdst).cloned().collect();
                if writes_scc(alu, def) {
                    v.push(RegKey::scc());
                }
                for s in srcs {
                    if let Src::Reg(r) = s {
                        v.extend(r.iter().cloned());
                    }
                }
                v
            }
            Op::Buf(b) => b.regs(),
            Op::Mem(o) => o.regs(),
            Op::Cross {
                vdst,
                addr,
                data0,
                lanes,
                kind,
                ..
            } => {
                let mut v = lane_keys(vdst, *lanes);
                v.extend(lane_keys(addr, *lanes));
                v.extend(lane_keys(data0, *lanes));
                v.push(RegKey::exec_lo());
                // A transpose's lane reads are DS loads, which may read M0's LDS bound.
                if matches!(kind, CrossKind::Transpose(_)) {
                    v.push(RegKey::m0());
                }
                v
            }
            Op::Lane { inner, .. } => {
                let mut v = inner.regs();
                v.push(RegKey::exec_lo());
                v
            }
        }
    }

    /// This instruction with every register key passed through `f` (lane renaming).
    pub fn map_regs(&self, f: &dyn Fn(&RegKey) -> RegKey) -> Bound {
        let m = |ks: &Vec<RegKey>| ks.iter().map(f).collect::<Vec<_>>();
        let op = match &self.op {
            Op::Ds { .. } => {
                let mut op = self.op.clone();
                if let Op::Ds {
                    vdst,
                    addr,
                    data0,
                    data1,
                    ..
                } = &mut op
                {
                    for keys in [vdst, addr, data0, data1] {
                        *keys = m(keys);
                    }
                }
                op
            }
            Op::Alu {
                mnemonic,
                def,
                alu,
                d0,
                sdst,
                srcs,
                mods,
            } => Op::Alu {
                mods: *mods,
                mnemonic: mnemonic.clone(),
                def,
                alu: *alu,
                d0: m(d0),
                sdst: m(sdst),
                srcs: srcs
                    .iter()
                    .map(|s| match s {
                        Src::Reg(r) => Src::Reg(m(r)),
                        Src::Imm(e) => Src::Imm(e.clone()),
                    })
                    .collect(),
            },
            Op::Buf(b) => Op::Buf(Box::new(b.map_regs(f))),
            Op::Mem(o) => Op::Mem(Box::new(o.map_regs(f))),
            Op::Cross { .. } => self.op.clone(),
            Op::Lane { lane, inner } => Op::Lane {
                lane: *lane,
                inner: Box::new(inner.map_regs(f)),
            },
        };
        Bound { op, ..self.clone() }
    }
}

/// Whether an ALU op writes SCC: a SALU op whose semantics entry assigns `SCC` (AMD's
/// pseudocode for S_AND_B32, S_ADD_U32, S_MIN_U32, ...; S_MOV_B32, S_MUL_I32, S_BREV_B32 and the
/// VALU ops write none).
pub fn writes_scc(alu: &AluDef, def: &Def) -> bool {
    alu.scalar && def.assigns("SCC")
}

/// Each key of `keys` in lanes `0..lanes` (the keys themselves when `lanes` is 0).
pub(crate) fn lane_keys(keys: &[RegKey], lanes: u32) -> Vec<RegKey> {
    if lanes == 0 {
        return keys.to_vec();
    }
    (0..lanes)
        .flat_map(|l| keys.iter().map(move |k| k.in_lane(l)))
        .collect()
}

/// A bound buffer instruction.
#[derive(Clone, Debug)]
pub struct BufOp {
    /// Mnemonic as written in the rule (`buffer_load_dword`).
    pub mnemonic: String,
    /// Its semantics entry (one of `semantics/pcode/buffer_*.pcode`).
    pub def: &'static Def,
    /// The entry name within `def` (the mnemonic in upper case).
    pub entry: String,
    /// Load, store, atomic or cache op, from the lifter's MUBUF table.
    pub class: MubufClass,
    /// The addressing bits (offen, idxen, addr64) and the target, which fixes the V# layout.
    pub mode: BufferMode,
    /// Atomics: whether VDATA receives the pre-op value (glc / sc0 / th:TH_ATOMIC_RETURN).
    pub returns: bool,
    /// Dwords of VDATA that an atomic returns (half of VDATA for cmpswap).
    pub return_dwords: u32,
    /// VDATA registers, one key per dword, low dword first: the destination of a load, the
    /// source of a store or atomic (and the destination of a returning atomic).
    pub vdata: Vec<RegKey>,
    /// VADDR registers: none, one (offen or idxen) or two (idxen+offen, or addr64's 64-bit
    /// address, low dword first).
    pub vaddr: Vec<RegKey>,
    /// The four SGPRs of the V#.
    pub srsrc: Vec<RegKey>,
    /// SOFFSET: an SGPR or an immediate, a byte offset added to the address.
    pub soffset: Src,
    /// The instruction offset (bytes).
    pub offset: Option<Expr>,
    /// The `lds` form (LDS DMA): the loaded dword goes to LDS at `M0[15:0] + OFFSET +
    /// LANE_ID * 4` instead of VDATA.
    pub lds: bool,
    /// `tbuffer_*`: the instruction's 7-bit FORMAT field (the V#'s format is not used).
    pub format: Option<u8>,
}

impl BufOp {
    pub(crate) fn writes(&self) -> Vec<RegKey> {
        match self.class {
            MubufClass::Load => self.vdata.clone(),
            MubufClass::Atomic if self.returns => {
                self.vdata[..self.return_dwords as usize].to_vec()
            }
            _ => Vec::new(),
        }
    }
    pub(crate) fn regs(&self) -> Vec<RegKey> {
        let mut v: Vec<RegKey> = if self.lds {
            vec![RegKey::m0()]
        } else {
            Vec::new()
        };
        v.extend(
            self.vdata
                .iter()
                .chain(&self.vaddr)
                .chain(&self.srsrc)
                .cloned(),
        );
        if let Src::Reg(r) = &self.soffset {
            v.extend(r.iter().cloned());
        }
        v
    }
    /// This instruction with every register key passed through `f`.
    pub(crate) fn map_regs(&self, f: &dyn Fn(&RegKey) -> RegKey) -> BufOp {
        let m = |ks: &Vec<RegKey>| ks.iter().map(f).collect::<Vec<_>>();
        BufOp {
            vdata: m(&self.vdata),
            vaddr: m(&self.vaddr),
            srsrc: m(&self.srsrc),
            soffset: match &self.soffset {
                Src::Reg(r) => Src::Reg(m(r)),
                Src::Imm(e) => Src::Imm(e.clone()),
            },
            ..self.clone()
        }
    }
}

/// A pseudocode input of a [`MemOp`].
#[derive(Clone, Debug)]
pub enum MemIn {
    /// Registers, read as one value of 32 bits per key.
    Regs(Vec<RegKey>),
    /// A constant zero of this many bits (an absent operand: `off`).
    Zero(u32),
    /// An immediate, as a signed 32-bit value (offsets of the global family).
    Signed(Expr),
    /// gfx1250's GLOBAL `_SADDR` VGPR offset: the 32-bit register sign-extended to 64 bits
    /// and multiplied by the scale (the access size under `scale_offset`, else 1); see
    /// [`super::global`].
    GvsOffset(Vec<RegKey>, u8),
    /// A 64-bit value decoded from the V# in these four registers (scalar buffer loads; see
    /// [`super::smem::vsharp_input`]).
    Vsharp(Vec<RegKey>, VsharpLayout, VsharpPart),
    /// These registers' value with its two low bits cleared (gfx12 scalar loads' SBASE: the
    /// RDNA4 guide forces the base address to dword alignment).
    DwordAligned(Vec<RegKey>),
}

/// What a [`MemIn::Vsharp`] input decodes from the V#.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VsharpPart {
    /// The base address, zero-extended to 64 bits.
    Base,
    /// The base address with its two low bits cleared (gfx12: "The base address is forced to
    /// DWORD alignment", RDNA4 guide 8.4.1).
    DwordBase,
    /// The size in bytes the scalar range check uses, `(stride == 0 ? 1 : stride) *
    /// num_records`.
    Size,
}

/// A memory instruction as its frame: the semantics entry, each pseudocode variable bound to
/// registers or an immediate, and the registers each output variable is written to. Which
/// operand is which variable comes from the lifter's operand roles
/// ([`gcnsmt_lifter::Role::pcode_var`]), not from the mnemonic.
#[derive(Clone, Debug)]
pub struct MemOp {
    /// Mnemonic as written.
    pub mnemonic: String,
    /// Semantics entry and its name.
    pub def: &'static Def,
    /// The entry name within `def`, as the lifter's GLOBAL/SMEM instruction gives it
    /// (`GLOBAL_LOAD_DWORD`).
    pub entry: String,
    /// Inputs by pseudocode variable name.
    pub inputs: Vec<(&'static str, MemIn)>,
    /// Outputs: pseudocode variable and the registers it is written to (low dwords first).
    pub outputs: Vec<(&'static str, Vec<RegKey>)>,
    /// The memory MEM names: global memory at a 64-bit address for GLOBAL and scalar loads.
    pub mem: MemView,
    /// Whether the instruction writes memory (stores): its lanes' order matters.
    pub writes_memory: bool,
    /// Scalar: runs once per wave (scalar loads).
    pub scalar: bool,
}

impl MemOp {
    pub(crate) fn regs(&self) -> Vec<RegKey> {
        let mut v: Vec<RegKey> = self
            .inputs
            .iter()
            .filter_map(|(_, i)| match i {
                MemIn::Regs(k)
                | MemIn::Vsharp(k, ..)
                | MemIn::GvsOffset(k, _)
                | MemIn::DwordAligned(k) => Some(k.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        v.extend(self.outputs.iter().flat_map(|(_, k)| k.clone()));
        v
    }

    pub(crate) fn map_regs(&self, f: &dyn Fn(&RegKey) -> RegKey) -> MemOp {
        let m = |ks: &Vec<RegKey>| ks.iter().map(f).collect::<Vec<_>>();
        MemOp {
            inputs: self
                .inputs
                .iter()
                .map(|(n, i)| {
                    let i = match i {
                        MemIn::Regs(k) => MemIn::Regs(m(k)),
                        MemIn::Vsharp(k, l, p) => MemIn::Vsharp(m(k), *l, *p),
                        MemIn::GvsOffset(k, s) => MemIn::GvsOffset(m(k), *s),
                        MemIn::DwordAligned(k) => MemIn::DwordAligned(m(k)),
                        other => other.clone(),
                    };
                    (*n, i)
                })
                .collect(),
            outputs: self.outputs.iter().map(|(n, k)| (*n, m(k))).collect(),
            ..self.clone()
        }
    }
}
