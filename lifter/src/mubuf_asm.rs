//! LLVM-syntax MUBUF/MTBUF/VBUFFER assembly parser: `mnemonic vdata, vaddr|off, srsrc, soffset
//! [format:..] [idxen] [offen] [addr64] [offset:N] [cache policy] [tfe] [lds]`, as llvm-mc-22
//! accepts it (modifiers in any order). Cache policy: `glc slc dlc scc` (`sc0 sc1 nt` on
//! gfx942/gfx950), `th:... scope:... nv` on gfx12/gfx1250.
//!
//! One deliberate difference from llvm-mc-22: before gfx12 it accepts `offset:` up to 65535
//! and silently keeps the low 12 bits; we reject offsets above 4095.

use gcnsmt_semantics::target::{Gen, Target};

use crate::asm::{parse_int, parse_reg, parse_syntax_with, AsmError, AsmResult, AsmSyntax};
use crate::holes::{HoleClass, Holes, NoHoles, Role};
use crate::inst::{RegFile, RegTuple};
use crate::lex::err;
use crate::mtbuf_table::{self, buffer_lookup, mtbuf_mnemonics};
use crate::mubuf::{CachePolicy, MubufInst};
use crate::mubuf_table::{
    self, mubuf_mnemonics, soffset_value, srsrc_name, MubufClass, MubufLayout,
};
use crate::operand::{expect_operands, immediate, not_on_target, once, vector_hole, VecOperand};

/// Bare-word MUBUF modifiers.
pub(crate) const MUBUF_FLAGS: &[&str] = &[
    "offen", "idxen", "addr64", "glc", "slc", "dlc", "scc", "sc0", "sc1", "nt", "tfe", "lds", "nv",
];

/// Split a MUBUF/VBUFFER line into mnemonic, operands and modifiers, with the MUBUF bare-word
/// modifiers (`offen`, `idxen`, `glc`, ...) recognised. No validation beyond the syntax.
///
/// Errors: as [`crate::asm::parse_syntax`].
pub fn parse_mubuf_syntax(line: &str) -> Result<crate::asm::AsmSyntax, AsmError> {
    parse_syntax_with(line, MUBUF_FLAGS)
}

/// Parse one line of LLVM MUBUF/VBUFFER assembly for `target` into a validated [`MubufInst`].
///
/// Errors carry the column of the offending token: unknown mnemonic or not on this target,
/// operand count, register kinds and widths (vdata = shape width + `tfe`; vaddr = 1 with
/// `offen` or `idxen`, 2 with both or `addr64`, else `off`), alignment on gfx90a+/gfx1250,
/// AGPRs outside gfx90a/gfx942/gfx950, unknown SRSRC/SOFFSET, modifiers the generation or
/// op does not have, and offsets out of range (12 bits before gfx12, 23 bits on gfx12+).
pub fn parse_mubuf(target: Target, line: &str) -> AsmResult<MubufInst> {
    parse_mubuf_with(target, line, &mut NoHoles)
}

/// [`parse_mubuf`] with operand holes (see [`crate::holes`]): a hole stands in as `v0` /
/// `v[0:n-1]` (vdata, vaddr), `s[0:3]` (srsrc), `s0` (soffset) or offset 0, after the checks a
/// concrete operand of its width and class passes.
pub fn parse_mubuf_with(target: Target, line: &str, holes: &mut dyn Holes) -> AsmResult<MubufInst> {
    let syn = parse_syntax_with(line, MUBUF_FLAGS)?;
    let mn = syn.mnemonic.as_str();
    let Some((opcode, shape)) = buffer_lookup(target, mn) else {
        let elsewhere = mtbuf_table::buffer_targets_with(mn);
        return not_on_target("MUBUF", mn, target, &elsewhere, syn.mnemonic_col);
    };
    let mnemonic = mubuf_mnemonics(target)
        .chain(mtbuf_mnemonics(target))
        .find(|m| *m == mn)
        .expect("looked up above");
    let vbuf = MubufLayout::of(target) == MubufLayout::Vbuffer;
    let mut inst = MubufInst {
        // The default FORMAT of typed ops is 1 (BUF_FMT_8_UNORM; dfmt 8, nfmt UNORM).
        format: if vbuf || shape.typed { 1 } else { 0 },
        ..MubufInst::bare(target, opcode, mnemonic, shape)
    };
    if shape.class == MubufClass::Cache {
        if let Some((t, c)) = syn.operands.first() {
            return err(*c, format!("{mn} takes no operands, got `{t}`"));
        }
    }
    // Modifiers first: `lds` and `tfe` decide the operand list.
    mubuf_modifiers(&mut inst, &syn, holes)?;
    if shape.class == MubufClass::Cache {
        return check_flags(inst, syn.end_col);
    }
    check_combination(&inst, syn.end_col)?;
    let names: &[&str] = if shape.lds_only {
        &["srsrc", "soffset"]
    } else if inst.lds {
        &["vaddr", "srsrc", "soffset"]
    } else {
        &["vdata", "vaddr", "srsrc", "soffset"]
    };
    expect_operands(&syn, mn, names, "operands")?;
    if shape.lds_only && inst.offen | inst.idxen | inst.addr64 {
        return err(syn.end_col, format!("{mn} takes no vaddr (offen/idxen)"));
    }
    let mut ops = syn.operands.iter().map(|(t, c)| (t.as_str(), *c));
    if !inst.lds {
        let (text, col) = ops.next().expect("counted");
        let count = shape.vdata + u8::from(inst.tfe);
        let agpr_ok = target.gen() == Gen::Gfx90a;
        inst.vdata = Some(mubuf_vgprs(
            holes,
            &inst,
            Role::Vdata,
            text,
            col,
            count,
            agpr_ok,
        )?);
    }
    if !shape.lds_only {
        let (text, col) = ops.next().expect("counted");
        inst.vaddr = mubuf_vaddr(holes, &inst, text, col)?;
    }
    let srsrc = ops.next().expect("counted");
    // The first SGPR of a 4-aligned quad of SGPRs or trap registers that the target names.
    let quad = |t: &str| {
        (0..128u16)
            .step_by(4)
            .find(|s| srsrc_name(target, *s).as_deref() == Some(t))
    };
    let what = "a 4-SGPR resource tuple (s[4n:4n+3], ttmp[..])";
    inst.srsrc = mubuf_scalar(holes, Role::Srsrc, 4, srsrc, "s[0:3]", quad, what)?;
    let soffset = ops.next().expect("counted");
    let what = "an SGPR, special register or inline constant for soffset";
    let code = |t: &str| soffset_value(target, t);
    inst.soffset = mubuf_scalar(holes, Role::Soffset, 1, soffset, "s0", code, what)?;
    check_flags(inst, syn.end_col)
}

/// Read the modifiers of `syn` into `inst`: address flags, `lds`, `tfe`, `offset:`,
/// `format:` and the cache policy (by the spelling of `inst.target`'s layout), each only
/// where the generation and op have it.
fn mubuf_modifiers(
    inst: &mut MubufInst,
    syn: &AsmSyntax,
    holes: &mut dyn Holes,
) -> Result<(), AsmError> {
    let (mn, target, shape) = (inst.mnemonic, inst.target, inst.shape);
    let layout = MubufLayout::of(target);
    let vbuf = layout == MubufLayout::Vbuffer;
    let gfx940 = layout == MubufLayout::Gfx940;
    let mut seen: Vec<&str> = Vec::new();
    let mut th: Option<(&str, usize)> = None;
    let mut cpol = CachePolicy::default();
    for (name, value, col) in &syn.modifiers {
        let col = *col;
        once(&mut seen, name, col)?;
        match (name.as_str(), value) {
            ("offen", None) => inst.offen = true,
            ("idxen", None) => inst.idxen = true,
            ("addr64", None) if layout == MubufLayout::Si => inst.addr64 = true,
            ("glc", None) if !vbuf && !gfx940 => cpol.glc = true,
            ("sc0", None) if gfx940 => cpol.glc = true,
            ("slc", None) if !vbuf && !gfx940 => cpol.slc = true,
            ("nt", None) if gfx940 => cpol.slc = true,
            ("dlc", None) if matches!(layout, MubufLayout::Gfx10 | MubufLayout::Gfx11) => {
                if layout == MubufLayout::Gfx10 && shape.class == MubufClass::Atomic {
                    return err(col, format!("dlc is not allowed on {mn} on {target}"));
                }
                cpol.dlc = true
            }
            ("scc", None) if layout == MubufLayout::Gfx90a => cpol.scc = true,
            ("sc1", None) if gfx940 => cpol.scc = true,
            // llvm-mc-22: "nv is not supported on this GPU" on gfx1200.
            ("nv", None) if vbuf && target != Target::Gfx1200 => cpol.nv = true,
            ("tfe", None) => {
                if shape.class == MubufClass::Store {
                    return err(col, "TFE modifier has no meaning for store instructions");
                }
                if !shape.tfe {
                    return err(col, format!("tfe is not allowed for {mn} on {target}"));
                }
                inst.tfe = true;
            }
            ("lds", None) => {
                if !shape.lds {
                    return err(col, format!("lds is not allowed for {mn} on {target}"));
                }
                inst.lds = true;
            }
            ("offset", Some(v)) => {
                let (max, why) = if vbuf {
                    (0x7f_ffff, "")
                } else {
                    (
                        4095,
                        " (llvm-mc 22 silently keeps only the low 12 bits of larger values)",
                    )
                };
                let vcol = col + "offset:".len();
                inst.offset = immediate(holes, "offset", v, vcol, 0, max, why)? as u32;
            }
            ("th", Some(v)) if vbuf => th = Some((v, col + 3)),
            ("scope", Some(v)) if vbuf => {
                let Some(s) = mubuf_table::SCOPE_NAMES.iter().position(|n| n == v) else {
                    return err(col + 6, format!("unknown scope `{v}`"));
                };
                cpol.scope = s as u8;
            }
            ("format", Some(v)) if shape.typed => {
                inst.format = mtbuf_table::parse_format(target, v).or_else(|m| err(col + 7, m))?
            }
            _ => {
                return err(
                    col,
                    format!("`{name}` is not a modifier of {mn} on {target}"),
                )
            }
        }
    }
    if let Some((n, col)) = th {
        // Read after the loop: the spelling of TH depends on the scope.
        let found = (0..8u8)
            .find(|t| mubuf_table::th_name(shape.class, *t, cpol.scope) == n)
            .or_else(|| match n {
                "TH_LOAD_RT" | "TH_STORE_RT" | "TH_ATOMIC_RT" => Some(0),
                _ => parse_int(n).and_then(|i| (0..8).contains(&i).then_some(i as u8)),
            });
        let Some(t) = found else {
            return err(col, format!("unknown or misplaced th `{n}` for {mn}"));
        };
        cpol.th = t;
    }
    inst.cpol = cpol;
    Ok(())
}

/// Modifier combinations no MUBUF op accepts, and those `inst`'s op does not (reported at
/// `col`, the end of the line).
fn check_combination(inst: &MubufInst, col: usize) -> Result<(), AsmError> {
    let (mn, target, shape) = (inst.mnemonic, inst.target, inst.shape);
    if inst.lds && inst.tfe {
        return err(col, "lds and tfe cannot be combined");
    }
    if inst.addr64 && (inst.offen || inst.idxen) {
        return err(col, "addr64 cannot be combined with offen/idxen");
    }
    if shape.lds_only && !inst.lds {
        return err(col, format!("{mn} requires lds"));
    }
    if shape.class == MubufClass::Atomic && !shape.rtn {
        let rtn = if MubufLayout::of(target) == MubufLayout::Vbuffer {
            inst.cpol.th & 1 == 1
        } else {
            inst.cpol.glc
        };
        if rtn {
            return err(col, format!("{mn} has no returning form on {target}"));
        }
    }
    Ok(())
}

/// The VGPR tuple `text` (at `col`) of `count` registers for `role` of `inst`'s op, or a hole
/// (stand-in `v0..`): at most v255, AGPRs only where `agpr_ok`, even-aligned on gfx90a+ and
/// gfx1250 when longer than one.
fn mubuf_vgprs(
    holes: &mut dyn Holes,
    inst: &MubufInst,
    role: Role,
    text: &str,
    col: usize,
    count: u8,
    agpr_ok: bool,
) -> Result<RegTuple, AsmError> {
    if let Some(stand_in) = vector_hole(holes, role, text, col, count, agpr_ok) {
        return stand_in;
    }
    let target = inst.target;
    let op = VecOperand {
        mn: inst.mnemonic,
        target,
        role,
        text,
        col,
    };
    let role = role.name();
    let Some(r) = parse_reg(text) else {
        return err(col, format!("expected a register for {role}, got `{text}`"));
    };
    op.in_range(&r)?;
    if r.file == RegFile::A && !agpr_ok {
        return err(
            col,
            format!("AGPRs are not allowed for {role} on {target}, got {text}"),
        );
    }
    op.width(&r, count)?;
    op.aligned(&r, count > 1 && target.needs_aligned_vgpr_tuples(), "tuple")?;
    Ok(r)
}

/// The vaddr operand `text` (at `col`): `off` without offen/idxen/addr64, else one VGPR per
/// flag (two for addr64).
fn mubuf_vaddr(
    holes: &mut dyn Holes,
    inst: &MubufInst,
    text: &str,
    col: usize,
) -> Result<Option<RegTuple>, AsmError> {
    let naddr = if inst.addr64 {
        2
    } else {
        u8::from(inst.offen) + u8::from(inst.idxen)
    };
    match (text, naddr) {
        ("off", 0) => Ok(None),
        ("off", _) => err(
            col,
            format!("`off` is not allowed with offen/idxen/addr64; expected {naddr} VGPR(s)"),
        ),
        (_, 0) => err(
            col,
            format!("expected `off` (no offen/idxen/addr64), got `{text}`"),
        ),
        _ => mubuf_vgprs(holes, inst, Role::Vaddr, text, col, naddr, false).map(Some),
    }
}

/// The scalar operand (`text`, `col`) for `role`: what `lookup` makes of it, or a hole of
/// `dwords` SGPRs, which stands in as the register `stand_in`; the error says it expected
/// `what`.
fn mubuf_scalar<T>(
    holes: &mut dyn Holes,
    role: Role,
    dwords: u8,
    (text, col): (&str, usize),
    stand_in: &str,
    lookup: impl Fn(&str) -> Option<T>,
    what: &str,
) -> Result<T, AsmError> {
    let class = HoleClass {
        dwords,
        agpr_ok: false,
    };
    let v = match holes.reg(role, text, col, class) {
        Some(accepted) => accepted.map(|()| lookup(stand_in))?,
        None => lookup(text),
    };
    v.map_or_else(|| err(col, format!("expected {what}, got `{text}`")), Ok)
}

/// Reject modifiers whose bit llvm-mc-22's decoder rejects or ignores for this op
/// ([`crate::MubufShape::invalid_bits`] / `ignored_bits`).
fn check_flags(inst: MubufInst, col: usize) -> AsmResult<MubufInst> {
    let w = crate::mubuf::encode_mubuf(&inst);
    let bad = w & (inst.shape.invalid_bits | inst.shape.ignored_bits);
    if bad != 0 {
        return err(
            col,
            format!(
                "a modifier of {} sets bit {}, which {} does not have",
                inst.mnemonic,
                bad.trailing_zeros(),
                inst.target
            ),
        );
    }
    Ok(inst)
}
