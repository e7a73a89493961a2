//! Binding a DS line through the lifter's assembler.

use super::op::{Bound, CrossKind, Op};
use super::operands::{const_value, LineCx};
use super::regkey::RegKey;
use crate::rules::{InputError, Loc};
use gcnsmt_lifter::lift::ds_semantics;
use gcnsmt_lifter::table::ds_lookup;
use gcnsmt_lifter::{AsmSyntax, Role};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeMap;

/// The static name of an offset modifier.
pub(crate) fn name_of(modifier: &str) -> &'static str {
    match modifier {
        "offset0" => "offset0",
        "offset1" => "offset1",
        _ => "offset",
    }
}

pub(crate) fn bind_ds(cx: LineCx, syn: &AsmSyntax, mloc: Loc) -> Result<Bound, InputError> {
    let (rule, line, target, mn) = (cx.rule, cx.line, cx.target, cx.mn);
    let Some((_, shape)) = ds_lookup(target, mn) else {
        let on: Vec<&str> = Target::ALL
            .iter()
            .filter(|t| ds_lookup(**t, mn).is_some())
            .map(|t| t.name())
            .collect();
        // The same opcode's name on this target, from a target sharing its opcode numbering
        // (SI/CI, gfx10, gfx11 and gfx12 share one; VI, gfx9 and CDNA another).
        let vi = |t: Target| t.ds_layout() == gcnsmt_semantics::target::DsLayout::Vi;
        let hint = Target::ALL
            .into_iter()
            .filter(|t| vi(*t) == vi(target))
            .find_map(|t| ds_lookup(t, mn))
            .and_then(|(op, _)| gcnsmt_lifter::ds_by_opcode(target, op))
            .map(|(name, _)| format!("; on {target} this opcode is `{name}`"))
            .unwrap_or_default();
        return Err(if on.is_empty() {
            rule.error(mloc, format!("unknown mnemonic `{mn}`"))
        } else {
            rule.error(
                mloc,
                format!(
                    "{mn} is not available on {target} (it exists on {}){hint}",
                    on.join(", ")
                ),
            )
        });
    };
    let cross = CrossKind::of(mn);
    let sem = ds_semantics(mn);
    if sem.is_none() && cross.is_none() {
        return Err(rule.error(mloc, format!("{mn}: semantics not modelled")));
    }
    // The lifter's assembler checks operands and modifiers as llvm-mc does; variables are
    // holes in it (crate::holes).
    let mut holes = super::holes::RuleHoles::new(cx);
    let inst = gcnsmt_lifter::parse_asm_with(target, &line.text, &mut holes)
        .map_err(|e| cx.err(e.col, e.msg))?;
    let mut got: BTreeMap<&str, Vec<RegKey>> = BTreeMap::new();
    for (role, t) in [
        (Role::Vdst, inst.vdst),
        (Role::Addr, inst.addr),
        (Role::Data0, inst.data0),
        (Role::Data1, inst.data1),
    ] {
        got.insert(role.name(), holes.keys(role, t));
    }
    let var_uses = std::mem::take(&mut holes.uses);
    let gds = inst.gds;
    let (mut offset, mut offset0, mut offset1) = (None, None, None);
    let mut fields = Vec::new();
    for (name, val, col) in &syn.modifiers {
        let vcol = col + name.len() + 1;
        let Some(v) = val else { continue };
        let (slot, max) = match name.as_str() {
            "offset" => (&mut offset, 0xffff),
            "offset0" => (&mut offset0, 0xff),
            "offset1" => (&mut offset1, 0xff),
            _ => continue,
        };
        // The swizzle macro's value is the one the assembler computed.
        let text = if v.starts_with("swizzle(") {
            inst.offset16().to_string()
        } else {
            v.clone()
        };
        let f = cx.field(name_of(name), &text, vcol, max)?;
        *slot = Some(f.expr.clone());
        fields.push(f);
    }
    let mut take = |r: &str| got.remove(r).unwrap_or_default();
    if let Some(kind) = cross {
        let offset = match &offset {
            None => 0,
            Some(e) => match const_value(e) {
                Some(v) => v as u16,
                None => {
                    return Err(rule.error(
                        mloc,
                        format!(
                            "{mn}: a cross-lane instruction's offset must be a constant here \
                             (the swizzle pattern, the permute lane index and the transpose \
                             lane address depend on its bits)"
                        ),
                    ))
                }
            },
        };
        let fill = match kind {
            CrossKind::Transpose(t) => (0..t.read_bits() / 32)
                .map(|dw| RegKey::tr_fill(mloc.line, dw))
                .collect(),
            _ => Vec::new(),
        };
        return Ok(Bound {
            op: Op::Cross {
                mnemonic: mn.to_string(),
                kind,
                vdst: take("vdst"),
                addr: take("addr"),
                data0: take("data0"),
                offset,
                lanes: 0,
                fill,
            },
            loc: mloc,
            text: line.text.trim().to_string(),
            fields,
            var_uses,
        });
    }
    let (entry, def) = sem.expect("checked above");
    Ok(Bound {
        op: Op::Ds {
            mnemonic: mn.to_string(),
            def,
            entry,
            shape,
            vdst: take("vdst"),
            addr: take("addr"),
            data0: take("data0"),
            data1: take("data1"),
            offset,
            offset0,
            offset1,
            gds,
        },
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
}
