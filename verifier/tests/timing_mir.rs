//! `gcnsmt waitcnt` on MIR, the LDS hazards, and `gcnsmt tv` on si-insert-waitcnts
//! (docs/timing.md). Expected results are independent of gcnsmt: llc-22's own wait placement
//! (no hazard), hand-chosen weakenings or deletions of one of its waits (each comment works out
//! why exactly that hazard exists from the counter rules), and the hand-edited reproduction of
//! llvm/llvm-project#207473 (tests/data/tv/waitcnt/README.md).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name)
}

/// Run gcnsmt with `args`: exit code, stdout, stderr.
fn gcnsmt(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `gcnsmt waitcnt --format json FILE`: exit code and the report.
fn waitcnt(file: &Path) -> (i32, Value) {
    let (code, out, err) = gcnsmt(&["waitcnt", "--format", "json", file.to_str().unwrap()]);
    let v = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}\n{err}"));
    (code, v)
}

/// `name` (under tests/data) with `from` replaced by `to` (`from` must occur once).
fn mutate(name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(data(name)).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{name}: `{from}` must occur once"
    );
    let file = Path::new(name).file_name().unwrap().to_string_lossy();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "mir-{}-{}-{file}",
        from.len(),
        to.len()
    ));
    std::fs::write(&path, text.replace(from, to)).unwrap();
    path
}

/// The hazards of function `f`: (kind, registers, line, counter).
fn hazards(v: &Value, f: &str) -> Vec<(String, String, u64, String)> {
    let func = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == f)
        .unwrap_or_else(|| panic!("no function {f} in {v}"));
    func["hazards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["kind"].as_str().unwrap().to_string(),
                h["registers"].as_str().unwrap().to_string(),
                h["at"]["line"].as_u64().unwrap(),
                h["counter"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The 1-based line of the first line of `path` after the line containing `after` that
/// contains `text`.
fn line_after(path: &Path, after: &str, text: &str) -> u64 {
    let s = std::fs::read_to_string(path).unwrap();
    let start = s.lines().position(|l| l.contains(after)).unwrap();
    (s.lines()
        .skip(start)
        .position(|l| l.contains(text))
        .unwrap()
        + start
        + 1) as u64
}

fn total_hazards(v: &Value) -> u64 {
    v["summary"]["hazards"].as_u64().unwrap()
}

#[test]
fn llc_mir_has_no_hazard() {
    // llc-22 -stop-after=si-insert-waitcnts: its own wait placement is the expectation.
    for f in ["mix", "loop"] {
        for t in ["gfx900", "gfx1100", "gfx1200", "gfx1250"] {
            let (code, v) = waitcnt(&data(&format!("timing/mir/{f}_{t}.mir")));
            assert_eq!((code, total_hazards(&v)), (0, 0), "{f} {t}: {v}");
            assert_eq!(v["target"], t);
        }
    }
    let (code, v) = waitcnt(&data("timing/mir/lds_dma_gfx900.mir"));
    assert_eq!((code, total_hazards(&v)), (0, 0), "{v}");
}

#[test]
fn mir_weakened_vmcnt_gfx900() {
    // `S_WAITCNT 3954` = 0x0f72: vmcnt 2 (bits 3:0, 15:14 zero), expcnt 7, lgkmcnt 15. Three
    // global loads (v2, v7, v1, in that order) are pending in order on vmcnt; vmcnt(2) leaves
    // the last two, so v2's load is complete. 3955 is vmcnt(3): all three may be pending, so
    // the DS_WRITE reading v2 is a hazard; the next wait (`S_WAITCNT 112` = vmcnt 0,
    // lgkmcnt 0) completes the rest before their uses, so it is the only one.
    let p = mutate(
        "timing/mir/mix_gfx900.mir",
        "S_WAITCNT 3954",
        "S_WAITCNT 3955",
    );
    let (code, v) = waitcnt(&p);
    let line = line_after(&p, "name:", "DS_WRITE_B32_gfx9");
    assert_eq!(code, 1);
    assert_eq!(
        hazards(&v, "mix"),
        vec![("read".into(), "v2".into(), line, "vmcnt".into())]
    );
}

#[test]
fn mir_gfx1200_split_counters() {
    // gfx1200: `S_WAIT_LOADCNT 2` leaves the last two of three loads (v1, v6, v0) pending;
    // with 3 the first (v1) may be pending when DS_WRITE reads it.
    let p = mutate(
        "timing/mir/mix_gfx1200.mir",
        "S_WAIT_LOADCNT 2\n",
        "S_WAIT_LOADCNT 3\n",
    );
    let (code, v) = waitcnt(&p);
    let line = line_after(&p, "name:", "DS_WRITE_B32_gfx9");
    assert_eq!(code, 1);
    assert_eq!(
        hazards(&v, "mix"),
        vec![("read".into(), "v1".into(), line, "loadcnt".into())]
    );
    // Without `S_WAIT_KMCNT 0` the kernel-argument loads (SMEM, out of order on kmcnt) may be
    // pending when the first global load reads its base address s[2:3].
    let p = mutate("timing/mir/mix_gfx1200.mir", "    S_WAIT_KMCNT 0\n", "");
    let (code, v) = waitcnt(&p);
    let line = line_after(&p, "name:", "GLOBAL_LOAD_DWORD_SADDR");
    assert_eq!(code, 1);
    let hs = hazards(&v, "mix");
    assert!(
        hs.contains(&("read".into(), "s[2:3]".into(), line, "kmcnt".into())),
        "{hs:?}"
    );
}

#[test]
fn mir_virtual_register_is_input_error() {
    let p = mutate(
        "timing/mir/mix_gfx900.mir",
        "renamable $vgpr3 = V_LSHLREV_B32_e32",
        "%7:vgpr_32 = V_LSHLREV_B32_e32",
    );
    let (code, _, err) = gcnsmt(&["waitcnt", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let line = line_after(&p, "name:", "%7:vgpr_32 = V_LSHLREV");
    assert!(
        err.contains(&format!(":{line}:")) && err.contains("virtual register"),
        "{err}"
    );
}

#[test]
fn lds_dma_then_ds_read() {
    // llc-22's output waits `vmcnt(0)` between the LDS-DMA load and the DS read of the same
    // array (and, in read_fence_dma, `lgkmcnt(0)` between the first DS read and the DMA).
    for t in ["gfx900", "gfx942"] {
        let (code, v) = waitcnt(&data(&format!("timing/lds_dma_{t}.s")));
        assert_eq!((code, total_hazards(&v)), (0, 0), "{t}: {v}");
    }
    // Without the vmcnt wait the DMA (on vmcnt) may still be writing LDS when ds_read reads it.
    let p = mutate(
        "timing/lds_dma_gfx900.s",
        "\ts_waitcnt vmcnt(0)\n\tds_read_b32 v1, v0\n",
        "\tds_read_b32 v1, v0\n",
    );
    let (code, v) = waitcnt(&p);
    let line = line_after(&p, "dma_then_read:", "ds_read_b32 v1, v0");
    assert_eq!(code, 1);
    assert_eq!(
        hazards(&v, "dma_then_read"),
        vec![("read".into(), "LDS".into(), line, "vmcnt".into())]
    );
    assert!(hazards(&v, "read_fence_dma").is_empty());
}

#[test]
fn reproduced_207473_in_assembly() {
    // llvm/llvm-project#207473: at single-wave workgroup scope the `lgkmcnt(0)` that drains a
    // DS read before an LDS-DMA load was dropped. Hand edit of llc-22's (fixed) output: the
    // DS read moves below the kernel-argument wait, so nothing drains it before the DMA,
    // which may then write LDS before the read has read it.
    let from = "\tds_read_b32 v1, v0\n\ts_load_dwordx4 s[0:3], s[8:9], 0x0\n\ts_load_dwordx2 s[4:5], s[8:9], 0x10\n\ts_mov_b32 m0, 0\n\ts_waitcnt lgkmcnt(0)\n";
    let to = "\ts_load_dwordx4 s[0:3], s[8:9], 0x0\n\ts_load_dwordx2 s[4:5], s[8:9], 0x10\n\ts_mov_b32 m0, 0\n\ts_waitcnt lgkmcnt(0)\n\tds_read_b32 v1, v0\n";
    let p = mutate("timing/lds_dma_gfx900.s", from, to);
    let (code, v) = waitcnt(&p);
    let line = line_after(&p, "read_fence_dma:", "buffer_load_dword");
    assert_eq!(code, 1);
    assert_eq!(
        hazards(&v, "read_fence_dma"),
        vec![(
            "overwrite-source".into(),
            "LDS".into(),
            line,
            "lgkmcnt".into()
        )]
    );
}

/// `gcnsmt tv BEFORE AFTER`: exit code and stdout.
fn tv(before: &Path, after: &Path) -> (i32, String) {
    let (code, out, err) = gcnsmt(&["tv", before.to_str().unwrap(), after.to_str().unwrap()]);
    (code, format!("{out}{err}"))
}

#[test]
fn tv_si_insert_waitcnts_pairs() {
    let w = |n: &str| data(&format!("tv/waitcnt/{n}"));
    // llc-22's pass output (-stop-before / -run-pass=si-insert-waitcnts) is proved.
    let (code, out) = tv(&w("mix_gfx900.before.mir"), &w("mix_gfx900.after.mir"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("mix bb.0 gfx900: proved"), "{out}");
    // vmcnt(3) instead of vmcnt(2): a register hazard, so a refutation (see
    // mir_weakened_vmcnt_gfx900 for the counts).
    let bad = mutate(
        "tv/waitcnt/mix_gfx900.after.mir",
        "S_WAITCNT 3954",
        "S_WAITCNT 3955",
    );
    let (code, out) = tv(&w("mix_gfx900.before.mir"), &bad);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("mix bb.0 gfx900: refuted"), "{out}");
    assert!(out.contains("reads v2"), "{out}");
    // #207473: the fixed pair is proved; the buggy one has an LDS hazard, which rests on LDS
    // being one region (the two accesses' addresses are not compared): unknown, exit 3.
    let (code, out) = tv(
        &w("lds207473.before-fixed.mir"),
        &w("lds207473.after-fixed.mir"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("read_fence_dma bb.0 gfx900: proved"), "{out}");
    let (code, out) = tv(
        &w("lds207473.before-buggy.mir"),
        &w("lds207473.after-buggy.mir"),
    );
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("read_fence_dma bb.0 gfx900: unknown"), "{out}");
    assert!(out.contains("writes LDS"), "{out}");
    let (code, v) = waitcnt(&w("lds207473.after-buggy.mir"));
    assert_eq!(code, 1);
    assert_eq!(hazards(&v, "read_fence_dma").len(), 1);
}

#[test]
fn tv_pass_runs_llc() {
    // `--pass si-insert-waitcnts` runs llc-22 itself; its output has no hazard.
    let f = data("timing/mix.ll");
    let (code, out, err) = gcnsmt(&[
        "tv",
        "--pass",
        "si-insert-waitcnts",
        "--target",
        "gfx900,gfx1200",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("mix bb.0 gfx1200: proved"), "{out}");
}

#[test]
fn objdump_input() {
    // llvm-objdump-22 -d of llc-22's code objects: llc's placement has no hazard; `call`
    // has a callable function (`dev`, returns with s_setpc_b64) and a kernel.
    for (f, t) in [
        ("loop_gfx900", "gfx900"),
        ("mix_gfx1100", "gfx1100"),
        ("call_gfx900", "gfx900"),
    ] {
        let p = data(&format!("timing/objdump/{f}.dis"));
        let (code, out, err) = gcnsmt(&[
            "waitcnt",
            "--format",
            "json",
            "--target",
            t,
            p.to_str().unwrap(),
        ]);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
        assert_eq!((code, total_hazards(&v)), (0, 0), "{f}: {v}");
    }
    let p = data("timing/objdump/call_gfx900.dis");
    let (_, out, _) = gcnsmt(&[
        "waitcnt",
        "--format",
        "json",
        "--target",
        "gfx900",
        p.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let kinds: Vec<(String, bool)> = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_string(),
                f["kernel"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(kinds, vec![("dev".into(), false), ("caller".into(), true)]);
    // Without the `s_waitcnt vmcnt(0)` in the loop the add reads v4 while the volatile load
    // writing it may be pending (the only wait on vmcnt in the loop).
    let p = mutate(
        "timing/objdump/loop_gfx900.dis",
        "\ts_waitcnt vmcnt(0)",
        "\ts_nop 0           ",
    );
    let (code, out, _) = gcnsmt(&[
        "waitcnt",
        "--format",
        "json",
        "--target",
        "gfx900",
        p.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let line = line_after(&p, "<add_loop>", "v_add_u32_e32 v1, v1, v4");
    assert_eq!(code, 1);
    assert!(
        hazards(&v, "add_loop").contains(&("read".into(), "v4".into(), line, "vmcnt".into())),
        "{v}"
    );
    // No target in the disassembly: an input error at 1:1.
    let (code, _, err) = gcnsmt(&[
        "waitcnt",
        data("timing/objdump/loop_gfx900.dis").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(":1:1: error:") && err.contains("--target"),
        "{err}"
    );
}

/// LLVM's `mayAccessLDSThroughFlat` from the MIR memory operands (tests/data/timing/mir/
/// flat_mmo_gfx900.mir works out the answers): only a FLAT load whose every memory operand
/// names a non-flat, non-local address space counts like GLOBAL, in order on vmcnt.
#[test]
fn flat_memory_operands_decide_lds() {
    let f = data("timing/mir/flat_mmo_gfx900.mir");
    let (code, out, err) = gcnsmt(&[
        "waitcnt",
        "--format",
        "json",
        "--target",
        "gfx900",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(hazards(&v, "global_mmo").is_empty(), "{out}");
    for name in ["no_mmo", "flat_mmo", "ir_type_only", "one_local"] {
        let hs = hazards(&v, name);
        let at = line_after(&f, &format!("name: {name}"), "V_MOV_B32_e32 $vgpr0");
        assert!(!hs.is_empty(), "{name}: {out}");
        for (kind, regs, line, _) in hs {
            assert_eq!(
                (kind.as_str(), regs.as_str(), line),
                ("read", "v0", at),
                "{name}"
            );
        }
    }
}

/// A FLAT access without memory operands may reach LDS, so it is modelled out of order on
/// vmcnt; a schedule that passes vmcnt(1) with the first load pending rests on that and is no
/// refutation (tests/data/tv/waitcnt/README.md, `flat_ooo`).
#[test]
fn tv_flat_out_of_order_is_unknown() {
    let w = |n: &str| data(&format!("tv/waitcnt/{n}"));
    let (code, out, err) = gcnsmt(&[
        "tv",
        "--pass",
        "si-insert-waitcnts",
        "--target",
        "gfx900",
        w("flat_ooo.before.mir").to_str().unwrap(),
        w("flat_ooo.after.mir").to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("flat_pair bb.0 gfx900: unknown"), "{out}");
}

/// Schedules that rest on what gcnsmt does not model are no refutation
/// (tests/data/tv/waitcnt/README.md): gfx12 `GLOBAL_INV` taken as not counting on loadcnt.
/// A V_INTERP's own `wait_exp` field is read (AMDGPUModifierSyntax: a wait on EXPcnt before
/// issue): with 0 there the LDS parameter load is complete, so no hazard.
#[test]
fn tv_maybe_counting_is_unknown_and_interp_wait_is_read() {
    let w = |n: &str| data(&format!("tv/waitcnt/{n}"));
    let run = |t: &str, b: &str, a: &str| {
        gcnsmt(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            "--target",
            t,
            w(b).to_str().unwrap(),
            w(a).to_str().unwrap(),
        ])
    };
    let (code, out, err) = run(
        "gfx1200",
        "global_inv_gfx1200.before.mir",
        "global_inv_gfx1200.after.mir",
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("inv_after_load bb.0 gfx1200: unknown"),
        "{out}"
    );
    assert!(out.contains("may count on loadcnt"), "{out}");
    let (code, out, err) = run("gfx1100", "interp_gfx1100.mir", "interp_gfx1100.mir");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("interp_own_wait bb.0 gfx1100: unchanged"),
        "{out}"
    );
}

/// llvm/llvm-project#179305 reproduced (tests/data/tv/waitcnt/README.md, `lgkm179305`): llc-22
/// counts an LDS-DMA load on lgkmcnt and waits lgkmcnt(1) for the older DS read, which the DS
/// read need not meet: refuted, with the read of v5 as the witness. With lgkmcnt(0) (LLVM
/// main) no register hazard is left: unknown, for the LDS write-after-read that rests on LDS
/// being one region.
#[test]
fn tv_lds_dma_lgkmcnt_bug_179305() {
    let w = |n: &str| data(&format!("tv/waitcnt/{n}"));
    let run = |a: &str| {
        gcnsmt(&[
            "tv",
            "--pass",
            "si-insert-waitcnts",
            "--target",
            "gfx942",
            w("lgkm179305.before.mir").to_str().unwrap(),
            w(a).to_str().unwrap(),
        ])
    };
    let (code, out, err) = run("lgkm179305.after-llc22.mir");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("ds_then_dma_use bb.0 gfx942: refuted"),
        "{out}"
    );
    assert!(out.contains("reads v5"), "{out}");
    let (code, out, err) = run("lgkm179305.after-fixed.mir");
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("ds_then_dma_use bb.0 gfx942: unknown"),
        "{out}"
    );
    assert!(!out.contains("reads v5"), "{out}");
}
