//! si-lower-control-flow checked in the lane-bit model (docs/tv.md, "Control-flow lowering"):
//! llc-22's pairs of `tests/data/tv/kernels/divergent_loop.ll` around the pass on gfx900
//! (wave64) and gfx1100 (wave32), and after-files with planted bugs. The expected verdicts are
//! the hand argument of `tests/data/tv/cflow/README.md`, not tv's output.

use serde_json::Value;
use std::path::Path;

/// Block -> (verdict, reason) of a tv run of `before` against `after` on `target`.
fn run(before: &str, after: &str, target: &str) -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cflow");
    let args = ["--target", target, before, after];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir, &args);
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    blocks
        .iter()
        .map(|v| (s(&v["block"]), s(&v["verdict"]), s(&v["reason"])))
        .collect()
}

fn verdict<'a>(v: &'a [(String, String, String)], block: &str) -> (&'a str, &'a str) {
    let b = v
        .iter()
        .find(|b| b.0 == block)
        .unwrap_or_else(|| panic!("no {block} in {v:?}"));
    (b.1.as_str(), b.2.as_str())
}

/// The blocks si-lower-control-flow changes in divergent_loop: bb.0 (SI_IF, simple form), bb.2
/// (SI_END_CF), bb.3 (SI_IF whose mask an SI_ELSE reads: the XOR form), bb.4 (SI_ELSE), bb.7
/// (SI_END_CF, SI_IF_BREAK, SI_LOOP), bb.8 (SI_END_CF).
const CHANGED: [&str; 6] = ["bb.0", "bb.2", "bb.3", "bb.4", "bb.7", "bb.8"];

#[test]
fn lowering_is_proved_wave64() {
    let v = run(
        "divergent_loop.gfx900.before.mir",
        "divergent_loop.gfx900.after.mir",
        "gfx900",
    );
    for b in CHANGED {
        assert_eq!(verdict(&v, b).0, "proved", "{b}: {v:?}");
    }
}

#[test]
fn lowering_is_proved_wave32() {
    let v = run(
        "divergent_loop.gfx1100.before.mir",
        "divergent_loop.gfx1100.after.mir",
        "gfx1100",
    );
    // bb.0 writes a discarded carry-out to $sgpr_null, modelled since 2026-12-05
    // (tests/data/tv/null): llc's correct lowering is proved there too.
    let (r, why) = verdict(&v, "bb.0");
    assert_eq!(r, "proved", "{why}");
    for b in &CHANGED[1..] {
        assert_eq!(verdict(&v, b).0, "proved", "{b}: {v:?}");
    }
}

/// A planted bug in `after`: `block` must get `want` (and the reason start with `why`), and
/// every other changed block stays proved.
fn planted(after: &str, target: &str, block: &str, want: &str, why: &str) {
    let before = format!("divergent_loop.{target}.before.mir");
    let v = run(&before, after, target);
    let (r, reason) = verdict(&v, block);
    assert_eq!(r, want, "{after} {block}: {reason}");
    assert!(reason.contains(why), "{after} {block}: {reason}");
    for b in CHANGED
        .iter()
        .filter(|b| **b != block && !(target == "gfx1100" && **b == "bb.0"))
    {
        assert_eq!(verdict(&v, b).0, "proved", "{after} {b}: {v:?}");
    }
}

#[test]
fn planted_bugs_are_not_proved() {
    // SI_END_CF lowered as an AND: a lane of the saved mask inactive on entry stays off.
    planted(
        "bug_restore_and.gfx900.after.mir",
        "gfx900",
        "bb.2",
        "refuted",
        "exec",
    );
    // SI_END_CF's OR deleted: EXEC is not restored.
    planted(
        "bug_endcf_missing.gfx900.after.mir",
        "gfx900",
        "bb.2",
        "refuted",
        "exec",
    );
    // SI_LOOP's S_ANDN2 swapped for S_AND: the lanes that broke out stay on, the others leave.
    planted(
        "bug_loop_and.gfx900.after.mir",
        "gfx900",
        "bb.7",
        "refuted",
        "exec",
    );
    planted(
        "bug_loop_and.gfx1100.after.mir",
        "gfx1100",
        "bb.7",
        "refuted",
        "exec",
    );
    // The SI_IF feeding an SI_ELSE saved EXEC itself instead of EXEC & ~cond.
    planted(
        "bug_if_saved.gfx900.after.mir",
        "gfx900",
        "bb.3",
        "refuted",
        "%9",
    );
    // EXECZ turned into EXECNZ, and the SI_ELSE's branch sent to the other successor: a
    // different branch decision (not refuted: whether EXEC can be zero there is not known).
    planted(
        "bug_branch_cond.gfx900.after.mir",
        "gfx900",
        "bb.0",
        "unsupported",
        "terminators",
    );
    // A branch target changed while bb.4's `successors:` line was kept: llc-22's verifier
    // rejects the file ("MBB has unexpected successors which are not branch targets,
    // fallthrough, ..."), and so does tv's reader since breaker 18 (an input error).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/cflow");
    let args = [
        "tv",
        "--target",
        "gfx900",
        "divergent_loop.gfx900.before.mir",
        "bug_branch_target.gfx900.after.mir",
    ];
    let r = gcnsmt_testkit::run_at(Some(&dir), env!("CARGO_BIN_EXE_gcnsmt"), &args, None, &[]);
    r.assert_no_panic();
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("bb.4 lists successor"), "{}", r.context());
}
