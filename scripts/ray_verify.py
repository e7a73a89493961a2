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
cluster some earlier `ray start` left behind) and stops it after, also on SIGTERM. Paths
(--gcnsmt, --cache, and the files and directories among VERIFY-ARGS) are made absolute and
checked before Ray starts: a bad one is one error line, exit 2. --gcnsmt defaults to `gcnsmt`
on PATH, else this repository's target/release/gcnsmt. On a
multi-machine cluster (`ray start --head` on one machine, `ray start --address HEAD:6379` on
the others, see docs/scale-out.md) the gcnsmt binary, the rule files and the cache directory
must be at the same paths on every machine (a shared file system); the cache may be shared,
since entries are written to a temporary file and renamed into place.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gcnsmt", default=None,
                   help="the gcnsmt binary (same path on every node; default: gcnsmt on PATH, "
                        "else target/release/gcnsmt of this repository)")
    p.add_argument("--shards", type=int, default=0, help="number of shards (default: 4 per cluster CPU)")
    p.add_argument("--cache", default=None, help="result cache directory shared by the tasks")
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local cluster)")
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
    return a


def fail(msg):
    """One error line, exit 2 (an input error, as gcnsmt's)."""
    sys.stderr.write(f"ray_verify: error: {msg}\n")
    sys.exit(2)


def resolve(a):
    """Absolute, checked paths: the Ray tasks run in other working directories (and machines),
    where a relative path names nothing."""
    if a.gcnsmt is None:
        built = os.path.join(REPO, "target", "release", "gcnsmt")
        a.gcnsmt = shutil.which("gcnsmt") or built
    elif os.sep not in a.gcnsmt:
        a.gcnsmt = shutil.which(a.gcnsmt) or a.gcnsmt
    a.gcnsmt = os.path.abspath(a.gcnsmt)
    if not (os.path.isfile(a.gcnsmt) and os.access(a.gcnsmt, os.X_OK)):
        fail(f"--gcnsmt {a.gcnsmt}: not an executable file (build it with "
             "`cargo build --release`, or pass --gcnsmt PATH)")
    if a.cache:
        a.cache = os.path.abspath(a.cache)
        if os.path.exists(a.cache) and not os.path.isdir(a.cache):
            fail(f"--cache {a.cache}: exists and is not a directory")
    # Options' values (`--target gfx900`) are no paths; an argument naming an existing file or
    # directory is one.
    a.verify_args = [os.path.abspath(x) if not x.startswith("-") and os.path.exists(x) else x
                     for x in a.verify_args]


def list_checks(gcnsmt, verify_args):
    """The run's checks, as `verify --list --format json` prints them; exits 2 on failure."""
    r = subprocess.run([gcnsmt, "verify", *verify_args, "--list", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode or 2)
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def run_shard(gcnsmt, verify_args, k, n, cache, threads):
    """One shard's JSON Lines (stdout), exit status and stderr."""
    cmd = [gcnsmt, "verify", *verify_args, "--shard", f"{k}/{n}", "--format", "json"]
    if cache:
        cmd += ["--cache", cache]
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return r.stdout, r.returncode, r.stderr


TV_SCRIPT = os.path.join(REPO, "scripts", "tv_llvm_tests.py")


def tv_jobs(a):
    """How many jobs `tv_llvm_tests.py plan` makes of the files (exits 2 on failure)."""
    env = dict(os.environ, GCNSMT=a.gcnsmt)
    r = subprocess.run([sys.executable, TV_SCRIPT, "plan", *a.verify_args],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(2)
    return [line for line in r.stdout.splitlines() if line.startswith("{")]


def run_tv_shard(gcnsmt, tv_args, k, n, out):
    """One shard of `tv_llvm_tests.py run`: its results land in OUT/sK (a shared directory)."""
    cmd = [sys.executable, TV_SCRIPT, "run", "--shard", f"{k}/{n}", "--out",
           os.path.join(out, f"s{k}"), "--gcnsmt", gcnsmt, *tv_args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr


def main_tv(a, ray):
    """`--tv`: the tv jobs over Ray tasks, then one merged table (exit 0, or 2 if a shard
    failed to run)."""
    jobs = tv_jobs(a)
    out = os.path.abspath(a.out) if a.out else tempfile.mkdtemp(prefix="gcnsmt-ray-tv-")
    ray.init(address=a.address or "local", include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        n = max(1, min(a.shards or 4 * max(1, cpus // a.cpus_per_task), len(jobs) or 1))
        task = ray.remote(num_cpus=a.cpus_per_task)(run_tv_shard)
        outs = ray.get([task.remote(a.gcnsmt, a.verify_args, k, n, out)
                        for k in range(1, n + 1)])
    finally:
        ray.shutdown()
    print(f"ray_verify: {len(jobs)} tv jobs in {n} shards on {cpus} CPUs, results in {out}",
          file=sys.stderr)
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


def main(argv):
    a = parse_args(argv)
    resolve(a)
    import ray  # imported here so that --help and the path checks work without Ray

    if a.tv:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        return main_tv(a, ray)

    checks = list_checks(a.gcnsmt, a.verify_args)
    # SIGTERM ends the run through the `finally` below, which stops the local cluster.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ray.init(address=a.address or "local", include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        n = a.shards or 4 * max(1, cpus // a.cpus_per_task)
        n = max(1, min(n, len(checks), 65536))
        task = ray.remote(num_cpus=a.cpus_per_task)(run_shard)
        futures = [task.remote(a.gcnsmt, a.verify_args, k, n, a.cache, a.cpus_per_task)
                   for k in range(1, n + 1)]
        outs = ray.get(futures)
    finally:
        ray.shutdown()
    print(f"ray_verify: {len(checks)} checks in {n} shards on {cpus} CPUs", file=sys.stderr)
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
