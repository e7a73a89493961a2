//! The FLAT family's assembler (LLVM syntax, with operand holes), on the GLOBAL assembler's
//! operand parsers.

use gcnsmt_semantics::target::Target;

use super::{flat_lookup, flat_offset_range, is_flat_mnemonic};
use crate::asm::AsmResult;
use crate::global::parse::Ctx;
use crate::global::{GlobalInst, GlobalKind};
use crate::holes::{Holes, Role};
use crate::lex::err;
use crate::operand::{expect_operands, lookup_mnemonic};

/// Parse one FLAT line (`flat_load_*`, `flat_store_*`) for `target`, with operand holes.
///
/// Errors (column and message): unknown mnemonic or one the target lacks, operand count,
/// register widths, classes, alignment and range, an offset out of the target's range (any
/// but 0 on gfx7/gfx8), modifiers other than `offset:` (cache policy is not modelled).
pub fn parse_flat_with(target: Target, line: &str, holes: &mut dyn Holes) -> AsmResult<GlobalInst> {
    let (syn, (op, entry)) = lookup_mnemonic(line, target, "FLAT", flat_lookup, is_flat_mnemonic)?;
    let mn = syn.mnemonic.as_str();
    let ops = &syn.operands;
    let load = op.kind == GlobalKind::Load;
    let names = if load {
        ["vdst", "vaddr"]
    } else {
        ["vaddr", "vdata"]
    };
    expect_operands(&syn, mn, &names, "operands")?;
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
        scale_offset: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holes::NoHoles;
    use crate::inst::RegTuple;

    fn parse(t: Target, s: &str) -> AsmResult<GlobalInst> {
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
        let ok = |t: &str, line: &str| parse(t.parse().unwrap(), line).is_ok();
        gcnsmt_testkit::assert_accepts(
            ok,
            "gfx802 ok flat_load_dword v1, v[2:3] offset:0
             gfx802 err flat_load_dword v1, v[2:3] offset:4
             gfx900 err flat_load_dword v1, v[2:3] offset:4096
             gfx900 err flat_load_dword v1, v[2:3] offset:-1
             gfx1030 err flat_load_dword v1, v[2:3] offset:2048
             gfx1200 ok flat_load_dword v1, v[2:3] offset:-8388608
             gfx600 err flat_load_dword v1, v[2:3]
             gfx900 err flat_load_dword v1, v2
             gfx900 err flat_load_dword v1, v[2:3], off
             gfx900 err flat_load_dword v1, v[2:3] glc
             # gfx90a needs even-aligned tuples.
             gfx90a err flat_load_dwordx2 v[1:2], v[2:3]",
        );
    }
}
