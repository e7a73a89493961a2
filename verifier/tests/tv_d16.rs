//! D16 DS loads keep the other half of their destination, which MIR passes as a tied last
//! operand (`tests/data/tv/d16/README.md`): llc-22's pair is proved, a load into the wrong half
//! refuted (before session 18 both were input errors).

use std::process::Command;

fn tv(after: &str) -> (Option<i32>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/d16");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", "d16.before.mir", after, "--target", "gfx900"])
        .output()
        .expect("run gcnsmt");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_d16_hi_load_keeps_the_low_half_of_its_tied_old_value() {
    let (code, text) = tv("d16.after.mir");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("k bb.0 gfx900: proved"), "{text}");
    let (code, text) = tv("d16.lo.after.mir");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("k bb.0 gfx900: refuted"), "{text}");
}
