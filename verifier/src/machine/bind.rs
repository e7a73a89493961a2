//! Binding one rule line: dispatch to the DS, MUBUF, GLOBAL, SMEM or VALU/SALU binder.

use super::alu::bind_alu;
use super::ds::bind_ds;
use super::op::Bound;
use super::operands::{collect_vars, loc_at, LineCx};
use crate::rules::{InputError, Line, Rule};
use gcnsmt_lifter::asm::parse_syntax;
use gcnsmt_lifter::Family;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// Bind one instruction line of `rule` for `target`.
///
/// Errors (with file:line:col): unknown mnemonic, mnemonic the target lacks, no semantics,
/// wrong operand count or tuple size, misaligned tuple where the target requires alignment,
/// AGPR where not allowed, unknown or misplaced modifier, out-of-range constant immediate,
/// malformed immediate expression.
pub fn bind(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
) -> Result<Bound, InputError> {
    // MUBUF operand syntax (`off`, `offen`) is not DS syntax.
    let buffer = super::buffer::is_buffer_line(&line.text);
    let syn = if buffer {
        gcnsmt_lifter::parse_mubuf_syntax(&line.text)
    } else {
        parse_syntax(&line.text)
    }
    .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let mn = syn.mnemonic.to_ascii_lowercase();
    let mloc = loc_at(line, syn.mnemonic_col);
    let cx = LineCx {
        rule,
        line,
        target,
        imms,
        mn: &mn,
    };
    if buffer {
        return super::buffer::bind_buf(cx, &syn, mloc);
    }
    match gcnsmt_lifter::family_of(&mn).map(|f| f.family) {
        Some(Family::Ds) => bind_ds(cx, &syn, mloc),
        Some(Family::Global) => super::global::bind_global(cx),
        Some(Family::Smem) => super::smem::bind_smem(cx),
        Some(Family::Flat) => super::flat::bind_flat(cx),
        Some(Family::Alu) => bind_alu(cx, &syn, mloc),
        Some(Family::Mubuf) | None => {
            Err(rule.error(mloc, format!("unknown mnemonic `{}`", syn.mnemonic)))
        }
    }
}

/// Variables of a rule: which are immediates (used in a modifier such as `offset:%o`) and
/// which are registers.
pub fn immediate_vars(rule: &Rule) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for l in rule.source.iter().chain(&rule.target) {
        let parsed = if super::buffer::is_buffer_line(&l.text) {
            gcnsmt_lifter::parse_mubuf_syntax(&l.text)
        } else {
            parse_syntax(&l.text)
        };
        if let Ok(syn) = parsed {
            for (_, v, _) in &syn.modifiers {
                if let Some(v) = v {
                    collect_vars(v, &mut out);
                }
            }
            for (o, _) in &syn.operands {
                // `(expr)` and numbers in source positions are immediates; a bare `%v` there
                // is an immediate only if a modifier uses it too.
                if o.starts_with('(') {
                    collect_vars(o, &mut out);
                }
            }
        }
    }
    out
}
