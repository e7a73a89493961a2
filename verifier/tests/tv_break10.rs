//! The tenth breaker's wrong proofs (`tests/data/tv/break10/README.md` says why each pair is
//! wrong): none may be proved again.

use std::process::Command;

#[test]
fn the_tenth_breakers_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break10");
    let cases = [
        ("01", "gfx900"),
        ("02", "gfx900"),
        ("03", "gfx90a"),
        ("04", "gfx90a"),
        ("05", "gfx90a"),
        ("06", "gfx90a"),
        ("07", "gfx90a"),
        ("08", "gfx90a"),
        ("09", "gfx90a"),
        ("10", "gfx90a"),
        ("11", "gfx90a"),
    ];
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("break10")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    for (n, target) in cases {
        let find = |suffix: &str| {
            names
                .iter()
                .find(|f| f.starts_with(n) && f.ends_with(suffix))
                .unwrap_or_else(|| panic!("{n}{suffix}"))
                .clone()
        };
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args([
                "tv",
                &find(".before.mir"),
                &find(".after.mir"),
                "--target",
                target,
            ])
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
