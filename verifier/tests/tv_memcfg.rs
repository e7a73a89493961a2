//! Definitions moved across a barrier (`tv/barrier_move.rs`) and CFGs changed by block
//! renumbering or a split critical edge (`tv/cfg_match.rs`, `tv/cfg_split.rs`). Each pair in
//! `tests/data/tv/memcfg/` has its verdict worked out by hand in the after-file's header.

use std::path::Path;

fn verdicts(before: &str, after: &str) -> impl Fn(&str, &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/memcfg");
    let (blocks, run) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &["--target", "gfx900", before, after],
    );
    move |f: &str, b: &str| {
        blocks
            .iter()
            .find(|x| x["function"] == f && x["block"] == b)
            .unwrap_or_else(|| panic!("no {f} {b}: {}", run.context()))["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

#[test]
fn definitions_moved_across_a_barrier() {
    let verdict = verdicts("barrier.before.mir", "barrier.after.mir");
    let want = [
        ("scc_dead_move", "proved"),
        ("scc_live_move", "proved"),
        ("moved_and_changed", "refuted"),
        ("scc_clobbered", "unsupported"),
        ("invariant_sload", "proved"),
        ("plain_sload", "unsupported"),
    ];
    for (f, v) in want {
        assert_eq!(verdict(f, "bb.0"), v, "{f}");
    }
}

#[test]
fn renumbered_blocks_and_split_edges() {
    let verdict = verdicts("cfg.before.mir", "cfg.after.mir");
    let want = [
        ("renumbered", "bb.3", "proved"),
        ("renumbered", "bb.0", "unchanged"),
        ("renumbered_wrong", "bb.3", "refuted"),
        ("split_edge", "bb.0", "proved"),
        ("split_edge", "bb.2", "unchanged"),
        ("split_edge_wrong", "bb.0", "refuted"),
    ];
    for (f, b, v) in want {
        assert_eq!(verdict(f, b), v, "{f} {b}");
    }
    // A block moved in the layout is not a renumbering: the CFG changed.
    let moved = verdict("moved_block", "bb.0");
    assert_eq!(moved, "unsupported", "moved_block");
}
