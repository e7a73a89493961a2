//! `gcnsmt waitcnt` on one file: classify, build the CFG, solve, and turn hazards into
//! reports with a witness path and schedule; find the waits no schedule needs.

use super::analysis::{Analysis, Hazard, HazardKind, Obligation, Site, State};
use super::asm::{self, Function, Inst};
use super::cfg;
use super::classify::{classify, Action, Settings};
use super::regs::RegSet;
use gcnsmt_lifter::counters::{self, Counter, Effect, MemFamily, Order};
use gcnsmt_semantics::target::Target;
use std::collections::HashSet;

/// A position and the instruction text there.
#[derive(Clone, Debug)]
pub struct Loc {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The instruction.
    pub text: String,
}

/// One hazard, ready to print.
#[derive(Clone, Debug)]
pub struct HazardReport {
    /// `read`, `overwrite` or `overwrite-source`.
    pub kind: &'static str,
    /// The registers.
    pub regs: String,
    /// The counter the access may still be pending on.
    pub counter: &'static str,
    /// The pending access (None: left by the caller).
    pub access: Option<Loc>,
    /// Description of a pseudo access.
    pub access_desc: String,
    /// The instruction that is too early.
    pub at: Loc,
    /// Block labels (or `line N`) of the witness path.
    pub path: Vec<String>,
    /// The schedule: which access completes where.
    pub schedule: Vec<String>,
    /// For a wait the code must honour (`ordering`) or the VCCZ bug: why.
    pub why: Option<String>,
}

/// The result for one function.
#[derive(Clone, Debug)]
pub struct FnReport {
    /// Its name.
    pub name: String,
    /// Kernel (starts with nothing pending) or callable function.
    pub kernel: bool,
    /// Instruction count.
    pub insts: usize,
    /// The hazards.
    pub hazards: Vec<HazardReport>,
    /// Instructions whose counters are not known (paths stop there).
    pub unknown: Vec<Loc>,
    /// Waits no schedule needs: location and reason.
    pub redundant: Vec<(Loc, &'static str)>,
}

/// A bad-input error with its position.
#[derive(Clone, Debug)]
pub struct InputError {
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}

/// Functions at most this long also get the full redundancy check (one more solve per wait).
pub const FULL_REDUNDANCY_LIMIT: usize = 4000;

/// Check the assembly `text`. `target` overrides `.amdgcn_target`.
pub fn check_text(
    text: &str,
    target: Option<Target>,
    set: Settings,
) -> Result<(Target, Vec<FnReport>), InputError> {
    let file = asm::parse(text).map_err(|e| InputError {
        line: e.line,
        col: e.col,
        msg: e.msg,
    })?;
    let target = target.or(file.target).ok_or_else(|| InputError {
        line: 1,
        col: 1,
        msg: "no `.amdgcn_target` in the file: give --target".into(),
    })?;
    let mut out = Vec::new();
    for f in &file.functions {
        out.push(check_function(target, f, set)?);
    }
    Ok((target, out))
}

/// What a caller may leave pending: one out-of-order access per counter, writing every
/// register (but on the store and async counters, whose accesses write memory or LDS), and
/// holding every source on expcnt, or on xcnt until it completes (gfx1250).
fn pseudo_sites(target: Target) -> Vec<Site> {
    let has_x = counters::counter_max(target, Counter::X).is_some();
    let ooo = |counter| Effect {
        counter,
        order: Order::OutOfOrder,
        definite: true,
    };
    counters::counters(target)
        .iter()
        .filter(|(c, _)| *c != Counter::X)
        .map(|&(c, _)| {
            let writes = !matches!(c, Counter::Vs | Counter::Store | Counter::Async);
            let held_until = match c {
                Counter::Exp => Some(Counter::Exp),
                Counter::Ds => None,
                _ if has_x => Some(Counter::X),
                _ => None,
            };
            let mut effects = vec![ooo(c)];
            if held_until == Some(Counter::X) {
                effects.push(ooo(Counter::X));
            }
            Site {
                inst: None,
                writes: if writes { RegSet::all() } else { RegSet::new() },
                held: if held_until.is_some() {
                    RegSet::all()
                } else {
                    RegSet::new()
                },
                held_until,
                effects,
            }
        })
        .collect()
}

/// Check one function.
pub fn check_function(target: Target, f: &Function, set: Settings) -> Result<FnReport, InputError> {
    let at = |i: &Inst, msg: String| InputError {
        line: i.line,
        col: i.col,
        msg,
    };
    let mut actions: Vec<Action> = f
        .insts
        .iter()
        .map(|i| classify(target, i, set).map_err(|m| at(i, m)))
        .collect::<Result<_, _>>()?;
    super::longbranch::resolve(f, &mut actions);
    let blocks = cfg::blocks(f, &actions).map_err(|i| {
        at(
            &f.insts[i],
            format!("branch to a label not in function `{}`", f.name),
        )
    })?;
    Ok(check_prepared(target, f, &actions, &blocks))
}

/// Check one function whose instructions are classified and whose blocks are built (from
/// assembly above, from MIR in `tv/wait_mir.rs`). `f` gives names and positions only.
pub fn check_prepared(
    target: Target,
    f: &Function,
    actions: &[Action],
    blocks: &[cfg::Block],
) -> FnReport {
    check_ordered(target, f, (actions, blocks), Vec::new())
}

/// [`check_prepared`] with memory-ordering waits to honour (`Ordering` hazards where not).
pub fn check_ordered(
    target: Target,
    f: &Function,
    (actions, blocks): (&[Action], &[cfg::Block]),
    obligations: Vec<(usize, super::analysis::Obligation)>,
) -> FnReport {
    let mut an = Analysis::new(actions, blocks, pseudo_sites(target));
    an.check_returns = !f.kernel;
    // AMDGPU.td: FeatureVmemWriteVgprInOrder is in the SI..GFX11 feature lists, not GFX12's
    // (llc-22 -mcpu=gfx1200 waits between two global loads into one VGPR; gfx1100 does not).
    an.vgpr_writes_in_order = target.gen() < gcnsmt_semantics::target::Gen::Gfx12;
    an.obligations = obligations;
    an.obligations.extend(barrier_obligations(target, f));
    let init = initial_state(&an, f.kernel);
    let mut useful = vec![0u8; actions.len()];
    an.solve(init.clone(), &mut useful);
    let mut useful = vec![0u8; actions.len()];
    let hazards = dedup(an.collect(&mut useful));
    let mut reports: Vec<HazardReport> = hazards.iter().map(|h| report(&an, f, h)).collect();
    let vccz_bug = super::vccz::has_bug(target);
    if vccz_bug {
        for v in super::vccz::hazards(&an, f, f.kernel) {
            reports.push(vccz_report(&an, f, &v));
        }
    }
    let redundant = redundant_waits(&mut an, f, (&init, vccz_bug, target), &hazards, &useful);
    let unknown = actions
        .iter()
        .zip(&f.insts)
        .filter(|(a, _)| matches!(a, Action::Unknown(_)))
        .map(|(_, i)| loc(i))
        .collect();
    FnReport {
        name: f.name.clone(),
        kernel: f.kernel,
        insts: f.insts.len(),
        hazards: reports,
        unknown,
        redundant,
    }
}

/// `S_BARRIER` on a target without back-off barrier needs every counter at zero: "The
/// subtarget may have an implicit S_WAITCNT 0 before barriers. If it does not, we need to
/// ensure the subtarget is capable of backing off barrier instructions in case there are any
/// outstanding memory operations that may cause an exception. Otherwise, insert an explicit
/// S_WAITCNT 0 here" (LLVM SIInsertWaitcnts; `!hasAutoWaitcntBeforeBarrier() &&
/// !hasBackOffBarrier()`). LLVM 22's `FeatureBackOffBarrier` is on gfx90a, gfx940+ and
/// gfx10-gfx12 (LLVM #155370 re-enabled it on gfx11/gfx12), not on gfx6-gfx9 (gfx900-gfx909,
/// gfx90c, gfx908); llc-22 emits the wait before `s_barrier` exactly there. gfx12's split
/// barriers (`s_barrier_signal`) are not concerned ("up to the trap handler"). A cache
/// invalidate (`buffer_wbinvl1_vol`, the end of an acquire) may be pending: it carries no
/// address, so it cannot raise the exception the rule is about, and SIInsertWaitcnts counts
/// no invalidate, so llc-22 never waits for one there (issue 30, tester's 13).
fn barrier_obligations(target: Target, f: &Function) -> Vec<(usize, Obligation)> {
    use gcnsmt_semantics::target::Gen;
    if !matches!(target.gen(), Gen::Gfx6 | Gen::Gfx7 | Gen::Gfx8 | Gen::Gfx9) {
        return Vec::new();
    }
    let waits: Vec<(Counter, u32)> = counters::counters(target)
        .iter()
        .map(|&(c, _)| (c, 0))
        .collect();
    f.insts
        .iter()
        .enumerate()
        .filter(|(_, i)| {
            let m = i.mnemonic.split_whitespace().next().unwrap_or("");
            m.eq_ignore_ascii_case("s_barrier")
        })
        .map(|(at, _)| {
            let why = format!(
                "s_barrier on {} (no back-off barrier) needs every counter at 0",
                target.name()
            );
            let ob = Obligation {
                waits: waits.clone(),
                lds_only: false,
                faulting_only: true,
                why,
            };
            (at, ob)
        })
        .collect()
}

/// A kernel starts with nothing pending; a callable function with the caller's left-overs.
fn initial_state(an: &Analysis, kernel: bool) -> State {
    let mut st = State::new();
    if !kernel {
        for s in an.actions.len()..an.sites.len() {
            an.issue(&mut st, s);
        }
    }
    st
}

/// One hazard per (access, instruction, counter): the count is exact, never capped.
fn dedup(hs: Vec<Hazard>) -> Vec<Hazard> {
    let mut seen = HashSet::new();
    hs.into_iter()
        .filter(|h| seen.insert((h.site, h.at, h.counter, h.kind)))
        .collect()
}

/// Waits no schedule needs: those that complete nothing on any path, and (for functions of
/// at most [`FULL_REDUNDANCY_LIMIT`] instructions) those that complete only register-writing
/// accesses and whose removal adds no hazard.
fn redundant_waits(
    an: &mut Analysis,
    f: &Function,
    (init, vccz_bug, target): (&State, bool, Target),
    hazards: &[Hazard],
    useful: &[u8],
) -> Vec<(Loc, &'static str)> {
    let reached: Vec<bool> = (0..an.actions.len())
        .map(|i| an.entry[an.block_of[i]].is_some())
        .collect();
    let mut base: HashSet<(usize, usize)> = hazards.iter().map(|h| (h.site, h.at)).collect();
    if vccz_bug {
        base.extend(
            super::vccz::hazards(an, f, f.kernel)
                .iter()
                .map(|v| (v.hazard.site, v.hazard.at)),
        );
    }
    // gfx12's legacy `s_waitcnt` is read by the least it is known to wait for (classify.rs);
    // it may wait for more (stores too, as `s_wait_idle`), so it is never called redundant.
    let legacy = |i: usize| {
        let m = f.insts[i].mnemonic.split_whitespace().next().unwrap_or("");
        target.gen() == gcnsmt_semantics::target::Gen::Gfx12 && m.eq_ignore_ascii_case("s_waitcnt")
    };
    let waits: Vec<usize> = (0..an.actions.len())
        .filter(|&i| matches!(an.actions[i], Action::Wait(_)) && reached[i] && !legacy(i))
        .collect();
    // Waits that complete nothing go first: removing them changes no state.
    let mut found: Vec<(usize, &'static str)> = waits
        .iter()
        .filter(|&&i| useful[i] == 0)
        .map(|&i| (i, "it completes nothing on any path"))
        .collect();
    an.disabled = found.iter().map(|(i, _)| *i).collect();
    // Then greedily, in program order: a wait is redundant when removing it, with the waits
    // already found, adds no hazard (so the reported waits can all go together). A wait
    // that completes a store or an LDS write may order memory for other waves, which this
    // register analysis does not model: never called redundant.
    let small = an.actions.len() <= FULL_REDUNDANCY_LIMIT;
    let candidates: Vec<usize> = waits
        .iter()
        .copied()
        .filter(|&i| small && useful[i] == 1 && !orders_invalidate(an, i))
        .collect();
    for i in candidates {
        an.disabled.push(i);
        let mut scratch = vec![0u8; an.actions.len()];
        an.solve(init.clone(), &mut scratch);
        let mut now = an.collect(&mut scratch);
        if vccz_bug {
            // A wait may be what lets a VCC write restore VCCZ (no SMEM pending there).
            now.extend(
                super::vccz::hazards(an, f, f.kernel)
                    .into_iter()
                    .map(|v| v.hazard),
            );
        }
        let more = now.iter().any(|h| !base.contains(&(h.site, h.at)));
        if more {
            an.disabled.pop();
        } else {
            found.push((i, "no hazard appears without it"));
        }
    }
    an.disabled.clear();
    let mut scratch = vec![0u8; an.actions.len()];
    an.solve(init.clone(), &mut scratch);
    found.sort();
    found
        .into_iter()
        .map(|(i, why)| (loc(&f.insts[i]), why))
        .collect()
}

/// Whether wait `i` is an acquire's: a cache invalidate follows it in its block with no other
/// memory access between. AMDGPUUsage's acquire sequences put the `s_waitcnt` there: it "Must
/// happen before the following buffer_wbinvl1_vol" (`buffer_gl0_inv`, `global_inv`) and
/// "Ensures that the acquire-fence-paired atomic has completed before invalidating the cache".
/// It orders memory, which this register analysis does not model: never called redundant,
/// even where the loads it completes are waited for again before their registers are read.
fn orders_invalidate(an: &Analysis, i: usize) -> bool {
    let end = an.blocks[an.block_of[i]].end;
    for a in &an.actions[i + 1..end] {
        match a {
            Action::Mem(m) if m.family == MemFamily::CacheInv => return true,
            Action::Wait(_) | Action::Sync { .. } => {}
            _ => return false,
        }
    }
    false
}

fn loc(i: &Inst) -> Loc {
    Loc {
        line: i.line,
        col: i.col,
        text: i.text(),
    }
}

/// The printed form of a hazard: witness path and schedule.
fn report(an: &Analysis, f: &Function, h: &Hazard) -> HazardReport {
    let site = &an.sites[h.site];
    let path = an.witness(h);
    let path_names = path
        .iter()
        .map(|&b| match &an.blocks[b].label {
            Some(l) => l.clone(),
            None if b == 0 => f.name.clone(),
            None => format!("line {}", f.insts[an.blocks[b].start].line),
        })
        .collect();
    let access_desc = match site.inst {
        Some(i) => format!("`{}`", f.insts[i].text()),
        None => "an access the caller left pending".to_string(),
    };
    HazardReport {
        kind: match h.kind {
            HazardKind::Read => "read",
            HazardKind::Overwrite => "overwrite",
            HazardKind::OverwriteSource => "overwrite-source",
            HazardKind::ReturnPending => "return-pending",
            HazardKind::Ordering => "ordering",
            HazardKind::OrderingMaybe => "ordering-maybe",
            HazardKind::Vccz => "vccz",
        },
        regs: h.regs.to_string(),
        counter: h.counter.name(),
        access: site.inst.map(|i| loc(&f.insts[i])),
        access_desc,
        at: loc(&f.insts[h.at]),
        path: path_names,
        schedule: schedule(an, f, h, &path),
        why: an
            .obligations
            .iter()
            .find(|(at, ob)| *at == h.at && ob.waits.iter().any(|(c, _)| *c == h.counter))
            .filter(|_| matches!(h.kind, HazardKind::Ordering | HazardKind::OrderingMaybe))
            .map(|(_, ob)| ob.why.clone()),
    }
}

/// The printed form of a VCCZ hazard (`vccz.rs`): the access that may have corrupted VCCZ and
/// the branch that reads it, with no restoring write of VCC between on the path.
fn vccz_report(an: &Analysis, f: &Function, v: &super::vccz::VcczHazard) -> HazardReport {
    let mut r = report(an, f, &v.hazard);
    r.path = v
        .path
        .iter()
        .map(|&b| match &an.blocks[b].label {
            Some(l) => l.clone(),
            None if b == 0 => f.name.clone(),
            None => format!("line {}", f.insts[an.blocks[b].start].line),
        })
        .collect();
    if an.sites[v.hazard.site].inst.is_none() {
        r.access_desc = "an SMEM access of a caller or callee".into();
    }
    let issued = match &r.access {
        Some(a) => format!("line {}: {} issued", a.line, r.access_desc),
        None => format!("{} may have run", r.access_desc),
    };
    r.schedule = vec![
        format!("{issued}; it may corrupt VCCZ when it completes"),
        "no write of all of VCC with no SMEM access pending follows it on this path".into(),
        format!("line {}: the branch reads VCCZ", r.at.line),
    ];
    r.why = Some(
        "gfx6/gfx7 VCCZ bug (LLVM hasReadVCCZBug): an SMEM access may corrupt VCCZ; it is \
         trusted again only after VCC is written with no SMEM access pending"
            .into(),
    );
    r
}

/// The instructions along the witness path from the access to the hazard.
fn path_insts(an: &Analysis, h: &Hazard, path: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    for (n, &b) in path.iter().enumerate() {
        let bl = &an.blocks[b];
        let lo = match an.sites[h.site].inst {
            Some(s) if n == 0 && an.block_of[s] == b => s + 1,
            _ => bl.start,
        };
        let hi = if n + 1 == path.len() { h.at } else { bl.end };
        out.extend(lo..hi.max(lo));
    }
    out
}

/// Which access completes where: the access stays pending past every wait on its counter
/// along the path, because each such wait can be met by other accesses completing.
fn schedule(an: &Analysis, f: &Function, h: &Hazard, path: &[usize]) -> Vec<String> {
    let site = &an.sites[h.site];
    let c = h.counter;
    let mut out = vec![match site.inst {
        Some(i) => format!(
            "line {}: issued; it counts on {}",
            f.insts[i].line,
            c.name()
        ),
        None => format!(
            "function entry: pending on {} (left by the caller)",
            c.name()
        ),
    }];
    let order = site
        .effects
        .iter()
        .find(|e| e.counter == c)
        .map(|e| e.order);
    // The hazard's own instruction may wait first (VINTERP `wait_exp`): met too.
    let own_wait = match &an.actions[h.at] {
        Action::Sync { waits_first, .. } => waits_first.iter().find(|(k, _)| *k == c).copied(),
        _ => None,
    };
    for i in path_insts(an, h, path) {
        // An access that may count on the counter (a cache operation, a message) is taken as
        // not counting: say so, since the schedule rests on it (tv: an abstraction).
        if let Action::Mem(a) = &an.actions[i] {
            if a.effects.iter().any(|e| e.counter == c && !e.definite) {
                out.push(format!(
                    "line {}: `{}` may count on {} (taken as not: no source read says it does)",
                    f.insts[i].line,
                    f.insts[i].text(),
                    c.name()
                ));
            }
        }
        if let Action::Wait(w) = &an.actions[i] {
            if let Some((_, n)) = w.iter().find(|(k, _)| *k == c) {
                let why = match order {
                    Some(Order::InOrder(kind)) => format!(
                        "{n} access(es) may remain and the {kind} accesses issued after it may all be among them"
                    ),
                    _ => format!("{n} access(es) may remain and it completes out of order"),
                };
                out.push(format!(
                    "line {}: `{}` is met with it still pending: {why}",
                    f.insts[i].line,
                    f.insts[i].text()
                ));
            }
        }
    }
    if let Some((_, n)) = own_wait {
        out.push(format!(
            "line {}: its own wait ({} <= {n}, the `wait_exp` field) is met with it still \
             pending: {n} access(es) may remain",
            f.insts[h.at].line,
            c.name()
        ));
    }
    out.push(format!(
        "line {}: reached with it pending; it completes after this instruction",
        f.insts[h.at].line
    ));
    out
}
