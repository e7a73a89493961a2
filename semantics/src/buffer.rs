//! Buffer (MUBUF/VBUFFER) addressing: the buffer resource descriptor V# per generation, the
//! address of each access and its range check.
//!
//! The semantics entries read like AMD's: `addr = CalcBufferAddr(VADDR, SRSRC, SOFFSET,
//! OFFSET)` then `MEM[addr].b32`, `MEM[addr + 4U].b32`. In gcnsmt `CalcBufferAddr` yields the
//! offset within the record, AOFFSET = OFFSET + (offen ? the VGPR offset : 0) wrapping at 32
//! bits, and every `MEM[x]` of a buffer entry completes the address from x with the index, the
//! stride, the base and soffset and range-checks that one access. That is how AMD's rule that
//! dword x2/x3/x4 accesses are range-checked per component, and atomics all or nothing, reads
//! in the pseudocode: each `MEM[...]` is one component.
//!
//! Sources: CLRX `GcnMemHandling.md` (V# layout gfx6-gfx9, BUFOFFSET, swizzled addressing,
//! ADDR64, range rules), gem5 Vega `Inst_MUBUF::calcAddr` (ADD_TID stride extension), ROCm
//! rocjitsu PR #10928 (CDNA1-4: only IDXEN selects the index check; the ADD_TID term is not
//! range-checked; only VOFFSET + OFFSET wraps at 32 bits), rocMLIR PR #678 and Mesa RADV
//! (RDNA OOB_SELECT), LLVM's 45-bit-num-records targets (gfx1250: base 56:0, num_records
//! 101:57, stride 121:108).

use crate::domain::{BvOp, CmpOp, Domain};
use crate::settings::{BufferOob, BufferSoffset, Settings};
use crate::target::{Gen, Target};

/// The addressing bits of one buffer instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferMode {
    pub target: Target,
    /// VADDR (or VADDR+1 with idxen) holds a byte offset.
    pub offen: bool,
    /// VADDR holds a record index.
    pub idxen: bool,
    /// gfx6/gfx7: VADDR is a 64-bit address, no range check.
    pub addr64: bool,
}

/// The V# layouts gcnsmt knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VsharpLayout {
    /// gfx6-gfx9 and CDNA 1-4: range checks follow from stride and idxen.
    Gcn,
    /// gfx10-gfx12: OOB_SELECT chooses the range check.
    Rdna,
    /// gfx1250: 57-bit base, 45-bit num_records.
    Gfx1250,
}

/// One V# field: name and bit range `hi..=lo` of the 128-bit descriptor.
pub type VsharpField = (&'static str, u32, u32);

const GCN_FIELDS: &[VsharpField] = &[
    ("base", 47, 0),
    ("stride", 61, 48),
    ("cache_swizzle", 62, 62),
    ("swizzle_en", 63, 63),
    ("num_records", 95, 64),
    ("dst_sel", 107, 96),
    ("num_format", 110, 108),
    ("data_format", 114, 111),
    ("element_size", 116, 115),
    ("index_stride", 118, 117),
    ("add_tid_enable", 119, 119),
    ("type", 127, 126),
];

const RDNA_FIELDS: &[VsharpField] = &[
    ("base", 47, 0),
    ("stride", 61, 48),
    ("swizzle_en", 63, 62),
    ("num_records", 95, 64),
    ("dst_sel", 107, 96),
    ("format", 114, 108),
    ("index_stride", 118, 117),
    ("add_tid_enable", 119, 119),
    ("oob_select", 125, 124),
    ("type", 127, 126),
];

const GFX1250_FIELDS: &[VsharpField] = &[
    ("base", 56, 0),
    ("num_records", 101, 57),
    ("stride", 121, 108),
    ("oob_select", 125, 124),
    ("type", 127, 126),
];

impl VsharpLayout {
    /// The layout of a target's V#.
    pub fn of(t: Target) -> VsharpLayout {
        match t.gen() {
            Gen::Gfx10 | Gen::Gfx11 | Gen::Gfx12 => VsharpLayout::Rdna,
            Gen::Gfx1250 => VsharpLayout::Gfx1250,
            _ => VsharpLayout::Gcn,
        }
    }

    /// The fields gcnsmt decodes (for counterexamples and for the semantics).
    pub fn fields(self) -> &'static [VsharpField] {
        match self {
            VsharpLayout::Gcn => GCN_FIELDS,
            VsharpLayout::Rdna => RDNA_FIELDS,
            VsharpLayout::Gfx1250 => GFX1250_FIELDS,
        }
    }

    /// Bit range of a field, if this layout has it.
    pub fn field(self, name: &str) -> Option<(u32, u32)> {
        self.fields()
            .iter()
            .find(|f| f.0 == name)
            .map(|f| (f.1, f.2))
    }

    /// Decode a concrete 128-bit V# into its fields.
    pub fn decode(self, rsrc: u128) -> Vec<(&'static str, u128)> {
        self.fields()
            .iter()
            .map(|&(n, hi, lo)| {
                let w = hi - lo + 1;
                (n, (rsrc >> lo) & ((1u128 << w) - 1))
            })
            .collect()
    }
}

/// The operands a buffer access reads besides AOFFSET.
pub struct BufferInputs<D: Domain> {
    /// VADDR: 32 bits (offset or index), 64 bits (index, offset; or the ADDR64 address).
    pub vaddr: D::Bv,
    /// The 128-bit V#.
    pub srsrc: D::Bv,
    /// 32-bit soffset.
    pub soffset: D::Bv,
    /// 32-bit lane index (for ADD_TID_ENABLE).
    pub lane_id: D::Bv,
}

/// Where one access goes.
pub struct BufferAccess<D: Domain> {
    /// The 64-bit byte address.
    pub addr: D::Bv,
    /// The access is in range (out of range: loads read 0, stores and atomics are dropped).
    pub in_range: D::Bool,
    /// The descriptor uses something gcnsmt does not model (swizzled addressing on gfx9+),
    /// treated as undefined behaviour so no verdict rests on it.
    pub unmodelled: D::Bool,
}

fn field<D: Domain>(d: &mut D, layout: VsharpLayout, rsrc: &D::Bv, name: &str) -> Option<D::Bv> {
    let (hi, lo) = layout.field(name)?;
    let f = d.extract(rsrc, hi, lo);
    Some(d.zext(&f, 64 - (hi - lo + 1)))
}

fn low32<D: Domain>(d: &mut D, v: &D::Bv) -> D::Bv {
    if d.width(v) == 32 {
        v.clone()
    } else {
        d.extract(v, 31, 0)
    }
}

/// AOFFSET = OFFSET + (offen ? VGPR offset : 0), 32 bits wrapping; the VGPR offset is VADDR, or
/// VADDR+1 when idxen is set too (CLRX `GcnMemHandling.md`, "Buffer addressing").
pub fn aoffset<D: Domain>(d: &mut D, mode: &BufferMode, vaddr: &D::Bv, offset: &D::Bv) -> D::Bv {
    let off = low32(d, offset);
    if !mode.offen || mode.addr64 {
        return off;
    }
    let v = if mode.idxen && d.width(vaddr) >= 64 {
        d.extract(vaddr, 63, 32)
    } else {
        low32(d, vaddr)
    };
    d.op(BvOp::Add, &v, &off)
}

/// The address and range check of one `size`-byte access at record offset `a` (32 bits).
pub fn access<D: Domain>(
    d: &mut D,
    mode: &BufferMode,
    settings: &Settings,
    inp: &BufferInputs<D>,
    a: &D::Bv,
    size: u32,
) -> BufferAccess<D> {
    let layout = VsharpLayout::of(mode.target);
    let r = &inp.srsrc;
    let zero = d.bv(0, 64);
    let base = field(d, layout, r, "base").expect("every layout has a base");
    let stride = field(d, layout, r, "stride").expect("every layout has a stride");
    let nr = field(d, layout, r, "num_records").expect("every layout has num_records");
    let soff = d.zext(&inp.soffset, 32);
    let a64 = d.zext(a, 32);
    let f = d.boolean(false);
    if mode.addr64 {
        // ADDR64: BASE + VGPR address + OFFSET + soffset, never range-checked.
        let va = if d.width(&inp.vaddr) >= 64 {
            d.extract(&inp.vaddr, 63, 0)
        } else {
            d.zext(&inp.vaddr, 64 - d.width(&inp.vaddr))
        };
        let mut x = d.op(BvOp::Add, &base, &va);
        x = d.op(BvOp::Add, &x, &a64);
        x = d.op(BvOp::Add, &x, &soff);
        let t = d.boolean(true);
        return BufferAccess {
            addr: x,
            in_range: t,
            unmodelled: f,
        };
    }
    let idx = if mode.idxen {
        let i = low32(d, &inp.vaddr);
        d.zext(&i, 32)
    } else {
        zero.clone()
    };
    let one1 = d.bv(1, 64);
    let tid_on = match field(d, layout, r, "add_tid_enable") {
        Some(b) => d.cmp(CmpOp::Eq, &b, &one1),
        None => f.clone(),
    };
    let lane = d.zext(&inp.lane_id, 32);
    let tid = d.ite(&tid_on, &lane, &zero);
    // gem5 Vega / rocjitsu: with ADD_TID_ENABLE the stride is {data_format, stride} (18 bits).
    let stride_eff = match (layout, field(d, layout, r, "data_format")) {
        (VsharpLayout::Gcn, Some(df)) => {
            let sh = d.bv(14, 64);
            let hi = d.op(BvOp::Shl, &df, &sh);
            let ext = d.op(BvOp::Or, &hi, &stride);
            d.ite(&tid_on, &ext, &stride)
        }
        _ => stride.clone(),
    };
    let swz = field(d, layout, r, "swizzle_en");
    let swizzled = match &swz {
        Some(s) => {
            let c = d.cmp(CmpOp::Eq, s, &zero);
            d.lnot(&c)
        }
        None => f.clone(),
    };
    // Linear: BUFOFFSET = index * stride + AOFFSET; the ADD_TID term is added to the address
    // but not range-checked (rocjitsu PR #10928).
    let istr = d.op(BvOp::Mul, &idx, &stride_eff);
    let bufoff = d.op(BvOp::Add, &istr, &a64);
    let tstr = d.op(BvOp::Mul, &tid, &stride_eff);
    let linear = d.op(BvOp::Add, &bufoff, &tstr);
    let (offset_all, unmodelled) = if mode.target.gen() <= Gen::Gfx8 {
        // CLRX: swizzled BUFOFFSET = AOFFSET%ES + ES*(INDEX%IS) + IS*((INDEX/IS)*STRIDE + (AOFFSET/ES)*ES)
        // with ES = 2 << element_size, IS = 8 << index_stride.
        let two = d.bv(2, 64);
        let eight = d.bv(8, 64);
        let esf = field(d, layout, r, "element_size").expect("gcn has element_size");
        let isf = field(d, layout, r, "index_stride").expect("gcn has index_stride");
        let es = d.op(BvOp::Shl, &two, &esf);
        let is = d.op(BvOp::Shl, &eight, &isf);
        let index = d.op(BvOp::Add, &idx, &tid);
        let i_msb = d.op(BvOp::UDiv, &index, &is);
        let i_lsb = d.op(BvOp::URem, &index, &is);
        let o_msb = d.op(BvOp::UDiv, &a64, &es);
        let o_lsb = d.op(BvOp::URem, &a64, &es);
        let t1 = d.op(BvOp::Mul, &i_msb, &stride_eff);
        let t2 = d.op(BvOp::Mul, &o_msb, &es);
        let t3 = d.op(BvOp::Add, &t1, &t2);
        let t4 = d.op(BvOp::Mul, &is, &t3);
        let t5 = d.op(BvOp::Mul, &es, &i_lsb);
        let t6 = d.op(BvOp::Add, &o_lsb, &t5);
        let sw = d.op(BvOp::Add, &t6, &t4);
        (d.ite(&swizzled, &sw, &linear), f.clone())
    } else {
        (linear, swizzled)
    };
    let mut addr = d.op(BvOp::Add, &base, &soff);
    addr = d.op(BvOp::Add, &addr, &offset_all);

    let sz = d.bv(size as u128, 64);
    let below = |d: &mut D, x: &D::Bv, bound: &D::Bv| -> D::Bool {
        match settings.buffer_oob {
            BufferOob::End => {
                // Both terms are below 2^62 here, so the sum cannot wrap.
                let e = d.op(BvOp::Add, x, &sz);
                d.cmp(CmpOp::Ule, &e, bound)
            }
            BufferOob::Start => d.cmp(CmpOp::Ult, x, bound),
        }
    };
    let raw_bound = match settings.buffer_soffset {
        BufferSoffset::Subtract => {
            let ge = d.cmp(CmpOp::Ule, &soff, &nr);
            let diff = d.op(BvOp::Sub, &nr, &soff);
            d.ite(&ge, &diff, &zero)
        }
        BufferSoffset::Ignore => nr.clone(),
    };
    // bufoff < 2^32 * 2^18 + 2^32: the END sum stays far below 2^64.
    let raw_ok = below(d, &bufoff, &raw_bound);
    let idx_ok = d.cmp(CmpOp::Ult, &idx, &nr);
    let off_ok = below(d, &a64, &stride);
    let struct_ok = d.and(&idx_ok, &off_ok);
    let in_range = match layout {
        VsharpLayout::Gcn => {
            if mode.idxen {
                let s0 = d.cmp(CmpOp::Eq, &stride, &zero);
                let s_nz = d.lnot(&s0);
                let c = d.ite_bool(&s_nz, &struct_ok, &raw_ok);
                c
            } else {
                raw_ok
            }
        }
        VsharpLayout::Rdna | VsharpLayout::Gfx1250 => {
            let sel = field(d, layout, r, "oob_select").expect("rdna has oob_select");
            let sel_is = |d: &mut D, v: u128| {
                let c = d.bv(v, 64);
                d.cmp(CmpOp::Eq, &sel, &c)
            };
            let s0 = sel_is(d, 0);
            let s1 = sel_is(d, 1);
            let s2 = sel_is(d, 2);
            let nr0 = d.cmp(CmpOp::Eq, &nr, &zero);
            let nr_nz = d.lnot(&nr0);
            let x = d.ite_bool(&s2, &nr_nz, &raw_ok);
            let y = d.ite_bool(&s1, &idx_ok, &x);
            d.ite_bool(&s0, &struct_ok, &y)
        }
    };
    BufferAccess {
        addr,
        in_range,
        unmodelled,
    }
}
