//! Lowering of MUBUF (buffer) MIR instructions to gcnsmt's assembly: the `swz` operand, the
//! scratch descriptor, returning atomics run in place.

use super::super::mir::{Inst, OpKind, Operand};
use super::super::opcodes::AddrKind;
use super::{dwords, explicit_count, imm, src, tuple, Lowering, MALFORMED};
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_semantics::target::Target;

/// The MIR `swz` operand, LLVM's mark of an access it assumes swizzled. The instruction does
/// not encode it: the hardware swizzles by the V#'s SWIZZLE_EN. So `swz` 1 changes nothing the
/// semantics computes; it only tells that the V# is swizzled. Accepted where the target's
/// default `buffer_swizzle` is FORMULA (gfx6-8: a dword is swizzled by the formula, a
/// multi-dword access is undefined); elsewhere swizzled descriptors are undefined behaviour,
/// which would make a block with a `swz` access prove anything, so it stays unsupported.
fn swz(rest: &[&Operand], target: Target) -> Result<(), String> {
    use gcnsmt_semantics::settings::{BufferSwizzle, Settings};
    match rest {
        [] => Ok(()),
        [o] if o.kind == OpKind::Imm(0) => Ok(()),
        [o] if o.kind == OpKind::Imm(1)
            && Settings::default_for(target).buffer_swizzle == BufferSwizzle::Formula =>
        {
            Ok(())
        }
        [_] => Err(format!(
            "a swizzled buffer access (`swz`) on {}: swizzled descriptors are undefined there",
            target.name()
        )),
        [_, more @ ..] if more.iter().any(|o| matches!(o.kind, OpKind::Imm(_))) => Err(format!(
            "{MALFORMED}an immediate after `swz`, which is the last operand"
        )),
        _ => Err("extra buffer operands are not modelled".into()),
    }
}

/// A buffer access of private memory through the scratch descriptor, which is swizzled
/// (AMDGPUUsage, "Private Segment": interleaved by lane; no multi-dword access "except by flat
/// and scratch instructions"). gcnsmt models the swizzle on gfx6-8 only; elsewhere a swizzled
/// descriptor is undefined behaviour, which would leave the real scratch descriptor out of the
/// proof (a merge of two scratch dwords would be proved), so the access is unsupported.
fn scratch(i: &Inst, target: Target) -> Result<(), String> {
    use gcnsmt_semantics::settings::{BufferSwizzle, Settings};
    if i.private && Settings::default_for(target).buffer_swizzle != BufferSwizzle::Formula {
        return Err(format!(
            "a scratch (private) access through the swizzled scratch descriptor on {}: \
             swizzling is not modelled there",
            target.name()
        ));
    }
    Ok(())
}

pub(super) struct Mubuf<'a> {
    pub(super) mnemonic: &'a str,
    pub(super) class: MubufClass,
    pub(super) addr: AddrKind,
    pub(super) lds: bool,
    pub(super) rtn: bool,
}

pub(super) fn mubuf(cx: Lowering, m: &Mubuf) -> Result<Vec<String>, String> {
    let (side, i, uses, target) = (cx.side, cx.i, cx.uses, cx.target);
    scratch(i, target)?;
    // [vdata,] [vaddr,] srsrc, soffset, offset, cpol (`swz` may be left out: it encodes nothing).
    let loads = m.class == MubufClass::Load;
    let regs = usize::from(!loads) + usize::from(m.addr != AddrKind::Offset);
    explicit_count(&uses[..uses.len().min(regs + 4)], regs + 4)?;
    let mut out = Vec::new();
    let mut k = 0;
    let mut vdata: Option<String> = None;
    if loads && !m.lds {
        vdata = Some(tuple(&dwords(
            side,
            i.defs.first().ok_or("missing vdata")?,
            target,
        )?));
    } else if !loads {
        let data = uses.first().ok_or("missing vdata")?;
        let dd = dwords(side, data, target)?;
        k = 1;
        if m.rtn {
            // vdst is tied to vdata: copy the data into the destination, then run in place.
            let d = i.defs.first().ok_or("missing vdst")?;
            let dst = dwords(side, d, target)?;
            if dst.len() != dd.len() {
                return Err("vdst and vdata widths differ".into());
            }
            for (a, b) in dst.iter().zip(&dd) {
                out.push(format!("v_mov_b32 {a}, {b}"));
            }
            vdata = Some(tuple(&dst));
        } else {
            vdata = Some(tuple(&dd));
        }
    }
    let vaddr = if m.addr == AddrKind::Offset {
        "off".to_string()
    } else {
        k += 1;
        tuple(&dwords(
            side,
            uses.get(k - 1).ok_or("missing vaddr")?,
            target,
        )?)
    };
    let srsrc = tuple(&dwords(side, uses.get(k).ok_or("missing srsrc")?, target)?);
    let soff = match uses.get(k + 1).map(|o| &o.kind) {
        Some(OpKind::Imm(v)) if (0..=64).contains(v) => v.to_string(),
        Some(OpKind::Imm(v)) => return Err(format!("soffset {v} is not an inline constant")),
        Some(_) => src(side, uses[k + 1], target)?,
        None => return Err("missing soffset".into()),
    };
    let offset = imm(uses.get(k + 2), "offset")?;
    let cpol = imm(uses.get(k + 3), "cpol")?;
    swz(&uses[(k + 4).min(uses.len())..], target)?;
    let mut t = m.mnemonic.to_string();
    if let Some(v) = vdata {
        t.push_str(&format!(" {v},"));
    }
    t.push_str(&format!(" {vaddr}, {srsrc}, {soff}"));
    t.push_str(match m.addr {
        AddrKind::Offset => "",
        AddrKind::Offen => " offen",
        AddrKind::Idxen => " idxen",
        AddrKind::Bothen => " idxen offen",
        AddrKind::Addr64 => " addr64",
    });
    if offset != 0 {
        t.push_str(&format!(" offset:{offset}"));
    }
    t.push_str(&super::super::cpol::cpol_text(
        target,
        cpol,
        m.class == MubufClass::Atomic,
    )?);
    if m.lds {
        t.push_str(" lds");
    }
    out.push(t);
    Ok(out)
}
