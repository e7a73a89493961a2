//! One step of the register-allocation checker's lockstep walk (`alloc.rs`): a matched
//! instruction pair, a move only the after-file makes (a `COPY`, a spill save or restore, a
//! rematerialised constant), or a copy only the before-file makes. Each checks the state
//! ([`State`]) and updates it; `Err` says why the checker cannot follow.

use super::alloc_ops::{self, Ctx, Side};
use super::alloc_state::{konst, Atom, Contents, Guard, State};
use super::mir::{Inst, OpKind, Operand};

/// The names (before) or locations (after) of a register operand; `Err` when not modelled
/// or not a register.
fn regs(cx: &Ctx, side: Side, o: &Operand) -> Result<Vec<String>, String> {
    cx.lanes(side, o)?
        .ok_or_else(|| format!("operand {:?} is no register", o.kind))
}

fn at(i: &Inst) -> String {
    format!("line {}", i.loc.line)
}

/// The new contents of vector location `l` after an EXEC-masked write of `from` (name ->
/// lanes on which the written value equals it): the active lanes (`cur`, when the after-file's
/// EXEC is the before-file's) from the write, the others from what `l` held.
fn masked(s: &State, l: &str, from: &Contents, exec_ok: bool) -> Contents {
    from.iter()
        .filter(|(_, g)| exec_ok && g.has(s.cur))
        .map(|(x, _)| (x.clone(), merged(s, l, x)))
        .collect()
}

/// The lanes on which vector location `l` holds name `x` after both are written on the active
/// lanes (`cur`) with equal values: all of `x`'s defined lanes when `l` held all of `x`'s
/// previous ones (or `x` had none), else `cur` and the lanes it held before.
fn merged(s: &State, l: &str, x: &str) -> Guard {
    match s.contents(l).get(x) {
        Some(Guard::All) => Guard::All,
        _ if s.valid(x).is_empty() => Guard::All,
        Some(g) => g.union(&Guard::of(s.cur)),
        None => Guard::of(s.cur),
    }
}

/// Operands split into explicit ones and implicit ones.
fn split(ops: &[Operand]) -> (Vec<&Operand>, Vec<&Operand>) {
    ops.iter()
        .partition(|o| !(o.flags.implicit || o.flags.implicit_def))
}

/// The operand pairs of a matched instruction pair: explicit operands by position, each
/// implicit operand of the before-instruction with the first unused one of the after's of the
/// same direction and register; the after-instruction's remaining implicit operands.
type Pairs<'a> = (Vec<(&'a Operand, &'a Operand, bool)>, Vec<&'a Operand>);

fn pair_ops<'a>(b: &'a Inst, a: &'a Inst) -> Result<Pairs<'a>, String> {
    if b.opcode != a.opcode || b.defs.len() != a.defs.len() {
        return Err(format!("{} differs from {}", b.opcode, a.opcode));
    }
    // What later passes and the memory legalizer read (breaker 11): the same, or the block
    // checks decide (`memop.rs`).
    if b.mem != a.mem {
        return Err(format!("{}: the memory operands differ", b.opcode));
    }
    if let Some(f) = super::mi_flags::extra(b, a) {
        return Err(format!("{}: the pass added the flag `{f}`", b.opcode));
    }
    let mut out: Vec<(&Operand, &Operand, bool)> = b
        .defs
        .iter()
        .zip(&a.defs)
        .map(|(x, y)| (x, y, true))
        .collect();
    let ((be, bi), (ae, ai)) = (split(&b.ops), split(&a.ops));
    if be.len() != ae.len() {
        return Err(format!("{}: operand counts differ", b.opcode));
    }
    for (x, y) in be.into_iter().zip(ae) {
        if x.flags.def != y.flags.def {
            return Err(format!("{}: operand kinds differ", b.opcode));
        }
        out.push((x, y, x.flags.def));
    }
    let mut used = vec![false; ai.len()];
    for x in bi {
        let k = ai.iter().enumerate().position(|(k, y)| {
            !used[k]
                && y.flags.implicit_def == x.flags.implicit_def
                && match (&x.kind, &y.kind) {
                    (OpKind::Phys(p), OpKind::Phys(q)) => p == q,
                    (OpKind::VReg { .. }, OpKind::VReg { .. } | OpKind::Phys(_)) => true,
                    _ => false,
                }
        });
        let Some(k) = k else {
            return Err(format!("{}: implicit operand {:?} gone", b.opcode, x.kind));
        };
        used[k] = true;
        out.push((x, ai[k], x.flags.implicit_def));
    }
    let extra = ai.into_iter().zip(used).filter(|(_, u)| !u).map(|(y, _)| y);
    Ok((out, extra.collect()))
}

/// A matched instruction pair at `site`: the same operation on the same values.
/// `narrow`: `b` writes EXEC with a subset of its lanes ([`narrows_exec`], or the
/// `S_AND_B64`-of-a-saved-copy form, `alloc_call::narrows_via_copy`).
pub fn matched(
    cx: &Ctx,
    s: &mut State,
    (b, a): (&Inst, &Inst),
    site: Atom,
    narrow: bool,
) -> Result<(), String> {
    let (pairs, extra) = pair_ops(b, a)?;
    let call = super::alloc_call::call_entry(s, a)?;
    let mut defs: Vec<(String, String, bool)> = Vec::new();
    let mut undef_names = Vec::new();
    let mut undef_locs = Vec::new();
    let mut use_locs = Vec::new();
    let lane_local = alloc_ops::lane_local(&a.opcode) && s.exec_agrees();
    for (x, y, def) in &pairs {
        let (nx, ny) = (cx.lanes(Side::Before, x)?, cx.lanes(Side::After, y)?);
        let (nx, ny) = match (nx, ny) {
            (None, None) if x.kind == y.kind => continue,
            (Some(nx), Some(ny)) if nx.len() == ny.len() => (nx, ny),
            _ => return Err(format!("{}: operands {:?} and {:?}", at(a), x.kind, y.kind)),
        };
        if !def {
            use_locs.extend(ny.iter().cloned());
            if x.flags.undef {
                continue;
            }
            if y.flags.undef && !nx.iter().all(|n| s.valid(n).is_empty()) {
                // In MIR an `undef` use reads no value (the register is free for later passes
                // to reuse): no refinement of a defined read (breaker8 05). Of a read of a
                // value undefined on every lane (an `IMPLICIT_DEF`'s, processimpdefs) it is.
                return Err(format!(
                    "{}: an `undef` use where the before-file reads a value",
                    at(a)
                ));
            }
            if y.flags.undef {
                continue;
            }
            let mut oks = Vec::new();
            for (n, l) in nx.iter().zip(&ny) {
                if cx.vector(n) != cx.vector(l) {
                    return Err(format!(
                        "{}: {l} is in another register file than {n}",
                        at(a)
                    ));
                }
                // A lane-local read under the before-file's EXEC reads the active lanes only.
                let local = lane_local && cx.vector(n) && s.holds_on(l, n, s.cur);
                let ok = local || s.holds(l, n);
                if !ok && cx.image.is_none() {
                    return Err(mismatch(s, a, l, n));
                }
                oks.push(ok);
            }
            if oks.contains(&false) {
                let why = |l: &str, n: &str| mismatch(s, a, l, n);
                super::alloc_image::use_edit(cx, s, x, (&nx, &ny, &oks, lane_local), &why)?;
            }
            continue;
        }
        if x.flags.undef {
            undef_names.extend(cx.whole(Side::Before, x).unwrap_or_default());
        }
        if y.flags.undef {
            undef_locs.extend(cx.whole(Side::After, y).unwrap_or_default());
        }
        for (n, l) in nx.into_iter().zip(ny) {
            defs.push((n, l, y.flags.early_clobber));
        }
    }
    // In an image (`alloc_image.rs`) the instruction reads before it writes, as it executes
    // once on a target without XNACK replay: an execution the refutation may show.
    if let Some((_, l, _)) = defs.iter().find(|(_, l, e)| *e && use_locs.contains(l)) {
        if cx.image.is_none() && !cx.lenient {
            return Err(format!("{}: early-clobber {l} is also read", at(a)));
        }
    }
    if alloc_ops::returns(&a.opcode) {
        preserved(s, a)?;
    }
    if cx.image.is_some() {
        for (n, _, _) in defs.iter().filter(|(n, _, _)| n.starts_with('%')) {
            s.version(n, b.loc.line);
        }
    }
    let mut clobber: Vec<String> = undef_locs;
    for y in extra.iter().filter(|y| y.flags.implicit_def) {
        clobber.extend(regs(cx, Side::After, y)?);
    }
    let narrowed = if narrow { s.held_on(s.cur) } else { Vec::new() };
    write(cx, s, &defs, (&undef_names, &clobber), site)?;
    if let Some(mask) = &call {
        super::alloc_call::call_exit(s, mask);
    }
    super::alloc_call::writelane_exit(cx, s, b, a)?;
    // EXEC & X is a subset of EXEC: what held on the old EXEC's lanes holds on the new one's.
    if !narrowed.is_empty() && s.cur == site {
        s.add_lanes(&narrowed, site);
    }
    Ok(())
}

/// `$exec = S_AND_B64 $exec, X` or `$exec = S_ANDN2_B64 $exec, X` (B32 on `$exec_lo`, `_term`
/// forms too): the new EXEC's lanes are a subset of the old one's.
pub fn narrows_exec(b: &Inst) -> bool {
    let op = b.opcode.trim_end_matches("_term");
    let andn2 = matches!(op, "S_ANDN2_B64" | "S_ANDN2_B32");
    if !andn2 && !matches!(op, "S_AND_B64" | "S_AND_B32") {
        return false;
    }
    let Some(OpKind::Phys(d)) = b.defs.first().map(|d| &d.kind) else {
        return false;
    };
    let exec = if op.ends_with("B64") {
        "exec"
    } else {
        "exec_lo"
    };
    let srcs: Vec<&OpKind> = b.uses().map(|o| &o.kind).collect();
    let is_exec = |k: &&OpKind| matches!(k, OpKind::Phys(p) if p == exec);
    d == exec
        && match andn2 {
            true => srcs.first().is_some_and(is_exec),
            false => srcs.iter().any(is_exec),
        }
}

/// The defs of a matched instruction: each def name now has a new value, which its def
/// location holds (on the active lanes only, for a vector register: with the lanes it held
/// the name's previous value on, otherwise). `gone`: (names whose value becomes undefined,
/// locations whose value becomes unknown).
fn write(
    cx: &Ctx,
    s: &mut State,
    defs: &[(String, String, bool)],
    gone: (&[String], &[String]),
    site: Atom,
) -> Result<(), String> {
    let mut new = Vec::new();
    for (n, l, _) in defs {
        if n == "null" && l == "null" {
            continue;
        }
        if cx.vector(n) != cx.vector(l) || n == "null" || l == "null" {
            return Err(format!("def of {n} into {l}"));
        }
        let (g, v) = if cx.vector(n) {
            // Written on the active lanes: the after-file's EXEC must be the before-file's.
            let held = if s.exec_agrees() {
                merged(s, l, n)
            } else {
                Guard::none()
            };
            (held, s.valid(n).union(&Guard::of(s.cur)))
        } else {
            (Guard::All, Guard::All)
        };
        new.push((n.clone(), l.clone(), g, v));
    }
    for n in gone.0 {
        s.forget(n);
        s.valid.insert(n.clone(), Guard::none());
    }
    for l in gone.1 {
        s.set(l, Contents::new());
    }
    for (n, _, _, v) in &new {
        s.forget(n);
        s.valid.insert(n.clone(), v.clone());
    }
    for (n, l, g, _) in new {
        s.set(&l, [(n, g)].into());
    }
    if defs.iter().any(|(n, _, _)| n.starts_with("exec_")) {
        s.new_exec(site);
    }
    Ok(())
}

/// At a return, every physical register the function wrote (but SCC and VCC, which every
/// convention clobbers) must hold its own value again: the caller may read it.
fn preserved(s: &State, a: &Inst) -> Result<(), String> {
    for u in s.locs.keys() {
        let free = u == "scc" || u.starts_with("vcc_");
        if super::alloc_state::is_phys(u) && !free && !s.holds(u, u) {
            return Err(format!("{}: {u} is not restored at the return", at(a)));
        }
    }
    Ok(())
}

/// The message of a use that reads a location not holding the name the before-file reads.
fn mismatch(s: &State, a: &Inst, l: &str, n: &str) -> String {
    let held: Vec<String> = s.contents(l).keys().cloned().collect();
    if std::env::var_os("GCNSMT_ALLOC_DEBUG").is_some() {
        eprintln!(
            "alloc: {l} holds {:?}; {n} defined on {:?}; exec {:?}",
            s.contents(l),
            s.valid(n),
            s.cur
        );
    }
    format!(
        "{}: {} reads {l}, which holds {} where the before-file reads {n}",
        at(a),
        a.opcode,
        if held.is_empty() {
            "no known value".to_string()
        } else {
            held.join(", ")
        }
    )
}

/// The (destination, source) dwords of a move.
type MoveLanes = (Vec<String>, Vec<String>);

/// The (destination, source) dwords of a move: a `COPY`, or a spill save or restore.
pub fn move_lanes(cx: &Ctx, side: Side, i: &Inst) -> Option<Result<MoveLanes, String>> {
    let r = |o: &Operand| regs(cx, side, o);
    if i.opcode == "COPY" {
        let (d, u) = (i.defs.first()?, i.uses().next()?);
        return Some(r(d).and_then(|d| Ok((d, r(u)?))));
    }
    let (save, kind, n) = alloc_ops::spill(&i.opcode)?;
    let Some(slot) = alloc_ops::slot(i, kind, n) else {
        return Some(Err(format!(
            "{}: {} without a %stack slot",
            at(i),
            i.opcode
        )));
    };
    // The slot must hold the whole register: a wider spill would also write the object that
    // frame lowering places next to it (breaker8 01).
    let f = if side == Side::Before {
        cx.before
    } else {
        cx.after
    };
    let id = i.ops.iter().find_map(|o| match &o.kind {
        OpKind::Other(t) => t.strip_prefix("%stack.")?.parse::<u32>().ok(),
        _ => None,
    });
    let fits = id
        .and_then(|id| f.frame.offsets.get(&id))
        .is_some_and(|&(_, size, _)| size >= 4 * i64::from(n));
    if !fits {
        return Some(Err(format!(
            "{}: {} of {} dwords into a stack slot not declared that large",
            at(i),
            i.opcode,
            n
        )));
    }
    let reg = if save {
        i.uses().next()
    } else {
        i.defs.first()
    };
    let Some(reg) = reg else {
        return Some(Err(format!("{}: {} without a register", at(i), i.opcode)));
    };
    Some(r(reg).and_then(|x| {
        if x.len() != slot.len() {
            return Err(format!("{}: {} of {} dwords", at(i), i.opcode, x.len()));
        }
        Ok(if save { (slot, x) } else { (x, slot) })
    }))
}

/// A move only the after-file makes: each destination location gets what its source holds
/// (on the active lanes, for a vector destination); a vector-to-scalar copy (the first active
/// lane) holds nothing known.
pub fn after_move(cx: &Ctx, s: &mut State, i: &Inst, dst: &[String], src: &[String]) {
    let exec_ok = s.exec_agrees();
    // An `undef` source reads no value; an `undef` sub-register destination leaves the
    // register's other dwords undefined (MIR): both hold nothing afterwards.
    let (undef_src, undef_dst) = undef_flags(cx, Side::After, i);
    let mut new = Vec::new();
    for (l, r) in dst.iter().zip(src) {
        let c = match (cx.vector(l), cx.vector(r)) {
            _ if undef_src => Contents::new(),
            (true, _) => masked(s, l, &s.contents(r), exec_ok),
            (false, true) => Contents::new(),
            (false, false) => s.contents(r),
        };
        new.push((l.clone(), c));
    }
    for l in undef_dst {
        s.set(&l, Contents::new());
    }
    // A `COPY`'s implicit defs (`implicit-def $exec` on the copy that saves EXEC, a tuple's
    // `implicit-def` on a sub-register copy) only keep LLVM's liveness right: postrapseudos
    // expands the copy into moves of its destination alone. A spill's are clobbers.
    let marks = i.opcode == "COPY";
    for o in i.ops.iter().filter(|o| o.flags.implicit_def && !marks) {
        for l in cx.lanes(Side::After, o).ok().flatten().unwrap_or_default() {
            s.set(&l, Contents::new());
        }
    }
    for (l, c) in new {
        s.set(&l, c);
    }
}

/// Whether a `COPY`'s source is `undef`, and the dwords of its destination register an
/// `undef` sub-register def leaves undefined (the ones it does not write).
pub fn undef_flags(cx: &Ctx, side: Side, i: &Inst) -> (bool, Vec<String>) {
    if i.opcode != "COPY" {
        return (false, Vec::new());
    }
    let src = i.uses().next().is_some_and(|o| o.flags.undef);
    let Some(d) = i.defs.first().filter(|d| d.flags.undef) else {
        return (src, Vec::new());
    };
    let written = cx.lanes(side, d).ok().flatten().unwrap_or_default();
    let whole = cx.whole(side, d).unwrap_or_default();
    (
        src,
        whole.into_iter().filter(|n| !written.contains(n)).collect(),
    )
}

/// A move only the before-file makes, `dst := src` name by name: each dst name's new value
/// is held wherever the src name's is (on the active lanes, for a vector dst, together with
/// the lanes a location held the old dst value on). The dwords an `undef` sub-register def
/// leaves undefined (`undef_dst`) become undefined names: any after-value refines them.
pub fn before_move(cx: &Ctx, s: &mut State, dst: &[String], src: &[String], undef_dst: &[String]) {
    moved(cx, s, dst, src);
    for n in undef_dst {
        s.forget(n);
        s.valid.insert(n.clone(), Guard::none());
    }
}

fn moved(cx: &Ctx, s: &mut State, dst: &[String], src: &[String]) {
    let cur = s.cur;
    for (x, y) in dst.iter().zip(src) {
        if x == y {
            continue;
        }
        let vx = cx.vector(x);
        if cx.vector(y) && !vx {
            s.forget(x);
            s.valid.insert(x.clone(), Guard::All);
            continue;
        }
        if s.valid(y).is_empty() {
            // The source is undefined: so is the dst's new value on the lanes written.
            if !vx {
                s.forget(x);
                s.valid.insert(x.clone(), Guard::none());
            }
            continue;
        }
        let mut locs: Vec<String> = s.locs.keys().cloned().collect();
        locs.extend(
            [x.clone(), y.clone()]
                .into_iter()
                .filter(|n| super::alloc_state::is_phys(n)),
        );
        let mut new = Vec::new();
        for l in locs {
            let c = s.contents(&l);
            let gy = c.get(y.as_str());
            let g = if vx {
                // Written on `cur` only: `l` holds the new value where it holds `y` on `cur`
                // (and the old value's lanes it held), else on no lane it is known to.
                match gy.filter(|g| g.has(cur)) {
                    Some(_) => merged(s, &l, x),
                    None => Guard::none(),
                }
            } else {
                gy.cloned().unwrap_or_else(Guard::none)
            };
            if !g.is_empty() {
                new.push((l, g));
            }
        }
        let v = if vx {
            s.valid(x).union(&Guard::of(cur))
        } else {
            s.valid(y)
        };
        s.forget(x);
        s.valid.insert(x.clone(), v);
        for (l, g) in new {
            let mut c = s.contents(&l);
            c.insert(x.clone(), g);
            s.set(&l, c);
        }
    }
}

/// The facts a before-instruction writing constant `key` adds to the constant's
/// pseudo-locations ([`konst`]): each def name equals the constant on the lanes written (a
/// vector name: on the current EXEC, with the lanes on which it equalled it before, as for any
/// location by [`merged`]; a scalar name: on every lane). Taken before the write, which makes
/// the names forget their old facts.
pub fn konst_facts(cx: &Ctx, s: &State, key: &str, b: &Inst) -> Vec<(String, String, Guard)> {
    let Some(Ok(Some(names))) = b.defs.first().map(|d| cx.lanes(Side::Before, d)) else {
        return Vec::new();
    };
    names
        .into_iter()
        .enumerate()
        .map(|(k, n)| {
            let l = konst(key, k);
            let g = if cx.vector(&n) {
                merged(s, &l, &n)
            } else {
                Guard::All
            };
            (l, n, g)
        })
        .collect()
}

/// Add facts made by [`konst_facts`] after the write.
pub fn add_konst(s: &mut State, facts: Vec<(String, String, Guard)>) {
    for (l, n, g) in facts {
        let mut c = s.contents(&l);
        c.insert(n, g);
        s.set(&l, c);
    }
}

/// A rematerialised definition only the after-file makes: `dst` gets the values of `names`
/// (virtual registers every definition of which is this same instruction, `key`) and of the
/// names the constant's pseudo-locations hold (equal to the constant on some lanes: copies of
/// such registers, also where the copy's register has other definitions elsewhere).
pub fn remat(cx: &Ctx, s: &mut State, key: &str, dst: &[String], names: &[Vec<String>]) {
    let exec_ok = s.exec_agrees();
    for (k, l) in dst.iter().enumerate() {
        let mut from: Contents = s.contents(&konst(key, k));
        from.extend(
            names
                .iter()
                .filter_map(|v| v.get(k))
                .map(|n| (n.clone(), Guard::All)),
        );
        let c = if cx.vector(l) {
            masked(s, l, &from, exec_ok)
        } else {
            from
        };
        s.set(l, c);
    }
}
