//! Which values of a lowered block pair depend on the result of an uninterpreted (dropped)
//! instruction. Such a result is a fresh value both sides share, which the real instruction
//! might not produce; a refutation whose differences are all computed without those values
//! holds whatever the instruction computes, so it is a real `refuted`, not `unknown`.
//!
//! Forward over each side's MIR instructions: an instruction's results are tainted when it is
//! uninterpreted, reads a tainted register, or reads memory after a tainted store; memory is
//! tainted once an instruction with a tainted input (or an uninterpreted one) writes it. Names
//! are the rule's (`%r14_0`, `s4`, `%phys_vcc_lo`), as the counterexample reports them.

use super::emit::{self, Side};
use super::mir::{Inst, OpKind};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// The taint of one block pair (both sides together).
#[derive(Clone, Debug, Default)]
pub struct Taint {
    /// Rule registers whose final value may depend on an uninterpreted result.
    pub regs: BTreeSet<String>,
    /// Some memory a side writes may depend on one.
    pub memory: bool,
    /// The analysis could not name an operand: treat everything as tainted.
    pub all: bool,
}

impl Taint {
    /// Whether a counterexample with these differing registers (and memory bytes, if any)
    /// may rest on an uninterpreted result.
    pub fn touches(&self, regs: &[&str], memory: bool) -> bool {
        self.all || memory && self.memory || regs.iter().any(|r| self.regs.contains(*r))
    }
}

/// Taint of `side`'s instructions into `t`. `uninterpreted(i)`: `i` is a dropped twin;
/// `mem(i)`: (reads memory, writes memory).
pub fn side(
    t: &mut Taint,
    side: &Side,
    target: Target,
    uninterpreted: impl Fn(&Inst) -> bool,
    mem: impl Fn(&Inst) -> (bool, bool),
) {
    let mut memory = false;
    // Cells whose bits 31:16 a widening 16-bit copy left undefined (`half16.rs`): a read of
    // them other than as a low half taints like an uninterpreted result.
    let mut upper: BTreeSet<String> = BTreeSet::new();
    for i in &side.block.insts {
        let undef_read = i
            .ops
            .iter()
            .filter(|o| !o.flags.def && !o.flags.implicit_def)
            .filter(|o| !super::half16::reads_lo_only(side, i, o, target))
            .filter_map(|o| emit::operand_cells(side, o, target).ok())
            .flatten()
            .any(|c| upper.contains(&c));
        let mut names = |o: &super::mir::Operand| -> Vec<String> {
            match &o.kind {
                // SCC is the rule variable `%scc` (`scc.rs`).
                OpKind::Phys(p) if p == "scc" => vec![super::scc::VAR.into()],
                // MODE is a shared block input no instruction of a lowered pair writes
                // (`uninterp.rs`): no value of the rule.
                OpKind::Phys(p) if p == "mode" => Vec::new(),
                OpKind::VReg { .. } | OpKind::Phys(_) => emit::operand_cells(side, o, target)
                    .unwrap_or_else(|_| {
                        t.all = true;
                        Vec::new()
                    }),
                _ => Vec::new(),
            }
        };
        let is_def = |o: &super::mir::Operand| o.flags.def || o.flags.implicit_def;
        let uses: Vec<String> = i
            .ops
            .iter()
            .filter(|o| !is_def(o))
            .flat_map(&mut names)
            .collect();
        let defs: Vec<String> = i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| is_def(o)))
            .flat_map(&mut names)
            .collect();
        let (reads, writes) = mem(i);
        let dirty = uninterpreted(i)
            || undef_read
            || uses.iter().any(|u| t.regs.contains(u))
            || reads && (memory || t.memory);
        let partial = super::half16::partial_def(side, i, target);
        if partial.is_none() && !super::half16::handles(side, i) {
            defs.iter().for_each(|d| {
                upper.remove(d);
            });
        }
        if dirty {
            t.regs.extend(defs);
            if writes {
                memory = true;
            }
        }
        upper.extend(partial);
    }
    // A compared cell whose high half is undefined may differ only there.
    t.regs.extend(upper);
    t.memory |= memory;
}
