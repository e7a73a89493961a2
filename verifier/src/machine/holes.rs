//! Rule variables as operand holes of the lifter's one assembler ([`gcnsmt_lifter::holes`]).
//!
//! A rule line is parsed by [`gcnsmt_lifter::parse_asm_with`] / [`gcnsmt_lifter::parse_mubuf_with`],
//! so it is accepted exactly when llvm-mc 22 would accept the instruction with some registers in
//! place of its variables. [`RuleHoles`] answers the parser for `%x`, `{%x, %y}` and symbolic
//! immediates, and keeps the register keys each variable operand stands for.

use super::op::{Bound, Field, MemIn, MemOp, Op};
use super::operands::{loc_at, LineCx};
use super::regkey::{Class, RegKey, VarUse};
use crate::rules::{InputError, Loc};
use gcnsmt_lifter::asm::{parse_syntax, AsmError, AsmSyntax};
use gcnsmt_lifter::{HoleAnswer, HoleClass, Holes, RegFile, RegTuple, Role, Sgprs};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::eval::MemView;
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::target::Target;

/// A memory line (GLOBAL, SMEM, FLAT) being bound: the lifter's instruction, the holes (holding
/// the variables' keys), the line's syntax as written, and the op's inputs, outputs and fields
/// as the binder finds them.
pub(crate) struct MemLine<'a, T> {
    pub inst: T,
    pub holes: RuleHoles<'a>,
    pub syn: AsmSyntax,
    /// The mnemonic's location (for errors about the instruction as a whole).
    pub mloc: Loc,
    /// Inputs by pseudocode variable name.
    pub inputs: Vec<(&'static str, MemIn)>,
    /// Outputs: pseudocode variable and the registers it is written to.
    pub outputs: Vec<(&'static str, Vec<RegKey>)>,
    /// Immediate fields (symbolic offsets).
    pub fields: Vec<Field>,
    def: &'static Def,
    entry: String,
}

impl<'a, T> MemLine<'a, T> {
    /// Parse `cx`'s line with `parse` (a family's `parse_*_with`) and look up the semantics of
    /// the entry `entry` names.
    ///
    /// Errors (file:line:col): what the assembler rejects for the target; a mnemonic without
    /// semantics (at the mnemonic).
    pub(crate) fn parse(
        cx: LineCx<'a>,
        parse: impl FnOnce(Target, &str, &mut dyn Holes) -> Result<T, AsmError>,
        entry: impl FnOnce(&T) -> &str,
    ) -> Result<Self, InputError> {
        let mut holes = RuleHoles::new(cx);
        let text = &cx.line.text;
        let inst = parse(cx.target, text, &mut holes).map_err(|e| cx.err(e.col, e.msg))?;
        let syn = parse_syntax(text).map_err(|e| cx.err(e.col, e.msg))?;
        let mloc = loc_at(cx.line, syn.mnemonic_col);
        let entry = entry(&inst).to_string();
        let Some(def) = Library::builtin().get(&entry) else {
            return Err(cx
                .rule
                .error(mloc, format!("{}: semantics not modelled", cx.mn)));
        };
        Ok(MemLine {
            inst,
            holes,
            syn,
            mloc,
            inputs: Vec::new(),
            outputs: Vec::new(),
            fields: Vec::new(),
            def,
            entry,
        })
    }

    /// The bound line: a [`MemOp`] on `mem`, a store if `writes_memory`, run once per wave if
    /// `scalar`.
    pub(crate) fn bound(mut self, mem: MemView, writes_memory: bool, scalar: bool) -> Bound {
        let line = self.holes.cx.line;
        Bound {
            op: Op::Mem(Box::new(MemOp {
                mnemonic: self.holes.cx.mn.to_string(),
                def: self.def,
                entry: self.entry,
                inputs: self.inputs,
                outputs: self.outputs,
                mem,
                writes_memory,
                scalar,
            })),
            loc: self.mloc,
            text: line.text.trim().to_string(),
            fields: self.fields,
            var_uses: std::mem::take(&mut self.holes.uses),
        }
    }
}

/// The holes of one rule line: register variables resolved to keys, by role.
pub(crate) struct RuleHoles<'a> {
    cx: LineCx<'a>,
    regs: Vec<(Role, Vec<RegKey>)>,
    /// Register-variable uses, for the one-class-one-width check across the rule.
    pub uses: Vec<VarUse>,
}

fn to_asm(e: InputError) -> AsmError {
    AsmError {
        col: e.loc.col as usize,
        msg: e.msg,
    }
}

impl<'a> RuleHoles<'a> {
    pub(crate) fn new(cx: LineCx<'a>) -> RuleHoles<'a> {
        RuleHoles {
            cx,
            regs: Vec::new(),
            uses: Vec::new(),
        }
    }

    /// The keys of `role`: the variable's if it was a hole, else the concrete tuple's.
    pub(crate) fn keys(&mut self, role: Role, concrete: Option<RegTuple>) -> Vec<RegKey> {
        if let Some(i) = self.regs.iter().position(|(r, _)| *r == role) {
            return self.regs.remove(i).1;
        }
        concrete.map(|t| tuple_keys(&t)).unwrap_or_default()
    }

    /// The keys of the scalar operand `role`: the variable's if it was a hole, else `concrete`'s.
    pub(crate) fn sgprs(&mut self, role: Role, concrete: &Sgprs) -> Vec<RegKey> {
        match self.keys(role, None) {
            k if k.is_empty() => sgpr_keys(concrete),
            k => k,
        }
    }
}

/// The register keys of a concrete SGPR run.
pub(crate) fn sgpr_keys(s: &Sgprs) -> Vec<RegKey> {
    (0..u32::from(s.count))
        .map(|i| RegKey {
            base: "s".into(),
            idx: u32::from(s.first) + i,
            lane: None,
        })
        .collect()
}

/// The register keys of a concrete VGPR/AGPR tuple.
pub(crate) fn tuple_keys(t: &RegTuple) -> Vec<RegKey> {
    let base = if t.file == RegFile::A { "a" } else { "v" };
    (0..u32::from(t.count))
        .map(|i| RegKey {
            base: base.into(),
            idx: u32::from(t.first) + i,
            lane: None,
        })
        .collect()
}

impl Holes for RuleHoles<'_> {
    fn reg(&mut self, role: Role, text: &str, col: usize, class: HoleClass) -> HoleAnswer {
        let t = text.trim();
        if !(t.starts_with('%') || t.starts_with('{')) {
            return None;
        }
        let cls = if role.scalar() {
            Class::Sgpr
        } else if class.agpr_ok {
            Class::VgprOrAgpr
        } else {
            Class::Vgpr
        };
        let dwords = u32::from(class.dwords);
        let keys = self
            .cx
            .regs(t, col, dwords, role.name(), cls, &mut self.uses);
        Some(keys.map(|k| self.regs.push((role, k))).map_err(to_asm))
    }

    fn imm(&mut self, name: &'static str, text: &str, col: usize, max: u64) -> HoleAnswer {
        if gcnsmt_lifter::asm::parse_int(text).is_some() {
            return None;
        }
        let f = self.cx.field(name, text, col, max);
        Some(f.map(|_| ()).map_err(to_asm))
    }
}
