//! The SI/CI VCCZ bug (gfx6, gfx7; LLVM `GCNSubtarget::hasReadVCCZBug`): a scalar memory
//! access may corrupt the VCCZ bit, so `s_cbranch_vccz`/`s_cbranch_vccnz` may branch the wrong
//! way after one. LLVM SIInsertWaitcnts: "There is a hardware bug on CI/SI where SMRD
//! instruction may corrupt vccz bit, so when we detect that an instruction may read from a
//! corrupt vccz bit, we need to: 1. Insert s_waitcnt lgkm(0) to wait for all outstanding SMRD
//! operations to complete. 2. Restore the correct value of vccz by writing the current value
//! of vcc back to vcc"; a write of VCC "while there's an outstanding smem read may get
//! clobbered as soon as any read completes".
//!
//! So VCCZ is trusted only after a write of all of VCC made with no SMEM access pending and
//! no SMEM access issued since. A forward dataflow over the blocks (one flag: the SMEM access
//! that may have corrupted VCCZ), on top of the pending-access fixpoint (which says whether
//! SMEM may be pending at a VCC write); a VCCZ branch reached with the flag set is a hazard.
//! A call may run SMEM accesses in the callee, and a callable function may be entered after
//! the caller's: both set the flag (LLVM assumes VCCZ wrong at every block start there).

use super::analysis::{Analysis, Hazard, HazardKind, State};
use super::asm::Function;
use super::classify::Action;
use super::regs::RegSet;
use gcnsmt_lifter::counters::{Counter, MemFamily};
use gcnsmt_semantics::target::{Gen, Target};

/// Whether `target` has the bug (LLVM: `getGeneration() <= SEA_ISLANDS`).
pub fn has_bug(target: Target) -> bool {
    matches!(target.gen(), Gen::Gfx6 | Gen::Gfx7)
}

/// A hazard and its witness path (block indices, the corrupting access's block first).
pub struct VcczHazard {
    /// The hazard (kind [`HazardKind::Vccz`], counter lgkmcnt).
    pub hazard: Hazard,
    /// The blocks from the access to the branch.
    pub path: Vec<usize>,
}

/// The flag at a block entry: `None` unreached; `Some(None)` VCCZ correct; `Some(Some((site,
/// from)))` corrupted by `site`, reaching this block from block `from` (`u32::MAX`: here).
type Flag = Option<Option<(usize, u32)>>;

fn is_vccz_branch(text: &str) -> bool {
    let m = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    m == "s_cbranch_vccz" || m == "s_cbranch_vccnz"
}

/// Whether an SMEM access (or a caller's left-over on lgkmcnt) may be pending in `st`.
fn smem_pending(an: &Analysis, st: &State) -> bool {
    st.iter().any(|e| {
        let site = &an.sites[e.site as usize];
        match site.inst {
            Some(i) => matches!(&an.actions[i], Action::Mem(a) if a.family == MemFamily::Smem),
            None => e.counter == Counter::Lgkm,
        }
    })
}

/// The caller's left-over on lgkmcnt (a callable function's entry, a call's callee).
fn lgkm_pseudo(an: &Analysis) -> usize {
    (an.actions.len()..an.sites.len())
        .find(|&s| {
            an.sites[s]
                .effects
                .iter()
                .any(|e| e.counter == Counter::Lgkm)
        })
        .unwrap_or(an.actions.len())
}

/// Run block `b` from flag `dirty`; hazards go to `out` when given. The exit flag, or `None`
/// when the path stops (an unknown instruction).
fn run(
    an: &Analysis,
    f: &Function,
    b: usize,
    mut dirty: Option<usize>,
    mut out: Option<&mut Vec<Hazard>>,
) -> Option<Option<usize>> {
    let mut st = an.entry[b].clone()?;
    let vcc = RegSet::special("vcc").expect("special");
    let mut scratch = vec![0u8; an.actions.len()];
    let bl = &an.blocks[b];
    for i in bl.start..bl.end {
        let action = &an.actions[i];
        if matches!(action, Action::Unknown(_)) {
            return None;
        }
        if let (Some(site), Some(out)) = (dirty, out.as_deref_mut()) {
            if is_vccz_branch(&f.insts[i].mnemonic) {
                out.push(Hazard {
                    site,
                    at: i,
                    counter: Counter::Lgkm,
                    kind: HazardKind::Vccz,
                    regs: vcc.clone(),
                });
            }
        }
        match action {
            Action::Mem(a) if a.family == MemFamily::Smem => dirty = Some(i),
            Action::Call { .. } => dirty = Some(lgkm_pseudo(an)),
            // Writing all of VCC recomputes VCCZ, unless an SMEM access may still land.
            Action::Sync { writes, .. } if writes.contains(&vcc) && !smem_pending(an, &st) => {
                dirty = None;
            }
            _ => {}
        }
        an.step(&mut st, i, None, &mut scratch);
    }
    Some(dirty)
}

/// The VCCZ hazards of a solved analysis (`an.entry` filled) on a target with the bug.
pub fn hazards(an: &Analysis, f: &Function, kernel: bool) -> Vec<VcczHazard> {
    let n = an.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    let mut entry: Vec<Flag> = vec![None; n];
    entry[0] = Some((!kernel).then(|| (lgkm_pseudo(an), u32::MAX)));
    let mut work = vec![0usize];
    while let Some(b) = work.pop() {
        let Some(flag) = entry[b] else { continue };
        let Some(exit) = run(an, f, b, flag.map(|(s, _)| s), None) else {
            continue;
        };
        for &s in &an.blocks[b].succs {
            let new = exit.map(|site| (site, b as u32));
            let changed = match entry[s] {
                None => true,
                Some(None) => new.is_some(),
                Some(Some(_)) => false,
            };
            if changed {
                entry[s] = Some(new);
                work.push(s);
            }
        }
    }
    let mut out = Vec::new();
    for (b, flag) in entry.iter().enumerate() {
        let Some(flag) = flag else { continue };
        let mut hs = Vec::new();
        run(an, f, b, flag.map(|(s, _)| s), Some(&mut hs));
        for h in hs {
            let path = witness(an, &entry, &h, b);
            out.push(VcczHazard { hazard: h, path });
        }
    }
    out
}

/// Blocks from the corrupting access back to `b`, following the entry flags' provenance.
fn witness(an: &Analysis, entry: &[Flag], h: &Hazard, b: usize) -> Vec<usize> {
    let site_block = an.sites[h.site].inst.map(|i| an.block_of[i]);
    let mut path = vec![b];
    let mut cur = b;
    for _ in 0..an.blocks.len() {
        let here = site_block == Some(cur)
            && (path.len() > 1 || an.sites[h.site].inst.is_some_and(|i| i < h.at));
        if here {
            break;
        }
        match entry[cur] {
            Some(Some((s, from))) if s == h.site && from != u32::MAX => {
                cur = from as usize;
                path.push(cur);
            }
            _ => break,
        }
    }
    path.reverse();
    path
}
