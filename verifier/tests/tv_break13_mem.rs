//! The thirteenth breaker's memory findings (`tests/data/tv/break13/README-mem.md` says why
//! each pair is wrong): memory-ordering waits si-insert-waitcnts dropped (08, 09), and a new
//! scalar load or an `invariant` claim over more bytes than the before-file named (10).

use std::process::Command;

fn tv(before: &str, after: &str, extra: &[&str]) -> (Option<i32>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break13");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", before, after, "--target", "gfx900"])
        .args(extra)
        .output()
        .expect("run gcnsmt");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_thirteenth_breakers_memory_pairs_are_never_proved() {
    let waits = ["--pass", "si-insert-waitcnts"];
    for (n, extra) in [
        ("08-release-fence-wait-dropped-before-barrier", &waits[..]),
        ("09-release-store-wait-dropped", &waits[..]),
        ("10-new-scalar-load-after-vector-store", &[][..]),
        ("10-invariant-claim-on-more-bytes", &[][..]),
    ] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break13");
        let (b, a) = (format!("{n}.before.mir"), format!("{n}.after.mir"));
        let mut args = vec!["--target", "gfx900"];
        args.extend_from_slice(extra);
        gcnsmt_testkit::assert_never_proved(env!("CARGO_BIN_EXE_gcnsmt"), &dir, n, [&b, &a], &args);
    }
}

#[test]
fn dropped_release_waits_are_refuted_and_llc_output_proved() {
    for n in [
        "08-release-fence-wait-dropped-before-barrier",
        "09-release-store-wait-dropped",
    ] {
        let args = ["--pass", "si-insert-waitcnts"];
        let before = format!("{n}.before.mir");
        let (code, text) = tv(&before, &format!("{n}.after.mir"), &args);
        assert_eq!(code, Some(1), "{n}:\n{text}");
        assert!(
            text.contains("memory-ordering wait dropped"),
            "{n}:\n{text}"
        );
        let (code, text) = tv(&before, &format!("{n}.llc.after.mir"), &args);
        assert_eq!(code, Some(0), "{n}: llc-22's own output:\n{text}");
        assert!(text.contains("bb.0 gfx900: proved"), "{n}:\n{text}");
    }
}
