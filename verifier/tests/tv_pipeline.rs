//! `gcnsmt tv --pipeline FILE --target T`: every machine pass of llc-22's -O3 pipeline on
//! `tests/data/tv/pipeline/add_one.ll` (a global load, an add, a global store; written by
//! hand). The pass list is checked against llc-22's own `-debug-pass=Structure` "Pass
//! Arguments" (an independent source); a fake `--llc` that edits the MIR after one pass checks
//! that the first refuted pass is named. One target (gfx900) by default, all four of issue 28
//! under GCNSMT_SLOW=1. Skipped without `llc-22` on PATH.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn have_llc() -> bool {
    let ok = Command::new("llc-22").arg("--version").output().is_ok();
    if !ok {
        eprintln!("llc-22 not on PATH: skipped");
    }
    ok
}

fn kernel() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/pipeline/add_one.ll")
}

fn gcnsmt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gcnsmt"))
        .args(args)
        .output()
        .unwrap()
}

fn records(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The machine pass arguments llc-22 lists for `target` (`-debug-pass=Structure` prints a
/// "Pass Arguments:" line; the machine passes are those after `-amdgpu-isel`).
fn llc_machine_args(target: &str) -> Vec<String> {
    let out = Command::new("llc-22")
        .args(["-O3", "-mtriple=amdgcn", &format!("-mcpu={target}")])
        .args(["-debug-pass=Structure", "-o", "/dev/null"])
        .arg(kernel())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("Pass Arguments:") && l.contains("-amdgpu-isel"))
        .expect("a Pass Arguments line with the instruction selector");
    line.split_whitespace()
        .skip_while(|a| *a != "-amdgpu-isel")
        .skip(1)
        .map(|a| a.trim_start_matches('-').to_string())
        .collect()
}

/// The pass names of the `pass` records, each `ARG` or `ARG,K`, split at `+`.
fn listed(recs: &[Value], target: &str) -> Vec<String> {
    recs.iter()
        .filter(|r| r["type"] == "pass" && r["target"] == target)
        .flat_map(|r| {
            r["pass"]
                .as_str()
                .unwrap()
                .split('+')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn check_target(target: &str) {
    let file = kernel();
    let out = gcnsmt(&[
        "tv",
        "--pipeline",
        file.to_str().unwrap(),
        "--target",
        target,
        "--format",
        "json",
    ]);
    let recs = records(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let names = listed(&recs, target);
    let args = llc_machine_args(target);
    // Passes that llc-22 -debug-pass=Structure lists, in that order, with their instances.
    let base = |n: &String| n.split(',').next().unwrap().to_string();
    for known in ["si-fold-operands", "si-load-store-opt", "machine-scheduler"] {
        let ours = names.iter().filter(|n| base(n) == known).count();
        let llcs = args.iter().filter(|a| *a == known).count();
        assert!(ours >= 1, "{known} not listed on {target}: {names:?}");
        assert_eq!(ours, llcs, "{known} instances on {target}");
    }
    // Every pass named is one llc's structure has (analyses excluded or not, by name).
    for n in &names {
        assert!(args.contains(&base(n)), "{n} is not in llc's pipeline");
    }
    let pos = |p: &str| names.iter().position(|n| n == p).unwrap();
    assert!(pos("si-fold-operands") < pos("si-load-store-opt"));
    assert!(pos("si-load-store-opt") < pos("machine-scheduler"));
    assert!(
        stderr.contains(&format!("pass 1 of {}", names.len())),
        "{stderr}"
    );
    // JSON shape: one record per pass, then the summary.
    for r in recs.iter().filter(|r| r["type"] == "pass") {
        for k in [
            "target",
            "index",
            "of",
            "pass",
            "identical",
            "changed",
            "proved",
            "refuted",
            "unknown",
            "unsupported",
            "inapplicable",
            "error",
            "time_ms",
            "reason",
            "blocks",
        ] {
            assert!(r.get(k).is_some(), "no {k} in {r}");
        }
    }
    let sum = recs.last().unwrap();
    assert_eq!(sum["type"], "summary");
    // llc-22 compiles this kernel correctly and it has no block tv cannot read: nothing is
    // refuted and nothing is an error, so the exit status is 0 or 3 (post-RA passes are
    // unsupported), and the summary says the same as the process.
    assert_eq!(sum["refuted"], 0, "{sum}");
    assert_eq!(sum["error"], 0, "{sum}");
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 3, "exit {code}: {stderr}");
    assert_eq!(sum["exit_code"], code);
}

#[test]
fn pipeline_lists_llcs_machine_passes() {
    if !have_llc() {
        return;
    }
    check_target("gfx900");
    if std::env::var("GCNSMT_SLOW").is_ok_and(|v| v == "1") {
        for t in ["gfx90a", "gfx1100", "gfx1200"] {
            check_target(t);
        }
    }
}

/// A fake llc: llc-22, except that the MIR it prints when asked to stop before
/// `reg-usage-propagation` has the global store's offset changed from 0 to 4 (a store to
/// another address: a real miscompile of the pass just before that point).
fn fake_llc(dir: &Path) -> PathBuf {
    let path = dir.join("llc-fake.sh");
    let script = "#!/bin/bash\n\
        set -o pipefail\n\
        case \" $* \" in\n\
        *\" -stop-before=reg-usage-propagation,0 \"*)\n\
          llc-22 \"$@\" | sed '/GLOBAL_STORE_DWORD/s/, 0, 0, implicit/, 4, 0, implicit/'\n\
          exit $? ;;\n\
        esac\n\
        exec llc-22 \"$@\"\n";
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn the_first_refuted_pass_is_named() {
    if !have_llc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gcnsmt-tv-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let llc = fake_llc(&dir);
    // The pass that runs just before reg-usage-propagation, from llc's own structure.
    let args = llc_machine_args("gfx900");
    let at = args
        .iter()
        .position(|a| a == "reg-usage-propagation")
        .unwrap();
    let planted = args[at - 1].clone();
    let file = kernel();
    let run = |format: &str| {
        gcnsmt(&[
            "tv",
            "--pipeline",
            file.to_str().unwrap(),
            "--target",
            "gfx900",
            "--llc",
            llc.to_str().unwrap(),
            "--format",
            format,
        ])
    };
    let out = run("json");
    let recs = records(&out);
    let sum = recs.last().unwrap();
    let first = &sum["first_refuted"][0];
    assert_eq!(first["pass"], planted.as_str(), "{sum}");
    assert_eq!(first["target"], "gfx900");
    let cex = first["counterexample"].as_str().unwrap_or("");
    assert!(cex.contains("GLOBAL_STORE_DWORD"), "{cex}");
    // A refutation and no unreadable pair: exit 1, as `tv` exits.
    assert_eq!(out.status.code(), Some(1), "{sum}");
    let text = run("text");
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains(&format!("first refuted pass on gfx900: {planted} (pass ")),
        "{stdout}"
    );
    assert_eq!(text.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.mir` input (llc-22's own MIR of the global loop kernel, with control flow, before
/// si-fold-operands) runs from the first machine pass: without `-start-after=amdgpu-isel` llc
/// would select the embedded IR again and fail on `llvm.amdgcn.if`.
#[test]
fn a_mir_input_runs_the_machine_pipeline() {
    if !have_llc() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("gcnsmt-tv-pipeline-mir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mir = dir.join("global_loop.mir");
    let ll = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/kernels/global_loop.ll");
    let st = Command::new("llc-22")
        .args([
            "-O3",
            "-mtriple=amdgcn",
            "-mcpu=gfx900",
            "-stop-before=si-fold-operands",
        ])
        .arg(&ll)
        .arg("-o")
        .arg(&mir)
        .status()
        .unwrap();
    assert!(st.success());
    let out = gcnsmt(&[
        "tv",
        "--pipeline",
        mir.to_str().unwrap(),
        "--target",
        "gfx900",
        "--format",
        "json",
    ]);
    let recs = records(&out);
    let names = listed(&recs, "gfx900");
    assert!(names.iter().any(|n| n == "si-fold-operands"), "{names:?}");
    assert!(names.iter().any(|n| n == "machine-scheduler"), "{names:?}");
    let first = &recs[0];
    assert_eq!(first["error"], 0, "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn llc_failing_is_an_error_row_and_exit_2() {
    let file = kernel();
    let out = gcnsmt(&[
        "tv",
        "--pipeline",
        file.to_str().unwrap(),
        "--target",
        "gfx900",
        "--llc",
        "/nonexistent/llc",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let recs = records(&out);
    assert_eq!(recs[0]["type"], "pass");
    assert_eq!(recs[0]["error"], 1);
    assert!(recs[0]["reason"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/llc"));
    assert_eq!(recs.last().unwrap()["exit_code"], 2);
}

#[test]
fn usage_errors_exit_2() {
    let file = kernel();
    let f = file.to_str().unwrap();
    for args in [
        vec!["tv", "--pipeline", f, f, "--target", "gfx900"],
        vec!["tv", "--pipeline", f],
        vec![
            "tv",
            "--pipeline",
            f,
            "--target",
            "gfx900",
            "--format",
            "sarif",
        ],
        vec!["tv", "--pipeline", f, "--target", "gfx9000"],
        vec![
            "tv",
            "--pipeline",
            f,
            "--target",
            "gfx900",
            "--",
            "-start-before=greedy",
        ],
    ] {
        let out = gcnsmt(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
    }
}

/// The measurement kernels of `scripts/tv-kernels.sh` (`tests/data/tv/kernels/`, issue 28):
/// at least 20, each saying in its first line that it was written for gcnsmt, and each
/// compiled by llc-22 -O3 for amdgcn-amd-amdhsa on the four targets the script measures (a
/// kernel llc rejects would measure nothing).
#[test]
fn the_measurement_kernels_compile_on_the_four_targets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tv/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{} kernels", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with("; Written for gcnsmt"),
            "{}: {first}",
            f.display()
        );
    }
    if !have_llc() {
        return;
    }
    for t in ["gfx900", "gfx90a", "gfx1100", "gfx1200"] {
        for f in &files {
            let out = Command::new("llc-22")
                .args(["-O3", "-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={t}")])
                .args(["-o", "/dev/null"])
                .arg(f)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{} on {t}: {}",
                f.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// `--until si-form-memory-clauses`: the listed passes are llc's machine passes up to that one
/// and no further (llc-22's `-debug-pass=Structure` list is the independent source), and the
/// last row is that pass; a pass llc does not run is an error row, exit 2.
#[test]
fn until_stops_after_the_named_pass() {
    if !have_llc() {
        return;
    }
    let file = kernel();
    let f = file.to_str().unwrap();
    let args = [
        "tv",
        "--pipeline",
        f,
        "--target",
        "gfx900",
        "--format",
        "json",
    ];
    let out = gcnsmt(&[&args[..], &["--until", "si-form-memory-clauses"]].concat());
    let recs = records(&out);
    let names = listed(&recs, "gfx900");
    assert_eq!(
        names.last().map(String::as_str),
        Some("si-form-memory-clauses"),
        "{names:?}"
    );
    let llc = llc_machine_args("gfx900");
    let cut = llc
        .iter()
        .position(|a| a == "si-form-memory-clauses")
        .unwrap();
    for n in &names {
        let base = n.split(',').next().unwrap();
        assert!(
            llc[..=cut].iter().any(|a| a == base),
            "{n} is after the cut"
        );
    }
    for late in ["greedy", "virtregrewriter", "si-insert-waitcnts"] {
        assert!(!names.iter().any(|n| n.starts_with(late)), "{late} listed");
    }
    let bad = gcnsmt(&[&args[..], &["--until", "no-such-pass"]].concat());
    assert_eq!(bad.status.code(), Some(2));
    let recs = records(&bad);
    assert!(recs[0]["reason"]
        .as_str()
        .unwrap()
        .contains("--until no-such-pass"));
}
