//! The SALU carry chain: `S_ADDC_U32` and `S_SUBB_U32` read SCC as the carry (borrow) in and
//! write the carry (borrow) out; `S_SUB_U32` writes the borrow. LLVM splits every 64-bit scalar
//! add or subtract into `S_ADD_U32` + `S_ADDC_U32` (`S_SUB_U32` + `S_SUBB_U32`).
//!
//! AMD Vega ISA guide, SOP2: S_ADDC_U32 `D.u = S0.u + S1.u + SCC; SCC = carry-out`;
//! S_SUB_U32 `D.u = S0.u - S1.u; SCC = (S1.u > S0.u ? 1 : 0)` (the borrow); S_SUBB_U32
//! `D.u = S0.u - S1.u - SCC; SCC = borrow-out`. gfx12 renames them `S_ADD_CO_CI_U32`,
//! `S_SUB_CO_U32`, `S_SUB_CO_CI_U32` in assembly; MIR keeps these names.

use super::emit::{dwords, src, Side};
use super::mir::Inst;
use super::scc::{Temps, VAR};
use gcnsmt_semantics::target::Target;

/// Whether this module lowers `op`.
pub fn handles(op: &str) -> bool {
    matches!(op, "S_ADDC_U32" | "S_SUB_U32" | "S_SUBB_U32")
}

/// The lines of one carry-chain op: the result into scratch first (a source may be the
/// destination), then SCC, then the destination.
pub fn lower(side: &Side, i: &Inst, target: Target, t: &mut Temps) -> Result<Vec<String>, String> {
    let u: Vec<_> = i.uses().collect();
    let (Some(a), Some(b)) = (u.first(), u.get(1)) else {
        return Err("expected two sources".into());
    };
    let (a, b) = (src(side, a, target)?, src(side, b, target)?);
    let d = dwords(side, i.defs.first().ok_or("missing definition")?, target)?;
    let [d] = d.as_slice() else {
        return Err("a 32-bit result needs one dword".into());
    };
    let mut out = Vec::new();
    let (r, c1, c2) = (t.fresh(), t.fresh(), t.fresh());
    match i.opcode.as_str() {
        "S_ADDC_U32" => {
            // a + b wraps (carry 1) exactly when the sum is below a; adding the carry-in wraps
            // exactly when the result is below that sum. At most one of the two wraps.
            let s1 = t.fresh();
            out.push(format!("s_add_u32 {s1}, {a}, {b}"));
            out.extend(t.bool_of(&c1, "v_cmp_lt_u32", &s1, &a)?);
            out.push(format!("s_add_u32 {r}, {s1}, {VAR}"));
            out.extend(t.bool_of(&c2, "v_cmp_lt_u32", &r, &s1)?);
        }
        "S_SUB_U32" => {
            out.push(format!("s_sub_u32 {r}, {a}, {b}"));
            out.extend(t.bool_of(&c1, "v_cmp_lt_u32", &a, &b)?);
            out.push(format!("s_mov_b32 {c2}, 0"));
        }
        "S_SUBB_U32" => {
            // a - b borrows when a < b; subtracting the borrow-in borrows when a - b < it.
            let s1 = t.fresh();
            out.push(format!("s_sub_u32 {s1}, {a}, {b}"));
            out.extend(t.bool_of(&c1, "v_cmp_lt_u32", &a, &b)?);
            out.push(format!("s_sub_u32 {r}, {s1}, {VAR}"));
            out.extend(t.bool_of(&c2, "v_cmp_lt_u32", &s1, VAR)?);
        }
        op => return Err(format!("{op} is no carry-chain op")),
    }
    out.push(format!("s_or_b32 {VAR}, {c1}, {c2}"));
    out.push(format!("s_mov_b32 {d}, {r}"));
    Ok(out)
}
