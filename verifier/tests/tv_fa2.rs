//! False alarms of `tv` on llc-22's own output (breaker 16's 05): a dead SGPR pair after
//! si-optimize-exec-masking, a `REG_SEQUENCE` piece read after the join (peephole-opt), a
//! deleted sub-register copy compared at a barrier (si-fold-operands).
//! `tests/data/tv/fa2/README.md` gives the origin of each pair and the hand argument for each
//! expected verdict; the wrong variants must stay refuted.

use std::path::Path;

fn verdicts(before: &str, after: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/fa2");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &[
            "--target",
            "gfx900",
            "--set",
            "hazards=LATER",
            before,
            after,
        ],
    );
    blocks
        .iter()
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"))
        })
        .collect()
}

/// Every block proved, or left unchanged once reads of equal registers are canonical.
fn all_proved(v: &[(String, String)]) -> bool {
    !v.is_empty() && v.iter().all(|(_, r)| r == "proved" || r == "unchanged")
}

fn refuted(v: &[(String, String)], block: &str) -> bool {
    v.iter().any(|(b, r)| b == block && r == "refuted")
}

#[test]
fn and_saveexec_leaving_a_dead_sgpr_pair_unwritten_is_proved() {
    let v = verdicts("execmask.before.mir", "execmask.after.mir");
    assert!(all_proved(&v), "{v:?}");
}

#[test]
fn a_clobbered_sgpr_live_in_by_a_lane_masked_livein_is_refuted() {
    let v = verdicts("execmask.before.mir", "execmask.bad_s3.mir");
    assert!(refuted(&v, "bb.0"), "{v:?}");
}

#[test]
fn the_sgpr_pair_live_into_a_successor_is_refuted() {
    let v = verdicts("execmask.live_s4.before.mir", "execmask.live_s4.after.mir");
    assert!(refuted(&v, "bb.0"), "{v:?}");
}

#[test]
fn a_reg_sequence_piece_read_after_the_join_is_proved() {
    let v = verdicts("pieces.before.mir", "pieces.after.mir");
    assert!(all_proved(&v), "{v:?}");
}

#[test]
fn the_other_piece_is_refuted() {
    let v = verdicts("pieces.before.mir", "pieces.bad.mir");
    assert!(refuted(&v, "bb.2"), "{v:?}");
}

#[test]
fn swapped_pieces_are_refuted() {
    let v = verdicts("pieces.swapped.before.mir", "pieces.swapped.after.mir");
    assert!(refuted(&v, "bb.2"), "{v:?}");
}

#[test]
fn a_folded_sub_register_copy_across_a_barrier_is_proved() {
    let v = verdicts("foldcopy.before.mir", "foldcopy.after.mir");
    assert!(all_proved(&v), "{v:?}");
    assert!(v.iter().any(|(_, r)| r == "proved"), "{v:?}");
}

#[test]
fn the_other_half_folded_is_refuted() {
    let v = verdicts("foldcopy.before.mir", "foldcopy.bad.mir");
    assert!(refuted(&v, "bb.1"), "{v:?}");
}

#[test]
fn a_valu_value_of_the_if_block_reused_after_the_join_is_proved() {
    let v = verdicts("joincse.before.mir", "joincse.after.mir");
    assert!(all_proved(&v), "{v:?}");
    assert!(v.iter().any(|(b, r)| b == "bb.2" && r == "proved"), "{v:?}");
}

#[test]
fn a_different_value_after_the_join_is_refuted() {
    let v = verdicts("joincse.bad.before.mir", "joincse.after.mir");
    assert!(refuted(&v, "bb.2"), "{v:?}");
}

#[test]
fn a_value_reused_after_exec_was_widened_before_the_if_is_not_proved() {
    let v = verdicts("joincse.wide.before.mir", "joincse.wide.after.mir");
    assert!(
        v.iter()
            .any(|(b, r)| b == "bb.2" && r != "proved" && r != "unchanged"),
        "{v:?}"
    );
}

#[test]
fn a_piece_read_through_a_deleted_copy_is_proved() {
    let v = verdicts("sinkpiece.before.mir", "sinkpiece.after.mir");
    assert!(all_proved(&v), "{v:?}");
}

#[test]
fn and_saveexec_on_wave32_with_a_dead_dword_of_a_lane_masked_livein_is_proved() {
    let v = verdicts("execmask32.before.mir", "execmask32.after.mir");
    assert!(all_proved(&v), "{v:?}");
}

#[test]
fn a_clobbered_live_dword_of_a_lane_masked_livein_is_refuted() {
    let v = verdicts("execmask32.before.mir", "execmask32.bad_s2.mir");
    assert!(refuted(&v, "bb.0"), "{v:?}");
}
