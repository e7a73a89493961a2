//! FLAT loads/stores in rules: binding a line through the lifter's FLAT assembler
//! ([`gcnsmt_lifter::parse_flat_with`]) to a [`MemOp`] whose memory is the FLAT view
//! ([`MemView::Flat`]): LDS, scratch or global memory by the aperture of the address.

use super::global::{holes_or, offset_input, offset_modifier};
use super::holes::parse_line;
use super::op::{Bound, MemIn, MemOp, Op};
use super::regkey::RegKey;
use crate::rules::{InputError, Line, Rule};
use gcnsmt_lifter::{parse_flat_with, GlobalKind, Role};
use gcnsmt_semantics::eval::MemView;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// Bind one FLAT line. Besides its operands the op reads `SHARED_BASE` and `PRIVATE_BASE`
/// ([`RegKey::aperture`]), inputs both sides of a rule share.
///
/// Errors (file:line:col): whatever the FLAT assembler rejects for the target, and a mnemonic
/// without semantics.
pub fn bind_flat(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
    mn: &str,
) -> Result<Bound, InputError> {
    let (inst, mut holes, syn, mloc, def) =
        parse_line(rule, line, target, imms, mn, parse_flat_with, |i| &i.entry)?;
    let mut fields = Vec::new();
    let offset = offset_input(
        rule,
        line,
        offset_modifier(&syn),
        inst.offset,
        imms,
        &mut fields,
    )?;
    let vaddr = holes_or(&mut holes, Role::Vaddr, inst.vaddr);
    let mut inputs = vec![
        ("OFFSET", offset),
        ("VADDR", MemIn::Regs(vaddr)),
        ("SHARED_BASE", MemIn::Regs(vec![RegKey::aperture(true)])),
        ("PRIVATE_BASE", MemIn::Regs(vec![RegKey::aperture(false)])),
    ];
    let mut outputs = Vec::new();
    let store = inst.op.kind == GlobalKind::Store;
    if store {
        let vdata = holes_or(&mut holes, Role::Vdata, inst.vdata);
        inputs.push(("VDATA", MemIn::Regs(vdata)));
    } else {
        outputs.push(("RETURN_DATA", holes_or(&mut holes, Role::Vdst, inst.vdst)));
    }
    let var_uses = std::mem::take(&mut holes.uses);
    Ok(Bound {
        op: Op::Mem(Box::new(MemOp {
            mnemonic: mn.to_string(),
            def,
            entry: inst.entry.clone(),
            inputs,
            outputs,
            mem: MemView::Flat,
            writes_memory: store,
            scalar: false,
        })),
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
}
