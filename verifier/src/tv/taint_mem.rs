//! LDS bytes a store of partly tainted data may taint (`taint.rs`): a plain DS store
//! (`ds_write_b8` .. `ds_write_b128`, gfx11's `ds_store_*`) whose address and other inputs are
//! untainted writes data byte k at `ADDR + OFFSET + k` (mod 2^32, AMD's `CalcDsAddr`), so only
//! the bytes whose data bits are tainted may depend on an uninterpreted or undefined value.
//!
//! Where those bytes are is known only in a counterexample: the address register's value where
//! the store runs is read back from the replay (the inputs, then each earlier step's writes)
//! and the address and offset from the store's own rule line. Anything that does not resolve
//! (no single rule line, no value) counts as tainting every byte.

use super::emit;
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use super::taint_ops::{get, Masks};
use crate::check::Cex;
use crate::rules::{Line, Loc, Rule};
use gcnsmt_lifter::table::OffsetKind;

/// A DS store of partly tainted data at an untainted address.
#[derive(Clone, Debug)]
pub struct Store {
    /// 0: the before-block (the rule's source), 1: the after-block.
    pub side: usize,
    /// The MIR instruction's position (its rule line has the same).
    pub loc: Loc,
    /// The llvm-mc mnemonic its rule line starts with.
    pub mnemonic: &'static str,
    /// Whether data byte k may be tainted.
    pub bytes: Vec<bool>,
}

/// Bytes a plain DS store mnemonic writes.
fn width(mnemonic: &str) -> Option<usize> {
    let b = mnemonic
        .strip_prefix("ds_write_b")
        .or_else(|| mnemonic.strip_prefix("ds_store_b"))?;
    match b {
        "8" | "16" | "32" | "64" | "96" | "128" => b.parse::<usize>().ok().map(|b| b / 8),
        _ => None,
    }
}

/// A plain DS store: its mnemonic, address operand, data operand and byte count (`None`: any
/// other instruction, a `gds` store, or a data register not split into dwords).
pub fn ds_store<'i>(
    side: &emit::Side,
    i: &'i Inst,
    target: gcnsmt_semantics::target::Target,
) -> Option<(&'static str, &'i Operand, Vec<String>, usize)> {
    let Some(MirOp::Ds { mnemonic, shape }) = opcodes::lookup(target, &i.opcode) else {
        return None;
    };
    let n = width(mnemonic)?;
    let plain = shape.vdst == 0
        && shape.addr
        && shape.data0 > 0
        && shape.data1 == 0
        && shape.offset == OffsetKind::Single;
    let uses: Vec<&Operand> = i.uses().collect();
    let [addr, data, off, gds] = uses.as_slice() else {
        return None;
    };
    let imms = matches!(off.kind, OpKind::Imm(_)) && matches!(gds.kind, OpKind::Imm(0));
    if !plain || !imms || super::half16::is16(side, data) {
        return None;
    }
    let cells = emit::dwords(side, data, target).ok()?;
    (cells.len() == n.div_ceil(4)).then_some((mnemonic, *addr, cells, n))
}

/// Which of `n` data bytes in `cells` are tainted.
pub fn bytes(masks: &Masks, cells: &[String], n: usize) -> Vec<bool> {
    (0..n)
        .map(|k| get(masks, &cells[k / 4]) >> (8 * (k % 4)) & 0xff != 0)
        .collect()
}

impl Store {
    /// Whether the store may have tainted byte `addr` of `space` in counterexample `c`.
    pub fn covers(&self, space: &str, addr: u64, c: &Cex, rule: &Rule) -> bool {
        if space != "LDS" {
            return false;
        }
        let Some(base) = self.address(c, rule) else {
            return true;
        };
        self.bytes
            .iter()
            .enumerate()
            .any(|(k, t)| *t && u64::from(base.wrapping_add(k as u32)) == addr)
    }

    /// `ADDR + OFFSET` of the store in `c`, from its rule line and the replay.
    fn address(&self, c: &Cex, rule: &Rule) -> Option<u32> {
        let (lines, steps): (&[Line], _) = match self.side {
            0 => (&rule.source, &c.steps.0),
            _ => (&rule.target, &c.steps.1),
        };
        if lines.len() != steps.len() {
            return None;
        }
        let at: Vec<usize> = (lines.iter().enumerate())
            .filter(|(_, l)| l.loc == self.loc)
            .map(|(k, _)| k)
            .collect();
        let [k] = at.as_slice() else { return None };
        // `ds_write_b32 ADDR, DATA[ offset:N]` (emit.rs), nothing else.
        let text = lines[*k].text.trim();
        let rest = text.strip_prefix(self.mnemonic)?.strip_prefix(' ')?;
        let (reg, rest) = rest.split_once(',')?;
        let offset = match rest.split_once(" offset:") {
            None => 0,
            Some((_, o)) => o.trim().parse::<u32>().ok()?,
        };
        if rest.contains(" gds") || rest.contains("offset0") {
            return None;
        }
        let reg = reg.trim();
        let mut v = (c.inputs.iter())
            .find(|(n, _, _)| n == reg)
            .map(|(_, v, _)| *v as u32);
        for s in &steps[..*k] {
            if let Some((_, x)) = s.writes.iter().rev().find(|(n, _)| n == reg) {
                v = Some(*x);
            }
        }
        v.map(|v| v.wrapping_add(offset))
    }
}
