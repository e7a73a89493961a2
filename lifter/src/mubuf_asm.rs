//! LLVM-syntax MUBUF/VBUFFER assembly parser: `mnemonic vdata, vaddr|off, srsrc, soffset
//! [format:..] [idxen] [offen] [addr64] [offset:N] [cache policy] [tfe] [lds]`, as llvm-mc-22
//! accepts it (modifiers in any order). Cache policy: `glc slc dlc scc` (`sc0 sc1 nt` on
//! gfx942/gfx950), `th:... scope:... nv` on gfx12/gfx1250.
//!
//! One deliberate difference from llvm-mc-22: before gfx12 it accepts `offset:` up to 65535
//! and silently keeps the low 12 bits; we reject offsets above 4095.

use gcnsmt_semantics::target::{Gen, Target};

use crate::asm::{parse_int, parse_reg, parse_syntax_with, AsmError};
use crate::holes::{HoleClass, Holes, NoHoles, Role};
use crate::inst::{RegFile, RegTuple};
use crate::lex::err;
use crate::mubuf::{CachePolicy, MubufInst};
use crate::mubuf_table::{
    self, mubuf_lookup, mubuf_mnemonics, soffset_value, srsrc_name, MubufClass, MubufLayout,
};

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
pub fn parse_mubuf(target: Target, line: &str) -> Result<MubufInst, AsmError> {
    parse_mubuf_with(target, line, &mut NoHoles)
}

/// [`parse_mubuf`] with operand holes (see [`crate::holes`]): a hole stands in as `v0` /
/// `v[0:n-1]` (vdata, vaddr), `s[0:3]` (srsrc), `s0` (soffset) or offset 0, after the checks a
/// concrete operand of its width and class passes.
pub fn parse_mubuf_with(
    target: Target,
    line: &str,
    holes: &mut dyn Holes,
) -> Result<MubufInst, AsmError> {
    let syn = parse_syntax_with(line, MUBUF_FLAGS)?;
    let mn = syn.mnemonic.as_str();
    let Some((opcode, shape)) = mubuf_lookup(target, mn) else {
        let elsewhere = mubuf_table::mubuf_targets_with(mn);
        if elsewhere.is_empty() {
            return err(syn.mnemonic_col, format!("unknown MUBUF mnemonic `{mn}`"));
        }
        let list: Vec<&str> = elsewhere.iter().map(|t| t.name()).collect();
        return err(
            syn.mnemonic_col,
            format!(
                "{mn} is not available on {target} (it exists on {})",
                list.join(", ")
            ),
        );
    };
    let mnemonic = mubuf_mnemonics(target)
        .find(|m| *m == mn)
        .expect("looked up above");
    let layout = MubufLayout::of(target);
    let vbuf = layout == MubufLayout::Vbuffer;
    let gfx940 = layout == MubufLayout::Gfx940;
    let mut inst = MubufInst {
        target,
        opcode,
        mnemonic,
        shape,
        vdata: None,
        vaddr: None,
        srsrc: 0,
        soffset: 0,
        offset: 0,
        offen: false,
        idxen: false,
        addr64: false,
        lds: false,
        tfe: false,
        cpol: CachePolicy::default(),
        format: if vbuf { 1 } else { 0 },
    };
    if shape.class == MubufClass::Cache {
        if let Some((t, c)) = syn.operands.first() {
            return err(*c, format!("{mn} takes no operands, got `{t}`"));
        }
    }

    // Modifiers first: `lds` and `tfe` decide the operand list.
    let mut seen: Vec<&str> = Vec::new();
    let mut th: Option<(String, usize)> = None;
    let mut cpol = CachePolicy::default();
    for (name, value, col) in &syn.modifiers {
        let col = *col;
        if seen.contains(&name.as_str()) {
            return err(col, format!("duplicate modifier `{name}`"));
        }
        seen.push(name);
        let not_here = || {
            err(
                col,
                format!("`{name}` is not a modifier of {mn} on {target}"),
            )
        };
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
                let vcol = col + "offset:".len();
                let max = if vbuf { 0x7f_ffff } else { 4095 };
                if let Some(accepted) = holes.imm("offset", v, vcol, max as u64) {
                    accepted?;
                    continue;
                }
                let Some(o) = parse_int(v) else {
                    return err(vcol, format!("expected an integer offset, got `{v}`"));
                };
                if !(0..=max).contains(&o) {
                    let why = if vbuf {
                        ""
                    } else {
                        " (llvm-mc 22 silently keeps only the low 12 bits of larger values)"
                    };
                    return err(vcol, format!("offset must be in [0, {max}], got {o}{why}"));
                }
                inst.offset = o as u32;
            }
            ("th", Some(v)) if vbuf => th = Some((v.clone(), col + 3)),
            ("scope", Some(v)) if vbuf => {
                let Some(s) = mubuf_table::SCOPE_NAMES.iter().position(|n| n == v) else {
                    return err(col + 6, format!("unknown scope `{v}`"));
                };
                cpol.scope = s as u8;
            }
            ("format", Some(v)) if vbuf && shape.typed => {
                let inner = v.strip_prefix('[').and_then(|x| x.strip_suffix(']'));
                let f = match inner {
                    Some(n) => mubuf_table::BUF_FORMATS.iter().position(|x| *x == n),
                    None => parse_int(v).and_then(|i| (0..=127).contains(&i).then_some(i as usize)),
                };
                let Some(f) = f else {
                    return err(col + 7, format!("unknown format `{v}`"));
                };
                inst.format = f as u8;
            }
            _ => return not_here(),
        }
    }
    if let Some((v, col)) = th {
        let n = v.as_str();
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
    if shape.class == MubufClass::Cache {
        return check_flags(inst, syn.end_col);
    }
    if inst.lds && inst.tfe {
        return err(syn.end_col, "lds and tfe cannot be combined");
    }
    if inst.addr64 && (inst.offen || inst.idxen) {
        return err(syn.end_col, "addr64 cannot be combined with offen/idxen");
    }

    if shape.lds_only && !inst.lds {
        return err(syn.end_col, format!("{mn} requires lds"));
    }
    if shape.class == MubufClass::Atomic && !shape.rtn {
        let rtn = if vbuf { cpol.th & 1 == 1 } else { cpol.glc };
        if rtn {
            return err(
                syn.end_col,
                format!("{mn} has no returning form on {target}"),
            );
        }
    }
    let want = if shape.lds_only {
        2
    } else if inst.lds {
        3
    } else {
        4
    };
    if syn.operands.len() != want {
        let col = syn.operands.get(want).map_or(syn.end_col, |o| o.1);
        let names = if shape.lds_only {
            "srsrc, soffset"
        } else if inst.lds {
            "vaddr, srsrc, soffset"
        } else {
            "vdata, vaddr, srsrc, soffset"
        };
        return err(
            col,
            format!(
                "{mn} takes {want} operands ({names}), got {}",
                syn.operands.len()
            ),
        );
    }
    let mut ops = syn.operands.iter();
    let mut reg = |text: &str, col: usize, role: Role, count: u8, agpr_ok: bool| {
        let class = HoleClass {
            dwords: count,
            agpr_ok,
        };
        if let Some(accepted) = holes.reg(role, text, col, class) {
            accepted?;
            return Ok(RegTuple::v(0, count));
        }
        let role = role.name();
        let Some(r) = parse_reg(text) else {
            return err(col, format!("expected a register for {role}, got `{text}`"));
        };
        if r.last() > 255 {
            return err(col, format!("register {text} is out of range (max 255)"));
        }
        if r.file == RegFile::A && !agpr_ok {
            return err(
                col,
                format!("AGPRs are not allowed for {role} on {target}, got {text}"),
            );
        }
        if r.count != count {
            return err(
                col,
                format!("{mn} needs a {count}-register tuple for {role}, got {text}"),
            );
        }
        if count > 1 && r.first % 2 == 1 && target.needs_aligned_vgpr_tuples() {
            return err(
                col,
                format!("{mn} on {target} needs an even-aligned tuple for {role}, got {text}"),
            );
        }
        Ok::<RegTuple, AsmError>(r)
    };
    if !inst.lds {
        let (text, col) = ops.next().expect("counted");
        let agpr_ok = target.gen() == Gen::Gfx90a;
        inst.vdata = Some(reg(
            text,
            *col,
            Role::Vdata,
            shape.vdata + u8::from(inst.tfe),
            agpr_ok,
        )?);
    }
    let naddr = if inst.addr64 {
        2
    } else {
        u8::from(inst.offen) + u8::from(inst.idxen)
    };
    if shape.lds_only {
        if naddr > 0 {
            return err(syn.end_col, format!("{mn} takes no vaddr (offen/idxen)"));
        }
    } else {
        let (text, col) = ops.next().expect("counted");
        let col = *col;
        if text == "off" {
            if naddr > 0 {
                return err(
                    col,
                    format!(
                        "`off` is not allowed with offen/idxen/addr64; expected {naddr} VGPR(s)"
                    ),
                );
            }
        } else if naddr == 0 {
            return err(
                col,
                format!("expected `off` (no offen/idxen/addr64), got `{text}`"),
            );
        } else {
            inst.vaddr = Some(reg(text, col, Role::Vaddr, naddr, false)?);
        }
    }
    let (text, col) = ops.next().expect("counted");
    let quad = HoleClass {
        dwords: 4,
        agpr_ok: false,
    };
    let srsrc = match holes.reg(Role::Srsrc, text, *col, quad) {
        Some(accepted) => accepted.map(|()| Some(0))?,
        None => (0..128u16)
            .step_by(4)
            .find(|s| srsrc_name(target, *s).as_deref() == Some(text.as_str())),
    };
    let Some(srsrc) = srsrc else {
        return err(
            *col,
            format!("expected a 4-SGPR resource tuple (s[4n:4n+3], ttmp[..]), got `{text}`"),
        );
    };
    inst.srsrc = srsrc;
    let (text, col) = ops.next().expect("counted");
    let one = HoleClass {
        dwords: 1,
        agpr_ok: false,
    };
    let soff = match holes.reg(Role::Soffset, text, *col, one) {
        Some(accepted) => accepted.map(|()| soffset_value(target, "s0"))?,
        None => soffset_value(target, text),
    };
    let Some(soff) = soff else {
        return err(
            *col,
            format!(
                "expected an SGPR, special register or inline constant for soffset, got `{text}`"
            ),
        );
    };
    inst.soffset = soff;
    check_flags(inst, syn.end_col)
}

/// Reject modifiers whose bit llvm-mc-22's decoder rejects or ignores for this op
/// ([`crate::MubufShape::invalid_bits`] / `ignored_bits`).
fn check_flags(inst: MubufInst, col: usize) -> Result<MubufInst, AsmError> {
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
