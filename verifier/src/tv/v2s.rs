//! The meaning of a VGPR-to-SGPR `COPY` before `si-fix-sgpr-copies` (issue 28), the setting
//! `vgpr_to_sgpr_copy=PER_LANE|FIRST_LANE`, and the function rewrite that lets the block
//! checks compare what that pass does under LLVM's meaning (docs/tv.md, "VGPR-to-SGPR copies:
//! the per-lane meaning").
//!
//! LLVM's meaning (PER_LANE, the default): instruction selection leaves `%46:sreg_32 = COPY
//! $vgpr0` in the MIR although no instruction can copy a VGPR into an SGPR; the copy is illegal
//! MIR that si-fix-sgpr-copies legalises (SIFixSGPRCopies.cpp: "Copies from VGPR to SGPR
//! registers are illegal"; `lowerVGPR2SGPRCopies` either moves the copy and the SALU chain that
//! reads it to the VALU, `moveToVALU`, or, when its cost score says so, replaces the copy by
//! `V_READFIRSTLANE_B32`, which is right only for a value uniform across the wave). So the
//! copy's value is the source's own value in each lane. FIRST_LANE is tv's older reading
//! (the copy is `v_readfirstlane`), kept for comparison.
//!
//! The rewrite ([`legalise`], PER_LANE only), per function pair:
//! - **Renaming.** `moveToVALU` gives each moved result a new virtual register and replaces
//!   the old one everywhere (`%46` becomes `%102`). Each block's before-definitions of
//!   registers the after-function never names are paired, in order, with the after-function's
//!   new registers defined in the same block (same width, a compatible definition), and the
//!   after-function's `%102` is renamed `%46`. A renaming of the after-function onto names it
//!   does not use is the same program, so any pairing is sound; a bad one only fails checks.
//! - **Per-lane values.** A paired before-register whose value derives from a VGPR through
//!   copies and SALU ops (the chain the pass moves) is per-lane under PER_LANE: it gets the
//!   after-register's VGPR class, and its SALU definition becomes the VALU op that computes
//!   the same function of each lane's operands ([`valu_of`], from AMD's pseudocode; each entry
//!   is checked by `tests/tv_v2s.rs`). Only where every before-reader of it can read a VGPR
//!   (VALU ops, copies, REG_SEQUENCE, PHIs, SALU ops rewritten the same way): a scalar reader
//!   (a scalar load's address, a branch) keeps it scalar.
//! - **What stays a copy.** A VGPR-to-SGPR copy left (the pass made it `V_READFIRSTLANE_B32`)
//!   is each lane's value under PER_LANE, which a scalar register holds only when the value is
//!   uniform: lowered as lane L's value when it is uniform by construction, else `unsupported`
//!   (`firstlane.rs`), never compared with the after-side's first lane.
//! - **`COPY $scc`** into a lane mask is `S_CSELECT_B64 -1, 0` (`S_CSELECT_B32` for a 32-bit
//!   mask): what `fixSCCCopies` defines it as.

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, Inst, MirFile, OpFlags, OpKind, Operand};
use std::collections::{BTreeMap, BTreeSet};

/// The setting's name.
pub const SETTING: &str = "vgpr_to_sgpr_copy";

/// Appended to the comparison text of every instruction the rewrite touched (`MARK` in the
/// before-function, `RENAMED` in the after-function), so a block the pass changed is still
/// checked by the solver, not taken as unchanged after the rewrite.
const MARK: &str = " ;per-lane";
const RENAMED: &str = " ;renamed";

/// The pass whose input (ISel's output) has VGPR-to-SGPR copies to legalise: only in its
/// pair does PER_LANE apply (`tv --pass si-fix-sgpr-copies`, or its step of `--pipeline`).
pub const PASS: &str = "si-fix-sgpr-copies";

/// The options of a pair that is not si-fix-sgpr-copies's, or whose pass is not named: a
/// VGPR-to-SGPR copy there is read after that pass, as the first active lane's value
/// (`V_READFIRSTLANE_B32`), whatever `--set` says.
pub fn outside(opts: &crate::check::Options) -> crate::check::Options {
    let mut o = opts.clone();
    o.settings.retain(|(n, _)| n != SETTING);
    o.settings.push((SETTING.into(), "FIRST_LANE".into()));
    o
}

/// The options of a pair of pass `pass` (`None`: not named): [`outside`] unless it is [`PASS`].
pub fn for_pass(opts: &crate::check::Options, pass: Option<&str>) -> crate::check::Options {
    match pass == Some(PASS) {
        true => opts.clone(),
        false => outside(opts),
    }
}

/// The passes `tv --pass PASS BEFORE.mir AFTER.mir` names: si-insert-waitcnts (its contract is
/// checked, `wait_pass.rs`) and si-fix-sgpr-copies (PER_LANE applies).
pub fn takes_two_files(pass: &str) -> bool {
    pass == super::wait_pass::PASS || pass == PASS
}

/// Whether `settings` (`--set` pairs) give VGPR-to-SGPR copies LLVM's per-lane meaning.
pub fn per_lane(settings: &[(String, String)]) -> bool {
    !settings
        .iter()
        .any(|(n, v)| n == SETTING && v.eq_ignore_ascii_case("FIRST_LANE"))
}

/// The settings the machine model takes (all but this one), or an error for a bad value.
pub fn machine_settings(settings: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    for (n, v) in settings.iter().filter(|(n, _)| n == SETTING) {
        if !["PER_LANE", "FIRST_LANE"].contains(&v.to_ascii_uppercase().as_str()) {
            return Err(format!(
                "error: --set {n}={v}: the values are PER_LANE and FIRST_LANE"
            ));
        }
    }
    Ok(settings
        .iter()
        .filter(|(n, _)| n != SETTING)
        .cloned()
        .collect())
}

/// The VALU op computing in each lane what SALU op `op` computes from scalars: the opcode,
/// the order of the two sources (`true`: swapped) and the operands it adds (a shift amount
/// after the first source, a clamp bit at the end).
pub fn valu_of(op: &str) -> Option<(&'static str, bool, Option<i64>, Option<i64>)> {
    Some(match op {
        // S_ADD_I32: D = S0 + S1 (its SCC is the signed overflow). Not S_SUB_I32: tv's
        // lowering does not model it, so `tests/tv_v2s.rs` cannot check its entry.
        "S_ADD_I32" => ("V_ADD_U32_e64", false, None, Some(0)),
        // S_MUL_I32: the low 32 bits of S0 * S1, as V_MUL_LO_U32.
        "S_MUL_I32" => ("V_MUL_LO_U32_e64", false, None, None),
        // S_LSHL_B32: D = S0 << S1[4:0]; V_LSHLREV_B32: D = S1 << S0[4:0].
        "S_LSHL_B32" => ("V_LSHLREV_B32_e64", true, None, None),
        "S_LSHR_B32" => ("V_LSHRREV_B32_e64", true, None, None),
        "S_ASHR_I32" => ("V_ASHRREV_I32_e64", true, None, None),
        "S_AND_B32" => ("V_AND_B32_e64", false, None, None),
        "S_OR_B32" => ("V_OR_B32_e64", false, None, None),
        "S_XOR_B32" => ("V_XOR_B32_e64", false, None, None),
        // S_LSHLn_ADD_U32: D = (S0 << n) + S1; V_LSHL_ADD_U32: D = (S0 << S1[4:0]) + S2.
        "S_LSHL1_ADD_U32" => ("V_LSHL_ADD_U32_e64", false, Some(1), None),
        "S_LSHL2_ADD_U32" => ("V_LSHL_ADD_U32_e64", false, Some(2), None),
        "S_LSHL3_ADD_U32" => ("V_LSHL_ADD_U32_e64", false, Some(3), None),
        "S_LSHL4_ADD_U32" => ("V_LSHL_ADD_U32_e64", false, Some(4), None),
        _ => return None,
    })
}

/// The vregs an instruction names (defs and uses).
fn named(i: &Inst) -> impl Iterator<Item = u32> + '_ {
    i.defs.iter().chain(&i.ops).filter_map(|o| match o.kind {
        OpKind::VReg { id, .. } => Some(id),
        _ => None,
    })
}

/// The single whole-register def of `i`.
fn def_of(i: &Inst) -> Option<u32> {
    match i.defs.as_slice() {
        [Operand {
            kind: OpKind::VReg { id, sub: None },
            ..
        }] => Some(*id),
        _ => None,
    }
}

fn bank(f: &Function, id: u32) -> char {
    f.classes.get(&id).map_or('?', |c| class_bank(c))
}

fn dwords(f: &Function, id: u32) -> Option<u32> {
    f.classes.get(&id).and_then(|c| class_dwords(c))
}

/// The SALU op's sources and its SCC def, when the op is one `valu_of` translates and its SCC
/// result is dead (a per-lane op has no scalar carry).
fn salu_sources(i: &Inst) -> Option<(Operand, Operand)> {
    valu_of(&i.opcode)?;
    let explicit: Vec<&Operand> = i
        .ops
        .iter()
        .filter(|o| !o.flags.implicit && !o.flags.implicit_def)
        .collect();
    let [a, b] = explicit.as_slice() else {
        return None;
    };
    let scc_live = i.ops.iter().any(|o| {
        o.flags.implicit_def && matches!(&o.kind, OpKind::Phys(p) if p == "scc") && !o.flags.dead
    });
    (!scc_live).then(|| ((*a).clone(), (*b).clone()))
}

/// Whether the after-definition `y` may stand for the before-definition `x` (a heuristic: a
/// wrong pairing fails checks, it proves nothing false).
fn compatible(x: &Inst, y: &Inst, back: &BTreeMap<u32, u32>) -> bool {
    let src = |i: &Inst| {
        i.ops.first().map(|o| match &o.kind {
            OpKind::VReg { id, sub } => OpKind::VReg {
                id: back.get(id).copied().unwrap_or(*id),
                sub: sub.clone(),
            },
            k => k.clone(),
        })
    };
    match (x.opcode.as_str(), y.opcode.as_str()) {
        ("COPY", "COPY") => src(x) == src(y),
        (op, v) if valu_of(op).is_some_and(|t| t.0 == v) => true,
        (a, b) => a == b,
    }
}

/// Pair the before-definitions the after-function lost with its new ones, block by block
/// (after-id -> before-id).
fn pairing(fb: &Function, fa: &Function) -> BTreeMap<u32, u32> {
    let used = |f: &Function| -> BTreeSet<u32> {
        f.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .flat_map(named)
            .collect()
    };
    let (ub, ua) = (used(fb), used(fa));
    let mut back: BTreeMap<u32, u32> = BTreeMap::new();
    for bb in &fb.blocks {
        let Some(ba) = fa.blocks.iter().find(|b| b.num == bb.num) else {
            continue;
        };
        let mut lost: Vec<(&Inst, u32)> = bb
            .insts
            .iter()
            .filter_map(|i| def_of(i).map(|x| (i, x)))
            .filter(|(_, x)| !ua.contains(x) && bank(fb, *x) == 's')
            .collect();
        for y_inst in &ba.insts {
            let Some(y) = def_of(y_inst).filter(|y| !ub.contains(y) && bank(fa, *y) == 'v') else {
                continue;
            };
            let at = lost.iter().position(|(xi, x)| {
                dwords(fb, *x).is_some()
                    && dwords(fb, *x) == dwords(fa, y)
                    && compatible(xi, y_inst, &back)
            });
            if let Some(at) = at {
                back.insert(y, lost.remove(at).1);
            }
        }
    }
    back
}

/// The before-registers whose value derives through copies, REG_SEQUENCE, PHIs and SALU ops
/// from a VGPR-to-SGPR copy si-fix-sgpr-copies certainly moves to the VALU
/// (`v2s_score::certain_valu`): per-lane under PER_LANE. Another copy from a VGPR starts no
/// chain: it stays a copy (uniform or unsupported, `firstlane.rs`).
fn per_lane_regs(fb: &Function) -> BTreeSet<u32> {
    let mut c: BTreeSet<u32> = super::v2s_score::certain_valu(fb);
    loop {
        let n = c.len();
        for i in fb.blocks.iter().flat_map(|b| &b.insts) {
            let Some(x) = def_of(i).filter(|x| bank(fb, *x) == 's') else {
                continue;
            };
            let lifts = matches!(i.opcode.as_str(), "COPY" | "REG_SEQUENCE" | "PHI")
                || valu_of(&i.opcode).is_some();
            let reads_lane = i
                .ops
                .iter()
                .any(|o| matches!(&o.kind, OpKind::VReg { id, .. } if c.contains(id)));
            if lifts && reads_lane {
                c.insert(x);
            }
        }
        if c.len() == n {
            return c;
        }
    }
}

/// The VGPR class of `x`'s width (what a moved register without an after-partner becomes).
fn vgpr_class(f: &Function, x: u32) -> Option<String> {
    let c = match dwords(f, x)? {
        1 => "vgpr_32",
        n @ 2..=4 => return Some(format!("vreg_{}", 32 * n)),
        _ => return None,
    };
    Some(c.to_string())
}

/// Whether before-instruction `r` may read the reclassed (VGPR) registers `moved`.
fn reads_vgpr_ok(f: &Function, r: &Inst, moved: &BTreeSet<u32>) -> bool {
    let op = r.opcode.as_str();
    let vector_def = def_of(r).is_some_and(|d| moved.contains(&d) || bank(f, d) != 's');
    match op {
        // A copy into an SGPR is a VGPR-to-SGPR copy, per lane under PER_LANE.
        "COPY" => true,
        "REG_SEQUENCE" | "PHI" => vector_def,
        _ if op.starts_with("V_READ") || op.starts_with("V_WRITELANE") => false,
        _ if op.starts_with("V_") => true,
        _ => valu_of(op).is_some() && def_of(r).is_some_and(|d| moved.contains(&d)),
    }
}

/// Whether `opts` ask for PER_LANE, the options without this setting, and the rewritten pair
/// ([`legalise`]) if any.
pub fn split(
    opts: &crate::check::Options,
    before: &MirFile,
    after: &MirFile,
) -> Result<Split, String> {
    let settings = machine_settings(&opts.settings)?;
    let per_lane = per_lane(&opts.settings);
    let opts = crate::check::Options {
        settings,
        ..opts.clone()
    };
    Ok((per_lane, opts, legalise(before, after, per_lane)))
}

/// What [`split`] gives.
pub type Split = (bool, crate::check::Options, Option<(MirFile, MirFile)>);

/// The function pair under PER_LANE (see the module documentation); `None` if nothing changes
/// or under FIRST_LANE.
pub fn legalise(before: &MirFile, after: &MirFile, per_lane: bool) -> Option<(MirFile, MirFile)> {
    if !per_lane {
        return None;
    }
    let (mut b, mut a) = (before.clone(), after.clone());
    let mut any = false;
    for fb in &mut b.functions {
        let Some(fa) = a.functions.iter_mut().find(|g| g.name == fb.name) else {
            continue;
        };
        any |= scc_copies(fb) | scc_copies(fa);
        any |= phi_copies(fb, fa);
        any |= legalise_fn(fb, fa);
    }
    any.then_some((b, a))
}

fn legalise_fn(fb: &mut Function, fa: &mut Function) -> bool {
    let back = pairing(fb, fa);
    let lanes = per_lane_regs(fb);
    let def_inst = |id: u32| {
        fb.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find(|i| def_of(i) == Some(id))
    };
    // The before-registers that become VGPRs, pruned to a fixpoint: each defined by a copy,
    // REG_SEQUENCE, PHI or a translatable SALU op, every reader able to read a VGPR.
    let used_after: BTreeSet<u32> = fa
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .flat_map(named)
        .collect();
    let mut moved: BTreeSet<u32> = lanes
        .iter()
        .copied()
        .filter(|x| !used_after.contains(x) || bank(fa, *x) == 'v')
        .filter(|x| vgpr_class(fb, *x).is_some())
        .filter(|x| {
            def_inst(*x).is_some_and(|i| {
                matches!(i.opcode.as_str(), "COPY" | "REG_SEQUENCE" | "PHI")
                    || salu_sources(i).is_some()
            })
        })
        .collect();
    loop {
        let keep: BTreeSet<u32> = moved
            .iter()
            .copied()
            .filter(|x| {
                fb.blocks
                    .iter()
                    .flat_map(|b| &b.insts)
                    .filter(|r| {
                        r.ops
                            .iter()
                            .any(|o| matches!(o.kind, OpKind::VReg { id, .. } if id == *x))
                    })
                    .all(|r| reads_vgpr_ok(fb, r, &moved))
            })
            .collect();
        if keep.len() == moved.len() {
            break;
        }
        moved = keep;
    }
    if moved.is_empty() {
        return false;
    }
    // after-id -> before-id for the moved registers only; the others keep their names.
    let ren: BTreeMap<u32, u32> = back
        .into_iter()
        .filter(|(_, x)| moved.contains(x))
        .collect();
    for x in &moved {
        // The after-function's own class where it kept the name (a PHI it re-classed).
        let kept = used_after
            .contains(x)
            .then(|| fa.classes.get(x).cloned())
            .flatten();
        if let Some(c) = kept.or_else(|| vgpr_class(fb, *x)) {
            // The after-function keeps the old class of a name it no longer uses.
            fa.classes.insert(*x, c.clone());
            fb.classes.insert(*x, c);
        }
    }
    for (y, x) in &ren {
        if let Some(c) = fa.classes.remove(y) {
            fb.classes.insert(*x, c.clone());
            fa.classes.insert(*x, c);
        }
    }
    for i in fa.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        rename(i, &ren);
    }
    for i in fb.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        let Some(x) = def_of(i).filter(|x| moved.contains(x)) else {
            continue;
        };
        let cls = fb.classes.get(&x).cloned().unwrap_or_default();
        match salu_sources(i) {
            Some((s0, s1)) => translate(i, x, &cls, (s0, s1)),
            None => i.key = retag(&i.key, x, &cls) + MARK,
        }
    }
    true
}

/// Rename the vregs of `i` by `ren` (operands and comparison text).
fn rename(i: &mut Inst, ren: &BTreeMap<u32, u32>) {
    let mut hit = false;
    for o in i.defs.iter_mut().chain(i.ops.iter_mut()) {
        if let OpKind::VReg { id, .. } = &mut o.kind {
            if let Some(x) = ren.get(id) {
                *id = *x;
                hit = true;
            }
        }
    }
    if hit {
        let re = regex::Regex::new(r"%(\d+)\b").expect("valid regex");
        i.key = re
            .replace_all(&i.key, |c: &regex::Captures| {
                let id: u32 = c[1].parse().unwrap_or(u32::MAX);
                format!("%{}", ren.get(&id).copied().unwrap_or(id))
            })
            .into_owned()
            + RENAMED;
    }
}

/// The comparison text with `%x`'s class annotation replaced by `cls`.
fn retag(key: &str, x: u32, cls: &str) -> String {
    let re = regex::Regex::new(&format!(r"%{x}:[A-Za-z0-9_]+")).expect("valid regex");
    re.replace(key, format!("%{x}:{cls}").as_str()).into_owned()
}

fn text(o: &Operand) -> String {
    match &o.kind {
        OpKind::VReg { id, sub: Some(s) } => format!("%{id}.{s}"),
        OpKind::VReg { id, sub: None } => format!("%{id}"),
        OpKind::Phys(p) => format!("${p}"),
        OpKind::Imm(v) => v.to_string(),
        OpKind::SubIdx(s) => format!("%subreg.{s}"),
        OpKind::Other(s) => s.clone(),
    }
}

fn imm(v: i64, like: &Operand) -> Operand {
    Operand {
        kind: OpKind::Imm(v),
        flags: OpFlags::default(),
        loc: like.loc,
    }
}

/// Rewrite SALU `i` into its per-lane VALU op (`valu_of`), as `moveToVALU` prints it.
fn translate(i: &mut Inst, x: u32, cls: &str, (s0, s1): (Operand, Operand)) {
    let Some((op, swap, shift, clamp)) = valu_of(&i.opcode) else {
        return;
    };
    let clean = |o: &Operand| Operand {
        flags: OpFlags::default(),
        ..o.clone()
    };
    let (s0, s1) = if swap {
        (clean(&s1), clean(&s0))
    } else {
        (clean(&s0), clean(&s1))
    };
    let mut ops = vec![s0.clone()];
    ops.extend(shift.map(|n| imm(n, &s0)));
    ops.push(s1);
    ops.extend(clamp.map(|n| imm(n, &s0)));
    let listed: Vec<String> = ops.iter().map(text).collect();
    let exec = Operand {
        kind: OpKind::Phys("exec".into()),
        flags: OpFlags {
            implicit: true,
            ..OpFlags::default()
        },
        loc: i.loc,
    };
    ops.push(exec);
    i.key = format!(
        "%{x}:{cls} = {op} {}, implicit $exec{MARK}",
        listed.join(", ")
    );
    i.opcode = op.to_string();
    i.ops = ops;
}

/// `%x = COPY $scc` into a lane mask (1 or 2 dwords): `S_CSELECT_B32/B64 -1, 0, implicit
/// $scc`, what `fixSCCCopies` makes of it.
fn scc_copies(f: &mut Function) -> bool {
    let mut any = false;
    let classes = f.classes.clone();
    for i in f.blocks.iter_mut().flat_map(|b| &mut b.insts) {
        let from_scc = i.opcode == "COPY"
            && matches!(i.ops.as_slice(), [o] if matches!(&o.kind, OpKind::Phys(p) if p == "scc"));
        let Some(x) = def_of(i).filter(|_| from_scc) else {
            continue;
        };
        let Some(cls) = classes.get(&x).filter(|c| class_bank(c) == 's') else {
            continue;
        };
        let op = match class_dwords(cls) {
            Some(1) => "S_CSELECT_B32",
            Some(2) => "S_CSELECT_B64",
            _ => continue,
        };
        let scc = Operand {
            flags: OpFlags {
                implicit: true,
                ..OpFlags::default()
            },
            ..i.ops[0].clone()
        };
        i.ops = vec![imm(-1, &scc), imm(0, &scc), scc];
        i.opcode = op.to_string();
        i.key = format!("%{x}:{cls} = {op} -1, 0, implicit $scc{MARK}");
        any = true;
    }
    any
}

/// A VGPR PHI's SGPR input `%s` from block `k` is each lane's value when it took the edge
/// (PER_LANE): where the after-function reads `%n` there instead, defined in `k` by `%n = COPY
/// %s[, implicit $exec]` (`processPHINode` legalising the PHI: a lane that left a loop early
/// keeps the value of its own last iteration), the before-function gets that copy at the end
/// of `k` and the PHI reads `%n`. The copy runs in each lane that runs `k`, so at the edge it
/// holds what that lane saw of `%s`, which is the PHI's per-lane input. For a VGPR or AV `%s`
/// (the pass legalises `av_32` inputs the same way) the copy holds `%s`'s own per-lane value.
fn phi_copies(fb: &mut Function, fa: &Function) -> bool {
    let used: BTreeSet<u32> = fb
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .flat_map(named)
        .collect();
    let mut adds: Vec<(u32, Inst, u32)> = Vec::new(); // (block k, copy, new id)
                                                      // (block, inst, op, (new id, incoming block))
    let mut edits: Vec<(u32, usize, usize, (u32, u32))> = Vec::new();
    for bb in &fb.blocks {
        let Some(ba) = fa.blocks.iter().find(|b| b.num == bb.num) else {
            continue;
        };
        for (n, i) in bb
            .insts
            .iter()
            .enumerate()
            .filter(|(_, i)| i.opcode == "PHI")
        {
            let Some(x) = def_of(i).filter(|x| bank(fb, *x) != 's') else {
                continue;
            };
            let Some(j) = ba
                .insts
                .iter()
                .find(|j| j.opcode == "PHI" && def_of(j) == Some(x))
            else {
                continue;
            };
            if j.ops.len() != i.ops.len() {
                continue;
            }
            for m in (0..i.ops.len()).step_by(2) {
                let (OpKind::VReg { id: s, sub: None }, OpKind::VReg { id: nid, sub: None }) =
                    (&i.ops[m].kind, &j.ops[m].kind)
                else {
                    continue;
                };
                let Some(OpKind::Other(k)) = i.ops.get(m + 1).map(|o| o.kind.clone()) else {
                    continue;
                };
                let Some(k) = k.strip_prefix("%bb.").and_then(|k| k.parse::<u32>().ok()) else {
                    continue;
                };
                if s == nid || used.contains(nid) || bank(fa, *nid) == 's' {
                    continue;
                }
                let copy = fa
                    .blocks
                    .iter()
                    .find(|b| b.num == k)
                    .and_then(|b| b.insts.iter().find(|c| def_of(c) == Some(*nid)))
                    .filter(|c| {
                        c.opcode == "COPY"
                            && c.ops.first().map(|o| &o.kind)
                                == Some(&OpKind::VReg { id: *s, sub: None })
                            && c.ops[1..].iter().all(|o| {
                                o.flags.implicit
                                    && matches!(&o.kind, OpKind::Phys(p) if p == "exec")
                            })
                    });
                if let Some(c) = copy {
                    adds.push((k, c.clone(), *nid));
                    edits.push((bb.num, n, m, (*nid, k)));
                }
            }
        }
    }
    for (k, mut c, nid) in adds.clone() {
        c.key.push_str(MARK);
        if let Some(cls) = fa.classes.get(&nid) {
            fb.classes.insert(nid, cls.clone());
        }
        if let Some(b) = fb.blocks.iter_mut().find(|b| b.num == k) {
            let at = b
                .insts
                .iter()
                .position(|t| super::effects::is_terminator(&t.opcode))
                .unwrap_or(b.insts.len());
            b.insts.insert(at, c);
        }
    }
    for (num, n, m, (nid, k)) in &edits {
        let Some(b) = fb.blocks.iter_mut().find(|b| b.num == *num) else {
            continue;
        };
        // The block gained no instruction before its PHIs (copies go before terminators).
        let i = &mut b.insts[*n];
        if let OpKind::VReg { id, .. } = &mut i.ops[*m].kind {
            let old = *id;
            *id = *nid;
            let re = regex::Regex::new(&format!(r"%{old}, %bb\.{k}\b")).expect("valid regex");
            let (head, tail) = i.key.split_once(" = ").unwrap_or(("", &i.key));
            let tail = re.replace(tail, format!("%{nid}, %bb.{k}").as_str());
            i.key = format!("{head} = {tail}{MARK}");
        }
    }
    !edits.is_empty()
}
