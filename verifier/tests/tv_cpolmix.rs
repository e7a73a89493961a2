//! Cache policies that differ between accesses of one block: the pairs in
//! `tests/data/tv/cpolmix/` with the verdicts worked out by hand in the README there.

use std::path::Path;

#[test]
fn accesses_keep_their_own_policy() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cpolmix");
    for (before, after, want, why_part) in [
        ("before.mir", "after_dead.mir", "proved", ""),
        ("before.mir", "after_commute.mir", "proved", ""),
        (
            "before.mir",
            "after_store_weak.mir",
            "refuted",
            "dropped cache policy glc",
        ),
        // The glc load is kept uninterpreted (its value a fresh input both sides share), so
        // the store of the plain load's value differs from it: not proved.
        ("redirect_before.mir", "redirect_after.mir", "unknown", ""),
        // Loads of three policies in one block (README.md): the policy loads are uninterpreted
        // twins, the plain ones keep their memory semantics.
        ("mixed_before.mir", "mixed_after_dead.mir", "proved", ""),
        ("mixed_before.mir", "mixed_after_commute.mir", "proved", ""),
        (
            "mixed_before.mir",
            "mixed_after_swap_policy_load.mir",
            "unknown",
            "",
        ),
        // A store before the policy loads: they are not kept uninterpreted.
        (
            "mixed_store_first_before.mir",
            "mixed_store_first_after.mir",
            "unsupported",
            "cache policy",
        ),
    ] {
        let (blocks, _) = gcnsmt_testkit::tv_blocks(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &d,
            &["--target", "gfx900", before, after],
        );
        let b = &blocks[0];
        let why = b["reason"].as_str().unwrap_or("");
        assert_eq!(b["verdict"], want, "{after}: {why}");
        assert!(why.contains(why_part), "{after}: {why}");
    }
}

/// llc-22's own dead-mi-elimination on our buffer_raw_mixed kernel (gfx900; `llc/README.md`):
/// it deletes an unused plain `BUFFER_LOAD_USHORT_OFFEN` from bb.0, whose other loads have the
/// policies 0, glc and slc. Deleting an unused load is correct (worked out in the README);
/// before the policy loads were kept uninterpreted this was `unsupported` ("an access lost
/// cache policy glc slc while another kept it").
#[test]
fn llc_dead_load_beside_policy_loads() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cpolmix/llc");
    let (blocks, _) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &[
            "--target",
            "gfx900",
            "buffer_raw_mixed.gfx900.dead-mi-elimination.before.mir",
            "buffer_raw_mixed.gfx900.dead-mi-elimination.after.mir",
        ],
    );
    let changed: Vec<_> = blocks
        .iter()
        .filter(|b| b["verdict"] != "unchanged")
        .collect();
    assert_eq!(changed.len(), 1, "{blocks:?}");
    assert_eq!(changed[0]["block"], "bb.0", "{blocks:?}");
    assert_eq!(changed[0]["verdict"], "proved", "{blocks:?}");
}
