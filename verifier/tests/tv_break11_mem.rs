//! The eleventh breaker's wrong proofs about memory operands and atomicity
//! (`tests/data/tv/break11/README-mem.md` says why each pair is wrong): none may be proved
//! again. Each must be `unsupported` (exit 3) with the reason of `memop.rs`: tv's one-lane,
//! one-wave model cannot refute them, and the rule that refuses them is what this test checks.

use std::process::Command;

#[test]
fn the_eleventh_breakers_memory_pairs_are_never_proved() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break11");
    // (pair, a phrase of the reason that must refuse it)
    let cases = [
        ("01-release-store-dropped-to-plain", "volatile or atomic"),
        ("01-release-store-scope-narrowed", "volatile or atomic"),
        (
            "02-acquire-load-weakened-to-monotonic",
            "volatile or atomic",
        ),
        ("03-volatile-load-flag-dropped", "volatile or atomic"),
        (
            "03-volatile-load-flag-dropped-blockcheck",
            "volatile or atomic",
        ),
        ("04-volatile-loads-merged", "volatile or atomic"),
        ("04-volatile-store-deleted", "volatile or atomic"),
        (
            "06-lds-atomic-add-split-into-load-add-store",
            "volatile or atomic",
        ),
        (
            "06-lds-atomic-add-split-monotonic-operands",
            "volatile or atomic",
        ),
        (
            "09-invariant-dereferenceable-claim-added-to-loop-load",
            "made `",
        ),
        ("09-invariant-claim-added-straight-line", "made `"),
        (
            "10-buffer-atomic-add-split-into-load-add-store",
            "volatile or atomic",
        ),
        (
            "11-global-load-replaced-by-scalar-load-after-vector-store",
            "scalar cache is not coherent",
        ),
    ];
    for (n, why) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .current_dir(&dir)
            .args([
                "tv",
                &format!("{n}.before.mir"),
                &format!("{n}.after.mir"),
                "--target",
                "gfx900",
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
        assert!(text.contains(why), "{n}: not refused for `{why}`:\n{text}");
    }
}
