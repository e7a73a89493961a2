//! FLAT loads/stores in rules: binding a line through the lifter's FLAT assembler
//! ([`gcnsmt_lifter::parse_flat_with`]) to a [`super::op::MemOp`] whose memory is the FLAT view
//! ([`MemView::Flat`]): LDS, scratch or global memory by the aperture of the address.

use super::global::{offset_input, offset_modifier};
use super::holes::MemLine;
use super::op::{Bound, MemIn};
use super::operands::LineCx;
use super::regkey::RegKey;
use crate::rules::InputError;
use gcnsmt_lifter::{parse_flat_with, GlobalKind, Role};
use gcnsmt_semantics::eval::MemView;

/// Bind one FLAT line. Besides its operands the op reads `SHARED_BASE` and `PRIVATE_BASE`
/// ([`RegKey::aperture`]), inputs both sides of a rule share.
///
/// Errors (file:line:col): whatever the FLAT assembler rejects for the target, and a mnemonic
/// without semantics.
pub fn bind_flat(cx: LineCx) -> Result<Bound, InputError> {
    let mut m = MemLine::parse(cx, parse_flat_with, |i| &i.entry)?;
    let off_text = offset_modifier(&m.syn);
    let offset = offset_input(cx, off_text, m.inst.offset, &mut m.fields)?;
    let vaddr = m.holes.keys(Role::Vaddr, m.inst.vaddr);
    m.inputs = vec![
        ("OFFSET", offset),
        ("VADDR", MemIn::Regs(vaddr)),
        ("SHARED_BASE", MemIn::Regs(vec![RegKey::aperture(true)])),
        ("PRIVATE_BASE", MemIn::Regs(vec![RegKey::aperture(false)])),
    ];
    let store = m.inst.op.kind == GlobalKind::Store;
    if store {
        let vdata = m.holes.keys(Role::Vdata, m.inst.vdata);
        m.inputs.push(("VDATA", MemIn::Regs(vdata)));
    } else {
        let vdst = m.holes.keys(Role::Vdst, m.inst.vdst);
        m.outputs.push(("RETURN_DATA", vdst));
    }
    Ok(m.bound(MemView::Flat, store, false))
}
