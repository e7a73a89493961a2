//! The eleventh breaker's wrong proofs 05, 07 and 08 (`tests/data/tv/break11/README-late.md`
//! says why each pair is wrong): none may be proved again; and llc-22's own frame-index
//! elimination with flat scratch and with MUBUF scratch, which must prove.

use std::process::Command;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break11")
}

/// `gcnsmt tv STEM.before.mir STEM.after.mir --target gfx900 EXTRA...`: exit code and stdout.
fn tv(stem: &str, extra: &[&str]) -> (Option<i32>, String) {
    let (b, a) = (format!("{stem}.before.mir"), format!("{stem}.after.mir"));
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(dir())
        .args(["tv", &b, &a, "--target", "gfx900"])
        .args(extra)
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code(), text)
}

#[test]
fn the_eleventh_breakers_hazard_wwm_and_scratch_pairs_are_never_proved() {
    let cases = [
        (
            "05-s-nop-moved-off-divfmas-vcc-hazard",
            "wait states of hardware hazards",
        ),
        (
            "05b-div-scale-moved-next-to-divfmas",
            "wait states of hardware hazards",
        ),
        (
            "07-strict-wwm-dropped-before-readlane-63",
            "reads other lanes of a whole-wave",
        ),
        ("08-frame-index-mubuf-scaling-under-flat-scratch", ""),
    ];
    for (stem, why) in cases {
        let (code, text) = tv(stem, &[]);
        assert!(
            code == Some(1) || code == Some(3),
            "{stem}: exit {code:?}, must be refuted (1) or inconclusive (3):\n{text}"
        );
        assert!(
            !text.contains(": proved"),
            "{stem}: a block proved:\n{text}"
        );
        assert!(
            text.contains(why),
            "{stem}: the reason is not `{why}`:\n{text}"
        );
    }
}

/// 08: the breaker's after-block computes the frame index as `SP >> 6` (MUBUF); with flat
/// scratch it is `SP + 0` (SIRegisterInfo::eliminateFrameIndex), so it is refuted, not just
/// given up on.
#[test]
fn the_mubuf_scaling_under_flat_scratch_is_refuted() {
    let (code, text) = tv("08-frame-index-mubuf-scaling-under-flat-scratch", &[]);
    assert_eq!(code, Some(1), "{text}");
}

/// llc-22's own prologepilog output (`08-llc22-*.ll`, `-stop-before`/`-stop-after
/// prologepilog`): `S_MOV_B32 $sgpr32` with `+enable-flat-scratch`, `S_LSHR_B32 $sgpr32, 6`
/// without; both keep llc's named frame index `%stack.0.b`.
#[test]
fn llc22s_frame_index_elimination_proves_under_both_scratch_models() {
    for stem in ["08-llc22-flat-scratch", "08-llc22-mubuf-scratch"] {
        // prologepilog runs before LLVM's hazard recognizer: LATER (under CHECK the dropped
        // `S_MOV_B32` would be unsupported, docs/tv.md "Hazards").
        let (code, text) = tv(stem, &["--set", "hazards=LATER"]);
        assert_eq!(code, Some(0), "{stem}:\n{text}");
        assert!(text.contains("fi bb.0 gfx900: proved"), "{stem}:\n{text}");
    }
}

/// A callable function whose IR names no flat scratch but whose scratchRSrcReg is
/// `$private_rsrc_reg` (llc ran with an `-mattr` the IR does not record) is not modelled: the
/// flat-scratch pair with the feature taken out of its IR.
#[test]
fn a_flat_scratch_descriptor_without_the_feature_is_unsupported() {
    let d = std::env::temp_dir().join(format!("gcnsmt-break11-late-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    for side in ["before", "after"] {
        let path = dir().join(format!("08-llc22-flat-scratch.{side}.mir"));
        let text = std::fs::read_to_string(path).expect("read");
        let feature = " \"target-features\"=\"+enable-flat-scratch,+enable-flat-scratch\"";
        assert!(text.contains(feature), "the edit applies");
        assert!(text.contains("scratchRSrcReg:  '$private_rsrc_reg'"));
        std::fs::write(d.join(format!("m.{side}.mir")), text.replace(feature, "")).expect("write");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(&d)
        .args(["tv", "m.before.mir", "m.after.mir", "--target", "gfx900"])
        .output()
        .expect("run gcnsmt");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("disagree on how the function addresses scratch"),
        "{text}"
    );
}

/// Before the hazard recognizer runs the same moves are legal (it inserts the wait states
/// later): `--set hazards=LATER` proves both 05 pairs, and the verdict names the setting.
#[test]
fn hazards_later_proves_the_moves_the_recognizer_fixes() {
    for stem in [
        "05-s-nop-moved-off-divfmas-vcc-hazard",
        "05b-div-scale-moved-next-to-divfmas",
    ] {
        let (code, text) = tv(stem, &["--set", "hazards=LATER"]);
        assert_eq!(code, Some(0), "{stem}:\n{text}");
        assert!(text.contains("hazards=LATER"), "{stem}:\n{text}");
    }
}
