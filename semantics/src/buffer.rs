//! Buffer (MUBUF/VBUFFER) addressing: the buffer resource descriptor V# per generation, the
//! address of each access and its range check.
//!
//! The semantics entries read like AMD's: `addr = CalcBufferAddr(VADDR, SRSRC, SOFFSET,
//! OFFSET)` then `MEM[addr].b32`, `MEM[addr + 4U].b32`. In gcnsmt `CalcBufferAddr` yields the
//! offset within the record, AOFFSET = OFFSET + (offen ? the VGPR offset : 0) wrapping at 32
//! bits (an access whose unwrapped offset reaches 2^32 is out of range under the default
//! `buffer_offset=CHECKED`), and every `MEM[x]` of a buffer entry completes the address from x with the index, the
//! stride, the base and soffset and range-checks that one access. That is how AMD's rule that
//! dword x2/x3/x4 accesses are range-checked per component, and atomics all or nothing, reads
//! in the pseudocode: each `MEM[...]` is one component.
//!
//! Sources: CLRX `GcnMemHandling.md` (V# layout gfx6-gfx9, BUFOFFSET, swizzled addressing,
//! ADDR64, range rules), gem5 Vega `Inst_MUBUF::calcAddr` (ADD_TID stride extension; the lane
//! id is part of the index it range-checks), AMD RDNA3.5/RDNA4 ISA guides 9.4.2 (`Index =
//! (IDXEN ? vgpr_index : 0) + (const_add_tid_enable ? thread_id : 0)`), ROCm rocjitsu PR
//! #10928 (CDNA1-4: only IDXEN selects the index check; only VOFFSET + OFFSET wraps at 32
//! bits; its reading that the ADD_TID term is not range-checked was gcnsmt's until breaker
//! 19's finding 06), rocMLIR PR #678 and Mesa RADV (RDNA OOB_SELECT), LLVM's
//! 45-bit-num-records targets (gfx1250: base 56:0, num_records 101:57, stride 121:108).

pub mod format;

use crate::domain::{BvOp, CmpOp, Domain};
use crate::settings::{
    BufferOffset, BufferOob, BufferSoffset, BufferStruct, BufferSwizzle, Settings,
};
use crate::target::{Gen, Target};

/// The addressing bits of one buffer instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferMode {
    /// The target: decides the V# layout ([`VsharpLayout::of`]) and whether swizzled
    /// addressing (gfx6-gfx8) applies.
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
    /// The instruction's immediate OFFSET (at least 32 bits; the low 32 are read).
    pub offset: D::Bv,
    /// 32-bit lane index (for ADD_TID_ENABLE).
    pub lane_id: D::Bv,
}

/// Where one access goes.
pub struct BufferAccess<D: Domain> {
    /// The 64-bit byte address.
    pub addr: D::Bv,
    /// The access is in range (out of range: loads read 0, stores and atomics are dropped).
    pub in_range: D::Bool,
    /// The descriptor uses something gcnsmt does not model (swizzled addressing on gfx10+,
    /// and on gfx9-gfx950 under `buffer_swizzle=UNDEFINED`), treated as undefined behaviour
    /// so no verdict rests on it.
    pub unmodelled: D::Bool,
}

fn field<D: Domain>(d: &mut D, layout: VsharpLayout, rsrc: &D::Bv, name: &str) -> Option<D::Bv> {
    let (hi, lo) = layout.field(name)?;
    let f = d.extract(rsrc, hi, lo);
    Some(d.zext(&f, 64 - (hi - lo + 1)))
}

/// `a * b` for `a < 2^aw` and `b < 2^bw`, as an `out`-bit value: the multiplier is only as wide
/// as the product can be (a 64 x 64-bit multiplier makes every buffer query slow).
fn mul_narrow<D: Domain>(d: &mut D, a: &D::Bv, aw: u32, b: &D::Bv, bw: u32, out: u32) -> D::Bv {
    let w = aw + bw;
    let x = d.extract(a, aw - 1, 0);
    let x = d.zext(&x, w - aw);
    let y = d.extract(b, bw - 1, 0);
    let y = d.zext(&y, w - bw);
    let p = d.op(BvOp::Mul, &x, &y);
    if out >= w {
        d.zext(&p, out - w)
    } else {
        d.extract(&p, out - 1, 0)
    }
}

fn low32<D: Domain>(d: &mut D, v: &D::Bv) -> D::Bv {
    if d.width(v) == 32 {
        v.clone()
    } else {
        d.extract(v, 31, 0)
    }
}

/// AOFFSET = OFFSET + (offen ? VGPR offset : 0), 32 bits wrapping; the VGPR offset is VADDR, or
/// VADDR+1 when idxen is set too (CLRX `GcnMemHandling.md`, "Buffer addressing"). Whether a
/// sum that wraps is in range is the `buffer_offset` setting ([`offset_overflow`]).
pub fn aoffset<D: Domain>(d: &mut D, mode: &BufferMode, vaddr: &D::Bv, offset: &D::Bv) -> D::Bv {
    let off = low32(d, offset);
    if !mode.offen || mode.addr64 {
        return off;
    }
    let v = voffset(d, mode, vaddr);
    d.op(BvOp::Add, &v, &off)
}

/// The VGPR offset of an `offen` access: VADDR, or VADDR+1 with idxen.
fn voffset<D: Domain>(d: &mut D, mode: &BufferMode, vaddr: &D::Bv) -> D::Bv {
    if mode.idxen && d.width(vaddr) >= 64 {
        d.extract(vaddr, 63, 32)
    } else {
        low32(d, vaddr)
    }
}

/// Whether VOFFSET + OFFSET + payload reaches 2^32 for the access at record offset `a` (32
/// bits, wrapped): the payload, the byte offset of a later dword of a dwordx2/x3/x4, is
/// `a - AOFFSET` modulo 2^32 (the entries form it as `addr + 4U`, so it is below 16). Under
/// `buffer_offset=CHECKED` such an access is out of range (LLVM PR #207821: `voffset
/// +[checked] imm + payload > num_records -[saturating] soffset`; PR #115479: an access that
/// starts out of bounds is out of bounds as a whole, though its later dwords' offsets wrap
/// into range). Without offen, OFFSET (at most 24 bits) plus the payload cannot overflow.
fn offset_overflow<D: Domain>(
    d: &mut D,
    mode: &BufferMode,
    inp: &BufferInputs<D>,
    a: &D::Bv,
) -> D::Bool {
    if !mode.offen || mode.addr64 {
        return d.boolean(false);
    }
    let first = aoffset(d, mode, &inp.vaddr, &inp.offset);
    let a32 = low32(d, a);
    let payload = d.op(BvOp::Sub, &a32, &first);
    let v = voffset(d, mode, &inp.vaddr);
    let off = low32(d, &inp.offset);
    let mut sum = d.bv(0, 34);
    for x in [&v, &off, &payload] {
        let x = d.zext(x, 2);
        sum = d.op(BvOp::Add, &sum, &x);
    }
    let top = d.extract(&sum, 33, 32);
    let z = d.bv(0, 2);
    let fits = d.cmp(CmpOp::Eq, &top, &z);
    d.lnot(&fits)
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
    let base = field(d, layout, &inp.srsrc, "base").expect("every layout has a base");
    if mode.addr64 {
        return addr64_access(d, &base, inp, a);
    }
    // Swizzling has a public formula on the GCN layout only (CLRX for gfx6-gfx8, gem5 Vega for
    // gfx9); whether gfx9+ uses it is the `buffer_swizzle` setting.
    let swizzle = layout == VsharpLayout::Gcn && settings.buffer_swizzle == BufferSwizzle::Formula;
    let t = terms(d, mode, layout, inp, a, swizzle);
    // Linear: BUFOFFSET = index * stride + AOFFSET with Index = (IDXEN ? VADDR : 0) +
    // (ADD_TID_ENABLE ? lane : 0), the index the range check reads too (AMD RDNA3.5 and RDNA4
    // ISA guides 9.4.2, gem5 Vega `calcAddr`'s `buf_idx`; breaker 19's finding 06).
    // index < 2^32 + 64, stride_eff < 2^18.
    // The two cases of ADD_TID_ENABLE apart: without it the index term is the one the rules
    // had before the lane joined the range check, and the solver decides that case as fast as
    // it did (a shared `ite` inside one product made mubuf_fold's select rule 40x slower).
    let (istr_on, istr_off) = if mode.idxen {
        let on = mul_narrow(d, &t.index, 33, &t.stride_eff, 18, t.w);
        let off = mul_narrow(d, &t.idx, 32, &t.stride_eff, 18, t.w);
        (on, off)
    } else {
        let on = mul_narrow(d, &t.lane, 6, &t.stride_eff, 18, t.w);
        (on, t.zero.clone())
    };
    let istr = d.ite(&t.tid_on, &istr_on, &istr_off);
    let bufoff = d.op(BvOp::Add, &istr, &t.aw);
    let (offset_all, mut unmodelled) = if swizzle {
        let sw = swizzled_offset(d, layout, &inp.srsrc, &t);
        let f = d.boolean(false);
        (d.ite(&t.swizzled, &sw, &bufoff), f)
    } else {
        (bufoff.clone(), t.swizzled.clone())
    };
    if mode.target.gen() == Gen::Gfx12 {
        let scaled = stride_scale_used(d, mode, &inp.srsrc, &t);
        unmodelled = d.or(&unmodelled, &scaled);
    }
    let off_total = d.op(BvOp::Add, &t.soff, &offset_all);
    let off64 = d.zext(&off_total, 64 - t.w);
    let addr = d.op(BvOp::Add, &base, &off64);
    let r_on = in_range(d, mode, settings, &inp.srsrc, &t, &istr_on, size);
    let r_off = in_range(d, mode, settings, &inp.srsrc, &t, &istr_off, size);
    let mut in_range = d.ite_bool(&t.tid_on, &r_on, &r_off);
    if settings.buffer_offset == BufferOffset::Checked {
        let over = offset_overflow(d, mode, inp, a);
        let fits = d.lnot(&over);
        in_range = d.and(&in_range, &fits);
    }
    BufferAccess {
        addr,
        in_range,
        unmodelled,
    }
}

/// gfx12 (RDNA4): whether the access depends on the V#'s STRIDE_SCALE (bits 115:114), which
/// multiplies STRIDE (AMD RDNA4 ISA guide table 54: "Stride of the record in bytes, then
/// multiplied by stride_scale"; the field's place: AMD Radeon GPU Detective `SrdBufferRdna4`).
/// No source at hand gives the multiplier of each encoding, so an access that reads the
/// stride with a non-zero STRIDE_SCALE is undefined (breaker 19's finding 07): a non-zero
/// stride scaled by the index (idxen or ADD_TID) or bounding the offset (OOB_SELECT 0).
fn stride_scale_used<D: Domain>(d: &mut D, mode: &BufferMode, r: &D::Bv, t: &Terms<D>) -> D::Bool {
    let scale = d.extract(r, 115, 114);
    let z2 = d.bv(0, 2);
    let s0 = d.cmp(CmpOp::Eq, &scale, &z2);
    let scaled = d.lnot(&s0);
    let st0 = d.cmp(CmpOp::Eq, &t.stride, &t.zero);
    let strided = d.lnot(&st0);
    let sel = d.extract(r, 125, 124);
    let oob0 = d.cmp(CmpOp::Eq, &sel, &z2);
    let by_index = d.boolean(mode.idxen);
    let mut used = d.or(&by_index, &t.tid_on);
    used = d.or(&used, &oob0);
    let c = d.and(&scaled, &strided);
    d.and(&c, &used)
}

/// Whether the V# `srsrc` of a `mode` access has SWIZZLE_EN set (false on a layout without it).
pub fn swizzle_enabled<D: Domain>(d: &mut D, mode: &BufferMode, srsrc: &D::Bv) -> D::Bool {
    match field(d, VsharpLayout::of(mode.target), srsrc, "swizzle_en") {
        Some(s) => {
            let z = d.bv(0, 64);
            let c = d.cmp(CmpOp::Eq, &s, &z);
            d.lnot(&c)
        }
        None => d.boolean(false),
    }
}

/// ADDR64 (gfx6/gfx7): BASE + VGPR address + AOFFSET `a` + soffset, never range-checked.
fn addr64_access<D: Domain>(
    d: &mut D,
    base: &D::Bv,
    inp: &BufferInputs<D>,
    a: &D::Bv,
) -> BufferAccess<D> {
    let soff = d.zext(&inp.soffset, 32);
    let a64 = d.zext(a, 32);
    let va = if d.width(&inp.vaddr) >= 64 {
        d.extract(&inp.vaddr, 63, 0)
    } else {
        d.zext(&inp.vaddr, 64 - d.width(&inp.vaddr))
    };
    let mut x = d.op(BvOp::Add, base, &va);
    x = d.op(BvOp::Add, &x, &a64);
    x = d.op(BvOp::Add, &x, &soff);
    BufferAccess {
        addr: x,
        in_range: d.boolean(true),
        unmodelled: d.boolean(false),
    }
}

/// The terms of a range-checked access, all `w` bits wide (see [`terms`]).
struct Terms<D: Domain> {
    /// The width: enough that no sum or product below wraps.
    w: u32,
    zero: D::Bv,
    /// The V# stride (bytes) and num_records, and the width of the num_records field.
    stride: D::Bv,
    nr: D::Bv,
    nr_bits: u32,
    /// soffset and AOFFSET.
    soff: D::Bv,
    aw: D::Bv,
    /// ADD_TID_ENABLE is set.
    tid_on: D::Bool,
    /// The index: `idx` plus the lane id when ADD_TID_ENABLE is set.
    index: D::Bv,
    /// The record index from VADDR (idxen, else 0) and the lane id, W bits.
    idx: D::Bv,
    lane: D::Bv,
    /// The stride the index and lane terms use ({data_format, stride} with ADD_TID on GCN).
    stride_eff: D::Bv,
    /// SWIZZLE_EN is set.
    swizzled: D::Bool,
}

/// The V# fields and operands of an access at AOFFSET `a`, widened to W bits (wider when
/// `swizzle`d addresses are computed).
fn terms<D: Domain>(
    d: &mut D,
    mode: &BufferMode,
    layout: VsharpLayout,
    inp: &BufferInputs<D>,
    a: &D::Bv,
    swizzle: bool,
) -> Terms<D> {
    let r = &inp.srsrc;
    let stride = field(d, layout, r, "stride").expect("every layout has a stride");
    let nr = field(d, layout, r, "num_records").expect("every layout has num_records");
    // Offsets and bounds are computed in W bits, enough that nothing wraps: an index times
    // an 18-bit stride needs 50 bits, otherwise offset + soffset + lane * stride stays below
    // 2^34; num_records is 32 bits (45 on gfx1250). Narrow sums keep the solver fast.
    let nr_bits = layout.field("num_records").map_or(32, |(h, l)| h - l + 1);
    // Swizzling shifts the record offset left by up to 6 more bits.
    let swz_bits = if swizzle { 8 } else { 0 };
    let w = (if mode.idxen { 54 } else { 36 } + swz_bits).max(nr_bits + 2);
    let fw = |d: &mut D, x: &D::Bv| d.extract(x, w - 1, 0);
    let zero = d.bv(0, w);
    let f = d.boolean(false);
    let stride = fw(d, &stride);
    let nr = fw(d, &nr);
    let soff = d.zext(&inp.soffset, w - 32);
    let aw = d.zext(a, w - 32);
    let idx = if mode.idxen {
        let i = low32(d, &inp.vaddr);
        d.zext(&i, w - 32)
    } else {
        zero.clone()
    };
    let one1 = d.bv(1, w);
    let tid_on = match field(d, layout, r, "add_tid_enable") {
        Some(b) => {
            let b = fw(d, &b);
            d.cmp(CmpOp::Eq, &b, &one1)
        }
        None => f.clone(),
    };
    let lane = d.zext(&inp.lane_id, w - 32);
    let tid = d.ite(&tid_on, &lane, &zero);
    let index = d.op(BvOp::Add, &idx, &tid);
    // gem5 Vega / rocjitsu: with ADD_TID_ENABLE the stride is {data_format, stride} (18 bits).
    let stride_eff = match (layout, field(d, layout, r, "data_format")) {
        (VsharpLayout::Gcn, Some(df)) => {
            let df = fw(d, &df);
            let sh = d.bv(14, w);
            let hi = d.op(BvOp::Shl, &df, &sh);
            let ext = d.op(BvOp::Or, &hi, &stride);
            d.ite(&tid_on, &ext, &stride)
        }
        _ => stride.clone(),
    };
    let swizzled = match field(d, layout, r, "swizzle_en") {
        Some(s) => {
            let s = fw(d, &s);
            let c = d.cmp(CmpOp::Eq, &s, &zero);
            d.lnot(&c)
        }
        None => f,
    };
    Terms {
        w,
        zero,
        stride,
        nr,
        nr_bits,
        soff,
        aw,
        tid_on,
        index,
        idx,
        lane,
        stride_eff,
        swizzled,
    }
}

/// The swizzled BUFOFFSET of gfx6-gfx8 (V# `r` in `layout`, which is GCN), from CLRX:
/// `AOFFSET%ES + ES*(INDEX%IS) + IS*((INDEX/IS)*STRIDE + (AOFFSET/ES)*ES)` with
/// ES = 2 << element_size, IS = 8 << index_stride: powers of two, so divisions are shifts
/// and remainders masks.
fn swizzled_offset<D: Domain>(d: &mut D, layout: VsharpLayout, r: &D::Bv, t: &Terms<D>) -> D::Bv {
    let w = t.w;
    let fw = |d: &mut D, x: &D::Bv| d.extract(x, w - 1, 0);
    let one = d.bv(1, w);
    let esf = field(d, layout, r, "element_size").expect("gcn has element_size");
    let isf = field(d, layout, r, "index_stride").expect("gcn has index_stride");
    let esf = fw(d, &esf);
    let isf = fw(d, &isf);
    let es_log = d.op(BvOp::Add, &esf, &one);
    let three = d.bv(3, w);
    let is_log = d.op(BvOp::Add, &isf, &three);
    let es = d.op(BvOp::Shl, &one, &es_log);
    let is = d.op(BvOp::Shl, &one, &is_log);
    let es_m = d.op(BvOp::Sub, &es, &one);
    let is_m = d.op(BvOp::Sub, &is, &one);
    let index = t.index.clone();
    let i_msb = d.op(BvOp::LShr, &index, &is_log);
    let i_lsb = d.op(BvOp::And, &index, &is_m);
    let o_lsb = d.op(BvOp::And, &t.aw, &es_m);
    let o_hi = d.op(BvOp::Sub, &t.aw, &o_lsb); // (AOFFSET / ES) * ES
    let t1 = mul_narrow(d, &i_msb, 33, &t.stride_eff, 18, w.max(51));
    let t1 = fw(d, &t1);
    let t3 = d.op(BvOp::Add, &t1, &o_hi);
    let t4 = d.op(BvOp::Shl, &t3, &is_log);
    let t5 = d.op(BvOp::Shl, &i_lsb, &es_log);
    let t6 = d.op(BvOp::Add, &o_lsb, &t5);
    d.op(BvOp::Add, &t6, &t4)
}

/// Whether a `size`-byte access at linear BUFOFFSET `istr + AOFFSET` (`istr` the index times the
/// stride) is in range: by stride and idxen
/// on GCN, by OOB_SELECT on RDNA and gfx1250; `settings` choose the end-or-start and soffset
/// readings of the rule.
fn in_range<D: Domain>(
    d: &mut D,
    mode: &BufferMode,
    settings: &Settings,
    r: &D::Bv,
    t: &Terms<D>,
    istr: &D::Bv,
    size: u32,
) -> D::Bool {
    let layout = VsharpLayout::of(mode.target);
    let (w, zero, nr, stride) = (t.w, &t.zero, &t.nr, &t.stride);
    let sz = d.bv(size as u128, w);
    let below = |d: &mut D, x: &D::Bv, bound: &D::Bv| -> D::Bool {
        match settings.buffer_oob {
            BufferOob::End => {
                // W leaves room above every offset, so the sum cannot wrap.
                let e = d.op(BvOp::Add, x, &sz);
                d.cmp(CmpOp::Ule, &e, bound)
            }
            BufferOob::Start => d.cmp(CmpOp::Ult, x, bound),
        }
    };
    // `x + size <= num_records -sat soffset` is `x + soffset + size <= num_records` when
    // nothing wraps (W bits guarantee it); the sum form is far easier for the solver than a
    // saturating difference.
    // BUFOFFSET = istr + AOFFSET (istr the index times the stride, the lane's included when
    // ADD_TID_ENABLE is set: breaker 19's finding 06); W bits, so the sum does not wrap.
    let below_off = |d: &mut D, x: &D::Bv, bound: &D::Bv| -> D::Bool {
        let y = d.op(BvOp::Add, x, istr);
        below(d, &y, bound)
    };
    let raw_ok = match settings.buffer_soffset {
        BufferSoffset::Subtract => {
            let x = d.op(BvOp::Add, &t.aw, &t.soff);
            below_off(d, &x, nr)
        }
        BufferSoffset::Ignore => below_off(d, &t.aw, nr),
        BufferSoffset::Wrap => {
            // gem5's `numRecords - soffset` in the field's width: soffset above num_records
            // adds 2^nr_bits. W > nr_bits + 1, so `nr + top - soffset` does not wrap in W.
            let over = d.cmp(CmpOp::Ult, nr, &t.soff);
            let big = d.bv(1u128 << t.nr_bits, w);
            let top = d.ite(&over, &big, zero);
            let hi = d.op(BvOp::Add, nr, &top);
            let bound = d.op(BvOp::Sub, &hi, &t.soff);
            below_off(d, &t.aw, &bound)
        }
    };
    let idx_ok = d.cmp(CmpOp::Ult, &t.index, nr);
    let off_ok = below(d, &t.aw, stride);
    let struct_ok = d.and(&idx_ok, &off_ok);
    match layout {
        VsharpLayout::Gcn => {
            let s0 = d.cmp(CmpOp::Eq, stride, zero);
            let s_nz = d.lnot(&s0);
            match settings.buffer_struct {
                BufferStruct::Index if mode.idxen => d.ite_bool(&s_nz, &struct_ok, &raw_ok),
                BufferStruct::Index => raw_ok,
                // gem5 Vega: the index check exactly for swizzled buffers with a stride.
                BufferStruct::Bytes => {
                    let c = d.and(&s_nz, &t.swizzled);
                    d.ite_bool(&c, &struct_ok, &raw_ok)
                }
            }
        }
        VsharpLayout::Rdna | VsharpLayout::Gfx1250 => {
            let sel = field(d, layout, r, "oob_select").expect("rdna has oob_select");
            let sel = d.extract(&sel, w - 1, 0);
            let sel_is = |d: &mut D, v: u128| {
                let c = d.bv(v, w);
                d.cmp(CmpOp::Eq, &sel, &c)
            };
            let s0 = sel_is(d, 0);
            let s1 = sel_is(d, 1);
            let s2 = sel_is(d, 2);
            let nr0 = d.cmp(CmpOp::Eq, nr, zero);
            let nr_nz = d.lnot(&nr0);
            let x = d.ite_bool(&s2, &nr_nz, &raw_ok);
            let y = d.ite_bool(&s1, &idx_ok, &x);
            d.ite_bool(&s0, &struct_ok, &y)
        }
    }
}
