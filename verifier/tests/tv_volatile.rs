//! Volatile loads (`tv/volatile.rs`): two volatile loads of one address may return different
//! values, so forwarding one's value to the other's use is refuted, while a pass that keeps
//! them and their uses is proved. Pairs and why: `tests/data/tv/volatile/README.md`.

use std::process::Command;

fn tv(before: &str, after: &str) -> (Option<i32>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/volatile");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", before, after, "--target", "gfx900"])
        .output()
        .expect("run gcnsmt");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn forwarding_one_volatile_load_to_another_is_refuted() {
    for (before, after) in [
        ("forward.before.mir", "forward.after.mir"),
        ("ext.before.mir", "ext-forward.after.mir"),
    ] {
        let (code, text) = tv(before, after);
        assert_eq!(code, Some(1), "{after}:\n{text}");
        assert!(text.contains("bb.0 gfx900: refuted"), "{after}:\n{text}");
    }
}

#[test]
fn passes_that_keep_volatile_loads_and_their_uses_are_proved() {
    for (before, after) in [
        ("forward.before.mir", "fold.after.mir"),
        ("ext.before.mir", "ext.after.mir"),
    ] {
        let (code, text) = tv(before, after);
        assert_eq!(code, Some(0), "{after}:\n{text}");
        assert!(text.contains("bb.0 gfx900: proved"), "{after}:\n{text}");
    }
}
