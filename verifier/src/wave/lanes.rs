//! One lane of a wave-wide atomic as a function on the memory value it hits: `f(m, data) =
//! (m', returned)`, computed by running the instruction's own entry of `semantics/pcode/` on
//! any [`Domain`], so the concrete interpreter and the z3 encoding share it. A wave of N active
//! lanes hitting one address is a serialization of N such steps. DS atomics run on LDS, buffer
//! (MUBUF/VBUFFER) atomics on global memory through a V#; see [`Space`].

use gcnsmt_semantics::buffer::{BufferMode, VsharpLayout};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{run, AddrSpace, Frame, MemState, MemView, Val};
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::settings::{Alignment, BufferOob, BufferSoffset, LdsLimit, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::BTreeMap;

/// Wave sizes: 64 lanes on every target, 32 as well from gfx10 on (RDNA runs both; AMD RDNA
/// ISA guides, "Wave32 and Wave64").
pub const WAVE32: u32 = 32;
/// 64 lanes: the wave size of every target (GCN and CDNA only have it).
pub const WAVE64: u32 = 64;

/// A lane's operands: DATA0 and DATA1 (bits; 0 when the instruction has no such operand).
/// For buffer atomics these are the halves of VDATA (see [`Space::Buffer`]).
#[derive(Clone, Debug)]
pub struct LaneData<B> {
    /// DATA0's bits (for buffer atomics: VDATA, or its low half for compare-swap).
    pub data0: B,
    /// DATA1's bits (for buffer compare-swap the high half of VDATA, the compare value).
    pub data1: B,
}

/// Where the shared address of a lane step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// LDS byte address 0 (DS atomics): ADDR 0, offset 0, DATA0 and DATA1 separate operands.
    Lds,
    /// Global memory byte address 0 through a buffer resource of `target`'s V# layout
    /// (MUBUF/VBUFFER atomics): base 0, stride 0, the largest num_records, VADDR, SOFFSET and
    /// OFFSET 0, no offen/idxen/addr64.
    Buffer {
        /// The target whose V# layout the resource uses.
        target: Target,
        /// VDATA is `{DATA1, DATA0}`: the compare-swap forms, whose new value is the low half
        /// and compare value the high half (`src = DATA[31:0]; cmp = DATA[63:32]`, AMD MUBUF
        /// pseudocode). Otherwise VDATA is DATA0 alone and DATA1 is not read.
        pair: bool,
    },
}

/// One lane step of an atomic semantics entry, applied at byte address 0 of its [`Space`].
pub struct LaneFn<'a> {
    /// The entry name the instruction lifts to (`DS_ADD_RTN_U32`, `BUFFER_ATOMIC_ADD`);
    /// selects operand aliases.
    pub entry: &'a str,
    /// Its semantics entry.
    pub def: &'a Def,
    /// Width of the memory value in bits (32 or 64; the RETURN_DATA width).
    pub width: u32,
    /// Where the shared address is: LDS, or global memory through a V#.
    pub space: Space,
}

/// A V# of `layout` under which an access of up to 16 bytes at record offset 0 is in range on
/// every range-check rule (`gcnsmt_semantics::buffer::access`): base 0, stride 0, num_records
/// all ones (2^32 - 1, or 2^45 - 1 on gfx1250), OOB_SELECT 3 (raw: `offset + soffset + size <=
/// num_records`) where the layout has it, no swizzling and no ADD_TID (both 0). The other
/// fields are 0.
pub fn in_range_vsharp(layout: VsharpLayout) -> u128 {
    let field = |name: &str| -> u128 {
        let (hi, lo) = layout.field(name).expect("every layout has num_records");
        ((1u128 << (hi - lo + 1)) - 1) << lo
    };
    let mut v = field("num_records");
    if let Some((_, lo)) = layout.field("oob_select") {
        v |= 3u128 << lo;
    }
    v
}

impl LaneFn<'_> {
    /// Apply the step to memory value `m` (`width` bits) with this lane's data. Returns the new
    /// memory value and the returned value (RETURN_DATA, `width` bits).
    ///
    /// DS: the access is at LDS byte 0 with offset 0, every address in range
    /// (`lds_limit=NONE`) and exact addressing (`alignment=UNALIGNED`). Buffer: global memory
    /// byte 0 through [`in_range_vsharp`], so the range check passes. Either way the lane's
    /// memory function does not depend on where the shared address is, only on the value
    /// there. `base` is the memory around that value: 32-bit addresses for DS, 64-bit for
    /// buffer atomics.
    ///
    /// Errors: the entry fails to evaluate, or its access is undefined behaviour (misaligned
    /// or unmodelled; neither happens with these operands) -- internal errors.
    pub fn apply<D: Domain>(
        &self,
        d: &mut D,
        base: &D::Mem,
        m: &D::Bv,
        data: &LaneData<D::Bv>,
    ) -> Result<(D::Bv, D::Bv), String> {
        let bytes = self.width / 8;
        let (buffer, space) = match self.space {
            Space::Lds => (None, AddrSpace::Lds),
            Space::Buffer { target, .. } => (
                Some(BufferMode {
                    target,
                    offen: false,
                    idxen: false,
                    addr64: false,
                }),
                AddrSpace::Global,
            ),
        };
        let addr_bits = space.addr_width();
        let mut mem = base.clone();
        for i in 0..bytes {
            let a = d.bv(i as u128, addr_bits);
            let b = d.extract(m, 8 * i + 7, 8 * i);
            mem = d.store(&mem, &a, &b);
        }
        let frame = Frame {
            settings: Settings {
                alignment: Alignment::Unaligned,
                lds_limit: LdsLimit::None,
                // Both irrelevant: SOFFSET is 0 and the access ends far below num_records.
                buffer_soffset: BufferSoffset::Subtract,
                buffer_oob: BufferOob::End,
                buffer_offset: gcnsmt_semantics::settings::BufferOffset::Checked,
                sbuffer_size: gcnsmt_semantics::settings::SbufferSize::Strided,
                sbuffer_offset: gcnsmt_semantics::settings::SbufferOffset::Sum64,
                flat_aperture: gcnsmt_semantics::settings::FlatAperture::Any,
                // A wave atomic's ds_add_f32 reads it: one mode (denormals kept) for every lane
                // and both sides.
                fp32_denorm: gcnsmt_semantics::settings::Fp32Denorm::Preserve,
                ieee_mode: gcnsmt_semantics::settings::IeeeMode::On,
                lds_dma_m0: gcnsmt_semantics::settings::LdsDmaM0::Bits16,
                lds_dma_offset: gcnsmt_semantics::settings::LdsDmaOffset::Both,
                addtid_m0: gcnsmt_semantics::settings::AddtidM0::Bits16,
                append_addr: gcnsmt_semantics::settings::AppendAddr::Offset,
                gfx6_negative_base: gcnsmt_semantics::settings::Gfx6NegativeBase::Defined,
                // bufaudit (irrelevant: no buffer access in a wave atomic)
                buffer_struct: gcnsmt_semantics::settings::BufferStruct::Index,
                buffer_swizzle: gcnsmt_semantics::settings::BufferSwizzle::Undefined,
                bvh_pop: gcnsmt_semantics::settings::BvhPop::Pcode,
                bvh_invalid: gcnsmt_semantics::settings::BvhInvalid::AllOnes,
                d16_unused: gcnsmt_semantics::settings::D16Unused::Preserved,
                lds_misaligned: gcnsmt_semantics::settings::LdsMisaligned::Defined,
                flat_offset: gcnsmt_semantics::settings::FlatOffset::Applied,
                // Irrelevant: SOFFSET is 0.
                sici_soffset_clamp: gcnsmt_semantics::settings::SiciSoffsetClamp::Defined,
            },
            mem: MemView::Space(space),
            aliases: self.def.aliases_for(self.entry).unwrap_or(&[]),
            buffer,
        };
        let mut vars = BTreeMap::new();
        let mut put = |name: &str, v: D::Bv, ty: Ty| {
            vars.insert(name.to_string(), Val::Bits(v, ty));
        };
        let b = |w: u32| Ty::Bits(Kind::B, w);
        let u = |w: u32| Ty::Bits(Kind::U, w);
        match self.space {
            Space::Lds => {
                let (w0, w1) = (d.width(&data.data0), d.width(&data.data1));
                put("ADDR", d.bv(0, 32), b(32));
                put("DATA0", data.data0.clone(), b(w0));
                put("DATA1", data.data1.clone(), b(w1));
                put("OFFSET", d.bv(0, 16), u(16));
                put("OFFSET0", d.bv(0, 8), u(8));
                put("OFFSET1", d.bv(0, 8), u(8));
                put("M0", d.bv(0xffff_ffff, 32), b(32));
                put("LDS_SIZE", d.bv(65536, 32), b(32));
            }
            Space::Buffer { target, pair } => {
                let vdata = if pair {
                    d.concat(&data.data1, &data.data0)
                } else {
                    data.data0.clone()
                };
                let w = d.width(&vdata);
                put("DATA", vdata, b(w));
                put("VADDR", d.bv(0, 32), b(32));
                let rsrc = in_range_vsharp(VsharpLayout::of(target));
                put("SRSRC", d.bv(rsrc, 128), b(128));
                put("SOFFSET", d.bv(0, 32), b(32));
                put("OFFSET", d.bv(0, 32), u(32));
            }
        }
        put("LANE_ID", d.bv(0, 32), b(32));
        put("RETURN_DATA", d.bv(0, 128), b(128));
        let ub = d.boolean(false);
        // DS entries touch only LDS, buffer entries only global memory; the other spaces just
        // fill their slots.
        let st = MemState::new(|_| mem.clone(), ub);
        let (out, st) = run(d, &frame, &self.def.body, vars, st)
            .map_err(|e| format!("{}: {}", self.entry, e.msg))?;
        if d.known(&st.ub) == Some(true) {
            return Err(format!("{}: the lane's access is undefined", self.entry));
        }
        let after = &st[space];
        let mut new = None;
        for i in 0..bytes {
            let a = d.bv(i as u128, addr_bits);
            let b = d.load(after, &a);
            new = Some(match new {
                None => b,
                Some(lo) => d.concat(&b, &lo),
            });
        }
        let ret = match out.get("RETURN_DATA") {
            Some(Val::Bits(r, _)) => {
                let r = r.clone();
                let w = d.width(&r);
                if w > self.width {
                    d.extract(&r, self.width - 1, 0)
                } else if w < self.width {
                    d.zext(&r, self.width - w)
                } else {
                    r
                }
            }
            _ => return Err(format!("{}: no RETURN_DATA", self.entry)),
        };
        Ok((new.expect("width is at least one byte"), ret))
    }
}

/// The active lanes of an EXEC mask in lane order.
pub fn active(exec: u64, lanes: u32) -> Vec<usize> {
    (0..lanes as usize)
        .filter(|&i| exec >> i & 1 == 1)
        .collect()
}
