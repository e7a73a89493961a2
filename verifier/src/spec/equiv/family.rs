//! What the DS and buffer comparisons differ in, as data per [`Family`]: the inputs and their
//! widths (from the lifter's per-target shape tables, llvm-mc 22), how the inputs bind the
//! pseudocode variables, the one memory space compared, the outputs compared, the assumptions
//! and the preferences that make a counterexample readable.

use super::{writes_return, Side};
use crate::smt::{build, Prop, Smt, Term};
use gcnsmt_lifter::mubuf_table::{mubuf_lookup, MubufClass};
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_semantics::buffer::BufferMode;
use gcnsmt_semantics::domain::{BvOp, Domain};
use gcnsmt_semantics::eval::{AddrSpace, MemState, Val};
use gcnsmt_semantics::interp::CMem;
use gcnsmt_semantics::settings::{Alignment, LdsLimit, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Input values by name.
type Inputs<D> = BTreeMap<&'static str, <D as Domain>::Bv>;
/// Pseudocode variables by name, as the evaluator takes them.
type Vars<D> = BTreeMap<String, Val<D>>;

/// The V# bits 127:48 the buffer in-range assumption fixes: OOB_SELECT 3 (bits 125:124, RDNA;
/// unused on GCN), ADD_TID 0, num_records 0xffffffff, swizzle 0, stride 0. Base (47:0) stays
/// free.
const RSRC_HIGH: u128 = 0x3000_0000_ffff_ffff_0000;

/// An encoding family the comparison knows (see the module docs of [`super`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// DS: LDS at 32-bit addresses, the destination (`RETURN_DATA`) compared.
    Ds,
    /// MUBUF/VBUFFER, offen, in range: global memory at 64-bit addresses, VDATA after a load
    /// and RETURN_DATA after an atomic compared.
    Buffer,
}

/// One instruction's comparison, fixed before either body runs.
pub(super) struct Setup {
    pub family: Family,
    /// Input names and widths in bits, in the order the evidence shows them.
    pub inputs: Vec<(&'static str, u32)>,
    /// Outputs compared, each with the most low bits compared (both bodies must write it).
    pub outputs: Vec<(&'static str, u32)>,
    pub settings: Settings,
    pub buffer: Option<BufferMode>,
}

/// The query's assumptions, and the terms they are built from. Which model z3 returns
/// depends on the reference counts of shared subterms (measured: releasing these terms
/// before the check changes the counterexample values of two MUBUF findings), so the caller
/// holds `_held` while the query lives and the reported counterexamples stay as they were.
pub(super) struct Assumed {
    pub props: Vec<Prop>,
    pub _held: Vec<Term>,
}

impl Family {
    /// The comparison frame of `mnemonic` on `target` for bodies `a` and `b`, or why there is
    /// none (the mnemonic has no shape of this family on the target).
    pub(super) fn setup(
        self,
        mnemonic: &str,
        target: Target,
        a: &Side,
        b: &Side,
    ) -> Result<Setup, String> {
        let m = mnemonic.to_ascii_lowercase();
        let both_return = writes_return(a.body) && writes_return(b.body);
        match self {
            Family::Ds => {
                let Some((_, shape)) = ds_lookup(target, &m) else {
                    return Err(format!("`{mnemonic}` is not a DS instruction of {target}"));
                };
                let dw = |n: u8| if n == 0 { 32 } else { 32 * n as u32 };
                let vdst_bits = shape.vdst as u32 * 32;
                let mut settings = Settings::default_for(target);
                // Documents describe in-range accesses (their MEM has no bound); gcnsmt's
                // choice for partly out-of-range accesses (README "Assumptions") is not the
                // document's to match.
                settings.lds_limit = LdsLimit::None;
                if a.dword || b.dword {
                    settings.alignment = Alignment::Dword;
                }
                Ok(Setup {
                    family: self,
                    inputs: vec![
                        ("ADDR", 32),
                        ("DATA0", dw(shape.data0)),
                        ("DATA1", dw(shape.data1)),
                        ("OFFSET", 16),
                        ("M0", 32),
                        ("LDS_SIZE", 32),
                        ("LANE_ID", 32),
                        ("RETURN_DATA", 128),
                    ],
                    outputs: if vdst_bits > 0 && both_return {
                        vec![("RETURN_DATA", vdst_bits)]
                    } else {
                        vec![]
                    },
                    settings,
                    buffer: None,
                })
            }
            Family::Buffer => {
                let Some((_, shape)) = mubuf_lookup(target, &m) else {
                    return Err(format!(
                        "`{mnemonic}` is not a buffer instruction of {target}"
                    ));
                };
                let w = 32 * shape.vdata.max(1) as u32;
                let mut outputs = Vec::new();
                if shape.class == MubufClass::Load {
                    outputs.push(("VDATA", w));
                }
                if shape.class == MubufClass::Atomic && both_return {
                    outputs.push(("RETURN_DATA", u32::MAX));
                }
                Ok(Setup {
                    family: self,
                    inputs: vec![
                        ("VADDR", 32),
                        ("SRSRC", 128),
                        ("SOFFSET", 32),
                        ("OFFSET", 32),
                        ("LANE_ID", 32),
                        ("VDATA", w),
                    ],
                    outputs,
                    settings: Settings::default_for(target),
                    buffer: Some(BufferMode {
                        target,
                        offen: true,
                        idxen: false,
                        addr64: false,
                    }),
                })
            }
        }
    }

    /// The outputs a body's run keeps (the compared ones among them, [`Setup::outputs`]).
    pub(super) fn results(self) -> &'static [&'static str] {
        match self {
            Family::Ds => &["RETURN_DATA"],
            Family::Buffer => &["VDATA", "RETURN_DATA"],
        }
    }

    /// Inputs the evidence leaves out (they do not change the result shown).
    pub(super) fn hidden(self) -> &'static [&'static str] {
        match self {
            Family::Ds => &["RETURN_DATA", "LANE_ID"],
            Family::Buffer => &["LANE_ID"],
        }
    }

    /// The assumption the query makes, as the evidence states it.
    pub(super) fn assumption(self) -> Option<&'static str> {
        match self {
            Family::Ds => None,
            Family::Buffer => Some(
                "in range: raw V# (stride 0, num_records 0xffffffff, OOB_SELECT 3 on RDNA), offen, GLC/SC0 set",
            ),
        }
    }

    /// The symbolic memories: the compared one, and (DS) GDS, which fills the other slots.
    pub(super) fn smt_mems(self, s: &mut Smt) -> (crate::smt::Mem, Option<crate::smt::Mem>) {
        match self {
            Family::Ds => (s.mem("LDS"), Some(s.mem("GDS"))),
            Family::Buffer => (s.mem_wide("GLOBAL", 64), None),
        }
    }

    /// The concrete memory of the compared space whose bytes read `init(addr)`, and the
    /// all-zero memory of the other slots (DS).
    pub(super) fn concrete_mems(self, init: impl Fn(u64) -> u8 + 'static) -> (CMem, Option<CMem>) {
        match self {
            Family::Ds => (CMem::new(move |x| init(x as u64)), Some(CMem::new(|_| 0))),
            Family::Buffer => (CMem::new_wide(init), None),
        }
    }

    /// The memory state a body starts in: the compared space where the family's
    /// instructions access memory; the other slots are never touched and only need a value.
    pub(super) fn state<D: Domain>(
        self,
        compared: D::Mem,
        other: Option<D::Mem>,
        ub: D::Bool,
    ) -> MemState<D> {
        let other = other.unwrap_or_else(|| compared.clone());
        let space = self.space();
        MemState::new(
            |s| {
                if s == space {
                    compared.clone()
                } else {
                    other.clone()
                }
            },
            ub,
        )
    }

    /// The address space the family's instructions access (the compared memory; evidence
    /// names it by its [`AddrSpace::label`]).
    pub(super) fn space(self) -> AddrSpace {
        match self {
            Family::Ds => AddrSpace::Lds,
            Family::Buffer => AddrSpace::Global,
        }
    }

    /// The compared space of a final memory state.
    pub(super) fn compared<D: Domain>(self, m: MemState<D>) -> D::Mem {
        m[self.space()].clone()
    }

    /// The pseudocode variables the inputs bind for `side`.
    pub(super) fn bind<D: Domain>(
        self,
        d: &mut D,
        vals: &BTreeMap<&'static str, D::Bv>,
        side: &Side,
    ) -> BTreeMap<String, Val<D>> {
        match self {
            Family::Ds => bind_ds(d, vals, side),
            Family::Buffer => bind_buffer(d, vals, side),
        }
    }

    /// What the query assumes of the inputs (buffer: the in-range assumption).
    pub(super) fn assumptions(self, s: &mut Smt, vals: &BTreeMap<&'static str, Term>) -> Assumed {
        match self {
            Family::Ds => Assumed {
                props: vec![],
                _held: vec![],
            },
            Family::Buffer => {
                let hi = s.extract(&vals["SRSRC"], 127, 48);
                let rsrc = build::eq_const(&hi, RSRC_HIGH);
                // VADDR + OFFSET (32-bit wrap) + SOFFSET + 16 fits below num_records, in 64
                // bits.
                let sum = s.op(BvOp::Add, &vals["VADDR"], &vals["OFFSET"]);
                let aoff = s.zext(&sum, 32);
                let soff = s.zext(&vals["SOFFSET"], 32);
                let base = s.op(BvOp::Add, &aoff, &soff);
                let sixteen = s.bv(16, 64);
                let end = s.op(BvOp::Add, &base, &sixteen);
                Assumed {
                    props: vec![rsrc, build::ule_const(&end, 0xffff_ffff)],
                    _held: vec![hi, sum, aoff, soff, base, sixteen, end],
                }
            }
        }
    }

    /// Preferences for a readable counterexample, in order: zero addresses and unused
    /// inputs, small data.
    pub(super) fn prefs(self, vals: &BTreeMap<&'static str, Term>, probe: &Term) -> Vec<Prop> {
        let mut prefs = Vec::new();
        match self {
            Family::Ds => {
                for n in [
                    "ADDR",
                    "OFFSET",
                    "M0",
                    "LDS_SIZE",
                    "LANE_ID",
                    "RETURN_DATA",
                    "DATA1",
                    "DATA0",
                ] {
                    prefs.push(build::eq_const(&vals[n], 0));
                }
                prefs.push(build::eq_const(probe, 0));
                prefs.push(build::ule_const(&vals["DATA0"], 0xff));
                prefs.push(build::ule_const(&vals["DATA1"], 0xff));
            }
            Family::Buffer => {
                for n in ["VADDR", "OFFSET", "SOFFSET", "LANE_ID", "SRSRC"] {
                    let c = if n == "SRSRC" { RSRC_HIGH << 48 } else { 0 };
                    prefs.push(build::eq_const(&vals[n], c));
                }
                prefs.push(build::ule_const(&vals["VDATA"], 0xff));
            }
        }
        prefs
    }
}

/// Every input under its own name, as bits of its width; OFFSET (an unsigned immediate) as
/// unsigned.
fn bind_inputs<D: Domain>(d: &mut D, vals: &Inputs<D>) -> Vars<D> {
    vals.iter()
        .map(|(n, v)| {
            let k = if *n == "OFFSET" { Kind::U } else { Kind::B };
            (n.to_string(), Val::Bits(v.clone(), Ty::Bits(k, d.width(v))))
        })
        .collect()
}

/// DS: every input under its own name (OFFSET unsigned), OFFSET0/OFFSET1 as its bytes, ADDR
/// as ADDR + OFFSET for a text that writes the effective address, and the names documents
/// use for the same operands.
fn bind_ds<D: Domain>(d: &mut D, vals: &Inputs<D>, side: &Side) -> Vars<D> {
    let mut m = bind_inputs(d, vals);
    let ty = |w: u32, k: Kind| Ty::Bits(k, w);
    let off = vals["OFFSET"].clone();
    let o0 = d.extract(&off, 7, 0);
    let o1 = d.extract(&off, 15, 8);
    m.insert("OFFSET0".into(), Val::Bits(o0, ty(8, Kind::U)));
    m.insert("OFFSET1".into(), Val::Bits(o1, ty(8, Kind::U)));
    let mut addr = vals["ADDR"].clone();
    if side.addr_is_effective {
        let o = d.zext(&off, 16);
        addr = d.op(BvOp::Add, &addr, &o);
        m.insert("ADDR".into(), Val::Bits(addr.clone(), ty(32, Kind::B)));
    }
    // Names documents use for the same operands (RDNA4 `vgpr_a`/`offset`, `ADDR_BASE`, `laneID`).
    m.insert("vgpr_a".into(), Val::Bits(addr.clone(), ty(32, Kind::B)));
    m.insert("ADDR_BASE".into(), Val::Bits(addr, ty(32, Kind::B)));
    m.insert("offset".into(), Val::Bits(off, ty(16, Kind::U)));
    m.insert(
        "laneID".into(),
        Val::Bits(vals["LANE_ID"].clone(), ty(32, Kind::B)),
    );
    m
}

/// Buffer: every input under its own name (OFFSET unsigned); DATA and RETURN_DATA start as
/// VDATA, as in the verifier; GLC and SC0 read 1, so an atomic returns; a text's effective
/// `ADDR` is the offset within the record, VADDR + OFFSET, which each `MEM[...]` of a buffer
/// frame completes with base and soffset.
fn bind_buffer<D: Domain>(d: &mut D, vals: &Inputs<D>, side: &Side) -> Vars<D> {
    let mut vars = bind_inputs(d, vals);
    let vd = vals["VDATA"].clone();
    let vt = Ty::Bits(Kind::B, d.width(&vd));
    vars.insert("DATA".into(), Val::Bits(vd.clone(), vt));
    vars.insert("RETURN_DATA".into(), Val::Bits(vd, vt));
    let one = d.bv(1, 1);
    for flag in ["GLC", "SC0"] {
        vars.insert(flag.into(), Val::Bits(one.clone(), Ty::Bits(Kind::U, 1)));
    }
    if side.addr_is_effective {
        let a = d.op(BvOp::Add, &vals["VADDR"], &vals["OFFSET"]);
        vars.insert("ADDR".into(), Val::Bits(a, Ty::U32));
    }
    vars
}
