//! Refinement checking of one rule on one target.
//!
//! For every initial state satisfying the precondition (LDS and GDS bytes, registers, M0,
//! LDS_SIZE, LANE_ID, immediates) on which the source is defined and encodable, the target
//! must be encodable and defined, leave the same LDS and GDS bytes, and leave the same value in
//! every register either side names, except registers declared `Dead`.

use crate::crosscheck::{QueryKind, Sat};
use crate::machine::{bind, collect_vars, exec, immediate_vars, Bound, Env, Machine, RegKey};
use crate::rules::{Expect, InputError, Rule};
use crate::smt::{build, Answer, Model, Query, Smt};
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_semantics::domain::Domain;
use gcnsmt_semantics::eval::{eval_expr, Frame, MemState, Val};
use gcnsmt_semantics::interp::{CMem, Concrete};
use gcnsmt_semantics::parse::parse_expr;
use gcnsmt_semantics::settings::{LdsLimit, Settings};
use gcnsmt_semantics::target::Target;
use gcnsmt_semantics::ty::{Kind, Ty};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How to check.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time limit per solver query.
    pub timeout: Duration,
    /// `name=value` settings from the command line; they override the rule's.
    pub settings: Vec<(String, String)>,
    /// Memory limit per solver query, in megabytes (`--memory`); a query that hits it is
    /// `unknown`.
    pub memory_mb: Option<u32>,
    /// `--emit-smt2` and `--cross-check`: what else happens to each query's text.
    pub hooks: crate::crosscheck::Hooks,
    /// Prove rules whose sides are identical after egg normalisation, or whose outputs meet
    /// in one e-class after the e-graph pass ([`crate::egg_domain`]), without a refinement
    /// query (on by default; off only to measure what it saves).
    pub egg: bool,
    /// `--lanes N [--lane-order ...]`: check every rule with N lanes (overrides a rule's
    /// `Lanes:`); see [`crate::lanes`].
    pub lanes: Option<crate::lanes::LaneMode>,
    /// `--lane-order`: replaces the order of rules' `Lanes:` too.
    pub lane_order: Option<crate::lanes::LaneOrder>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(20),
            settings: Vec::new(),
            memory_mb: None,
            hooks: Default::default(),
            egg: true,
            lanes: None,
            lane_order: None,
        }
    }
}

/// A counterexample, as replayed on the concrete interpreter.
#[derive(Clone, Debug)]
pub struct Cex {
    /// Input name, value, width in bits.
    pub inputs: Vec<(String, u128, u32)>,
    /// Initial LDS bytes the two sides read (address, value).
    pub lds: Vec<(u32, u8)>,
    /// Initial GDS bytes the two sides read.
    pub gds: Vec<(u32, u8)>,
    /// Initial global-memory bytes (buffer instructions) the two sides read.
    pub global: Vec<(u64, u8)>,
    /// Each V# (buffer resource) a buffer instruction read: its registers and decoded fields.
    pub vsharp: Vec<(String, Vec<(&'static str, u128)>)>,
    /// The source's and the target's instructions with the values each produced.
    pub steps: (Vec<Step>, Vec<Step>),
    /// Final register values: name, source value, target value.
    pub regs: Vec<(String, u32, u32)>,
    /// Final memory bytes that differ: space, address, source byte, target byte.
    pub mem_diffs: Vec<(&'static str, u64, u8, u8)>,
    /// The first difference, in words.
    pub first_difference: String,
    /// Under `--lanes N`: the lane count and order, the target's serialization, and how many
    /// source serializations were all shown to differ.
    pub lanes: Option<String>,
}

/// The verdict on one rule and target.
#[derive(Clone, Debug)]
pub enum Verdict {
    Proved,
    Refuted(Box<Cex>),
    /// The precondition (with the source's encodability and definedness) cannot hold.
    Inapplicable,
    /// The solver gave up or ran out of time.
    Unknown(String),
    /// An internal error (a semantics entry failed, or a counterexample did not replay).
    Error(String),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::Refuted(_) => "refuted",
            Verdict::Inapplicable => "inapplicable",
            Verdict::Unknown(_) => "unknown",
            Verdict::Error(_) => "error",
        }
    }
    /// Whether this matches an expectation.
    pub fn matches(&self, e: Expect) -> bool {
        matches!(
            (self, e),
            (Verdict::Proved, Expect::Proved)
                | (Verdict::Refuted(_), Expect::Refuted)
                | (Verdict::Inapplicable, Expect::Inapplicable)
        )
    }
}

/// The result for one rule and target.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub rule: String,
    pub file: String,
    pub target: Target,
    pub settings: Settings,
    pub verdict: Verdict,
    pub expect: Option<Expect>,
    pub time: Duration,
    /// How the verdict was reached when not by the usual solver query.
    pub note: Option<&'static str>,
    /// The rule uses buffer instructions (their settings are printed with the verdict).
    pub buffer: bool,
    /// The lanes it was checked with (`None`: one lane).
    pub lanes: Option<crate::lanes::LaneMode>,
}

/// Whether a rule has MUBUF/VBUFFER instructions.
pub fn uses_buffer(rule: &Rule) -> bool {
    rule.source
        .iter()
        .chain(&rule.target)
        .any(|l| crate::buffer_ops::is_buffer_line(&l.text))
}

impl Outcome {
    /// The settings as printed with the verdict: the LDS ones, and the buffer ones when the
    /// rule uses buffer instructions.
    pub fn settings_text(&self) -> String {
        let mut t = if self.buffer {
            format!("{}, {}", self.settings, self.settings.buffer_text())
        } else {
            self.settings.to_string()
        };
        if let Some(m) = self.lanes {
            t.push_str(&format!(", lanes={} {}", m.lanes, m.order.name()));
        }
        t
    }
}

/// The targets a rule runs on: its `Targets:` list (every instruction must exist there), or
/// every target on which all its instructions bind, intersected with `filter`.
pub fn targets_of(rule: &Rule, filter: Option<&[Target]>) -> Vec<Target> {
    let ts: Vec<Target> = match &rule.targets {
        Some((ts, _)) => ts.clone(),
        None => {
            let imms = immediate_vars(rule);
            Target::ALL
                .into_iter()
                // Targets on which the rule's settings do not exist (UNALIGNED before gfx9)
                // are not candidates either.
                .filter(|t| {
                    let mut s = Settings::default_for(*t);
                    rule.settings
                        .iter()
                        .all(|(n, v, _)| s.set(*t, n, v).is_ok())
                })
                .filter(|t| {
                    rule.source
                        .iter()
                        .chain(&rule.target)
                        .all(|l| bind(rule, l, *t, &imms).is_ok())
                })
                .collect()
        }
    };
    ts.into_iter()
        .filter(|t| filter.is_none_or(|f| f.contains(t)))
        .collect()
}

struct Bound2 {
    src: Vec<Bound>,
    tgt: Vec<Bound>,
    settings: Settings,
    keys: BTreeSet<RegKey>,
    imms: BTreeSet<String>,
    dead: BTreeSet<RegKey>,
    pre: Option<gcnsmt_semantics::ir::Expr>,
    /// The rule expanded to N lanes (`--lanes N` or `Lanes:`).
    lanes: Option<(crate::lanes::LaneMode, crate::lanes::Expanded)>,
}

fn elaborate(rule: &Rule, target: Target, opts: &Options) -> Result<Bound2, InputError> {
    let settings = settings_for(rule, target, opts)?;
    let imms = immediate_vars(rule);
    let bind_all = |ls: &[crate::rules::Line]| -> Result<Vec<Bound>, InputError> {
        ls.iter().map(|l| bind(rule, l, target, &imms)).collect()
    };
    let src = bind_all(&rule.source)?;
    let tgt = bind_all(&rule.target)?;
    // One register class and one width per variable across the whole rule.
    let mut first: BTreeMap<String, crate::machine::VarUse> = BTreeMap::new();
    for u in src.iter().chain(&tgt).flat_map(|b| &b.var_uses) {
        use crate::machine::Class;
        match first.get(&u.name) {
            None => {
                first.insert(u.name.clone(), u.clone());
            }
            Some(f) => {
                if f.dwords != u.dwords {
                    return Err(rule.error(
                        u.loc,
                        format!(
                            "%{} spans {} register(s) here but {} at line {}",
                            u.name, u.dwords, f.dwords, f.loc.line
                        ),
                    ));
                }
                let vector = |c: Class| matches!(c, Class::Vgpr | Class::VgprOrAgpr);
                if (vector(f.class) && u.class == Class::Sgpr)
                    || (f.class == Class::Sgpr && vector(u.class))
                {
                    return Err(rule.error(
                        u.loc,
                        format!(
                            "%{} is used as a {} register here but as a {} register at line {}",
                            u.name,
                            if u.class == Class::Sgpr {
                                "scalar"
                            } else {
                                "vector"
                            },
                            if f.class == Class::Sgpr {
                                "scalar"
                            } else {
                                "vector"
                            },
                            f.loc.line
                        ),
                    ));
                }
                if f.class == Class::Any && u.class != Class::Any {
                    first.insert(u.name.clone(), u.clone());
                }
            }
        }
    }
    let mut keys: BTreeSet<RegKey> = BTreeSet::new();
    keys.insert(RegKey::m0());
    for b in src.iter().chain(&tgt) {
        keys.extend(b.regs());
    }
    let reg_vars: BTreeSet<String> = keys
        .iter()
        .filter(|k| k.is_var())
        .map(|k| k.base[1..].to_string())
        .collect();
    let mut dead = BTreeSet::new();
    for (v, loc) in &rule.dead {
        if imms.contains(v) {
            return Err(rule.error(
                *loc,
                format!("%{v} is an immediate; only registers can be dead"),
            ));
        }
        let ks: Vec<RegKey> = keys
            .iter()
            .filter(|k| k.base == format!("%{v}"))
            .cloned()
            .collect();
        if ks.is_empty() {
            return Err(rule.error(*loc, format!("undefined variable %{v}")));
        }
        dead.extend(ks);
    }
    let mode = lane_mode(rule, opts);
    let pre = match &rule.pre {
        None => None,
        Some(p) => {
            let mut vs = BTreeSet::new();
            collect_vars(&p.text, &mut vs);
            // The leftmost undefined variable, at its whole-word occurrence (`%x`, not `%xx`).
            let undefined = vs
                .iter()
                .filter(|v| !imms.contains(*v) && !reg_vars.contains(*v))
                .filter_map(|v| Some((word_pos(&p.text, &format!("%{v}"))?, v)))
                .min();
            if let Some((col, v)) = undefined {
                let mut loc = p.loc;
                loc.col += col as u32;
                return Err(rule.error(loc, format!("undefined variable %{v}")));
            }
            let e = parse_expr(&p.text).map_err(|e| {
                let mut loc = p.loc;
                // Past the end (line 2 of a one-line text): point just after the text.
                loc.col += if e.line > 1 {
                    p.text.len() as u32
                } else {
                    e.col - 1
                };
                rule.error(loc, format!("bad precondition: {}", e.msg))
            })?;
            // Evaluate once over concrete zeros: unknown names and type errors are input errors
            // here, not internal errors of the solver run.
            let zero = |width| gcnsmt_semantics::interp::Bits { value: 0, width };
            let cenv = Env {
                target,
                settings,
                imms: imms.iter().map(|v| (v.clone(), zero(64))).collect(),
                lds_size: zero(32),
                lane_id: zero(32),
            };
            let exec_keys = match mode {
                None => vec![],
                Some(_) if wave_size(target) == 64 => vec![RegKey::exec_lo(), RegKey::exec_hi()],
                Some(_) => vec![RegKey::exec_lo()],
            };
            let cm = Machine {
                regs: keys
                    .iter()
                    .chain(&exec_keys)
                    .map(|k| (k.clone(), zero(32)))
                    .collect(),
                mem: MemState {
                    lds: CMem::new(|_| 0),
                    gds: CMem::new(|_| 0),
                    global: CMem::new_wide(|_| 0),
                    ub: false,
                },
            };
            let mut cd = Concrete;
            let vars = pre_vars(&mut cd, &cenv, &cm, &keys);
            let frame = Frame {
                settings,
                gds: false,
                aliases: &[],
                buffer: None,
            };
            if let Err(err) = eval_expr(&mut cd, &frame, &e, None, vars, cm.mem.clone()) {
                let mut loc = p.loc;
                if let Some(c) = err
                    .msg
                    .split('`')
                    .nth(1)
                    .and_then(|name| word_pos(&p.text, name))
                {
                    loc.col += c as u32;
                }
                let hint = if mode.is_none() && err.msg.contains("`EXEC`") {
                    " (EXEC exists only under `Lanes: N` or --lanes N)"
                } else {
                    ""
                };
                return Err(rule.error(loc, format!("bad precondition: {}{hint}", err.msg)));
            }
            Some(e)
        }
    };
    let lanes = match mode {
        None => {
            if let Some(w) = src
                .iter()
                .chain(&tgt)
                .find(|b| b.writes().iter().any(|k| k.base == "exec"))
            {
                return Err(rule.error(
                    w.loc,
                    "this instruction writes EXEC, which a single-lane check does not model: \
                     give the rule `Lanes: N` or run with --lanes N",
                ));
            }
            if let Some(c) = src
                .iter()
                .chain(&tgt)
                .find(|b| matches!(b.op, crate::machine::Op::Cross { .. }))
            {
                let crate::machine::Op::Cross { mnemonic, .. } = &c.op else {
                    unreachable!()
                };
                return Err(rule.error(
                    c.loc,
                    format!(
                        "{mnemonic} is a cross-lane instruction: give the rule `Lanes: N` or run \
                         with --lanes N"
                    ),
                ));
            }
            None
        }
        Some(m) => {
            let e = crate::lanes::expand(&src, &tgt, &keys, &dead, m, wave_size(target))
                .map_err(|msg| rule.error(rule.lanes.map(|(_, l)| l).unwrap_or(rule.loc), msg))?;
            Some((m, e))
        }
    };
    Ok(Bound2 {
        src,
        tgt,
        settings,
        keys,
        imms,
        dead,
        pre,
        lanes,
    })
}

/// The lanes a rule is checked with: `--lanes`, else the rule's `Lanes:` (its order replaced by
/// `--lane-order` if given); `None` for a single-lane check.
pub fn lane_mode(rule: &Rule, opts: &Options) -> Option<crate::lanes::LaneMode> {
    opts.lanes
        .or(rule.lanes.map(|(m, _)| crate::lanes::LaneMode {
            order: opts.lane_order.unwrap_or(m.order),
            ..m
        }))
}

/// The byte offset of `word` in `text` where it is not part of a longer name.
fn word_pos(text: &str, word: &str) -> Option<usize> {
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        !word.is_empty()
            && !text[i + word.len()..].starts_with(name_char)
            && (word.starts_with('%') || !text[..i].ends_with(|c: char| name_char(c) || c == '%'))
    })
}

/// The settings a rule runs under on `target`: the target's defaults, then the rule's
/// `Settings:`, then the command line's `--set`.
///
/// Errors: a setting the target does not have, at the rule's setting (or `Name:`) line.
pub fn settings_for(rule: &Rule, target: Target, opts: &Options) -> Result<Settings, InputError> {
    let mut settings = Settings::default_for(target);
    for (n, v, loc) in &rule.settings {
        settings
            .set(target, n, v)
            .map_err(|m| rule.error(*loc, m))?;
    }
    for (n, v) in &opts.settings {
        settings
            .set(target, n, v)
            .map_err(|m| rule.error(rule.loc, format!("--set {n}={v}: {m}")))?;
    }
    Ok(settings)
}

/// Variables a precondition can name: immediates (64-bit), register variables (their initial
/// value, 32 bits per dword), M0, LDS_SIZE and LANE_ID.
fn pre_vars<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    keys: &BTreeSet<RegKey>,
) -> BTreeMap<String, Val<D>> {
    let mut vars: BTreeMap<String, Val<D>> = env
        .imms
        .iter()
        .map(|(k, v)| (format!("%{k}"), Val::Bits(v.clone(), Ty::Bits(Kind::U, 64))))
        .collect();
    let mut by_var: BTreeMap<String, Vec<RegKey>> = BTreeMap::new();
    for k in keys.iter().filter(|k| k.is_var()) {
        by_var.entry(k.base.clone()).or_default().push(k.clone());
    }
    for (name, ks) in by_var {
        let mut acc: Option<D::Bv> = None;
        for k in &ks {
            let r = m.regs[k].clone();
            acc = Some(match acc {
                None => r,
                Some(lo) => d.concat(&r, &lo),
            });
        }
        let v = acc.expect("non-empty");
        let w = d.width(&v);
        vars.insert(name, Val::Bits(v, Ty::Bits(Kind::U, w)));
    }
    vars.insert(
        "M0".into(),
        Val::Bits(m.regs[&RegKey::m0()].clone(), Ty::U32),
    );
    vars.insert("LDS_SIZE".into(), Val::Bits(env.lds_size.clone(), Ty::U32));
    vars.insert("LANE_ID".into(), Val::Bits(env.lane_id.clone(), Ty::U32));
    // Under --lanes, EXEC is an input the precondition may constrain (64 bits on wave64
    // targets, 32 on wave32).
    if let Some(lo) = m.regs.get(&RegKey::exec_lo()) {
        let e = match m.regs.get(&RegKey::exec_hi()) {
            Some(hi) => d.concat(hi, lo),
            None => lo.clone(),
        };
        let w = d.width(&e);
        vars.insert("EXEC".into(), Val::Bits(e, Ty::Bits(Kind::U, w)));
    }
    vars
}

/// Field validity of a program: every immediate field within its range.
fn fields_ok<D: Domain>(
    d: &mut D,
    env: &Env<D>,
    m: &Machine<D>,
    prog: &[Bound],
) -> Result<D::Bool, String> {
    let mut ok = d.boolean(true);
    for b in prog {
        for f in &b.fields {
            let v = crate::machine::eval_imm(d, env, m, &f.expr)?;
            let max = d.bv(f.max as u128, 64);
            let c = d.cmp(gcnsmt_semantics::domain::CmpOp::Ule, &v, &max);
            ok = d.and(&ok, &c);
        }
    }
    Ok(ok)
}

/// Check one rule on one target.
///
/// Errors: input errors in the rule for this target (the verdict is then not computed).
pub fn check(rule: &Rule, target: Target, opts: &Options) -> Result<Outcome, InputError> {
    let start = Instant::now();
    let b = elaborate(rule, target, opts)?;
    let (verdict, note) = decide(rule, target, &b, opts);
    Ok(Outcome {
        rule: rule.name.clone(),
        file: rule.file.clone(),
        target,
        settings: b.settings,
        verdict,
        expect: rule.expect.map(|e| e.0),
        time: start.elapsed(),
        note,
        buffer: uses_buffer(rule),
        lanes: lane_mode(rule, opts),
    })
}

fn reg_name(k: &RegKey) -> String {
    k.to_string().replace(['[', ']'], "_")
}

/// Whether two programs are the same instructions on the same registers, with immediates equal
/// after egg normalisation. Then the target trivially refines the source.
fn identical(src: &[Bound], tgt: &[Bound]) -> bool {
    use crate::machine::{Op, Src};
    use crate::normalize::same_imm;
    let same_opt = |a: &Option<gcnsmt_semantics::ir::Expr>,
                    b: &Option<gcnsmt_semantics::ir::Expr>| match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => same_imm(x, y),
        _ => false,
    };
    src.len() == tgt.len()
        && src.iter().zip(tgt).all(|(x, y)| match (&x.op, &y.op) {
            (
                Op::Ds {
                    mnemonic: m1,
                    vdst: v1,
                    addr: a1,
                    data0: d1,
                    data1: e1,
                    offset: o1,
                    offset0: p1,
                    offset1: q1,
                    gds: g1,
                    ..
                },
                Op::Ds {
                    mnemonic: m2,
                    vdst: v2,
                    addr: a2,
                    data0: d2,
                    data1: e2,
                    offset: o2,
                    offset0: p2,
                    offset1: q2,
                    gds: g2,
                    ..
                },
            ) => {
                m1 == m2
                    && v1 == v2
                    && a1 == a2
                    && d1 == d2
                    && e1 == e2
                    && g1 == g2
                    && same_opt(o1, o2)
                    && same_opt(p1, p2)
                    && same_opt(q1, q2)
            }
            (
                Op::Alu {
                    mnemonic: m1,
                    d0: x1,
                    sdst: s1,
                    srcs: r1,
                    ..
                },
                Op::Alu {
                    mnemonic: m2,
                    d0: x2,
                    sdst: s2,
                    srcs: r2,
                    ..
                },
            ) => {
                m1 == m2
                    && x1 == x2
                    && s1 == s2
                    && r1.len() == r2.len()
                    && r1.iter().zip(r2).all(|(a, b)| match (a, b) {
                        (Src::Reg(p), Src::Reg(q)) => p == q,
                        (Src::Imm(p), Src::Imm(q)) => same_imm(p, q),
                        _ => false,
                    })
            }
            _ => false,
        })
}

fn decide(
    rule: &Rule,
    target: Target,
    b: &Bound2,
    opts: &Options,
) -> (Verdict, Option<&'static str>) {
    let mut note = None;
    let v = decide_solver(rule, target, b, opts, &mut note);
    (v, note)
}

/// The verdict note of a rule proved by [`crate::egg_domain::egg_proves`].
pub const EGG_NOTE: &str = "proved by egg e-graph rewriting (rules: bv-identity, address, \
extract-concat, ite, memory), no refinement query";

fn egg_proves(b: &Bound2, target: Target) -> Result<bool, String> {
    let r = crate::egg_domain::EggRule {
        target,
        settings: b.settings,
        keys: &b.keys,
        dead: &b.dead,
        imms: &b.imms,
        src: &b.src,
        tgt: &b.tgt,
    };
    crate::egg_domain::egg_proves(&r, fields_ok)
}

fn decide_solver(
    rule: &Rule,
    target: Target,
    b: &Bound2,
    opts: &Options,
    note: &mut Option<&'static str>,
) -> Verdict {
    let mut d = Smt;
    let sides = Sides::of(b);
    let mut regs = BTreeMap::new();
    for k in sides.keys {
        regs.insert(k.clone(), d.var(&reg_name(k), 32));
    }
    let imms: BTreeMap<String, crate::smt::Term> = b
        .imms
        .iter()
        .map(|v| (v.clone(), d.var(&format!("%{v}"), 64)))
        .collect();
    let env: Env<Smt> = Env {
        target,
        settings: b.settings,
        imms,
        lds_size: d.var("LDS_SIZE", 32),
        lane_id: d.var("LANE_ID", 32),
    };
    let lds0 = d.mem("LDS");
    let gds0 = d.mem("GDS");
    let glob0 = d.mem_wide("MEM", 64);
    let f = d.boolean(false);
    let m0: Machine<Smt> = Machine {
        regs,
        mem: MemState {
            lds: lds0.clone(),
            gds: gds0.clone(),
            global: glob0.clone(),
            ub: f,
        },
    };
    let mems = Mems {
        lds: &lds0,
        gds: &gds0,
        global: &glob0,
    };

    let mut assumptions = Vec::new();
    for v in env.imms.values() {
        assumptions.push(build::ule_const(v, 0xffff_ffff));
    }
    assumptions.push(build::ule_const(
        &env.lane_id,
        wave_size(target) as u128 - 1,
    ));
    // Under --lanes N: N lanes of the wave with symbolic, increasing lane ids, and EXEC has no
    // bit outside them -- so the claim covers every wave with at most N active lanes, wherever
    // they are (the other lanes are inactive; a cross-lane read from one gives 0).
    if let Some((mode, _)) = &b.lanes {
        use gcnsmt_semantics::domain::{BvOp, CmpOp};
        let wave = wave_size(target);
        let mut present = d.bv(0, 64);
        let one = d.bv(1, 64);
        for j in 0..mode.lanes {
            let id: crate::smt::Term = m0.regs[&RegKey::lane_id(j)].clone();
            assumptions.push(build::ule_const(&id, wave as u128 - 1));
            if j > 0 {
                let prev: crate::smt::Term = m0.regs[&RegKey::lane_id(j - 1)].clone();
                assumptions.push(d.cmp(CmpOp::Ult, &prev, &id));
            }
            let sh = d.zext(&id, 32);
            let bit = d.op(BvOp::Shl, &one, &sh);
            present = d.op(BvOp::Or, &present, &bit);
        }
        let exec = crate::machine::read(&mut d, &m0, &[RegKey::exec_lo(), RegKey::exec_hi()]);
        let absent = d.not(&present);
        let stray = d.op(BvOp::And, &exec, &absent);
        let zero = d.bv(0, 64);
        assumptions.push(d.cmp(CmpOp::Eq, &stray, &zero));
    }
    if b.settings.lds_limit == LdsLimit::Alloc {
        assumptions.push(build::ule_const(
            &env.lds_size,
            target.max_lds_bytes() as u128,
        ));
    }
    if let Some(p) = &b.pre {
        let frame = Frame {
            settings: b.settings,
            gds: false,
            aliases: &[],
            buffer: None,
        };
        // Under --lanes, the precondition holds in every lane, with that lane's registers.
        let views: Vec<(Env<Smt>, Machine<Smt>, BTreeSet<RegKey>)> = match &b.lanes {
            None => {
                let lane: crate::smt::Term = env.lane_id.clone();
                vec![(env.clone_with_lane(lane), m0.clone(), b.keys.clone())]
            }
            Some((mode, e)) => (0..mode.lanes)
                .map(|l| {
                    let view = crate::lanes::lane_view(&e.keys, l);
                    let m = Machine {
                        regs: view
                            .iter()
                            .map(|(name, key)| (name.clone(), m0.regs[key].clone()))
                            .collect(),
                        mem: m0.mem.clone(),
                    };
                    let ks = view.into_iter().map(|(name, _)| name).collect();
                    (
                        env.clone_with_lane(m0.regs[&RegKey::lane_id(l)].clone()),
                        m,
                        ks,
                    )
                })
                .collect(),
        };
        for (env_l, m_l, keys_l) in &views {
            let vars = pre_vars(&mut d, env_l, m_l, keys_l);
            match eval_expr(&mut d, &frame, p, None, vars, m0.mem.clone()) {
                Ok(v) => assumptions.push(gcnsmt_semantics::eval::truth(&mut d, v)),
                Err(e) => return Verdict::Error(format!("precondition: {}", e.msg)),
            }
        }
    }
    let src_fields = match fields_ok(&mut d, &env, &m0, &b.src) {
        Ok(x) => x,
        Err(e) => return Verdict::Error(e),
    };
    assumptions.push(src_fields);
    // One final state per source serialization (one without --lanes); the source must be
    // defined in every one.
    let mut src_states = Vec::new();
    for prog in &sides.src {
        let mut ms = m0.clone();
        if let Err(e) = exec(&mut d, &env, &mut ms, prog) {
            return Verdict::Error(e);
        }
        assumptions.push(build::not(&ms.mem.ub));
        src_states.push(ms);
    }

    let mut q = Query::new(opts.timeout);
    q.set_memory(opts.memory_mb);
    for a in &assumptions {
        q.assert(a);
    }
    let answer = q.check();
    if let Err(e) = cross_check(rule, target, opts, QueryKind::Pre, &q, &answer) {
        return Verdict::Error(e);
    }
    match answer {
        Answer::Unsat => return Verdict::Inapplicable,
        Answer::Unknown(r) => return Verdict::Unknown(format!("deciding the precondition: {r}")),
        Answer::Sat(_) => {}
    }
    // Only after the precondition is known satisfiable: an identical rule with a contradictory
    // precondition is inapplicable, not proved.
    if opts.egg && identical(&b.src, &b.tgt) {
        *note = Some(
            "both sides are identical after egg normalisation of immediates; no refinement query",
        );
        return Verdict::Proved;
    }
    if opts.egg && b.lanes.is_none() {
        match egg_proves(b, target) {
            Ok(true) => {
                *note = Some(EGG_NOTE);
                return Verdict::Proved;
            }
            Ok(false) => {}
            // The solver path evaluates the same semantics and reports a real failure itself.
            Err(e) => tracing::debug!(rule = %rule.name, %target, "egg pass: {e}"),
        }
    }

    let tgt_fields = match fields_ok(&mut d, &env, &m0, &b.tgt) {
        Ok(x) => x,
        Err(e) => return Verdict::Error(e),
    };
    // Differences are witnessed at one address per memory; with several source serializations
    // each needs its own witness (every source order must differ somewhere).
    let witnesses: Vec<[crate::smt::Term; 3]> = (0..sides.src.len())
        .map(|i| {
            let sfx = if i == 0 {
                String::new()
            } else {
                format!("!s{i}")
            };
            [
                d.var(&format!("k!lds{sfx}"), 32),
                d.var(&format!("k!gds{sfx}"), 32),
                d.var(&format!("k!mem{sfx}"), 64),
            ]
        })
        .collect();
    let mut per_target = Vec::new();
    let mut against_ascending = Vec::new();
    for prog in &sides.tgt {
        let mut mt = m0.clone();
        if let Err(e) = exec(&mut d, &env, &mut mt, prog) {
            return Verdict::Error(e);
        }
        let mut bad = vec![build::not(&tgt_fields), mt.mem.ub.clone()];
        let mut every_src = Vec::new();
        for (ms, [k, kg, km]) in src_states.iter().zip(&witnesses) {
            let mut diff = Vec::new();
            for key in sides.keys.iter().filter(|k| !sides.dead.contains(k)) {
                diff.push(build::ne(&ms.regs[key], &mt.regs[key]));
            }
            diff.push(build::ne(
                &build::select(&ms.mem.lds, k),
                &build::select(&mt.mem.lds, k),
            ));
            diff.push(build::ne(
                &build::select(&ms.mem.gds, kg),
                &build::select(&mt.mem.gds, kg),
            ));
            diff.push(build::ne(
                &build::select(&ms.mem.global, km),
                &build::select(&mt.mem.global, km),
            ));
            every_src.push(diff);
        }
        if every_src.len() == 1 {
            bad.extend(every_src.pop().expect("one"));
        } else {
            let mut first = bad.clone();
            first.extend(every_src[0].iter().cloned());
            against_ascending.push(build::or(&first));
            let ors: Vec<_> = every_src.iter().map(|x| build::or(x)).collect();
            bad.push(build::and(&ors));
        }
        per_target.push(build::or(&bad));
    }
    // Several source serializations: first the cheap sufficient question, whether every target
    // serialization equals the ascending source one (true of commuting atomics, where the
    // full query, a disjunction over source orders, is hard for the solver).
    if !against_ascending.is_empty() {
        q.push();
        q.assert(&build::or(&against_ascending));
        let answer = q.check();
        if let Err(e) = cross_check(rule, target, opts, QueryKind::RefineAscending, &q, &answer) {
            return Verdict::Error(e);
        }
        q.pop();
        if matches!(answer, Answer::Unsat) {
            *note = Some("every target serialization of the lanes equals the ascending source one");
            return Verdict::Proved;
        }
    }
    q.assert(&if per_target.len() == 1 {
        per_target.pop().expect("one")
    } else {
        build::or(&per_target)
    });
    tracing::debug!(rule = %rule.name, %target, "refinement query:\n{}", q.to_smt2());
    let answer = q.check();
    if let Err(e) = cross_check(rule, target, opts, QueryKind::Refine, &q, &answer) {
        return Verdict::Error(e);
    }
    match answer {
        Answer::Unsat => Verdict::Proved,
        Answer::Unknown(r) => Verdict::Unknown(r),
        Answer::Sat(model) => {
            // Shrinking is best effort with short limits of its own (see `crate::shrink`).
            let budget = crate::shrink::Budget::after(q.last_check_time(), opts.timeout);
            let inputs = crate::shrink::inputs(&env, &m0);
            let (model, stats) = crate::shrink::minimize(&mut q, model, &inputs, &budget, |m| {
                inputs_valid(m, b, &env, &m0)
                    && replay_sides(m, b, &sides, &env, &m0, &mems, target).is_ok()
            });
            tracing::debug!(rule = %rule.name, %target, ?stats, "counterexample shrunk");
            // The solver's model must meet the precondition on the interpreter too; `replay`
            // checks the rest.
            if !inputs_valid(&model, b, &env, &m0) {
                return Verdict::Error(
                    "counterexample replay mismatch (internal error, please report): the \
                     inputs break the precondition or the input ranges on the interpreter"
                        .into(),
                );
            }
            match replay_sides(&model, b, &sides, &env, &m0, &mems, target) {
                Ok(cex) => {
                    // Readable memory: every byte read equal to its address's low byte
                    // (00 01 02 ...), keeping the solver's bytes if that loses the difference.
                    let bytes: Vec<(&crate::smt::Mem, u64, u8)> = (cex.lds.iter())
                        .map(|(a, v)| (&lds0, *a as u64, *v))
                        .chain(cex.gds.iter().map(|(a, v)| (&gds0, *a as u64, *v)))
                        .chain(cex.global.iter().map(|(a, v)| (&glob0, *a, *v)))
                        .collect();
                    let nicer = crate::shrink::readable_bytes(&model, &bytes, |m| {
                        replay_sides(m, b, &sides, &env, &m0, &mems, target).ok()
                    });
                    Verdict::Refuted(Box::new(nicer.unwrap_or(cex)))
                }
                Err(e) => Verdict::Error(format!(
                    "counterexample replay mismatch (internal error, please report): {e}"
                )),
            }
        }
    }
}

/// Hand one decided query to `--emit-smt2` / `--cross-check` (nothing happens without them).
fn cross_check(
    rule: &Rule,
    target: Target,
    opts: &Options,
    kind: QueryKind,
    q: &Query,
    answer: &Answer,
) -> Result<(), String> {
    let z3 = match answer {
        Answer::Sat(_) => Sat::Sat,
        Answer::Unsat => Sat::Unsat,
        Answer::Unknown(_) => Sat::Unknown,
    };
    crate::crosscheck::after_query(
        &opts.hooks,
        &rule.name,
        target,
        kind,
        || q.to_smt2(),
        z3,
        opts.timeout,
        opts.memory_mb,
    )
}

/// Whether the values `model` gives the inputs meet what the solver run assumes of them, on
/// the concrete interpreter: immediates below 2^32, LANE_ID below the wave size, LDS_SIZE at
/// most the target's LDS (under `lds_limit=ALLOC`), and the precondition. (The source's
/// encodability and definedness are [`replay`]'s to check.) A precondition that reads memory
/// counts as not met.
fn inputs_valid(model: &Model, b: &Bound2, env: &Env<Smt>, m0: &Machine<Smt>) -> bool {
    use gcnsmt_semantics::interp::Bits;
    let target = env.target;
    let imms: BTreeMap<String, Bits> = env
        .imms
        .iter()
        .map(|(k, t)| {
            let value = model.bv(t);
            (k.clone(), Bits { value, width: 64 })
        })
        .collect();
    let lane = model.bv(&env.lane_id);
    let lds_size = model.bv(&env.lds_size);
    if imms.values().any(|x| x.value > 0xffff_ffff)
        || lane >= wave_size(target) as u128
        || (b.settings.lds_limit == LdsLimit::Alloc && lds_size > target.max_lds_bytes() as u128)
    {
        return false;
    }
    if let Some((mode, _)) = &b.lanes {
        // The lane assumptions of the query: increasing ids below the wave size, no EXEC bit
        // outside them.
        let id = |j: u32| model.bv(&m0.regs[&RegKey::lane_id(j)]);
        let mut present = 0u128;
        for j in 0..mode.lanes {
            if id(j) >= wave_size(target) as u128 || (j > 0 && id(j - 1) >= id(j)) {
                return false;
            }
            present |= 1 << id(j);
        }
        let lo = model.bv(&m0.regs[&RegKey::exec_lo()]);
        let hi = m0.regs.get(&RegKey::exec_hi()).map_or(0, |t| model.bv(t));
        if (hi << 32 | lo) & !present != 0 {
            return false;
        }
    }
    let Some(p) = &b.pre else {
        return true;
    };
    let cenv = Env {
        target,
        settings: b.settings,
        imms,
        lds_size: Bits {
            value: lds_size,
            width: 32,
        },
        lane_id: Bits {
            value: lane,
            width: 32,
        },
    };
    let read = Rc::new(std::cell::Cell::new(false));
    let mem = || {
        let read = read.clone();
        CMem::new_wide(move |_| {
            read.set(true);
            0
        })
    };
    let cm = Machine {
        regs: m0
            .regs
            .iter()
            .map(|(k, t)| {
                let value = model.bv(t);
                (k.clone(), Bits { value, width: 32 })
            })
            .collect(),
        mem: MemState {
            lds: mem(),
            gds: mem(),
            global: mem(),
            ub: false,
        },
    };
    let mut d = Concrete;
    let frame = Frame {
        settings: b.settings,
        gds: false,
        aliases: &[],
        buffer: None,
    };
    // As in the query: the precondition in every lane under --lanes, with that lane's view.
    let views: Vec<(Env<Concrete>, Machine<Concrete>, BTreeSet<RegKey>)> = match &b.lanes {
        None => vec![(cenv, cm.clone(), b.keys.clone())],
        Some((mode, e)) => (0..mode.lanes)
            .map(|l| {
                let view = crate::lanes::lane_view(&e.keys, l);
                let m = Machine {
                    regs: view
                        .iter()
                        .map(|(name, key)| (name.clone(), cm.regs[key]))
                        .collect(),
                    mem: cm.mem.clone(),
                };
                let ks = view.into_iter().map(|(name, _)| name).collect();
                (cenv.clone_with_lane(cm.regs[&RegKey::lane_id(l)]), m, ks)
            })
            .collect(),
    };
    for (env_l, m_l, keys_l) in &views {
        let vars = pre_vars(&mut d, env_l, m_l, keys_l);
        let holds = match eval_expr(&mut d, &frame, p, None, vars, cm.mem.clone()) {
            Ok(v) => gcnsmt_semantics::eval::truth(&mut d, v) && !read.get(),
            Err(_) => false,
        };
        if !holds {
            return false;
        }
    }
    true
}

/// The initial memories of a solver run.
struct Mems<'a> {
    lds: &'a crate::smt::Mem,
    gds: &'a crate::smt::Mem,
    global: &'a crate::smt::Mem,
}

struct Side {
    m: Machine<Concrete>,
    fields_ok: bool,
    steps: Vec<Step>,
}

/// One instruction of a replayed counterexample: its text and the values it produced (each
/// register it writes, and how many memory bytes it changed, by space).
#[derive(Clone, Debug)]
pub struct Step {
    pub text: String,
    pub writes: Vec<(String, u32)>,
    pub mem_writes: Vec<(&'static str, usize)>,
}

/// The programs and registers a solver run compares: the rule's two sides, or under
/// `--lanes` every serialization of each side and the per-lane registers.
struct Sides<'a> {
    src: Vec<&'a [Bound]>,
    tgt: Vec<&'a [Bound]>,
    keys: &'a BTreeSet<RegKey>,
    dead: &'a BTreeSet<RegKey>,
}

impl<'a> Sides<'a> {
    fn of(b: &'a Bound2) -> Sides<'a> {
        match &b.lanes {
            None => Sides {
                src: vec![&b.src],
                tgt: vec![&b.tgt],
                keys: &b.keys,
                dead: &b.dead,
            },
            Some((_, e)) => Sides {
                src: e.src.iter().map(|v| &v.prog[..]).collect(),
                tgt: e.tgt.iter().map(|v| &v.prog[..]).collect(),
                keys: &e.keys,
                dead: &e.dead,
            },
        }
    }
}

/// Replay a model: without lanes, the one pair of programs; under `--lanes`, find a target
/// serialization on which every source serialization differs (what the query asked for) and
/// report the ascending source run beside it.
fn replay_sides(
    model: &Model,
    b: &Bound2,
    sides: &Sides,
    env: &Env<Smt>,
    m0: &Machine<Smt>,
    mems: &Mems,
    target: Target,
) -> Result<Cex, String> {
    let Some((mode, e)) = &b.lanes else {
        return replay(
            model,
            b,
            sides.src[0],
            sides.tgt[0],
            sides,
            env,
            m0,
            mems,
            target,
        );
    };
    let mut last = String::new();
    for (ti, t) in sides.tgt.iter().enumerate() {
        let mut first: Option<Cex> = None;
        let mut all = true;
        for s in &sides.src {
            match replay(model, b, s, t, sides, env, m0, mems, target) {
                Ok(c) => {
                    first.get_or_insert(c);
                }
                Err(err) => {
                    last = err;
                    all = false;
                    break;
                }
            }
        }
        if all {
            let mut c = first.expect("at least one source serialization");
            let order = e.tgt[ti].describe();
            c.lanes = Some(if sides.src.len() == 1 && sides.tgt.len() == 1 {
                mode.describe()
            } else {
                format!(
                    "{}; target serialization: {}; all {} source serialization(s) differ (shown: \
                 ascending)",
                    mode.describe(),
                    if order.is_empty() {
                        "ascending".to_string()
                    } else {
                        order
                    },
                    sides.src.len()
                )
            });
            return Ok(c);
        }
    }
    Err(format!(
        "no target serialization differs from every source serialization ({last})"
    ))
}

#[allow(clippy::too_many_arguments)]
fn replay(
    model: &Model,
    b: &Bound2,
    src: &[Bound],
    tgt: &[Bound],
    sd: &Sides,
    env: &Env<Smt>,
    m0: &Machine<Smt>,
    mems: &Mems,
    target: Target,
) -> Result<Cex, String> {
    let mut inputs = Vec::new();
    let imms: BTreeMap<String, gcnsmt_semantics::interp::Bits> = env
        .imms
        .iter()
        .map(|(k, v)| {
            let x = model.bv(v);
            inputs.push((format!("%{k}"), x, 32)); // immediates are below 2^32
            (
                k.clone(),
                gcnsmt_semantics::interp::Bits {
                    value: x,
                    width: 64,
                },
            )
        })
        .collect();
    let mut regs = BTreeMap::new();
    for (k, v) in &m0.regs {
        let x = model.bv(v);
        inputs.push((k.to_string(), x, 32));
        regs.insert(
            k.clone(),
            gcnsmt_semantics::interp::Bits {
                value: x,
                width: 32,
            },
        );
    }
    let lds_size = model.bv(&env.lds_size);
    let lane = model.bv(&env.lane_id);
    if b.settings.lds_limit == LdsLimit::Alloc {
        inputs.push(("LDS_SIZE".into(), lds_size, 32));
    }
    if b.lanes.is_none() {
        inputs.push(("LANE_ID".into(), lane, 32));
    }
    let cenv = Env {
        target,
        settings: b.settings,
        imms,
        lds_size: gcnsmt_semantics::interp::Bits {
            value: lds_size,
            width: 32,
        },
        lane_id: gcnsmt_semantics::interp::Bits {
            value: lane,
            width: 32,
        },
    };
    // Initial memory comes from the model, byte by byte, as the interpreter asks for it.
    // LDS, GDS, global memory.
    let spaces = [mems.lds, mems.gds, mems.global];
    let seen: [Rc<RefCell<BTreeMap<u64, u8>>>; 3] = Default::default();
    // The interpreter's memory function is 'static, so it cannot query the model: run,
    // note the addresses it asked for that were not fetched yet, fetch them, and run again.
    let fetch = |arr: &crate::smt::Mem, addrs: &BTreeSet<u64>| -> BTreeMap<u64, u8> {
        addrs.iter().map(|a| (*a, model.byte(arr, *a))).collect()
    };
    let mut need: [BTreeSet<u64>; 3] = Default::default();
    let mut sides: Option<(Side, Side)> = None;
    for _round in 0..8 {
        let missing: [Rc<RefCell<BTreeSet<u64>>>; 3] = Default::default();
        let mut cm: Vec<CMem> = Vec::new();
        for i in 0..3 {
            let known = fetch(spaces[i], &need[i]);
            *seen[i].borrow_mut() = known.clone();
            let miss = missing[i].clone();
            cm.push(CMem::new_wide(move |a| {
                known.get(&a).copied().unwrap_or_else(|| {
                    miss.borrow_mut().insert(a);
                    0
                })
            }));
        }
        let global = cm.pop().expect("three spaces");
        let gds = cm.pop().expect("three spaces");
        let lds = cm.pop().expect("three spaces");
        let start = Machine {
            regs: regs.clone(),
            mem: MemState {
                lds,
                gds,
                global,
                ub: false,
            },
        };
        let mut d = Concrete;
        let run_side = |d: &mut Concrete, prog: &[Bound]| -> Result<Side, String> {
            let mut m = start.clone();
            let ok = fields_ok(d, &cenv, &m, prog)?;
            let mut steps = Vec::new();
            for i in prog {
                let before = m.mem.clone();
                // A lane whose EXEC bit is clear runs nothing: say so in the trace.
                let inactive = match &i.op {
                    crate::machine::Op::Lane { lane, .. } => {
                        let id = m.regs[&RegKey::lane_id(*lane)].value;
                        let lo = m.regs[&RegKey::exec_lo()].value;
                        let hi = m.regs.get(&RegKey::exec_hi()).map_or(0, |b| b.value);
                        (hi << 32 | lo) >> id & 1 == 0
                    }
                    _ => false,
                };
                crate::machine::step(d, &cenv, &mut m, i)?;
                let writes = if inactive {
                    Vec::new()
                } else {
                    i.writes()
                        .iter()
                        .map(|k| (k.to_string(), m.regs[k].value as u32))
                        .collect()
                };
                let mut mem_writes = Vec::new();
                for (space, old, new) in [
                    ("LDS", &before.lds, &m.mem.lds),
                    ("GDS", &before.gds, &m.mem.gds),
                    ("MEM", &before.global, &m.mem.global),
                ] {
                    let n = new
                        .written
                        .iter()
                        .filter(|(a, v)| old.get64(**a) != **v)
                        .count();
                    if n > 0 {
                        mem_writes.push((space, n));
                    }
                }
                steps.push(Step {
                    text: if inactive {
                        format!("{} (inactive)", i.text)
                    } else {
                        i.text.clone()
                    },
                    writes,
                    mem_writes,
                });
            }
            Ok(Side {
                m,
                fields_ok: ok,
                steps,
            })
        };
        let s = run_side(&mut d, src)?;
        let t = run_side(&mut d, tgt)?;
        let mut more: [BTreeSet<u64>; 3] = Default::default();
        // Bytes stored by one side only are compared with the other side's initial byte, which
        // the interpreter never read: fetch those too.
        for (i, (ms, mt)) in [
            (&s.m.mem.lds, &t.m.mem.lds),
            (&s.m.mem.gds, &t.m.mem.gds),
            (&s.m.mem.global, &t.m.mem.global),
        ]
        .into_iter()
        .enumerate()
        {
            more[i] = missing[i].borrow().clone();
            for m in [ms, mt] {
                more[i].extend(m.written.keys().filter(|a| !need[i].contains(a)));
            }
        }
        if more.iter().all(|x| x.is_empty()) {
            sides = Some((s, t));
            break;
        }
        for i in 0..3 {
            need[i].extend(more[i].iter().copied());
        }
    }
    let Some((s, t)) = sides else {
        return Err("memory reads did not settle".into());
    };
    if !s.fields_ok || s.m.mem.ub {
        return Err("the source is not valid on the replayed inputs".into());
    }
    let mut regs_out = Vec::new();
    let mut first = None;
    if !t.fields_ok {
        let mut d = Concrete;
        let start = Machine {
            regs: regs.clone(),
            mem: MemState {
                lds: CMem::new(|_| 0),
                gds: CMem::new(|_| 0),
                global: CMem::new_wide(|_| 0),
                ub: false,
            },
        };
        let bad = tgt
            .iter()
            .flat_map(|i| i.fields.iter().map(move |f| (i, f)))
            .find_map(|(i, f)| {
                let v = crate::machine::eval_imm(&mut d, &cenv, &start, &f.expr)
                    .ok()?
                    .value;
                (v > f.max as u128).then(|| {
                    format!(
                        "the target cannot be encoded: {}:{} = {v} does not fit 0..={} (line {})",
                        f.name,
                        gcnsmt_semantics::print::expr_to_string(&f.expr),
                        f.max,
                        i.loc.line
                    )
                })
            });
        first = Some(bad.unwrap_or_else(|| {
            "the target has an immediate out of range (it cannot be encoded)".to_string()
        }));
    } else if t.m.mem.ub {
        first = Some("the target is undefined where the source is defined".to_string());
    }
    for k in sd.keys.iter() {
        let (x, y) = (s.m.regs[k].value as u32, t.m.regs[k].value as u32);
        let written = src.iter().chain(tgt).any(|i| i.writes().contains(k));
        if written || x != y {
            regs_out.push((k.to_string(), x, y));
        }
        if x != y && !sd.dead.contains(k) && first.is_none() {
            first = Some(k.to_string());
        }
    }
    let mut mem_diffs = Vec::new();
    for (space, ms, mt) in [
        ("LDS", &s.m.mem.lds, &t.m.mem.lds),
        ("GDS", &s.m.mem.gds, &t.m.mem.gds),
        ("MEM", &s.m.mem.global, &t.m.mem.global),
    ] {
        let addrs: BTreeSet<u64> = ms
            .written
            .keys()
            .chain(mt.written.keys())
            .copied()
            .collect();
        for a in addrs {
            let (x, y) = (ms.get64(a), mt.get64(a));
            if x != y {
                mem_diffs.push((space, a, x, y));
                if first.is_none() {
                    first = Some(format!("{space}[0x{a:x}]"));
                }
            }
        }
    }
    let Some(first_difference) = first else {
        return Err("the concrete run shows no difference".into());
    };
    let lds = seen[0]
        .borrow()
        .iter()
        .map(|(a, v)| (*a as u32, *v))
        .collect();
    let gds = seen[1]
        .borrow()
        .iter()
        .map(|(a, v)| (*a as u32, *v))
        .collect();
    let global = seen[2].borrow().iter().map(|(a, v)| (*a, *v)).collect();
    let vsharp = crate::buffer_ops::vsharps(b.src.iter().chain(&b.tgt), &regs, target);
    let steps = (s.steps.clone(), t.steps.clone());
    Ok(Cex {
        inputs,
        lds,
        gds,
        global,
        vsharp,
        steps,
        regs: regs_out,
        mem_diffs,
        first_difference,
        lanes: None,
    })
}

/// Whether the e-graph pass alone shows the target equal to the source on every output
/// (see [`crate::egg_domain::egg_proves`]), without any solver query and without looking at
/// the precondition. For tests that compare the pass with the solver.
///
/// Errors: input errors in the rule for this target; a semantics entry that fails to
/// evaluate is reported as `Ok(false)`.
pub fn egg_only(rule: &Rule, target: Target, opts: &Options) -> Result<bool, InputError> {
    let b = elaborate(rule, target, opts)?;
    // Multi-lane checks never use the pass (it sees one lane).
    if b.lanes.is_some() {
        return Ok(false);
    }
    Ok(egg_proves(&b, target).unwrap_or(false))
}

/// The verdict note of a refutation rebuilt from the result cache by [`replay_stored`].
pub const CACHED_REFUTATION_NOTE: &str =
    "counterexample from the result cache, replayed on the concrete interpreter";

/// Rebuild a refutation from a stored counterexample ([`crate::cache`]): its inputs and memory
/// bytes are replayed on the concrete interpreter, after checking the precondition and the
/// inputs' ranges there too. `None` when the rule does not elaborate on `target`, an input is
/// missing, or the replay shows no difference: the caller then checks the rule afresh. No
/// solver query is run.
pub fn replay_stored(
    rule: &Rule,
    target: Target,
    opts: &Options,
    stored: &crate::cache::StoredCex,
) -> Option<Outcome> {
    let start = Instant::now();
    let b = elaborate(rule, target, opts).ok()?;
    // The same input names as a solver run's (`decide_solver`), so `replay` reads them alike.
    let mut d = Smt;
    let value = |name: &str| stored.inputs.iter().find(|(n, _)| n == name).map(|x| x.1);
    let mut values = Vec::new();
    let mut regs = BTreeMap::new();
    for k in &b.keys {
        let t = d.var(&reg_name(k), 32);
        values.push((t.clone(), value(&k.to_string())?));
        regs.insert(k.clone(), t);
    }
    let mut imms = BTreeMap::new();
    for v in &b.imms {
        let t = d.var(&format!("%{v}"), 64);
        values.push((t.clone(), value(&format!("%{v}"))?));
        imms.insert(v.clone(), t);
    }
    let env: Env<Smt> = Env {
        target,
        settings: b.settings,
        imms,
        lds_size: d.var("LDS_SIZE", 32),
        lane_id: d.var("LANE_ID", 32),
    };
    // LDS_SIZE is printed (and stored) only under lds_limit=ALLOC; otherwise no run reads it.
    values.push((env.lds_size.clone(), value("LDS_SIZE").unwrap_or(0)));
    values.push((env.lane_id.clone(), value("LANE_ID")?));
    let (lds0, gds0, glob0) = (d.mem("LDS"), d.mem("GDS"), d.mem_wide("MEM", 64));
    let bytes: Vec<(&crate::smt::Mem, u64, u8)> = (stored.lds.iter())
        .map(|(a, v)| (&lds0, *a as u64, *v))
        .chain(stored.gds.iter().map(|(a, v)| (&gds0, *a as u64, *v)))
        .chain(stored.global.iter().map(|(a, v)| (&glob0, *a, *v)))
        .collect();
    let model = Model::from_values(&values, &bytes);
    let f = d.boolean(false);
    let m0 = Machine {
        regs,
        mem: MemState {
            lds: lds0.clone(),
            gds: gds0.clone(),
            global: glob0.clone(),
            ub: f,
        },
    };
    let mems = Mems {
        lds: &lds0,
        gds: &gds0,
        global: &glob0,
    };
    if !inputs_valid(&model, &b, &env, &m0) {
        return None;
    }
    let sides = Sides::of(&b);
    let cex = replay_sides(&model, &b, &sides, &env, &m0, &mems, target).ok()?;
    Some(Outcome {
        rule: rule.name.clone(),
        file: rule.file.clone(),
        target,
        settings: b.settings,
        verdict: Verdict::Refuted(Box::new(cex)),
        expect: rule.expect.map(|e| e.0),
        time: start.elapsed(),
        note: Some(CACHED_REFUTATION_NOTE),
        buffer: uses_buffer(rule),
        lanes: lane_mode(rule, opts),
    })
}
