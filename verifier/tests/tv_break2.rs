//! Wrong proofs a fresh helper found on 2026-12-04 in the models added that day (EXEC and lane
//! masks, first-lane reads, imported definitions, SCC, waits) and in liveness
//! (`tests/data/tv/break2/NN-*/`: each pair valid for llc-22 `-verify-machineinstrs`, its
//! README works out by hand an input on which before and after differ on hardware). Each must
//! end refuted, unknown or unsupported in some block: never all proved or unchanged.

use std::path::Path;

/// (folder, before, after, target).
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "01-import-across-exec-term",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "01-import-across-exec-term",
        "before-movterm.mir",
        "after-movterm.mir",
        "gfx900",
    ),
    (
        "01-import-across-exec-term",
        "before-gfx1100.mir",
        "after-gfx1100.mir",
        "gfx1100",
    ),
    (
        "02-readfirstlane-mbcnt-uniform",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "02-readfirstlane-mbcnt-uniform",
        "before-copy.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "02-readfirstlane-mbcnt-uniform",
        "before.mir",
        "after.mir",
        "gfx1100",
    ),
    (
        "03-vcmp-e32-vcc-not-masked",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "03-vcmp-e32-vcc-not-masked",
        "before-cndmask.mir",
        "after-cndmask.mir",
        "gfx900",
    ),
    (
        "04-readfirstlane-shadow-reads-later-sgpr",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "05-phys-liveout-without-liveins",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "05-phys-liveout-without-liveins",
        "before-vcc.mir",
        "after-vcc.mir",
        "gfx900",
    ),
    (
        "06-nonssa-vreg-input-of-uninterpreted-twin",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "07-global-load-lds-writes-lds",
        "before.mir",
        "after.mir",
        "gfx942",
    ),
    (
        "08-mask-halves-swapped-by-reg-sequence",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "08-mask-halves-swapped-by-reg-sequence",
        "before-copy.mir",
        "after-copy.mir",
        "gfx900",
    ),
    (
        "09-s-getpc-position-independent",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "09-s-getpc-position-independent",
        "before-move.mir",
        "after-move.mir",
        "gfx900",
    ),
    (
        "10-mask-into-vgpr-by-v-mov-b64-pseudo",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "11-execz-branch-before-s-endpgm",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "12-nonssa-loop-carried-vreg-dead",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "13-ssa-self-loop-phi-incoming-dead",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
    (
        "14-one-lane-fallback-assumes-exec-nonzero",
        "before.mir",
        "after.mir",
        "gfx900",
    ),
];

/// The passes of these pairs run before LLVM's hazard recognizer (docs/tv.md, "Hazards").
const LATER: [&str; 2] = ["--set", "hazards=LATER"];

fn verdicts(dir: &Path, before: &str, after: &str, target: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--target", target, before, after];
    args.extend(extra);
    let (blocks, out) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), dir, &args);
    assert!((0..=3).contains(&out.code), "{}", out.stderr);
    blocks
        .iter()
        .filter_map(|v| v["verdict"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn wrong_proofs_found_by_a_fresh_helper_are_not_proved() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/break2");
    let mut wrong = Vec::new();
    for (dir, before, after, target) in CASES {
        let v = verdicts(&root.join(dir), before, after, target, &[]);
        let caught = v
            .iter()
            .any(|x| matches!(x.as_str(), "refuted" | "unknown" | "unsupported"));
        if !caught {
            wrong.push(format!("{dir} {before} {after} {target}: {v:?}"));
        }
    }
    assert!(wrong.is_empty(), "still proved:\n{}", wrong.join("\n"));
}

/// The false alarm of that round (`FA1-*`): `S_MOV_B64` of the f64 1/(2*pi),
/// 0x3FC45F306DC9C882, is an inline constant from gfx8 on (llc-22 encodes it on gfx900 as
/// SSRC0 = 248), so the expansion of `S_MOV_B64_IMM_PSEUDO` into it is proved there; on gfx600
/// it is not inline, the encoder keeps the low dword 0x6DC9C882 as a literal and s5 becomes 0
/// instead of 0x3FC45F30: refuted. The expansion is postrapseudos', before LLVM's hazard
/// recognizer: `hazards=LATER` (under CHECK a post-RA instruction change is unsupported).
#[test]
fn inv2pi_is_a_64_bit_inline_constant_from_gfx8() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/tv/break2/FA1-s-mov-b64-inv2pi-inline");
    for (target, want) in [("gfx900", "proved"), ("gfx600", "refuted")] {
        let v = verdicts(&dir, "before.mir", "after.mir", target, &LATER);
        assert_eq!(v, [want], "{target}");
    }
}
