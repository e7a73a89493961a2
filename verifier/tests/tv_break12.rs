//! The twelfth breaker's wrong proofs (`tests/data/tv/break12/README.md` says why each pair is
//! wrong): an `undef` sub-register def that drops lanes an earlier copy of the block wrote.

use std::process::Command;

#[test]
fn the_twelfth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break12");
    for n in [
        "01-undef-subreg-def-kills-lanes",
        "03-undef-on-insert-subreg-lowering",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args(["tv", &format!("{n}.before.mir"), &format!("{n}.after.mir")])
            .args(["--target", "gfx900"])
            .output()
            .expect("run gcnsmt");
        let text = String::from_utf8_lossy(&out.stdout);
        let code = out.status.code();
        assert!(
            code == Some(1) || code == Some(3),
            "{n}: exit {code:?}, must be refuted (1) or inconclusive (3):\n{text}"
        );
        assert!(!text.contains(": proved"), "{n}: a block proved:\n{text}");
    }
}
