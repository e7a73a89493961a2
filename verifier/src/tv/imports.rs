//! Definitions a block reads from other blocks, made known to the block's check.
//!
//! A block pair is checked with the virtual registers it reads but does not define as free
//! inputs. A pass that rewrites a use across blocks (si-peephole-sdwa folds `%2 =
//! V_LSHRREV_B32_e64 16, %0` of another block into an SDWA select of `%0`) is then refuted
//! although `%2` equals `%0 >> 16` wherever it is read. When that relation provably holds in
//! every lane that runs the block, the definition is put at the start of both sides, so
//! `%2` is computed from `%0` there.
//!
//! Sound when (checked here; argument in docs/tv.md, assumption 18):
//! - the function's CFG has no cycle, so every block runs at most once per wave and a value,
//!   once written, is never written again (no temporal divergence);
//! - no instruction writes EXEC in either file but a terminator that only clears EXEC bits
//!   (`SI_IF`, `S_AND_B64_term $exec, x`...; not `S_OR_B64_term`, `S_MOV_B64_term`, which
//!   turn lanes back on), so a lane active in a block was active in every block that
//!   dominates it;
//! - `%r` and every virtual register the definition reads are defined exactly once in each
//!   file, the definition has the same text in both files and its block strictly dominates the
//!   checked block: a lane active in the block took a path through the definition, which read
//!   the operands' final values;
//! - the definition is a modelled VALU op (or SDWA op) with one result and no physical
//!   operands but `$exec` (lane-local: its result in a lane depends only on that lane's
//!   operands).

use super::diff::{BlockPair, FnPair};
use super::mir::{Block, Function, Inst, OpKind};
use super::opcodes::{self, MirOp};
use gcnsmt_semantics::target::Target;
use std::collections::{BTreeMap, BTreeSet};

/// `bp` with the definitions it may import put first on both sides (see the module doc).
pub fn with_imports(fp: &FnPair, bp: &BlockPair, target: Target) -> BlockPair {
    let (fb, fa) = (fp.before, fp.after);
    if !acyclic(fb) || exec_set_inside_blocks(fb) || exec_set_inside_blocks(fa) {
        return bp.clone();
    }
    let (db, da) = (def_sites(fb), def_sites(fa));
    let local: BTreeSet<u32> = super::lower::defined(&bp.before)
        .union(&super::lower::defined(&bp.after))
        .copied()
        .collect();
    let mut read = BTreeSet::new();
    for i in bp.before.insts.iter().chain(&bp.after.insts) {
        for o in i
            .ops
            .iter()
            .filter(|o| !o.flags.implicit_def && !o.flags.def)
        {
            if let OpKind::VReg { id, .. } = o.kind {
                if !local.contains(&id) {
                    read.insert(id);
                }
            }
        }
    }
    let mut out = bp.clone();
    let mut pre_b = Vec::new();
    let mut pre_a = Vec::new();
    for r in read {
        let (Some(&(nb, ib)), Some(&(na, ia))) = (db.get(&r), da.get(&r)) else {
            continue;
        };
        let (Some(ib), Some(ia)) = (ib, ia) else {
            continue;
        };
        if nb != na || ib.key != ia.key || nb == bp.num || !importable(ib, &db, &da, target) {
            continue;
        }
        if !dominates(fb, nb, bp.num) {
            continue;
        }
        pre_b.push(ib.clone());
        pre_a.push(ia.clone());
    }
    out.before.insts.splice(0..0, pre_b);
    out.after.insts.splice(0..0, pre_a);
    out
}

/// Whether `i` is a lane-local modelled VALU op with one virtual result whose register
/// operands are virtual and defined once.
fn importable(
    i: &Inst,
    db: &BTreeMap<u32, (u32, Option<&Inst>)>,
    da: &BTreeMap<u32, (u32, Option<&Inst>)>,
    target: Target,
) -> bool {
    let valu = match opcodes::lookup(target, &i.opcode) {
        Some(MirOp::Alu {
            mnemonic,
            sdst: false,
            pseudo: false,
            vcc: false,
            vcc_in: false,
            mask: false,
            ..
        }) => mnemonic.starts_with("v_") && mnemonic != "v_readfirstlane_b32",
        Some(MirOp::Sdwa(s)) => s.kind != super::sdwa::ModKind::Cndmask,
        _ => false,
    };
    let one_def = i.defs.len() == 1 && matches!(i.defs[0].kind, OpKind::VReg { .. });
    let ops_ok = i.ops.iter().all(|o| match &o.kind {
        OpKind::Imm(_) => !o.flags.implicit_def,
        OpKind::VReg { id, .. } => {
            !o.flags.implicit_def
                && !o.flags.def
                && db.get(id).is_some_and(|d| d.1.is_some())
                && da.get(id).is_some_and(|d| d.1.is_some())
        }
        // Not `$mode`: a float op's result depends on MODE, which may change between the two
        // blocks (S_SETREG).
        OpKind::Phys(p) => o.flags.implicit && p == "exec",
        _ => false,
    });
    valu && one_def && ops_ok
}

/// Virtual register -> (block, its one defining instruction; `None` when defined more than
/// once or by a PHI/IMPLICIT_DEF, which give no relation).
fn def_sites(f: &Function) -> BTreeMap<u32, (u32, Option<&Inst>)> {
    let mut out: BTreeMap<u32, (u32, Option<&Inst>)> = BTreeMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            let flagged = i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def);
            for d in i.defs.iter().chain(flagged) {
                let OpKind::VReg { id, .. } = d.kind else {
                    continue;
                };
                let plain = !matches!(i.opcode.as_str(), "PHI" | "IMPLICIT_DEF");
                let whole = matches!(d.kind, OpKind::VReg { sub: None, .. });
                match out.get_mut(&id) {
                    Some(e) => e.1 = None,
                    None => {
                        out.insert(id, (b.num, (plain && whole).then_some(i)));
                    }
                }
            }
        }
    }
    out
}

/// Whether an instruction writes EXEC other than a terminator that only turns lanes off
/// ([`narrows_exec`]): a lane could then be inactive where the definition runs yet active in
/// a block it dominates (`SI_END_CF`, WWM, `SI_INIT_EXEC`, `$exec = S_MOV_B64`, and the
/// terminators `$exec = S_OR_B64_term $exec, %m` / `S_MOV_B64_term %m`, which turn lanes back
/// on for the successor).
fn exec_set_inside_blocks(f: &Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
        let writes = i
            .defs
            .iter()
            .chain(i.ops.iter().filter(|o| o.flags.def || o.flags.implicit_def))
            .any(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")));
        writes && !(super::lower::is_terminator(&i.opcode) && narrows_exec(i))
    })
}

/// Whether terminator `i` can only clear EXEC bits: `SI_IF` (EXEC &= cond), or
/// `$exec = S_AND(N2)_B64/B32_term $exec, x` / `S_AND_SAVEEXEC_*_term x` (EXEC & x, EXEC & !x).
fn narrows_exec(i: &Inst) -> bool {
    let op = i.opcode.as_str();
    let exec = |o: Option<&super::mir::Operand>| {
        o.is_some_and(|o| matches!(&o.kind, OpKind::Phys(p) if p.starts_with("exec")))
    };
    let to_exec = i.defs.len() == 1 && exec(i.defs.first());
    let mut srcs = i.uses().filter(|o| !o.flags.implicit);
    match op {
        "SI_IF" => true,
        "S_AND_SAVEEXEC_B64_term" | "S_AND_SAVEEXEC_B32_term" => true,
        "S_AND_B64_term" | "S_AND_B32_term" => {
            let (a, b) = (srcs.next(), srcs.next());
            to_exec && (exec(a) || exec(b))
        }
        "S_ANDN2_B64_term" | "S_ANDN2_B32_term" => to_exec && exec(srcs.next()),
        _ => false,
    }
}

/// Whether the CFG has no cycle (Kahn's algorithm over every block).
fn acyclic(f: &Function) -> bool {
    let mut indeg: BTreeMap<u32, usize> = f.blocks.iter().map(|b| (b.num, 0)).collect();
    for b in &f.blocks {
        for s in &b.successors {
            *indeg.entry(*s).or_default() += 1;
        }
    }
    let succ: BTreeMap<u32, &Block> = f.blocks.iter().map(|b| (b.num, b)).collect();
    let mut ready: Vec<u32> = indeg
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(n, _)| *n)
        .collect();
    let mut seen = 0;
    while let Some(n) = ready.pop() {
        seen += 1;
        for s in succ.get(&n).map(|b| b.successors.as_slice()).unwrap_or(&[]) {
            let d = indeg.get_mut(s).expect("every successor is a block");
            *d -= 1;
            if *d == 0 {
                ready.push(*s);
            }
        }
    }
    seen == indeg.len()
}

/// Whether block `d` dominates block `n`: every path from the entry (the first block) to `n`
/// passes `d`, that is `n` is not reached from the entry with `d` taken out. Unreachable
/// blocks are dominated by every block (they never run, so any relation holds vacuously).
/// One search, linear in the function's size; a table of every block's dominators is
/// quadratic (issue 33: a chain of 10,000 blocks).
fn dominates(f: &Function, d: u32, n: u32) -> bool {
    if d == n {
        return true;
    }
    let succ: BTreeMap<u32, &Block> = f.blocks.iter().map(|b| (b.num, b)).collect();
    let mut seen = BTreeSet::new();
    let mut work: Vec<u32> = f.blocks.first().map(|b| b.num).into_iter().collect();
    while let Some(k) = work.pop() {
        if k == d || !seen.insert(k) {
            continue;
        }
        if k == n {
            return false;
        }
        work.extend(succ.get(&k).map(|b| b.successors.as_slice()).unwrap_or(&[]));
    }
    true
}
