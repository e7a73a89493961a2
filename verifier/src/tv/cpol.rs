//! Cache policy across a pass: one rule for every memory family (see [`cache_policy`]).

use super::mir::{Block, Inst, OpKind};
use super::opcodes::{self, MirOp};
use gcnsmt_lifter::mubuf_table::MubufClass;
use gcnsmt_semantics::target::{Gen, Target};
use std::collections::BTreeSet;

/// What the cache policies of a block pair's memory accesses allow ([`cache_policy`]).
#[derive(Debug)]
pub enum Policy {
    /// No access carries a policy, or one the lowering reads itself: lower the blocks as they are.
    Keep,
    /// Every after-access's policy includes every before-access's bits: the blocks with every
    /// policy operand set to 0 (the policy picks caches and coherence, not the bytes one lane
    /// reads or writes, and none was weakened).
    Strip(Box<(Block, Block)>),
    /// A policy bit some before-access has is on no after-access: a weaker policy (`refuted`).
    Weakened(String),
    /// Policies changed in a way that is neither kept nor strengthened for every access
    /// (gfx12's `th`/`scope` values are not ordered): `unsupported`.
    Mixed(String),
}

/// The index in `i.ops` of a memory access's cache-policy operand (`glc slc dlc`, gfx90a `scc`,
/// gfx940 `sc0 sc1 nt`, gfx12 `th scope`): the last explicit operand of GLOBAL, FLAT and
/// scalar loads; the one before `swz` of MUBUF loads and stores. Atomics are left out: their
/// `glc` (gfx940 `sc0`, gfx12 `th:TH_ATOMIC_RETURN`) says whether the old value returns.
fn cpol_index(i: &Inst, target: Target) -> Option<usize> {
    let explicit: Vec<usize> = (0..i.ops.len())
        .filter(|k| !i.ops[*k].flags.implicit && !i.ops[*k].flags.implicit_def)
        .collect();
    let from_end = match opcodes::lookup(target, &i.opcode)? {
        MirOp::Global { .. } | MirOp::Flat { .. } | MirOp::Smem { .. } => 1,
        MirOp::Mubuf { shape, .. } if shape.class != MubufClass::Atomic => 2,
        _ => return None,
    };
    let k = *explicit.get(explicit.len().checked_sub(from_end)?)?;
    matches!(i.ops[k].kind, OpKind::Imm(_)).then_some(k)
}

/// The policy bits of a load (an access with a definition and a cache-policy operand), or
/// `None` for anything else (stores, atomics, LDS, ALU ops).
pub(super) fn load_policy(i: &Inst, target: Target) -> Option<i64> {
    if i.defs.is_empty() {
        return None;
    }
    match i.ops[cpol_index(i, target)?].kind {
        OpKind::Imm(c) => Some(policy_bits(c, target)),
        _ => None,
    }
}

/// Names of the policy bits in `bits` on `target` (the MIR cpol operand, `SIDefines.h`
/// `CPol`: GLC 1, SLC 2, DLC 4, SCC 16; gfx940 SC0 1, NT 2, SC1 16).
fn cpol_names(bits: i64, target: Target) -> String {
    let gfx940 = matches!(target, Target::Gfx942);
    let names: &[(i64, &str)] = if gfx940 {
        &[(1, "sc0"), (2, "nt"), (16, "sc1")]
    } else {
        &[(1, "glc"), (2, "slc"), (4, "dlc"), (16, "scc")]
    };
    let v: Vec<&str> = names
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if v.is_empty() {
        format!("{bits:#x}")
    } else {
        v.join(" ")
    }
}

/// The policy part of a cache-policy operand value `c` on `target`. Before gfx12 every bit
/// is policy (`glc slc dlc scc`, gfx940 `sc0 sc1 nt`). From gfx12 on the operand also carries
/// bits that are no policy at all (LLVM 22 `SIDefines.h` `CPol`: `TH` 2:0, `SCOPE` 4:3 and `NV`
/// 5 are the policy, `CPol::ALL`; `SCAL` 11 is gfx1250's `scale_offset`, which scales the
/// address's VGPR offset by the access size, `SIInstrInfo`/`GCNSubtarget::hasScaleOffset`):
/// those stay in the operand for the lowering, which models `scale_offset` or refuses it.
pub(super) fn policy_bits(c: i64, target: Target) -> i64 {
    if target.gen() >= Gen::Gfx12 {
        c & GFX12_POLICY
    } else {
        c
    }
}

/// gfx12 `CPol::ALL`: `TH` (bits 2:0), `SCOPE` (4:3), `NV` (5).
const GFX12_POLICY: i64 = 0x3f;

/// One policy entry per access of a block.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Access {
    /// The access's opcode and its non-policy operands: the key that pairs it with an access
    /// of the other side.
    key: String,
    /// Its policy bits.
    policy: i64,
    /// It returns a value (a load; a store has no result).
    load: bool,
}

/// One rule for every memory family (LDS has no policy; MUBUF and MTBUF loads and stores,
/// GLOBAL, FLAT and scalar loads do): a pass may keep an access's cache policy or strengthen
/// it, never weaken or drop it. Before gfx12 the policy is a set of flags, each asking for more
/// coherence or less caching (AMD Vega ISA guide, "GLC", "SLC"; RDNA guides, "DLC"; the MI200
/// guide, "SCC"; the MI300 guide, "SC0 SC1 NT"), so a superset is at least as strong. Accesses
/// equal on both sides (opcode, operands and policy) keep theirs and are set aside
/// ([`unpaired`]); of the rest, the pair is checked with the policies left out when every
/// remaining after-access has every bit some remaining before-access has (or one side has none
/// left: only deletions, checked by the memory comparison, or only additions). A bit that some
/// remaining before-access has and no remaining after-access has was dropped: refuted.
/// gfx12's `th`/`scope` codes are not ordered this way: the remaining accesses must all have
/// one and the same policy; anything else is `unsupported`. Only the policy bits count
/// ([`policy_bits`]): gfx1250's `scale_offset` bit is an address bit.
pub fn cache_policy(before: &Block, after: &Block, target: Target) -> Policy {
    let (ab, aa) = (accesses(before, target), accesses(after, target));
    if ab.iter().chain(&aa).all(|a| a.policy == 0) {
        return Policy::Keep;
    }
    let gfx12 = target.gen() >= Gen::Gfx12;
    // Loads of one policy on both sides: then no use can be moved from a load with a policy
    // to one without (the memory model gives both the same value; the hardware may not:
    // breaker7 02), and only the accesses the pass changed need comparing ([`unpaired`]).
    // Otherwise every access is compared with every other, as before 2026-12-05.
    let load_policies: BTreeSet<i64> = ab
        .iter()
        .chain(&aa)
        .filter(|a| a.load)
        .map(|a| a.policy)
        .collect();
    let (rb, ra) = if load_policies.len() <= 1 {
        unpaired(ab.clone(), aa.clone())
    } else {
        (ab.clone(), aa.clone())
    };
    let pol = |v: &[Access]| v.iter().map(|a| a.policy).collect::<Vec<i64>>();
    let (pb, pa) = (pol(&rb), pol(&ra));
    let union_b = pb.iter().fold(0, |a, c| a | c);
    let union_a = pa.iter().fold(0, |a, c| a | c);
    let inter_a = pa.iter().fold(!0i64, |a, c| a & c);
    // Added accesses must have every bit any before-access has (pre-gfx12).
    let union_all_b = ab.iter().fold(0, |a, c| a | c.policy);
    if gfx12 {
        let same = pb.iter().chain(&pa).collect::<BTreeSet<_>>().len() <= 1;
        if !same || (pa.is_empty() && union_b != 0) {
            return Policy::Mixed(
                "the pass changed a gfx12 cache policy (th/scope), which is not ordered".into(),
            );
        }
    } else if union_b & !union_a != 0 {
        return Policy::Weakened(format!(
            "the pass dropped cache policy {} (a weaker policy: other agents may see stale data)",
            cpol_names(union_b & !union_a, target)
        ));
    } else if !pa.is_empty() && inter_a & (union_b | union_all_b) != union_b | union_all_b {
        return Policy::Mixed(format!(
            "an access lost cache policy {} while another kept it",
            cpol_names((union_b | union_all_b) & !inter_a, target)
        ));
    }
    let strip = |b: &Block| {
        let mut b = b.clone();
        for i in b.insts.iter_mut() {
            if let Some(k) = cpol_index(i, target) {
                if let OpKind::Imm(c) = i.ops[k].kind {
                    i.ops[k].kind = OpKind::Imm(c & !policy_bits(c, target));
                }
            }
        }
        b
    };
    Policy::Strip(Box::new((strip(before), strip(after))))
}

/// The accesses of `b` that carry a policy operand, in order: (opcode and every operand but
/// the policy's own bits, as text; the policy bits).
fn accesses(b: &Block, target: Target) -> Vec<Access> {
    b.insts
        .iter()
        .filter_map(|i| {
            let k = cpol_index(i, target)?;
            let OpKind::Imm(c) = i.ops[k].kind else {
                return None;
            };
            // Kinds only: `killed` and other flags do not change what is accessed.
            let kinds: Vec<OpKind> = (i.defs.iter().chain(&i.ops))
                .enumerate()
                .map(|(n, o)| match o.kind {
                    OpKind::Imm(c) if n == i.defs.len() + k => {
                        OpKind::Imm(c & !policy_bits(c, target))
                    }
                    ref kind => kind.clone(),
                })
                .collect();
            let key = format!("{} {kinds:?}", i.opcode);
            Some(Access {
                key,
                policy: policy_bits(c, target),
                load: !i.defs.is_empty(),
            })
        })
        .collect()
}

/// The accesses of each side left when those equal on both sides (key and policy, as
/// multisets: a pass may reorder accesses, not move a policy from one access to another) are
/// taken out.
fn unpaired(mut b: Vec<Access>, mut a: Vec<Access>) -> (Vec<Access>, Vec<Access>) {
    b.sort();
    a.sort();
    let (mut rb, mut ra) = (Vec::new(), Vec::new());
    let (mut x, mut y) = (b.into_iter().peekable(), a.into_iter().peekable());
    loop {
        match (x.peek(), y.peek()) {
            (Some(p), Some(q)) if p == q => {
                x.next();
                y.next();
            }
            (Some(p), Some(q)) if p < q => rb.extend(x.next()),
            (Some(_), Some(_)) => ra.extend(y.next()),
            (Some(_), None) => rb.extend(x.next()),
            (None, Some(_)) => ra.extend(y.next()),
            (None, None) => return (rb, ra),
        }
    }
}

/// Cache-policy bits as llvm-mc spells them (LLVM `CPol`: GLC 1, SLC 2, DLC 4, SCC 16;
/// gfx940: SC0 1, NT 2, SC1 16; gfx12: TH 2:0, SCOPE 4:3).
pub(super) fn cpol_text(target: Target, cpol: i64, atomic: bool) -> Result<String, String> {
    let g = target.gen();
    let mut out = String::new();
    if g >= Gen::Gfx12 {
        let th = cpol & 7;
        let scope = (cpol >> 3) & 3;
        if scope != 0 || (th != 0 && !(atomic && th == 1)) || cpol >> 5 != 0 {
            return Err(format!(
                "cache policy {cpol} is not modelled on {}",
                target.name()
            ));
        }
        if th == 1 {
            out.push_str(" th:TH_ATOMIC_RETURN");
        }
        return Ok(out);
    }
    let gfx940 = matches!(target, Target::Gfx942 | Target::Gfx950);
    let names: &[(i64, &str)] = if gfx940 {
        &[(1, "sc0"), (16, "sc1"), (2, "nt")]
    } else {
        &[(1, "glc"), (2, "slc"), (4, "dlc"), (16, "scc")]
    };
    let mut rest = cpol;
    for (bit, n) in names {
        if cpol & bit != 0 {
            out.push(' ');
            out.push_str(n);
            rest &= !bit;
        }
    }
    if rest != 0 {
        return Err(format!("cache policy bits {rest:#x} are not modelled"));
    }
    Ok(out)
}
