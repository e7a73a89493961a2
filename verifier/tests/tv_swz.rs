//! The MIR `swz` operand of buffer accesses (issue 27, item 5): read, not rejected. Verdicts
//! and their hand reasons are in `tests/data/tv/swz/README.md`.

use std::path::Path;

fn run(target: &str, before: &str, after: &str) -> (Vec<serde_json::Value>, i32) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/swz");
    let (blocks, run) = gcnsmt_testkit::tv_blocks(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &d,
        &["--target", target, before, after],
    );
    (blocks, run.code)
}

#[test]
fn a_merge_of_swizzled_dwords_is_refuted_on_gfx8() {
    let (blocks, code) = run(
        "gfx802",
        "pair.gfx802.before.mir",
        "merged.gfx802.after.mir",
    );
    assert_eq!(code, 1, "{blocks:?}");
    assert_eq!(blocks[0]["verdict"], "refuted", "{blocks:?}");
}

#[test]
fn the_swz_flag_has_no_hardware_meaning_on_gfx8() {
    let (blocks, code) = run(
        "gfx802",
        "pair.gfx802.before.mir",
        "dropped.gfx802.after.mir",
    );
    assert_eq!(code, 0, "{blocks:?}");
    assert_eq!(blocks[0]["verdict"], "proved", "{blocks:?}");
}

#[test]
fn a_swizzled_access_is_unsupported_where_swizzling_is_undefined() {
    let (blocks, code) = run(
        "gfx900",
        "pair.gfx900.before.mir",
        "dropped.gfx900.after.mir",
    );
    assert_eq!(code, 3, "{blocks:?}");
    assert_eq!(blocks[0]["verdict"], "unsupported", "{blocks:?}");
}

/// A merge of two scratch dwords: wrong on the machine (the scratch descriptor is swizzled);
/// gfx9+ was proved before, since its swizzled descriptors were left out as undefined.
#[test]
fn a_merge_of_scratch_dwords_is_never_proved() {
    for pair in ["scratch-merge", "scratch-memop"] {
        let (b, a) = (format!("{pair}.before.mir"), format!("{pair}.after.mir"));
        let (blocks, code) = run("gfx802", &b, &a);
        assert_eq!(
            (code, &blocks[0]["verdict"]),
            (1, &"refuted".into()),
            "{pair}"
        );
        for t in ["gfx900", "gfx1030"] {
            let (blocks, code) = run(t, &b, &a);
            assert_eq!(code, 3, "{pair} {t}: {blocks:?}");
            assert_eq!(blocks[0]["verdict"], "unsupported", "{pair} {t}");
        }
    }
}
