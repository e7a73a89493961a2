//! Rule variables as operand holes of the lifter's one assembler ([`gcnsmt_lifter::holes`]).
//!
//! A rule line is parsed by [`gcnsmt_lifter::parse_asm_with`] / [`gcnsmt_lifter::parse_mubuf_with`],
//! so it is accepted exactly when llvm-mc 22 would accept the instruction with some registers in
//! place of its variables. [`RuleHoles`] answers the parser for `%x`, `{%x, %y}` and symbolic
//! immediates, and keeps the register keys each variable operand stands for.

use super::operands::{field, loc_at, regs};
use super::regkey::{Class, RegKey, VarUse};
use crate::rules::{InputError, Line, Loc, Rule};
use gcnsmt_lifter::asm::{parse_syntax, AsmError, AsmSyntax};
use gcnsmt_lifter::{HoleClass, Holes, RegFile, RegTuple, Role};
use gcnsmt_semantics::defs::Library;
use gcnsmt_semantics::ir::Def;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// Parse `line` with `parse` (a family's `parse_*_with`) and look up the semantics of the
/// entry `entry` names. Returns what every memory binder needs next: the lifter's instruction,
/// the holes (now holding the variables' keys), the line's syntax as written, the mnemonic's
/// location (for errors about the instruction as a whole) and the entry's semantics.
///
/// Errors (file:line:col): what the assembler rejects for the target; a mnemonic without
/// semantics (at the mnemonic).
pub(crate) fn parse_line<'a, T>(
    rule: &'a Rule,
    line: &'a Line,
    target: Target,
    imms: &'a BTreeSet<String>,
    mn: &'a str,
    parse: impl FnOnce(Target, &str, &mut dyn Holes) -> Result<T, AsmError>,
    entry: impl FnOnce(&T) -> &str,
) -> Result<(T, RuleHoles<'a>, AsmSyntax, Loc, &'static Def), InputError> {
    let mut holes = RuleHoles::new(rule, line, target, imms, mn);
    let inst = parse(target, &line.text, &mut holes)
        .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let syn = parse_syntax(&line.text).map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let mloc = loc_at(line, syn.mnemonic_col);
    let Some(def) = Library::builtin().get(entry(&inst)) else {
        return Err(rule.error(mloc, format!("{mn}: semantics not modelled")));
    };
    Ok((inst, holes, syn, mloc, def))
}

/// The holes of one rule line: register variables resolved to keys, by role.
pub(crate) struct RuleHoles<'a> {
    rule: &'a Rule,
    line: &'a Line,
    target: Target,
    imms: &'a BTreeSet<String>,
    mnemonic: &'a str,
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
    pub(crate) fn new(
        rule: &'a Rule,
        line: &'a Line,
        target: Target,
        imms: &'a BTreeSet<String>,
        mnemonic: &'a str,
    ) -> RuleHoles<'a> {
        RuleHoles {
            rule,
            line,
            target,
            imms,
            mnemonic,
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
    fn reg(
        &mut self,
        role: Role,
        text: &str,
        col: usize,
        class: HoleClass,
    ) -> Option<Result<(), AsmError>> {
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
        let keys = regs(
            self.rule,
            self.line,
            self.target,
            t,
            col,
            u32::from(class.dwords),
            role.name(),
            self.mnemonic,
            cls,
            self.imms,
            &mut self.uses,
        );
        Some(keys.map(|k| self.regs.push((role, k))).map_err(to_asm))
    }

    fn imm(
        &mut self,
        name: &'static str,
        text: &str,
        col: usize,
        max: u64,
    ) -> Option<Result<(), AsmError>> {
        if gcnsmt_lifter::asm::parse_int(text).is_some() {
            return None;
        }
        let f = field(self.rule, self.line, name, text, col, max, self.imms);
        Some(f.map(|_| ()).map_err(to_asm))
    }
}
