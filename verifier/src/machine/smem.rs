//! Scalar buffer loads (`s_buffer_load_*`) in rules: binding a line through the lifter's
//! assembler ([`gcnsmt_lifter::parse_smem_with`]) to a [`super::op::MemOp`] frame, and the two V# values
//! `semantics/pcode/smem.pcode` reads (BASE, SIZE), decoded per target.

use super::global::offset_modifier;
use super::holes::MemLine;
use super::op::{Bound, MemIn, VsharpPart};
use super::operands::LineCx;
use super::regkey::RegKey;
use crate::rules::InputError;
use gcnsmt_lifter::{parse_smem_with, Role, SOffset};
use gcnsmt_semantics::buffer::VsharpLayout;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use gcnsmt_semantics::eval::{AddrSpace, MemView};
use gcnsmt_semantics::settings::SbufferSize;
use gcnsmt_semantics::target::Gen;

/// The output variables of smem.pcode, four dwords each (values are at most 128 bits).
const SDATA: [&str; 4] = ["SDATA", "SDATA1", "SDATA2", "SDATA3"];

/// Bind one `s_buffer_load_*` line.
///
/// Errors (file:line:col): whatever the lifter's assembler rejects for the target, a
/// symbolic offset on gfx6/gfx7 (whose offsets count dwords), a mnemonic without semantics.
pub fn bind_smem(cx: LineCx) -> Result<Bound, InputError> {
    let mut m = MemLine::parse(cx, parse_smem_with, |i| &i.entry)?;
    let (syn, target, mn) = (&m.syn, cx.target, cx.mn);
    // The immediate: the third operand, or `offset:` after a register offset.
    let off_text = match m.inst.soffset {
        None if !syn.modifiers.iter().any(|m| m.0 == "offset") => {
            syn.operands.get(2).map(|(t, c)| (t.trim().to_string(), *c))
        }
        _ => offset_modifier(syn),
    };
    let offset = match off_text {
        Some((t, c)) if t != "null" && gcnsmt_lifter::asm::parse_int(&t).is_none() => {
            if target.gen() <= Gen::Gfx7 {
                return Err(cx.err(
                    c,
                    format!(
                        "{mn}: a symbolic offset on {target} (counted in dwords) is not modelled"
                    ),
                ));
            }
            let (_, hi, _) = gcnsmt_lifter::smem_buffer_offset_range(target);
            let f = cx.field("offset", &t, c, hi as u64)?;
            let e = f.expr.clone();
            m.fields.push(f);
            e
        }
        _ => gcnsmt_semantics::parse::parse_expr(&format!("{}", m.inst.offset))
            .map_err(|e| cx.rule.error(m.mloc, e.msg))?,
    };
    let holes = &mut m.holes;
    let sbase = holes.sgprs(Role::Sbase, &m.inst.sbase);
    let soffset = match (holes.keys(Role::Soffset, None), m.inst.soffset) {
        (k, _) if !k.is_empty() => MemIn::Regs(k),
        (_, Some(SOffset::Sgpr(n))) => MemIn::Regs(vec![RegKey {
            base: "s".into(),
            idx: u32::from(n),
            lane: None,
        }]),
        (_, Some(SOffset::M0)) => MemIn::Regs(vec![RegKey::m0()]),
        (_, None) => MemIn::Zero(32),
    };
    let sdst = holes.sgprs(Role::Sdst, &m.inst.sdst);
    let layout = VsharpLayout::of(target);
    // gfx12: "The base address is forced to DWORD alignment" (RDNA4 guide 8.4.1; breaker 19's
    // finding 05).
    let base = if target.gen() == Gen::Gfx12 {
        VsharpPart::DwordBase
    } else {
        VsharpPart::Base
    };
    m.inputs = vec![
        ("OFFSET", MemIn::Signed(offset)),
        ("SOFFSET", soffset),
        ("BASE", MemIn::Vsharp(sbase.clone(), layout, base)),
        ("SIZE", MemIn::Vsharp(sbase, layout, VsharpPart::Size)),
    ];
    m.outputs = sdst
        .chunks(4)
        .zip(SDATA)
        .map(|(k, n)| (n, k.to_vec()))
        .collect();
    Ok(m.bound(MemView::Space(AddrSpace::Global), false, true))
}

/// gfx12: whether the V# `rsrc` has a non-zero STRIDE_SCALE (bits 115:114, AMD Radeon GPU
/// Detective `SrdBufferRdna4`) and a non-zero stride, so that SIZE (RDNA4 guide 9.4.1.4:
/// `(stride==0 ? 1 : stride) * num_records`, the stride "then multiplied by stride_scale",
/// table 54) depends on a multiplier no source at hand gives: such a load is undefined
/// (breaker 19's finding 07).
pub(super) fn stride_scale_undefined<D: Domain>(d: &mut D, rsrc: &D::Bv) -> D::Bool {
    let scale = d.extract(rsrc, 115, 114);
    let z2 = d.bv(0, 2);
    let s0 = d.cmp(CmpOp::Eq, &scale, &z2);
    let stride = d.extract(rsrc, 61, 48);
    let z14 = d.bv(0, 14);
    let st0 = d.cmp(CmpOp::Eq, &stride, &z14);
    let either = d.or(&s0, &st0);
    d.lnot(&either)
}

/// BASE or SIZE of a 128-bit V# `rsrc`, 64 bits, in `layout`'s fields
/// ([`VsharpLayout::fields`]): SIZE is `(stride == 0 ? 1 : stride) * num_records` bytes under
/// `sbuffer_size=STRIDED` (RDNA3/RDNA4 ISA guides, section 8.1.2), `num_records` under
/// RECORDS ([`SbufferSize`]); the product is only as wide as it can be (14 + 32 or 14 + 45
/// bits; a 64-bit multiplier slows every query).
pub(super) fn vsharp_input<D: Domain>(
    d: &mut D,
    layout: VsharpLayout,
    part: VsharpPart,
    size: SbufferSize,
    rsrc: &D::Bv,
) -> D::Bv {
    let get = |d: &mut D, name: &str| {
        let (hi, lo) = layout
            .field(name)
            .expect("every layout has base/stride/num_records");
        (d.extract(rsrc, hi, lo), hi - lo + 1)
    };
    match part {
        VsharpPart::Base => {
            let (b, w) = get(d, "base");
            d.zext(&b, 64 - w)
        }
        VsharpPart::DwordBase => {
            let (b, w) = get(d, "base");
            let b = d.zext(&b, 64 - w);
            let mask = d.bv(!3u128 & u128::from(u64::MAX), 64);
            d.op(BvOp::And, &b, &mask)
        }
        VsharpPart::Size if size == SbufferSize::Records => {
            let (n, nw) = get(d, "num_records");
            d.zext(&n, 64 - nw)
        }
        VsharpPart::Size => {
            let (s, sw) = get(d, "stride");
            let (n, nw) = get(d, "num_records");
            let w = sw + nw;
            let s = d.zext(&s, w - sw);
            let n = d.zext(&n, w - nw);
            let prod = d.op(BvOp::Mul, &s, &n);
            let zero = d.bv(0, w);
            let unstrided = d.cmp(CmpOp::Eq, &s, &zero);
            let size = d.ite(&unstrided, &n, &prod);
            d.zext(&size, 64 - w)
        }
    }
}
