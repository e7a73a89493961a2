//! The register-allocation checker's verdicts in `gcnsmt tv` (`cmd::validate`): run on the
//! files as read, before the block checks, per function pair. A function it proves gets
//! `proved` for every changed block, on each of its targets, and is left out of the block
//! checks (so a virtual register whose class the coalescer changed is no input error there);
//! any other function goes to the block checks as before, with the checker's reason kept for
//! the blocks the block checks cannot check (register assignment).

use super::cmd::BlockVerdict;
use super::mir::{Block, Function, MirFile};
use gcnsmt_semantics::target::Target;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The verdict reason of a block the checker proves.
pub const PROVED: &str = "register-allocation checker: every register the after-block reads \
                          holds the value the before-block reads there (docs/tv.md)";

/// What the checker decided for the files' functions.
#[derive(Default)]
pub struct Outcome {
    /// The verdicts of the functions it proved.
    pub verdicts: Vec<BlockVerdict>,
    /// The functions it proved (left out of the block checks).
    pub proved: Vec<String>,
    /// Why it could not follow the others (function -> reason).
    pub failed: BTreeMap<String, String>,
    /// Blocks it refuted (`alloc_refute.rs`): they replace the block checks' verdicts.
    pub refuted: Vec<BlockVerdict>,
}

thread_local! {
    /// Set while a refutation's image is checked: the checker does not refute again there.
    static IMAGING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn changed(b: &Block, a: &Block) -> bool {
    b.insts.len() != a.insts.len()
        || b.insts
            .iter()
            .zip(&a.insts)
            .any(|(x, y)| x.key != y.key || x.mem != y.mem)
}

/// Run the checker on every function of `only` (all when empty) that both files hold and that
/// has targets (its `"target-cpu"`, else `fallback`).
pub fn prove(
    before: &MirFile,
    after: &MirFile,
    only: &[String],
    fallback: Option<&[Target]>,
    recheck: &super::alloc_refute::Recheck,
) -> Outcome {
    let mut out = Outcome::default();
    for fb in &before.functions {
        if !only.is_empty() && !only.contains(&fb.name) {
            continue;
        }
        let Some(fa) = after.functions.iter().find(|g| g.name == fb.name) else {
            continue;
        };
        let same = fb.blocks.len() == fa.blocks.len()
            && fb
                .blocks
                .iter()
                .zip(&fa.blocks)
                .all(|(b, a)| !changed(b, a));
        if same {
            continue;
        }
        let targets = match (&fb.target_cpu, fallback) {
            (Some(cpu), _) => match Target::parse(cpu) {
                Some(t) => vec![t],
                None => continue,
            },
            (None, Some(ts)) => ts.to_vec(),
            (None, None) => continue,
        };
        let start = Instant::now();
        // A pure renaming first (`rename.rs`): it follows calls and divergent code the
        // allocation checker does not.
        let renamed = super::rename::check(fb, fa);
        if let (Err(e), Some(_)) = (&renamed, std::env::var_os("GCNSMT_ALLOC_DEBUG")) {
            eprintln!("rename: {}: {e}", fb.name);
        }
        let reason = if renamed.is_ok() {
            super::rename::PROVED
        } else {
            let checked = guards(fb, fa, &targets).and_then(|()| {
                super::alloc::check_at(fb, fa, false).map_err(|f| {
                    let why = f.why.clone();
                    match refute_once((before, after), (fb, fa), &f, &targets, recheck) {
                        Ok(vs) => out.refuted.extend(vs),
                        Err(e) if std::env::var_os("GCNSMT_ALLOC_DEBUG").is_some() => {
                            eprintln!("alloc: {}: not refuted: {e}", fb.name);
                        }
                        Err(_) => {}
                    }
                    why
                })
            });
            if let Err(why) = checked {
                if std::env::var_os("GCNSMT_ALLOC_DEBUG").is_some() {
                    eprintln!("alloc: {}: {why}", fb.name);
                }
                out.failed.insert(fb.name.clone(), why);
                continue;
            }
            PROVED
        };
        let time = start.elapsed();
        let n = fb
            .blocks
            .iter()
            .filter(|b| b.insts.len() + 1 > 0)
            .count()
            .max(1) as u32;
        for t in targets {
            for (b, a) in fb.blocks.iter().zip(&fa.blocks) {
                let ch = changed(b, a);
                out.verdicts.push(BlockVerdict {
                    function: fb.name.clone(),
                    block: b.num,
                    target: t.name().to_string(),
                    verdict: if ch { "proved" } else { "unchanged" },
                    changed: ch,
                    time: if ch { time / n } else { Duration::ZERO },
                    reason: ch.then(|| reason.to_string()),
                    counterexample: None,
                    counterexample_data: None,
                    settings: None,
                    file: after.path.clone(),
                    line: a.loc.line,
                    col: a.loc.col,
                });
            }
        }
        out.proved.push(fb.name.clone());
    }
    out
}

/// [`super::alloc_refute::refute`], but not while an image is being checked.
fn refute_once(
    files: (&MirFile, &MirFile),
    fns: (&Function, &Function),
    fail: &super::alloc::Fail,
    targets: &[Target],
    recheck: &super::alloc_refute::Recheck,
) -> Result<Vec<BlockVerdict>, String> {
    if IMAGING.with(|c| c.replace(true)) {
        return Err("inside an image check".into());
    }
    let r = super::alloc_refute::refute(files, fns, fail, targets, recheck);
    IMAGING.with(|c| c.set(false));
    r
}

/// What the checker does not follow, checked before it runs: memory operands that claim more
/// than the before-file's or change a volatile or atomic access (`memop.rs`, as the block
/// checks refuse them), and before gfx10
/// the SGPRs s102-s105, which alias FLAT_SCRATCH and XNACK_MASK there (breaker8 10; LLVM
/// reserves them). `undef` flags the checker follows itself (an `undef` use reads nothing, an
/// `undef` sub-register def leaves the register's other dwords holding nothing:
/// `alloc_step.rs`); until 2026-12-05 any the pass added made it give up (breaker8 04/05).
fn guards(fb: &Function, fa: &Function, targets: &[Target]) -> Result<(), String> {
    for (b, a) in fb.blocks.iter().zip(&fa.blocks) {
        if let Some((l, why)) = super::memop::check(b, a, super::memop::Tie::Operands) {
            return Err(format!("line {}: {why}", l.line));
        }
    }
    let old = targets
        .iter()
        .any(|t| t.gen() < gcnsmt_semantics::target::Gen::Gfx10);
    let high = |o: &super::mir::Operand| matches!(&o.kind, super::mir::OpKind::Phys(p) if p.split('_').any(|r| matches!(r, "sgpr102" | "sgpr103" | "sgpr104" | "sgpr105")));
    if old
        && fa
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|i| i.defs.iter().chain(&i.ops).any(high))
    {
        return Err("s102-s105 alias FLAT_SCRATCH and XNACK_MASK before gfx10".into());
    }
    Ok(())
}

/// [`prove`] (not with `--shard`: its blocks are not sharded), and the functions left for the
/// block checks (`None`: none).
pub fn first(
    before: &MirFile,
    after: &MirFile,
    only: &[String],
    fallback: Option<&[Target]>,
    sharded: bool,
    recheck: &super::alloc_refute::Recheck,
) -> (Outcome, Option<Vec<String>>) {
    let ra = match sharded {
        false => prove(before, after, only, fallback, recheck),
        true => Outcome::default(),
    };
    let rest: Vec<String> = before
        .functions
        .iter()
        .map(|f| f.name.clone())
        .filter(|n| (only.is_empty() || only.contains(n)) && !ra.proved.contains(n))
        .collect();
    let rest = (!rest.is_empty() || ra.proved.is_empty()).then_some(rest);
    (ra, rest)
}

/// The reason of a block the block checks leave `unsupported` because the pass assigns
/// registers, with the checker's reason why it could not follow the function.
pub fn explain(v: &mut BlockVerdict, ra: &Outcome) {
    if let Some(r) = ra
        .refuted
        .iter()
        .find(|r| (&r.function, r.block, &r.target) == (&v.function, v.block, &v.target))
    {
        *v = r.clone();
        return;
    }
    let Some(why) = ra.failed.get(&v.function) else {
        return;
    };
    if v.verdict == "unsupported"
        && v.reason
            .as_deref()
            .is_some_and(|r| r.starts_with("register allocation"))
    {
        v.reason = Some(format!(
            "register allocation: the register-allocation checker cannot follow it: {why}"
        ));
    }
}
