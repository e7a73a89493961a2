//! VALU lane masks in a single-lane check (breaker21 05).
//!
//! A VOPC compare's D0 and a VOP3b carry-out's SDST are wave-sized masks: every active lane
//! writes its own bit and every inactive lane writes 0 (`VCC[n] = EXEC[n] & test`, AMD RDNA2
//! ISA guide 3.9). A single-lane check runs one lane, so it computes only that lane's bit; the
//! other bits keep whatever the register held. That is exact for a reader of the lane's own
//! bit (`v_cndmask_b32`'s selector, a carry-in) and wrong for a reader of the whole mask: an
//! SALU op, a VALU op reading the register as a plain scalar operand, a memory instruction's
//! SGPR operand, or the rule's final state when the register is not `Dead:` and its bits come
//! from different writers on the two sides. There a rule that adds `v_cmp_eq_u32 vcc, %a, %a`
//! after `s_mov_b64 vcc, -1` was proved: one lane sees bit 1 either way, while the inactive
//! lanes' bits become 0 on the hardware.
//!
//! Such a rule is checked with 2 lanes instead ([`crate::lanes`]): EXEC has no bit outside the
//! lanes, so every mask write clears the other bits on both sides, and lane 1 (active or not)
//! stands for every other lane. Two lanes suffice because a mask bit is written by its own lane
//! alone; a wave of N lanes where the sides differ differs in one bit, and that bit's lane with
//! one more lane of either EXEC value is a 2-lane wave where they differ.

use super::elaborate::Elaborated;
use super::verdict::Verdict;
use crate::lane_mode::{LaneMode, LaneOrder};
use crate::machine::{Bound, Op, RegKey, Src};
use std::collections::BTreeSet;

/// The lanes a single-lane rule whose lane mask is read whole is checked with.
pub(super) const MASK_LANES: LaneMode = LaneMode {
    lanes: 2,
    order: LaneOrder::Any,
};

/// The registers `b` writes as a VALU lane mask (D0 of a compare, a carry-out).
fn mask_writes(b: &Bound) -> Vec<RegKey> {
    let Op::Alu { alu, d0, sdst, .. } = &b.op else {
        return Vec::new();
    };
    if alu.scalar {
        return Vec::new();
    }
    let mut w = Vec::new();
    if alu.dmask {
        w.extend(d0.iter().cloned());
    }
    if alu.sdst {
        w.extend(sdst.iter().cloned());
    }
    w
}

/// The registers `b` reads as a whole: every register it names except the lane-mask source a
/// VALU op reads one bit of (`v_cndmask_b32`'s selector, a carry-in) and an ALU op's pure
/// destinations. Conservative for memory instructions (every register they name).
fn whole_reads(b: &Bound) -> Vec<RegKey> {
    match &b.op {
        Op::Alu { alu, srcs, .. } => {
            let own_bit = !alu.scalar && alu.smask;
            let n = srcs.len();
            srcs.iter()
                .enumerate()
                .filter(|(i, _)| !(own_bit && i + 1 == n))
                .flat_map(|(_, s)| match s {
                    Src::Reg(r) => r.clone(),
                    Src::Imm(_) => Vec::new(),
                })
                .collect()
        }
        _ => b.regs(),
    }
}

/// What a rule's VALU lane masks need: 2 lanes, or more than any lane count decides.
pub(super) enum MaskNeed {
    /// Checked on 2 lanes, for this reason: every use of a mask is bit by bit.
    Lanes(String),
    /// No lane count decides it, for this reason: a mask is counted, added, compared as a
    /// number or used as an address (true on 2 lanes, false on 3: breaker23 01).
    Undecidable(String),
}

/// Whether the SALU op `b` works bit by bit (bit j of its result from bit j of its sources):
/// a mask made of masks, still one bit per lane.
fn bitwise(b: &Bound) -> bool {
    matches!(&b.op, Op::Alu { alu, mnemonic, .. } if alu.scalar
        && matches!(mnemonic.as_str(), "s_and_b32" | "s_or_b32" | "s_xor_b32" | "s_mov_b32"))
}

/// What the single-lane check cannot decide about a rule with sides `src` and `tgt`
/// (registers `dead` dead at the end), if anything: an instruction reads a VALU lane mask
/// whole, or a mask register live at the end is not written by VALU lane-mask writes alone on
/// both sides.
///
/// One lane is exact for a live mask register that both sides write, and write only with
/// VALU lane-mask writes: every bit is then its own lane's result on both sides (EXEC and the
/// lane's test), and the single lane keeps the input's other bits on both, so comparing the
/// register compares one arbitrary lane's bit (lanes run the same per-lane program). Anything
/// else (an SALU write before the compare, one side not writing it) mixes bits one lane does
/// not see. Masks combined bit by bit (AND, OR, XOR, MOV) stay masks; any other whole read
/// makes a number of the bits, which no lane count decides.
pub(super) fn whole_mask_read(
    src: &[Bound],
    tgt: &[Bound],
    dead: &BTreeSet<RegKey>,
) -> Option<MaskNeed> {
    let mut need: Option<String> = None;
    // Per side: for each register holding a lane mask, whether every write of it on that side
    // is a VALU lane-mask write; and the first writer's text.
    let mut sides: Vec<Vec<(RegKey, bool, &str)>> = Vec::new();
    for side in [src, tgt] {
        let mut masks: Vec<(RegKey, bool, &str)> = Vec::new();
        let mut other_writes: BTreeSet<RegKey> = BTreeSet::new();
        for b in side {
            let reads = whole_reads(b);
            let mut derived = false;
            if let Some((k, _, w)) = masks.iter().find(|(k, _, _)| reads.contains(k)) {
                let why = format!("`{}` reads the whole lane mask `{w}` writes ({k})", b.text);
                if !bitwise(b) {
                    return Some(MaskNeed::Undecidable(format!(
                        "{why} as a number, not bit by bit"
                    )));
                }
                // Its SCC (`D != 0`) folds every lane's bit into one: true on 2 lanes where a
                // full wave makes it false (`~EXEC != 0`), so only a dead SCC is decided.
                let scc = RegKey::scc();
                if b.writes().contains(&scc) && !dead.contains(&scc) {
                    return Some(MaskNeed::Undecidable(format!(
                        "{why}, and its SCC (D != 0) is live: one bit made of every lane's"
                    )));
                }
                need.get_or_insert(why);
                derived = true;
            }
            let mw = mask_writes(b);
            for k in b.writes() {
                if mw.contains(&k) {
                    if !masks.iter().any(|(m, _, _)| *m == k) {
                        let only = !other_writes.contains(&k);
                        masks.push((k, only, b.text.as_str()));
                    }
                } else {
                    other_writes.insert(k.clone());
                    for m in masks.iter_mut().filter(|(m, _, _)| *m == k) {
                        m.1 = false;
                    }
                    if derived && !masks.iter().any(|(m, _, _)| *m == k) {
                        masks.push((k, false, b.text.as_str()));
                    }
                }
            }
        }
        sides.push(masks);
    }
    let written = |side: &[(RegKey, bool, &str)], k: &RegKey| {
        side.iter()
            .find(|(m, _, _)| m == k)
            .map(|(_, only, _)| *only)
    };
    for (i, side) in sides.iter().enumerate() {
        for (k, _, w) in side.iter().filter(|(k, _, _)| !dead.contains(k)) {
            let here = written(side, k) == Some(true);
            let there = written(&sides[1 - i], k) == Some(true);
            if !(here && there) {
                need.get_or_insert(format!(
                    "the lane mask `{w}` writes ({k}) is live at the end and not written by \
                     lane-mask writes alone on both sides"
                ));
            }
        }
    }
    need.map(MaskNeed::Lanes)
}

/// `verdict` for the elaborated rule `b`: `unknown` when neither one lane nor lanes can decide
/// it (`Elaborated::undecided`). A single-lane refutation is no evidence there either: the
/// lane's model of the mask's other bits is what is wrong.
///
/// A `v_readfirstlane_b32` of a VGPR that may differ between lanes is the exception
/// (`Elaborated::first_lane`): its single-lane refutation is a real wave's (one whose first
/// active lane is the checked one), so only proofs and inapplicability become `unknown`.
/// Identical sides stay proved (the identity shortcut reads no lane).
pub(super) fn restrict(b: &Elaborated, verdict: Verdict, note: Option<&str>) -> Verdict {
    match (&b.undecided, verdict) {
        (_, v @ Verdict::Error(_)) | (None, v) => v,
        (Some(_), v @ Verdict::Proved) if note == Some(super::verdict::IDENTITY_NOTE) => v,
        (Some(_), v @ (Verdict::Refuted(_) | Verdict::Unknown(_))) if b.first_lane => v,
        (Some(why), _) => Verdict::Unknown(why.clone()),
    }
}
