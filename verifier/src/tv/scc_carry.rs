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
    matches!(
        op,
        "S_ADDC_U32" | "S_SUB_U32" | "S_SUBB_U32" | "S_ADD_U64_PSEUDO" | "S_SUB_U64_PSEUDO"
    )
}

/// The lines of one carry-chain op: the result into scratch first (a source may be the
/// destination), then SCC, then the destination.
pub fn lower(side: &Side, i: &Inst, target: Target, t: &mut Temps) -> Result<Vec<String>, String> {
    if i.opcode.ends_with("_U64_PSEUDO") {
        return pseudo64(side, i, target, t);
    }
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

/// `%d:sreg_64 = S_ADD_U64_PSEUDO %a, %b, implicit-def $scc` (`S_SUB_U64_PSEUDO`): the 64-bit
/// sum (difference) as LLVM expands it before gfx1250 (`SIISelLowering`: `S_ADD_U32` of the
/// low halves, `S_ADDC_U32` of the high ones; `S_SUB_U32` + `S_SUBB_U32`), so SCC is the carry
/// (borrow) out of the whole. An immediate is split into its two halves as that expansion does.
/// gfx12 and gfx1250 expand it to `s_add_nc_u64` (llvm-mc-22 assembles it there, not on
/// gfx11 or gfx942), which leaves SCC alone: not modelled there (breaker 16's 01: taking the
/// carry as SCC on gfx1200 proved a select that reads the SCC of an earlier compare).
fn pseudo64(side: &Side, i: &Inst, target: Target, t: &mut Temps) -> Result<Vec<String>, String> {
    if target.gen() >= gcnsmt_semantics::target::Gen::Gfx12 {
        return Err(format!("{} is not modelled on {}", i.opcode, target.name()));
    }
    let u: Vec<_> = i.uses().collect();
    let [a, b] = u.as_slice() else {
        return Err(format!("expected 2 sources, found {}", u.len()));
    };
    let (a, b) = (
        super::alu64::halves(side, a, target)?,
        super::alu64::halves(side, b, target)?,
    );
    let d = dwords(side, i.defs.first().ok_or("missing definition")?, target)?;
    let [d0, d1] = d.as_slice() else {
        return Err("a 64-bit result needs two dwords".into());
    };
    let sub = i.opcode.starts_with("S_SUB");
    let (op, cmp) = if sub {
        ("s_sub_u32", true)
    } else {
        ("s_add_u32", false)
    };
    let mut out = Vec::new();
    let (lo, c, s1, hi, c1, c2) = (
        t.fresh(),
        t.fresh(),
        t.fresh(),
        t.fresh(),
        t.fresh(),
        t.fresh(),
    );
    // Low half and its carry (a0 + b0 wraps when the sum is below a0) or borrow (a0 < b0).
    out.push(format!("{op} {lo}, {}, {}", a[0], b[0]));
    if cmp {
        out.extend(t.bool_of(&c, "v_cmp_lt_u32", &a[0], &b[0])?);
    } else {
        out.extend(t.bool_of(&c, "v_cmp_lt_u32", &lo, &a[0])?);
    }
    // High half with the carry (borrow) in; the carry out of either step is SCC.
    out.push(format!("{op} {s1}, {}, {}", a[1], b[1]));
    if cmp {
        out.extend(t.bool_of(&c1, "v_cmp_lt_u32", &a[1], &b[1])?);
        out.push(format!("{op} {hi}, {s1}, {c}"));
        out.extend(t.bool_of(&c2, "v_cmp_lt_u32", &s1, &c)?);
    } else {
        out.extend(t.bool_of(&c1, "v_cmp_lt_u32", &s1, &a[1])?);
        out.push(format!("{op} {hi}, {s1}, {c}"));
        out.extend(t.bool_of(&c2, "v_cmp_lt_u32", &hi, &s1)?);
    }
    out.push(format!("s_or_b32 {VAR}, {c1}, {c2}"));
    out.push(format!("s_mov_b32 {d0}, {lo}"));
    out.push(format!("s_mov_b32 {d1}, {hi}"));
    Ok(out)
}
