//! `scripts/ray_verify.py` on a local Ray cluster it starts: the merged result of the Ray
//! tasks is the unsharded run's (records, summary, exit code), the tasks filled the shared
//! cache, SIGTERM stops everything it started. Those run in the slow tier (Ray's start alone
//! takes 10-20 s on two cores), skipped with a `NOTICE:` where `python3 -c "import ray"` fails
//! (`.ci/run` puts a venv with Ray first on PATH). What the driver checks before Ray starts
//! (paths, the default binary, arguments) runs in the default tier, with a stand-in gcnsmt.

use gcnsmt_testkit::{workspace_path, TempDir};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    if !has_ray("ray_driver_matches_unsharded_run") {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let dir = TempDir::new("ray");
    let cache = dir.path().join("cache");
    // Issue 33: relative paths (the binary, the rules, the cache) failed inside the tasks, and
    // a stale cluster address (RAY_ADDRESS, or what an earlier `ray start` left) was joined.
    std::os::unix::fs::symlink(bin, dir.path().join("gcnsmt")).unwrap();
    std::fs::copy(
        workspace_path("proofs/ds_split.rules"),
        dir.path().join("ds_split.rules"),
    )
    .unwrap();
    let rules = dir.path().join("ds_split.rules").display().to_string();
    let verify_args = [rules.as_str(), "--target", "gfx803,gfx900,gfx1100,gfx1200"];
    let mut cmd = Command::new("python3");
    cmd.arg(workspace_path("scripts/ray_verify.py"))
        .args([
            "--gcnsmt", "./gcnsmt", "--shards", "3", "--cache", "cache", "--",
        ])
        .args([
            "ds_split.rules",
            "--target",
            "gfx803,gfx900,gfx1100,gfx1200",
        ])
        .current_dir(dir.path())
        .env("RAY_ADDRESS", format!("127.0.0.1:{}", dead_port()));
    // A driver that joined the dead cluster would wait for it without end: fail instead.
    let (code, stdout, stderr) = output_within(&mut cmd, Duration::from_secs(300));
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
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

/// Run `cmd` to its end, or kill it after `limit` and panic: exit code, stdout, stderr.
fn output_within(cmd: &mut Command, limit: Duration) -> (Option<i32>, String, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            // Not joining the readers: what the child started may hold its pipes open.
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    (status.code(), out.join().unwrap(), err.join().unwrap())
}

/// Whether `python3` can import Ray; prints the skip notice when it cannot.
fn has_ray(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("NOTICE: ray not importable by python3 (a venv with ray first on PATH, README); {test} skipped");
    }
    ok
}

/// A local TCP port nothing listens on (bound, then released): a dead Ray cluster's address.
fn dead_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The processes whose environment holds `mark` (`GCNSMT_RAY_TEST_MARK=...`): whatever the
/// driver started, Ray's daemons and workers included, inherits it.
fn marked_processes(mark: &str) -> Vec<String> {
    let needle = format!("GCNSMT_RAY_TEST_MARK={mark}\0").into_bytes();
    let mut found = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(env) = std::fs::read(e.path().join("environ")) else {
            continue;
        };
        if env.windows(needle.len()).any(|w| w == needle.as_slice()) {
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&cmd).replace('\0', " ")
            ));
        }
    }
    found
}

/// Issue 33: SIGTERM stops the driver within seconds, exit 143, with nothing it started left
/// running: once while its tasks run on the local cluster it started (it ignored SIGTERM; Ray's
/// agents outlived the run), once while ray.init waits for a cluster that does not answer
/// (`--address` of a dead head: "Failed to connect to GCS" for minutes). Slow tier.
#[test]
fn ray_driver_stops_on_sigterm() {
    if !gcnsmt_testkit::slow() {
        println!("NOTICE: ray_driver_stops_on_sigterm runs in the slow tier (GCNSMT_SLOW=1)");
        return;
    }
    if !has_ray("ray_driver_stops_on_sigterm") {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_gcnsmt");
    let dead = format!("127.0.0.1:{}", dead_port());
    let rules = workspace_path("proofs").display().to_string();
    // When to send SIGTERM: once a shard's gcnsmt runs (a marked process with `--shard`), or
    // 15 s in, when the driver sits in ray.init's connection attempts (the listing and
    // `import ray` take under 5 s). Neither depends on what the driver prints.
    let cases: [(&str, Vec<&str>, Option<Duration>); 2] = [
        ("tasks", vec![], None),
        (
            "connect",
            vec!["--address", &dead],
            Some(Duration::from_secs(15)),
        ),
    ];
    for (case, extra, after) in cases {
        let dir = TempDir::new("ray-term");
        let mark = dir.path().display().to_string();
        let mut child = Command::new("python3")
            .arg(workspace_path("scripts/ray_verify.py"))
            .args(["--gcnsmt", bin])
            .args(&extra)
            .args(["--", &rules, "--target", "gfx900,gfx1100,gfx1200"])
            .env("GCNSMT_RAY_TEST_MARK", &mark)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut seen: Vec<String> = vec![];
        let t0 = Instant::now();
        loop {
            seen.extend(rx.try_iter());
            let ready = match after {
                Some(d) => t0.elapsed() >= d,
                None => marked_processes(&mark)
                    .iter()
                    .any(|p| p.contains("--shard")),
            };
            if ready {
                break;
            }
            if t0.elapsed() > Duration::from_secs(180) || child.try_wait().unwrap().is_some() {
                let _ = child.kill();
                panic!("{case}: not ready to be stopped: {seen:#?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        // A moment more into the tasks, or into ray.init's connection attempts.
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            child.try_wait().unwrap().is_none(),
            "{case}: ended early: {seen:#?}"
        );
        let term = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(term.success());
        let t1 = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t1.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("{case}: still running 20 s after SIGTERM: {seen:#?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        seen.extend(rx.try_iter());
        assert_eq!(status.code(), Some(143), "{case}: {seen:#?}");
        std::thread::sleep(Duration::from_secs(1));
        let left = marked_processes(&mark);
        assert!(left.is_empty(), "{case}: left running: {left:#?}");
    }
}

/// A stand-in for gcnsmt: prints `NAME ARGS...` to stderr; on `verify ... --list` it prints
/// one check and exits 0 when `lists`, else it exits 2 (an input error, which the driver
/// passes on before Ray starts).
fn fake_gcnsmt(path: &Path, name: &str, lists: bool) {
    let list = if lists {
        "case \"$*\" in *--list*) echo '{\"type\":\"check\"}'; exit 0;; esac\n"
    } else {
        ""
    };
    std::fs::write(
        path,
        format!("#!/bin/sh\necho \"{name} $*\" >&2\n{list}exit 2\n"),
    )
    .unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The real interpreter (not a shim that needs PATH), so that a test can empty PATH.
fn python() -> String {
    let o = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// `python3 [PY_ARGS] scripts/ray_verify.py ARGS` in `dir`: exit code and stderr (never a
/// traceback).
fn driver(dir: &Path, py_args: &[&str], args: &[&str]) -> (i32, String) {
    let out = Command::new(python())
        .args(py_args)
        .arg(workspace_path("scripts/ray_verify.py"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("Traceback"), "{stderr}");
    (out.status.code().unwrap_or(-1), stderr)
}

/// Issue 33: the driver checks its paths before Ray starts (a relative or missing `--gcnsmt`
/// failed inside the tasks with a Python traceback): a missing binary is one error line,
/// exit 2. Runs in the default tier: no Ray is needed to get there.
#[test]
fn ray_driver_checks_its_paths_first() {
    let dir = TempDir::new("ray-paths");
    let (code, stderr) = driver(
        dir.path(),
        &[],
        &["--gcnsmt", "./no-such-gcnsmt", "--", "x.rules"],
    );
    assert_eq!(code, 2, "{stderr}");
    let want = format!(
        "ray_verify: error: --gcnsmt {}: not an executable file",
        dir.path().join("no-such-gcnsmt").display()
    );
    assert!(stderr.starts_with(&want), "{want}\n{stderr}");
}

/// Issue 33: relative paths reach the tasks absolute (they run in other working directories),
/// a missing rule file is the driver's one error line (gcnsmt is not even run), option values
/// are left alone even where a file of that name exists (`--target gfx900`), and the options
/// the driver sets per task are refused. The stand-in gcnsmt shows what the driver ran.
#[test]
fn ray_driver_makes_paths_absolute_and_checks_them() {
    let dir = TempDir::new("ray-relative");
    let d = dir.path();
    fake_gcnsmt(&d.join("fake"), "FAKE", false);
    dir.write("x.rules", "");
    dir.write("gfx900", "");
    let (code, stderr) = driver(
        d,
        &[],
        &[
            "--gcnsmt",
            "./fake",
            "--",
            "x.rules",
            "--target",
            "gfx900",
            "--emit-smt2",
            "smt",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    let want = format!(
        "FAKE verify {} --target gfx900 --emit-smt2 {} --list --format json",
        d.join("x.rules").display(),
        d.join("smt").display()
    );
    assert!(stderr.contains(&want), "{want}\n{stderr}");

    let (code, stderr) = driver(d, &[], &["--gcnsmt", "./fake", "--", "missing.rules"]);
    assert_eq!(code, 2, "{stderr}");
    let want = format!(
        "ray_verify: error: {}: no such file or directory\n",
        d.join("missing.rules").display()
    );
    assert_eq!(stderr, want);

    let (code, stderr) = driver(
        d,
        &[],
        &["--gcnsmt", "./fake", "--", "x.rules", "--format", "text"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("ray_verify: error: --format: the driver sets it"),
        "{stderr}"
    );
}

/// Issue 33: `--gcnsmt` defaults to this repository's `target/release/gcnsmt` (the build that
/// matches the script), else `gcnsmt` on PATH, else one error line, exit 2. The script is
/// copied into a scratch "repository" so that its `target/release/gcnsmt` can be a stand-in.
#[test]
fn ray_driver_gcnsmt_default_is_the_repository_build() {
    let dir = TempDir::new("ray-default");
    let d = dir.path();
    let repo = d.join("repo");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    std::fs::create_dir_all(repo.join("target/release")).unwrap();
    std::fs::create_dir_all(d.join("bin")).unwrap();
    std::fs::create_dir_all(d.join("empty")).unwrap();
    let script = repo.join("scripts/ray_verify.py");
    std::fs::copy(workspace_path("scripts/ray_verify.py"), &script).unwrap();
    let built = repo.join("target/release/gcnsmt");
    fake_gcnsmt(&built, "BUILT", false);
    fake_gcnsmt(&d.join("bin/gcnsmt"), "ON-PATH", false);
    dir.write("x.rules", "");
    let run = |path: &Path| {
        let out = Command::new(python())
            .arg(&script)
            .args(["--", "x.rules"])
            .current_dir(d)
            .env("PATH", path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        stderr
    };
    let stderr = run(&d.join("bin"));
    assert!(stderr.starts_with("BUILT verify"), "{stderr}");
    std::fs::remove_file(&built).unwrap();
    let stderr = run(&d.join("bin"));
    assert!(stderr.starts_with("ON-PATH verify"), "{stderr}");
    let stderr = run(&d.join("empty"));
    let want = format!(
        "ray_verify: error: no gcnsmt: {} does not exist",
        built.display()
    );
    assert!(stderr.starts_with(&want), "{want}\n{stderr}");
}

/// Issue 33: bad driver arguments and a Python without Ray are one error line, exit 2, before
/// anything runs (`--cpus-per-task 0` divided by zero after Ray had started; a missing `ray`
/// was a traceback). `python3 -S` leaves out site-packages, so `ray` is not importable even
/// where it is installed. Default tier.
#[test]
fn ray_driver_argument_errors() {
    let dir = TempDir::new("ray-args");
    let d = dir.path();
    fake_gcnsmt(&d.join("fake"), "FAKE", true);
    dir.write("x.rules", "");
    for (args, want) in [
        (
            &["--cpus-per-task", "0", "--", "x.rules"][..],
            "error: --cpus-per-task 0: must be 1 or more",
        ),
        (
            &["--shards", "-1", "--", "x.rules"][..],
            "error: --shards -1: must be 0",
        ),
        (
            &["--"][..],
            "error: give gcnsmt verify's arguments after --",
        ),
        (
            &["--", "x.rules", "--target"][..],
            "error: --target: needs a value",
        ),
    ] {
        let mut all = vec!["--gcnsmt", "./fake"];
        all.extend_from_slice(args);
        let (code, stderr) = driver(d, &["-S"], &all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {want}\n{stderr}");
        assert!(!stderr.contains("FAKE"), "{args:?}: gcnsmt ran: {stderr}");
    }
    let (code, stderr) = driver(d, &["-S"], &["--gcnsmt", "./fake", "--", "x.rules"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("ray_verify: error: Python's ray is not importable"),
        "{stderr}"
    );
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
