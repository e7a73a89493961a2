//! Two answers about a cross-target check that need no solver: whether its two sides lift to
//! one term (a proof by identity), and a fingerprint of its whole query (under which a verdict
//! found on one pair of targets holds on another).
//!
//! Identity: z3 shares every term it builds, so when the target side, run on its own target
//! with its own settings, leaves every live register, every memory store, its definedness and
//! its field validity as the very terms the source side leaves, the refinement query would
//! ask whether `t != t` can hold; the target refines the source without asking. That happens
//! exactly when both sides run the same semantics entry on the same operands and read the
//! same settings and the same V# bits the same way, whatever else differs between the targets
//! (names, encodings, settings the entry does not read).

use super::assume::fields_ok;
use super::replay::Run;
use crate::machine::{exec, Machine};
use crate::smt::{build, Smt};

/// Whether the target side of `run` lifts to the source side's terms, given the source's
/// final states `src` (one lane only: under lanes the serializations differ in order).
///
/// Errors: a side's fields or steps fail to evaluate.
pub(super) fn identical_terms(
    d: &mut Smt,
    run: &Run,
    src: &[Machine<Smt>],
) -> Result<bool, String> {
    let (sides, x, b) = (&run.sides, &run.sym, run.b);
    if sides.src.len() != 1 || sides.tgt.len() != 1 || src.len() != 1 {
        return Ok(false);
    }
    let tenv = x.env.on(b.to, b.to_settings);
    let src_fields = fields_ok(d, &x.env, &x.m0, &b.src)?;
    let tgt_fields = fields_ok(d, &tenv, &x.m0, &b.tgt)?;
    // The source's field validity is assumed; the target's must be it or hold outright.
    if !(build::same_bool(&src_fields, &tgt_fields) || build::is_literal(&tgt_fields, true)) {
        return Ok(false);
    }
    let ms = &src[0];
    let mut mt = x.m0.clone();
    exec(d, &tenv, &mut mt, sides.tgt[0])?;
    // The source's definedness is assumed; the target must be undefined exactly when it is.
    if !(build::same_bool(&ms.mem.ub, &mt.mem.ub) || build::is_literal(&mt.mem.ub, false)) {
        return Ok(false);
    }
    let regs = (sides.keys.iter())
        .filter(|k| !sides.dead.contains(k))
        .all(|k| build::same_bv(&ms.regs[k], &mt.regs[k]));
    let mems = ms
        .mem
        .spaces
        .iter()
        .all(|(s, m)| build::same_mem(m, &mt.mem[s]));
    Ok(regs && mems)
}

/// A fingerprint of a query: BLAKE3 of its SMT-LIB text, every assertion of the applicability
/// and refinement questions. Two checks with one fingerprint ask the solver the same thing, so
/// a proof or an inapplicability carries over; a refutation carries over only through a
/// replay on the other check's own targets (`replay_stored`).
pub(super) fn fingerprint(smt2: &str) -> String {
    blake3::hash(smt2.as_bytes()).to_hex().to_string()
}
