//! The register-allocation checker (`tv/alloc.rs`) on `register-coalescer` pairs llc-22 made
//! from our kernels (`tests/data/tv/alloc/coal/make.sh`) and on planted wrong after-files
//! (hand edits, `coal/README.md`): docs/tv.md, "Constants and undefined values in the
//! allocation checker".

use gcnsmt_verifier::tv::{alloc, mir, rename};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/alloc/coal")
}

fn read(name: &str) -> mir::MirFile {
    let p = dir().join(name);
    let text = std::fs::read_to_string(&p).unwrap();
    mir::parse(&p.display().to_string(), &text).unwrap()
}

/// What the two checkers that follow renamed registers say of the pair's one function: `Ok`
/// when one of them proves it.
fn follow(before: &str, after: &str) -> Result<(), String> {
    let (b, a) = (read(before), read(after));
    let (fb, fa) = (&b.functions[0], &a.functions[0]);
    if rename::check(fb, fa).is_ok() {
        return Ok(());
    }
    alloc::check(fb, fa)
}

/// The verdicts of the changed blocks of `gcnsmt tv BEFORE AFTER` (block, verdict).
fn verdicts(target: &str, before: &str, after: &str) -> Vec<(String, String)> {
    let args = ["--target", target, before, after];
    let (blocks, _) = gcnsmt_testkit::tv_blocks(env!("CARGO_BIN_EXE_gcnsmt"), &dir(), &args);
    blocks
        .iter()
        .filter(|b| b["changed"] == true)
        .map(|b| {
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (s("block"), s("verdict"))
        })
        .collect()
}

/// llc-22's coalescing of `atomics_fences` (gfx900) and `stream_compact` (gfx1100): a
/// register `IMPLICIT_DEF` before a divergent `if` and written inside it (a PHI with an undef
/// input) is read after the join, where the coalesced location holds it on the edge that
/// wrote it and the other edge leaves it undefined. Before, the join dropped the fact (the
/// block checks refuted 10 of `atomics_fences`' blocks: false alarms). Right (read by hand:
/// the coalescer only merged `%173` with `%20` and `%21`): every changed block proved.
#[test]
fn a_value_undefined_on_one_edge_is_followed_across_the_join() {
    for (name, target) in [("af", "gfx900"), ("sc", "gfx1100")] {
        let (b, a) = (format!("{name}.before.mir"), format!("{name}.after.mir"));
        assert_eq!(follow(&b, &a), Ok(()), "{name}");
        let v = verdicts(target, &b, &a);
        assert!(!v.is_empty(), "{name}: no changed block");
        assert!(v.iter().all(|(_, x)| x == "proved"), "{name}: {v:?}");
    }
}

/// Planted (`af.wrong.after.mir`): the atomic of bb.6 returns into `%117` instead of `%173`,
/// so on the path through bb.6 bb.8's `V_READFIRSTLANE_B32 %173` reads the `IMPLICIT_DEF`
/// garbage where the before-file reads the atomic's result. The edge from bb.5 (the value
/// undefined) may not make the fact hold: not proved, bb.8 not proved.
#[test]
fn a_value_lost_on_the_edge_that_defines_it_is_not_proved() {
    let e = follow("af.before.mir", "af.wrong.after.mir").unwrap_err();
    assert!(
        e.contains("bb.8") && e.contains("V_READFIRSTLANE_B32"),
        "{e}"
    );
    let v = verdicts("gfx900", "af.before.mir", "af.wrong.after.mir");
    let bb8 = v.iter().find(|(b, _)| b == "bb.8").expect("bb.8 changed");
    assert_ne!(bb8.1, "proved", "{v:?}");
}

/// llc-22's coalescing of `gemm_tiled` (gfx900): the accumulator's initial value `%139 =
/// COPY %51` of `%51 = V_MOV_B32_e32 0` is rematerialised (`%137 = V_MOV_B32_e32 0`) although
/// `%139` is also defined elsewhere (the latch's `COPY %16`): it equals the constant where the
/// copy ran. Right: the checker proves it (before: "holds %51.0, ... where the before-file
/// reads %15.0", and 7 blocks refuted by the block checks).
#[test]
fn a_copy_of_a_constant_is_held_by_its_rematerialisation() {
    assert_eq!(follow("gemm.before.mir", "gemm.after.mir"), Ok(()));
}

/// Planted (`gemm.wrong.after.mir`): the rematerialisation moved from the preheader bb.2 into
/// the outer loop's header bb.4, so every tile restarts the sum at 0 where the before-file
/// carries it (`%139 = COPY %16` on the back-edge): wrong. At bb.4 `%139` equals the constant
/// on the entry edge only, so the constant's location does not hold it there: not proved.
#[test]
fn a_constant_rematerialised_where_the_copy_was_redefined_is_not_proved() {
    let e = follow("gemm.before.mir", "gemm.wrong.after.mir").unwrap_err();
    assert!(e.contains("bb.5"), "{e}");
}

/// llc-22's coalescing of `vector_copy_x4` (gfx900, a call to `llvm.amdgcn.num.workgroups.x`)
/// and `buffer_raw_mixed` (gfx900, the atomic optimizer's `V_WRITELANE_B32` scan loop):
/// proved by the checker, which gave up on every call and writelane before.
#[test]
fn calls_and_writelanes_are_followed() {
    for name in ["vc", "br"] {
        let (b, a) = (format!("{name}.before.mir"), format!("{name}.after.mir"));
        assert_eq!(follow(&b, &a), Ok(()), "{name}");
    }
}

/// Planted: the call's argument `$vgpr31` copied from another register (`vc.wrong`), and the
/// writelane moved below the add, an inclusive scan for an exclusive one (`br.wrong`): neither
/// is proved by the checkers.
#[test]
fn a_wrong_call_argument_or_writelane_is_not_proved() {
    for name in ["vc", "br"] {
        let (b, a) = (
            format!("{name}.before.mir"),
            format!("{name}.wrong.after.mir"),
        );
        let e = follow(&b, &a).unwrap_err();
        assert!(e.contains("bb.0") || e.contains("bb.3"), "{name}: {e}");
    }
}

/// llc-22's coalescing of `divergent_loop` (gfx900) keeps the number of `%70` but widens it
/// from `vreg_64` to `vreg_96` (it joins the loop's values into `%70.sub1`). Valid llc output,
/// so no input error (exit 2, "the files' virtual register numbers do not correspond", before
/// 2026-12-06): the block checks, which give a register one shape on both sides, leave the
/// function `unsupported`. The planted `dl.wrong` (the final store reads `%70.sub1_sub2` for
/// `%70.sub0_sub1`) is not proved either.
#[test]
fn a_widened_register_is_unsupported_not_an_input_error() {
    for after in ["dl.after.mir", "dl.wrong.after.mir"] {
        let v = verdicts("gfx900", "dl.before.mir", after);
        assert!(!v.is_empty(), "{after}: no verdict");
        assert!(v.iter().all(|(_, x)| x == "unsupported"), "{after}: {v:?}");
    }
}
