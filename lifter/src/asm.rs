//! LLVM-syntax DS assembly parser.
//!
//! Two layers: [`parse_syntax`] splits a line into mnemonic, comma-separated
//! operands and space-separated modifiers without interpreting them (usable
//! for rule files with `%`-variables); [`parse_asm`] checks the result against
//! the target's opcode table and shape and builds a [`DsInst`]. Accepted
//! syntax is what llvm-mc-22 accepts for DS ops: `vN`, `v[N:M]`, `v[N]`,
//! `aN`/`a[N:M]`, `offset:N` (decimal, `0x` hex, `0b` binary),
//! `offset0:N offset1:N`, `offset:swizzle(...)` and `gds`.

use gcnsmt_semantics::target::{Gen, Target};

use crate::holes::{Holes, NoHoles, Role};
use crate::inst::{DsInst, RegFile, RegTuple};
use crate::operand::{expect_operands, immediate, not_on_target, once, vector_hole, VecOperand};
use crate::table::{self, DsShape, GdsRule, OffsetKind};

use crate::lex::err;
pub use crate::lex::{parse_int, AsmError, AsmResult};
pub(crate) use crate::syntax::parse_syntax_with;
pub use crate::syntax::{parse_syntax, AsmSyntax};

/// Whether an operand reads as a scalar register (`s2`, `s[0:1]`, `m0`, `vcc`, `exec`, `ttmp0`).
fn looks_scalar(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('s') && t[1..].starts_with(|c: char| c.is_ascii_digit() || c == '[')
        || t.starts_with("ttmp")
        || matches!(
            t,
            "m0" | "vcc" | "vcc_lo" | "vcc_hi" | "exec" | "exec_lo" | "exec_hi"
        )
}

/// Parse `vN`, `v[N:M]`, `v[N]` (and the same with `a`) into a tuple.
pub fn parse_reg(text: &str) -> Option<RegTuple> {
    let t = text.trim();
    let file = match t.chars().next()? {
        'v' => RegFile::V,
        'a' => RegFile::A,
        _ => return None,
    };
    let rest = t[1..].trim_start();
    let num = |s: &str| -> Option<u32> {
        let s = s.trim();
        (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (first, last) =
        if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            match inner.split_once(':') {
                Some((a, b)) => (num(a)?, num(b)?),
                None => (num(inner)?, num(inner)?),
            }
        } else {
            let v = num(rest)?;
            (v, v)
        };
    // `last`, not `first`: v[65535:65536] would overflow RegTuple::last() (found by
    // tests/tests/fuzz_lifter.rs).
    if last < first || last - first >= 32 || last > u32::from(u16::MAX) {
        return None;
    }
    Some(RegTuple {
        file,
        first: first as u16,
        count: (last - first + 1) as u8,
    })
}

/// Parse one line of LLVM DS assembly for `target` into a validated [`DsInst`].
///
/// Errors (with the column of the offending token): unknown mnemonic, mnemonic
/// not available on the target, wrong operand count, non-register operand,
/// wrong tuple size, register out of range, misaligned tuple (gfx90a+/gfx1250),
/// AGPR where not allowed, mixed VGPR/AGPR data, offset kind or range, and
/// `gds` present where not allowed or missing where required.
pub fn parse_asm(target: Target, line: &str) -> AsmResult<DsInst> {
    parse_asm_with(target, line, &mut NoHoles)
}

/// [`parse_asm`] with operand holes (see [`crate::holes`]): a hole gets the stand-in register
/// `v0` (or `v[0:n-1]`) or the immediate 0 in the returned instruction, after passing every
/// check a concrete operand of its width and class would. Holes do not take part in the
/// "all VGPRs or all AGPRs" check of vdst and data: a variable can be allocated in either file.
pub fn parse_asm_with(target: Target, line: &str, holes: &mut dyn Holes) -> AsmResult<DsInst> {
    let syn = parse_syntax(line)?;
    let mn = syn.mnemonic.as_str();
    let Some((opcode, shape)) = table::ds_lookup(target, mn) else {
        return not_on_target("DS", mn, target, &table::targets_with(mn), syn.mnemonic_col);
    };
    let mnemonic = table::ds_mnemonics(target)
        .find(|m| *m == mn)
        .expect("looked up above");
    let roles = operand_roles(shape);
    let names: Vec<&str> = roles.iter().map(|r| r.0.name()).collect();
    expect_operands(&syn, mn, &names, "operand(s)")?;
    let mut inst = DsInst {
        target,
        opcode,
        mnemonic,
        shape,
        vdst: None,
        addr: None,
        data0: None,
        data1: None,
        offset0: 0,
        offset1: 0,
        gds: false,
    };
    let mut data_file: Option<RegFile> = None;
    for (&(role, count), (text, col)) in roles.iter().zip(&syn.operands) {
        let slot = match role {
            Role::Vdst => &mut inst.vdst,
            Role::Addr => &mut inst.addr,
            Role::Data0 => &mut inst.data0,
            _ => &mut inst.data1,
        };
        let agpr_ok = role != Role::Addr && target.has_agpr_ds();
        if let Some(stand_in) = vector_hole(holes, role, text, *col, count, agpr_ok) {
            *slot = Some(stand_in?);
            continue;
        }
        let op = VecOperand {
            mn,
            target,
            role,
            text,
            col: *col,
        };
        let r = ds_register(&op, count)?;
        if role != Role::Addr {
            match data_file {
                Some(f) if f != r.file => {
                    return err(
                        *col,
                        "vdst and data operands must be all VGPRs or all AGPRs",
                    )
                }
                _ => data_file = Some(r.file),
            }
        }
        *slot = Some(r);
    }
    ds_modifiers(&mut inst, &syn, holes)?;
    if shape.gds == GdsRule::Required && !inst.gds {
        return err(syn.end_col, format!("{mn} requires gds"));
    }
    Ok(inst)
}

/// The register operands of `shape` in assembly order, with their widths in dwords.
fn operand_roles(shape: DsShape) -> Vec<(Role, u8)> {
    [
        (Role::Vdst, shape.vdst),
        (Role::Addr, u8::from(shape.addr)),
        (Role::Data0, shape.data0),
        (Role::Data1, shape.data1),
    ]
    .into_iter()
    .filter(|r| r.1 > 0)
    .collect()
}

/// The concrete register `op` of `count` dwords, checked as llvm-mc-22 checks DS operands:
/// a vector register, at most v255/a255, an AGPR only for data/vdst on AGPR targets, the
/// width, and even alignment where [`table::must_be_even`] asks for it.
fn ds_register(op: &VecOperand<'_>, count: u8) -> Result<RegTuple, AsmError> {
    let (mn, target, role, text, col) = (op.mn, op.target, op.role, op.text, op.col);
    let Some(r) = parse_reg(text) else {
        return err(
            col,
            format!(
                "expected a register for {}, got `{text}`{}",
                role.name(),
                if looks_scalar(text) {
                    format!(" ({mn} {} needs a vector register)", role.name())
                } else {
                    String::new()
                }
            ),
        );
    };
    op.in_range(&r)?;
    if r.file == RegFile::A {
        if role == Role::Addr {
            return err(
                col,
                format!("the address of {mn} must be a VGPR, got {text} (an AGPR)"),
            );
        }
        if !target.has_agpr_ds() {
            return err(
                col,
                format!("AGPRs are not allowed as DS operands on {target}, got {text}"),
            );
        }
    }
    op.width(&r, count)?;
    op.aligned(&r, table::must_be_even(target, mn, count), "register")?;
    Ok(r)
}

/// Read the modifiers of `syn` (`gds`, `offset:`, `offset0:`/`offset1:`) into `inst`,
/// checking each against the op's shape and range.
fn ds_modifiers(inst: &mut DsInst, syn: &AsmSyntax, holes: &mut dyn Holes) -> Result<(), AsmError> {
    let (mn, target, shape) = (inst.mnemonic, inst.target, inst.shape);
    let mut seen: Vec<&str> = Vec::new();
    for (name, value, col) in &syn.modifiers {
        let col = *col;
        once(&mut seen, name, col)?;
        match (name.as_str(), value) {
            ("gds", None) => {
                if shape.gds == GdsRule::Never {
                    return err(col, format!("gds is not allowed for {mn} on {target}"));
                }
                inst.gds = true;
            }
            ("offset", Some(v)) => {
                if shape.offset != OffsetKind::Single {
                    let why = if shape.offset == OffsetKind::Pair {
                        " (use offset0:N offset1:N)"
                    } else {
                        ""
                    };
                    return err(col, format!("{mn} takes no offset:{why}"));
                }
                let off = ds_offset(target, mn, v, col + "offset:".len(), holes)?;
                inst.offset0 = off as u8;
                inst.offset1 = (off >> 8) as u8;
            }
            (n @ ("offset0" | "offset1"), Some(v)) => {
                if shape.offset != OffsetKind::Pair {
                    let why = if shape.offset == OffsetKind::Single {
                        " (use offset:)"
                    } else {
                        ""
                    };
                    return err(col, format!("{mn} takes no {n}:{why}"));
                }
                let (field, slot) = if n == "offset0" {
                    ("offset0", &mut inst.offset0)
                } else {
                    ("offset1", &mut inst.offset1)
                };
                let vcol = col + n.len() + 1;
                *slot = immediate(holes, field, v, vcol, 0, 255, " (out of range)")? as u8;
            }
            ("gds", Some(_)) => return err(col, "gds takes no value"),
            (n, None) if n.starts_with("offset") => return err(col, format!("{n} needs a value")),
            (n, _) => return err(col, format!("unknown modifier `{n}`")),
        }
    }
    Ok(())
}

/// The 16-bit `offset:` value `v` (at `vcol`): an integer, a hole, or `swizzle(...)` for
/// `ds_swizzle_b32`.
fn ds_offset(
    target: Target,
    mn: &str,
    v: &str,
    vcol: usize,
    holes: &mut dyn Holes,
) -> Result<u16, AsmError> {
    let Some(inner) = v.strip_prefix("swizzle(").and_then(|s| s.strip_suffix(')')) else {
        return Ok(immediate(holes, "offset", v, vcol, 0, 65535, " (out of range)")? as u16);
    };
    if mn != "ds_swizzle_b32" {
        return err(
            vcol,
            format!("swizzle(...) is only valid for ds_swizzle_b32, not {mn}"),
        );
    }
    let gfx9_plus = target.gen() >= Gen::Gfx9;
    crate::swizzle::parse(inner, gfx9_plus).or_else(|e| err(vcol, e))
}
