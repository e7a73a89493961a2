//! The lane-bit model of EXEC and lane masks (docs/tv.md, "EXEC and lane masks").
//!
//! A block pair whose instructions write EXEC or read it explicitly (a `V_CMPX_*`,
//! `SI_INIT_EXEC`, `S_AND_B64 %x, $exec`, `SI_END_CF`...) is checked as a `Lanes: 1` rule: one
//! lane L with a symbolic `LANE_ID`, EXEC an input with no bit outside lane L, every VALU and
//! memory instruction of lane L guarded by EXEC's bit L, SALU instructions run once. A lane mask
//! (EXEC, a V_CMP result, what lane-wise SALU ops make of them) is modelled only by its bit L:
//! each mask this module writes is ANDed with `%lanebit` (bit L alone, fixed by the
//! precondition), so two masks compare equal exactly when their bits L do. Checking bit L for an
//! arbitrary L and arbitrary inputs of every lane checks every bit, as long as each mask bit is
//! made from its own lane only: [`lanewise`] refuses every other reader of a mask.

use super::emit::{self, Side};
use super::mir::{Block, Inst, OpKind, Operand};
use crate::lane_mode::{LaneMode, LaneOrder};
use crate::rules::Loc;
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// The rule variables holding bit L alone, one per EXEC cell (`%lanebit0`, `%lanebit1`).
const LANE_BIT: &str = "lanebit";

/// The prefix of this model's scratch cells (a `nosdst` V_CMPX's compare, `cmpx.rs`; a
/// saveexec source read before its overlapping destination is written), declared dead by
/// `lower::scratch_dead`: nothing outside the instruction reads them.
pub const TMP_PREFIX: &str = "exectmp_";

fn exec_op(o: &Operand) -> bool {
    matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec"))
}

/// Whether `i` changes or explicitly reads EXEC (an implicit `$exec` use is every VALU op's),
/// or makes a lane mask out of EXEC (`SI_IF_BREAK`).
fn touches_exec(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    op.starts_with("V_CMPX_")
        || op == "SI_IF_BREAK"
        || i.defs.iter().any(exec_op)
        || i.ops
            .iter()
            .any(|o| exec_op(o) && (!o.flags.implicit || o.flags.implicit_def))
}

/// Whether a block pair needs the EXEC model: an instruction other than a terminator of
/// either side changes or explicitly reads EXEC, or makes a lane mask (a V_CMP).
pub fn involved(before: &Block, after: &Block) -> bool {
    [before, after].iter().any(|b| {
        b.insts.iter().any(|i| {
            !super::lower::is_terminator(&i.opcode)
                && (touches_exec(i) || i.opcode.starts_with("V_CMP"))
        }) || carry_out_read(b)
    })
}

/// Whether a VALU op's lane-mask result besides its VGPR one (`V_ADD_CO_U32_e64`'s carry-out,
/// the implicit `$vcc` of an `_e32` carry op) is read by anything but a VALU op: a mask like a
/// V_CMP's, which [`lanewise`] must see (a VALU carry-in reads it lane by lane).
fn carry_out_read(b: &Block) -> bool {
    let name = |o: &Operand| match &o.kind {
        OpKind::VReg { id, .. } => Some(format!("%{id}")),
        OpKind::Phys(p) if p.starts_with("vcc") => Some("vcc".to_string()),
        _ => None,
    };
    let mut masks = BTreeSet::new();
    for i in &b.insts {
        let valu = i.opcode.starts_with("V_");
        if !valu
            && i.uses()
                .chain(
                    i.ops
                        .iter()
                        .filter(|o| o.flags.implicit && !o.flags.implicit_def),
                )
                .any(|o| name(o).is_some_and(|n| masks.contains(&n)))
        {
            return true;
        }
        if valu {
            let extra = i.defs.iter().skip(1).chain(i.ops.iter().filter(|o| {
                o.flags.implicit_def && matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vcc"))
            }));
            masks.extend(extra.filter_map(name));
        }
    }
    false
}

/// Whether an instruction other than a terminator of either side writes EXEC.
pub fn writes(before: &Block, after: &Block) -> bool {
    before.insts.iter().chain(&after.insts).any(|i| {
        !super::lower::is_terminator(&i.opcode)
            && (i.opcode.starts_with("V_CMPX_") || writes_exec(i))
    })
}

/// The whole-wave / whole-quad markers: for an active lane L their result is the source's
/// value in lane L (computing it with more lanes enabled changes only the other lanes).
pub fn is_mode_copy(op: &str) -> bool {
    matches!(op, "STRICT_WWM" | "WWM" | "STRICT_WQM" | "WQM" | "SOFT_WQM")
}

/// The opcodes this module lowers in the EXEC model beyond the table's (they write EXEC or
/// make a mask from it).
pub fn handles(op: &str) -> bool {
    op.starts_with("V_CMPX_")
        || matches!(
            op,
            "SI_INIT_EXEC"
                | "SI_END_CF"
                | "SI_IF_BREAK"
                | "S_WQM_B64"
                | "S_AND_SAVEEXEC_B64"
                | "S_OR_SAVEEXEC_B64"
                | "S_XOR_SAVEEXEC_B64"
                | "S_ANDN2_SAVEEXEC_B64"
                | "S_AND_SAVEEXEC_B32"
                | "S_OR_SAVEEXEC_B32"
                | "S_XOR_SAVEEXEC_B32"
                | "S_ANDN2_SAVEEXEC_B32"
        )
}

/// The `Lanes: 1` rule's precondition: `%lanebitK` is bit L of EXEC cell K alone.
pub fn precondition(target: Target) -> String {
    if emit::phys("exec", target).map(|c| c.len()).unwrap_or(1) == 2 {
        format!(
            "%{LANE_BIT}0 == (LANE_ID < 32 ? 1 << LANE_ID : 0) && \
             %{LANE_BIT}1 == (LANE_ID >= 32 ? 1 << (LANE_ID - 32) : 0)"
        )
    } else {
        format!("%{LANE_BIT}0 == 1 << LANE_ID")
    }
}

/// A rule's precondition, `Lanes:` and `Dead:` registers.
pub type RuleParts = (Option<String>, Option<(LaneMode, Loc)>, Vec<(String, Loc)>);

/// The parts of a rule the EXEC model adds: the precondition (`lds`, the LDS bound, and the
/// lane bit where the text uses it), `Lanes: 1`, and EXEC dead where the wave ends
/// (`S_ENDPGM`: no successor reads the mask it ends with) or no later instruction reads it.
pub fn rule_parts(
    exec: bool,
    lds: Option<String>,
    text: &str,
    (target, terms, exec_dead): (Target, &[&str], bool),
) -> RuleParts {
    let mut pre: Vec<String> = lds.into_iter().collect();
    if exec && text.contains(&format!("%{LANE_BIT}0")) {
        pre.push(precondition(target));
    }
    let pre = (!pre.is_empty()).then(|| pre.join(" && "));
    if !exec {
        return (pre, None, Vec::new());
    }
    let one = LaneMode {
        lanes: 1,
        order: LaneOrder::Any,
    };
    // Only when the wave ends here: a branch before S_ENDPGM (`S_CBRANCH_EXECZ`) leads to a
    // block that reads EXEC.
    // `exec_dead`: every path from here reaches S_ENDPGM without naming EXEC
    // (`cf_lower::mark_exec_dead`).
    let ends = exec_dead
        || terms.contains(&"S_ENDPGM 0") && terms.iter().all(|t| t.starts_with("S_ENDPGM"));
    // `Dead: exec` is only said of a rule that names EXEC: a block whose lowering reads EXEC
    // through no instruction (every lane-local op folded away) has nothing to declare dead,
    // and the rule reader rejects a dead register no instruction names.
    let dead = match ends && exec_cells(target).iter().any(|c| names(text, c)) {
        true => vec![("exec".to_string(), Loc::default())],
        false => Vec::new(),
    };
    (pre, Some((one, Loc::default())), dead)
}

/// Whether `i` writes EXEC (explicitly or implicitly).
pub fn writes_exec(i: &Inst) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
        .any(exec_op)
}

/// What the lowering of one side knows about EXEC so far.
#[derive(Default)]
pub struct State {
    /// EXEC is all ones (after `SI_INIT_EXEC -1` or `S_MOV_B64 $exec, -1`): bit L is 1 and
    /// `S_WQM_B64 $exec` keeps it.
    ones: bool,
}

fn cells(side: &Side, o: &Operand, target: Target) -> Result<Vec<String>, String> {
    emit::dwords(side, o, target)
}

/// Whether the rule text names register `r` as a whole word (`exec_lo`, not `exec_lo_x`).
fn names(text: &str, r: &str) -> bool {
    text.match_indices(r).any(|(k, _)| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '%';
        !text[..k].ends_with(word) && !text[k + r.len()..].starts_with(word)
    })
}

fn exec_cells(target: Target) -> Vec<String> {
    emit::phys("exec", target).unwrap_or_default()
}

/// `d &= bit L` for each cell: a mask keeps bit L only.
fn normalize(d: &[String]) -> Vec<String> {
    d.iter()
        .enumerate()
        .map(|(k, c)| format!("s_and_b32 {c}, {c}, %{LANE_BIT}{k}"))
        .collect()
}

fn reg_use(i: &Inst, n: usize) -> Result<&Operand, String> {
    i.uses()
        .nth(n)
        .ok_or_else(|| format!("missing operand {n}"))
}

/// Lower `i` in the EXEC model. `rest`: the instructions after it in the block and whether
/// SCC is live out of the block (then an SCC result counts as read).
pub fn lower_inst(
    side: &Side,
    i: &Inst,
    target: Target,
    st: &mut State,
    (rest, scc_out): (&[Inst], bool),
) -> Result<Vec<String>, String> {
    let op = i.opcode.as_str();
    let ex = exec_cells(target);
    let scc_read = scc_out
        || rest.iter().any(|j| {
            j.ops.iter().any(|u| {
                u.kind == OpKind::Phys("scc".into()) && !u.flags.implicit_def && !u.flags.def
            })
        });
    let mut out = Vec::new();
    if op.starts_with("V_CMPX_") {
        // EXEC (and the mask result, where the form has one) = EXEC & compare (`cmpx.rs`).
        out.extend(super::cmpx::lower(side, i, target, &ex)?);
        st.ones = false;
        return Ok(out);
    }
    match op {
        "SI_INIT_EXEC" => match reg_use(i, 0)?.kind {
            OpKind::Imm(-1) => {
                for (k, e) in ex.iter().enumerate() {
                    out.push(format!("s_mov_b32 {e}, %{LANE_BIT}{k}"));
                }
                st.ones = true;
            }
            _ => return Err("SI_INIT_EXEC of a mask other than -1 is not modelled".into()),
        },
        "SI_END_CF" => {
            // SILowerControlFlow: EXEC |= the mask SI_IF/SI_ELSE saved.
            let m = cells(side, reg_use(i, 0)?, target)?;
            if m.len() != ex.len() {
                return Err("a lane mask of the wrong width".into());
            }
            for (e, c) in ex.iter().zip(&m) {
                out.push(format!("s_or_b32 {e}, {e}, {c}"));
            }
            out.extend(normalize(&ex));
        }
        "SI_IF_BREAK" => {
            // SILowerControlFlow::emitIfBreak: dst = (cond & EXEC) | break-mask.
            let d = cells(side, i.defs.first().ok_or("missing definition")?, target)?;
            let c = cells(side, reg_use(i, 0)?, target)?;
            let b = cells(side, reg_use(i, 1)?, target)?;
            if d.len() != ex.len() || c.len() != ex.len() || b.len() != ex.len() {
                return Err("a lane mask of the wrong width".into());
            }
            if d.iter().any(|x| b.contains(x) || c.contains(x)) {
                return Err("overlapping lane masks".into());
            }
            // Not narrowed to bit L: the break mask's other bits are kept, as the lowering's
            // `S_OR_B64` keeps them (only bit L is compared for meaning; equal other bits
            // are a stronger claim, never a weaker one).
            for k in 0..ex.len() {
                out.push(format!("s_and_b32 {}, {}, {}", d[k], c[k], ex[k]));
                out.push(format!("s_or_b32 {}, {}, {}", d[k], d[k], b[k]));
            }
        }
        "S_WQM_B64" => {
            // Whole-quad mode sets bit L when any lane of L's quad is set: a cross-lane read,
            // exact only when EXEC is all ones (then it stays so).
            let s = reg_use(i, 0)?;
            let d = i.defs.first().ok_or("missing definition")?;
            if !(exec_op(s) && exec_op(d) && st.ones) || scc_read {
                return Err("S_WQM_B64 reads other lanes of its mask".into());
            }
        }
        "S_AND_SAVEEXEC_B64"
        | "S_OR_SAVEEXEC_B64"
        | "S_XOR_SAVEEXEC_B64"
        | "S_ANDN2_SAVEEXEC_B64"
        | "S_AND_SAVEEXEC_B32"
        | "S_OR_SAVEEXEC_B32"
        | "S_XOR_SAVEEXEC_B32"
        | "S_ANDN2_SAVEEXEC_B32" => {
            // dst = EXEC; EXEC = src OP EXEC (AMD Vega guide, S_AND_SAVEEXEC_B64); ANDN2:
            // EXEC = src & ~EXEC (Vega guide S_ANDN2_SAVEEXEC_B64, RDNA3 guide
            // S_AND_NOT1_SAVEEXEC_B32, llvm-mc-22's gfx11 name of `s_andn2_saveexec_b32`):
            // si-optimize-exec-masking's else branch.
            if scc_read {
                return Err(format!("{op}: its SCC result is read and not modelled"));
            }
            out.extend(saveexec(side, i, target, &ex)?);
            out.extend(normalize(&ex));
            st.ones = false;
        }
        _ => return plain(side, i, target, st, scc_read),
    }
    Ok(out)
}

/// `dst = EXEC; EXEC = src OP EXEC` of an `S_*_SAVEEXEC_B32/B64` (before the mask is narrowed
/// to bit L). A source that overlaps the destination (`$sgpr2 = S_ANDN2_SAVEEXEC_B32 $sgpr2`,
/// si-optimize-exec-masking's else branch) is read first, into scratch cells.
fn saveexec(side: &Side, i: &Inst, target: Target, ex: &[String]) -> Result<Vec<String>, String> {
    let op = i.opcode.as_str();
    let d = cells(side, i.defs.first().ok_or("missing definition")?, target)?;
    let mut s = cells(side, reg_use(i, 0)?, target)?;
    // The `_B32` forms are wave32's (one EXEC cell; a `_B32` form on wave64 fails this check).
    if d.len() != ex.len() || s.len() != ex.len() || d.iter().any(|x| ex.contains(x)) {
        return Err("a lane mask of the wrong width, or saved into EXEC".into());
    }
    let mut out = Vec::new();
    if d.iter().any(|x| s.contains(x)) {
        for (k, c) in s.iter_mut().enumerate() {
            let t = format!("%{TMP_PREFIX}src{k}");
            out.push(format!("s_mov_b32 {t}, {c}"));
            *c = t;
        }
    }
    let base = op.strip_suffix("_B64").or_else(|| op.strip_suffix("_B32"));
    let m = match base {
        Some("S_AND_SAVEEXEC" | "S_ANDN2_SAVEEXEC") => "and",
        Some("S_OR_SAVEEXEC") => "or",
        _ => "xor",
    };
    for k in 0..ex.len() {
        out.push(format!("s_mov_b32 {}, {}", d[k], ex[k]));
        if base == Some("S_ANDN2_SAVEEXEC") {
            out.push(format!("s_xor_b32 {0}, {0}, -1", ex[k]));
        }
        out.push(format!("s_{m}_b32 {}, {}, {}", ex[k], s[k], ex[k]));
    }
    Ok(out)
}

fn and_exec(d: &[String], ex: &[String]) -> Vec<String> {
    d.iter()
        .zip(ex)
        .map(|(c, e)| format!("s_and_b32 {c}, {c}, {e}"))
        .collect()
}

/// A table or copy instruction in the EXEC model: a V_CMP result is ANDed with EXEC (inactive
/// lanes get 0, AMD guides "VOPC"); a write of EXEC keeps bit L only; an SCC result that
/// nothing reads (no later instruction of the block, no successor or terminator) is dead.
fn plain(
    side: &Side,
    i: &Inst,
    target: Target,
    st: &mut State,
    scc_read: bool,
) -> Result<Vec<String>, String> {
    let mut j = i.clone();
    if !scc_read {
        for o in j.ops.iter_mut() {
            if o.kind == OpKind::Phys("scc".into()) && o.flags.implicit_def {
                o.flags.dead = true;
            }
        }
    }
    if is_mode_copy(&j.opcode) {
        j.opcode = "COPY".into();
    }
    let mut out = emit::lower_inst(side, &j, target)?;
    let op = i.opcode.as_str();
    if op.starts_with("V_CMP_") {
        if let Some(d) = i.defs.first() {
            out.extend(and_exec(&cells(side, d, target)?, &exec_cells(target)));
        }
        // The `_e32` form writes `$vcc` implicitly, masked the same way.
        let vcc = |o: &&Operand| {
            o.flags.implicit_def && matches!(&o.kind, OpKind::Phys(p) if p.starts_with("vcc"))
        };
        for d in i.ops.iter().filter(vcc) {
            let c = cells(side, d, target)?;
            if c.len() != exec_cells(target).len() {
                return Err("a lane mask of the wrong width".into());
            }
            out.extend(and_exec(&c, &exec_cells(target)));
        }
    }
    if i.defs.iter().any(exec_op) {
        let ones = op == "S_MOV_B64" && matches!(reg_use(i, 0)?.kind, OpKind::Imm(-1));
        out.extend(normalize(&exec_cells(target)));
        st.ones = ones;
    }
    Ok(out)
}

/// Whether `i` combines lane masks bit by bit (its uses may be masks, its results are). The
/// 32-bit ops are wave32's mask ops; on wave64 [`moves_bits`] refuses them on a mask (half of
/// it).
fn combines(op: &str) -> bool {
    handles(op)
        || super::wide::is_wide(op)
        || bitwise(op)
        || matches!(
            op,
            "COPY"
                | "REG_SEQUENCE"
                | "INSERT_SUBREG"
                | "EXTRACT_SUBREG"
                | "S_WQM_B64"
                | "S_MOV_B32"
        )
}

/// The SALU bitwise ops, 32- and 64-bit (`S_OR_B32` is the mask op of wave32, `S_ANDN2_B64`
/// of wave64): bit k of the result is made from bits k of the sources only, so bit L of a mask
/// result is exact from bits L ([`lanewise`]; a mask of the wrong width is refused by
/// `moves_bits`). Their SCC (`result != 0`) reads every lane: `scc::reads_mask` makes a proof
/// that reads it `bounded`.
fn bitwise(op: &str) -> bool {
    let Some(base) = op.strip_suffix("_B32").or_else(|| op.strip_suffix("_B64")) else {
        return false;
    };
    matches!(
        base,
        "S_AND"
            | "S_OR"
            | "S_XOR"
            | "S_ANDN2"
            | "S_ORN2"
            | "S_NAND"
            | "S_NOR"
            | "S_XNOR"
            | "S_NOT"
            | "S_AND_NOT1"
            | "S_OR_NOT1"
    )
}

/// Whether `i` reads its last source as lane L's bit (`V_CNDMASK_B32_e64`, a carry-in).
fn reads_bit(i: &Inst, target: Target) -> bool {
    matches!(
        super::opcodes::lookup(target, &i.opcode),
        Some(super::opcodes::MirOp::Alu { mask: true, .. })
    )
}

/// A mask op keeps bit L at bit L only when it reads and writes whole masks: a sub-register of
/// a mask (`COPY %m.sub1`, `$exec_lo` on wave64) or a `REG_SEQUENCE` / `INSERT_SUBREG` /
/// `EXTRACT_SUBREG` of one moves lane bits to other positions, and a VGPR result holds the mask
/// as lane L's data.
fn moves_bits(side: &Side, i: &Inst, mask_uses: &[&Operand], target: Target) -> Result<(), String> {
    let op = i.opcode.as_str();
    if matches!(op, "REG_SEQUENCE" | "INSERT_SUBREG" | "EXTRACT_SUBREG") {
        return Err("builds or splits a lane mask (moves lane bits)".into());
    }
    let width = exec_cells(target).len();
    let whole = |o: &Operand| {
        !matches!(&o.kind, OpKind::VReg { sub: Some(_), .. })
            && cells(side, o, target).is_ok_and(|c| c.len() == width)
    };
    if !mask_uses.iter().all(|o| whole(o)) || !i.defs.iter().all(whole) {
        return Err("reads or writes part of a lane mask (moves lane bits)".into());
    }
    if i.defs.iter().any(|d| emit::is_vgpr_dest(side, d)) {
        return Err("a lane mask moved into a VGPR".into());
    }
    Ok(())
}

/// Check that every lane mask of a side is read only lane-wise: EXEC and what a V_CMP /
/// V_CMPX / mask op defines may flow only into mask ops ([`combines`]), the select of a
/// `V_CNDMASK_B32_e64` or carry-in, the implicit EXEC of a VALU op, or a terminator (identical
/// on both sides; the masks it reads are compared bit L by bit L, which for every L is the whole
/// mask). A cross-lane reader (`S_BCNT1`, `S_CMP`, a store of the mask, `V_READLANE`,
/// `V_READFIRSTLANE_B32` and the VGPR-to-SGPR copy, which read the first active lane) would see
/// bits this model does not have. Errors: the instruction's index and why.
pub fn lanewise(side: &Side, target: Target) -> Result<(), (usize, String)> {
    lanewise_with(side, target, true)
}

/// [`lanewise`], where `xlane` says whether `xlane.rs`'s uninterpreted cross-lane ops may read
/// masks (in the EXEC model); without, such a read is an error as before, which
/// `lower::lower` uses to refuse the one-lane fallback (whose masks have garbage bits).
pub fn lanewise_with(side: &Side, target: Target, xlane: bool) -> Result<(), (usize, String)> {
    let mut masks: BTreeSet<String> = exec_cells(target).into_iter().collect();
    // 32-bit halves of wave64 masks, read only by `xlane.rs`'s uninterpreted cross-lane ops.
    let mut parts: std::collections::BTreeMap<String, &str> = Default::default();
    let wave64 = exec_cells(target).len() == 2;
    let key = |o: &Operand| -> Vec<String> {
        match &o.kind {
            OpKind::VReg { id, .. } => vec![format!("%{id}")],
            OpKind::Phys(p) => emit::phys(p, target).unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    for (n, i) in side.block.insts.iter().enumerate() {
        let op = i.opcode.as_str();
        // Permutes read (`V_PERMLANE16/X16/64`, with FI even inactive lanes, breaker7 03,
        // `DS_BPERMUTE`/`DS_PERMUTE`/`DS_SWIZZLE`) or write (`V_WRITELANE`) other lanes.
        let cross = op.starts_with("V_PERMLANE")
            || op.starts_with("V_WRITELANE")
            || op.starts_with("DS_BPERMUTE")
            || op.starts_with("DS_PERMUTE")
            || op.starts_with("DS_SWIZZLE");
        // `V_READFIRSTLANE_B32` of a VGPR is `xlane.rs`'s (a mask source is refused below).
        if cross
            || op.starts_with("V_READLANE") && !super::xlane::uninterpreted(op)
            || op.contains("DPP")
        {
            return Err((n, format!("{op} reads another lane")));
        }
        if super::lower::is_terminator(op) {
            continue;
        }
        let part_reads: Vec<&str> = i
            .uses()
            .flat_map(key)
            .filter_map(|k| parts.get(&k).copied())
            .chain(i.uses().filter_map(|o| match &o.kind {
                // A mask's sub-register read in place is a half too.
                OpKind::VReg { id, sub: Some(s) } if masks.contains(&format!("%{id}")) => {
                    Some(match s.as_str() {
                        "sub0" if wave64 => "lo",
                        "sub1" if wave64 => "hi",
                        _ => "other",
                    })
                }
                _ => None,
            }))
            .collect();
        if let Some(half) =
            super::xlane::part_copy(i, wave64, |id| xlane && masks.contains(&format!("%{id}")))
        {
            parts.extend(i.defs.iter().flat_map(key).map(|k| (k, half)));
            continue;
        }
        if xlane && super::xlane::uninterpreted(op) && super::xlane::reads_parts(op, &part_reads) {
            // Its inputs are compared whole (bit L of a mask for every L), its results fresh.
            continue;
        }
        if !part_reads.is_empty() {
            return Err((
                n,
                format!("{op}: reads or writes part of a lane mask (moves lane bits)"),
            ));
        }
        let mask_uses: Vec<&Operand> = i
            .ops
            .iter()
            .filter(|o| !o.flags.implicit_def && !o.flags.def && !o.flags.implicit)
            .filter(|o| key(o).iter().any(|k| masks.contains(k)))
            .collect();
        // The mask is the last register source: `V_ADDC_U32_e64 %a, %b, %cin, 0` ends with its
        // clamp immediate, `V_CNDMASK_B32_e64 0, %a, 0, %b, %m` with the mask itself.
        let last = i
            .uses()
            .filter(|o| matches!(o.kind, OpKind::VReg { .. } | OpKind::Phys(_)))
            .last();
        // A whitelist: SALU mask ops and copies (a VALU op reads a mask as lane L's data), or
        // the select / carry-in of a VALU op.
        // A VOP3 mask source that is EXEC forwards only EXEC_LO on wave64 (LLVM r314522; llc's
        // verifier rejects it): lanes 32-63 would not read their own bit (breaker7 05).
        if exec_cells(target).len() == 2
            && reads_bit(i, target)
            && last.is_some_and(|o| matches!(&o.kind, OpKind::Phys(p) if p == "exec"))
        {
            return Err((
                n,
                format!("{op}: $exec read as a lane mask forwards only EXEC_LO on wave64"),
            ));
        }
        let ok = mask_uses.is_empty()
            || combines(op) && !op.starts_with("V_")
            || reads_bit(i, target) && mask_uses.iter().all(|o| Some(*o) == last);
        if !ok {
            return Err((n, format!("{op} reads a lane mask across lanes")));
        }
        if !mask_uses.is_empty() && !reads_bit(i, target) {
            moves_bits(side, i, &mask_uses, target).map_err(|m| (n, format!("{op}: {m}")))?;
        }
        // A VALU op's SGPR result is a lane mask too (a carry-out: one bit per lane).
        let valu_sgpr = op.starts_with("V_") && i.defs.iter().any(|d| !emit::is_vgpr_dest(side, d));
        let makes_mask = op.starts_with("V_CMP")
            || valu_sgpr
            || handles(op)
            || combines(op) && !mask_uses.is_empty();
        if makes_mask {
            // A VALU op's VGPR result (`V_ADD_CO_U32_e64`'s sum) is lane L's data, not a mask.
            let data = |d: &&Operand| op.starts_with("V_") && emit::is_vgpr_dest(side, d);
            for d in i
                .defs
                .iter()
                .chain(i.ops.iter().filter(|o| o.flags.implicit_def))
                .filter(|d| !data(d))
            {
                masks.extend(key(d));
            }
        }
        if op == "COPY" && !mask_uses.is_empty() {
            // A mask copied into a VGPR would be data of lane L, not its bit.
            if i.defs.iter().any(|d| emit::is_vgpr_dest(side, d)) {
                return Err((n, "a lane mask copied into a VGPR".into()));
            }
        }
        // A plain VGPR-to-SGPR COPY is `xlane.rs`'s first-lane read.
        if op.starts_with("STRICT_") || is_mode_copy(op) {
            let to_sgpr = i.defs.iter().any(|d| !emit::is_vgpr_dest(side, d))
                && i.uses().any(|u| emit::is_vgpr_dest(side, u));
            if to_sgpr {
                return Err((n, "a VGPR-to-SGPR copy reads the first active lane".into()));
            }
        }
    }
    Ok(())
}

/// Whether a side makes a lane mask: a V_CMP, or a VALU op with an SGPR result (a carry-out,
/// one bit per lane).
pub(super) fn makes_mask(side: &Side) -> bool {
    side.block.insts.iter().any(|i| {
        i.opcode.starts_with("V_CMP")
            || i.opcode.starts_with("V_") && i.defs.iter().any(|d| !emit::is_vgpr_dest(side, d))
    })
}
