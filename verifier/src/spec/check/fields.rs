//! layout, every row: each field of a CLRX DS field table against the DS encoding of each
//! generation the page covers (bit ranges, and so widths), rows that overlap, and encoding
//! fields that no row draws. OPCODE and GDS rows are [`super::layout`]'s.

use super::layout::{ds_fields, KIND};
use super::Ctx;
use crate::spec::Field;
use gcnsmt_semantics::target::Target;

/// The DS fields of `t` other than OP and GDS, as (name, hi, lo): LLVM 22
/// `DSInstructions.td` (`DS_Real_*` encodings), seen in `ds_encoding_probes_llvm22.txt`
/// (offset0 in bits 7:0, offset1 15:8, the register operands one byte each from bit 32).
fn true_fields() -> [(&'static str, u32, u32); 7] {
    [
        ("OFFSET0", 7, 0),
        ("OFFSET1", 15, 8),
        ("ENCODING", 31, 26),
        ("ADDR", 39, 32),
        ("VDATA0", 47, 40),
        ("VDATA1", 55, 48),
        ("VDST", 63, 56),
    ]
}

/// The range `name` has on `t` (spellings pages use: `DATA0` for `VDATA0`, `OFFSET` for both
/// offset bytes, `OP` for `OPCODE`).
fn range_of(t: Target, name: &str) -> Option<(u32, u32)> {
    let (ophi, oplo, gds) = ds_fields(t);
    let n = match name {
        "DATA0" => "VDATA0",
        "DATA1" => "VDATA1",
        other => other,
    };
    match n {
        "OFFSET" => Some((15, 0)),
        "OPCODE" | "OP" => Some((ophi, oplo)),
        "GDS" => gds.map(|g| (g, g)),
        _ => true_fields()
            .iter()
            .find(|(f, _, _)| *f == n)
            .map(|(_, h, l)| (*h, *l)),
    }
}

/// Check the rows of `fields` (those that apply to `t`) other than OPCODE and GDS.
pub(super) fn check_rows(c: &mut Ctx, t: Target, fields: &[Field]) {
    for f in fields {
        if matches!(f.name.as_str(), "OPCODE" | "OP" | "GDS") {
            continue;
        }
        match range_of(t, &f.name) {
            None => c.skip(
                KIND,
                f.line,
                None,
                format!("`{}` is no field of LLVM's DS encoding on {t}", f.name),
            ),
            Some((hi, lo)) if (hi, lo) != (f.hi, f.lo) => {
                c.find(
                    KIND,
                    f.line,
                    None,
                    Some(t),
                    format!(
                        "{} is bits {}-{} ({} bits)",
                        f.name,
                        f.lo,
                        f.hi,
                        f.hi - f.lo + 1
                    ),
                    format!("on {t} {} is bits {lo}-{hi} ({} bits)", f.name, hi - lo + 1),
                    vec![(
                        "source".into(),
                        "LLVM 22 DSInstructions.td; llvm-mc 22 encodings".into(),
                    )],
                );
            }
            Some(_) => c.ok(KIND),
        }
    }
    overlaps(c, t, fields);
    gaps(c, t, fields);
}

/// Two rows drawing the same bit, unless the encoding's own fields overlap there (`OFFSET`
/// is `OFFSET1:OFFSET0`) or one of them is already reported as wrongly placed.
fn overlaps(c: &mut Ctx, t: Target, fields: &[Field]) {
    let misplaced = |f: &Field| range_of(t, &f.name).is_some_and(|r| r != (f.hi, f.lo));
    for (i, a) in fields.iter().enumerate() {
        for b in &fields[i + 1..] {
            if a.lo > b.hi || b.lo > a.hi || misplaced(a) || misplaced(b) {
                continue;
            }
            let both = range_of(t, &a.name).zip(range_of(t, &b.name));
            if both.is_some_and(|((ah, al), (bh, bl))| al <= bh && bl <= ah) {
                continue;
            }
            c.find(
                KIND,
                b.line,
                None,
                Some(t),
                format!(
                    "{} is bits {}-{}, and line {} draws {} at bits {}-{}",
                    b.name, b.lo, b.hi, a.line, a.name, a.lo, a.hi
                ),
                "two fields of one encoding cannot share a bit".into(),
                vec![],
            );
        }
    }
}

/// An encoding field none of whose bits any row draws, and whose name no row has. A table
/// with no row in the second dword describes only the first (the register bytes are left
/// out on purpose), so only the first dword's fields count there.
fn gaps(c: &mut Ctx, t: Target, fields: &[Field]) {
    let whole = fields.iter().any(|f| f.lo >= 32);
    for (name, hi, lo) in true_fields() {
        let named = fields.iter().any(|f| {
            f.name == name
                || f.name == name.trim_start_matches('V')
                || f.name == "OFFSET" && name.starts_with("OFFSET")
        });
        let drawn = fields.iter().any(|f| f.lo <= hi && lo <= f.hi);
        if !named && !drawn && (whole || hi < 32) {
            c.find(
                KIND,
                fields.first().map_or(1, |f| f.line),
                None,
                Some(t),
                format!("the field table has no row for bits {lo}-{hi}"),
                format!("on {t} bits {lo}-{hi} are {name}"),
                vec![],
            );
        }
    }
}
