//! Scalar buffer loads (`s_buffer_load_*`) in rules: binding a line through the lifter's
//! assembler ([`gcnsmt_lifter::parse_smem_with`]) to a [`MemOp`] frame, and the two V# values
//! `semantics/pcode/smem.pcode` reads (BASE, SIZE), decoded per target.

use super::global::sgpr_keys;
use super::holes::RuleHoles;
use super::op::{Bound, MemIn, MemOp, Op, VsharpPart};
use super::operands::{field, loc_at};
use super::regkey::RegKey;
use crate::rules::{InputError, Line, Rule};
use gcnsmt_lifter::asm::parse_syntax;
use gcnsmt_lifter::{parse_smem_with, Role, SOffset};
use gcnsmt_semantics::buffer::VsharpLayout;
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::domain::{BvOp, CmpOp, Domain};
use gcnsmt_semantics::settings::SbufferSize;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::BTreeSet;

/// The output variables of smem.pcode, four dwords each (values are at most 128 bits).
const SDATA: [&str; 4] = ["SDATA", "SDATA1", "SDATA2", "SDATA3"];

/// Bind one `s_buffer_load_*` line.
///
/// Errors (file:line:col): whatever the lifter's assembler rejects for the target, a
/// symbolic offset on gfx6/gfx7 (whose offsets count dwords), a mnemonic without semantics.
pub fn bind_smem(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
    mn: &str,
) -> Result<Bound, InputError> {
    let mut holes = RuleHoles::new(rule, line, target, imms, mn);
    let inst = parse_smem_with(target, &line.text, &mut holes)
        .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let syn = parse_syntax(&line.text).map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let mloc = loc_at(line, syn.mnemonic_col);
    let Some(def) = Library::builtin().get(&inst.entry) else {
        return Err(rule.error(mloc, format!("{mn}: semantics not modelled")));
    };
    // The immediate: the third operand, or `offset:` after a register offset.
    let off_text = match inst.soffset {
        None if !syn.modifiers.iter().any(|m| m.0 == "offset") => {
            syn.operands.get(2).map(|(t, c)| (t.trim().to_string(), *c))
        }
        _ => syn
            .modifiers
            .iter()
            .find(|m| m.0 == "offset")
            .and_then(|(n, v, c)| v.clone().map(|v| (v, c + n.len() + 1))),
    };
    let mut fields = Vec::new();
    let offset = match off_text {
        Some((t, c)) if t != "null" && gcnsmt_lifter::asm::parse_int(&t).is_none() => {
            if target.gen() <= Gen::Gfx7 {
                return Err(rule.error(
                    loc_at(line, c),
                    format!(
                        "{mn}: a symbolic offset on {target} (counted in dwords) is not modelled"
                    ),
                ));
            }
            let (_, hi, _) = gcnsmt_lifter::smem_buffer_offset_range(target);
            let f = field(rule, line, "offset", &t, c, hi as u64, imms)?;
            let e = f.expr.clone();
            fields.push(f);
            e
        }
        _ => gcnsmt_semantics::parse::parse_expr(&format!("{}", inst.offset))
            .map_err(|e| rule.error(mloc, e.msg))?,
    };
    let sbase = match holes.keys(Role::Sbase, None) {
        k if !k.is_empty() => k,
        _ => sgpr_keys(&inst.sbase),
    };
    let soffset = match (holes.keys(Role::Soffset, None), inst.soffset) {
        (k, _) if !k.is_empty() => MemIn::Regs(k),
        (_, Some(SOffset::Sgpr(n))) => MemIn::Regs(vec![RegKey {
            base: "s".into(),
            idx: u32::from(n),
            lane: None,
        }]),
        (_, Some(SOffset::M0)) => MemIn::Regs(vec![RegKey::m0()]),
        (_, None) => MemIn::Zero(32),
    };
    let sdst = match holes.keys(Role::Sdst, None) {
        k if !k.is_empty() => k,
        _ => sgpr_keys(&inst.sdst),
    };
    let layout = VsharpLayout::of(target);
    let inputs = vec![
        ("OFFSET", MemIn::Signed(offset)),
        ("SOFFSET", soffset),
        (
            "BASE",
            MemIn::Vsharp(sbase.clone(), layout, VsharpPart::Base),
        ),
        ("SIZE", MemIn::Vsharp(sbase, layout, VsharpPart::Size)),
    ];
    let outputs = sdst
        .chunks(4)
        .zip(SDATA)
        .map(|(k, n)| (n, k.to_vec()))
        .collect();
    let var_uses = std::mem::take(&mut holes.uses);
    Ok(Bound {
        op: Op::Mem(Box::new(MemOp {
            mnemonic: mn.to_string(),
            def,
            entry: inst.entry.clone(),
            inputs,
            outputs,
            mem: gcnsmt_semantics::eval::MemView::Space(gcnsmt_semantics::eval::AddrSpace::Global),
            writes_memory: false,
            scalar: true,
        })),
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
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
