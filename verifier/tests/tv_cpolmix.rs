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
        (
            "redirect_before.mir",
            "redirect_after.mir",
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
