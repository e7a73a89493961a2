//! The fourteenth breaker's wrong proofs (`tests/data/tv/break14/README.md` says why each pair
//! is wrong): EXEC read through STATUS, VCCZ left stale, MODE set in another block.

use std::process::Command;

#[test]
fn the_fourteenth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break14");
    let later = ["--set", "hazards=LATER"];
    for (n, extra) in [
        ("01-exec-dead-getreg-status", &[][..]),
        ("01-postra", &later[..]),
        ("02-vccz-restore-dropped", &later[..]),
        ("03-setreg-round-mode", &[][..]),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args(["tv", &format!("{n}.before.mir"), &format!("{n}.after.mir")])
            .args(["--target", "gfx900"])
            .args(extra)
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
