//! GLOBAL loads/stores and scalar loads in rules: binding a line through the lifter's global
//! assembler ([`gcnsmt_lifter::parse_global_with`]) to a [`super::op::MemOp`] frame.

use super::holes::MemLine;
use super::op::{Bound, Field, MemIn};
use super::operands::LineCx;
use crate::rules::InputError;
use gcnsmt_lifter::asm::AsmSyntax;
use gcnsmt_lifter::{parse_global_with, GlobalKind, Role};
use gcnsmt_semantics::eval::{AddrSpace, MemView};

/// Bind one GLOBAL or scalar-load line.
///
/// Errors (file:line:col): whatever the global assembler rejects for the target, and a
/// mnemonic without semantics.
pub fn bind_global(cx: LineCx) -> Result<Bound, InputError> {
    let mut m = MemLine::parse(cx, parse_global_with, |i| &i.entry)?;
    let kind = m.inst.op.kind;
    let off_text = match kind {
        GlobalKind::ScalarLoad => m.syn.operands.get(2).map(|(t, c)| (t.clone(), *c)),
        _ => offset_modifier(&m.syn),
    };
    let offset = offset_input(cx, off_text, m.inst.offset, &mut m.fields)?;
    m.inputs.push(("OFFSET", offset));
    let (inst, holes) = (&m.inst, &mut m.holes);
    if kind == GlobalKind::ScalarLoad {
        let sbase = holes.sgprs(Role::Sbase, &inst.sbase.expect("parsed"));
        // gfx12: "The base address is forced to DWORD alignment" before the offset is added
        // (RDNA4 guide 8.4.1; breaker 19's finding 05).
        let sbase = if cx.target.gen() == gcnsmt_semantics::target::Gen::Gfx12 {
            MemIn::DwordAligned(sbase)
        } else {
            MemIn::Regs(sbase)
        };
        m.inputs.push(("SBASE", sbase));
        // Up to four dwords per output value: eight SGPRs are SDATA and SDATA1 (global.pcode).
        let sdst = holes.sgprs(Role::Sdst, &inst.sdst.expect("parsed"));
        for (k, n) in sdst.chunks(4).zip(["SDATA", "SDATA1"]) {
            m.outputs.push((n, k.to_vec()));
        }
    } else {
        let saddr = match inst.saddr {
            Some(s) => MemIn::Regs(holes.sgprs(Role::Saddr, &s)),
            None => match holes.keys(Role::Saddr, None) {
                k if k.is_empty() => MemIn::Zero(64),
                k => MemIn::Regs(k),
            },
        };
        m.inputs.push(("SADDR", saddr));
        let vaddr = holes.keys(Role::Vaddr, inst.vaddr);
        m.inputs.push(("VADDR", vaddr_input(cx, inst, vaddr)?));
        if kind == GlobalKind::Load {
            let vdst = holes.keys(Role::Vdst, inst.vdst);
            m.outputs.push(("RETURN_DATA", vdst));
        } else {
            let vdata = holes.keys(Role::Vdata, inst.vdata);
            m.inputs.push(("VDATA", MemIn::Regs(vdata)));
        }
    }
    let mem = MemView::Space(AddrSpace::Global);
    Ok(m.bound(
        mem,
        kind == GlobalKind::Store,
        kind == GlobalKind::ScalarLoad,
    ))
}

/// The `VADDR` input. On gfx1250 the `_SADDR` form's 32-bit VGPR offset is signed (LLVM 22
/// `GCNSubtarget::hasSignedGVSOffset`: "FLAT GLOBAL VOffset is signed", gfx1250 only), and
/// `scale_offset` multiplies it by the access size (`hasScaleOffset`; llc-22 selects it for
/// `p + sext(i) * 4` with a dword access and `* 8` with a dwordx2 one,
/// tests/data/tv/bugs/fold-pk-*): a 64-bit value that global.pcode adds as it adds any VADDR.
/// Earlier targets zero-extend the offset (CDNA3 guide: SADDR + VADDR[31:0] + offset).
///
/// Errors: `scale_offset` on an access of another size (its scale is not checked).
fn vaddr_input(
    cx: LineCx,
    inst: &gcnsmt_lifter::GlobalInst,
    vaddr: Vec<super::regkey::RegKey>,
) -> Result<MemIn, InputError> {
    if inst.saddr.is_none() || cx.target != gcnsmt_semantics::target::Target::Gfx1250 {
        return Ok(MemIn::Regs(vaddr));
    }
    let scale = match (inst.scale_offset, inst.op.bytes) {
        (false, _) => 1,
        (true, b @ (4 | 8)) => b,
        (true, b) => {
            return Err(cx.err(
                1,
                format!(
                    "{}: scale_offset on a {b}-byte access is not modelled",
                    cx.mn
                ),
            ))
        }
    };
    Ok(MemIn::GvsOffset(vaddr, scale))
}

/// The text and column of an `offset:` modifier's value.
pub(super) fn offset_modifier(syn: &AsmSyntax) -> Option<(String, usize)> {
    syn.modifiers
        .iter()
        .find(|m| m.0 == "offset")
        .and_then(|(n, v, c)| v.clone().map(|v| (v, c + n.len() + 1)))
}

/// The `OFFSET` input (signed 32 bits): a symbolic offset is a field like DS offsets (pushed
/// to `fields`), a constant one the literal the assembler parsed (`parsed`, in bytes).
///
/// Errors: a malformed offset expression.
pub(super) fn offset_input(
    cx: LineCx,
    text: Option<(String, usize)>,
    parsed: i64,
    fields: &mut Vec<Field>,
) -> Result<MemIn, InputError> {
    let e = match text {
        Some((t, c)) if gcnsmt_lifter::asm::parse_int(&t).is_none() => {
            let f = cx.field("offset", &t, c, i32::MAX as u64)?;
            let e = f.expr.clone();
            fields.push(f);
            e
        }
        _ => gcnsmt_semantics::parse::parse_expr(&format!("{}", parsed as i32 as u32))
            .map_err(|e| cx.err(1, e.msg))?,
    };
    Ok(MemIn::Signed(e))
}
