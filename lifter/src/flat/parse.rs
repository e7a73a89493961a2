//! The FLAT family's assembler (LLVM syntax, with operand holes), on the GLOBAL assembler's
//! operand parsers.

use gcnsmt_semantics::target::Target;

use super::{flat_lookup, flat_offset_range, is_flat_mnemonic};
use crate::asm::{parse_syntax_with, AsmError};
use crate::global::parse::Ctx;
use crate::global::{GlobalInst, GlobalKind};
use crate::holes::{Holes, Role};
use crate::lex::err;
use crate::operand::lookup_mnemonic;

/// Parse one FLAT line (`flat_load_*`, `flat_store_*`) for `target`, with operand holes.
///
/// Errors (column and message): unknown mnemonic or one the target lacks, operand count,
/// register widths, classes, alignment and range, an offset out of the target's range (any
/// but 0 on gfx7/gfx8), modifiers other than `offset:` (cache policy is not modelled).
pub fn parse_flat_with(
    target: Target,
    line: &str,
    holes: &mut dyn Holes,
) -> Result<GlobalInst, AsmError> {
    let syn = parse_syntax_with(line, &[])?;
    let (op, entry) = lookup_mnemonic(&syn, target, "FLAT", flat_lookup, is_flat_mnemonic)?;
    let mn = syn.mnemonic.as_str();
    let ops = &syn.operands;
    let load = op.kind == GlobalKind::Load;
    if ops.len() != 2 {
        let col = ops.get(2).map_or(syn.end_col, |o| o.1);
        let names = if load { "vdst, vaddr" } else { "vaddr, vdata" };
        return err(
            col,
            format!("{mn} takes 2 operands ({names}), got {}", ops.len()),
        );
    }
    let mut cx = Ctx { target, mn, holes };
    let (addr_i, data_i, data_role) = if load {
        (1, 0, Role::Vdst)
    } else {
        (0, 1, Role::Vdata)
    };
    let vaddr = cx.vgprs(Role::Vaddr, &ops[addr_i].0, ops[addr_i].1, 2)?;
    let data = cx.vgprs(data_role, &ops[data_i].0, ops[data_i].1, op.dwords())?;
    let mut offset = None;
    for (name, value, col) in &syn.modifiers {
        match (name.as_str(), value) {
            ("offset", Some(v)) if offset.is_none() => {
                let (lo, hi) = flat_offset_range(target);
                offset = Some(cx.offset(v, col + "offset:".len(), lo, hi)?);
            }
            ("offset", _) => return err(*col, "duplicate or empty offset"),
            _ => {
                return err(
                    *col,
                    format!("`{name}` is not modelled for {mn} (cache policy)"),
                )
            }
        }
    }
    Ok(GlobalInst {
        target,
        mnemonic: mn.to_string(),
        entry,
        op,
        vdst: load.then_some(data),
        vaddr: Some(vaddr),
        vdata: (!load).then_some(data),
        saddr: None,
        sdst: None,
        sbase: None,
        offset: offset.unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holes::NoHoles;
    use crate::inst::RegTuple;

    fn parse(t: Target, s: &str) -> Result<GlobalInst, AsmError> {
        parse_flat_with(t, s, &mut NoHoles)
    }

    // Accepted and rejected lines as llvm-mc-22 decides them (module doc of `crate::flat`).
    #[test]
    fn operands_and_offsets_as_llvm_mc_accepts_them() {
        let i = parse(Target::Gfx900, "flat_load_dword v1, v[2:3] offset:4095").unwrap();
        assert_eq!(i.vdst, Some(RegTuple::v(1, 1)));
        assert_eq!(i.vaddr, Some(RegTuple::v(2, 2)));
        assert_eq!((i.offset, i.entry.as_str()), (4095, "FLAT_LOAD_B32"));
        let i = parse(Target::Gfx802, "flat_store_dwordx2 v[2:3], v[4:5]").unwrap();
        assert_eq!(i.vdata, Some(RegTuple::v(4, 2)));
        assert!(parse(Target::Gfx802, "flat_load_dword v1, v[2:3] offset:0").is_ok());
        assert!(parse(Target::Gfx802, "flat_load_dword v1, v[2:3] offset:4").is_err());
        assert!(parse(Target::Gfx900, "flat_load_dword v1, v[2:3] offset:4096").is_err());
        assert!(parse(Target::Gfx900, "flat_load_dword v1, v[2:3] offset:-1").is_err());
        assert!(parse(Target::Gfx1030, "flat_load_dword v1, v[2:3] offset:2048").is_err());
        assert!(parse(
            Target::Gfx1200,
            "flat_load_dword v1, v[2:3] offset:-8388608"
        )
        .is_ok());
        assert!(parse(Target::Gfx600, "flat_load_dword v1, v[2:3]").is_err());
        assert!(parse(Target::Gfx900, "flat_load_dword v1, v2").is_err());
        assert!(parse(Target::Gfx900, "flat_load_dword v1, v[2:3], off").is_err());
        assert!(parse(Target::Gfx900, "flat_load_dword v1, v[2:3] glc").is_err());
        // gfx90a needs even-aligned tuples.
        assert!(parse(Target::Gfx90a, "flat_load_dwordx2 v[1:2], v[2:3]").is_err());
    }
}
