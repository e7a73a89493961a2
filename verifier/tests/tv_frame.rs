//! Frame indices across prologepilog (`tv/frame.rs`) and the registers a C function's caller
//! reads after the return (`tv/csr.rs`): the pairs of `tests/data/tv/frame/` and
//! `tests/data/tv/csr/`, with the verdicts worked out by hand in their READMEs.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The verdicts of the changed blocks of a tv run, as (function, verdict, reason).
fn verdicts(dir: &str, before: &str, after: &str, target: &str) -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv")
        .join(dir);
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&dir)
        .args(["tv", "--format", "json", "--target", target, before, after])
        // prologepilog runs before LLVM's hazard recognizer (docs/tv.md, "Hazards").
        .args(["--set", "hazards=LATER"])
        .output()
        .unwrap();
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "block" && v["changed"] == true)
        .map(|v| (s(&v["function"]), s(&v["verdict"]), s(&v["reason"])))
        .collect()
}

fn expect(before: &str, after: &str, target: &str, verdict: &str, reason: &str) {
    let v = verdicts("frame", before, after, target);
    assert_eq!(v.len(), 1, "{after}: {v:?}");
    assert_eq!(v[0].1, verdict, "{after}: {v:?}");
    assert!(v[0].2.contains(reason), "{after}: {v:?}");
}

#[test]
fn frame_indices_materialised_right_are_proved() {
    expect(
        "values.gfx1100.before.mir",
        "values.gfx1100.after.mir",
        "gfx1100",
        "proved",
        "",
    );
    expect(
        "values.gfx900.before.mir",
        "values.gfx900.after.mir",
        "gfx900",
        "proved",
        "",
    );
    expect(
        "blocks.gfx1100.before.mir",
        "blocks.gfx1100.after.mir",
        "gfx1100",
        "proved",
        "",
    );
}

#[test]
fn wrong_offsets_and_scales_are_refuted() {
    let b = "values.gfx1100.before.mir";
    expect(
        b,
        "values.gfx1100.wrong-offset.after.mir",
        "gfx1100",
        "refuted",
        "LDS[0x4]",
    );
    let b = "values.gfx900.before.mir";
    expect(
        b,
        "values.gfx900.unscaled.after.mir",
        "gfx900",
        "refuted",
        "LDS[0x0]",
    );
    expect(
        b,
        "values.gfx900.wave32-shift.after.mir",
        "gfx900",
        "refuted",
        "LDS[0x4]",
    );
}

#[test]
fn unresolvable_frames_stay_unsupported() {
    let b = "values.gfx1100.before.mir";
    let cases = [
        (
            "values.gfx1100.overlap.after.mir",
            "overlaps %stack.1 with %stack.0",
        ),
        ("values.gfx1100.sp-written.after.mir", "writes s32"),
        // The hand-made after-file turns on `isEntryFunction`, which the before-file does not
        // have: a changed function info, caught before the frame model (breaker 18's 04).
        (
            "values.gfx1100.entry.after.mir",
            "`machineFunctionInfo: isEntryFunction` changed",
        ),
        (
            "values.gfx1100.fp-base.after.mir",
            "never reads the stack pointer s32",
        ),
    ];
    for (after, why) in cases {
        expect(b, after, "gfx1100", "unsupported", why);
    }
    let (b, a) = (
        "values.gfx1100.fixed.before.mir",
        "values.gfx1100.after.mir",
    );
    expect(b, a, "gfx1100", "unsupported", "fixed stack object");
    let (b, a) = ("mem.gfx1100.before.mir", "mem.gfx1100.after.mir");
    expect(b, a, "gfx1100", "unsupported", "memory address");
}

#[test]
fn a_c_function_caller_reads_no_caller_saved_register() {
    let v = verdicts("csr", "returns.before.mir", "returns.after.mir", "gfx1100");
    let got: Vec<(&str, &str)> = v.iter().map(|(f, v, _)| (f.as_str(), v.as_str())).collect();
    let want = [
        ("c_s4", "proved"),
        ("c_s30", "refuted"),
        ("gfx_s4", "refuted"),
    ];
    assert_eq!(got, want);
}
