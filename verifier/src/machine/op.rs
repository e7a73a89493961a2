//! What a bound instruction is: [`Op`] (DS, ALU, buffer, cross-lane, per-lane) and [`Bound`].

use super::regkey::{RegKey, Src, VarUse};
use crate::rules::Loc;
use gcnsmt_lifter::lift::AluDef;
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_lifter::table::DsShape;
use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::ir::{Def, Expr};

/// What a bound instruction does.
#[derive(Clone, Debug)]
pub enum Op {
    Ds {
        mnemonic: String,
        def: &'static Def,
        entry: String,
        shape: DsShape,
        vdst: Vec<RegKey>,
        addr: Vec<RegKey>,
        data0: Vec<RegKey>,
        data1: Vec<RegKey>,
        /// Immediate fields: `offset` (16 bits) or `offset0`/`offset1` (8 bits each).
        offset: Option<Expr>,
        offset0: Option<Expr>,
        offset1: Option<Expr>,
        gds: bool,
    },
    Alu {
        mnemonic: String,
        def: &'static Def,
        alu: AluDef,
        d0: Vec<RegKey>,
        sdst: Vec<RegKey>,
        srcs: Vec<Src>,
    },
    /// A MUBUF/VBUFFER load, store or atomic (see [`crate::buffer_ops`]).
    Buf(Box<BufOp>),
    /// A memory instruction bound by its family's frame (GLOBAL and scalar loads, see
    /// [`crate::machine::global`]).
    Mem(Box<MemOp>),
    /// A cross-lane DS instruction: it reads other lanes' registers, so it runs once for the
    /// whole wave and only under `--lanes N` (`lanes` is 0 until [`crate::lanes`] expands the
    /// rule). Semantics: `semantics/src/wave.rs`.
    Cross {
        mnemonic: String,
        kind: CrossKind,
        vdst: Vec<RegKey>,
        addr: Vec<RegKey>,
        data0: Vec<RegKey>,
        /// The 16-bit `offset` field, a constant (the swizzle mode depends on its bits).
        offset: u16,
        lanes: u32,
    },
    /// One lane's run of a per-lane instruction under `--lanes N`: `inner`, whose vector
    /// registers are those of lane `lane`, runs with `LANE_ID = lane` when bit `lane` of
    /// `exec_lo` is set, and changes nothing otherwise.
    Lane { lane: u32, inner: Box<Bound> },
}

/// The cross-lane DS instructions rules can use (AMD ISA guides, `DS_SWIZZLE_B32`,
/// `DS_PERMUTE_B32`, `DS_BPERMUTE_B32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossKind {
    Swizzle,
    Permute,
    Bpermute,
}

impl CrossKind {
    /// The kind of a cross-lane mnemonic, or `None`.
    pub fn of(mnemonic: &str) -> Option<CrossKind> {
        match mnemonic {
            "ds_swizzle_b32" => Some(CrossKind::Swizzle),
            "ds_permute_b32" => Some(CrossKind::Permute),
            "ds_bpermute_b32" => Some(CrossKind::Bpermute),
            _ => None,
        }
    }
}

/// An immediate field whose value must lie in `0..=max` for the instruction to exist.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: &'static str,
    pub expr: Expr,
    pub max: u64,
    pub loc: Loc,
}

/// An instruction of a rule, bound to a target.
#[derive(Clone, Debug)]
pub struct Bound {
    pub op: Op,
    pub loc: Loc,
    pub text: String,
    pub fields: Vec<Field>,
    /// Register-variable uses, checked for one class and one width per variable.
    pub var_uses: Vec<VarUse>,
}

impl Bound {
    /// Registers this instruction writes.
    pub fn writes(&self) -> Vec<RegKey> {
        match &self.op {
            Op::Ds { vdst, .. } => vdst.clone(),
            Op::Cross { vdst, lanes, .. } => lane_keys(vdst, *lanes),
            Op::Lane { inner, .. } => inner.writes(),
            Op::Alu { d0, sdst, .. } => d0.iter().chain(sdst).cloned().collect(),
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
                v
            }
            Op::Alu { d0, sdst, srcs, .. } => {
                let mut v: Vec<RegKey> = d0.iter().chain(sdst).cloned().collect();
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
                ..
            } => {
                let mut v = lane_keys(vdst, *lanes);
                v.extend(lane_keys(addr, *lanes));
                v.extend(lane_keys(data0, *lanes));
                v.push(RegKey::exec_lo());
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
            Op::Ds {
                mnemonic,
                def,
                entry,
                shape,
                vdst,
                addr,
                data0,
                data1,
                offset,
                offset0,
                offset1,
                gds,
            } => Op::Ds {
                mnemonic: mnemonic.clone(),
                def,
                entry: entry.clone(),
                shape: *shape,
                vdst: m(vdst),
                addr: m(addr),
                data0: m(data0),
                data1: m(data1),
                offset: offset.clone(),
                offset0: offset0.clone(),
                offset1: offset1.clone(),
                gds: *gds,
            },
            Op::Alu {
                mnemonic,
                def,
                alu,
                d0,
                sdst,
                srcs,
            } => Op::Alu {
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
    pub mnemonic: String,
    pub def: &'static Def,
    pub entry: String,
    pub class: MubufClass,
    pub mode: BufferMode,
    /// Atomics: whether VDATA receives the pre-op value (glc / sc0 / th:TH_ATOMIC_RETURN).
    pub returns: bool,
    /// Dwords of VDATA that an atomic returns (half of VDATA for cmpswap).
    pub return_dwords: u32,
    pub vdata: Vec<RegKey>,
    pub vaddr: Vec<RegKey>,
    /// The four SGPRs of the V#.
    pub srsrc: Vec<RegKey>,
    pub soffset: Src,
    /// The instruction offset (bytes).
    pub offset: Option<Expr>,
    /// The `lds` form (LDS DMA): the loaded dword goes to LDS at `M0[15:0] + OFFSET +
    /// LANE_ID * 4` instead of VDATA.
    pub lds: bool,
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
    pub entry: String,
    /// Inputs by pseudocode variable name.
    pub inputs: Vec<(&'static str, MemIn)>,
    /// Outputs: pseudocode variable and the registers it is written to (low dwords first).
    pub outputs: Vec<(&'static str, Vec<RegKey>)>,
    /// MEM is global memory at a 64-bit address ([`gcnsmt_semantics::eval::Frame::global`]).
    pub global: bool,
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
                MemIn::Regs(k) => Some(k.clone()),
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
