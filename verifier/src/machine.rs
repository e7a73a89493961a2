//! Rule instructions bound to one target, and their execution over any semantics domain.
//!
//! Registers are named by [`RegKey`]: concrete registers (`v2`, `a0`, `s4`, `m0`, `vcc_lo`)
//! and rule variables (`%x`, one key per dword of the tuple). Distinct variables denote
//! distinct registers, disjoint from every concrete register named in the rule.

use crate::rules::{InputError, Line, Loc, Rule};
use gcnsmt_lifter::asm::{parse_reg, parse_syntax};
use gcnsmt_lifter::lift::{alu_known_anywhere, alu_lookup, ds_semantics, wave_size, AluDef};
use gcnsmt_lifter::table::{ds_lookup, DsShape};
use gcnsmt_lifter::{RegFile, Role};
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{eval_expr, run, Frame, MemState, Val};
use gcnsmt_semantics::ir::{Def, Expr};
use gcnsmt_semantics::parse::parse_expr;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One 32-bit register: a register file or rule variable, and a dword index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegKey {
    /// `v`, `a`, `s`, `m0`, `vcc`, `exec`, or `%name`.
    pub base: String,
    pub idx: u32,
    /// The lane of a vector register under `--lanes N` (`None`: the one lane of a single-lane
    /// check, or a scalar register, which all lanes share).
    pub lane: Option<u32>,
}

impl RegKey {
    pub fn var(name: &str, idx: u32) -> RegKey {
        RegKey {
            base: format!("%{name}"),
            idx,
            lane: None,
        }
    }
    pub fn m0() -> RegKey {
        RegKey {
            base: "m0".into(),
            idx: 0,
            lane: None,
        }
    }
    /// `exec_lo`: lanes 0..31 of EXEC, the mask `--lanes N` guards each lane's run with.
    pub fn exec_lo() -> RegKey {
        RegKey {
            base: "exec".into(),
            idx: 0,
            lane: None,
        }
    }
    /// `exec_hi`: lanes 32..63 of EXEC (wave64 targets).
    pub fn exec_hi() -> RegKey {
        RegKey {
            base: "exec".into(),
            idx: 1,
            lane: None,
        }
    }
    /// The lane id (`LANE_ID`, 0..wave size) of the `slot`-th lane of a `--lanes N` check: an
    /// input like a register, never written.
    pub fn lane_id(slot: u32) -> RegKey {
        RegKey {
            base: "lane_id".into(),
            idx: 0,
            lane: Some(slot),
        }
    }
    pub fn is_var(&self) -> bool {
        self.base.starts_with('%')
    }
}

impl fmt::Display for RegKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_reg(f)?;
        match self.lane {
            Some(l) => write!(f, "@lane{l}"),
            None => Ok(()),
        }
    }
}

impl RegKey {
    /// This register in lane `lane`.
    pub fn in_lane(&self, lane: u32) -> RegKey {
        RegKey {
            lane: Some(lane),
            ..self.clone()
        }
    }
    /// The register name without its lane.
    fn fmt_reg(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base.as_str() {
            "m0" => f.write_str("m0"),
            "lane_id" => f.write_str("LANE_ID"),
            "vcc" | "exec" => write!(
                f,
                "{}_{}",
                self.base,
                if self.idx == 0 { "lo" } else { "hi" }
            ),
            b if b.starts_with('%') => {
                if self.idx == 0 {
                    f.write_str(b)
                } else {
                    write!(f, "{b}[{}]", self.idx)
                }
            }
            b => write!(f, "{b}{}", self.idx),
        }
    }
}

/// Which registers an operand accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// VGPRs only (DS address, VALU destination).
    Vgpr,
    /// VGPRs, or AGPRs on targets with AGPR DS operands (DS data and destination).
    VgprOrAgpr,
    /// Scalar registers: SGPRs, `m0`, `vcc`, `exec` (SALU operands, carry-out).
    Sgpr,
    /// A VALU source: a VGPR or a scalar register.
    Any,
}

impl Class {
    fn vector(self) -> bool {
        matches!(self, Class::Vgpr | Class::VgprOrAgpr)
    }
    fn name(self) -> &'static str {
        match self {
            Class::Vgpr | Class::VgprOrAgpr => "a vector register",
            Class::Sgpr => "a scalar register",
            Class::Any => "a register",
        }
    }
}

/// One use of a register variable: its name (without `%`), the class the operand requires,
/// how many dwords it spans there, and where.
#[derive(Clone, Debug)]
pub struct VarUse {
    pub name: String,
    pub class: Class,
    pub dwords: u32,
    pub loc: Loc,
}

/// An ALU source: registers or an immediate expression over rule variables.
#[derive(Clone, Debug)]
pub enum Src {
    Reg(Vec<RegKey>),
    Imm(Expr),
}

/// What a bound instruction does.
#[derive(Clone, Debug)]
pub enum Op {
    Ds {
        mnemonic: String,
        def: &'static Def,
        entry: String,
        shape: DsShape,
        vdst: Vec<RegKey>,
        addr: Vec<RegKey>,
        data0: Vec<RegKey>,
        data1: Vec<RegKey>,
        /// Immediate fields: `offset` (16 bits) or `offset0`/`offset1` (8 bits each).
        offset: Option<Expr>,
        offset0: Option<Expr>,
        offset1: Option<Expr>,
        gds: bool,
    },
    Alu {
        mnemonic: String,
        def: &'static Def,
        alu: AluDef,
        d0: Vec<RegKey>,
        sdst: Vec<RegKey>,
        srcs: Vec<Src>,
    },
    /// A MUBUF/VBUFFER load, store or atomic (see [`crate::buffer_ops`]).
    Buf(Box<crate::buffer_ops::BufOp>),
    /// A cross-lane DS instruction: it reads other lanes' registers, so it runs once for the
    /// whole wave and only under `--lanes N` (`lanes` is 0 until [`crate::lanes`] expands the
    /// rule). Semantics: `semantics/src/wave.rs`.
    Cross {
        mnemonic: String,
        kind: CrossKind,
        vdst: Vec<RegKey>,
        addr: Vec<RegKey>,
        data0: Vec<RegKey>,
        /// The 16-bit `offset` field, a constant (the swizzle mode depends on its bits).
        offset: u16,
        lanes: u32,
    },
    /// One lane's run of a per-lane instruction under `--lanes N`: `inner`, whose vector
    /// registers are those of lane `lane`, runs with `LANE_ID = lane` when bit `lane` of
    /// `exec_lo` is set, and changes nothing otherwise.
    Lane { lane: u32, inner: Box<Bound> },
}

/// The cross-lane DS instructions rules can use (AMD ISA guides, `DS_SWIZZLE_B32`,
/// `DS_PERMUTE_B32`, `DS_BPERMUTE_B32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrossKind {
    Swizzle,
    Permute,
    Bpermute,
}

impl CrossKind {
    /// The kind of a cross-lane mnemonic, or `None`.
    pub fn of(mnemonic: &str) -> Option<CrossKind> {
        match mnemonic {
            "ds_swizzle_b32" => Some(CrossKind::Swizzle),
            "ds_permute_b32" => Some(CrossKind::Permute),
            "ds_bpermute_b32" => Some(CrossKind::Bpermute),
            _ => None,
        }
    }
}

/// An immediate field whose value must lie in `0..=max` for the instruction to exist.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: &'static str,
    pub expr: Expr,
    pub max: u64,
    pub loc: Loc,
}

/// An instruction of a rule, bound to a target.
#[derive(Clone, Debug)]
pub struct Bound {
    pub op: Op,
    pub loc: Loc,
    pub text: String,
    pub fields: Vec<Field>,
    /// Register-variable uses, checked for one class and one width per variable.
    pub var_uses: Vec<VarUse>,
}

impl Bound {
    /// Registers this instruction writes.
    pub fn writes(&self) -> Vec<RegKey> {
        match &self.op {
            Op::Ds { vdst, .. } => vdst.clone(),
            Op::Cross { vdst, lanes, .. } => lane_keys(vdst, *lanes),
            Op::Lane { inner, .. } => inner.writes(),
            Op::Alu { d0, sdst, .. } => d0.iter().chain(sdst).cloned().collect(),
            Op::Buf(b) => b.writes(),
        }
    }
    /// Registers this instruction reads or writes.
    pub fn regs(&self) -> Vec<RegKey> {
        match &self.op {
            Op::Ds {
                vdst,
                addr,
                data0,
                data1,
                ..
            } => {
                let mut v: Vec<RegKey> = vdst
                    .iter()
                    .chain(addr)
                    .chain(data0)
                    .chain(data1)
                    .cloned()
                    .collect();
                v.push(RegKey::m0());
                v
            }
            Op::Alu { d0, sdst, srcs, .. } => {
                let mut v: Vec<RegKey> = d0.iter().chain(sdst).cloned().collect();
                for s in srcs {
                    if let Src::Reg(r) = s {
                        v.extend(r.iter().cloned());
                    }
                }
                v
            }
            Op::Buf(b) => b.regs(),
            Op::Cross {
                vdst,
                addr,
                data0,
                lanes,
                ..
            } => {
                let mut v = lane_keys(vdst, *lanes);
                v.extend(lane_keys(addr, *lanes));
                v.extend(lane_keys(data0, *lanes));
                v.push(RegKey::exec_lo());
                v
            }
            Op::Lane { inner, .. } => {
                let mut v = inner.regs();
                v.push(RegKey::exec_lo());
                v
            }
        }
    }

    /// This instruction with every register key passed through `f` (lane renaming).
    pub fn map_regs(&self, f: &dyn Fn(&RegKey) -> RegKey) -> Bound {
        let m = |ks: &Vec<RegKey>| ks.iter().map(f).collect::<Vec<_>>();
        let op = match &self.op {
            Op::Ds {
                mnemonic,
                def,
                entry,
                shape,
                vdst,
                addr,
                data0,
                data1,
                offset,
                offset0,
                offset1,
                gds,
            } => Op::Ds {
                mnemonic: mnemonic.clone(),
                def,
                entry: entry.clone(),
                shape: *shape,
                vdst: m(vdst),
                addr: m(addr),
                data0: m(data0),
                data1: m(data1),
                offset: offset.clone(),
                offset0: offset0.clone(),
                offset1: offset1.clone(),
                gds: *gds,
            },
            Op::Alu {
                mnemonic,
                def,
                alu,
                d0,
                sdst,
                srcs,
            } => Op::Alu {
                mnemonic: mnemonic.clone(),
                def,
                alu: *alu,
                d0: m(d0),
                sdst: m(sdst),
                srcs: srcs
                    .iter()
                    .map(|s| match s {
                        Src::Reg(r) => Src::Reg(m(r)),
                        Src::Imm(e) => Src::Imm(e.clone()),
                    })
                    .collect(),
            },
            Op::Buf(b) => Op::Buf(Box::new(b.map_regs(f))),
            Op::Cross { .. } => self.op.clone(),
            Op::Lane { lane, inner } => Op::Lane {
                lane: *lane,
                inner: Box::new(inner.map_regs(f)),
            },
        };
        Bound { op, ..self.clone() }
    }
}

/// Each key of `keys` in lanes `0..lanes` (the keys themselves when `lanes` is 0).
fn lane_keys(keys: &[RegKey], lanes: u32) -> Vec<RegKey> {
    if lanes == 0 {
        return keys.to_vec();
    }
    (0..lanes)
        .flat_map(|l| keys.iter().map(move |k| k.in_lane(l)))
        .collect()
}

/// Variables of a rule: which are immediates (used in a modifier such as `offset:%o`) and
/// which are registers.
pub fn immediate_vars(rule: &Rule) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for l in rule.source.iter().chain(&rule.target) {
        let parsed = if crate::buffer_ops::is_buffer_line(&l.text) {
            gcnsmt_lifter::parse_mubuf_syntax(&l.text)
        } else {
            parse_syntax(&l.text)
        };
        if let Ok(syn) = parsed {
            for (_, v, _) in &syn.modifiers {
                if let Some(v) = v {
                    collect_vars(v, &mut out);
                }
            }
            for (o, _) in &syn.operands {
                // `(expr)` and numbers in source positions are immediates; a bare `%v` there
                // is an immediate only if a modifier uses it too.
                if o.starts_with('(') {
                    collect_vars(o, &mut out);
                }
            }
        }
    }
    out
}

/// Every `%name` in a text.
pub fn collect_vars(text: &str, out: &mut BTreeSet<String>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 1 < b.len() && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') {
            let s = i + 1;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.insert(text[s..i].to_string());
        } else {
            i += 1;
        }
    }
}

pub(crate) fn loc_at(line: &Line, col: usize) -> Loc {
    Loc {
        line: line.loc.line,
        col: col as u32,
    }
}

/// Bind one instruction line of `rule` for `target`.
///
/// Errors (with file:line:col): unknown mnemonic, mnemonic the target lacks, no semantics,
/// wrong operand count or tuple size, misaligned tuple where the target requires alignment,
/// AGPR where not allowed, unknown or misplaced modifier, out-of-range constant immediate,
/// malformed immediate expression.
pub fn bind(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
) -> Result<Bound, InputError> {
    // MUBUF operand syntax (`off`, `offen`) is not DS syntax.
    if crate::buffer_ops::is_buffer_line(&line.text) {
        return crate::buffer_ops::bind_buf(rule, line, target, imms);
    }
    let syn = parse_syntax(&line.text).map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let mn = syn.mnemonic.to_ascii_lowercase();
    let mloc = loc_at(line, syn.mnemonic_col);
    if mn.starts_with("ds_") {
        bind_ds(rule, line, target, imms, &syn, &mn, mloc)
    } else if alu_known_anywhere(&mn) {
        bind_alu(rule, line, target, imms, &syn, &mn, mloc)
    } else {
        Err(rule.error(mloc, format!("unknown mnemonic `{}`", syn.mnemonic)))
    }
}

pub(crate) fn imm_expr(
    rule: &Rule,
    line: &Line,
    text: &str,
    col: usize,
    imms: &BTreeSet<String>,
) -> Result<Expr, InputError> {
    let mut vars = BTreeSet::new();
    collect_vars(text, &mut vars);
    for v in &vars {
        if !imms.contains(v) {
            return Err(rule.error(
                loc_at(line, col),
                format!("%{v} is a register, not an immediate"),
            ));
        }
    }
    parse_expr(text).map_err(|e| {
        rule.error(
            // Past the end (line 2 of a one-line text): point just after the text.
            loc_at(
                line,
                col + if e.line > 1 {
                    text.len()
                } else {
                    e.col as usize - 1
                },
            ),
            format!("bad immediate: {}", e.msg),
        )
    })
}

/// Evaluate an immediate expression with no variables (for static range checks).
pub fn const_value(e: &Expr) -> Option<u128> {
    let mut d = gcnsmt_semantics::interp::Concrete;
    let frame = Frame {
        settings: Settings::default_for(Target::Gfx900),
        gds: false,
        aliases: &[],
        buffer: None,
    };
    let mem = MemState {
        lds: gcnsmt_semantics::interp::CMem::new(|_| 0),
        gds: gcnsmt_semantics::interp::CMem::new(|_| 0),
        global: gcnsmt_semantics::interp::CMem::new_wide(|_| 0),
        ub: false,
    };
    match eval_expr(
        &mut d,
        &frame,
        e,
        Some(Ty::Bits(Kind::U, 64)),
        BTreeMap::new(),
        mem,
    ) {
        Ok(Val::Bits(b, t)) if t.kind() != Some(Kind::I) || b.value >> (t.width() - 1) == 0 => {
            Some(b.value)
        }
        Ok(Val::Bits(b, t)) => Some(b.value | (u128::MAX << t.width())), // negative: out of range
        _ => None,
    }
}

pub(crate) fn field(
    rule: &Rule,
    line: &Line,
    name: &'static str,
    text: &str,
    col: usize,
    max: u64,
    imms: &BTreeSet<String>,
) -> Result<Field, InputError> {
    let expr = imm_expr(rule, line, text, col, imms)?;
    let mut vars = BTreeSet::new();
    collect_vars(text, &mut vars);
    if vars.is_empty() {
        match const_value(&expr) {
            Some(v) if v <= max as u128 => {}
            Some(_) => {
                return Err(rule.error(
                    loc_at(line, col),
                    format!("{name}:{text} is out of range (0..={max})"),
                ));
            }
            None => return Err(rule.error(loc_at(line, col), format!("bad immediate `{text}`"))),
        }
    }
    Ok(Field {
        name,
        expr,
        max,
        loc: loc_at(line, col),
    })
}

/// Parse a register operand needing `count` dwords.
#[allow(clippy::too_many_arguments)]
pub(crate) fn regs(
    rule: &Rule,
    line: &Line,
    target: Target,
    text: &str,
    col: usize,
    count: u32,
    role: &str,
    mn: &str,
    class: Class,
    imms: &BTreeSet<String>,
    uses: &mut Vec<VarUse>,
) -> Result<Vec<RegKey>, InputError> {
    let at = loc_at(line, col);
    let t = text.trim();
    let scalar_ok = |what: &str| -> Result<(), InputError> {
        if class.vector() {
            Err(rule.error(
                at,
                format!("{mn} {role} needs {}, got {what}", class.name()),
            ))
        } else {
            Ok(())
        }
    };
    if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        let n = parts.len() as u32;
        if n == 0 || !count.is_multiple_of(n) {
            return Err(rule.error(
                at,
                format!("{mn} {role} needs {count} dwords; {n} parts do not divide it"),
            ));
        }
        let mut out: Vec<RegKey> = Vec::new();
        for p in parts {
            let keys = regs(
                rule,
                line,
                target,
                p,
                col,
                count / n,
                role,
                mn,
                class,
                imms,
                uses,
            )?;
            if keys.iter().any(|k| out.contains(k)) {
                return Err(
                    rule.error(at, format!("{mn} {role}: `{p}` appears twice in one tuple"))
                );
            }
            out.extend(keys);
        }
        return Ok(out);
    }
    if let Some(v) = t.strip_prefix('%') {
        if imms.contains(v) {
            return Err(rule.error(
                at,
                format!("%{v} is an immediate; {mn} needs a register for {role}"),
            ));
        }
        if v.is_empty() || !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(rule.error(at, format!("bad variable `{t}`")));
        }
        uses.push(VarUse {
            name: v.to_string(),
            class,
            dwords: count,
            loc: at,
        });
        return Ok((0..count).map(|i| RegKey::var(v, i)).collect());
    }
    match t {
        "m0" | "M0" => {
            scalar_ok("m0")?;
            return if count == 1 {
                Ok(vec![RegKey::m0()])
            } else {
                Err(rule.error(at, format!("{mn} {role} needs {count} dwords, got m0")))
            };
        }
        "vcc" | "exec" => {
            scalar_ok(t)?;
            return if count == 2 {
                Ok((0..2)
                    .map(|i| RegKey {
                        base: t.into(),
                        idx: i,
                        lane: None,
                    })
                    .collect())
            } else {
                Err(rule.error(
                    at,
                    format!("{mn} {role} needs {count} dword(s), got {t} (2)"),
                ))
            };
        }
        "vcc_lo" | "vcc_hi" | "exec_lo" | "exec_hi" => {
            scalar_ok(t)?;
            let (b, hi) = t.split_once('_').unwrap();
            return if count == 1 {
                Ok(vec![RegKey {
                    base: b.into(),
                    idx: u32::from(hi == "hi"),
                    lane: None,
                }])
            } else {
                Err(rule.error(at, format!("{mn} {role} needs {count} dwords, got {t}")))
            };
        }
        _ => {}
    }
    if let Some(rest) = t.strip_prefix('s') {
        let (first, last) =
            if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                let (a, b) = inner.split_once(':').unwrap_or((inner, inner));
                (a.trim().parse::<u32>().ok(), b.trim().parse::<u32>().ok())
            } else {
                (rest.parse::<u32>().ok(), rest.parse::<u32>().ok())
            };
        if let (Some(a), Some(b)) = (first, last) {
            scalar_ok(t)?;
            if b < a || b > 105 {
                return Err(rule.error(at, format!("bad SGPR `{t}`")));
            }
            if b - a + 1 != count {
                return Err(rule.error(
                    at,
                    format!(
                        "{mn} {role} needs {count} dword(s), got {t} ({})",
                        b - a + 1
                    ),
                ));
            }
            return Ok((a..=b)
                .map(|i| RegKey {
                    base: "s".into(),
                    idx: i,
                    lane: None,
                })
                .collect());
        }
    }
    let Some(tup) = parse_reg(t) else {
        return Err(rule.error(
            at,
            format!("expected a register for {mn} {role}, found `{t}`"),
        ));
    };
    if class == Class::Sgpr {
        return Err(rule.error(at, format!("{mn} {role} needs a scalar register, got {t}")));
    }
    if tup.count as u32 != count {
        return Err(rule.error(
            at,
            format!(
                "{mn} {role} needs a {count}-register tuple, got {t} ({} register{})",
                tup.count,
                if tup.count == 1 { "" } else { "s" }
            ),
        ));
    }
    if tup.file == RegFile::A && class != Class::VgprOrAgpr {
        return Err(rule.error(
            at,
            format!("{mn} {role}: AGPRs are not allowed here on {target}"),
        ));
    }
    if count > 1 && tup.first % 2 == 1 && target.needs_aligned_vgpr_tuples() {
        return Err(rule.error(
            at,
            format!(
                "{mn} {role}: {t} is misaligned; {target} requires even-aligned register tuples"
            ),
        ));
    }
    if tup.first as u32 + count > 256 {
        return Err(rule.error(at, format!("register `{t}` out of range")));
    }
    let base = if tup.file == RegFile::A { "a" } else { "v" };
    Ok((0..count)
        .map(|i| RegKey {
            base: base.into(),
            idx: tup.first as u32 + i,
            lane: None,
        })
        .collect())
}

/// The static name of an offset modifier.
fn name_of(modifier: &str) -> &'static str {
    match modifier {
        "offset0" => "offset0",
        "offset1" => "offset1",
        _ => "offset",
    }
}

#[allow(clippy::too_many_arguments)]
fn bind_ds(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
    syn: &gcnsmt_lifter::AsmSyntax,
    mn: &str,
    mloc: Loc,
) -> Result<Bound, InputError> {
    let Some((_, shape)) = ds_lookup(target, mn) else {
        let on: Vec<&str> = Target::ALL
            .iter()
            .filter(|t| ds_lookup(**t, mn).is_some())
            .map(|t| t.name())
            .collect();
        // The same opcode's name on this target, from a target sharing its opcode numbering
        // (SI/CI, gfx10, gfx11 and gfx12 share one; VI, gfx9 and CDNA another).
        let vi = |t: Target| t.ds_layout() == gcnsmt_semantics::target::DsLayout::Vi;
        let hint = Target::ALL
            .into_iter()
            .filter(|t| vi(*t) == vi(target))
            .find_map(|t| ds_lookup(t, mn))
            .and_then(|(op, _)| gcnsmt_lifter::ds_by_opcode(target, op))
            .map(|(name, _)| format!("; on {target} this opcode is `{name}`"))
            .unwrap_or_default();
        return Err(if on.is_empty() {
            rule.error(mloc, format!("unknown mnemonic `{mn}`"))
        } else {
            rule.error(
                mloc,
                format!(
                    "{mn} is not available on {target} (it exists on {}){hint}",
                    on.join(", ")
                ),
            )
        });
    };
    let cross = CrossKind::of(mn);
    let sem = ds_semantics(mn);
    if sem.is_none() && cross.is_none() {
        let why = if matches!(mn, "ds_append" | "ds_consume") {
            "its counter address is `M0.base + offset` in the RDNA3 guide and `offset` in RDNA4's, \
             so no one address holds on every generation"
        } else {
            "GWS, ordered-count, BVH-stack, transpose and barrier ops are not modelled"
        };
        return Err(rule.error(mloc, format!("{mn}: semantics not modelled ({why})")));
    }
    // The lifter's assembler checks operands and modifiers as llvm-mc does; variables are
    // holes in it (crate::holes).
    let mut holes = crate::holes::RuleHoles::new(rule, line, target, imms, mn);
    let inst = gcnsmt_lifter::parse_asm_with(target, &line.text, &mut holes)
        .map_err(|e| rule.error(loc_at(line, e.col), e.msg))?;
    let mut got: BTreeMap<&str, Vec<RegKey>> = BTreeMap::new();
    for (role, t) in [
        (Role::Vdst, inst.vdst),
        (Role::Addr, inst.addr),
        (Role::Data0, inst.data0),
        (Role::Data1, inst.data1),
    ] {
        got.insert(role.name(), holes.keys(role, t));
    }
    let var_uses = std::mem::take(&mut holes.uses);
    let gds = inst.gds;
    let (mut offset, mut offset0, mut offset1) = (None, None, None);
    let mut fields = Vec::new();
    for (name, val, col) in &syn.modifiers {
        let vcol = col + name.len() + 1;
        let Some(v) = val else { continue };
        let (slot, max) = match name.as_str() {
            "offset" => (&mut offset, 0xffff),
            "offset0" => (&mut offset0, 0xff),
            "offset1" => (&mut offset1, 0xff),
            _ => continue,
        };
        // The swizzle macro's value is the one the assembler computed.
        let text = if v.starts_with("swizzle(") {
            inst.offset16().to_string()
        } else {
            v.clone()
        };
        let f = field(rule, line, name_of(name), &text, vcol, max, imms)?;
        *slot = Some(f.expr.clone());
        fields.push(f);
    }
    let mut take = |r: &str| got.remove(r).unwrap_or_default();
    if let Some(kind) = cross {
        let offset = match &offset {
            None => 0,
            Some(e) => match const_value(e) {
                Some(v) => v as u16,
                None => {
                    return Err(rule.error(
                        mloc,
                        format!(
                            "{mn}: a cross-lane instruction's offset must be a constant here \
                             (the swizzle pattern and the permute lane index depend on its bits)"
                        ),
                    ))
                }
            },
        };
        return Ok(Bound {
            op: Op::Cross {
                mnemonic: mn.to_string(),
                kind,
                vdst: take("vdst"),
                addr: take("addr"),
                data0: take("data0"),
                offset,
                lanes: 0,
            },
            loc: mloc,
            text: line.text.trim().to_string(),
            fields,
            var_uses,
        });
    }
    let (entry, def) = sem.expect("checked above");
    Ok(Bound {
        op: Op::Ds {
            mnemonic: mn.to_string(),
            def,
            entry,
            shape,
            vdst: take("vdst"),
            addr: take("addr"),
            data0: take("data0"),
            data1: take("data1"),
            offset,
            offset0,
            offset1,
            gds,
        },
        loc: mloc,
        text: line.text.trim().to_string(),
        fields,
        var_uses,
    })
}

#[allow(clippy::too_many_arguments)]
fn bind_alu(
    rule: &Rule,
    line: &Line,
    target: Target,
    imms: &BTreeSet<String>,
    syn: &gcnsmt_lifter::AsmSyntax,
    mn: &str,
    mloc: Loc,
) -> Result<Bound, InputError> {
    let Some(alu) = alu_lookup(target, mn) else {
        return Err(rule.error(mloc, format!("{mn} is not available on {target}")));
    };
    let def = gcnsmt_semantics::defs::Library::builtin()
        .get(alu.entry)
        .expect("ALU entries exist");
    let want = 1 + usize::from(alu.sdst) + alu.srcs as usize;
    if syn.operands.len() != want {
        let at = syn.operands.get(want).map(|o| o.1).unwrap_or(syn.end_col);
        return Err(rule.error(
            loc_at(line, at),
            format!("{mn} takes {want} operands, got {}", syn.operands.len()),
        ));
    }
    if let Some((name, _, col)) = syn.modifiers.first() {
        return Err(rule.error(
            loc_at(line, *col),
            format!("unknown modifier `{name}` for {mn}"),
        ));
    }
    let mut ops = syn.operands.iter();
    let (t, c) = ops.next().unwrap();
    let mut var_uses = Vec::new();
    let dclass = if alu.scalar || alu.dmask {
        Class::Sgpr
    } else {
        Class::Vgpr
    };
    let mask_dwords = if wave_size(target) == 32 { 1 } else { 2 };
    let d0 = regs(
        rule,
        line,
        target,
        t,
        *c,
        if alu.dmask { mask_dwords } else { 1 },
        "destination",
        mn,
        dclass,
        imms,
        &mut var_uses,
    )?;
    let sdst = if alu.sdst {
        let (t, c) = ops.next().unwrap();
        let n = if wave_size(target) == 32 { 1 } else { 2 };
        regs(
            rule,
            line,
            target,
            t,
            *c,
            n,
            "carry-out",
            mn,
            Class::Sgpr,
            imms,
            &mut var_uses,
        )?
    } else {
        Vec::new()
    };
    let mut srcs = Vec::new();
    let nsrc = alu.srcs as usize;
    for (i, (t, c)) in ops.enumerate() {
        let tt = t.trim();
        if alu.smask && i + 1 == nsrc {
            srcs.push(Src::Reg(regs(
                rule,
                line,
                target,
                tt,
                *c,
                mask_dwords,
                "lane mask",
                mn,
                Class::Sgpr,
                imms,
                &mut var_uses,
            )?));
            continue;
        }
        let is_imm = tt.starts_with('(')
            || tt.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-')
            || tt.strip_prefix('%').is_some_and(|v| imms.contains(v));
        if is_imm {
            let e = imm_expr(rule, line, tt, *c, imms)?;
            // A 32-bit operand takes a literal in [-2^31, 2^32 - 1]; llvm-mc 22 rejects others
            // ("invalid operand for instruction") rather than truncating them.
            let literal = gcnsmt_lifter::asm::parse_int(tt);
            let fits = match literal {
                Some(v) => (-(1i64 << 31)..=0xffff_ffff).contains(&v),
                None => const_value(&e).is_none_or(|v| v <= 0xffff_ffff),
            };
            if !fits {
                return Err(rule.error(
                    loc_at(line, *c),
                    format!("{mn}: literal `{tt}` does not fit a 32-bit operand"),
                ));
            }
            srcs.push(Src::Imm(e));
        } else {
            let sclass = if alu.scalar { Class::Sgpr } else { Class::Any };
            srcs.push(Src::Reg(regs(
                rule,
                line,
                target,
                tt,
                *c,
                1,
                "source",
                mn,
                sclass,
                imms,
                &mut var_uses,
            )?));
        }
    }
    Ok(Bound {
        op: Op::Alu {
            mnemonic: mn.to_string(),
            def,
            alu,
            d0,
            sdst,
            srcs,
        },
        loc: mloc,
        text: line.text.trim().to_string(),
        fields: Vec::new(),
        var_uses,
    })
}

/// Inputs shared by both sides of a rule.
pub struct Env<D: Domain> {
    pub target: Target,
    pub settings: Settings,
    /// Immediate variables, 64-bit (constrained below 2^32 by the checker).
    pub imms: BTreeMap<String, D::Bv>,
    pub lds_size: D::Bv,
    pub lane_id: D::Bv,
}

impl<D: Domain> Env<D> {
    /// A copy with another `LANE_ID`.
    pub fn clone_with_lane(&self, lane_id: D::Bv) -> Env<D> {
        Env {
            target: self.target,
            settings: self.settings,
            imms: self.imms.clone(),
            lds_size: self.lds_size.clone(),
            lane_id,
        }
    }
}

/// Register file and memory.
pub struct Machine<D: Domain> {
    pub regs: BTreeMap<RegKey, D::Bv>,
    pub mem: MemState<D>,
}

impl<D: Domain> Clone for Machine<D> {
    fn clone(&self) -> Self {
        Machine {
            regs: self.regs.clone(),
            mem: self.mem.clone(),
        }
    }
}

fn imm_vars<D: Domain>(env: &Env<D>) -> BTreeMap<String, Val<D>> {
    env.imms
        .iter()
        .map(|(k, v)| (format!("%{k}"), Val::Bits(v.clone(), Ty::Bits(Kind::U, 64))))
        .collect()
}

/// Evaluate an immediate expression to a 64-bit value.
pub fn eval_imm<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    e: &Expr,
) -> Result<D::Bv, String> {
    let frame = Frame {
        settings: env.settings,
        gds: false,
        aliases: &[],
        buffer: None,
    };
    let v = eval_expr(
        d,
        &frame,
        e,
        Some(Ty::Bits(Kind::U, 64)),
        imm_vars(env),
        m.mem.clone(),
    )
    .map_err(|e| e.msg)?;
    match v {
        Val::Bits(b, t) => {
            let w = t.width();
            Ok(match w.cmp(&64) {
                std::cmp::Ordering::Equal => b,
                std::cmp::Ordering::Less if t.kind() == Some(Kind::I) => d.sext(&b, 64 - w),
                std::cmp::Ordering::Less => d.zext(&b, 64 - w),
                std::cmp::Ordering::Greater => d.extract(&b, 63, 0),
            })
        }
        Val::Bool(_) => Err("an immediate cannot be a boolean".into()),
    }
}

pub(crate) fn read<D: Domain>(d: &mut D, m: &Machine<D>, keys: &[RegKey]) -> D::Bv {
    let mut acc: Option<D::Bv> = None;
    for k in keys {
        let r = m.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        acc = Some(match acc {
            None => r,
            Some(lo) => d.concat(&r, &lo),
        });
    }
    acc.unwrap_or_else(|| d.bv(0, 32))
}

pub(crate) fn write<D: Domain>(
    d: &mut D,
    m: &mut Machine<D>,
    keys: &[RegKey],
    v: &Val<D>,
) -> Result<(), String> {
    let Val::Bits(b, _) = v else {
        return Err("register result is a boolean".into());
    };
    let w = d.width(b);
    let need = 32 * keys.len() as u32;
    let b = if w < need {
        d.zext(b, need - w)
    } else {
        b.clone()
    };
    for (i, k) in keys.iter().enumerate() {
        let part = d.extract(&b, 32 * i as u32 + 31, 32 * i as u32);
        m.regs.insert(k.clone(), part);
    }
    Ok(())
}

pub(crate) fn bits<D: Domain>(b: D::Bv, d: &D) -> Val<D> {
    let w = d.width(&b);
    Val::Bits(b, Ty::Bits(Kind::B, w))
}

/// Execute one bound instruction.
///
/// Errors: a semantics entry that fails to evaluate (an internal error in `semantics/`).
pub fn step<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    b: &Bound,
) -> Result<(), String> {
    match &b.op {
        Op::Ds {
            def,
            entry,
            vdst,
            addr,
            data0,
            data1,
            offset,
            offset0,
            offset1,
            gds,
            ..
        } => {
            let aliases = def.aliases_for(entry).unwrap_or(&[]);
            let frame = Frame {
                settings: env.settings,
                gds: *gds,
                aliases,
                buffer: None,
            };
            let field8 = |d: &mut D, e: &Option<Expr>| -> Result<D::Bv, String> {
                match e {
                    Some(e) => {
                        let v = eval_imm(d, env, m, e)?;
                        Ok(d.extract(&v, 7, 0))
                    }
                    None => Ok(d.bv(0, 8)),
                }
            };
            let (o0, o1) = match offset {
                Some(e) => {
                    let v = eval_imm(d, env, m, e)?;
                    (d.extract(&v, 7, 0), d.extract(&v, 15, 8))
                }
                None => (field8(d, offset0)?, field8(d, offset1)?),
            };
            let off = d.concat(&o1, &o0);
            let mut vars = BTreeMap::new();
            let a = read(d, m, addr);
            vars.insert("ADDR".to_string(), bits(a, d));
            let x = read(d, m, data0);
            vars.insert("DATA0".to_string(), bits(x, d));
            let y = read(d, m, data1);
            vars.insert("DATA1".to_string(), bits(y, d));
            vars.insert("OFFSET".to_string(), Val::Bits(off, Ty::Bits(Kind::U, 16)));
            vars.insert("OFFSET0".to_string(), Val::Bits(o0, Ty::Bits(Kind::U, 8)));
            vars.insert("OFFSET1".to_string(), Val::Bits(o1, Ty::Bits(Kind::U, 8)));
            let m0 = read(d, m, &[RegKey::m0()]);
            vars.insert("M0".to_string(), bits(m0, d));
            vars.insert("LDS_SIZE".to_string(), bits(env.lds_size.clone(), d));
            vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
            let rd = if vdst.is_empty() {
                d.bv(0, 128)
            } else {
                read(d, m, vdst)
            };
            vars.insert("RETURN_DATA".to_string(), bits(rd, d));
            let (out, mem) = run(d, &frame, &def.body, vars, m.mem.clone())
                .map_err(|e| format!("{entry}: {}", e.msg))?;
            m.mem = mem;
            if !vdst.is_empty() {
                write(d, m, vdst, &out["RETURN_DATA"])?;
            }
            Ok(())
        }
        Op::Buf(op) => crate::buffer_ops::step(d, env, m, op),
        Op::Lane { lane, inner } => {
            let id = read(d, m, &[RegKey::lane_id(*lane)]);
            let on = exec_bit(d, m, &id);
            let before = m.clone();
            let lenv = env.clone_with_lane(id);
            step(d, &lenv, m, inner)?;
            match d.known(&on) {
                Some(true) => {}
                Some(false) => *m = before,
                None => *m = merge(d, &on, m, &before),
            }
            Ok(())
        }
        Op::Cross {
            mnemonic,
            kind,
            vdst,
            addr,
            data0,
            offset,
            lanes,
        } => {
            if *lanes == 0 {
                return Err(format!(
                    "{mnemonic} is a cross-lane instruction; it runs only with --lanes N"
                ));
            }
            let wave = wave_size(env.target);
            let ids: Vec<D::Bv> = (0..*lanes)
                .map(|l| read(d, m, &[RegKey::lane_id(l)]))
                .collect();
            let active: Vec<D::Bool> = ids.iter().map(|id| exec_bit(d, m, id)).collect();
            let per_lane = |d: &mut D, keys: &[RegKey]| -> Vec<D::Bv> {
                (0..*lanes)
                    .map(|l| {
                        let ks: Vec<RegKey> = keys.iter().map(|k| k.in_lane(l)).collect();
                        read(d, m, &ks)
                    })
                    .collect()
            };
            let old = per_lane(d, vdst);
            use gcnsmt_semantics::wave::{bpermute_lanes, permute_lanes, swizzle_lanes};
            let out = match kind {
                CrossKind::Swizzle => {
                    // The data comes in the ADDR operand (LLVM: `ds_swizzle_b32 vdst, addr`).
                    let data = per_lane(d, addr);
                    let gfx9 = env.target.gen() >= gcnsmt_semantics::target::Gen::Gfx9;
                    swizzle_lanes(d, wave, &ids, &data, &old, &active, *offset, gfx9)
                }
                CrossKind::Permute | CrossKind::Bpermute => {
                    let a = per_lane(d, addr);
                    let data = per_lane(d, data0);
                    let wrap = gcnsmt_semantics::wave::PermuteWrap::of(env.target);
                    let f = if *kind == CrossKind::Permute {
                        permute_lanes::<D>
                    } else {
                        bpermute_lanes::<D>
                    };
                    f(d, wave, &ids, &a, &data, &old, &active, *offset, wrap)
                }
            };
            for l in 0..*lanes {
                let ks: Vec<RegKey> = vdst.iter().map(|k| k.in_lane(l)).collect();
                let v = bits(out[l as usize].clone(), d);
                write(d, m, &ks, &v)?;
            }
            Ok(())
        }
        Op::Alu {
            def,
            alu,
            d0,
            sdst,
            srcs,
            ..
        } => {
            let frame = Frame {
                settings: env.settings,
                gds: false,
                aliases: &[],
                buffer: None,
            };
            let mut vars = BTreeMap::new();
            for (i, s) in srcs.iter().enumerate() {
                let v = match s {
                    Src::Reg(r) => read(d, m, r),
                    Src::Imm(e) => {
                        let v = eval_imm(d, env, m, e)?;
                        d.extract(&v, 31, 0)
                    }
                };
                vars.insert(format!("S{i}"), bits(v, d));
            }
            let old = read(d, m, d0);
            vars.insert("D0".to_string(), bits(old, d));
            if alu.sdst {
                let s = read(d, m, sdst);
                vars.insert("SDST".to_string(), bits(s, d));
            }
            vars.insert("LANE_ID".to_string(), bits(env.lane_id.clone(), d));
            let (out, mem) = run(d, &frame, &def.body, vars, m.mem.clone())
                .map_err(|e| format!("{}: {}", alu.entry, e.msg))?;
            m.mem = mem;
            write(d, m, d0, &out["D0"])?;
            if alu.sdst {
                write(d, m, sdst, &out["SDST"])?;
            }
            Ok(())
        }
    }
}

/// Whether EXEC (`exec_hi:exec_lo`, 64 bits; a missing `exec_hi` reads 0) has the bit of lane
/// `id` set.
fn exec_bit<D: Domain>(d: &mut D, m: &Machine<D>, id: &D::Bv) -> D::Bool {
    let exec = read(d, m, &[RegKey::exec_lo(), RegKey::exec_hi()]);
    let sh = d.zext(id, 32);
    let shifted = d.op(gcnsmt_semantics::domain::BvOp::LShr, &exec, &sh);
    let bit = d.extract(&shifted, 0, 0);
    let one = d.bv(1, 1);
    d.cmp(gcnsmt_semantics::domain::CmpOp::Eq, &bit, &one)
}

/// `on ? a : b`, register by register and memory by memory (a register one side lacks reads
/// as the zero [`read`] gives it).
fn merge<D: Domain>(d: &mut D, on: &D::Bool, a: &Machine<D>, b: &Machine<D>) -> Machine<D> {
    let keys: BTreeSet<&RegKey> = a.regs.keys().chain(b.regs.keys()).collect();
    let mut regs = BTreeMap::new();
    for k in keys {
        let x = a.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        let y = b.regs.get(k).cloned().unwrap_or_else(|| d.bv(0, 32));
        regs.insert(k.clone(), d.ite(on, &x, &y));
    }
    let mem = MemState {
        lds: d.ite_mem(on, &a.mem.lds, &b.mem.lds),
        gds: d.ite_mem(on, &a.mem.gds, &b.mem.gds),
        global: d.ite_mem(on, &a.mem.global, &b.mem.global),
        ub: d.ite_bool(on, &a.mem.ub, &b.mem.ub),
    };
    Machine { regs, mem }
}

/// Run a sequence of instructions.
pub fn exec<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &mut Machine<D>,
    prog: &[Bound],
) -> Result<(), String> {
    for b in prog {
        step(d, env, m, b)?;
    }
    Ok(())
}
