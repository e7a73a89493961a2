//! `scripts/ray_verify.py` on a local Ray cluster it starts: the merged result of the Ray
//! tasks is the unsharded run's (records, summary, exit code), and the tasks filled the shared
//! cache. Slow tier only (Ray's start alone takes 10-20 s on two cores); skipped with a
//! `NOTICE:` where `python3 -c "import ray"` fails (`.ci/run` installs it with pip).

use gcnsmt_testkit::{workspace_path, TempDir};
use serde_json::Value;
use std::process::Command;

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("time_ms");
            // The Ray run fills the cache; whether a verdict came from it is not the question.
            o.remove("note");
            v
        })
        .collect()
}

#[test]
fn ray_driver_matches_unsharded_run() {
    if !gcnsmt_testkit::slow() {
        println!("NOTICE: ray_driver_matches_unsharded_run runs in the slow tier (GCNSMT_SLOW=1)");
        return;
    }
    let has_ray = Command::new("python3")
        .args(["-c", "import ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_ray {
        println!(
            "NOTICE: ray not importable (python3 -m pip install ray); Ray driver test skipped"
        );
        return;
    }
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let dir = TempDir::new("ray");
    let cache = dir.path().join("cache");
    let rules = workspace_path("proofs/ds_split.rules")
        .display()
        .to_string();
    let verify_args = [rules.as_str(), "--target", "gfx803,gfx900,gfx1100,gfx1200"];
    let out = Command::new("python3")
        .arg(workspace_path("scripts/ray_verify.py"))
        .args(["--gcnsmt", bin, "--shards", "3", "--cache"])
        .arg(&cache)
        .arg("--")
        .args(verify_args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let whole = Command::new(bin)
        .arg("verify")
        .args(verify_args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(whole.status.code(), Some(0));
    assert_eq!(
        records(&stdout),
        records(&String::from_utf8_lossy(&whole.stdout)),
        "{stderr}"
    );
    let entries = std::fs::read_dir(&cache).unwrap().count();
    assert!(
        entries > 0,
        "the Ray tasks stored nothing in the shared cache"
    );
}

/// Issue 33: the driver checks its paths before Ray starts (a relative or missing `--gcnsmt`
/// failed inside the tasks with a Python traceback): a missing binary is one error line,
/// exit 2. Runs in the default tier: no Ray is needed to get there.
#[test]
fn ray_driver_checks_its_paths_first() {
    let dir = TempDir::new("ray-paths");
    let out = Command::new("python3")
        .arg(workspace_path("scripts/ray_verify.py"))
        .args(["--gcnsmt", "./no-such-gcnsmt", "--", "x.rules"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let want = format!(
        "ray_verify: error: --gcnsmt {}: not an executable file",
        dir.path().join("no-such-gcnsmt").display()
    );
    assert!(stderr.starts_with(&want), "{want}\n{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
}

/// `ray_verify.py --tv`: the tv jobs of our RUN-line tests (`tests/data/tv/llvm_run_lines/`)
/// as Ray tasks give the table of one unsharded `tv_llvm_tests.py run` (times aside). Slow tier,
/// and skipped without Ray or llc-22.
#[test]
fn ray_driver_runs_tv_jobs() {
    if !gcnsmt_testkit::slow() {
        println!("NOTICE: ray_driver_runs_tv_jobs runs in the slow tier (GCNSMT_SLOW=1)");
        return;
    }
    let ok = |cmd: &mut Command| cmd.output().is_ok_and(|o| o.status.success());
    if !ok(Command::new("python3").args(["-c", "import ray"]))
        || !ok(Command::new("llc-22").arg("--version"))
    {
        println!("NOTICE: ray or llc-22 missing; ray_driver_runs_tv_jobs skipped");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let tests = workspace_path("tests/data/tv/llvm_run_lines");
    let script = workspace_path("scripts/tv_llvm_tests.py");
    let dir = TempDir::new("ray-tv");
    let out = Command::new("python3")
        .arg(workspace_path("scripts/ray_verify.py"))
        .args(["--tv", "--gcnsmt", bin, "--shards", "2", "--"])
        .arg(&tests)
        .output()
        .unwrap();
    let ray_table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{ray_table}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole = dir.path().join("whole");
    let r = Command::new("python3")
        .arg(&script)
        .args(["run", "--out"])
        .arg(&whole)
        .args(["--gcnsmt", bin])
        .arg(&tests)
        .output()
        .unwrap();
    assert!(r.status.success());
    let m = Command::new("python3")
        .arg(&script)
        .arg("merge")
        .arg(&whole)
        .output()
        .unwrap();
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.contains("summed wall time"))
            .map(|l| {
                let cells: Vec<&str> = l.split('|').collect();
                if l.starts_with('|') {
                    cells[..cells.len() - 3].join("|")
                } else {
                    l.to_string()
                }
            })
            .collect()
    };
    assert_eq!(
        strip(&ray_table),
        strip(&String::from_utf8_lossy(&m.stdout))
    );
}
