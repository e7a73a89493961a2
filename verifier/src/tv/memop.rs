//! Memory operands (`:: (volatile load ...)`), compared once for the block checks (`lower.rs`)
//! and the register-allocation checker (`alloc_verdict.rs`) alike (breaker 11: 01-04, 06, 09,
//! 10). tv's model is one lane of one wave reading one memory: it cannot see what a memory
//! operand tells later passes and the memory legalizer, nor other waves. So a block pair is
//! `unsupported` when the after-block's memory operands say something the before-block's do
//! not:
//! - **volatile and atomic accesses** (a `volatile` operand, an atomic ordering or syncscope,
//!   an atomic read-modify-write opcode, an operand that both loads and stores): both blocks
//!   must have the same ones in the same order, each with the same opcode and memory operand
//!   text. LangRef: the number and order of volatile accesses may not change; an ordering or
//!   syncscope decides what si-memory-legalizer emits; an atomic split into a load and a store
//!   loses the updates of other lanes, waves and agents, which one lane cannot see.
//! - **claims** (`invariant`, `dereferenceable`, `non-temporal`, target flags such as
//!   `"amdgpu-noclobber"`, metadata `!tbaa`, `!alias.scope`, `!noalias`, `!range`): each
//!   claim of an after-operand must be made by a before-operand of the same block naming the
//!   same memory (`from`/`into`/`on` value and offset). Dropping a claim is a weakening.
//! - a spill or reload's operand naming another frame object than the one it addresses.
//!
//! A load a pass moved to another block keeps its claims (`ssa_load::justify_claims` marks
//! them `-as-before`, which this module does not read as claims).
//!
//! [`new_scalar_load`] is the function-level rule for scalar loads: the scalar data cache is
//! not coherent with vector stores (AMDGPUUsage, memory model GFX9), so a scalar load the
//! before-block did not have may read a stale line where the before read the vector store.

use super::mir::{Block, Function, Inst, OpKind};
use crate::rules::Loc;
use gcnsmt_semantics::target::Target;

/// The top-level groups of a `mem` text (`(load (s32) from %ir.p, addrspace 1), (...)`).
pub(super) fn groups(mem: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start, mut quote) = (Vec::new(), 0usize, 0usize, None);
    for (k, c) in mem.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '`' | '"') => quote = Some(c),
            (None, '(') => {
                if depth == 0 {
                    start = k;
                }
                depth += 1;
            }
            (None, ')') if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&mem[start..=k]);
                }
            }
            _ => {}
        }
    }
    out
}

/// A group's comma-separated parts (without its outer parentheses), split outside nested
/// parentheses and quotes: the access (`load (s32) from %ir.p + 4`), then `align 4`,
/// `addrspace 1`, `!tbaa !5` ...
fn parts(group: &str) -> Vec<&str> {
    let inner = group
        .strip_prefix('(')
        .and_then(|g| g.strip_suffix(')'))
        .unwrap_or(group);
    let (mut out, mut depth, mut start, mut quote) = (Vec::new(), 0usize, 0usize, None);
    for (k, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '`' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                out.push(inner[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(inner[start..].trim());
    out
}

/// The memory a group names: its `from`/`into`/`on` value with the offset (`%ir.p + 4`,
/// `%stack.0`, `@lds`), or "" when it names none.
pub(super) fn names(group: &str) -> &str {
    let first = parts(group).first().copied().unwrap_or("");
    [" from ", " into ", " on "]
        .iter()
        .filter_map(|w| first.find(w).map(|k| &first[k + w.len()..]))
        .next()
        .unwrap_or("")
        .trim()
}

/// The bytes a group names: its base value (`%ir.p`), the byte offset (`+ 4`) and the access
/// size from its type (`(s64)`, `(<2 x s32>)`); `None` when the text is not of that form.
pub(super) fn span(group: &str) -> Option<(&str, i64, u64)> {
    let name = names(group);
    let (base, off) = match name.rsplit_once(" + ") {
        Some((b, o)) => (b.trim(), o.trim().parse().ok()?),
        None => match name.rsplit_once(" - ") {
            Some((b, o)) => (b.trim(), -o.trim().parse::<i64>().ok()?),
            None => (name, 0),
        },
    };
    let first = parts(group).first().copied().unwrap_or("");
    let ty = first.split_once(" (")?.1.split_once(')')?.0;
    let bits = |t: &str| -> Option<u64> { t.trim().strip_prefix('s')?.parse().ok() };
    let size = match ty.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        Some(v) => {
            let (n, t) = v.split_once(" x ")?;
            n.trim().parse::<u64>().ok()? * bits(t)?
        }
        None => bits(ty)?,
    };
    (!base.is_empty() && size % 8 == 0).then_some((base, off, size / 8))
}

/// Whether the union of `spans` covers every byte of `want` (same base value).
fn covered(want: (&str, i64, u64), spans: &[(&str, i64, u64)]) -> bool {
    let (base, lo, n) = want;
    let have: Vec<(i64, i64)> = (spans.iter())
        .filter(|s| s.0 == base)
        .map(|s| (s.1, s.1 + s.2 as i64))
        .collect();
    super::vmem_span::covers(&have, (lo, lo + n as i64))
}

/// Whether a group names a buffer resource (`ptr addrspace(8)`, or a buffer fat pointer of
/// address space 7 or 9): its operand names the resource, not the bytes (every access through
/// `%ir.r` reads "from %ir.r", whatever its offsets), so a byte span means nothing there.
fn buffer_resource(group: &str) -> bool {
    parts(group)
        .iter()
        .any(|p| matches!(*p, "addrspace 7" | "addrspace 8" | "addrspace 9"))
}

/// Whether before-groups `hs` name every byte `g` names: by byte spans where all parse, else
/// by the same name and access text (a larger access is never covered by a smaller one). For
/// a buffer resource or a nameless operand, which name no bytes, the same name: a claim such
/// as `dereferenceable` is about the resource.
fn names_bytes_of(g: &str, hs: &[&str]) -> bool {
    if buffer_resource(g) || names(g).is_empty() {
        // No bytes named (a resource, or an operand with no value: `(invariant load (s64))`
        // of a scalar buffer load): the claim is about the access's resource.
        return hs.iter().any(|h| names(h) == names(g));
    }
    match (
        span(g),
        hs.iter().map(|h| span(h)).collect::<Option<Vec<_>>>(),
    ) {
        (Some(w), Some(spans)) => covered(w, &spans),
        _ => {
            let access = |x: &str| parts(x).first().map(|p| p.to_string());
            hs.iter()
                .any(|h| names(h) == names(g) && access(h) == access(g))
        }
    }
}

/// A group's claims: its flags before `load`/`store` except `volatile` (compared on its own),
/// and its metadata parts (`!noalias !7`). Words marked `-as-before` are no claims.
pub(super) fn claims(group: &str) -> Vec<String> {
    let ps = parts(group);
    let mut out: Vec<String> = Vec::new();
    if let Some(first) = ps.first() {
        for w in first.split_whitespace() {
            if w == "load" || w == "store" {
                break;
            }
            out.push(w.to_string());
        }
    }
    out.extend(
        ps.iter()
            .skip(1)
            .filter(|p| p.starts_with('!'))
            .map(|p| p.to_string()),
    );
    let marked = |c: &str| {
        c.split_whitespace()
            .any(|w| w.trim_matches('"').ends_with("-as-before"))
    };
    out.retain(|c| c != "volatile" && !marked(c));
    out
}

/// The claims of `group` that no group of `b` naming the same memory makes.
pub(super) fn unbacked(group: &str, b: &Block) -> Vec<String> {
    unbacked_by(group, b.insts.iter())
}

/// The claims of `i`'s `group` that the before-block's accesses of the same address do not
/// make: a memory operand names an IR value, which says nothing of the address the
/// instruction reads, so a claim copied from another access's operand is not backed
/// (breaker 16's 02). A scalar load's claim must be made for each of its dwords by a scalar
/// load of that dword by the same base register and SGPR offset (a merged load's dwords come
/// from several); a DS, MUBUF, GLOBAL or FLAT load or store's for each of its bytes by
/// accesses of the same base registers (`vmem_span.rs`); any other access's (atomics,
/// format, scratch) only by a before-access of the same opcode, operands and memory operand.
/// The claims left are paired by [`claim_pairs`] or make the block `unsupported`.
fn unbacked_at(i: &Inst, group: &str, b: &Block, target: Target) -> Vec<String> {
    use super::ssa_load::smem_bytes;
    let Some((base, soff, lo, hi)) = smem_bytes(i, target) else {
        return unbacked_vmem(i, group, b, target);
    };
    let loads: Vec<((i64, i64), Vec<String>)> = (b.insts.iter())
        .filter_map(|j| {
            let (jb, jo, jlo, jhi) = smem_bytes(j, target)?;
            let cs = groups(&j.mem).into_iter().flat_map(claims).collect();
            (jb == base && jo == soff).then_some(((jlo, jhi), cs))
        })
        .collect();
    claims(group)
        .into_iter()
        .filter(|c| {
            !(lo..hi).step_by(4).all(|d| {
                (loads.iter()).any(|((jlo, jhi), cs)| *jlo <= d && d + 4 <= *jhi && cs.contains(c))
            })
        })
        .collect()
}

/// [`unbacked_at`] for accesses other than scalar loads. An access the before-block has
/// unchanged (opcode, operands, memory operands) is backed by itself.
fn unbacked_vmem(i: &Inst, group: &str, b: &Block, target: Target) -> Vec<String> {
    use super::vmem_span::{covers, vmem_bytes};
    let twin = (b.insts.iter()).any(|j| j.opcode == i.opcode && j.key == i.key && j.mem == i.mem);
    if twin {
        return Vec::new();
    }
    let Some((base, spans)) = vmem_bytes(i, target) else {
        // NOT tied yet: image accesses name their resource, and si-load-store-opt merges
        // them (D16 channel merges); their claims stay backed by name (docs/tv.md).
        if i.opcode.starts_with("IMAGE_") {
            return unbacked_by(group, b.insts.iter());
        }
        return claims(group);
    };
    let value = |g: &str| span(g).map_or(names(g), |s| s.0).to_string();
    let same_base: Vec<(&Inst, Vec<(i64, i64)>)> = (b.insts.iter())
        .filter_map(|j| vmem_bytes(j, target).map(|(jb, js)| (j, jb, js)))
        .filter(|(_, jb, _)| *jb == base)
        .map(|(j, _, js)| (j, js))
        .collect();
    // The ranges this operand is about: a merged access lists one operand per element, not in
    // element order (`DS_WRITE2ST64_B32` lists its operands in program order of the stores it
    // merged), so an operand is about the ranges where a before-access of the same base names
    // the same IR value; all ranges when none does.
    let meets = |x: &(i64, i64), y: &(i64, i64)| x.0 < y.1 && y.0 < x.1;
    let named: Vec<(i64, i64)> = (spans.iter())
        .filter(|s| {
            same_base.iter().any(|(j, js)| {
                js.iter().any(|x| meets(x, s))
                    && groups(&j.mem).iter().any(|h| value(h) == value(group))
            })
        })
        .copied()
        .collect();
    let mine = if named.is_empty() { spans } else { named };
    // The claims made for each range: what all of a before-access's operands claim.
    let backing: Vec<((i64, i64), Vec<String>)> = (same_base.iter())
        .flat_map(|(j, js)| {
            let gs = groups(&j.mem);
            let first = gs.first().map(|g| claims(g)).unwrap_or_default();
            let all: Vec<String> = (first.into_iter())
                .filter(|c| gs.iter().all(|g| claims(g).contains(c)))
                .collect();
            js.iter().map(move |s| (*s, all.clone()))
        })
        .collect();
    claims(group)
        .into_iter()
        .filter(|c| {
            let made: Vec<(i64, i64)> = (backing.iter())
                .filter(|(_, cs)| cs.contains(c))
                .map(|(s, _)| *s)
                .collect();
            !mine.iter().all(|s| covers(&made, *s))
        })
        .collect()
}

/// The after-block's accesses whose claims only an access of another address backs
/// ([`unbacked_at`]), each paired with a before-block access of the same opcode and memory
/// operand text (the first not yet paired): (before index, after index). The lowering copies
/// both accesses' explicit operands where they run into variables the two sides must end
/// equal on (`volatile::observe`), so the claim rides on an access of the same address and
/// operands (si-fold-operands folding a zero register into an immediate offset still
/// compares equal; a borrowed operand does not).
pub(super) fn claim_pairs(before: &Block, after: &Block, target: Target) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (n, i) in after.insts.iter().enumerate() {
        let gs = groups(&i.mem);
        if gs
            .iter()
            .all(|g| unbacked_at(i, g, before, target).is_empty())
        {
            continue;
        }
        let partner = (before.insts.iter().enumerate()).find(|(k, j)| {
            j.opcode == i.opcode && j.mem == i.mem && !out.iter().any(|p| p.0 == *k)
        });
        if let Some((k, _)) = partner {
            out.push((k, n));
        }
    }
    out
}

fn unbacked_by<'a>(group: &str, insts: impl Iterator<Item = &'a Inst>) -> Vec<String> {
    let base = span(group).map_or(names(group), |s| s.0);
    let backing: Vec<(&str, Vec<String>)> = insts
        .flat_map(|j| groups(&j.mem))
        .filter(|g| span(g).map_or(names(g), |s| s.0) == base)
        .map(|g| (g, claims(g)))
        .collect();
    // Each claim must be made, for every byte the after-operand names, by before-operands
    // naming those bytes (a claim on 4 bytes says nothing of the 4 after them: breaker 13, 10).
    claims(group)
        .into_iter()
        .filter(|c| {
            let makers: Vec<&str> = backing
                .iter()
                .filter(|(_, cs)| cs.contains(c))
                .map(|(g, _)| *g)
                .collect();
            !names_bytes_of(group, &makers)
        })
        .collect()
}

/// Whether an opcode is an atomic read-modify-write (`BUFFER_ATOMIC_*`, `GLOBAL_ATOMIC_*`,
/// `DS_ADD_RTN_U32`, `DS_CMPST_B32` ...): every DS opcode but the plain and cross-lane ones.
fn atomic_opcode(op: &str) -> bool {
    const PLAIN_DS: [&str; 12] = [
        "DS_READ",
        "DS_WRITE",
        "DS_LOAD",
        "DS_STORE",
        "DS_SWIZZLE",
        "DS_PERMUTE",
        "DS_BPERMUTE",
        "DS_NOP",
        "DS_GWS",
        "DS_APPEND",
        "DS_CONSUME",
        "DS_ORDERED",
    ];
    op.contains("_ATOMIC_")
        || (op.starts_with("DS_") && !PLAIN_DS.iter().any(|p| op.starts_with(p)))
}

/// Whether a memory operand of `i` is `volatile`.
pub(super) fn is_volatile(i: &Inst) -> bool {
    groups(&i.mem).iter().any(|g| {
        parts(g)
            .first()
            .is_some_and(|p| p.split_whitespace().any(|w| w == "volatile"))
    })
}

/// Whether `i` is a volatile or atomic access: what must stay one to one.
pub(super) fn marked(i: &Inst) -> bool {
    const ORDERINGS: [&str; 6] = [
        "unordered",
        "monotonic",
        "acquire",
        "release",
        "acq_rel",
        "seq_cst",
    ];
    let words = |g: &str| -> Vec<String> {
        parts(g)
            .first()
            .map(|p| p.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    atomic_opcode(&i.opcode)
        || groups(&i.mem).iter().any(|g| {
            let w = words(g);
            let has = |x: &str| w.iter().any(|y| y == x);
            has("volatile")
                || (has("load") && has("store"))
                || w.iter().any(|y| y.starts_with("syncscope("))
                || ORDERINGS.iter().any(|o| has(o))
        })
}

/// How [`check`] ties an after-operand's claim to the before-block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Tie {
    /// To a before-operand naming the same memory: the register-allocation checker, which
    /// pairs instructions one to one with equal memory operands and follows the registers
    /// they read itself (`alloc_step::pair_ops`).
    Operands,
    /// To a before-access of the same address, or to a [`claim_pairs`] partner: for a pair
    /// the lowering checks as one, which compares the partners' operands (`lower.rs`).
    Lowered(Target),
    /// To a before-access of the same address only: for a block pair checked in pieces (split
    /// at barriers, `barrier.rs`), where a partner may sit in another piece, or in a piece
    /// that is never lowered, so no lowering compares the two (`memop_gate.rs`).
    Address(Target),
}

/// Why the after-block's memory operands say what the before-block's do not, and where.
/// `tie`: how a claim is backed ([`Tie`]); for the block checks an unbacked claim is reported
/// last and marked [`CLAIM_GAP`].
pub(crate) fn check(before: &Block, after: &Block, tie: Tie) -> Option<(Loc, String)> {
    let target = match tie {
        Tie::Operands => None,
        Tie::Lowered(t) | Tie::Address(t) => Some(t),
    };
    let list = |b: &Block| -> Vec<(Loc, String, String)> {
        b.insts
            .iter()
            .filter(|i| marked(i))
            .map(|i| (i.loc, i.opcode.clone(), i.mem.clone()))
            .collect()
    };
    let (lb, la) = (list(before), list(after));
    let same = |x: &(Loc, String, String), y: &(Loc, String, String)| (&x.1, &x.2) == (&y.1, &y.2);
    if lb.len() != la.len() || lb.iter().zip(&la).any(|(x, y)| !same(x, y)) {
        let k = lb.iter().zip(&la).take_while(|(x, y)| same(x, y)).count();
        let at = la.get(k).map_or(after.loc, |x| x.0);
        let why = "the pass changed, added, removed, merged or reordered a volatile or atomic \
                   access (its opcode or memory operand: ordering, syncscope, volatile): \
                   their number, order and atomicity are not modelled";
        return Some((at, why.into()));
    }
    let paired: Vec<usize> = match tie {
        Tie::Lowered(t) => claim_pairs(before, after, t),
        Tie::Operands | Tie::Address(_) => Vec::new(),
    }
    .into_iter()
    .map(|p| p.1)
    .collect();
    let mut claim_gap = None;
    for (n, i) in after.insts.iter().enumerate() {
        for g in groups(&i.mem) {
            let open = match target {
                // A paired access's address is compared where it runs (`claim_pairs`).
                Some(_) if paired.contains(&n) => unbacked(g, before),
                Some(t) => unbacked_at(i, g, before, t),
                None => unbacked(g, before),
            };
            if let Some(c) = open.first() {
                if target.is_some() && claim_gap.is_none() {
                    let why = format!("a memory operand the pass made `{c}` (a claim no operand of the before-block naming the same memory, on an access of the same address, makes)");
                    claim_gap = Some((i.loc, why));
                    continue;
                }
                if target.is_none() {
                    let why = format!("a memory operand the pass made `{c}` (a claim no operand of the before-block naming the same memory makes)");
                    return Some((i.loc, why));
                }
            }
        }
        if let Some(why) = frame_named(i) {
            return Some((i.loc, why));
        }
        if let Some(why) = flat_space_narrowed(i, before) {
            return Some((i.loc, why));
        }
    }
    claim_gap.map(|(l, why)| (l, format!("{CLAIM_GAP}{why}")))
}

/// The start of [`check`]'s reason for an unbacked claim in a block check: the caller still
/// solves, and a refutation stands (the hardware reads what it reads, whatever the operand
/// claims); only a proof becomes `unsupported` (the claim is what later passes would trust).
pub(crate) const CLAIM_GAP: &str = "claim: ";

/// A FLAT access whose memory operand names an address space (`addrspace 1`) that no operand
/// of the before-block naming the same memory names: the space is a claim later passes rely
/// on (SIInsertWaitcnts counts a FLAT access that cannot reach LDS like GLOBAL and drops its
/// lgkmcnt wait: breaker 16's 03), and tv does not check it.
fn flat_space_narrowed(i: &Inst, before: &Block) -> Option<String> {
    if !i.opcode.starts_with("FLAT_") {
        return None;
    }
    let space = |g: &str| -> String {
        parts(g)
            .iter()
            .find(|p| p.starts_with("addrspace "))
            .map_or_else(String::new, |p| p.to_string())
    };
    for g in groups(&i.mem) {
        let s = space(g);
        if s.is_empty() {
            continue;
        }
        let backed = before
            .insts
            .iter()
            .flat_map(|j| groups(&j.mem))
            .any(|h| names(h) == names(g) && space(h) == s);
        if !backed {
            return Some(format!(
                "a FLAT access's memory operand the pass made `{s}` (no operand of the \
                 before-block naming the same memory says so): a claim later passes rely on"
            ));
        }
    }
    None
}

/// A memory operand naming another frame object than the one the instruction addresses: a
/// later pass would move the reload above the spill that writes it (breaker8 06/07).
fn frame_named(i: &Inst) -> Option<String> {
    let frame = |t: &str| t.starts_with("%stack.") || t.starts_with("%fixed-stack.");
    let frames: Vec<&str> = i
        .ops
        .iter()
        .filter_map(|o| match &o.kind {
            OpKind::Other(t) if frame(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    if frames.is_empty() {
        return None;
    }
    let named = i
        .mem
        .split(|c: char| c.is_whitespace() || c == ',' || c == ')' || c == '(')
        .find(|w| frame(w) && !frames.contains(w))?;
    Some(format!(
        "a memory operand names {named}, not the frame object the instruction addresses"
    ))
}

/// Why [`new_scalar_load`]'s load is `unsupported`.
pub(crate) const NEW_SCALAR: &str = "a scalar load the before-block does not have, in a \
    callable function or one with vector stores, calls, atomics, fences or barriers: the \
    scalar cache is not \
    coherent with vector stores (it may read what a store, a callee's or another wave's, \
    replaced), which the model does not see";

/// Whether `i` may let the memory a scalar load reads change behind the scalar cache
/// (breaker 15, finding 01): a vector or FLAT store; a call (the callee may store through any
/// pointer it is given, and returns with the scalar cache unaware); a volatile or atomic
/// access, a fence or a barrier (an acquire makes other agents' and waves' vector stores
/// visible to this wave's vector loads; the memory legalizer invalidates the vector caches
/// only, since LLVM never reads such memory with scalar loads); inline assembly.
fn changes_memory(i: &Inst, target: Target) -> bool {
    let op = i.opcode.as_str();
    const SYNC: [&str; 7] = [
        "SI_CALL",
        "SI_TCRETURN",
        "S_SWAPPC",
        "S_SETPC",
        "ATOMIC_FENCE",
        "S_BARRIER",
        "INLINEASM",
    ];
    SYNC.iter().any(|p| op.starts_with(p))
        || marked(i)
        || (!op.starts_with("S_") && !op.starts_with("SI_") && super::effects::writes(i, target).0)
}

fn scalar_load(op: &str) -> bool {
    op.starts_with("S_LOAD_") || op.starts_with("S_BUFFER_LOAD_")
}

/// The first scalar load of the after-block that the before-block has no scalar load of the
/// same memory for, in a function whose after-file has anything that may change memory
/// anywhere ([`changes_memory`]: it may precede the load on some path; rule 12 covers only
/// stores earlier in the same block). The
/// scalar cache is not coherent with vector stores, so such a load may read what the store
/// replaced. Not when it is `invariant` or `"amdgpu-noclobber"` (LLVM's promise that no store
/// of the kernel writes the memory; [`check`] makes sure the before-block made the claim).
pub(crate) fn new_scalar_load<'a>(
    before: &Block,
    after: &'a Block,
    fa: &Function,
    target: Target,
) -> Option<&'a Inst> {
    // A callable function may be entered with the caller's vector stores still unseen by the
    // scalar cache (breaker 16's 04: the caller's own scalar load cached the line, then it
    // stored to it and called): as if the function began with a store.
    if !super::inactive::callable(fa)
        && !fa
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|i| changes_memory(i, target))
    {
        return None;
    }
    // A load a pass moved or merged keeps its claims marked `-as-before`, where the same
    // instruction text (`ssa_load::justify_claims`) or the bytes its operands read
    // (`merged_claims`) tie them to the before-file's. An unmarked claim is backed only by an
    // operand naming the same IR value, which says nothing of the address the load reads
    // (breaker 16's 02: an `invariant` operand copied from a kernarg load onto a load of a
    // global pointer), so it exempts nothing.
    let promised = |g: &str| {
        let first = parts(g).first().copied().unwrap_or("");
        first.split_whitespace().any(|w| {
            let w = w.trim_matches('"');
            w == "invariant-as-before" || w == "amdgpu-noclobber-as-before"
        })
    };
    // The bytes the before-block's scalar loads read, by base operand and offset.
    let before_bytes: Vec<(OpKind, Option<OpKind>, i64, i64)> = before
        .insts
        .iter()
        .filter_map(|j| super::ssa_load::smem_bytes(j, target))
        .collect();
    let covered = |i: &Inst| {
        let Some((base, soff, lo, hi)) = super::ssa_load::smem_bytes(i, target) else {
            return false;
        };
        (lo..hi).step_by(4).all(|b| {
            (before_bytes.iter())
                .any(|(kb, ko, klo, khi)| *kb == base && *ko == soff && *klo <= b && b + 4 <= *khi)
        })
    };
    after
        .insts
        .iter()
        .filter(|i| scalar_load(&i.opcode))
        .find(|i| {
            let gs = groups(&i.mem);
            if !gs.is_empty() && gs.iter().all(|g| promised(g)) {
                return false;
            }
            let old = before
                .insts
                .iter()
                .any(|j| j.key == i.key && j.mem == i.mem);
            // A load of bytes a scalar load of the before-block reads, by the same base
            // register and offsets (what the instruction reads, not what its memory operand
            // names).
            !old && !covered(i)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_byte_coverage() {
        // Sizes from the MIR type: s64 is 8 bytes, <2 x s32> 8, s128 16 (LLT notation).
        let g = |t: &str| format!("(invariant load {t}, addrspace 4)");
        let (a, b, c) = (
            g("(s64) from %ir.p"),
            g("(<2 x s32>) from %ir.p + 8"),
            g("(s32) from %ir.p + 4"),
        );
        assert_eq!(span(&a), Some(("%ir.p", 0, 8)));
        assert_eq!(span(&b), Some(("%ir.p", 8, 8)));
        let four = g("(s32) from %ir.p");
        // Breaker 13, finding 10: 4 bytes at p do not cover the 8 bytes at p.
        assert!(!names_bytes_of(&a, &[four.as_str()]));
        assert!(names_bytes_of(&a, &[four.as_str(), c.as_str()]));
        assert!(names_bytes_of(&c, &[a.as_str()]));
        assert!(!names_bytes_of(&b, &[a.as_str(), c.as_str()]));
        let q = g("(s32) from %ir.q + 4");
        assert!(!names_bytes_of(&c, &[q.as_str()]));
    }

    #[test]
    fn groups_names_and_claims() {
        let m = "(dereferenceable invariant load (s64) from %ir.p + 4, align 4, !noalias !7, \
                 addrspace 4), (store (s32) into `ptr addrspace(1) poison`, addrspace 1)";
        let gs = groups(m);
        assert_eq!(gs.len(), 2);
        assert_eq!(names(gs[0]), "%ir.p + 4");
        assert_eq!(names(gs[1]), "`ptr addrspace(1) poison`");
        assert_eq!(
            claims(gs[0]),
            vec!["dereferenceable", "invariant", "!noalias !7"]
        );
        assert!(claims(gs[1]).is_empty());
        let v = "(volatile \"amdgpu-noclobber\" load (s32) on @lds, addrspace 3)";
        assert_eq!(claims(v), vec!["\"amdgpu-noclobber\""]);
        assert_eq!(names(v), "@lds");
        assert!(claims("(invariant-as-before load (s32) from %ir.q)").is_empty());
    }

    #[test]
    fn atomic_opcodes() {
        assert!(atomic_opcode("DS_ADD_RTN_U32_gfx9"));
        assert!(atomic_opcode("BUFFER_ATOMIC_ADD_OFFEN_RTN"));
        assert!(atomic_opcode("DS_CMPST_B32"));
        assert!(!atomic_opcode("DS_READ_B32_gfx9"));
        assert!(!atomic_opcode("DS_WRITE2_B32_gfx9"));
        assert!(!atomic_opcode("GLOBAL_LOAD_DWORD_SADDR"));
    }
}
