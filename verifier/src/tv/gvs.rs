//! gfx1250's `scale_offset` on a GLOBAL access (the `SCAL` bit, 11, of the MIR cache-policy
//! operand; LLVM 22 `SIDefines.h` `CPol::SCAL`, `GCNSubtarget::hasScaleOffset`): the lowering
//! of that bit to the llvm-mc modifier, which the global binder models
//! (`verifier/src/machine/global.rs`).

use gcnsmt_lifter::GlobalKind;
use gcnsmt_semantics::target::{Gen, Target};

/// LLVM `CPol::SCAL`.
const SCAL: i64 = 1 << 11;

/// The modifier text (` scale_offset` or nothing) for the cache-policy operand `cpol` of a
/// GLOBAL (`saddr`: the `_SADDR` form) or scalar load, after [`super::cpol::cache_policy`]
/// left out its policy bits.
///
/// Errors: any policy bit left (a policy the lowering does not model), `scale_offset` on a
/// target without it, on a form that does not take it (llvm-mc-22 rejects it on
/// `global_load_b64 v[0:1], v[2:3], off`: "scale_offset is not supported for this
/// instruction"), on a scalar load, or on an access size whose scale was not checked
/// (sizes 4 and 8 only: llc-22 selects `scale_offset` for `p + sext(i) * 4` and `* 8` on
/// gfx1250, tests/data/tv/bugs/fold-pk-*).
pub(super) fn scale_offset(
    cpol: i64,
    target: Target,
    saddr: bool,
    kind: GlobalKind,
    bytes: u8,
) -> Result<String, String> {
    if cpol & !SCAL != 0 {
        return Err("cache policy bits are not modelled".into());
    }
    if cpol & SCAL == 0 {
        return Ok(String::new());
    }
    if target.gen() != Gen::Gfx1250 || kind == GlobalKind::ScalarLoad || !saddr {
        return Err(format!(
            "scale_offset (cache-policy bit 11) on this access is not modelled on {}",
            target.name()
        ));
    }
    if !matches!(bytes, 4 | 8) {
        return Err(format!(
            "scale_offset on a {bytes}-byte access is not modelled"
        ));
    }
    Ok(" scale_offset".into())
}
