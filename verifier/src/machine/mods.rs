//! VOP3/VOP3P modifiers of a VALU rule line (`-|%a|`, `clamp`, `op_sel:[0,1]`): parsed from the
//! operands and modifiers llvm-mc-22 prints, then applied around the op's semantics entry with
//! [`gcnsmt_semantics::modifiers`] (sources before it, `clamp` on D0 after it). Which
//! modifiers an op takes is its [`AluMods`]; any other is an error, so nothing is dropped.

use super::operands::LineCx;
use crate::rules::InputError;
use gcnsmt_lifter::lift::{AluDef, AluMods};
use gcnsmt_lifter::AsmSyntax;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::modifiers as m;
use gcnsmt_semantics::ty::FpFmt;

/// The modifiers of one ALU line; bit `i` of each mask is source `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrcMods {
    /// `neg` (VOP3 `-x`) or `neg_lo` (VOP3P).
    pub neg: u8,
    /// `abs` (VOP3 `|x|`).
    pub abs: u8,
    /// VOP3P `op_sel`.
    pub op_sel: u8,
    /// VOP3P `op_sel_hi` (llvm-mc's default: every bit set).
    pub op_sel_hi: u8,
    /// VOP3P `neg_hi`.
    pub neg_hi: u8,
    /// `clamp` on the result.
    pub clamp: bool,
}

/// The operands of `syn` with source modifiers stripped (`-|%a|` -> `%a`), and the modifiers.
///
/// Errors: a modifier the op does not take, on an immediate, or malformed.
pub(crate) fn parse(
    cx: LineCx,
    syn: &AsmSyntax,
    alu: &AluDef,
) -> Result<(Vec<(String, usize)>, SrcMods), InputError> {
    let nsrc = alu.srcs as usize;
    let first_src = syn.operands.len().saturating_sub(nsrc);
    let mut mods = SrcMods {
        op_sel_hi: if matches!(alu.mods, AluMods::None | AluMods::True16) {
            0
        } else {
            (1u8 << nsrc) - 1
        },
        ..SrcMods::default()
    };
    let mut ops = Vec::new();
    for (k, (t, c)) in syn.operands.iter().enumerate() {
        let (text, neg, abs) = strip(t.trim(), cx.imms);
        if (neg || abs) && (k < first_src || alu.mods != AluMods::Float32) {
            return Err(cx.err(*c, format!("{}: `{t}`: modifier not taken here", cx.mn)));
        }
        let i = k.saturating_sub(first_src);
        mods.neg |= u8::from(neg) << i;
        mods.abs |= u8::from(abs) << i;
        ops.push((text, *c));
    }
    for (name, value, col) in &syn.modifiers {
        let packed = matches!(
            alu.mods,
            AluMods::Packed16 | AluMods::PackedMov | AluMods::Packed32
        );
        let neg_lanes = matches!(alu.mods, AluMods::Packed16 | AluMods::Packed32);
        // A bf16 clamp is not modelled (`m::clamp_packed16` clamps f16 halves).
        let bf16 = alu.entry == "V_PK_ADD_BF16";
        let mask = |cx: LineCx| bits(cx, value.as_deref(), nsrc, *col);
        match name.as_str() {
            "clamp"
                if value.is_none()
                    && !bf16
                    && matches!(
                        alu.mods,
                        AluMods::Float32 | AluMods::Packed16 | AluMods::SatU32
                    ) =>
            {
                mods.clamp = true
            }
            "op_sel" if packed => mods.op_sel = mask(cx)?,
            // True16: one entry per source, then the destination (VOP3 op_sel bit 3).
            "op_sel" if alu.mods == AluMods::True16 => {
                let m = bits(cx, value.as_deref(), nsrc + 1, *col)?;
                let dst = m >> nsrc & 1;
                mods.op_sel = m & ((1u8 << nsrc) - 1) | dst << 3;
            }
            "op_sel_hi" if packed => mods.op_sel_hi = mask(cx)?,
            "neg_lo" if neg_lanes => mods.neg = mask(cx)?,
            "neg_hi" if neg_lanes => mods.neg_hi = mask(cx)?,
            _ => {
                return Err(cx.err(*col, format!("unknown modifier `{name}` for {}", cx.mn)));
            }
        }
    }
    Ok((ops, mods))
}

/// `-|x|` -> (`x`, neg, abs). A leading `-` before a digit, `(` or an immediate variable is
/// part of the immediate (`-1`, `-(%o + 4)`), not a modifier.
fn strip(t: &str, imms: &std::collections::BTreeSet<String>) -> (String, bool, bool) {
    let (rest, neg) = match t.strip_prefix('-') {
        Some(r)
            if !r.starts_with(|c: char| c.is_ascii_digit() || c == '(' || c == '.')
                && !r.strip_prefix('%').is_some_and(|v| imms.contains(v)) =>
        {
            (r, true)
        }
        _ => (t, false),
    };
    match rest.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        Some(inner) => (inner.trim().to_string(), neg, true),
        None => (rest.to_string(), neg, false),
    }
}

/// `[0,1]` -> 0b10 (bit `i` for entry `i`), exactly `n` entries of 0 or 1.
fn bits(cx: LineCx, value: Option<&str>, n: usize, col: usize) -> Result<u8, InputError> {
    let bad = || {
        cx.err(
            col,
            format!("{}: expected [b0,...] with {n} entries of 0 or 1", cx.mn),
        )
    };
    let inner = value
        .and_then(|v| v.trim().strip_prefix('['))
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(bad)?;
    let items: Vec<&str> = inner.split(',').map(str::trim).collect();
    if items.len() != n {
        return Err(bad());
    }
    let mut out = 0u8;
    for (i, b) in items.iter().enumerate() {
        match *b {
            "0" => {}
            "1" => out |= 1 << i,
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

/// Source `i`'s value `v` after its input modifiers.
pub(crate) fn source<D: Domain>(d: &mut D, alu: &AluDef, s: &SrcMods, i: usize, v: D::Bv) -> D::Bv {
    let on = |mask: u8| mask >> i & 1 == 1;
    match alu.mods {
        AluMods::Float32 => m::neg_abs(d, &v, on(s.neg), on(s.abs)),
        AluMods::Packed16 => m::packed16(
            d,
            &v,
            on(s.op_sel),
            on(s.op_sel_hi),
            on(s.neg),
            on(s.neg_hi),
        ),
        AluMods::Packed32 => m::packed32(
            d,
            &v,
            on(s.op_sel),
            on(s.op_sel_hi),
            on(s.neg),
            on(s.neg_hi),
        ),
        // v_pk_mov_b32 and the True16 ops read `op_sel` in their entry (OPSEL).
        AluMods::PackedMov | AluMods::True16 | AluMods::SatU32 | AluMods::None => v,
    }
}

/// The result `v` after the output modifiers; `srcs` are the sources as the entry read them.
pub(crate) fn result<D: Domain>(
    d: &mut D,
    alu: &AluDef,
    s: &SrcMods,
    srcs: &[D::Bv],
    v: D::Bv,
) -> D::Bv {
    match (s.clamp, alu.mods, srcs) {
        (false, ..) => v,
        (true, AluMods::Float32, _) => m::clamp(d, FpFmt::F32, &v),
        // v_dot2_f32_f16 has packed sources and one f32 result.
        (true, AluMods::Packed16, _) if alu.entry == "V_DOT2_F32_F16" => {
            m::clamp(d, FpFmt::F32, &v)
        }
        (true, AluMods::Packed16, _) => m::clamp_packed16(d, &v),
        (true, AluMods::SatU32, [a, b]) => {
            let sub = alu.entry.starts_with("V_SUB");
            m::saturate_u32(d, sub, a, b, &v)
        }
        // `parse` takes `clamp` only for the kinds above (and SatU32 ops have two sources).
        (true, ..) => unreachable!("clamp on {} is rejected when binding", alu.entry),
    }
}
