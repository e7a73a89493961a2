//! Values that cross blocks (docs/tv.md "Values that cross blocks", `tv/ssa.rs`): a block
//! that reads a register another block defines by a pure computation gets a copy of that
//! computation. Each pair in `tests/data/tv/ssa/` has its verdict worked out by hand in the
//! after-file's header.

use std::path::Path;

#[test]
fn definitions_of_dominating_blocks_are_copied_where_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/ssa");
    let (blocks, run) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &dir,
        &["--target", "gfx900", "ssa.before.mir", "ssa.after.mir"],
    );
    let verdict = |f: &str, b: &str| {
        blocks
            .iter()
            .find(|x| x["function"] == f && x["block"] == b)
            .unwrap_or_else(|| panic!("no {f} {b}: {}", run.context()))["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let want = [
        ("fold_const", "bb.0", "proved"),
        ("fold_const", "bb.1", "proved"),
        ("fold_wrong_const", "bb.1", "refuted"),
        ("cse_valu", "bb.1", "proved"),
        ("cse_wrong", "bb.1", "refuted"),
        ("licm_salu", "bb.0", "proved"),
        ("licm_salu", "bb.1", "unchanged"),
        // bb.0's text is the same on both sides: the renaming checker, which proves the
        // function whole (docs/tv.md, "single-value PHIs"), reports only changed blocks.
        ("single_phi", "bb.0", "unchanged"),
        ("single_phi", "bb.1", "proved"),
        ("leaf_changed", "bb.0", "refuted"),
        ("leaf_changed", "bb.1", "unchanged"),
        ("fold_across_barrier", "bb.0", "proved"),
        ("fold_across_barrier", "bb.1", "proved"),
    ];
    for (f, b, v) in want {
        assert_eq!(verdict(f, b), v, "{f} {b}");
    }
    // Temporal divergence: a VALU value defined on a cycle from that cycle's values is not
    // copied out of it, whatever the pass did.
    for b in ["bb.1", "bb.2"] {
        assert_ne!(verdict("loop_varying", b), "proved", "loop_varying {b}");
    }
}
