//! Instructions the lowering does not translate but keeps (README "Translation validation",
//! assumption 2 of docs/tv.md): an unmodelled instruction with the same text on both sides is
//! an uninterpreted function of its inputs. Its physical inputs are snapshotted where it runs
//! into variables both sides must end equal on, its physical results are fresh values both
//! sides share, and [`taint`] finds what a refutation resting on them depends on.

use super::emit::{self, Side};
use super::lower::{at, is_terminator, modelled, reads_memory, writes, Unsupported};
use super::mir::{Inst, OpKind, Operand};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeSet;

/// Prefix of the rule variables that stand for a dropped instruction's physical inputs
/// (compared, soft) and results (fresh inputs both sides share).
pub const UNINTERPRETED_PREFIX: &str = "uf";

/// The rule variable of the `n`-th physical cell an uninterpreted instruction reads (`in`) or
/// writes (`out`), for its `occ`-th occurrence (by text) in the block: the same name on both
/// sides, so equal inputs and shared results pair the occurrences.
fn uf_var(i: &Inst, occ: usize, dir: &str, n: usize) -> String {
    // FNV-1a of the text: a short, stable name for the instruction.
    let h = i.key.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("%{UNINTERPRETED_PREFIX}{h:08x}_{occ}_{dir}{n}")
}

fn cell_mov(dst: &str, src: &str) -> String {
    let vgpr = |c: &str| {
        let c = c
            .strip_prefix(&format!("%{}", emit::PHYS_PREFIX))
            .unwrap_or(c);
        c.strip_prefix('v')
            .is_some_and(|d| !d.is_empty() && d.chars().all(|x| x.is_ascii_digit()))
    };
    if vgpr(dst) || vgpr(src) {
        format!("v_mov_b32 {dst}, {src}")
    } else {
        format!("s_mov_b32 {dst}, {src}")
    }
}

/// A move between a virtual register's cell and a rule variable, in the register's bank.
fn vreg_mov(side: &Side, o: &super::mir::Operand, dst: &str, src: &str) -> String {
    if emit::is_vgpr_dest(side, o) {
        format!("v_mov_b32 {dst}, {src}")
    } else {
        format!("s_mov_b32 {dst}, {src}")
    }
}

/// The lines an uninterpreted (dropped) instruction leaves in its side: each physical cell it
/// reads is copied to a variable that must end equal on both sides (so the instruction saw the
/// same inputs where it ran, even if the block writes the register again later), and each cell
/// it writes gets a fresh value both sides share (so code after it does not read the register's
/// old value). SCC is no 32-bit cell: reading it is accepted only where neither block writes it,
/// and a result in it only where nothing reads it afterwards.
pub(super) fn lines(
    side: &Side,
    i: &Inst,
    occ: usize,
    target: Target,
    temps: &mut super::scc::Temps,
) -> Result<Vec<String>, Unsupported> {
    let fail = |m: String| Unsupported(format!("{}: {}: {m}", at(side, i), i.opcode));
    let mut out = Vec::new();
    let (mut nin, mut nout) = (0, 0);
    let def_ops = i
        .defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def));
    let use_ops = i
        .ops
        .iter()
        .filter(|o| !o.flags.implicit_def && !o.flags.def);
    for o in use_ops {
        if let OpKind::VReg { .. } = o.kind {
            // Snapshotted where it runs, like a physical input: the register may be written
            // again later in the block (non-SSA MIR, a loop's PHI copy). 16-bit halves are
            // compared at the block's end instead (`lower::unmodelled` checks they are not
            // written again).
            if super::half16::cells(side, o, target).is_none() {
                for c in emit::dwords(side, o, target).map_err(fail)? {
                    out.push(vreg_mov(side, o, &uf_var(i, occ, "in", nin), &c));
                    nin += 1;
                }
            }
            continue;
        }
        let OpKind::Phys(p) = &o.kind else { continue };
        if p == "mode" {
            // MODE (rounding and denormal modes, `implicit $mode` of the float ops) is a block
            // input both sides share, as the function's `mode:` is: equal where the block
            // starts, and unchanged in it when no instruction writes it. A writer
            // (`S_SETREG`, `S_DENORM_MODE`, `S_ROUND_MODE`) on either side is refused here or
            // where that side's own writer is lowered (its `$mode` result is no cell).
            if side.block.insts.iter().any(writes_mode) {
                return Err(fail("MODE is written in the block".into()));
            }
            continue;
        }
        let cells = if p == "scc" {
            vec![super::scc::VAR.to_string()]
        } else {
            emit::operand_cells(side, o, target).map_err(fail)?
        };
        for c in cells {
            out.push(cell_mov(&uf_var(i, occ, "in", nin), &c));
            nin += 1;
        }
    }
    let pos = side.block.index_of(i);
    for o in def_ops {
        if let OpKind::VReg { .. } = o.kind {
            // A fresh value both sides share, written where the instruction runs: what the
            // register held before (non-SSA MIR defines it more than once) is gone. 16-bit
            // halves stay free inputs (`lower::unmodelled` checks nothing else writes or
            // reads them first).
            if super::half16::cells(side, o, target).is_none() {
                for c in emit::dwords(side, o, target).map_err(fail)? {
                    out.push(vreg_mov(side, o, &c, &uf_var(i, occ, "out", nout)));
                    nout += 1;
                }
            }
            continue;
        }
        let OpKind::Phys(p) = &o.kind else { continue };
        if p == "scc" {
            // A fresh shared value, read as the bit it stands for.
            out.push(cell_mov(super::scc::VAR, &uf_var(i, occ, "out", nout)));
            nout += 1;
            out.extend(temps.normalize());
            continue;
        }
        if p.starts_with("exec") {
            // A single-lane check does not model EXEC (docs/tv.md, assumption 7), so the new
            // mask is not written; what reads it explicitly afterwards would read the old one.
            let read_later = side.block.insts[pos + 1..].iter().any(|j| {
                j.ops.iter().any(|u| {
                    matches!(&u.kind, OpKind::Phys(q) if q.starts_with("exec"))
                        && !u.flags.implicit
                        && !u.flags.implicit_def
                        && !u.flags.def
                })
            });
            if read_later {
                return Err(fail("its EXEC result is read and not modelled".into()));
            }
            continue;
        }
        if p.ends_with("_lo16") || p.ends_with("_hi16") {
            // A fresh value in the whole cell would also replace the other half (breaker7 01).
            return Err(fail("a 16-bit physical result is not modelled".into()));
        }
        let cells = emit::operand_cells(side, o, target).map_err(fail)?;
        for c in cells {
            out.push(cell_mov(&c, &uf_var(i, occ, "out", nout)));
            nout += 1;
        }
    }
    Ok(out)
}

/// Whether `i` writes MODE (an explicit or implicit `$mode` definition).
pub(super) fn writes_mode(i: &Inst) -> bool {
    i.defs
        .iter()
        .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
        .any(|o| matches!(&o.kind, OpKind::Phys(p) if p == "mode"))
}

/// The dropped instructions a refutation may rest on (those whose results the rule reads, and
/// those with physical results), and what depends on them ([`super::taint`]). `images`: image
/// reads are lowered as shared inputs (`mimg.rs`) and count as uninterpreted too.
pub(super) fn taint(
    before: &Side,
    after: &Side,
    (target, exec): (Target, bool),
    (read, images): (Vec<String>, bool),
) -> (Vec<String>, super::taint::Taint) {
    let mut uninterpreted = read;
    let image = |i: &Inst| images && super::mimg::is_image_read(&i.opcode);
    for i in before.block.insts.iter().chain(&after.block.insts) {
        if image(i) && !uninterpreted.contains(&i.opcode) {
            uninterpreted.push(i.opcode.clone());
        }
    }
    for i in before.block.insts.iter().chain(&after.block.insts) {
        let op = i.opcode.as_str();
        let dropped_here = !modelled(i, target, exec)
            && !is_terminator(op)
            && !matches!(op, "IMPLICIT_DEF" | "KILL" | "PHI");
        let phys_result = i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.implicit_def || o.flags.def))
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if !p.starts_with("exec")));
        if dropped_here && phys_result && !uninterpreted.contains(&i.opcode) {
            uninterpreted.push(i.opcode.clone());
        }
    }
    // A 16-bit copy that leaves a cell's high half undefined (`half16.rs`): the lowering picks
    // one of its values, so a refutation may not rest on it.
    const UNDEF16: &str = "a 16-bit copy (bits 31:16 of its 32-bit destination undefined)";
    for side in [before, after] {
        let partial = side
            .block
            .insts
            .iter()
            .any(|i| super::half16::partial_def(side, i, target).is_some());
        if partial && !uninterpreted.iter().any(|u| u == UNDEF16) {
            uninterpreted.push(UNDEF16.to_string());
        }
    }
    let mut taint = super::taint::Taint::default();
    if !uninterpreted.is_empty() {
        let uf = |i: &Inst| {
            let op = i.opcode.as_str();
            image(i)
                || !modelled(i, target, exec)
                    && !is_terminator(op)
                    && !matches!(op, "IMPLICIT_DEF" | "KILL" | "PHI")
        };
        let mem = |i: &Inst| {
            let (g, l) = writes(i, target);
            (reads_memory(i, target), g || l)
        };
        super::taint::side(&mut taint, (before, 0), (target, exec), uf, mem);
        super::taint::side(&mut taint, (after, 1), (target, exec), uf, mem);
    }
    (uninterpreted, taint)
}

/// The virtual operands of an uninterpreted instruction `i` (`uninterp::lines` snapshots its
/// 32-bit inputs where it runs and writes its 32-bit results as fresh shared values). Inputs not
/// written again in the block are compared at its end too (`live`). A 16-bit half is neither
/// snapshotted nor written: such an input must not be written again after `i` (`i` included:
/// a tied operand), and such a result must be written by `i` alone in the block and not read
/// before it, so that its one rule variable is the value `i` made.
pub(super) fn operands(
    side: &Side,
    i: &Inst,
    target: Target,
    live: &mut BTreeSet<u32>,
) -> Result<(), Unsupported> {
    let op = i.opcode.as_str();
    let pos = side.block.index_of(i);
    let (earlier, later) = side.block.insts.split_at(pos);
    let half = |o: &Operand| super::half16::cells(side, o, target).is_some();
    for o in i
        .ops
        .iter()
        .filter(|o| !o.flags.def && !o.flags.implicit_def)
    {
        if let OpKind::VReg { id, .. } = o.kind {
            let again = later.iter().any(|j| super::lower::defines(j, id));
            if again && half(o) {
                return Err(Unsupported(format!(
                    "{}: {op}: its 16-bit input %{id} is written again in the block",
                    at(side, i)
                )));
            }
            if !again {
                live.insert(id);
            }
        }
    }
    let reads = |j: &Inst, id: u32| {
        j.ops.iter().any(|o| {
            !o.flags.def
                && !o.flags.implicit_def
                && matches!(o.kind, OpKind::VReg { id: x, .. } if x == id)
        })
    };
    // A 16-bit VALU op that LLVM's `GCNSubtarget::zeroesHigh16BitsOfDest` does not list as
    // zeroing bits 31:16 on this target keeps them (gfx10+: "On gfx10, all 16-bit
    // instructions preserve the high bits"; gfx9: V_MADAK/MADMK/MAC/FMAC_F16 "changed to
    // preserving the high bits"; the rest, V_MAD_MIXLO/HI_F16 included, not known); the fresh
    // shared result `uninterp::lines` writes would lose them. Exact only where the register
    // had no earlier value in the block: not for a physical register, a physical half
    // (`$vgpr0_hi16`: its other half, breaker7 01/04), or a virtual one defined before.
    if narrow_result(op) && !zeroes_high16(op, target.gen()) {
        for d in &i.defs {
            // The earlier value of a register not written before `i` in the block is the
            // block's input, equal on both sides.
            let earlier_def = match &d.kind {
                OpKind::VReg { id, .. } => earlier.iter().any(|j| super::lower::defines(j, *id)),
                OpKind::Phys(p) => match emit::phys(p, target) {
                    Ok(cells) => earlier.iter().any(|j| {
                        j.defs
                            .iter()
                            .chain(j.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
                            .any(|o| match &o.kind {
                                OpKind::Phys(q) => emit::phys(q, target)
                                    .map_or(true, |qc| qc.iter().any(|c| cells.contains(c))),
                                _ => false,
                            })
                    }),
                    Err(_) => true,
                },
                _ => true,
            };
            if earlier_def {
                return Err(Unsupported(format!(
                    "{}: {op}: a 16-bit result keeps the high half of the register's earlier value \
                     on {target}, which an uninterpreted result does not",
                    at(side, i)
                )));
            }
        }
    }
    for d in i.defs.iter().filter(|d| half(d)) {
        if let OpKind::VReg { id, .. } = d.kind {
            let elsewhere = side
                .block
                .insts
                .iter()
                .any(|j| !std::ptr::eq(j, i) && super::lower::defines(j, id));
            if elsewhere || reads(i, id) || earlier.iter().any(|j| reads(j, id)) {
                return Err(Unsupported(format!(
                    "{}: {op}: its 16-bit result %{id} is written or read elsewhere in the block",
                    at(side, i)
                )));
            }
        }
    }
    Ok(())
}

/// Whether 16-bit VALU opcode `op` writes zero to bits 31:16 of its destination on generation
/// `gen`: LLVM `GCNSubtarget::zeroesHigh16BitsOfDest` ("derived from experimentation"), by the
/// MIR name without its encoding suffix. Its first list zeroes through gfx9 (CDNA included,
/// LLVM's GFX9 generation), its second (MADAK/MADMK/MAC/FMAMK/FMAAK/FMAC_F16) on gfx8 only;
/// every other opcode is not known to zero.
fn zeroes_high16(op: &str, gen: gcnsmt_semantics::target::Gen) -> bool {
    use gcnsmt_semantics::target::Gen;
    const THROUGH_GFX9: &[&str] = &[
        "V_CVT_F16_F32",
        "V_CVT_F16_U16",
        "V_CVT_F16_I16",
        "V_RCP_F16",
        "V_RSQ_F16",
        "V_SQRT_F16",
        "V_LOG_F16",
        "V_EXP_F16",
        "V_SIN_F16",
        "V_COS_F16",
        "V_FLOOR_F16",
        "V_CEIL_F16",
        "V_TRUNC_F16",
        "V_RNDNE_F16",
        "V_FRACT_F16",
        "V_FREXP_MANT_F16",
        "V_FREXP_EXP_I16_F16",
        "V_LDEXP_F16",
        "V_LSHLREV_B16",
        "V_LSHRREV_B16",
        "V_ASHRREV_I16",
        "V_ADD_U16",
        "V_SUB_U16",
        "V_SUBREV_U16",
        "V_MUL_LO_U16",
        "V_ADD_F16",
        "V_SUB_F16",
        "V_SUBREV_F16",
        "V_MUL_F16",
        "V_MAX_F16",
        "V_MIN_F16",
        "V_MAX_U16",
        "V_MIN_U16",
        "V_MAX_I16",
        "V_MIN_I16",
        "V_MAD_F16",
        "V_MAD_U16",
        "V_MAD_I16",
        "V_FMA_F16",
        "V_DIV_FIXUP_F16",
    ];
    const GFX8_ONLY: &[&str] = &[
        "V_MADAK_F16",
        "V_MADMK_F16",
        "V_MAC_F16",
        "V_FMAMK_F16",
        "V_FMAAK_F16",
        "V_FMAC_F16",
    ];
    let base = ["_e32", "_e64", "_sdwa", "_dpp"]
        .iter()
        .find_map(|s| op.strip_suffix(s))
        .unwrap_or(op);
    (gen <= Gen::Gfx90a && THROUGH_GFX9.contains(&base))
        || (gen == Gen::Gfx8 && GFX8_ONLY.contains(&base))
}

/// Whether opcode `op` may write only 16 bits of its 32-bit destination: a 16-bit VALU op
/// (`V_ADD_U16`, `V_CVT_F16_F32`, the `_t16`/`_fake16` forms) other than a packed one. Over-
/// approximate (`V_CVT_F32_F16` writes 32 bits): only makes more blocks `unsupported`.
fn narrow_result(op: &str) -> bool {
    // A 32-bit result from 16-bit sources (`V_CVT_F32_F16`, `V_DOT2_F32_F16`) and a compare's
    // lane mask are whole-register writes (AMD's pseudocode writes `D0.f32`, `D0.u32`, or the
    // mask).
    let wide = [
        "_F32_F16",
        "_F32_BF16",
        "_I32_F16",
        "_U32_F16",
        "_I32_I16",
        "_U32_U16",
    ]
    .iter()
    .any(|p| op.contains(p))
        || op.starts_with("V_CMP");
    op.starts_with("V_")
        && !wide
        && !op.contains("PK_")
        && ["F16", "U16", "I16", "B16", "_t16", "_fake16", "BF16"]
            .iter()
            .any(|p| op.contains(p))
}
