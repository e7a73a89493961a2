//! The renaming checker (`tv/rename.rs`, docs/tv.md "The renaming checker") on the pairs of
//! `tests/data/tv/rename/`: each verdict is worked out by hand in the after-file's header and
//! in that directory's README.md.

use std::path::Path;

/// The verdicts and reasons of the changed blocks of `tv before.mir AFTER` on gfx900.
fn changed(before: &str, after: &str) -> Vec<(String, String)> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/rename");
    let args = ["--target", "gfx900", before, after];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &d, &args);
    blocks
        .iter()
        .filter(|b| b["changed"] == true)
        .map(|b| {
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (s("verdict"), s("reason"))
        })
        .collect()
}

fn all_renamed(v: &[(String, String)]) -> bool {
    !v.is_empty()
        && v.iter()
            .all(|(x, r)| x == "proved" && r.starts_with("renaming checker"))
}

/// A register split into two, and one renamed into dwords 2-3 of a wider register with an
/// `undef` def whose other dwords nothing names: proved by the renaming checker.
#[test]
fn renamed_registers_are_proved() {
    for after in ["split.after.mir", "undef-unread.after.mir"] {
        let v = changed("before.mir", after);
        assert_eq!(v.len(), 2, "{after}: both blocks changed: {v:?}");
        assert!(all_renamed(&v), "{after}: {v:?}");
    }
}

/// A use renamed to the wrong dword stores another value: refuted (bb.1), never proved.
#[test]
fn a_wrong_renaming_is_refuted() {
    let v = changed("before.mir", "swapped.after.mir");
    assert!(v.iter().all(|(x, _)| x != "proved"), "{v:?}");
    assert!(v.iter().any(|(x, _)| x == "refuted"), "{v:?}");
}

/// An `undef` def that leaves a dword the next block reads undefined: not proved.
#[test]
fn an_undef_that_drops_a_read_value_is_not_proved() {
    let v = changed("before.mir", "undef.after.mir");
    assert!(!v.is_empty());
    assert!(v.iter().all(|(x, _)| x != "proved"), "{v:?}");
}

/// llc-22's rename-independent-subregs on our vector_copy_x4 kernel (gfx900), a function with
/// a call: three sub-register copies renamed into new registers, proved (the block checks
/// refuted two blocks of it before).
#[test]
fn llc_rename_independent_subregs_is_proved() {
    let v = changed(
        "vector_copy_x4@gfx900.before.mir",
        "vector_copy_x4@gfx900.after.mir",
    );
    assert!(all_renamed(&v), "{v:?}");
}
