//! The session-22 outside tester's open waitcnt findings (tests/data/timing/tester22/README.md):
//! VINTERP's own `wait_exp` field (08), gfx12's `export` (10), a cache invalidate pending at
//! `s_barrier` (13). Expected results come from LLVM's documentation (AMDGPUModifierSyntax,
//! AMDGPUUsage's memory model), llc-22's own waits and hand edits whose effect the README works
//! out, never from gcnsmt's output; each fix has a control showing a real hazard stays.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/tester22")
        .join(name)
}

/// Run gcnsmt: exit code and stdout (stderr appended).
fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// `gcnsmt waitcnt --format json [--target T] FILE`: exit code and report.
fn waitcnt(file: &str, target: Option<&str>) -> (i32, Value) {
    let f = data(file);
    let mut args = vec!["waitcnt", "--format", "json"];
    if let Some(t) = target {
        args.extend(["--target", t]);
    }
    args.push(f.to_str().unwrap());
    let (code, out) = run(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{file}: {out}"));
    (code, v)
}

/// Every hazard of the report: (function, kind, registers, line, counter, access line).
fn hazards(v: &Value) -> Vec<(String, String, String, u64, String, u64)> {
    let mut out = Vec::new();
    for f in v["functions"].as_array().unwrap() {
        for h in f["hazards"].as_array().unwrap() {
            out.push((
                f["name"].as_str().unwrap().to_string(),
                h["kind"].as_str().unwrap().to_string(),
                h["registers"].as_str().unwrap().to_string(),
                h["at"]["line"].as_u64().unwrap(),
                h["counter"].as_str().unwrap().to_string(),
                h["access"]["line"].as_u64().unwrap_or(0),
            ));
        }
    }
    out
}

/// The lines called redundant.
fn redundant_lines(v: &Value) -> Vec<u64> {
    v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["redundant_waits"].as_array().unwrap().iter())
        .map(|r| r["line"].as_u64().unwrap())
        .collect()
}

/// A file with no hazard, exit 0.
fn clean(file: &str, target: Option<&str>) -> Value {
    let (code, v) = waitcnt(file, target);
    assert_eq!(code, 0, "{file}: {v}");
    assert!(hazards(&v).is_empty(), "{file}: {v}");
    v
}

/// One hazard: (kind, registers, line, counter, access line).
fn one(file: &str, target: Option<&str>) -> (String, String, u64, String, u64) {
    let (code, v) = waitcnt(file, target);
    assert_eq!(code, 1, "{file}: {v}");
    let hs = hazards(&v);
    assert_eq!(hs.len(), 1, "{file}: {v}");
    let (_, kind, regs, at, counter, access) = hs[0].clone();
    (kind, regs, at, counter, access)
}

#[test]
fn vinterp_wait_exp_is_a_wait() {
    // llc-22's own placement: the expcnt waits are in the fields only.
    clean("vinterp_gfx1100.s", Some("gfx1100"));
    clean("vinterp_gfx1200.s", Some("gfx1200"));
    // An omitted field is 0 (llvm-mc-22 encodes it so): every load complete.
    clean("vinterp_gfx1100_nofield.s", Some("gfx1100"));
    clean("vinterp_gfx1100.after.mir", None);
    // A field one too weak: the load it reads may be pending (README, hand computation).
    let h = one("vinterp_gfx1100_weak.s", Some("gfx1100"));
    assert_eq!(h, ("read".into(), "v3".into(), 17, "expcnt".into(), 12));
    // The last field weakened: nothing later waits for the last load (the `p2`s wait for 7),
    // so both of its readers may see it pending.
    let (code, v) = waitcnt("vinterp_gfx1200_weak.s", Some("gfx1200"));
    assert_eq!(code, 1, "{v}");
    let hs: Vec<_> = hazards(&v)
        .into_iter()
        .map(|(_, k, r, at, c, acc)| (k, r, at, c, acc))
        .collect();
    let read_v5 = |at| {
        (
            "read".to_string(),
            "v5".to_string(),
            at,
            "expcnt".to_string(),
            14,
        )
    };
    assert_eq!(hs, vec![read_v5(19), read_v5(25)], "{v}");
}

#[test]
fn vinterp_wait_exp_bad_values_are_input_errors() {
    // llvm-mc-22: "invalid wait_exp value" (8), "invalid operand for instruction" (twice).
    let text = std::fs::read_to_string(data("vinterp_gfx1100.s")).unwrap();
    for (from, to) in [
        ("v2 wait_exp:3", "v2 wait_exp:8"),
        ("v2 wait_exp:3", "v2 wait_exp:3 wait_exp:0"),
    ] {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("t22-{}.s", to.len()));
        assert_eq!(text.matches(from).count(), 1);
        std::fs::write(&path, text.replace(from, to)).unwrap();
        let (code, out) = run(&["waitcnt", "--target", "gfx1100", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{to}: {out}");
        assert!(out.contains(":16:"), "{to}: {out}");
    }
}

#[test]
fn tv_reads_the_vinterp_wait_exp_operand() {
    let tv = |after: &str| {
        run(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            data("vinterp_gfx1100.before.mir").to_str().unwrap(),
            data(after).to_str().unwrap(),
        ])
    };
    // The pass only lowered the waitexp operands, exactly as far as needed.
    let (code, out) = tv("vinterp_gfx1100.after.mir");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("interp bb.0 gfx1100: proved"), "{out}");
    // One field too weak: a real stale read (it was `unknown` while the field was not read).
    let (code, out) = tv("vinterp_gfx1100_weak.after.mir");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("interp bb.0 gfx1100: refuted"), "{out}");
    assert!(out.contains("reads v3 before"), "{out}");
}

#[test]
fn gfx12_export_is_an_export() {
    clean("export_loop_gfx1200.s", Some("gfx1200"));
    clean("export_loop_gfx1100.s", Some("gfx1100"));
    clean("export_loop_gfx1200.dis", Some("gfx1200"));
    // Without llc-22's wait the loop's multiply overwrites the export's data: the same hazard
    // whichever spelling gfx1200 is given.
    for f in [
        "export_loop_gfx1200_nowait.s",
        "export_loop_gfx1200_nowait_exp.s",
    ] {
        let h = one(f, Some("gfx1200"));
        assert_eq!(
            h,
            (
                "overwrite-source".into(),
                "v0".into(),
                12,
                "expcnt".into(),
                11
            ),
            "{f}"
        );
    }
    // gfx1100 has no `export` (llvm-mc-22: "instruction not supported on this GPU").
    let f = data("export_loop_gfx1100_export.s");
    let (code, out) = run(&["waitcnt", "--target", "gfx1100", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(":11:2: error:"), "{out}");
}

#[test]
fn an_invalidate_pending_at_a_barrier_is_no_hazard() {
    for t in ["gfx900", "gfx90a", "gfx1100", "gfx1200"] {
        clean(&format!("fence_barrier_{t}.s"), None);
        clean(&format!("fence_barrier_{t}.mir"), None);
    }
    // Controls on gfx900 (no back-off barrier): what an invalidate follows is still waited for.
    let acq = one("fence_barrier_gfx900_noacqwait.s", None);
    assert_eq!(
        acq,
        ("ordering".into(), "".into(), 301, "vmcnt".into(), 299)
    );
    let rel = one("fence_barrier_gfx900_norelwait.s", None);
    assert_eq!(
        rel,
        ("ordering".into(), "".into(), 205, "vmcnt".into(), 204)
    );
}

#[test]
fn the_wait_before_an_acquire_invalidate_is_not_redundant() {
    // In `load_acquire_barrier` the wait right before the invalidate is the acquire's.
    for (t, inv) in [
        ("gfx90a", "buffer_wbinvl1_vol"),
        ("gfx1100", "buffer_gl1_inv"),
        ("gfx1200", "global_inv"),
    ] {
        let file = format!("fence_barrier_{t}.s");
        let text = std::fs::read_to_string(data(&file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let start = lines
            .iter()
            .position(|l| l.starts_with("load_acquire_barrier:"))
            .unwrap();
        let at = (start..lines.len())
            .find(|&i| lines[i + 1].trim_start().starts_with(inv))
            .unwrap();
        assert!(lines[at].contains("s_wait"), "{file}: {}", lines[at]);
        let v = clean(&file, None);
        assert!(
            !redundant_lines(&v).contains(&(at as u64 + 1)),
            "{file}: line {} called redundant: {v}",
            at + 1
        );
    }
}
