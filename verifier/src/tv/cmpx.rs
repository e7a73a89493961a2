//! `V_CMPX_*` in the EXEC model (docs/tv.md, "EXEC and lane masks"): EXEC bit L becomes
//! EXEC_L & compare(lane L's sources), the bit a `V_CMP` would write (inactive lanes get 0,
//! AMD guides "VOPC"), and so does the instruction's mask result where it has one.
//!
//! The forms LLVM 22 has, by their MIR operands (`llc-22 -run-pass=none` lists the missing
//! implicit operands of each opcode; llvm-mc-22 and llc-22's encoder say which target encodes
//! which; 2026-12-06, tests/data/tv/cmpx/README.md):
//! - gfx6-9: `%d = V_CMPX_<c>_e64 a, b, implicit-def $exec` (VOP3, an SGPR pair result) and
//!   `V_CMPX_<c>_e32 a, b, implicit-def $vcc, implicit-def $exec` (`v_cmpx_lt_i32_e32 vcc,
//!   v0, v1`): EXEC = D = result (Vega guide, "VOPC"), D = VCC for `_e32`;
//! - gfx10+: `V_CMPX_<c>_nosdst_e64` and `V_CMPX_<c>_nosdst_e32 a, b, implicit-def $exec`:
//!   EXEC only (RDNA guides, "VOPC": no SGPR destination; llvm-mc-22 encodes
//!   `v_cmpx_lt_i32_e64 v0, v1` with EXEC_LO in the VOP3 `vdst` field), no VCC write.
//!
//! A form on a target that has no encoding for it (the `nosdst` ones before gfx10, the others
//! from gfx10 on: llvm-mc-22 "operands are not valid for this GPU or mode", llc-22's encoder
//! crashes) is not modelled: no hardware runs it.

use super::emit::{self, Side};
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use gcnsmt_semantics::target::{Gen, Target};

/// A virtual register number no MIR function uses: the scratch mask while it is lowered as a
/// `V_CMP` result, renamed to `%exectmp_cmpK` ([`super::exec::TMP_PREFIX`]) afterwards.
const TMP_ID: u32 = u32::MAX;

/// The `V_CMP` opcode with the same compare and source layout as a `V_CMPX` (`nosdst` dropped):
/// `V_CMPX_LT_I32_nosdst_e64` -> `V_CMP_LT_I32_e64`. `None` for other opcodes.
pub fn as_vcmp(op: &str) -> Option<String> {
    let rest = op.strip_prefix("V_CMPX_")?;
    let rest = rest
        .strip_suffix("_nosdst_e64")
        .map(|b| format!("{b}_e64"))
        .or_else(|| rest.strip_suffix("_nosdst_e32").map(|b| format!("{b}_e32")))
        .unwrap_or_else(|| rest.to_string());
    Some(format!("V_CMP_{rest}"))
}

/// Lower a `V_CMPX_*` (module doc): the compare into its mask (the explicit result, `$vcc`, or
/// a scratch mask), ANDed with EXEC, then moved to EXEC. `ex`: EXEC's cells.
pub(super) fn lower(
    side: &Side,
    i: &Inst,
    target: Target,
    ex: &[String],
) -> Result<Vec<String>, String> {
    let op = i.opcode.as_str();
    let cmp = as_vcmp(op).ok_or("not a V_CMPX")?;
    let nosdst = op.contains("_nosdst_");
    let gfx10 = target.gen() >= Gen::Gfx10;
    if nosdst != gfx10 {
        return Err(format!(
            "{op} has no encoding on {} (a V_CMPX writes EXEC only from gfx10 on, EXEC and \
             its mask before)",
            target.name()
        ));
    }
    let writes_exec = i.ops.iter().any(|o| {
        o.flags.implicit_def && matches!(&o.kind, OpKind::Phys(p) if p == "exec" || p == "exec_lo")
    });
    if !writes_exec {
        return Err(format!(
            "{}{op} does not say `implicit-def $exec`",
            emit::MALFORMED
        ));
    }
    let (mut out, mask) = if nosdst {
        scratch_compare(side, i, &cmp, target)?
    } else {
        let mut j = i.clone();
        j.opcode = cmp;
        let out = emit::lower_inst(side, &j, target)?;
        // The `_e32` form's mask is its implicit `$vcc` (checked by the lowering above).
        let vcc = Operand {
            kind: OpKind::Phys("vcc".into()),
            flags: Default::default(),
            loc: i.loc,
        };
        let d = emit::dwords(side, i.defs.first().unwrap_or(&vcc), target)?;
        (out, d)
    };
    if mask.len() != ex.len() {
        return Err("a lane mask of the wrong width".into());
    }
    for (c, e) in mask.iter().zip(ex) {
        out.push(format!("s_and_b32 {c}, {c}, {e}"));
    }
    for (e, c) in ex.iter().zip(&mask) {
        out.push(format!("s_mov_b32 {e}, {c}"));
    }
    Ok(out)
}

/// The compare of a `nosdst` form as a `V_CMP_<c>_e64` into a scratch mask (no register of the
/// block): its lines and the scratch mask's cells. The `_e32` sources are put in the `_e64`
/// layout (zero modifiers before each source of a float compare, a zero clamp after).
fn scratch_compare(
    side: &Side,
    i: &Inst,
    cmp: &str,
    target: Target,
) -> Result<(Vec<String>, Vec<String>), String> {
    let width = emit::phys("exec", target)?.len();
    let mut j = i.clone();
    if let Some(base) = cmp.strip_suffix("_e32") {
        j.opcode = format!("{base}_e64");
        let Some(MirOp::Alu {
            srcs,
            mods,
            trailing,
            ..
        }) = opcodes::lookup(target, &j.opcode)
        else {
            return Err("not modelled".into());
        };
        let uses: Vec<Operand> = i.uses().cloned().collect();
        if uses.len() != usize::from(srcs) {
            return Err(format!(
                "{}expected {srcs} operands, found {}",
                emit::MALFORMED,
                uses.len()
            ));
        }
        let zero = |o: &Operand| Operand {
            kind: OpKind::Imm(0),
            flags: Default::default(),
            loc: o.loc,
        };
        let mut ops = Vec::new();
        for (n, o) in uses.iter().enumerate() {
            if n < usize::from(mods) {
                ops.push(zero(o));
            }
            ops.push(o.clone());
        }
        for _ in 0..trailing {
            ops.push(zero(&uses[0]));
        }
        ops.extend(i.ops.iter().filter(|o| o.flags.implicit).cloned());
        j.ops = ops;
    } else {
        j.opcode = cmp.to_string();
    }
    j.defs = vec![Operand {
        kind: OpKind::VReg {
            id: TMP_ID,
            sub: None,
        },
        flags: Default::default(),
        loc: i.loc,
    }];
    let mut classes = side.classes.clone();
    let class = if width == 2 { "sreg_64" } else { "sreg_32" };
    classes.insert(TMP_ID, class.to_string());
    let tmp_side = Side {
        classes: &classes,
        ..side.clone()
    };
    let from = format!("%r{TMP_ID}_");
    let to = format!("%{}cmp", super::exec::TMP_PREFIX);
    let out = emit::lower_inst(&tmp_side, &j, target)?
        .into_iter()
        .map(|l| l.replace(&from, &to))
        .collect();
    let mask = (0..width).map(|k| format!("{to}{k}")).collect();
    Ok((out, mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compare_of_each_form() {
        // Opcode names as llc-22 prints them (tests/data/tv/cmpx/README.md).
        for (cmpx, cmp) in [
            ("V_CMPX_LT_I32_nosdst_e64", "V_CMP_LT_I32_e64"),
            ("V_CMPX_LT_U32_nosdst_e32", "V_CMP_LT_U32_e32"),
            ("V_CMPX_GT_F32_e64", "V_CMP_GT_F32_e64"),
            ("V_CMPX_EQ_U32_e32", "V_CMP_EQ_U32_e32"),
        ] {
            assert_eq!(as_vcmp(cmpx).as_deref(), Some(cmp), "{cmpx}");
        }
        assert_eq!(as_vcmp("V_CMP_LT_I32_e64"), None);
    }
}
