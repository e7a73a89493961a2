//! The thirteenth breaker's hazard wrong proofs 01-04 (`tests/data/tv/break13/README.md` says
//! why each pair is wrong): post-RA pairs whose after-file has a hardware hazard the
//! before-file does not. Under the default `hazards=CHECK` none may be proved, and the legal
//! post-RA changes (wait-only instructions added, as llc-22's `post-RA-hazard-rec` and
//! `si-insert-waitcnts` do) must still prove.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv")
}

/// `gcnsmt tv BEFORE AFTER --target T EXTRA...` in tests/data/tv: exit code and stdout.
fn tv(before: &str, after: &str, target: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(dir())
        .args(["tv", before, after, "--target", target])
        .args(extra)
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), text)
}

/// The four pairs, with their targets (the README's).
const CASES: &[(&str, &str)] = &[
    ("01-hazard-store-data-war", "gfx900"),
    ("02-hazard-vmem-sgpr-war-gfx1010", "gfx1010"),
    ("03-hazard-trans-use-gfx1100", "gfx1100"),
    ("04-hazard-two-blocks-away", "gfx900"),
];

/// The breaker's two controls (already unsupported before the new rule).
const CONTROLS: &[(&str, &str)] = &[
    ("01b-s-nop-dropped-after-store", "gfx900"),
    ("04b-direct-successor", "gfx900"),
];

#[test]
fn the_thirteenth_breakers_hazard_pairs_are_never_proved() {
    for (stem, target) in CASES.iter().chain(CONTROLS) {
        let (b, a) = (
            format!("break13/{stem}.before.mir"),
            format!("break13/{stem}.after.mir"),
        );
        let (code, text) = tv(&b, &a, target, &[]);
        assert!(
            code == Some(1) || code == Some(3),
            "{stem}: exit {code:?}, must be refuted (1) or inconclusive (3):\n{text}"
        );
        assert!(
            !text.contains(": proved"),
            "{stem}: a block proved:\n{text}"
        );
        assert!(
            text.contains("wait states of hardware hazards"),
            "{stem}: not for the hazard rule:\n{text}"
        );
    }
}

/// The reorders are legal before the recognizer runs (it inserts the waits): with
/// `--set hazards=LATER` the four pairs prove, so the rule, not the values, rejects them.
#[test]
fn hazards_later_proves_the_same_pairs() {
    for (stem, target) in CASES {
        let (b, a) = (
            format!("break13/{stem}.before.mir"),
            format!("break13/{stem}.after.mir"),
        );
        let (code, text) = tv(&b, &a, target, &["--set", "hazards=LATER"]);
        assert_eq!(code, Some(0), "{stem}:\n{text}");
        assert!(text.contains("hazards=LATER"), "{stem}:\n{text}");
    }
}

/// Pure additions of waits after register allocation still prove under CHECK: llc-22's
/// si-insert-waitcnts pair (`tests/data/tv/waitcnt/README.md`: four `S_WAITCNT`s added, nothing
/// else changed), and breaker 13's 04 after-file with the `S_NOP 2` llc-22's hazard recognizer
/// inserts (`break13/04-hazard-two-blocks-away.llc-fixed.mir`). llc-22's own recognizer output
/// on 01-03 (`STEM.llc-fixed.mir`) passes the rule too; those blocks already have waits, and a
/// wait added next to them is left to the uninterpreted-instruction check (not proved).
#[test]
fn wait_additions_after_register_allocation_still_prove() {
    let (code, text) = tv(
        "waitcnt/mix_gfx900.before.mir",
        "waitcnt/mix_gfx900.after.mir",
        "gfx900",
        &[],
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("mix bb.0 gfx900: proved"), "{text}");
    let stem = "break13/04-hazard-two-blocks-away";
    let (b, a) = (format!("{stem}.after.mir"), format!("{stem}.llc-fixed.mir"));
    let (code, text) = tv(&b, &a, "gfx900", &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("k bb.2 gfx900: proved"), "{text}");
    assert!(text.contains("hazards=CHECK"), "{text}");
    for (stem, target) in &CASES[..3] {
        let (b, a) = (
            format!("break13/{stem}.after.mir"),
            format!("break13/{stem}.llc-fixed.mir"),
        );
        let (_, text) = tv(&b, &a, target, &[]);
        assert!(!text.contains("hardware hazard"), "{stem}:\n{text}");
    }
}

/// Adding an instruction that writes a register is not: the after-file of 04 with a dead
/// `V_MOV_B32` where llc put the `S_NOP 2` is equal in value (v20 is dead), and unsupported.
#[test]
fn adding_a_register_write_after_register_allocation_is_unsupported() {
    let stem = "04-hazard-two-blocks-away";
    let fixed = dir().join(format!("break13/{stem}.llc-fixed.mir"));
    let src = std::fs::read_to_string(fixed).expect("read");
    assert_eq!(src.matches("    S_NOP 2\n").count(), 1, "the edit applies");
    let edited = src.replace(
        "    S_NOP 2\n",
        "    $vgpr20 = V_MOV_B32_e32 0, implicit $exec\n",
    );
    let tmp = std::env::temp_dir().join(format!("gcnsmt-break13-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let path = tmp.join("mov.after.mir");
    std::fs::write(&path, edited).expect("write");
    let b = dir().join(format!("break13/{stem}.after.mir"));
    let (code, text) = tv(b.to_str().unwrap(), path.to_str().unwrap(), "gfx900", &[]);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("added `V_MOV_B32_e32`"), "{text}");
    // The same addition before the recognizer runs proves: the value is the same.
    let (code, text) = tv(
        b.to_str().unwrap(),
        path.to_str().unwrap(),
        "gfx900",
        &["--set", "hazards=LATER"],
    );
    assert_eq!(code, Some(0), "{text}");
}

/// The independent oracle the README cites: llc-22's `post-RA-hazard-rec` inserts a wait into
/// each after-file and none into each before-file. Skipped without llc-22 on PATH.
#[test]
fn llc22s_recognizer_sees_the_hazards() {
    if Command::new("llc-22").arg("--version").output().is_err() {
        eprintln!("llc-22 not on PATH: skipped");
        return;
    }
    let waits =
        |text: &str| text.matches("S_NOP").count() + text.matches("S_WAITCNT_DEPCTR").count();
    for (stem, target) in CASES {
        for (side, added) in [("before", 0), ("after", 1)] {
            let file = dir().join(format!("break13/{stem}.{side}.mir"));
            let out = Command::new("llc-22")
                .args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={target}")])
                .args(["-run-pass=post-RA-hazard-rec", "-o", "-"])
                .arg(&file)
                .output()
                .expect("run llc-22");
            assert!(out.status.success(), "{stem} {side}");
            let text = String::from_utf8_lossy(&out.stdout);
            let src = std::fs::read_to_string(&file).expect("read");
            assert_eq!(waits(&text) - waits(&src), added, "{stem} {side}:\n{text}");
        }
    }
}
