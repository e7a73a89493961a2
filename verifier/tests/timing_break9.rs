//! Regressions from a tester's attack on `gcnsmt waitcnt` and `tv --pass si-insert-waitcnts`
//! (issue 30; inputs in tests/data/timing/break9/, origins in its README.md). Each expected
//! exit status is worked out from the ISA facts named in the comment, never from gcnsmt's
//! output: 1 a hazard exists, 3 an instruction that cannot be modelled (never 0), 2 input the
//! reader must refuse.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing/break9")
        .join(name)
}

/// Run gcnsmt with `args` (file names resolved in break9/): exit code, stdout + stderr.
fn run(args: &[&str]) -> (i32, String) {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            let p = data(a);
            if p.exists() {
                p.display().to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(&args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn expect(args: &[&str], code: i32, needle: &str) {
    let (c, text) = run(args);
    assert_eq!(c, code, "{args:?}:\n{text}");
    assert!(text.contains(needle), "{args:?}: no `{needle}` in\n{text}");
}

/// M0-relative and GPR-index-mode access reads or writes `VGPR[op + M0]` / `SGPR[op + M0]`
/// ([VEGA]/[RDNA] V_MOVRELS, V_MOVRELD, V_SWAPREL, S_MOVRELS, S_MOVRELD, S_SET_GPR_IDX_ON):
/// the register is chosen at run time, each file has a load pending to that file, so the
/// answer is not "no hazard": unsupported (exit 3).
#[test]
fn m0_relative_access_is_not_proved() {
    for f in [
        "01-movrels-m0-relative-read.s",
        "03-movreld-overwrites-pending-load-dest.s",
        "03b-swaprel-m0-relative.s",
    ] {
        expect(&["waitcnt", f, "--target", "gfx1030"], 3, "1 unknown");
    }
    for f in [
        "04-s-movrels-m0-relative-read.s",
        "05-s-movreld-overwrite.s",
    ] {
        expect(&["waitcnt", f, "--target", "gfx900"], 3, "1 unknown");
    }
    expect(
        &[
            "waitcnt",
            "02-gpr-idx-mode-read-gfx900.s",
            "--target",
            "gfx900",
        ],
        3,
        "1 unknown",
    );
}

/// FLAT before gfx12 counts on vmcnt and lgkmcnt and is done only when both say so ([VEGA]
/// "Flat memory instructions"; AMDGPUUsage waits `vmcnt(0) & lgkmcnt(0)` after a flat load):
/// with the lgkmcnt wait removed the read of v0 is a hazard on lgkmcnt. gfx12: loadcnt and
/// dscnt likewise.
#[test]
fn flat_needs_both_counters() {
    expect(
        &["waitcnt", "06-flat-generic-lgkmcnt-dropped-gfx900.s"],
        1,
        "lgkmcnt",
    );
    expect(
        &["waitcnt", "07-flat-generic-dscnt-dropped-gfx1200.s"],
        1,
        "dscnt",
    );
    // tv: the hazard rests on "FLAT may reach LDS" (an assumption), so `unknown`, not proved.
    expect(
        &["tv", "06b-flat-tv-before.mir", "06b-flat-tv-after.mir"],
        3,
        "unknown",
    );
}

/// A relaxed long branch (`s_getpc_b64`/`s_add_u32`/`s_addc_u32`/`s_setpc_b64`, LLVM
/// `insertIndirectBranch`) is a branch to the label: 08's back edge reaches the loop top
/// where v2 is read with the previous iteration's load pending; 08b's forward branch reaches
/// `v_add_u32 v3, v2, v2` with the load of v2 pending (no wait on that path).
#[test]
fn long_branches_are_followed() {
    expect(&["waitcnt", "08-long-branch-setpc-backedge.s"], 1, "v2");
    expect(
        &["waitcnt", "08b-long-branch-setpc-forward-hand.s"],
        1,
        "v2",
    );
}

/// Implicit reads: `v_div_fmas_f32` reads VCC (pcode `if VCC[laneId]`); scratch and flat
/// accesses read FLAT_SCRATCH (LLVM `Uses = [EXEC, FLAT_SCR]`); each with an SMEM load of it
/// pending (SMEM completes out of order, no lgkmcnt(0) before).
#[test]
fn implicit_reads_count() {
    expect(&["waitcnt", "09-div-fmas-implicit-vcc-read.s"], 1, "vcc");
    expect(
        &["waitcnt", "24-scratch-implicit-flat-scratch-read.s"],
        1,
        "flat_scratch",
    );
    expect(
        &["waitcnt", "24b-flat-implicit-flat-scratch-read.s"],
        1,
        "flat_scratch",
    );
    expect(
        &["waitcnt", "24c-scratch-flat-scr-mir.mir"],
        1,
        "flat_scratch",
    );
}

/// MIR `INLINEASM`: its counters are not known (docs/timing.md): exit 3.
#[test]
fn inline_asm_is_unknown() {
    expect(
        &["waitcnt", "10-mir-inlineasm-load-ignored.mir"],
        3,
        "1 unknown",
    );
}

/// `s_waitcnt vmcnt(0) vmcnt(5)` assembles to vmcnt(5) (llvm-mc-22 -show-encoding:
/// `[0x75,0x0f,0x8c,0xbf]`): one load pending, vmcnt(5) does not complete it.
#[test]
fn repeated_wait_field_last_wins() {
    expect(
        &["waitcnt", "11-duplicate-vmcnt-field-last-wins.s"],
        1,
        "v1",
    );
}

/// `; return to shader part epilog` (SI_RETURN_TO_EPILOG): the epilog reads the returned v0,
/// and LLVM waits for every load there; here the load of v0 is pending.
#[test]
fn return_to_epilog_with_a_pending_load() {
    expect(
        &[
            "waitcnt",
            "12-return-to-epilog-pending-v0.s",
            "--target",
            "gfx1030",
        ],
        1,
        "v0",
    );
}

/// tv with `--pass si-insert-waitcnts` on two files: the pass inserted no wait, so the
/// after-function reads (returns) v0 with its load pending: refuted, not "unchanged".
#[test]
fn tv_checks_a_pass_that_inserted_nothing() {
    let f = "13-tv-no-wait-inserted-before.mir";
    expect(&["tv", "--pass", "si-insert-waitcnts", f, f], 1, "refuted");
    let k = "13b-tv-kernel-before.mir";
    expect(&["tv", "--pass", "si-insert-waitcnts", k, k], 1, "refuted");
}

/// Directives that change the assembled code (`.if 0`, `.rept 0`, `.long` code words,
/// `.macro`, `.pushsection`) are refused with their position (llvm-mc-22 + objdump show the
/// assembled code differs from the lines as written).
#[test]
fn code_changing_directives_are_refused() {
    for (f, d) in [
        ("14-if0-wait-counted.s", ".if"),
        ("14b-rept0-wait-counted.s", ".rept"),
        ("15-long-encoded-load-ignored.s", ".long"),
        ("16-macro-load-ignored.s", ".macro"),
        ("17-pushsection-wait-counted.s", ".pushsection"),
    ] {
        expect(
            &["waitcnt", f],
            2,
            &format!("directive `{d}` is not supported"),
        );
    }
}

/// `s_get_waveid_in_workgroup` is SMEM on gfx10 (lgkmcnt): reading s2 before
/// `s_waitcnt lgkmcnt(0)` is a hazard.
#[test]
fn get_waveid_counts_on_lgkmcnt() {
    expect(
        &["waitcnt", "18-get-waveid-smem-not-counted-gfx1010.s"],
        1,
        "lgkmcnt",
    );
}

/// gfx12 `image_msaa_load` is VSAMPLE: samplecnt (LLVM `getVmemType`). llc-22's own output
/// (25) waits `s_wait_samplecnt 0x0`: no hazard; with that replaced by `s_wait_loadcnt 0x0`
/// (25b) the read is a hazard on samplecnt.
#[test]
fn msaa_load_counts_on_samplecnt() {
    expect(
        &[
            "waitcnt",
            "25-msaa-load-samplecnt-false-alarm-gfx1200.s",
            "--target",
            "gfx1200",
        ],
        0,
        "",
    );
    expect(
        &[
            "waitcnt",
            "25b-msaa-load-loadcnt-wrong-proof-gfx1200.s",
            "--target",
            "gfx1200",
        ],
        1,
        "samplecnt",
    );
}

/// `L1: s_waitcnt vmcnt(0)` is a label and an instruction (llvm-mc-22 accepts it).
#[test]
fn label_on_the_instruction_line() {
    // The wait completes the only load before v1 is read: no hazard.
    expect(&["waitcnt", "19-label-same-line-rejected.s"], 0, "");
}

/// A FIFO is refused (only regular files are read), not waited on.
#[test]
fn fifo_and_devices_are_refused() {
    expect(
        &["waitcnt", "/dev/zero", "--target", "gfx900"],
        2,
        "regular",
    );
}

/// Invalid UTF-8: an error at its line and column.
#[test]
fn invalid_utf8_has_a_position() {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("break9-bad-utf8.s");
    std::fs::write(&p, b"\t.text\nk:\n\xff\xfe x\n").unwrap();
    let (c, text) = run(&["waitcnt", p.to_str().unwrap(), "--target", "gfx900"]);
    assert_eq!(c, 2, "{text}");
    assert!(text.contains(":3:1: error"), "{text}");
}

/// objdump of a kernel whose branch relaxation made a long branch (llc-22's own correct code):
/// the `s_setpc_b64` is a branch inside the kernel (A + 4 + offset), not a return, so the
/// kernel is an entry and has no hazard (the `.s` of the same kernel has none).
#[test]
fn objdump_long_branch_kernel_is_an_entry() {
    expect(
        &[
            "waitcnt",
            "26-objdump-long-branch-kernel-as-callable.dis",
            "--target",
            "gfx900",
        ],
        0,
        "kernel",
    );
}

/// `vmcnt(64)` does not fit gfx9's 6-bit field: llvm-mc-22 says "too large value for vmcnt".
#[test]
fn wait_count_beyond_the_field_is_an_error() {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join("break9-vmcnt64.s");
    std::fs::write(&p, "\t.text\nk:\n\ts_waitcnt vmcnt(64)\n\ts_endpgm\n").unwrap();
    let (c, text) = run(&["waitcnt", p.to_str().unwrap(), "--target", "gfx900"]);
    assert_eq!(c, 2, "{text}");
    assert!(
        text.contains(":3:2: error: too large value for vmcnt"),
        "{text}"
    );
}
