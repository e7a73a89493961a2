//! DPP (`V_MOV_B32_dpp` and the `_dpp` forms of the VOP1/VOP2 integer ops) in the one-lane
//! check (docs/tv.md, "DPP").
//!
//! Lane L's DPP instruction reads its DPP source in another lane S = f(DPP_CTRL, L). The
//! lowering recomputes the source for lane S: the block's instructions that make it (copies,
//! lane-local ALU ops, LDS and global loads) again, with every VGPR renamed to lane S's copy
//! (`%r<id + (2 + ctrl) * SHADOW>_k`, `%dpp_v<ctrl>_<n>` for `$vgpr<n>`); SGPRs, M0 and memory
//! are shared. Lane S's live-in VGPRs are inputs both sides share (one copy per DPP_CTRL: the
//! same control reads the same lane on both sides), replaced by lane L's value where S = L.
//! Whether lane S is active, and what an inactive lane S gives, are inputs too
//! (`%dpp_e<ctrl>`, `%dpp_x<ctrl>_<reg>`), so a proof holds whatever they are; a refutation
//! that needs an inactive lane S, or two controls, is rechecked or reported `unknown`
//! (`cmd.rs`). The semantics of the steps are `semantics/pcode/dpp.pcode`.

use super::emit::{self, Side};
use super::firstlane::{self, SHADOW};
use super::mir::{Inst, OpKind, Operand};
use super::opcodes::{self, MirOp};
use gcnsmt_lifter::GlobalKind;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::{BTreeMap, BTreeSet};

/// Prefix of the DPP model's rule variables (flags, temporaries, lane S's state).
pub const PREFIX: &str = "dpp_";

/// The VOP1/VOP2 ops whose `_dpp` form is modelled: integer ops without source modifiers.
const OPS: &[&str] = &[
    "V_MOV_B32",
    "V_ADD_U32",
    "V_SUB_U32",
    "V_SUBREV_U32",
    "V_AND_B32",
    "V_OR_B32",
    "V_XOR_B32",
    "V_LSHLREV_B32",
    "V_LSHRREV_B32",
    "V_ASHRREV_I32",
];

/// Whether `op` is a DPP instruction (`V_ADD_U32_dpp`, `V_MOV_B32_dpp`, `V_MOV_B64_dpp`...).
pub fn is_dpp(op: &str) -> bool {
    op.ends_with("_dpp") || op.contains("_dpp_") || op.ends_with("_dpp8") || op.contains("DPP")
}

/// The offset of lane S's copy of virtual register ids for control `ctrl`.
pub fn offset(ctrl: u32) -> u32 {
    (2 + ctrl) * SHADOW
}

/// A shadow register id back as (MIR id, control), for counterexamples.
pub fn unshadow(id: u32) -> Option<(u32, u32)> {
    (id >= 2 * SHADOW).then(|| (id % SHADOW, id / SHADOW - 2))
}

/// The assembly spelling of a DPP control (`quad_perm:[1,0,0,0]`, `row_shl:1`), for messages.
pub fn ctrl_name(c: u32) -> String {
    let k = c & 15;
    match c {
        0..=0xff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{k}"),
        0x111..=0x11f => format!("row_shr:{k}"),
        0x121..=0x12f => format!("row_ror:{k}"),
        0x130 => "wave_shl:1".into(),
        0x134 => "wave_rol:1".into(),
        0x138 => "wave_shr:1".into(),
        0x13c => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 => "row_bcast:15".into(),
        0x143 => "row_bcast:31".into(),
        0x150..=0x15f => format!("row_share:{k}"),
        0x160..=0x16f => format!("row_xmask:{k}"),
        _ => format!("dpp_ctrl {c:#x}"),
    }
}

/// Whether the target has DPP control `c` (AMD CDNA4 guide Table 94; RDNA guides: gfx10+
/// dropped the wave shifts/rotates and row broadcasts and added row_share/row_xmask; gfx90a
/// has row_newbcast, 0x150-0x15F, which reads the lanes row_share names). llc-22's machine
/// verifier rejects row_share before gfx90a/gfx10.
fn ctrl_valid(c: u32, target: Target) -> bool {
    let g = target.gen();
    let row = |base: u32| (base + 1..=base + 15).contains(&c);
    let common = c <= 0xff || row(0x100) || row(0x110) || row(0x120) || c == 0x140 || c == 0x141;
    match g {
        Gen::Gfx8 | Gen::Gfx9 => {
            common || matches!(c, 0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143)
        }
        Gen::Gfx90a => {
            common
                || matches!(c, 0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143)
                || (0x150..=0x15f).contains(&c)
        }
        _ if g >= Gen::Gfx10 => common || (0x150..=0x16f).contains(&c),
        _ => false,
    }
}

/// One DPP instruction's operands.
struct Dpp<'a> {
    base: &'a str,
    old: &'a Operand,
    src0: &'a Operand,
    src1: Option<&'a Operand>,
    ctrl: u32,
    word: u32,
}

fn imm(o: Option<&&Operand>, what: &str) -> Result<i64, String> {
    match o.map(|o| &o.kind) {
        Some(OpKind::Imm(v)) => Ok(*v),
        _ => Err(format!("expected the {what} immediate")),
    }
}

fn parse(i: &Inst, target: Target) -> Result<Dpp<'_>, String> {
    let base = i
        .opcode
        .strip_suffix("_dpp")
        .filter(|b| OPS.contains(b))
        .ok_or("this DPP opcode is not modelled")?;
    let u: Vec<&Operand> = i.uses().collect();
    let n = if base == "V_MOV_B32" { 2 } else { 3 };
    if u.len() != n + 4 || i.defs.len() != 1 {
        return Err(format!("expected {} operands", n + 4));
    }
    let ctrl = u32::try_from(imm(u.get(n), "dpp_ctrl")?).map_err(|_| "bad dpp_ctrl")?;
    let (rm, bm) = (
        imm(u.get(n + 1), "row_mask")?,
        imm(u.get(n + 2), "bank_mask")?,
    );
    let bc = imm(u.get(n + 3), "bound_ctrl")?;
    if !(0..16).contains(&rm) || !(0..16).contains(&bm) {
        return Err("row_mask and bank_mask are 4-bit fields".into());
    }
    // gfx10+ is checked as wave32 (lanes 0-31), but a function may run as wave64 (tv does not
    // read `+wavefrontsize64`): rows 2-3 then behave as rows 0-1 only when their ROW_MASK bits
    // agree (every gfx10+ control stays within its row).
    if target.gen() >= Gen::Gfx10 && rm >> 2 != rm & 3 {
        return Err(
            "a row_mask whose rows 2-3 differ from rows 0-1 (wave64) is not modelled".into(),
        );
    }
    if !ctrl_valid(ctrl, target) {
        return Err(format!("{} does not exist on {target}", ctrl_name(ctrl)));
    }
    // LLVM prints an `i1 true` bound_ctrl as -1 and the combined one as 1: the BC bit is set
    // either way (checked with llc-22 -show-mc-encoding: both encode bit 19 of the DPP dword).
    let word = ctrl | (rm as u32) << 9 | (bm as u32) << 13 | u32::from(bc != 0) << 17;
    Ok(Dpp {
        base,
        old: u[0],
        src0: u[1],
        src1: (n == 3).then(|| u[2]),
        ctrl,
        word,
    })
}

/// Whether the hardware applies the swizzle to src1 instead of src0: the REV subtract always,
/// the REV shifts before gfx11 (llvm/llvm-project#216835: "The REV subtractions have always
/// worked this way, and the REV shift operands worked this way before GFX11"; the review
/// reports `v_subrev_f32`/`f16` unaffected).
fn swizzles_src1(base: &str, target: Target) -> bool {
    base == "V_SUBREV_U32"
        || (matches!(base, "V_LSHLREV_B32" | "V_LSHRREV_B32" | "V_ASHRREV_I32")
            && target.gen() < Gen::Gfx11)
}

/// A load whose value lane S gets by running it at lane S's address: LDS reads and GLOBAL
/// loads (not the lane-id or transposing forms, not LDS DMA).
fn lane_load(i: &Inst, target: Target) -> bool {
    match opcodes::lookup(target, &i.opcode) {
        Some(MirOp::Ds { mnemonic, shape }) => {
            (mnemonic.starts_with("ds_read") || mnemonic.starts_with("ds_load"))
                && shape.data0 == 0
                && shape.data1 == 0
                && !mnemonic.contains("addtid")
                && !mnemonic.contains("_tr")
        }
        Some(MirOp::Global { op, .. }) => op.kind == GlobalKind::Load,
        _ => false,
    }
}

/// Whether `i` may write memory: anything but a copy, a pure ALU op or a lane load.
fn writes_memory(i: &Inst, target: Target) -> bool {
    !(super::lower::is_pure(&i.opcode, target)
        || matches!(i.opcode.as_str(), "IMPLICIT_DEF" | "KILL")
        || lane_load(i, target))
}

/// What lane S's recomputation of one DPP source needs at the block's start: lane S's live-in
/// VGPRs, as (shadow rule variable, lane L's variable).
pub type LiveIns = BTreeSet<(String, String)>;

/// The rule lines for DPP instruction `i` at index `at` of its side. `live` collects lane S's
/// live-in VGPRs per control for [`prologue`].
pub fn lower(
    side: &Side,
    i: &Inst,
    at: usize,
    target: Target,
    live: &mut BTreeMap<u32, LiveIns>,
) -> Result<Vec<String>, String> {
    let d = parse(i, target)?;
    if side.block.insts.iter().any(super::exec::writes_exec) {
        return Err("reads another lane while the block changes EXEC".into());
    }
    let on1 = d.src1.is_some() && swizzles_src1(d.base, target);
    let (moved, other) = match (on1, d.src1) {
        (true, Some(s1)) => (s1, Some(d.src0)),
        _ => (d.src0, d.src1),
    };
    let OpKind::VReg { id: sid, sub: None } = moved.kind else {
        return Err("the DPP source is not a whole virtual VGPR".into());
    };
    let (mut out, s_val) = shadow(side, sid, at, d.ctrl, target, live)?;
    let tag = format!("{}_{}", i.loc.line, i.loc.col);
    let flags = format!("%{PREFIX}f{tag}");
    out.push(format!(
        "v_dpp_flags_b32 {flags}, %{PREFIX}e{}, {:#x}",
        d.ctrl, d.word
    ));
    let fetched = format!("%{PREFIX}s{tag}");
    out.push(format!(
        "v_dpp_fetch_b32 {fetched}, {s_val}, %{PREFIX}x{}_{sid}, {flags}",
        d.ctrl
    ));
    let result = match other {
        None => fetched,
        Some(o) => {
            let Some(MirOp::Alu { mnemonic, .. }) =
                opcodes::lookup(target, &format!("{}_e32", d.base))
            else {
                return Err(format!("{} is not modelled on {target}", d.base));
            };
            let o = emit::src(side, o, target)?;
            let r = format!("%{PREFIX}r{tag}");
            let (a, b) = if on1 { (o, fetched) } else { (fetched, o) };
            out.push(format!("{mnemonic} {r}, {a}, {b}"));
            r
        }
    };
    let dst = emit::dwords(side, &i.defs[0], target)?;
    let old = emit::dwords(side, d.old, target)?;
    let ([dst], [old]) = (dst.as_slice(), old.as_slice()) else {
        return Err("a DPP result of more than one dword is not modelled".into());
    };
    if !emit::is_vgpr_dest(side, &i.defs[0]) {
        return Err("the DPP result is not a VGPR".into());
    }
    out.push(format!("v_dpp_write_b32 {dst}, {old}, {result}, {flags}"));
    Ok(out)
}

/// Lane S's value of `%sid` (read by instruction `at`): the lines that recompute it and the
/// rule text of the value.
fn shadow(
    side: &Side,
    sid: u32,
    at: usize,
    ctrl: u32,
    target: Target,
    live: &mut BTreeMap<u32, LiveIns>,
) -> Result<(Vec<String>, String), String> {
    let off = offset(ctrl);
    let mut need: BTreeSet<usize> = BTreeSet::new();
    let mut todo = vec![(sid, at)];
    let mut live_ids: BTreeSet<u32> = BTreeSet::new();
    while let Some((id, before)) = todo.pop() {
        let Some((n, d)) = firstlane::def_of(side, id, before) else {
            live_ids.insert(id);
            continue;
        };
        if !(firstlane::recomputable(d, target) || lane_load(d, target)) {
            return Err(format!(
                "its DPP source is made by {}, which lane S cannot recompute",
                d.opcode
            ));
        }
        if need.insert(n) {
            for u in d.uses() {
                if let OpKind::VReg { id, .. } = u.kind {
                    if firstlane::vgpr(side, u) {
                        todo.push((id, n));
                    }
                }
            }
        }
    }
    for &n in &need {
        if let Some(r) = firstlane::overwritten(side, n, at, target) {
            return Err(format!(
                "its DPP source reads {r}, which the block writes before the DPP read"
            ));
        }
        let i = &side.block.insts[n];
        if lane_load(i, target)
            && side.block.insts[n + 1..at]
                .iter()
                .any(|j| writes_memory(j, target))
        {
            return Err(format!(
                "its DPP source is a load ({}) that memory written before the DPP read may change",
                i.opcode
            ));
        }
    }
    let entry = live.entry(ctrl).or_default();
    for id in &live_ids {
        let cls = side.classes.get(id).ok_or("a register without a class")?;
        for k in 0..emit::class_dwords(cls).ok_or("an unsplit register class")? {
            entry.insert((format!("%r{}_{k}", id + off), format!("%r{id}_{k}")));
        }
    }
    let mut classes: BTreeMap<u32, String> = side.classes.clone();
    let mut rename = |o: &mut Operand| {
        if let OpKind::VReg { id, .. } = &mut o.kind {
            if let Some(c) = side.classes.get(id).cloned() {
                if emit::class_bank(&c) != 's' {
                    classes.insert(*id + off, c);
                    *id += off;
                }
            }
        }
    };
    let insts: Vec<Inst> = need
        .iter()
        .map(|&n| {
            let mut j = side.block.insts[n].clone();
            j.defs.iter_mut().for_each(&mut rename);
            j.ops
                .iter_mut()
                .filter(|o| !o.flags.implicit)
                .for_each(&mut rename);
            j
        })
        .collect();
    let s2 = Side {
        classes: &classes,
        ..side.clone()
    };
    let phys = regex::Regex::new(r"\bv(\d+)\b").expect("regex");
    let mut out = Vec::new();
    for (j, n) in insts.iter().zip(need.iter().copied()) {
        for l in emit::lower_inst(&s2, j, target)? {
            let (op, rest) = l.split_once(' ').unwrap_or((&l, ""));
            if phys.is_match(rest) {
                if writes_phys_vgpr(&side.block.insts[..n]) {
                    return Err("its DPP source reads a physical VGPR the block writes".into());
                }
                for c in phys.captures_iter(rest) {
                    entry.insert((format!("%{PREFIX}v{ctrl}_{}", &c[1]), format!("v{}", &c[1])));
                }
            }
            let rest = phys.replace_all(rest, format!("%{PREFIX}v{ctrl}_$1").as_str());
            out.push(format!("{op} {rest}"));
        }
    }
    Ok((out, format!("%r{}_0", sid + off)))
}

fn writes_phys_vgpr(earlier: &[Inst]) -> bool {
    earlier.iter().any(|j| {
        j.defs
            .iter()
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vgpr")))
    })
}

/// The lines a side starts with: for each control, lane S's flags and, for each live-in VGPR
/// of lane S, lane L's value where S = L (lane S's copy is a free input otherwise).
pub fn prologue(live: &BTreeMap<u32, LiveIns>) -> impl Iterator<Item = crate::rules::Line> {
    let mut out = Vec::new();
    for (ctrl, regs) in live {
        if regs.is_empty() {
            continue;
        }
        let f = format!("%{PREFIX}l{ctrl}");
        out.push(format!("v_dpp_flags_b32 {f}, %{PREFIX}e{ctrl}, {ctrl:#x}"));
        for (s, l) in regs {
            out.push(format!("v_dpp_same_b32 {s}, {l}, {s}, {f}"));
        }
    }
    out.into_iter().map(|text| crate::rules::Line {
        text,
        loc: crate::rules::Loc::default(),
    })
}

/// The controls whose lane-S state variables a rule's text mentions.
pub fn controls(text: &str) -> BTreeSet<u32> {
    let re = regex::Regex::new(&format!(r"%{PREFIX}e(\d+)\b")).expect("regex");
    re.captures_iter(text)
        .filter_map(|c| c[1].parse().ok())
        .collect()
}

/// The precondition under which a refutation is real for DPP reads: every lane S active (what
/// an inactive lane S gives is left open by the guides).
pub fn active_pre(ctrls: &BTreeSet<u32>) -> String {
    ctrls
        .iter()
        .map(|c| format!("(%{PREFIX}e{c} & 1) == 1"))
        .collect::<Vec<_>>()
        .join(" && ")
}

/// Lane S = f(`c`, `l`) and whether it is in range (AMD CDNA4 guide Table 94; the same
/// formulas as `V_DPP_FLAGS_B32` in `dpp.pcode`), for counterexamples.
pub fn source_lane(c: u32, l: u32) -> (u32, bool) {
    let (k, r, row) = (c & 15, l & 15, l & !15);
    match c {
        0..=0xff => ((l & !3) | (c >> ((l & 3) * 2) & 3), true),
        0x101..=0x10f => (l + k, r + k < 16),
        0x111..=0x11f => (l.wrapping_sub(k), r >= k),
        0x121..=0x12f => (row | (r.wrapping_sub(k) & 15), true),
        0x130 => (l + 1, l < 63),
        0x134 => (if l < 63 { l + 1 } else { 0 }, true),
        0x138 => (l.wrapping_sub(1), l > 0),
        0x13c => (if l > 0 { l - 1 } else { 63 }, true),
        0x140 => (row | (15 - r), true),
        0x141 => ((l & !7) | (7 - (l & 7)), true),
        0x142 => ((l & 0x30).wrapping_sub(1), l > 15),
        0x143 => ((l & 0x20).wrapping_sub(1), l > 31),
        0x150..=0x15f => (row + k, true),
        _ => (row | (r ^ k), true),
    }
}

/// The DPP model's rule variables in MIR terms: lane S's copy of `%16` is `%16@row_shl:1`
/// (`.subK` for wide classes, given by `dwords`), of `$vgpr0` `$vgpr0@row_shl:1`; lane S's
/// state `S@row_shl:1`, its inactive value `%16@row_shl:1(inactive)`; the steps' scratch
/// values `dpp.flags`, `dpp.src`, `dpp.op`, `dpp.lane`.
pub fn mir_names(text: &str, dwords: &dyn Fn(u32) -> Option<u32>) -> String {
    let shadow = regex::Regex::new(r"%r(\d{7,})_(\d+)").expect("regex");
    let t = shadow.replace_all(text, |c: &regex::Captures| {
        let id: u32 = c[1].parse().unwrap_or(0);
        match unshadow(id) {
            Some((m, ctrl)) => match dwords(m) {
                Some(1) => format!("%{m}@{}", ctrl_name(ctrl)),
                _ => format!("%{m}.sub{}@{}", &c[2], ctrl_name(ctrl)),
            },
            None => c[0].to_string(),
        }
    });
    let named = regex::Regex::new(&format!(r"%{PREFIX}([a-z])(\d+)(?:_(\d+))?\b")).expect("regex");
    named
        .replace_all(&t, |c: &regex::Captures| {
            let n: u32 = c[2].parse().unwrap_or(0);
            let third = c.get(3).map(|m| m.as_str().to_string()).unwrap_or_default();
            match &c[1] {
                "e" => format!("S@{}", ctrl_name(n)),
                "v" => format!("$vgpr{third}@{}", ctrl_name(n)),
                "x" => format!("%{third}@{}(inactive)", ctrl_name(n)),
                "f" => "dpp.flags".into(),
                "s" => "dpp.src".into(),
                "r" => "dpp.op".into(),
                "l" => "dpp.lane".into(),
                _ => c[0].to_string(),
            }
        })
        .into_owned()
}

/// Whether a DPP rule variable is an input of the block (lane S's state, live-in registers and
/// inactive values), not one of the steps' scratch values.
pub fn is_input(name: &str) -> bool {
    ["e", "v", "x"]
        .iter()
        .any(|k| name.starts_with(&format!("%{PREFIX}{k}")))
}

/// A counterexample's line about the lanes: `DPP: lane L = 0 reads lane S = 1 (quad_perm:
/// [1,0,0,0]), active`, for each control whose state `S@...` (`%dpp_e<ctrl>`) is an input.
pub fn describe(inputs: &[(String, u128, u32)]) -> Vec<String> {
    let lane = inputs
        .iter()
        .find(|(n, ..)| n == "LANE_ID")
        .map(|(_, v, _)| *v as u32);
    let Some(l) = lane else { return Vec::new() };
    let re = regex::Regex::new(&format!(r"^%{PREFIX}e(\d+)$")).expect("regex");
    inputs
        .iter()
        .filter_map(|(n, v, _)| {
            let c: u32 = re.captures(n)?[1].parse().ok()?;
            let (s, inrange) = source_lane(c, l);
            let state = match (inrange, s == l, v & 1, v >> 1 & 1) {
                (false, ..) => "out of range: bound_ctrl decides".to_string(),
                (true, true, ..) => "the lane itself".into(),
                (true, false, 1, _) => "active".into(),
                (true, false, _, 1) => "inactive, read anyway (S bit 1)".into(),
                _ => "inactive: bound_ctrl decides".into(),
            };
            let s = match inrange {
                true => s.to_string(),
                false => "none".into(),
            };
            Some(format!(
                "DPP: lane L = LANE_ID = {l} reads lane S = {s} ({}), {state}; `@{}` is lane S's copy",
                ctrl_name(c),
                ctrl_name(c)
            ))
        })
        .collect()
}

/// One rule's check result, as `tv` gets it (`None`: the solver failed).
pub type Checked = Result<crate::check::Outcome, crate::rules::InputError>;
/// The caller's check of one rule.
pub type Checker<'a> = dyn Fn(&crate::rules::Rule) -> Option<Checked> + 'a;

/// `check` (the caller's check of one rule), and for a rule with DPP reads a refutation only where it holds with
/// every DPP source lane active (what an inactive one gives is not settled by the guides, so
/// both behaviours are inputs) and one DPP control (lane S of two controls are modelled as
/// independent lanes, which may be one lane): otherwise `unknown`.
pub fn recheck(rule: &crate::rules::Rule, check: &Checker) -> Option<Checked> {
    let first = check(rule)?;
    let Ok(o) = &first else { return Some(first) };
    let text: String = rule
        .source
        .iter()
        .chain(&rule.target)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let ctrls = controls(&text);
    if !matches!(o.verdict, crate::check::Verdict::Refuted(_)) || ctrls.is_empty() {
        return Some(first);
    }
    let unknown = |why: String| {
        let mut o = first.clone().ok()?;
        o.verdict = crate::check::Verdict::Unknown(why);
        Some(Ok(o))
    };
    if ctrls.len() > 1 {
        let names: Vec<String> = ctrls.iter().map(|c| ctrl_name(*c)).collect();
        return unknown(format!(
            "refuted with two DPP controls ({}), whose source lanes are modelled independently \
             (they may be one lane)",
            names.join(", ")
        ));
    }
    let mut strict = rule.clone();
    let pre = active_pre(&ctrls);
    strict.pre = Some(match &rule.pre {
        Some(p) => crate::rules::Line {
            text: format!("({}) && {pre}", p.text),
            loc: p.loc,
        },
        None => crate::rules::Line {
            text: pre,
            loc: Default::default(),
        },
    });
    let second = check(&strict)?;
    match &second {
        Ok(o2) if matches!(o2.verdict, crate::check::Verdict::Refuted(_)) => Some(second),
        _ => unknown(
            "refuted only where a DPP source lane is inactive, whose value the guides leave open"
                .into(),
        ),
    }
}
