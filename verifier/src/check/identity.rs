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

#[cfg(test)]
mod tests {
    use super::super::{check, fingerprint, Options, Verdict, IDENTITY_NOTE};
    use crate::smt::with_fresh_context;
    use gcnsmt_semantics::target::Target;

    fn outcome(text: &str, from: Target) -> crate::check::Outcome {
        let rules = crate::rules::parse_rules("t.rules", text).expect("rule parses");
        let opts = Options {
            identity: true,
            ..Options::default()
        };
        with_fresh_context(|| check(&rules[0], from, &opts)).expect("rule checks")
    }

    fn rule(from: &str, to: &str, pre: &str, src: &str, tgt: &str) -> String {
        format!("Name: t\nTargets: {from} -> {to}\n{pre}  {src}\n=>\n  {tgt}\n")
    }

    /// LLVM `DSInstructions.td`: gfx11 renames ds_write_b32 to ds_store_b32 at the same
    /// opcode with the same meaning, and both targets default to UNALIGNED/ALLOC.
    #[test]
    fn a_renamed_op_is_proved_by_identity() {
        let t = rule(
            "gfx1030",
            "gfx1100",
            "",
            "ds_write_b32 %a, %x offset:%o",
            "ds_store_b32 %a, %x offset:%o",
        );
        let o = outcome(&t, Target::Gfx1030);
        assert!(matches!(o.verdict, Verdict::Proved), "{:?}", o.verdict);
        assert_eq!(o.note, Some(IDENTITY_NOTE));
    }

    /// gfx11 swapped ds_cmpst's data operands (LLVM `DSInstructions.td`): the same operands
    /// are not the same terms, and the solver refutes them.
    #[test]
    fn swapped_operands_are_not_identical() {
        let t = rule(
            "gfx1030",
            "gfx1100",
            "",
            "ds_cmpst_rtn_b32 %d, %a, %x, %y",
            "ds_cmpstore_rtn_b32 %d, %a, %x, %y",
        );
        let o = outcome(&t, Target::Gfx1030);
        assert!(matches!(o.verdict, Verdict::Refuted(_)), "{:?}", o.verdict);
        assert_ne!(o.note, Some(IDENTITY_NOTE));
    }

    /// gfx6 defaults to alignment=DWORD, gfx9 to UNALIGNED (docs/soundness.md), and a
    /// 32-bit LDS write reads the alignment setting: the same op is not the same term.
    #[test]
    fn a_setting_the_entry_reads_breaks_identity() {
        let t = rule(
            "gfx900",
            "gfx600",
            "",
            "ds_write_b32 %a, %x",
            "ds_write_b32 %a, %x",
        );
        let o = outcome(&t, Target::Gfx900);
        assert_ne!(o.note, Some(IDENTITY_NOTE), "{:?}", o.verdict);
    }

    /// Identity is asked only once the precondition is known satisfiable: a contradictory one
    /// is inapplicable, not proved.
    #[test]
    fn identity_under_a_contradiction_is_inapplicable() {
        let t = rule(
            "gfx1030",
            "gfx1100",
            "Pre: %a == 4 && %a == 8\n",
            "ds_write_b32 %a, %x",
            "ds_store_b32 %a, %x",
        );
        let o = outcome(&t, Target::Gfx1030);
        assert!(
            matches!(o.verdict, Verdict::Inapplicable),
            "{:?}",
            o.verdict
        );
    }

    /// gfx908 and gfx900 share ds_add_u32's entry and settings, as do gfx1030 and gfx1100:
    /// the two cross-generation questions are one query; ds_cmpst's is another on gfx11.
    #[test]
    fn one_question_one_fingerprint() {
        let fp = |from: Target, f: &str, to: &str, src: &str, tgt: &str| {
            let t = rule(f, to, "", src, tgt);
            let rules = crate::rules::parse_rules("t.rules", &t).expect("rule parses");
            with_fresh_context(|| fingerprint(&rules[0], from, &Options::default()))
                .expect("elaborates")
                .expect("evaluates")
        };
        let add = "ds_add_u32 %a, %x offset:%o";
        let a = fp(Target::Gfx900, "gfx900", "gfx1030", add, add);
        let b = fp(Target::Gfx908, "gfx908", "gfx1100", add, add);
        assert_eq!(a, b);
        let c1 = "ds_cmpst_rtn_b32 %d, %a, %x, %y";
        let c = fp(Target::Gfx900, "gfx900", "gfx1030", c1, c1);
        let c2 = "ds_cmpstore_rtn_b32 %d, %a, %x, %y";
        let d = fp(Target::Gfx1030, "gfx1030", "gfx1100", c1, c2);
        assert_ne!(c, d);
    }
}
