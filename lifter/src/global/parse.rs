//! The global family's assembler (LLVM syntax, with operand holes).

use gcnsmt_semantics::target::Target;

use super::{
    global_lookup, global_offset_range, is_global_mnemonic, last_sgpr, smem_offset_range,
    GlobalInst, GlobalKind, Sgprs,
};
use crate::asm::{parse_reg, AsmError, AsmResult};
use crate::holes::{HoleClass, Holes, Role};
use crate::inst::{RegFile, RegTuple};
use crate::lex::err;
use crate::operand::{expect_operands, immediate, lookup_mnemonic, vector_hole, VecOperand};

/// `sN` or `s[N:M]`.
pub(crate) fn parse_sgprs(text: &str) -> Option<Sgprs> {
    let rest = text.trim().strip_prefix('s')?;
    let num = |s: &str| -> Option<u16> {
        let s = s.trim();
        (!s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (a, b) = match rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        Some(inner) => match inner.split_once(':') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(inner)?, num(inner)?),
        },
        None => (num(rest)?, num(rest)?),
    };
    (b >= a && b - a < 32).then_some(Sgprs {
        first: a,
        count: (b - a + 1) as u8,
    })
}

/// What the operand checks need: the target, the mnemonic (for messages) and the holes; the
/// GLOBAL and FLAT assemblers share it.
pub(crate) struct Ctx<'a> {
    pub(crate) target: Target,
    pub(crate) mn: &'a str,
    pub(crate) holes: &'a mut dyn Holes,
}

impl Ctx<'_> {
    /// A VGPR tuple of `count` registers for `role`, or a hole (stand-in `v0..`).
    pub(crate) fn vgprs(
        &mut self,
        role: Role,
        text: &str,
        col: usize,
        count: u8,
    ) -> Result<RegTuple, AsmError> {
        if let Some(stand_in) = vector_hole(self.holes, role, text, col, count, false) {
            return stand_in;
        }
        let (mn, target) = (self.mn, self.target);
        let op = VecOperand {
            mn,
            target,
            role,
            text,
            col,
        };
        let Some(r) = parse_reg(text) else {
            return err(
                col,
                format!("expected a VGPR tuple for {}, got `{text}`", role.name()),
            );
        };
        if r.file == RegFile::A {
            return err(
                col,
                format!(
                    "{mn}: AGPR operands are not modelled for {}, got {text}",
                    role.name()
                ),
            );
        }
        op.in_range(&r)?;
        op.width(&r, count)?;
        op.aligned(&r, count > 1 && target.needs_aligned_vgpr_tuples(), "tuple")?;
        Ok(r)
    }

    /// An SGPR run of `count` registers for `role` (pairs even-aligned, 4 and more 4-aligned,
    /// as llvm-mc 22 requires), or a hole (stand-in `s0..`).
    pub(crate) fn sgprs(
        &mut self,
        role: Role,
        text: &str,
        col: usize,
        count: u8,
    ) -> Result<Sgprs, AsmError> {
        let class = HoleClass {
            dwords: count,
            agpr_ok: false,
        };
        if let Some(accepted) = self.holes.reg(role, text, col, class) {
            accepted?;
            return Ok(Sgprs { first: 0, count });
        }
        let (mn, target) = (self.mn, self.target);
        let Some(s) = parse_sgprs(text) else {
            return err(
                col,
                format!("expected SGPRs for {}, got `{text}`", role.name()),
            );
        };
        if s.count != count {
            return err(
                col,
                format!("{mn} needs {count} SGPR(s) for {}, got {text}", role.name()),
            );
        }
        // Pairs even, three and more SGPRs 4-aligned (`s_load_b96 s[4:6]`, llvm-mc-22).
        let align = match count {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        if s.first % align != 0 {
            return err(
                col,
                format!("{mn}: {text} is misaligned for {}", role.name()),
            );
        }
        let last = s.first + u16::from(count) - 1;
        if last > last_sgpr(target) {
            return err(
                col,
                format!(
                    "{text} is out of range on {target} (last SGPR s{})",
                    last_sgpr(target)
                ),
            );
        }
        Ok(s)
    }

    /// A signed offset in `lo..=hi` (in units of `unit` bytes), or a hole (0).
    pub(crate) fn offset(
        &mut self,
        text: &str,
        col: usize,
        lo: i64,
        hi: i64,
    ) -> Result<i64, AsmError> {
        immediate(self.holes, "offset", text, col, lo, hi, " (out of range)")
    }
}

/// Parse one global-family line (GLOBAL_LOAD/STORE and S_LOAD: see [`GlobalInst`](crate::GlobalInst)) for `target`, with operand holes.
///
/// Errors (column and message): unknown mnemonic or one the target lacks, operand count,
/// register widths, classes, alignment and range, offsets out of range, modifiers other than
/// `offset:` (cache policy is not modelled).
pub fn parse_global_with(
    target: Target,
    line: &str,
    holes: &mut dyn Holes,
) -> AsmResult<GlobalInst> {
    let (syn, (op, entry)) =
        lookup_mnemonic(line, target, "global", global_lookup, is_global_mnemonic)?;
    let mn = syn.mnemonic.as_str();
    let mut cx = Ctx { target, mn, holes };
    let mut inst = GlobalInst {
        target,
        mnemonic: mn.to_string(),
        entry,
        op,
        vdst: None,
        vaddr: None,
        vdata: None,
        saddr: None,
        sdst: None,
        sbase: None,
        offset: 0,
        scale_offset: false,
    };
    let ops = &syn.operands;
    let names = match op.kind {
        GlobalKind::Load => ["vdst", "vaddr", "saddr"],
        GlobalKind::Store => ["vaddr", "vdata", "saddr"],
        GlobalKind::ScalarLoad => ["sdst", "sbase", "offset"],
    };
    expect_operands(&syn, mn, &names, "operands")?;
    if op.kind == GlobalKind::ScalarLoad {
        if let Some((name, _, col)) = syn.modifiers.first() {
            return err(*col, format!("`{name}` is not modelled for {mn}"));
        }
        inst.sdst = Some(cx.sgprs(Role::Sdst, &ops[0].0, ops[0].1, op.dwords())?);
        inst.sbase = Some(cx.sgprs(Role::Sbase, &ops[1].0, ops[1].1, 2)?);
        let (lo, hi, unit) = smem_offset_range(target);
        let (t, c) = &ops[2];
        if parse_sgprs(t).is_some() || t.trim() == "m0" {
            return err(*c, format!("{mn}: a register offset is not modelled"));
        }
        inst.offset = cx.offset(t, *c, lo, hi)? * unit;
        return Ok(inst);
    }
    // saddr first: it decides whether vaddr is 32 or 64 bits.
    let (st, sc) = &ops[2];
    if st.trim() != "off" {
        inst.saddr = Some(cx.sgprs(Role::Saddr, st, *sc, 2)?);
    }
    let naddr = if inst.saddr.is_some() { 1 } else { 2 };
    let (addr_i, data_i) = if op.kind == GlobalKind::Load {
        (1, 0)
    } else {
        (0, 1)
    };
    inst.vaddr = Some(cx.vgprs(Role::Vaddr, &ops[addr_i].0, ops[addr_i].1, naddr)?);
    let data_role = if op.kind == GlobalKind::Load {
        Role::Vdst
    } else {
        Role::Vdata
    };
    let data = cx.vgprs(data_role, &ops[data_i].0, ops[data_i].1, op.dwords())?;
    if op.kind == GlobalKind::Load {
        inst.vdst = Some(data);
    } else {
        inst.vdata = Some(data);
    }
    let mut seen = false;
    for (name, value, col) in &syn.modifiers {
        match (name.as_str(), value) {
            ("offset", Some(v)) if !seen => {
                seen = true;
                let (lo, hi) = global_offset_range(target);
                inst.offset = cx.offset(v, col + "offset:".len(), lo, hi)?;
            }
            ("offset", _) => return err(*col, "duplicate or empty offset"),
            // llvm-mc-22 takes `scale_offset` on gfx1250 GLOBAL with saddr only ("scale_offset
            // is not supported for this instruction" with `off`; observed 2026-12-05).
            ("scale_offset", None)
                if target == Target::Gfx1250 && inst.saddr.is_some() && !inst.scale_offset =>
            {
                inst.scale_offset = true
            }
            _ => {
                return err(
                    *col,
                    format!("`{name}` is not modelled for {mn} (cache policy)"),
                )
            }
        }
    }
    Ok(inst)
}
