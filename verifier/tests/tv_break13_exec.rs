//! The thirteenth breaker's wrong proofs about EXEC (`tests/data/tv/break13/README-exec.md`
//! says why each pair is wrong): EXEC taken as dead before an inline asm store or a call, and a
//! callable function that overwrites the inactive lanes of a caller-saved VGPR. The controls
//! keep their hand-derived verdicts.

use std::process::Command;

fn run(n: &str) -> (Option<i32>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break13");
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", &format!("{n}.before.mir"), &format!("{n}.after.mir")])
        .args(["--target", "gfx900"])
        // These pairs test EXEC and inactive lanes: the post-RA hazard rule (hazards=CHECK)
        // would make them `unsupported` whatever those checks say.
        .args(["--set", "hazards=LATER"])
        .output()
        .expect("run gcnsmt");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_thirteenth_breakers_exec_pairs_are_never_proved() {
    for n in [
        "05-c-func-clobbers-inactive-lanes",
        "06-exec-dead-before-inlineasm",
        "07-exec-dead-before-call",
        "cfunc-widened-by-register",
    ] {
        let (code, text) = run(n);
        assert!(
            code == Some(1) || code == Some(3),
            "{n}: exit {code:?}, must be refuted (1) or inconclusive (3):\n{text}"
        );
        assert!(!text.contains(": proved"), "{n}: a block proved:\n{text}");
    }
}

#[test]
fn an_exec_restore_before_a_vector_reader_is_compared() {
    // 06 and 07 are refuted: EXEC differs at the join's end, and the next block reads it.
    for (n, block) in [
        ("06-exec-dead-before-inlineasm", "k bb.2"),
        ("07-exec-dead-before-call", "k bb.2"),
        ("06-control-global-store", "k bb.2"),
    ] {
        let (code, text) = run(n);
        assert_eq!(code, Some(1), "{n}: not refuted:\n{text}");
        assert!(
            text.contains(&format!("{block} gfx900: refuted")),
            "{n}:\n{text}"
        );
    }
}

#[test]
fn the_controls_keep_their_verdicts() {
    // v40 is callee-saved: the after-side's whole-wave write to it is a real difference.
    let (code, text) = run("05-control-v40");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("f bb.0 gfx900: refuted"), "{text}");
    // Nothing widens EXEC: dropping a dead write to a caller-saved VGPR is right.
    let (code, text) = run("05-control-dead-write-dropped");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("f bb.0 gfx900: proved"), "{text}");
    // Only scalar code follows the join: EXEC is dead there, the deleted restore is right.
    let (code, text) = run("06-control-scalar-tail");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("k bb.2 gfx900: proved"), "{text}");
}

#[test]
fn llvm_lowering_of_a_c_functions_if_else_stays_proved() {
    // LLVM's structured EXEC masks only ever drop lanes and restore saved ones: no lane the
    // call did not enable is written, so the inactive-lane rule does not apply.
    for (n, blocks) in [
        ("cfunc-si-lower-control-flow", ["g bb.0", "g bb.1"]),
        ("cfunc-si-insert-waitcnts", ["g bb.0", "g bb.3"]),
    ] {
        let (_, text) = run(n);
        for b in blocks {
            assert!(
                text.contains(&format!("{b} gfx900: proved")),
                "{n}:\n{text}"
            );
        }
    }
}
