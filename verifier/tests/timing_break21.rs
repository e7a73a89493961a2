//! The twenty-first breaker's waitcnt findings (tests/data/timing/break21/README.md): a load
//! that also reads the register it overwrites (11), the BVH stack ops' ADDR write-back (01),
//! gfx12 BVH rays' ORIGIN/DIR write-back (03), `image_msaa_load` as a sampler access (04).
//! Expected results come from the tester's sources (LLVM SIInsertWaitcnts and llc-22's own
//! waits), each with a control that stays as it was.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/break21")
        .join(name)
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

/// `gcnsmt waitcnt [--target T] FILE`: exit code and output.
fn waitcnt(file: &str, target: Option<&str>) -> (i32, String) {
    let f = data(file);
    let mut args = vec!["waitcnt"];
    if let Some(t) = target {
        args.extend(["--target", t]);
    }
    args.push(f.to_str().unwrap());
    run(&args)
}

/// Each file has a hazard (exit 1) whose message names `reg`.
fn hazards(cases: &[(&str, Option<&str>, &str)]) {
    for (file, target, reg) in cases {
        let (code, text) = waitcnt(file, *target);
        assert_eq!(code, 1, "{file}: {text}");
        assert!(
            text.contains(&format!("reads {reg} before")),
            "{file}: {text}"
        );
    }
}

/// Each file is clean: no hazard, and no wait called redundant.
fn clean(files: &[(&str, Option<&str>)]) {
    for (file, target) in files {
        let (code, text) = waitcnt(file, *target);
        assert_eq!(code, 0, "{file}: {text}");
        assert!(text.contains(" 0 redundant wait(s)  ["), "{file}: {text}");
    }
}

#[test]
fn a_load_reading_its_own_pending_destination_is_a_read_hazard() {
    hazards(&[
        ("gAddr.s", None, "v0"),
        ("bAddr.s", None, "v0"),
        ("dsAddr.s", None, "v0"),
        ("dsA.s", None, "v0"),
        ("chase2_gfx900_nowait.s", None, "v[0:1]"),
        ("chase2_gfx1100_nowait.s", None, "v[0:1]"),
        ("chase2_gfx900_nowait.objdump", Some("gfx900"), "v[0:1]"),
        ("c1_gfx900_nowait.s", None, "v0"),
        ("k6_gfx1030_nowait.s", None, "v1"),
    ]);
    // Control: llc-22's own waits there are all needed.
    clean(&[
        ("chase2_gfx900.s", None),
        ("c1_gfx900.s", None),
        ("k6_gfx1030.s", None),
        ("k7_gfx600.s", None),
    ]);
}

#[test]
fn the_bvh_stack_address_is_written_back() {
    hazards(&[
        ("bvhstack_gfx1100_bad.s", None, "v5"),
        ("bvhstack_gfx1200_bad.s", None, "v5"),
        ("bvhstack_gfx1100_bad.objdump", Some("gfx1100"), "v5"),
        ("bvhstack_gfx1200_push8_pop1.s", None, "v2"),
        ("bvhstack_gfx1200_push8_pop2.s", None, "v2"),
        ("bvhstack_gfx1100_control_vdst.s", None, "v0"),
    ]);
    clean(&[
        ("bvhstack_gfx1100_llc.s", None),
        ("bvhstack_gfx1200_llc.s", None),
    ]);
}

#[test]
fn gfx12_bvh_rays_write_origin_and_direction_back() {
    let g = Some("gfx1200");
    hazards(&[
        ("bvh8_gfx1200_bad.s", g, "v[15:17]"),
        ("bvh8_gfx1200_bad.s", g, "v[18:20]"),
        ("bvhdual_bad.s", g, "v[16:18]"),
        ("bvhdual_bad.s", g, "v[19:21]"),
        ("bvh8_gfx1200_control_vdata.s", g, "v[0:2]"),
    ]);
    clean(&[("bvh8_gfx1200_llc.s", g), ("bvhdual_llc.s", g)]);
}

#[test]
fn an_msaa_load_and_a_buffer_load_into_one_vgpr_need_a_wait() {
    for (file, code) in [
        ("msaa_waw_bad.s", 1),
        ("msaa_waw_bad.mir", 1),
        ("sampwaw10.s", 1),
        ("msaa_waw_llc.s", 0),
        ("msaa_waw_post.mir", 0),
    ] {
        let (c, text) = waitcnt(file, None);
        assert_eq!(c, code, "{file}: {text}");
        if code == 1 {
            assert!(text.contains("writes v"), "{file}: {text}");
        }
    }
    let tv = |after: &str| {
        let (b, a) = (data("msaa_waw_pre.mir"), data(after));
        run(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            b.to_str().unwrap(),
            a.to_str().unwrap(),
        ])
    };
    let (code, text) = tv("msaa_waw_bad.mir");
    assert!(!text.contains(" 1 proved"), "{text}");
    assert_ne!(code, 0, "{text}");
    let (code, text) = tv("msaa_waw_post.mir");
    assert!(text.contains("1 proved"), "{text}");
    assert_eq!(code, 0, "{text}");
}

#[test]
fn a_call_argument_still_loading_is_the_callees_wait() {
    let (code, text) = waitcnt("k5_gfx1100.mir", None);
    assert_eq!(code, 0, "{text}");
    let (code, text) = waitcnt("k5_gfx1100.s", None);
    assert_eq!(code, 0, "{text}");
    // Control: the call target itself pending is still a hazard.
    let (code, text) = waitcnt("k5_gfx1100_target_pending.mir", None);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("reads s[16:17] before"), "{text}");
    let tv = |after: &str| {
        let (b, a) = (data("k5_gfx1100_pre.mir"), data(after));
        run(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            b.to_str().unwrap(),
            a.to_str().unwrap(),
        ])
    };
    let (code, text) = tv("k5_gfx1100.mir");
    assert!(text.contains("2 proved"), "{text}");
    assert_eq!(code, 0, "{text}");
    let (code, text) = tv("k5_gfx1100_target_pending.mir");
    assert!(text.contains("1 refuted"), "{text}");
    assert_ne!(code, 0, "{text}");
}

#[test]
fn before_gfx12_a_sampler_completes_in_order_with_other_vmem_reads() {
    clean(&[
        ("ps_gfx900.s", None),
        ("ps_gfx1030.s", None),
        ("ps_gfx1100.s", None),
        ("g2_gfx1030.s", None),
    ]);
    // Control: a wait that leaves three accesses pending does not complete the sample.
    hazards(&[("ps_gfx900_weak.s", None, "v4")]);
    for t in ["gfx900", "gfx1100"] {
        let (b, a) = (
            data(&format!("ps_{t}_pre.mir")),
            data(&format!("ps_{t}_post.mir")),
        );
        let (code, text) = run(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            b.to_str().unwrap(),
            a.to_str().unwrap(),
        ]);
        assert!(text.contains("1 proved"), "{t}: {text}");
        assert_eq!(code, 0, "{t}: {text}");
    }
}
