//! Elaboration: a rule and a target become the bound programs a check compares, with their
//! settings, registers, immediates, dead registers, parsed precondition and (under lanes) the
//! expanded per-lane programs. Every input error of a rule on a target is found here, so the
//! query and the replay see only well-formed programs.

use super::inputs::{pre_frame, pre_vars};
use super::masks::MaskNeed;
use super::options::Options;
use crate::lanes::{Expanded, LaneMode};
use crate::machine::{bind, collect_vars, immediate_vars, Bound, Class, Env, Machine, Op, RegKey};
use crate::rules::{InputError, Line, Rule};
use gcnsmt_lifter::lift::wave_size;
use gcnsmt_semantics::eval::{eval_expr, MemState};
use gcnsmt_semantics::interp::{Bits, CMem, Concrete};
use gcnsmt_semantics::ir::Expr;
use gcnsmt_semantics::parse::parse_expr;
use gcnsmt_semantics::settings::Settings;
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// A rule elaborated on one target.
pub(super) struct Elaborated {
    /// The target the source side runs on.
    pub target: Target,
    /// The target the target side runs on (`target` unless the rule is cross-target).
    pub to: Target,
    /// The target side's settings (`settings` unless the rule is cross-target).
    pub to_settings: Settings,
    pub src: Vec<Bound>,
    pub tgt: Vec<Bound>,
    pub settings: Settings,
    /// Every register either side names (32 bits each), M0 included.
    pub keys: BTreeSet<RegKey>,
    /// Immediate variables (names without `%`).
    pub imms: BTreeSet<String>,
    /// Registers whose final value does not matter (`Dead:`).
    pub dead: BTreeSet<RegKey>,
    pub pre: Option<Expr>,
    /// The rule expanded to N lanes (`--lanes N`, `Lanes:`, or 2 for a lane mask read whole).
    pub lanes: Option<(LaneMode, Expanded)>,
    /// Why the single-lane check cannot decide this rule and lanes cannot check it either
    /// (a lane mask read whole in a rule lanes do not model): its verdict is `unknown`.
    pub undecided: Option<String>,
    /// `undecided` is a `v_readfirstlane_b32` of a VGPR that may differ between lanes: a
    /// single-lane refutation stands (a wave whose first active lane is this one exists).
    pub first_lane: bool,
}

/// The programs and registers a check compares: the rule's two sides, or under `--lanes`
/// every serialization of each side and the per-lane registers.
pub(super) struct Sides<'a> {
    pub src: Vec<&'a [Bound]>,
    pub tgt: Vec<&'a [Bound]>,
    pub keys: &'a BTreeSet<RegKey>,
    pub dead: &'a BTreeSet<RegKey>,
}

impl<'a> Sides<'a> {
    pub fn of(b: &'a Elaborated) -> Sides<'a> {
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

/// Bind both sides of `rule` on `target` and check them as one program.
///
/// Errors: an instruction that does not bind on `target`, a variable used with two widths or
/// register classes, a bad `Dead:` or precondition, a setting the target does not have, an
/// EXEC write or cross-lane instruction in a single-lane check, a rule lanes cannot expand.
pub(super) fn elaborate(
    rule: &Rule,
    target: Target,
    opts: &Options,
) -> Result<Elaborated, InputError> {
    let settings = settings_for(rule, target, opts)?;
    let to = to_target(rule, target);
    let to_settings = settings_for(rule, to, opts)?;
    let imms = immediate_vars(rule);
    let bind_all = |ls: &[Line], t: Target| -> Result<Vec<Bound>, InputError> {
        ls.iter().map(|l| bind(rule, l, t, &imms)).collect()
    };
    let src = bind_all(&rule.source, target)?;
    let tgt = bind_all(&rule.target, to)?;
    check_var_uses(rule, &src, &tgt)?;
    let mut keys: BTreeSet<RegKey> = BTreeSet::new();
    keys.insert(RegKey::m0());
    for b in src.iter().chain(&tgt) {
        keys.extend(b.regs());
    }
    // A dead SCC is neither an input nor compared: it leaves the check, so a rule that says
    // `Dead: scc` (every rule `gcnsmt tv` lowers, which keeps SCC in its own `%scc`) asks the
    // solver what it asked before SCC was machine state.
    if rule.dead_regs.iter().any(|(r, _)| r == "scc") {
        keys.remove(&RegKey::scc());
    }
    let dead = dead_keys(rule, &imms, &keys)?;
    let mut mode = lane_mode(rule, opts);
    let mut undecided = None;
    let mut why_lanes = None;
    let mut first_lane = false;
    if mode.is_none() {
        single_lane_only(rule, &src, &tgt)?;
        // `Dead: scc` takes SCC out of the keys, not into `dead`; the mask check asks both.
        let mut mask_dead = dead.clone();
        if !keys.contains(&RegKey::scc()) {
            mask_dead.insert(RegKey::scc());
        }
        match super::masks::whole_mask_read(&src, &tgt, &mask_dead) {
            Some(MaskNeed::Lanes(why)) => {
                match lanes_refused(rule, &src, &tgt) {
                    None => mode = Some(super::masks::MASK_LANES),
                    Some(no) => undecided = Some(undecided_text(&why, &no)),
                }
                why_lanes = Some(why);
            }
            Some(MaskNeed::Undecidable(why)) => {
                undecided = Some(format!("{why}: one lane does not model the other lanes' bits, and no lane count covers every wave"));
            }
            None => {}
        }
    }
    if let (Some(_), Some((t, loc))) = (mode, rule.to) {
        let at = rule.lanes.map_or(loc, |(_, l)| l);
        let msg = format!("a cross-target rule (-> {t}) is checked on one lane only");
        return Err(rule.error(at, msg));
    }
    let lanes = match mode {
        None => None,
        Some(m) => {
            lane_reads_modelled(rule, &src, &tgt)?;
            // tv's EXEC writes are bit L of a mask (`%lanebit`, tv/exec.rs), inside by its
            // precondition.
            if rule.written {
                if let Some(why) = super::wave_limits::exec_escapes(&src, &tgt) {
                    undecided = Some(why);
                }
            }
            match crate::lanes::expand(&src, &tgt, &keys, &dead, m, wave_size(target)) {
                Ok(e) => Some((m, e)),
                // Lanes chosen for a lane mask: the rule itself asked for one lane.
                Err(no) if why_lanes.is_some() => {
                    undecided = Some(undecided_text(why_lanes.as_deref().unwrap_or(""), &no));
                    mode = None;
                    None
                }
                Err(msg) => {
                    return Err(rule.error(rule.lanes.map(|(_, l)| l).unwrap_or(rule.loc), msg))
                }
            }
        }
    };
    let pre = match &rule.pre {
        None => None,
        Some(_) => Some(precondition(rule, target, settings, &imms, &keys, mode)?),
    };
    // tv's rules read the first lane only of values tv/firstlane.rs shows uniform.
    if mode.is_none() && undecided.is_none() && rule.written {
        undecided = super::wave_limits::first_lane_read(&src, &tgt, pre.as_ref())
            .map(|why| format!("{why}; proved only for that wave"));
        first_lane = undecided.is_some();
    }
    Ok(Elaborated {
        target,
        to,
        to_settings,
        src,
        tgt,
        settings,
        keys,
        imms,
        dead,
        pre,
        lanes,
        undecided,
        first_lane,
    })
}

/// The reason a rule whose lane mask is read whole (`why`) gets no verdict: lanes cannot
/// check it (`no`).
fn undecided_text(why: &str, no: &str) -> String {
    format!("{why}, which one lane does not model, and lanes cannot check this rule: {no}")
}

/// Why `rule` cannot be checked with lanes, if it cannot: a cross-target rule, a
/// `v_readfirstlane_b32`, a wave-level DS instruction.
fn lanes_refused(rule: &Rule, src: &[Bound], tgt: &[Bound]) -> Option<String> {
    if rule.to.is_some() {
        return Some("a cross-target rule is checked on one lane only".into());
    }
    lane_reads_modelled(rule, src, tgt).err().map(|e| e.msg)
}

/// One register class and one width per variable across the whole rule.
fn check_var_uses(rule: &Rule, src: &[Bound], tgt: &[Bound]) -> Result<(), InputError> {
    let mut first: BTreeMap<String, crate::machine::VarUse> = BTreeMap::new();
    let vector = |c: Class| matches!(c, Class::Vgpr | Class::VgprOrAgpr);
    let kind = |c: Class| if c == Class::Sgpr { "scalar" } else { "vector" };
    for u in src.iter().chain(tgt).flat_map(|b| &b.var_uses) {
        let Some(f) = first.get(&u.name) else {
            first.insert(u.name.clone(), u.clone());
            continue;
        };
        if f.dwords != u.dwords {
            return Err(rule.error(
                u.loc,
                format!(
                    "%{} spans {} register(s) here but {} at line {}",
                    u.name, u.dwords, f.dwords, f.loc.line
                ),
            ));
        }
        if (vector(f.class) && u.class == Class::Sgpr)
            || (f.class == Class::Sgpr && vector(u.class))
        {
            return Err(rule.error(
                u.loc,
                format!(
                    "%{} is used as a {} register here but as a {} register at line {}",
                    u.name,
                    kind(u.class),
                    kind(f.class),
                    f.loc.line
                ),
            ));
        }
        if f.class == Class::Any && u.class != Class::Any {
            first.insert(u.name.clone(), u.clone());
        }
    }
    Ok(())
}

/// The registers of the rule's `Dead:` variables (every dword of each) and concrete registers
/// (`vcc`: both halves on wave64). `scc` is taken out of the check by the caller, and may be
/// declared dead whether or not an instruction writes it (every rule has SCC).
///
/// Errors: a dead immediate, or a variable or register no instruction uses (`m0` is always in
/// view: DS ops read it on some targets).
fn dead_keys(
    rule: &Rule,
    imms: &BTreeSet<String>,
    keys: &BTreeSet<RegKey>,
) -> Result<BTreeSet<RegKey>, InputError> {
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
    for (r, loc) in rule.dead_regs.iter().filter(|(r, _)| r != "scc") {
        let ks: Vec<RegKey> = keys.iter().filter(|k| k.named(r)).cloned().collect();
        if ks.is_empty() {
            return Err(rule.error(*loc, format!("no instruction of the rule names {r}")));
        }
        dead.extend(ks);
    }
    Ok(dead)
}

/// The rule's precondition, parsed and evaluated once over concrete zeros, so that unknown
/// names and type errors are input errors here, not internal errors of the solver run.
///
/// Errors (at the column of the offending name where there is one): an undefined variable, a
/// parse error, an evaluation error (EXEC without lanes gets a hint).
fn precondition(
    rule: &Rule,
    target: Target,
    settings: Settings,
    imms: &BTreeSet<String>,
    keys: &BTreeSet<RegKey>,
    mode: Option<LaneMode>,
) -> Result<Expr, InputError> {
    let p = rule
        .pre
        .as_ref()
        .expect("the caller checked for a precondition");
    let reg_vars: BTreeSet<String> = keys
        .iter()
        .filter(|k| k.is_var())
        .map(|k| k.base[1..].to_string())
        .collect();
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
    let zero = |width| Bits { value: 0, width };
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
        mem: MemState::new(|_| CMem::new_wide(|_| 0), false),
    };
    let mut cd = Concrete;
    let vars = pre_vars(&mut cd, &cenv, &cm, keys);
    if let Err(err) = eval_expr(
        &mut cd,
        &pre_frame(settings),
        &e,
        None,
        vars,
        cm.mem.clone(),
    ) {
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
    Ok(e)
}

/// Under lanes, a VALU op that writes an SGPR from one lane's VGPR (`v_readfirstlane_b32`)
/// would need the first active lane, which the per-lane run does not give.
///
/// Errors: the first such instruction, at its line.
fn lane_reads_modelled(rule: &Rule, src: &[Bound], tgt: &[Bound]) -> Result<(), InputError> {
    for c in src.iter().chain(tgt) {
        if let Op::Alu { mnemonic, alu, .. } = &c.op {
            if alu.to_sgpr {
                return Err(rule.error(
                    c.loc,
                    format!("{mnemonic} reads the first active lane, which --lanes does not model"),
                ));
            }
        }
        // GWS and append/consume update shared state once per wave (docs/lanes.md,
        // "Wave-level DS instructions"); the expansion would run them once per lane.
        if let Op::Ds {
            mnemonic, shape, ..
        } = &c.op
        {
            if shape.scope != gcnsmt_lifter::table::DsScope::Lane {
                return Err(rule.error(
                    c.loc,
                    format!(
                        "{mnemonic} is a wave-level instruction, which --lanes does not model: \
                         check it without lanes"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A single-lane check models neither EXEC writes nor cross-lane instructions.
///
/// Errors: the first instruction that needs lanes, at its line.
fn single_lane_only(rule: &Rule, src: &[Bound], tgt: &[Bound]) -> Result<(), InputError> {
    if let Some(w) = src
        .iter()
        .chain(tgt)
        .find(|b| b.writes().iter().any(|k| k.base == "exec"))
    {
        return Err(rule.error(
            w.loc,
            "this instruction writes EXEC, which a single-lane check does not model: \
             give the rule `Lanes: N` or run with --lanes N",
        ));
    }
    for c in src.iter().chain(tgt) {
        if let Op::Cross { mnemonic, .. } = &c.op {
            return Err(rule.error(
                c.loc,
                format!(
                    "{mnemonic} is a cross-lane instruction: give the rule `Lanes: N` or run \
                     with --lanes N"
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a rule has MUBUF/VBUFFER instructions.
pub fn uses_buffer(rule: &Rule) -> bool {
    rule.source
        .iter()
        .chain(&rule.target)
        .any(|l| crate::machine::buffer::is_buffer_line(&l.text))
}

/// Whether some instruction line of the rule has a mnemonic (its first word, lower case) that
/// `pred` accepts: what decides which settings groups a verdict prints.
fn uses_mnemonic(rule: &Rule, pred: impl Fn(&str) -> bool) -> bool {
    rule.source.iter().chain(&rule.target).any(|l| {
        let t = l.text.trim_start().to_ascii_lowercase();
        pred(t.split_whitespace().next().unwrap_or(""))
    })
}

/// Whether a rule uses FLAT instructions (`flat_*`), whose `flat_aperture` setting is then
/// printed with its verdicts.
pub fn uses_flat(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m.starts_with("flat_"))
}

/// Whether a rule uses an LDS DMA form (a buffer line with the `lds` modifier, or
/// `buffer_store_lds_dword`), whose `lds_dma_*` settings are then printed with its verdicts.
pub fn uses_lds_dma(rule: &Rule) -> bool {
    rule.source.iter().chain(&rule.target).any(|l| {
        let t = l.text.to_ascii_lowercase();
        crate::machine::buffer::is_buffer_line(&t)
            && t.split(|c: char| c.is_whitespace() || c == ',')
                .any(|w| w == "lds")
    })
}

/// Whether a rule uses an instruction whose semantics read the f32 denormal mode (VALU f32
/// arithmetic, `v_max_f32`, `ds_add_f32`: the entries calling `FlushDenormF32`), whose
/// `fp32_denorm` setting is then printed with its verdicts.
pub fn uses_float(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| {
        [
            "v_add_f32",
            "v_mul_f32",
            "v_fma_f32",
            "v_pk_add_f32",
            "v_pk_mul_f32",
            "v_pk_fma_f32",
            "v_max_f32",
            "ds_add_f32",
            "ds_add_rtn_f32",
        ]
        .iter()
        .any(|f| m.starts_with(f))
    })
}

/// Whether a rule uses an ADDTID DS op (`ds_load_addtid_b32`, `ds_write_addtid_b32`, ...),
/// whose `addtid_m0` setting is then printed with its verdicts.
pub fn uses_addtid(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m.starts_with("ds_") && m.contains("_addtid_"))
}

/// Whether a rule uses `v_max_f32`, whose NaN handling reads MODE.IEEE (`ieee_mode` is then
/// printed with its verdicts).
pub fn uses_ieee(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m.starts_with("v_max_f32"))
}

/// Whether a rule uses `ds_append`/`ds_consume`, whose `append_addr` setting is then printed
/// with its verdicts.
pub fn uses_append(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m == "ds_append" || m == "ds_consume")
}

/// Whether a rule uses an instruction whose mnemonic starts with `prefix` (`ds_bvh_stack_`:
/// the `bvh_*` settings are then printed with its verdicts).
pub fn uses_mnemonic_prefix(rule: &Rule, prefix: &str) -> bool {
    uses_mnemonic(rule, |m| m.starts_with(prefix))
}

/// Whether a rule uses a D16 load or store (`_d16` in its mnemonic), whose `d16_unused`
/// setting is then printed with its verdicts.
pub fn uses_d16(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m.contains("_d16"))
}

/// Whether a rule uses scalar buffer loads (`s_buffer_load_*`), whose `sbuffer_size` setting
/// is then printed with its verdicts.
pub fn uses_sbuffer(rule: &Rule) -> bool {
    uses_mnemonic(rule, |m| m.starts_with("s_buffer_load"))
}

/// The lanes a rule is checked with: `--lanes`, else the rule's `Lanes:` (its order replaced by
/// `--lane-order` if given); `None` for a single-lane check.
pub fn lane_mode(rule: &Rule, opts: &Options) -> Option<LaneMode> {
    opts.lanes.or(rule.lanes.map(|(m, _)| LaneMode {
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

/// The target a rule's target side runs on when its source side runs on `from`: the rule's
/// `Targets: ... -> T`, else `from` itself.
pub fn to_target(rule: &Rule, from: Target) -> Target {
    rule.to.map_or(from, |(t, _)| t)
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
                    let to = to_target(rule, *t);
                    (rule.source.iter()).all(|l| bind(rule, l, *t, &imms).is_ok())
                        && (rule.target.iter()).all(|l| bind(rule, l, to, &imms).is_ok())
                })
                .collect()
        }
    };
    ts.into_iter()
        .filter(|t| filter.is_none_or(|f| f.contains(t)))
        .collect()
}
