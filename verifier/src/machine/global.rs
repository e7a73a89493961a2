//! GLOBAL loads/stores and scalar loads in rules: binding a line through the lifter's global
//! assembler ([`gcnsmt_lifter::parse_global_with`]) to a [`MemOp`] frame.

use super::holes::{parse_line, tuple_keys, RuleHoles};
use super::op::{Bound, Field, MemIn, MemOp, Op};
use super::operands::{field, loc_at};
use super::regkey::RegKey;
use crate::rules::{InputError, Line, Rule};
use gcnsmt_lifter::asm::AsmSyntax;
use gcnsmt_lifter::{parse_global_with, GlobalKind, Role, Sgprs};
use gcnsmt_semantics::eval::{AddrSpace, MemView};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

pub(super) fn sgpr_keys(s: &Sgprs) -> Vec<RegKey> {
    (0..u32::from(s.count))
        .map(|i| RegKey {
            base: "s".into(),
            idx: u32::from(s.first) + i,
            lane: None,
        })
        .collect()
}

/// Bind one GLOBAL or scalar-load line.
///
/// Errors (file:line:col): whatever the global assembler rejects for the target, and a
/// mnemonic without semantics.
pub fn bind_global(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
    mn: &str,
) -> Result<Bound, InputError> {
    let (inst, mut holes, syn, mloc, def) =
        parse_line(rule, line, target, imms, mn, parse_global_with, |i| {
            &i.entry
        })?;
    let vec = |h: &mut RuleHoles, r: Role, t| holes_or(h, r, t);
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut fields = Vec::new();
    let off_text = match inst.op.kind {
        GlobalKind::ScalarLoad => syn.operands.get(2).map(|(t, c)| (t.clone(), *c)),
        _ => offset_modifier(&syn),
    };
    let offset = offset_input(rule, line, off_text, inst.offset, imms, &mut fields)?;
    inputs.push(("OFFSET", offset));
    match inst.op.kind {
        GlobalKind::ScalarLoad => {
            let sbase = match holes.keys(Role::Sbase, None) {
                k if !k.is_empty() => k,
                _ => sgpr_keys(&inst.sbase.expect("parsed")),
            };
            inputs.push(("SBASE", MemIn::Regs(sbase)));
            let sdst = match holes.keys(Role::Sdst, None) {
                k if !k.is_empty() => k,
                _ => sgpr_keys(&inst.sdst.expect("parsed")),
            };
            outputs.push(("SDATA", sdst));
        }
        kind => {
            let saddr = match (holes.keys(Role::Saddr, None), inst.saddr) {
                (k, _) if !k.is_empty() => MemIn::Regs(k),
                (_, Some(s)) => MemIn::Regs(sgpr_keys(&s)),
                (_, None) => MemIn::Zero(64),
            };
            inputs.push(("SADDR", saddr));
            inputs.push((
                "VADDR",
                MemIn::Regs(vec(&mut holes, Role::Vaddr, inst.vaddr)),
            ));
            if kind == GlobalKind::Load {
                outputs.push(("RETURN_DATA", vec(&mut holes, Role::Vdst, inst.vdst)));
            } else {
                inputs.push((
                    "VDATA",
                    MemIn::Regs(vec(&mut holes, Role::Vdata, inst.vdata)),
                ));
            }
        }
    }
    let var_uses = std::mem::take(&mut holes.uses);
    Ok(Bound {
        op: Op::Mem(Box::new(MemOp {
            mnemonic: mn.to_string(),
            def,
            entry: inst.entry.clone(),
            inputs,
            outputs,
            mem: MemView::Space(AddrSpace::Global),
            writes_memory: inst.op.kind == GlobalKind::Store,
            scalar: inst.op.kind == GlobalKind::ScalarLoad,
        })),
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
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
    rule: &Rule,
    line: &Line,
    text: Option<(String, usize)>,
    parsed: i64,
    imms: &BTreeSet<String>,
    fields: &mut Vec<Field>,
) -> Result<MemIn, InputError> {
    let e = match text {
        Some((t, c)) if gcnsmt_lifter::asm::parse_int(&t).is_none() => {
            let f = field(rule, line, "offset", &t, c, i32::MAX as u64, imms)?;
            let e = f.expr.clone();
            fields.push(f);
            e
        }
        _ => gcnsmt_semantics::parse::parse_expr(&format!("{}", parsed as i32 as u32))
            .map_err(|e| rule.error(loc_at(line, 1), e.msg))?,
    };
    Ok(MemIn::Signed(e))
}

/// The registers a role's operand names: the hole's keys, else the parsed tuple's.
pub(super) fn holes_or(
    h: &mut RuleHoles,
    role: Role,
    t: Option<gcnsmt_lifter::RegTuple>,
) -> Vec<RegKey> {
    let k = h.keys(role, None);
    if !k.is_empty() {
        return k;
    }
    t.map(|t| tuple_keys(&t)).unwrap_or_default()
}
