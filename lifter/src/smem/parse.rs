//! The scalar buffer-load assembler (LLVM syntax, with operand holes).

use gcnsmt_semantics::target::{Gen, Target};

use super::{is_smem_mnemonic, smem_buffer_offset_range, smem_lookup, SOffset, SmemInst};
use crate::asm::{AsmError, AsmResult};
use crate::global::parse::{parse_sgprs, Ctx};
use crate::holes::{Holes, Role};
use crate::lex::err;
use crate::operand::{expect_operands, lookup_mnemonic};

/// Parse one `s_buffer_load_*` line (see [`SmemInst`](crate::SmemInst)) for `target`, with operand holes.
///
/// Errors (column and message): unknown mnemonic or one the target lacks, operand count,
/// SGPR widths, alignment and range, an offset out of range or of the wrong kind for the
/// target (`sN offset:N` before gfx9, `null` before gfx10), any other modifier.
pub fn parse_smem_with(target: Target, line: &str, holes: &mut dyn Holes) -> AsmResult<SmemInst> {
    let (syn, (dwords, entry)) =
        lookup_mnemonic(line, target, "scalar", smem_lookup, is_smem_mnemonic)?;
    let mn = syn.mnemonic.as_str();
    let ops = &syn.operands;
    expect_operands(&syn, mn, &["sdst", "sbase", "offset"], "operands")?;
    let mut cx = Ctx { target, mn, holes };
    let sdst = cx.sgprs(Role::Sdst, &ops[0].0, ops[0].1, dwords)?;
    let sbase = cx.sgprs(Role::Sbase, &ops[1].0, ops[1].1, 4)?;
    let (lo, hi, unit) = smem_buffer_offset_range(target);
    let (t, c) = (ops[2].0.trim(), ops[2].1);
    let mut soffset = None;
    let mut offset = 0;
    // A bare rule variable here is a register; a symbolic immediate is written `(%o)`.
    let reg = parse_sgprs(t).is_some()
        || matches!(t, "m0" | "null")
        || t.starts_with('%')
        || t.starts_with('{');
    if reg {
        soffset = register_offset(&mut cx, t, c)?;
    } else {
        offset = cx.offset(t, c, lo, hi)? * unit;
    }
    for (name, value, col) in &syn.modifiers {
        match (name.as_str(), value) {
            ("offset", Some(v)) if reg => {
                if target.gen() < Gen::Gfx9 {
                    return err(*col, format!("{mn}: `offset:` with a register needs gfx9+"));
                }
                if offset != 0 {
                    return err(*col, "duplicate offset");
                }
                offset = cx.offset(v, col + "offset:".len(), lo, hi)? * unit;
            }
            _ => return err(*col, format!("`{name}` is not modelled for {mn}")),
        }
    }
    Ok(SmemInst {
        target,
        mnemonic: mn.to_string(),
        entry,
        sdst,
        sbase,
        soffset,
        offset,
    })
}

/// An SGPR, `m0` or `null` (gfx10+) offset; a hole stands for an SGPR (stand-in `s0`).
fn register_offset(cx: &mut Ctx, t: &str, c: usize) -> Result<Option<SOffset>, AsmError> {
    if t == "m0" {
        return Ok(Some(SOffset::M0));
    }
    if t == "null" {
        if cx.target.gen() < Gen::Gfx10 {
            return err(c, format!("`null` is not a register on {}", cx.target));
        }
        return Ok(None);
    }
    let s = cx.sgprs(Role::Soffset, t, c, 1)?;
    Ok(Some(SOffset::Sgpr(s.first)))
}
