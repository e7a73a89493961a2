#!/usr/bin/env python3
"""Run `gcnsmt verify` on a Ray cluster: one Ray task per shard, one shared result cache,
merged by `gcnsmt merge` into the report, summary and exit code of the unsharded run.
With --tv, run `gcnsmt tv` over LLVM test files the same way (scripts/tv_llvm_tests.py: one
task per shard of its jobs, then its `merge` table).

    python3 scripts/ray_verify.py [--gcnsmt BIN] [--shards N] [--cache DIR]
        [--address ADDR] [--cpus-per-task C] -- VERIFY-ARGS...

VERIFY-ARGS are `gcnsmt verify`'s (paths, --target, --timeout, --set, ...), without
--format, --shard or --cache. The driver lists the checks (`verify --list --format json`),
picks N shards (default: four per CPU of the cluster, at most one per check), runs shard K
as `gcnsmt verify VERIFY-ARGS --shard K/N --format json --cache DIR` in a Ray task, writes
each shard's JSON Lines into a temporary directory and runs `gcnsmt merge` on them. stdout
is the merged JSON Lines; the exit status is merge's (0 proved or as expected, 1 refuted,
2 error, 3 unknown).

Without --address, the driver starts a local cluster for the run (`address="local"`, never a
cluster named by RAY_ADDRESS or left by an earlier `ray start`, which may be long dead). Ray
runs in a child process of its own session, which the driver ends with everything it started
when the run ends or on SIGTERM/SIGINT/SIGHUP (exit 128 + the signal). Before Ray starts, the
driver checks its arguments, --gcnsmt (default: this repository's target/release/gcnsmt, else
`gcnsmt` on PATH), --cache, the files and directories among VERIFY-ARGS (made absolute: the
tasks run in other directories), the listing and that `ray` is importable: a bad one is one
error line, exit 2. On a multi-machine cluster (docs/scale-out.md: `ray start`, and with
Ray 2.60 RAY_AUTH_MODE=token and the head's token) the gcnsmt binary, the rule files and the
cache directory must be at the same paths on every machine (a shared file system); the cache
may be shared, since entries are written to a temporary file and renamed into place.
"""

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TV_SCRIPT = os.path.join(REPO, "scripts", "tv_llvm_tests.py")
# Set in the process that runs Ray (see `supervise`) to the number of checks or tv jobs the
# supervisor listed, so that the listing runs once.
CHILD_ENV = "GCNSMT_RAY_VERIFY_CHILD"
# Seconds the Ray process has after SIGTERM to stop its cluster before the supervisor kills
# every process it started: Ray's own shutdown takes 2-5 s on two cores.
GRACE_S = 5.0
# Options of `gcnsmt verify` and of `tv_llvm_tests.py run` that take no value; every other
# option written without `=VALUE` takes the next argument as its value (which is no path).
FLAGS = {"-v", "-vv", "-vvv", "--verbose", "--cache-read-only", "--no-matrix"}
# Options the driver sets itself for each task.
OWN = {"--format", "--shard", "--cache", "--list"}
OWN_TV = {"--shard", "--out", "--gcnsmt"}
# Options whose value is a path the tasks use (made absolute; may not exist yet).
PATH_OPTIONS = {"--emit-smt2", "--llc"}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gcnsmt", default=None,
                   help="the gcnsmt binary (same path on every node; default: this repository's "
                        "target/release/gcnsmt, else gcnsmt on PATH)")
    p.add_argument("--shards", type=int, default=0, help="number of shards (default: 4 per cluster CPU)")
    p.add_argument("--cache", default=None, help="result cache directory shared by the tasks")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (default: a local cluster started for the run)")
    p.add_argument("--cpus-per-task", type=int, default=1, help="CPUs (gcnsmt threads) per task")
    p.add_argument("--tv", action="store_true",
                   help="run `gcnsmt tv` over LLVM test files instead of `verify`: the arguments "
                        "after -- are scripts/tv_llvm_tests.py run's (files, directories, "
                        "--ll-targets T,...); stdout is the merged per-pass table")
    p.add_argument("--out", default=None,
                   help="with --tv: keep every shard's results here (DIR/sK), else a temporary "
                        "directory")
    p.add_argument("verify_args", nargs=argparse.REMAINDER, help="-- then gcnsmt verify's arguments")
    a = p.parse_args(argv)
    if a.verify_args and a.verify_args[0] == "--":
        a.verify_args = a.verify_args[1:]
    if not a.verify_args:
        p.error("give gcnsmt verify's arguments after --")
    if a.shards < 0:
        p.error(f"--shards {a.shards}: must be 0 (four per cluster CPU) or more")
    if a.cpus_per_task < 1:
        p.error(f"--cpus-per-task {a.cpus_per_task}: must be 1 or more")
    return a


def fail(msg):
    """One error line, exit 2 (an input error, as gcnsmt's)."""
    sys.stderr.write(f"ray_verify: error: {msg}\n")
    sys.exit(2)


def is_exe(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_gcnsmt(given):
    """The absolute path of the gcnsmt binary. By default this repository's release build
    (the one matching this script), else `gcnsmt` on PATH (`cargo install --path verifier`)."""
    if given is None:
        built = os.path.join(REPO, "target", "release", "gcnsmt")
        if is_exe(built):
            return built
        found = shutil.which("gcnsmt")
        if found:
            return os.path.abspath(found)
        fail(f"no gcnsmt: {built} does not exist (build it with `cargo build --release`) and "
             "no gcnsmt is on PATH; or pass --gcnsmt PATH")
    path = os.path.abspath(given if os.sep in given else shutil.which(given) or given)
    if not is_exe(path):
        fail(f"--gcnsmt {path}: not an executable file (build it with "
             "`cargo build --release`, or pass --gcnsmt PATH)")
    return path


def resolve_args(args, own):
    """The arguments for the tasks: every file or directory argument absolute and existing,
    path-valued options absolute, none of the options the driver sets itself."""
    out = []
    i = 0
    while i < len(args):
        x = args[i]
        i += 1
        if not x.startswith("-") or x == "-":
            path = os.path.abspath(x)
            if not os.path.exists(path):
                fail(f"{path}: no such file or directory")
            out.append(path)
            continue
        name, eq, value = x.partition("=")
        if name in own:
            fail(f"{name}: the driver sets it for each task; leave it out of the arguments "
                 "after --")
        if not eq and name not in FLAGS:
            if i == len(args):
                fail(f"{name}: needs a value")
            value = args[i]
            i += 1
        # `--llc llc-22` names a program on PATH; `--llc ./llc` and `--emit-smt2 DIR` paths.
        if name == "--emit-smt2" or (name in PATH_OPTIONS and os.sep in value):
            value = os.path.abspath(value)
        if eq:
            out.append(f"{name}={value}")
        elif name in FLAGS:
            out.append(name)
        else:
            out += [name, value]
    return out


def resolve(a):
    """Absolute, checked paths: the Ray tasks run in other working directories (and machines),
    where a relative path names nothing."""
    a.gcnsmt = find_gcnsmt(a.gcnsmt)
    if a.cache:
        a.cache = os.path.abspath(a.cache)
        if os.path.exists(a.cache) and not os.path.isdir(a.cache):
            fail(f"--cache {a.cache}: exists and is not a directory")
    if a.out:
        a.out = os.path.abspath(a.out)
        if os.path.exists(a.out) and not os.path.isdir(a.out):
            fail(f"--out {a.out}: exists and is not a directory")
    a.verify_args = resolve_args(a.verify_args, OWN_TV if a.tv else OWN)


def list_checks(gcnsmt, verify_args):
    """The run's checks, as `verify --list --format json` prints them; exits 2 on failure."""
    r = subprocess.run([gcnsmt, "verify", *verify_args, "--list", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode or 2)
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def tv_jobs(a):
    """The jobs `tv_llvm_tests.py plan` makes of the files (exits 2 on failure)."""
    env = dict(os.environ, GCNSMT=a.gcnsmt)
    r = subprocess.run([sys.executable, TV_SCRIPT, "plan", *a.verify_args],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(2)
    return [line for line in r.stdout.splitlines() if line.startswith("{")]


def session_members(sid):
    """The live processes of session SID (Linux /proc), zombies aside."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name (field 2) may hold spaces and parentheses: split after its end.
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            pids.append(int(name))
    return pids


def sweep(sid):
    """Kill every process left in session SID: the Ray process and what it started (Ray's
    daemons, workers, gcnsmt). Ray's shutdown leaves some (its dashboard and runtime-env agents
    outlive the raylet), and a Ray process stuck in a connection loop stops nothing."""
    if not os.path.isdir("/proc"):
        try:
            os.killpg(sid, signal.SIGKILL)
        except OSError:
            pass
        return
    for sig, pause in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 2.0)):
        pids = session_members(sid)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        end = time.monotonic() + pause
        while pids and time.monotonic() < end:
            time.sleep(0.1)
            pids = session_members(sid)
        if not pids:
            return


def supervise(argv, count):
    """Run the Ray part in a child process of its own session and stop it, and everything it
    started, when it ends or on SIGTERM/SIGINT/SIGHUP. A Python signal handler runs only when
    the main thread runs Python code, and ray.init can sit in C++ for minutes (a cluster that
    does not answer); the supervisor only waits, so it always can. Exit status: the child's,
    or 128 + the signal's number."""
    env = dict(os.environ, **{CHILD_ENV: str(count)})
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__), *argv], env=env,
                             start_new_session=True)
    got = []

    def on_signal(signum, _frame):
        got.append(signum)
        try:
            os.kill(child.pid, signal.SIGTERM)
        except OSError:
            pass

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)
    deadline = None
    while child.poll() is None:
        if got and deadline is None:
            deadline = time.monotonic() + GRACE_S
        if deadline is not None and time.monotonic() > deadline:
            break
        try:
            child.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
    sweep(child.pid)
    code = child.wait()
    if got:
        print(f"ray_verify: stopped by signal {got[0]}", file=sys.stderr)
        return 128 + got[0]
    return code if code >= 0 else 128 - code


def die_with_parent():
    """Linux: get SIGTERM when the supervisor dies, even by SIGKILL, so that no cluster is left
    running for nobody."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        sys.exit(143)


def start_ray(ray, a):
    """ray.init: a new local cluster unless --address (never a cluster an earlier `ray start`
    or RAY_ADDRESS names, which may be long dead); the cluster's CPUs. A cluster that cannot
    be reached is one error line, exit 2."""
    where = f"the Ray cluster at {a.address}" if a.address else "a local Ray cluster"
    print(f"ray_verify: {'connecting to' if a.address else 'starting'} {where}",
          file=sys.stderr, flush=True)
    try:
        ray.init(address=a.address or "local", include_dashboard=False,
                 logging_level="ERROR", log_to_driver=False)
    except Exception as e:  # ConnectionError, AuthenticationError, RuntimeError, ...
        causes = [e]
        while causes[-1].__cause__ is not None and len(causes) < 8:
            causes.append(causes[-1].__cause__)
        hint = ""
        # Ray 2.60 puts the AuthenticationError into the text of the RuntimeError it chains.
        text = " ".join(f"{type(c).__name__}: {c}" for c in causes)
        if "AuthenticationError" in text or "InvalidAuthToken" in text:
            hint = ("; it uses token authentication: set RAY_AUTH_MODE=token and give its "
                    "token (~/.ray/auth_token or RAY_AUTH_TOKEN), docs/scale-out.md")
        first = (str(e).strip().splitlines() or [""])[0]
        fail(f"cannot start or reach {where}: {type(e).__name__}: {first}{hint}")
    # ray.init installs its own SIGTERM handler (exit status 15); ours unwinds through the
    # callers' `finally: ray.shutdown()`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    return int(ray.cluster_resources().get("CPU", 1))


def run_shard(gcnsmt, verify_args, k, n, cache, threads):
    """One shard's JSON Lines (stdout), exit status and stderr."""
    cmd = [gcnsmt, "verify", *verify_args, "--shard", f"{k}/{n}", "--format", "json"]
    if cache:
        cmd += ["--cache", cache]
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return r.stdout, r.returncode, r.stderr


def run_tv_shard(gcnsmt, tv_args, k, n, out):
    """One shard of `tv_llvm_tests.py run`: its results land in OUT/sK (a shared directory)."""
    cmd = [sys.executable, TV_SCRIPT, "run", "--shard", f"{k}/{n}", "--out",
           os.path.join(out, f"s{k}"), "--gcnsmt", gcnsmt, *tv_args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr


def main_tv(a, ray, jobs):
    """`--tv`: the tv jobs over Ray tasks, then one merged table (exit 0, or 2 if a shard
    failed to run)."""
    out = a.out or tempfile.mkdtemp(prefix="gcnsmt-ray-tv-")
    try:
        cpus = start_ray(ray, a)
        n = max(1, min(a.shards or 4 * max(1, cpus // a.cpus_per_task), jobs or 1))
        print(f"ray_verify: {jobs} tv jobs in {n} shards on {cpus} CPUs, results in {out}",
              file=sys.stderr, flush=True)
        task = ray.remote(num_cpus=a.cpus_per_task)(run_tv_shard)
        outs = ray.get([task.remote(a.gcnsmt, a.verify_args, k, n, out)
                        for k in range(1, n + 1)])
    finally:
        ray.shutdown()
    code = 0
    for k, (rc, err) in enumerate(outs, start=1):
        if rc != 0:
            sys.stderr.write(f"shard {k}/{n}: exit {rc}: {err}")
            code = 2
    dirs = [os.path.join(out, f"s{k}") for k in range(1, n + 1)
            if os.path.isdir(os.path.join(out, f"s{k}"))]
    r = subprocess.run([sys.executable, TV_SCRIPT, "merge", *dirs], capture_output=True,
                       text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if not a.out:
        shutil.rmtree(out, ignore_errors=True)
    return code or (2 if r.returncode else 0)


def main_verify(a, ray, checks):
    """The verify shards over Ray tasks, merged by `gcnsmt merge` (its output and exit)."""
    try:
        cpus = start_ray(ray, a)
        n = a.shards or 4 * max(1, cpus // a.cpus_per_task)
        n = max(1, min(n, checks, 65536))
        print(f"ray_verify: {checks} checks in {n} shards on {cpus} CPUs", file=sys.stderr,
              flush=True)
        task = ray.remote(num_cpus=a.cpus_per_task)(run_shard)
        futures = [task.remote(a.gcnsmt, a.verify_args, k, n, a.cache, a.cpus_per_task)
                   for k in range(1, n + 1)]
        outs = ray.get(futures)
    finally:
        ray.shutdown()
    with tempfile.TemporaryDirectory(prefix="gcnsmt-ray-") as d:
        files = []
        for k, (out, code, err) in enumerate(outs, start=1):
            # A shard that stopped before its summary is reported by merge (no summary line).
            if code not in (0, 1, 2, 3) or err.strip().startswith("error:"):
                sys.stderr.write(f"shard {k}/{n}: exit {code}: {err}")
            path = os.path.join(d, f"shard-{k}.jsonl")
            with open(path, "w") as f:
                f.write(out)
            files.append(path)
        r = subprocess.run([a.gcnsmt, "merge", *files], capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


def main(argv):
    # Until the supervisor's handler is in place: SIGTERM ends the run (nothing of Ray yet).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    a = parse_args(argv)
    resolve(a)
    child = os.environ.pop(CHILD_ENV, None)
    if child is not None:
        die_with_parent()
        import ray  # the supervisor checked that it is importable

        return main_tv(a, ray, int(child)) if a.tv else main_verify(a, ray, int(child))
    # Everything that can be checked without Ray is checked before Ray starts.
    count = len(tv_jobs(a)) if a.tv else len(list_checks(a.gcnsmt, a.verify_args))
    if importlib.util.find_spec("ray") is None:
        fail(f"Python's ray is not importable by {sys.executable}: install it in a virtual "
             "environment (python3 -m venv ~/ray; ~/ray/bin/pip install ray) and run this "
             "script with ~/ray/bin/python3")
    return supervise(argv, count)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
