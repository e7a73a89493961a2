//! `gcnsmt waitcnt` (docs/timing.md). Expected results are independent of gcnsmt: llc-22's own
//! wait placement (its output must have no hazard), hand-chosen deletions or weakenings of one
//! of its waits (each comment says why a hazard provably exists), and the hand-written cases of
//! `tests/data/timing/hand/` (each file's header works out the answer).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/timing")
        .join(name)
}

/// Run `gcnsmt waitcnt --format json FILE ARGS`: exit code and the JSON report (Null when
/// nothing parseable was printed), and stderr.
fn run(file: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(["waitcnt", "--format", "json"])
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap(),
        v,
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The file `name` with `from` replaced by `to` (which must occur exactly once), written
/// under the test temp directory.
fn mutate(name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(data(name)).unwrap();
    assert_eq!(
        text.matches(from).count(),
        1,
        "{name}: `{from}` must occur once"
    );
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "mut-{}-{}",
        from.len() + to.len() * 7,
        name
    ));
    std::fs::write(&path, text.replace(from, to)).unwrap();
    path
}

/// The hazards of function `f` as (kind, registers, line of the instruction).
fn hazards(v: &Value, f: &str) -> Vec<(String, String, u64)> {
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
            )
        })
        .collect()
}

/// The 1-based line of the only line of `name` that contains `text`.
fn line_of(path: &Path, text: &str) -> u64 {
    let s = std::fs::read_to_string(path).unwrap();
    let hits: Vec<usize> = s
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(text))
        .map(|(n, _)| n + 1)
        .collect();
    assert_eq!(hits.len(), 1, "`{text}` occurs {} times", hits.len());
    hits[0] as u64
}

#[test]
fn llc22_output_has_no_hazard() {
    // tests/data/timing/README.md: `llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=CPU X.ll`.
    for cpu in ["gfx900", "gfx1100", "gfx1200"] {
        for k in ["loop", "mix"] {
            let (code, v, err) = run(&data(&format!("{k}_{cpu}.s")), &[]);
            assert_eq!(code, 0, "{k} {cpu}: {v} {err}");
            assert_eq!(v["summary"]["hazards"], 0, "{k} {cpu}");
            assert_eq!(v["target"], cpu);
        }
    }
}

#[test]
fn llc22_at_test_time_on_every_target() {
    if Command::new("llc-22").arg("--version").output().is_err() {
        eprintln!("skipped: no llc-22 on PATH (the committed .s files are checked instead)");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for cpu in gcnsmt_semantics::target::Target::ALL.map(|t| t.name()) {
        // `call` (a kernel calling a function): on gfx1250 the callee does not wait xcnt at
        // entry, which the model reports (docs/timing.md, named settings): left out there.
        let kernels: &[&str] = if cpu == "gfx1250" {
            &["loop", "mix"]
        } else {
            &["loop", "mix", "call"]
        };
        for &k in kernels {
            let s = dir.join(format!("llc-{k}-{cpu}.s"));
            let st = Command::new("llc-22")
                .args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={cpu}")])
                .arg(data(&format!("{k}.ll")))
                .arg("-o")
                .arg(&s)
                .status()
                .unwrap();
            assert!(st.success(), "llc-22 {cpu} {k}");
            // gfx7/gfx8 have no GLOBAL instructions: llc uses FLAT and waits on vmcnt only,
            // because it knows the pointer is global; the file no longer says so, hence the
            // named setting (docs/timing.md).
            let (code, v, err) = run(&s, &["--set", "flat-lds=never"]);
            assert_eq!(code, 0, "{k} {cpu}: {v} {err}");
        }
    }
}

#[test]
fn gfx900_weakened_or_deleted_waits_are_hazards() {
    // `mix`: three global loads (v2, v7, v1, in order on vmcnt), then `s_waitcnt vmcnt(2)`
    // before `ds_write_b32 v4, v2`. vmcnt(3) is met at once with all three loads pending, so
    // the store may read v2 before the first load wrote it.
    let f = mutate("mix_gfx900.s", "s_waitcnt vmcnt(2)", "s_waitcnt vmcnt(3)");
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "ds_write_b32 v4, v2");
    assert_eq!(hazards(&v, "mix"), vec![("read".into(), "v2".into(), at)]);
    // `ds_read2_b32 v[4:5]` is followed by `s_waitcnt lgkmcnt(0)` before `v_add_u32 v4, v4,
    // v7`; without that wait nothing completes the LDS read before v4 (and v5, in the
    // v_mad_u64_u32) are read.
    let f = mutate(
        "mix_gfx900.s",
        "\ts_waitcnt lgkmcnt(0)\n\tv_add_u32_e32 v4, v4, v7",
        "\tv_add_u32_e32 v4, v4, v7",
    );
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let h = hazards(&v, "mix");
    let at = line_of(&f, "v_add_u32_e32 v4, v4, v7");
    assert!(h.contains(&("read".into(), "v4".into(), at)), "{h:?}");
    // `loop`: the loop's only wait `s_waitcnt vmcnt(0)` guards `v_add_u32 v1, v1, v4`.
    let f = mutate("loop_gfx900.s", "\ts_waitcnt vmcnt(0)\n", "");
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "v_add_u32_e32 v1, v1, v4");
    assert!(hazards(&v, "add_loop").contains(&("read".into(), "v4".into(), at)));
}

#[test]
fn gfx1100_weakened_wait_is_a_hazard() {
    // `mix`: loads into v0, v1, v4; `s_waitcnt vmcnt(2)` completed the first. Weakening the
    // later `vmcnt(1)` to `vmcnt(2)` lets both remaining loads stay pending, so
    // `v_add_nc_u32 v3, v5, v1` may read v1 early.
    let f = mutate(
        "mix_gfx1100.s",
        "s_waitcnt vmcnt(1) lgkmcnt(0)",
        "s_waitcnt vmcnt(2) lgkmcnt(0)",
    );
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "v_add_nc_u32_e32 v3, v5, v1");
    assert_eq!(hazards(&v, "mix"), vec![("read".into(), "v1".into(), at)]);
}

#[test]
fn gfx1200_weakened_split_waits_are_hazards() {
    // `s_wait_loadcnt_dscnt 0x100` is loadcnt 1 (bits 13:8), dscnt 0 (bits 5:0). Loads into
    // v1, v6, v0; `s_wait_loadcnt 0x2` completed the first. 0x200 (loadcnt 2) lets the v6 load
    // stay pending at `v_add_nc_u32 v3, v3, v6`.
    let f = mutate(
        "mix_gfx1200.s",
        "s_wait_loadcnt_dscnt 0x100",
        "s_wait_loadcnt_dscnt 0x200",
    );
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "v_add_nc_u32_e32 v3, v3, v6");
    assert_eq!(hazards(&v, "mix"), vec![("read".into(), "v6".into(), at)]);
    // 0x101 (dscnt 1): the ds_store and the ds_load_2addr are in order on dscnt, so one may
    // remain: the later ds_load, whose v3 is read at once.
    let f = mutate(
        "mix_gfx1200.s",
        "s_wait_loadcnt_dscnt 0x100",
        "s_wait_loadcnt_dscnt 0x101",
    );
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "v_add_nc_u32_e32 v3, v3, v6");
    assert!(hazards(&v, "mix")
        .iter()
        .any(|(_, r, l)| r == "v3" && *l == at));
    // Without `s_wait_kmcnt 0x0` the first global load reads s[2:3] from a pending s_load.
    let f = mutate("mix_gfx1200.s", "\ts_wait_kmcnt 0x0\n", "");
    let (code, v, _) = run(&f, &[]);
    assert_eq!(code, 1);
    let at = line_of(&f, "global_load_b32 v1, v2, s[2:3]");
    assert!(hazards(&v, "mix")
        .iter()
        .any(|(_, r, l)| r.contains("s[2:3]") && *l == at));
}

#[test]
fn hand_written_cases() {
    let cases: &[(&str, &[(&str, usize)])] = &[
        (
            "hand/gfx900.s",
            &[
                ("vm_in_order", 0),
                ("smem_ooo", 1),
                ("lds_in_order", 0),
                ("lgkm_mixed", 1),
                ("same_kind_waw", 1),
                ("redundant", 0),
            ],
        ),
        (
            "hand/gfx1100.s",
            &[("split", 1), ("vscnt_only", 1), ("both", 0)],
        ),
        (
            "hand/gfx1200.s",
            &[("load_ds", 1), ("kmcnt", 1), ("loop", 0)],
        ),
        ("hand/gfx600.s", &[("store_data", 1), ("store_wait", 0)]),
        (
            "hand/callee_gfx900.s",
            &[("no_entry_wait", 4), ("returns_pending", 1)],
        ),
    ];
    for (file, fns) in cases {
        let (code, v, err) = run(&data(file), &[]);
        assert_eq!(code, 1, "{file}: {err}");
        for (f, n) in *fns {
            assert_eq!(hazards(&v, f).len(), *n, "{file} {f}: {v}");
        }
    }
    // The kinds and registers the headers name.
    let (_, v, _) = run(&data("hand/gfx900.s"), &[]);
    assert_eq!(hazards(&v, "smem_ooo")[0].0, "read");
    assert_eq!(hazards(&v, "same_kind_waw")[0].0, "overwrite");
    let (_, v, _) = run(&data("hand/gfx1200.s"), &[]);
    assert_eq!(hazards(&v, "load_ds")[0].1, "v2");
    let (_, v, _) = run(&data("hand/gfx600.s"), &[]);
    assert_eq!(hazards(&v, "store_data")[0].0, "overwrite-source");
    let (_, v, _) = run(&data("hand/callee_gfx900.s"), &[]);
    assert_eq!(hazards(&v, "returns_pending")[0].0, "return-pending");
    // `redundant`: exactly the second of two back-to-back `vmcnt(0)` completes nothing.
    let (_, v, _) = run(&data("hand/gfx900.s"), &[]);
    let red = &v["functions"][5]["redundant_waits"];
    assert_eq!(red.as_array().unwrap().len(), 1, "{red}");
    // The function label is the line after its `.type`; the second wait is 3 lines below.
    let label = line_of(&data("hand/gfx900.s"), "\t.type\tredundant,@function") + 1;
    assert_eq!(red[0]["line"], label + 3);
}

#[test]
fn bad_input_is_exit_2_with_position() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let head =
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n\t.text\n\t.type\tk,@function\nk:\n";
    for (body, line, col) in [
        (
            "\tglobal_load_dword v1, v0, s[0:1]\n\ts_waitcnt vmcnt(x)\n",
            6,
            2,
        ),
        ("\tv_mov_b32_e32 v1, v[5:3]\n", 5, 2),
        ("\ts_branch .Lnowhere\n", 5, 2),
        ("\ts_wait_loadcnt 0x0\n", 5, 2),
        ("\tv_mov$b32 v1, v2\n", 5, 2),
    ] {
        let f = dir.join(format!("bad-{line}-{}.s", body.len()));
        std::fs::write(&f, format!("{head}{body}\ts_endpgm\n")).unwrap();
        let (code, v, err) = run(&f, &[]);
        assert_eq!(code, 2, "{body}: {v}");
        let want = format!("{}:{line}:{col}: error:", f.display());
        assert!(err.starts_with(&want), "{body}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // No target at all.
    let f = dir.join("bad-notarget.s");
    std::fs::write(&f, "k:\n\ts_endpgm\n").unwrap();
    let (code, _, err) = run(&f, &[]);
    assert_eq!(code, 2);
    assert!(err.contains(":1:1: error:"), "{err}");
}

#[test]
fn unknown_counters_are_exit_3_never_synchronous() {
    // `global_load_async_to_lds_b32` is a gfx1250 instruction (llvm-mc-22 -mcpu=gfx1250
    // encodes it: 7c 00 18 ee ...) whose counter (asynccnt) gcnsmt does not model: the path
    // stops and the verdict is unknown, never "synchronous".
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let f = dir.join("unknown.s");
    std::fs::write(
        &f,
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1250\"\n\t.text\n\t.type\tk,@function\nk:\n\
         \tglobal_load_async_to_lds_b32 v1, v[2:3], off\n\tv_mov_b32_e32 v3, v1\n\ts_endpgm\n",
    )
    .unwrap();
    let (code, v, _) = run(&f, &["--target", "gfx1250"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["summary"]["unknown"], 1);
}

#[test]
fn unknown_and_foreign_mnemonics_are_input_errors() {
    // Expected verdicts from llvm-mc-22 -mcpu=gfx900 on the same lines: `v_foo_bar` and
    // `s_frobnicate` are "invalid instruction"; `ds_bvh_stack_rtn_b32` (gfx11+) and
    // `v_add_f32_sdwa` on gfx1100 are "not supported on this GPU" / "sdwa variant ... not
    // supported". Each is one error line at the mnemonic's file:line:col and exit 2.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let cases = [
        (
            "gfx900",
            "v_foo_bar v1, v2",
            "unknown instruction `v_foo_bar`",
        ),
        (
            "gfx900",
            "s_frobnicate s0",
            "unknown instruction `s_frobnicate`",
        ),
        (
            "gfx900",
            "ds_bvh_stack_rtn_b32 v1, v0, v2, v[4:7]",
            "not an instruction of gfx900",
        ),
        (
            "gfx1100",
            "v_add_f32_sdwa v1, v2, v3",
            "not an instruction of gfx1100",
        ),
    ];
    for (n, (target, line, want)) in cases.into_iter().enumerate() {
        let f = dir.join(format!("foreign{n}.s"));
        let text = format!(
            "\t.amdgcn_target \"amdgcn-amd-amdhsa--{target}\"\n\t.text\n\
             \t.type\tk,@function\nk:\n\ts_nop 0\n\t{line}\n\ts_endpgm\n"
        );
        std::fs::write(&f, text).unwrap();
        let (code, v, err) = run(&f, &["--target", target]);
        assert_eq!(code, 2, "{line}: {v}");
        let at = format!("{}:6:2: error:", f.display());
        assert!(err.starts_with(&at) && err.contains(want), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// PAL output (`-mtriple=amdgcn-amd-amdpal`) ends with a `.amdgpu_pal_metadata` YAML block:
/// it is skipped like HSA's metadata (it used to be read as malformed labels, exit 2, in the
/// LLVM waitcnt test run of docs/timing.md), its `.entry_point_symbol`s are entries (nothing
/// pending at their start), and the code before it is still checked.
#[test]
fn pal_metadata_block_is_skipped() {
    let file = data("hand/pal_gfx700.s");
    let (code, v, err) = run(&file, &["--target", "gfx700"]);
    assert_eq!(code, 1, "{err}");
    // Line 14 of the file: `pal_smem`'s s_add_u32 (the other one is `pal_waited`'s). As an
    // entry it has nothing else pending: exactly one hazard.
    assert_eq!(
        hazards(&v, "pal_smem"),
        [("read".to_string(), "s4".to_string(), 14)]
    );
    assert!(hazards(&v, "pal_waited").is_empty());
}

/// gfx9 spells the LDS-DMA `GLOBAL_LOAD_LDS_DWORD` `global_load_dword v0, s[0:1] lds` (v0 is
/// the address), gfx942 `global_load_lds_dword v0, s[0:1]`: llc-22's output of one kernel
/// (tests/data/timing/lds_dma_global.ll) has the same single finding on both, the DS read of
/// another array while the LDS-DMA load may be pending (LDS is one region), and no register
/// hazard on v0 (the gfx900 spelling used to be read as a load into v0).
#[test]
fn global_lds_dma_spellings_agree() {
    for cpu in ["gfx900", "gfx942"] {
        let file = data(&format!("lds_dma_global_{cpu}.s"));
        let (code, v, err) = run(&file, &[]);
        assert_eq!(code, 1, "{cpu}: {err}");
        let at = line_of(&file, "ds_read_b32 v1, v1");
        assert_eq!(
            hazards(&v, "dma_then_ds"),
            [("read".to_string(), "LDS".to_string(), at)],
            "{cpu}"
        );
    }
}
