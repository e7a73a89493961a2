//! Which VGPR-to-SGPR `COPY`s si-fix-sgpr-copies certainly moves to the VALU (`moveToVALU`),
//! read from its input alone: the only copies `vgpr_to_sgpr_copy=PER_LANE` gives each lane's
//! value (`v2s.rs`; docs/tv.md, "VGPR-to-SGPR copies: the per-lane meaning").
//!
//! The pass (SIFixSGPRCopies.cpp, LLVM 22) lowers a copy one of two ways. A copy from a
//! physical VGPR (or an AGPR) is moved to the VALU at once (`lowerSpecialCase`). Any other
//! copy into a virtual SGPR that no PHI reads is analysed (`analyzeVGPRToSGPRCopy`): from the
//! copy, the users of every SGPR an instruction that is not VALU defines are visited; the SALU
//! ones form its chain `SChain`, a visited copy or REG_SEQUENCE into a VGPR stops the walk, and
//! every visited instruction records the copy in its `SiblingPenalty` set. Its score is
//! `max(0, |SChain| - Penalty)` with `Penalty = NumSVCopies + |Siblings| + NumReadfirstlanes`,
//! `|Siblings|` the largest `SiblingPenalty` set of its chain less the copy itself; an empty
//! chain or a score below 3 moves it to the VALU (and its siblings with it), else it becomes
//! `V_READFIRSTLANE_B32`, which holds the first active lane's value.
//!
//! Certain here: a score bound below 3. The chain is over-approximated (the walk also goes on
//! through copies into VGPRs, which `tryChangeVGPRtoSGPRinCopy` may turn into SGPR copies, and
//! counts every instruction that may be SALU), the penalty under-approximated (the siblings of
//! an under-approximated walk over a subset of the analysed copies, SALU opcodes only from a
//! list, only the SV copies it surely counts, no readfirstlanes), so the pass's score is at
//! most the bound. A walk that
//! reaches an SCC compare or a copy into SCC (whose users are SCC readers) is not certain; a
//! sibling whose walk meets what the pass moves to the VALU while it still analyses (the copies
//! from physical registers: their moves may cut other walks short) is not counted.
//!
//! Not certain, whatever the score: a copy of a lane-dependent value (`V_MBCNT_*`, DPP, lane
//! reads and writes, and anything computed from one): instruction selection emits a
//! VGPR-to-SGPR copy for a value its divergence analysis calls uniform, and such a value never
//! is, so tv does not give it either meaning (`unsupported`).

use super::emit::{class_bank, class_dwords};
use super::mir::{Function, Inst, OpKind};
use std::collections::{BTreeMap, BTreeSet};

/// An instruction's place: (block index, instruction index).
type At = (usize, usize);

fn bank(f: &Function, id: u32) -> char {
    f.classes.get(&id).map_or('?', |c| class_bank(c))
}

/// Whether operand kind `k` is a VGPR or AGPR of whole dwords (not a `vreg_1` lane mask).
fn vector(f: &Function, k: &OpKind) -> bool {
    match k {
        OpKind::VReg { id, .. } => {
            bank(f, *id) != 's' && f.classes.get(id).and_then(|c| class_dwords(c)).is_some()
        }
        OpKind::Phys(p) => p.starts_with("vgpr") || p.starts_with("agpr"),
        _ => false,
    }
}

/// The single virtual register `i` defines.
fn def(i: &Inst) -> Option<u32> {
    match i.defs.as_slice() {
        [d] => match d.kind {
            OpKind::VReg { id, .. } => Some(id),
            _ => None,
        },
        _ => None,
    }
}

/// A VGPR-to-SGPR copy into a virtual register: its def and whether its source is physical
/// or an AGPR (`lowerSpecialCase`).
fn v2s_copy(f: &Function, i: &Inst) -> Option<(u32, bool)> {
    let whole =
        matches!(i.defs.as_slice(), [d] if matches!(d.kind, OpKind::VReg { sub: None, .. }));
    let x = def(i).filter(|x| whole && i.opcode == "COPY" && bank(f, *x) == 's')?;
    let src = i.uses().next()?;
    if !vector(f, &src.kind) {
        return None;
    }
    let special = match &src.kind {
        OpKind::VReg { id, .. } => bank(f, *id) == 'a',
        _ => true,
    };
    Some((x, special))
}

/// Opcodes certainly SALU (SOP1/SOP2/SOPK/SOPC), for the penalty's lower bound.
fn surely_salu(op: &str) -> bool {
    const HEADS: &[&str] = &[
        "ADD", "ADDC", "ADDK", "SUB", "SUBB", "MUL", "MULK", "AND", "OR", "XOR", "ANDN2", "ORN2",
        "NAND", "NOR", "XNOR", "LSHL", "LSHR", "ASHR", "BFE", "BFM", "MOV", "MOVK", "CMOV",
        "CMOVK", "CSELECT", "NOT", "MIN", "MAX", "ABS", "ABSDIFF", "BREV", "FF0", "FF1", "FLBIT",
        "BCNT0", "BCNT1", "SEXT", "PACK", "BITSET0", "BITSET1", "LSHL1", "LSHL2", "LSHL3", "LSHL4",
        "CMP", "CMPK", "BITCMP0", "BITCMP1", "QUADMASK", "WQM",
    ];
    let Some(rest) = op.strip_prefix("S_") else {
        return false;
    };
    let head = rest.split('_').next().unwrap_or("");
    HEADS.contains(&head) && !op.ends_with("_term")
}

/// Opcodes that may be SALU (everything but VALU, memory and copy-like pseudos), for the
/// chain's upper bound.
fn maybe_salu(op: &str) -> bool {
    const NOT: &[&str] = &[
        "V_",
        "DS_",
        "BUFFER_",
        "TBUFFER_",
        "GLOBAL_",
        "FLAT_",
        "SCRATCH_",
        "IMAGE_",
        "S_LOAD",
        "S_BUFFER_LOAD",
    ];
    !NOT.iter().any(|p| op.starts_with(p))
        && !matches!(
            op,
            "COPY" | "REG_SEQUENCE" | "PHI" | "IMPLICIT_DEF" | "INSERT_SUBREG" | "EXTRACT_SUBREG"
        )
}

struct Walk {
    /// The visited instructions that record the copy as a sibling (the copy included).
    seen: BTreeSet<At>,
    /// Its SALU users (`SChain`).
    chain: BTreeSet<At>,
    /// An SCC compare or a copy into SCC was reached (the over-walk does not follow SCC).
    scc: bool,
    /// The under-walk's copies into VGPRs the pass surely counts (`NumSVCopies`).
    sv: usize,
}

/// Whether the pass surely counts the copy or REG_SEQUENCE into a VGPR at `at` as an SV copy:
/// a REG_SEQUENCE always; a copy when `tryChangeVGPRtoSGPRinCopy` surely refuses to make it an
/// SGPR copy (a reader in another block, or a generic opcode such as `COPY` or `PHI`).
fn surely_sv(f: &Function, readers: &BTreeMap<u32, Vec<At>>, at: At, x: u32) -> bool {
    const GENERIC: &[&str] = &[
        "COPY",
        "PHI",
        "REG_SEQUENCE",
        "INSERT_SUBREG",
        "EXTRACT_SUBREG",
        "IMPLICIT_DEF",
        "SUBREG_TO_REG",
        "KILL",
        "INLINEASM",
    ];
    let i = &f.blocks[at.0].insts[at.1];
    i.opcode == "REG_SEQUENCE"
        || readers
            .get(&x)
            .into_iter()
            .flatten()
            .any(|u| u.0 != at.0 || GENERIC.contains(&f.blocks[u.0].insts[u.1].opcode.as_str()))
}

/// The walk of `analyzeVGPRToSGPRCopy` from the copy at `from`. `over` (a superset of the
/// pass's walk): it goes on through copies into VGPRs and through every instruction but a VALU
/// one, and counts maybe-SALU users. Else (a subset): it stops at copies and REG_SEQUENCEs into
/// VGPRs and at SCC, goes on only through copies, REG_SEQUENCE, PHI and surely-SALU ops, and
/// counts surely-SALU users.
fn walk(f: &Function, readers: &BTreeMap<u32, Vec<At>>, from: At, over: bool) -> Walk {
    let mut w = Walk {
        seen: BTreeSet::new(),
        chain: BTreeSet::new(),
        scc: false,
        sv: 0,
    };
    let mut visited = BTreeSet::new();
    let mut todo = vec![from];
    while let Some(at) = todo.pop() {
        if !visited.insert(at) {
            continue;
        }
        let i = &f.blocks[at.0].insts[at.1];
        let op = i.opcode.as_str();
        let copy_like = matches!(op, "COPY" | "REG_SEQUENCE");
        let x = def(i);
        let into_vgpr = x.is_some_and(|x| bank(f, x) != 's');
        if copy_like && into_vgpr && !(over && op == "COPY") {
            if !over && x.is_some_and(|x| surely_sv(f, readers, at, x)) {
                w.sv += 1;
            }
            continue;
        }
        w.seen.insert(at);
        let scc_copy = op == "COPY"
            && i.defs
                .iter()
                .any(|d| matches!(&d.kind, OpKind::Phys(p) if p == "scc"));
        if op.starts_with("S_CMP") || op.starts_with("S_BITCMP") || scc_copy {
            w.scc = true;
            continue;
        }
        let through = match over {
            true => !op.starts_with("V_"),
            false => matches!(op, "COPY" | "REG_SEQUENCE" | "PHI") || surely_salu(op),
        };
        let Some(x) = x.filter(|x| through && (bank(f, *x) == 's' || over)) else {
            continue;
        };
        for u in readers.get(&x).into_iter().flatten().copied() {
            let uop = f.blocks[u.0].insts[u.1].opcode.as_str();
            if (over && maybe_salu(uop)) || (!over && surely_salu(uop)) {
                w.chain.insert(u);
            }
            todo.push(u);
        }
    }
    w
}

/// The registers computed from a lane-dependent value (`firstlane::lane_dependent`) through
/// any instruction but a lane read (whose result is one lane's value).
fn lane_derived(f: &Function) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    loop {
        let n = out.len();
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            let op = i.opcode.as_str();
            if op.starts_with("V_READFIRSTLANE") || op.starts_with("V_READLANE") {
                continue;
            }
            let reads = i
                .ops
                .iter()
                .any(|o| matches!(o.kind, OpKind::VReg { id, .. } if out.contains(&id)));
            if super::firstlane::lane_dependent(op) || reads {
                out.extend(i.defs.iter().filter_map(|d| match d.kind {
                    OpKind::VReg { id, .. } => Some(id),
                    _ => None,
                }));
            }
        }
        if out.len() == n {
            return out;
        }
    }
}

/// The defs of the VGPR-to-SGPR copies of `f` that si-fix-sgpr-copies certainly moves to the
/// VALU (see the module documentation).
pub(super) fn certain_valu(f: &Function) -> BTreeSet<u32> {
    let mut readers: BTreeMap<u32, Vec<At>> = BTreeMap::new();
    let mut defs: BTreeMap<u32, &Inst> = BTreeMap::new();
    let mut copies: Vec<(At, u32, bool)> = Vec::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        for (n, i) in blk.insts.iter().enumerate() {
            for o in &i.ops {
                if let OpKind::VReg { id, .. } = o.kind {
                    readers.entry(id).or_default().push((b, n));
                }
            }
            if let Some(x) = def(i) {
                defs.insert(x, i);
            }
            if let Some((x, special)) = v2s_copy(f, i) {
                copies.push(((b, n), x, special));
            }
        }
    }
    let derived = lane_derived(f);
    let source = |at: At| {
        f.blocks[at.0].insts[at.1]
            .uses()
            .next()
            .map(|o| o.kind.clone())
    };
    let src_derived =
        |at: At| matches!(source(at), Some(OpKind::VReg { id, .. }) if derived.contains(&id));
    // What the pass moves to the VALU while it still analyses (copies from physical
    // registers and AGPRs): a walk through it may be cut short there.
    let mut moved_early: BTreeSet<At> = BTreeSet::new();
    for c in copies.iter().filter(|c| c.2) {
        moved_early.extend(walk(f, &readers, c.0, true).seen);
    }
    // A copy of an immediate move becomes `S_MOV` (`isSafeToFoldImmIntoCopy`), not analysed.
    let imm_src = |at: At| {
        let d = match source(at) {
            Some(OpKind::VReg { id, .. }) => defs.get(&id),
            _ => None,
        };
        d.is_none_or(|d| d.opcode.starts_with("V_MOV") || d.opcode.starts_with("V_ACCVGPR"))
    };
    let analysed: Vec<At> = copies
        .iter()
        .filter(|(at, _, special)| !special && !imm_src(*at))
        .map(|c| c.0)
        .collect();
    // Lower bounds of the sibling sets: the under-walks of the analysed copies whose over-walk
    // meets nothing moved early (their walk in the pass is then at least the under-walk).
    let mut siblings: BTreeMap<At, Vec<At>> = BTreeMap::new();
    for at in &analysed {
        if !walk(f, &readers, *at, true).seen.is_disjoint(&moved_early) {
            continue;
        }
        for s in walk(f, &readers, *at, false).seen {
            siblings.entry(s).or_default().push(*at);
        }
    }
    let mut out = BTreeSet::new();
    for (at, x, special) in &copies {
        if src_derived(*at) || !(*special || analysed.contains(at)) {
            continue;
        }
        if *special {
            out.insert(*x);
            continue;
        }
        let over = walk(f, &readers, *at, true);
        if over.scc {
            continue;
        }
        // The pass's penalty counts the distinct sources of the siblings on the chain element
        // with the most; whichever that is, it is at least the fewest here.
        let penalty = over
            .chain
            .iter()
            .map(|s| {
                let srcs: BTreeSet<String> = siblings
                    .get(s)
                    .into_iter()
                    .flatten()
                    .filter(|c| *c != at)
                    .map(|c| format!("{:?}", source(*c)))
                    .collect();
                srcs.len()
            })
            .min()
            .unwrap_or(0);
        let penalty = penalty + walk(f, &readers, *at, false).sv;
        if over.chain.len().saturating_sub(penalty) < 3 {
            out.insert(*x);
        }
    }
    out
}
