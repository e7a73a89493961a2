//! Which bits of a lowered block pair depend on the result of an uninterpreted (dropped)
//! instruction or on bits a 16-bit copy leaves undefined. Such a value is a fresh value (or a
//! cell's old value) the lowering picks, which the hardware might not produce; a refutation is
//! real when some difference is computed without any of them: it then holds whatever they are.
//!
//! Forward over each side's MIR instructions, one bit mask per 32-bit rule cell
//! (`taint_ops.rs`): the ops whose result bits depend on known source bits (bitwise ops, shifts
//! and extracts by constants, copies, halves, selects with a clean condition) move the masks bit
//! by bit; any other instruction that reads a tainted bit, or is uninterpreted, or reads memory
//! after a tainted store, taints its results whole. A plain DS store of partly tainted data at
//! a clean address taints only the bytes of tainted data (`taint_mem.rs`); any other tainted
//! store taints all memory. Names are the rule's (`%r14_0`, `s4`, `%phys_vcc_lo`), as the
//! counterexample reports them.

use super::emit::{self, Side};
use super::mir::{Inst, OpKind, Operand};
use super::taint_mem::Store;
use super::taint_ops::{get, Cx, Masks, Update, ALL};
use crate::check::Cex;
use crate::rules::Rule;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// The taint of one block pair (both sides together).
#[derive(Clone, Debug, Default)]
pub struct Taint {
    /// Tainted bits of each rule cell's final value, on either side.
    pub regs: Masks,
    /// Some memory a side writes may depend on one (anywhere).
    pub memory: bool,
    /// DS stores of partly tainted data at clean addresses (the bytes they taint).
    pub stores: Vec<Store>,
    /// A memory access reads a tainted operand other than a DS store's data (an address: the
    /// access may then be undefined for other values): every difference must be clean.
    pub strict: bool,
    /// The analysis could not name an operand: treat everything as tainted.
    pub all: bool,
    /// Every cell an instruction of either side writes: a register the rule compares that is
    /// not among them (a lowering temporary) is never taken as a clean difference alone.
    pub seen: BTreeSet<String>,
}

impl Taint {
    /// Whether counterexample `c` of `rule`, with these differing (live) registers, shows a
    /// difference that no uninterpreted or undefined value can explain: a register bit or an
    /// LDS byte that differs and is clean on both sides and is not only an input of a dropped
    /// instruction (`soft`). Under `strict`, every difference must be clean.
    pub fn real(&self, c: &Cex, rule: &Rule, differing: &[&str], soft: &BTreeSet<String>) -> bool {
        if self.all {
            return false;
        }
        let reg = |n: &str| {
            let Some((_, x, y)) = c.regs.iter().find(|(m, _, _)| m == n) else {
                return false;
            };
            // SCC is one bit of a cell: tainted at all, tainted whole.
            let m = match get(&self.regs, n) {
                0 => 0,
                m if n == super::scc::VAR => m | ALL,
                m => m,
            };
            (x ^ y) & !m != 0
        };
        let byte = |(space, addr, _, _): &&(&str, u64, u8, u8)| {
            !self.memory && !self.stores.iter().any(|s| s.covers(space, *addr, c, rule))
        };
        if differing.is_empty() && c.mem_diffs.is_empty() {
            return true;
        }
        if self.strict {
            differing.iter().all(|n| reg(n)) && c.mem_diffs.iter().all(|d| byte(&d))
        } else {
            (differing.iter()).any(|n| reg(n) && !soft.contains(*n) && self.seen.contains(*n))
                || c.mem_diffs.iter().any(|d| byte(&d))
        }
    }
}

/// Whether a modelled instruction's lowering writes its explicit destination cells whole: in
/// the one-lane model always; in the EXEC model only a scalar op (lane L may be inactive for a
/// vector one, which then keeps the old value).
fn writes_whole(i: &Inst, exec: bool) -> bool {
    !exec || i.opcode.starts_with("S_")
}

/// Taint of `side`'s instructions into `t`; `which`: 0 for the before-block, 1 for the after.
/// `exec`: the pair is lowered in the EXEC model. `uninterpreted(i)`: `i` is a dropped twin;
/// `mem(i)`: (reads memory, writes memory).
pub fn side(
    t: &mut Taint,
    (side, which): (&Side, usize),
    (target, exec): (Target, bool),
    uninterpreted: impl Fn(&Inst) -> bool,
    mem: impl Fn(&Inst) -> (bool, bool),
) {
    let mut masks = Masks::new();
    // Memory holds a tainted value anywhere (`memory`), or at some bytes (`stored`).
    let (mut memory, mut stored) = (false, false);
    let mut all = false;
    for i in &side.block.insts {
        let uf = uninterpreted(i);
        if !uf && matches!(i.opcode.as_str(), "IMPLICIT_DEF" | "KILL" | "PHI") {
            // Nothing is lowered: the registers keep their values.
            continue;
        }
        let mut names = |o: &Operand| {
            cells(side, o, target).unwrap_or_else(|| {
                all = true;
                Vec::new()
            })
        };
        let is_def = |o: &Operand| o.flags.def || o.flags.implicit_def;
        let use_cells: Vec<String> = i
            .ops
            .iter()
            .filter(|o| !is_def(o))
            .flat_map(&mut names)
            .collect();
        let implicit_defs: Vec<String> = (i.ops.iter().filter(|o| is_def(o)))
            .flat_map(&mut names)
            .collect();
        let explicit_defs: Vec<String> = i.defs.iter().flat_map(&mut names).collect();
        let any_use = use_cells.iter().any(|c| get(&masks, c) != 0);
        t.seen
            .extend(explicit_defs.iter().chain(&implicit_defs).cloned());
        let (reads, writes) = mem(i);
        // `reads` is any memory access; a plain DS store reads none (it writes its data).
        let plain_store = super::taint_mem::ds_store(side, i, target).is_some();
        let mem_in = reads && !plain_store && (stored || t.memory || !t.stores.is_empty());
        if (reads || writes) && !uf {
            let n = t.stores.len();
            let whole = access(t, (side, which), i, (target, &masks), any_use);
            memory |= whole;
            stored |= whole || t.stores.len() > n;
        }
        // A write of what was read from tainted memory (a DS atomic, a load to LDS) may be
        // tainted anywhere it lands.
        memory |= writes && (uf || mem_in);
        stored |= memory;
        let clean = |o: &Operand| {
            cells(side, o, target).is_some_and(|cs| cs.iter().all(|c| get(&masks, c) == 0))
        };
        // The EXEC model lowers lane masks its own way: the whole-value rule but for halves.
        let halves = super::half16::handles(side, i);
        let plain = !uf && !reads && !writes && (!exec || halves);
        let update = plain.then(|| {
            let cx = Cx {
                side,
                target,
                masks: &masks,
            };
            super::taint_ops::update(&cx, i, &clean)
        });
        let strong = writes_whole(i, exec);
        let set = |masks: &mut Masks, c: &str, m: u32| {
            let old = if strong { 0 } else { get(masks, c) };
            masks.insert(c.to_string(), old | m);
        };
        match update.flatten() {
            Some(Update::Cells(v)) => v.iter().for_each(|(c, m)| set(&mut masks, c, *m)),
            Some(Update::Half(c, hi, m)) => {
                let sh = if hi { 16 } else { 0 };
                let keep = get(&masks, &c) & !(0xffff << sh);
                set(&mut masks, &c, keep | m << sh);
            }
            None => {
                let m = if uf || any_use || mem_in { ALL } else { 0 };
                // A half op the module above cannot follow writes part of its cell: its old
                // bits stay.
                let whole = !halves && !uf;
                for c in &explicit_defs {
                    match whole {
                        true => set(&mut masks, c, m),
                        false => {
                            masks.insert(c.clone(), get(&masks, c) | m);
                        }
                    }
                }
            }
        }
        // Bits 31:16 a widening 16-bit copy leaves undefined (also when the update above did
        // not follow the copy).
        if let Some(c) = super::half16::partial_def(side, i, target) {
            masks.insert(c.clone(), get(&masks, &c) | 0xffff_0000);
        }
        // Implicit results (SCC, VCC of a carry): tainted whole by any tainted input.
        if uf || any_use || mem_in {
            for c in &implicit_defs {
                masks.insert(c.clone(), ALL);
            }
        }
    }
    t.all |= all;
    for (c, m) in masks {
        *t.regs.entry(c).or_insert(0) |= m;
    }
    t.memory |= memory;
}

/// The rule cells a register operand names (`None`: it cannot be named).
fn cells(side: &Side, o: &Operand, target: Target) -> Option<Vec<String>> {
    match &o.kind {
        // SCC is the rule variable `%scc` (`scc.rs`).
        OpKind::Phys(p) if p == "scc" => Some(vec![super::scc::VAR.into()]),
        // MODE is a shared block input no instruction of a lowered pair writes
        // (`uninterp.rs`): no value of the rule.
        OpKind::Phys(p) if p == "mode" => Some(Vec::new()),
        OpKind::VReg { .. } | OpKind::Phys(_) => emit::operand_cells(side, o, target).ok(),
        _ => Some(Vec::new()),
    }
}

/// The taint a memory access `i` (not uninterpreted) adds: a plain DS store at a clean address
/// records its tainted bytes; an access with any other tainted input makes the pair strict and,
/// if it writes, taints all memory (returned: whether it does).
fn access(
    t: &mut Taint,
    (side, which): (&Side, usize),
    i: &Inst,
    (target, masks): (Target, &Masks),
    any_use: bool,
) -> bool {
    if let Some((mnemonic, addr, data, n)) = super::taint_mem::ds_store(side, i, target) {
        let clean = |o: &Operand| {
            cells(side, o, target).is_some_and(|cs| cs.iter().all(|c| get(masks, c) == 0))
        };
        let others_clean = clean(addr)
            && (i.ops.iter())
                .filter(|o| o.flags.implicit && !o.flags.implicit_def)
                .all(clean);
        if !others_clean {
            t.strict = true;
            return true;
        }
        let bytes = super::taint_mem::bytes(masks, &data, n);
        if bytes.iter().any(|b| *b) {
            t.stores.push(Store {
                side: which,
                loc: i.loc,
                mnemonic,
                bytes,
            });
        }
        return false;
    }
    if any_use {
        let w = super::lower::writes(i, target);
        t.strict = true;
        return w.0 || w.1;
    }
    false
}
