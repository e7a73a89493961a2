//! The fifteenth breaker's memory findings (`tests/data/tv/break15_mem/README.md` says why
//! each pair is wrong): a new scalar load after a call or an acquire (01), a volatile or atomic
//! access's data changed where a later access hides it at the block's end (05); and the
//! cross-lane LDS reorder tv proves under LLVM's data-race assumption (12).

use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break15_mem")
}

fn tv(before: &str, after: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(dir())
        .args(["tv", before, after, "--target", "gfx900"])
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), text)
}

#[test]
fn the_fifteenth_breakers_memory_pairs_are_never_proved() {
    for n in [
        "01-call",
        "01-acquire",
        "05-volatile",
        "05-atomic",
        "05-rmw",
    ] {
        let (b, a) = (format!("{n}.before.mir"), format!("{n}.after.mir"));
        let args = ["--target", "gfx900"];
        let text = gcnsmt_testkit::assert_never_proved(
            env!("CARGO_BIN_EXE_gcnsmt"),
            &dir(),
            n,
            [&b, &a],
            &args,
        );
        if n.starts_with("05") {
            // The changed data is a real difference at the access: refuted, not just unknown.
            assert!(text.contains("bb.0 gfx900: refuted"), "{n}:\n{text}");
        }
    }
}

#[test]
fn correct_variants_are_still_proved() {
    // 01-plain: no store, call, atomic or fence anywhere (the new scalar load reads what the
    // vector load read); 05-*.ok: only an independent V_MOV moved, each access sees the same
    // address and data.
    for (b, a, block) in [
        ("01-plain.before.mir", "01-plain.after.mir", "bb.1"),
        ("05-volatile.before.mir", "05-volatile.ok.after.mir", "bb.0"),
        ("05-atomic.before.mir", "05-atomic.ok.after.mir", "bb.0"),
        ("05-rmw.before.mir", "05-rmw.ok.after.mir", "bb.0"),
    ] {
        let (code, text) = tv(b, a);
        assert_eq!(code, Some(0), "{a}:\n{text}");
        assert!(
            text.contains(&format!("{block} gfx900: proved")),
            "{a}:\n{text}"
        );
    }
}

#[test]
fn a_cross_lane_lds_reorder_is_proved_under_the_data_race_assumption() {
    // docs/tv.md (symmetry): lanes are threads of LLVM's memory model; lane i reading the
    // word lane i+1 wrote, unsynchronized, is a data race, so the reorder is LLVM's to make.
    let (code, text) = tv("12-cross-lane.before.mir", "12-cross-lane.after.mir");
    assert_eq!(code, Some(0), "{text}");
}
