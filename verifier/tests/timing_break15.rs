//! The fifteenth breaker's wait-checking findings (inputs in tests/data/timing/break15/ and
//! tests/data/tv/waitcnt/break15/, origins and the hand argument for each in their README.md).
//! Every expected value comes from the LLVM/ISA fact named in the comment or from llc-22's own
//! output, never from gcnsmt: the edited files must never be "no hazard"/proved, and llc-22's
//! output stays clean.

use std::path::{Path, PathBuf};
use std::process::Command;

fn timing(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/break15")
        .join(name)
}

fn tv_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/waitcnt/break15")
}

/// `gcnsmt waitcnt FILE ARGS`: exit code and stdout + stderr.
fn waitcnt(file: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .arg("waitcnt")
        .arg(timing(file))
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn expect(file: &str, args: &[&str], code: i32, needles: &[&str]) -> String {
    let (c, text) = waitcnt(file, args);
    assert_eq!(c, code, "{file} {args:?}:\n{text}");
    for n in needles {
        assert!(text.contains(n), "{file}: no `{n}` in\n{text}");
    }
    text
}

/// llc-22's output: no hazard, and the wait in question is not called redundant.
fn clean(file: &str, args: &[&str], wait_line: &str) {
    let text = expect(file, args, 0, &["0 hazard(s)"]);
    assert!(
        !text.contains(&format!("{wait_line}: info")),
        "{file}: llc-22's required wait called redundant:\n{text}"
    );
}

/// `gcnsmt tv --pass si-insert-waitcnts BEFORE AFTER` in the tv directory.
fn tv(before: &str, after: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .current_dir(tv_dir())
        .args(["tv", "--pass", "si-insert-waitcnts", before, after])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn never_proved(name: &str, before: &str, after: &str) -> String {
    gcnsmt_testkit::assert_never_proved(
        env!("CARGO_BIN_EXE_gcnsmt"),
        &tv_dir(),
        name,
        [before, after],
        &["--pass", "si-insert-waitcnts"],
    )
}

fn llc_proved(before: &str, after: &str) {
    let (code, text) = tv(before, after);
    assert_eq!(
        code,
        Some(0),
        "{before} -> {after} (llc-22's output):\n{text}"
    );
    assert!(!text.contains(": refuted"), "{text}");
}

/// 04: the before-file's hard `S_WAITCNT 0` (the program's `llvm.amdgcn.s.waitcnt(0)` between
/// a data store and a flag store; the wait after `DS_GWS_BARRIER`) is an obligation:
/// SIInsertWaitcnts only merges or strengthens a hard wait (`applyPreexistingWaitcnt`
/// simplifies soft ones only). Deleting it leaves the data store (vmcnt) or the GWS op
/// (lgkmcnt) pending where the program waited: refuted. llc-22 keeps it: proved.
#[test]
fn dropped_hard_waits_are_refuted() {
    for (name, b, a, llc) in [
        (
            "04",
            "04-before.mir",
            "04-after-dropped.mir",
            "04-after-llc.mir",
        ),
        (
            "04-gws",
            "04-gws-before.mir",
            "04-gws-after-dropped.mir",
            "04-gws-after-llc.mir",
        ),
    ] {
        let text = never_proved(name, b, a);
        assert!(text.contains(": refuted"), "{name}:\n{text}");
        assert!(text.contains("a hard wait"), "{name}:\n{text}");
        llc_proved(b, llc);
    }
}

/// 14: gfx900 has no `FeatureBackOffBarrier`, so LLVM puts an all-zero wait before every
/// `S_BARRIER` (llc-22: `s_waitcnt vmcnt(0)` after the store). Without it the store is
/// pending at the barrier: a hazard (asm) and refuted (tv). llc-22's output: clean.
#[test]
fn barrier_without_back_off_needs_all_counters_zero() {
    let text = expect(
        "14-b_drop.s",
        &[],
        1,
        &["where a wait is required", "no back-off barrier"],
    );
    assert!(text.contains("1 hazard(s)"), "{text}");
    clean("14-b.s", &[], "14-b.s:");
    let text = never_proved("14", "14-before.mir", "14-after_drop.mir");
    assert!(text.contains(": refuted"), "{text}");
    llc_proved("14-before.mir", "14-after.mir");
    // gfx90a has back-off barriers (llc-22 emits no wait there): the same code is clean.
    expect("14-b_drop.s", &["--target", "gfx90a"], 0, &["0 hazard(s)"]);
}

/// 15: gfx7 (SI/CI VCCZ bug): `s_cbranch_vccnz` with `s_load_dwordx2` outstanding may read a
/// VCCZ the load corrupts (LLVM waits lgkmcnt(0) and rewrites VCC there). llc-22's output
/// writes VCC with nothing pending before the branch: clean.
#[test]
fn vccz_branch_after_smem_on_gfx7() {
    let args = ["--set", "flat-lds=never"];
    let text = expect("15-v_hoist.s", &args, 1, &["VCCZ", "s_cbranch_vccnz"]);
    assert!(text.contains("s_load_dwordx2 s[2:3]"), "{text}");
    expect("15-v.s", &args, 0, &["0 hazard(s)"]);
    // gfx8 has no such bug (LLVM: generation <= SEA_ISLANDS): the same code is clean.
    expect(
        "15-v_hoist.s",
        &["--set", "flat-lds=never", "--target", "gfx802"],
        0,
        &["0 hazard(s)"],
    );
}

/// 17: an export or GDS access reads EXEC only when granted: an EXEC write before expcnt(0)
/// is an `overwrite-source` hazard (`s_and_saveexec_b64` after `exp`, `s_mov_b64 exec, 0`
/// after `ds_gws_barrier`), and llc-22's `s_waitcnt expcnt(0)` is not redundant.
#[test]
fn exec_written_while_export_or_gds_pending() {
    let g = ["--target", "gfx900"];
    expect("17-e_drop.s", &g, 1, &["writes exec before", "expcnt"]);
    clean("17-e.s", &g, "17-e.s:24:2");
    expect("17-gws_exec.s", &[], 1, &["writes exec before"]);
    let text = never_proved("17", "17-eb.mir", "17-ea_drop.mir");
    assert!(text.contains(": refuted"), "{text}");
    llc_proved("17-eb.mir", "17-ea.mir");
}

/// 18: gfx12 `s_barrier_signal_isfirst` returns SCC on kmcnt (SIInsertWaitcnts SCC_WRITE on
/// KM_CNT): `s_cselect_b32` before `s_wait_kmcnt 0` reads the old SCC. llc-22's wait is
/// required, not redundant.
#[test]
fn isfirst_scc_is_pending_on_kmcnt() {
    expect("18-b_drop.s", &[], 1, &["reads scc", "kmcnt"]);
    clean("18-b.s", &[], "18-b.s:11:2");
    // Only bb.0 lost its wait (bb.1 keeps llc-22's and may be proved).
    let (code, text) = tv("18-bb.mir", "18-ba_drop.mir");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("bb.0 gfx1200: refuted"), "{text}");
    llc_proved("18-bb.mir", "18-ba.mir");
}

/// 10: llc-22 emits `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)` (MIR `S_WAITCNT 0`) for
/// `llvm.amdgcn.s.waitcnt(0)` on gfx1200, and llvm-mc-22 assembles it: it is read, not an
/// input error. Its meaning (gfx11 fields on the gfx12 counters, LLVM #92306 "conservative
/// effect") must complete the store before the kernel ends: no hazard either way.
#[test]
fn gfx12_legacy_s_waitcnt_is_read() {
    expect("10-w1200.s", &[], 0, &["0 hazard(s)"]);
    expect("10-w1200.mir", &[], 0, &["0 hazard(s)"]);
}

/// 10, what the legacy wait completes: a gfx1200 load whose result is read after only
/// `s_waitcnt vmcnt(0)` is complete (vmcnt covers loadcnt); after only `s_waitcnt
/// lgkmcnt(0)` it is not (hand-written, `.amdgcn_target` gfx1200).
#[test]
fn gfx12_legacy_s_waitcnt_fields() {
    let dir = std::env::temp_dir().join(format!("gcnsmt-break15-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (wait, code) in [("vmcnt(0)", 0), ("lgkmcnt(0)", 1), ("expcnt(0)", 1)] {
        let src = format!(
            "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1200\"\n\t.text\n\t.globl k\n\t.type k,@function\n\
             k:\n\tglobal_load_b32 v1, v0, s[0:1]\n\ts_waitcnt {wait}\n\tv_add_nc_u32_e32 v2, v1, v1\n\
             \ts_endpgm\n\t.amdhsa_kernel k\n\t.end_amdhsa_kernel\n"
        );
        let f = dir.join("legacy.s");
        std::fs::write(&f, src).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
            .arg("waitcnt")
            .arg(&f)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(code), "s_waitcnt {wait}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// 10 in tv: SIInsertWaitcnts leaves gfx12's legacy `S_WAITCNT 0` as written (llc-22's own
/// pair: proved); deleting it may drop an ordering of the two stores that `s_wait_idle`-like
/// hardware gives, which the least reading cannot show: never proved.
#[test]
fn gfx12_legacy_s_waitcnt_in_tv() {
    llc_proved("10-gfx1200-before.mir", "10-gfx1200-after.mir");
    never_proved(
        "10-gfx1200-dropped",
        "10-gfx1200-before.mir",
        "10-gfx1200-after-dropped.mir",
    );
}
