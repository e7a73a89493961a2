//! Which targets a function pair is checked on, and the function-level reasons it is not
//! checked there (`unsupported` records, one per function and target).

use super::cmd::BlockVerdict;
use super::diff::FnPair;
use super::mir::MirFile;
use gcnsmt_semantics::target::Target;
use std::time::Duration;

/// The function's targets: its `"target-cpu"`, else `fallback`, else an error.
pub(super) fn targets_of(
    file: &MirFile,
    fp: &FnPair,
    fallback: Option<&[Target]>,
) -> Result<Vec<Target>, String> {
    match (&fp.before.target_cpu, fallback) {
        (Some(cpu), _) => Target::parse(cpu).map(|t| vec![t]).ok_or_else(|| {
            format!(
                "{}:{}:{}: error: function `{}` has target-cpu \"{cpu}\", which gcnsmt does not model",
                file.path, fp.before.loc.line, fp.before.loc.col, fp.before.name
            )
        }),
        (None, Some(ts)) => Ok(ts.to_vec()),
        (None, None) => Err(format!(
            "{}:{}:{}: error: function `{}` has no \"target-cpu\" attribute; pass --target",
            file.path, fp.before.loc.line, fp.before.loc.col, fp.before.name
        )),
    }
}

/// An input error when the two files compile the function for different targets: another
/// `"target-cpu"`, or target features tv reads (wave64, CU mode, flat scratch). A pass does
/// not change the target; checking both on the before-file's would prove code the other target
/// runs differently (breaker 20's 03: gfx900 against gfx803, where DS needs M0 set).
pub(super) fn same_target(fp: &FnPair, after: &str) -> Result<(), String> {
    let (b, a) = (&fp.before, &fp.after);
    let what = if b.target_cpu.is_some() && a.target_cpu.is_some() && b.target_cpu != a.target_cpu {
        format!(
            "target-cpu \"{}\" where the before-file has \"{}\"",
            a.target_cpu.as_deref().unwrap_or(""),
            b.target_cpu.as_deref().unwrap_or("")
        )
    } else if (b.wave64, b.mode.cumode, b.frame.flat_feature)
        != (a.wave64, a.mode.cumode, a.frame.flat_feature)
    {
        "other target-features (wavefrontsize64, cumode or enable-flat-scratch) than the \
         before-file"
            .to_string()
    } else {
        return Ok(());
    };
    Err(format!(
        "{after}:{}:{}: error: function `{}` has {what}: a pass does not change the target",
        a.loc.line, a.loc.col, a.name
    ))
}

/// An input error when a `vreg_1` became a wave-mask class of another wave size than `t`'s
/// (`diff::FnPair::lane_masks`): si-i1-copies gives it `t`'s class, so such files do not
/// come from one llc run for `t`. A function asking for wave64 has wave64 masks on any target
/// (`not_modelled` then reports it on a wave32 one).
pub(super) fn lane_masks(fp: &FnPair, t: Target, after: &str) -> Result<(), String> {
    let wave = match fp.before.wave64 {
        true => 64,
        false => gcnsmt_lifter::lift::wave_size(t),
    };
    for (id, ca) in &fp.lane_masks {
        if super::diff::lane_mask_wave("vreg_1", ca) != Some(wave) {
            return Err(format!(
                "{after}:{}:{}: error: virtual register %{id} of `{}` is vreg_1 in the \
                 before-file but {ca} here, which is not the wave{wave} mask class of {t}: \
                 the files do not come from one llc run for {t}",
                fp.after.loc.line, fp.after.loc.col, fp.after.name
            ));
        }
    }
    Ok(())
}

/// Why `fp` is not checked on `t` at all, as its `unsupported` record: the pass changed the
/// CFG (`diff.rs`), or the function asks for wave64 (`+wavefrontsize64`) on a wave32 target,
/// where the lowering would check the wrong wave size (`vcc_hi`, 64-bit lane masks).
pub(super) fn not_modelled(fp: &FnPair, t: Target, after: &str) -> Option<BlockVerdict> {
    let wave32 = gcnsmt_lifter::lift::wave_size(t) == 32;
    let (num, loc, why) = match &fp.cfg_changed {
        Some((num, loc, why)) => (*num, *loc, why.clone()),
        None if wave32 && (fp.before.wave64 || fp.after.wave64) => (
            fp.after.blocks.first().map_or(0, |b| b.num),
            fp.after.loc,
            format!(
                "`{}` runs in wave64 (\"+wavefrontsize64\") on {t}, which tv checks as wave32 \
                 only: not modelled",
                fp.before.name
            ),
        ),
        None => return None,
    };
    Some(BlockVerdict {
        function: fp.before.name.clone(),
        block: num,
        target: t.name().to_string(),
        verdict: "unsupported",
        changed: true,
        time: Duration::ZERO,
        reason: Some(format!("{after}:{}:{}: {why}", loc.line, loc.col)),
        counterexample: None,
        counterexample_data: None,
        file: after.to_string(),
        line: loc.line,
        col: loc.col,
        settings: None,
    })
}
