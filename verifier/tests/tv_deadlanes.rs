//! The renaming checker's rules for `undef` flags, deleted undefined definitions, single-value
//! PHIs and lowered `REG_SEQUENCE`s (`tv/deadlanes.rs`, `tv/rename_phi.rs`,
//! `tv/rename_twoaddr.rs`; docs/tv.md "Undefined values, dead lanes, single-value PHIs") on the
//! pairs of `tests/data/tv/deadlanes/`: llc-22's pass pairs (proved) and hand-planted wrong
//! after-files (never proved). Each verdict is worked out in that directory's README.md.

use std::path::Path;

/// The verdicts and reasons of the changed blocks of `tv before after` on gfx900.
fn changed(before: &str, after: &str) -> Vec<(String, String)> {
    blocks(before, after)
        .into_iter()
        .map(|(_, v, r)| (v, r))
        .collect()
}

/// The block, verdict and reason of each changed block.
fn blocks(before: &str, after: &str) -> Vec<(String, String, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/deadlanes");
    let args = ["--target", "gfx900", before, after];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    blocks
        .iter()
        .filter(|b| b["changed"] == true)
        .map(|b| {
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"), s("reason"))
        })
        .collect()
}

fn all_renamed(v: &[(String, String)]) -> bool {
    !v.is_empty()
        && v.iter()
            .all(|(x, r)| x == "proved" && r.starts_with("renaming checker"))
}

const AF: &str = "atomics_fences@gfx900";

/// llc-22's detect-dead-lanes, processimpdefs and twoaddressinstruction pairs of our
/// atomics_fences kernel and its opt-phis pair of gemm_tiled: every changed block proved by
/// the renaming checker (main's block checks, 2026-12-05: detect-dead-lanes 11 `unsupported`,
/// processimpdefs 4 of 9 `unsupported`, twoaddressinstruction 1 refuted and 1 `unsupported` of
/// 7, opt-phis 3 of 5 refuted).
#[test]
fn llc_pairs_are_proved() {
    for pass in [
        "detect-dead-lanes",
        "processimpdefs",
        "twoaddressinstruction",
    ] {
        let v = changed(
            &format!("{AF}.{pass}.before.mir"),
            &format!("{AF}.{pass}.after.mir"),
        );
        assert!(all_renamed(&v), "{pass}: {v:?}");
    }
    let v = changed(
        "gemm_tiled@gfx900.opt-phis.before.mir",
        "gemm_tiled@gfx900.opt-phis.after.mir",
    );
    assert!(all_renamed(&v), "opt-phis: {v:?}");
}

/// `undef` added where the value is defined and read: on a `REG_SEQUENCE` source whose
/// destination dword a later `REG_SEQUENCE` reads (`%69.sub8`, bb.0), on a compare's operand
/// (bb.4), on a PHI input whose result `V_WRITELANE_B32` reads (bb.15). Not proved.
#[test]
fn an_undef_on_a_read_value_is_not_proved() {
    let before = format!("{AF}.detect-dead-lanes.before.mir");
    for (after, block) in [
        ("wrong-copy-undef.after.mir", "bb.0"),
        ("wrong-use-undef.after.mir", "bb.4"),
        ("wrong-phi-undef.after.mir", "bb.15"),
    ] {
        planted_not_proved(&before, after, block);
    }
}

/// The planted block (where the edit is) is changed and not proved, and no block is proved by
/// the renaming checker (the other changed blocks are llc's, which the block checks may prove).
fn planted_not_proved(before: &str, after: &str, block: &str) {
    let v = blocks(before, after);
    let b = v.iter().find(|(b, _, _)| b == block);
    assert!(b.is_some_and(|(_, x, _)| x != "proved"), "{after}: {v:?}");
    let renamed = |r: &String| r.starts_with("renaming checker");
    assert!(!v.iter().any(|(_, _, r)| renamed(r)), "{after}: {v:?}");
}

/// A deleted copy of a defined value (`%118:vgpr_32 = COPY %112` in bb.6, read by the next
/// atomic): not deletable, not proved.
#[test]
fn a_deleted_defined_copy_is_not_proved() {
    let before = format!("{AF}.processimpdefs.before.mir");
    planted_not_proved(&before, "wrong-deleted-copy.after.mir", "bb.6");
}

/// A PHI input renamed to a register that is not the removed PHI's value (`%15` for `%19`,
/// whose only input is `%16`, in bb.3's PHI, read on the edge from bb.5): not proved.
#[test]
fn a_wrong_phi_replacement_is_not_proved() {
    let before = "gemm_tiled@gfx900.opt-phis.before.mir";
    planted_not_proved(before, "wrong-phi.after.mir", "bb.5");
}

/// A `REG_SEQUENCE` (bb.2) lowered with its two sources swapped: not proved.
#[test]
fn a_wrong_reg_sequence_lowering_is_not_proved() {
    let before = format!("{AF}.twoaddressinstruction.before.mir");
    planted_not_proved(&before, "wrong-regseq.after.mir", "bb.2");
}
