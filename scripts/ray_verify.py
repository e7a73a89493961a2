#!/usr/bin/env python3
"""Run `gcnsmt verify` on a Ray cluster: one Ray task per shard, one shared result cache,
merged by `gcnsmt merge` into the report, summary and exit code of the unsharded run.

    python3 scripts/ray_verify.py [--gcnsmt BIN] [--shards N] [--cache DIR]
        [--address ADDR] [--cpus-per-task C] -- VERIFY-ARGS...

VERIFY-ARGS are `gcnsmt verify`'s (paths, --target, --timeout, --set, ...), without
--format, --shard or --cache. The driver lists the checks (`verify --list --format json`),
picks N shards (default: four per CPU of the cluster, at most one per check), runs shard K
as `gcnsmt verify VERIFY-ARGS --shard K/N --format json --cache DIR` in a Ray task, writes
each shard's JSON Lines into a temporary directory and runs `gcnsmt merge` on them. stdout
is the merged JSON Lines; the exit status is merge's (0 proved or as expected, 1 refuted,
2 error, 3 unknown).

Without --address, ray.init() starts a local cluster for the run (and stops it after). On a
multi-machine cluster (`ray start --head` on one machine, `ray start --address HEAD:6379` on
the others, see docs/scale-out.md) the gcnsmt binary, the rule files and the cache directory
must be at the same paths on every machine (a shared file system); the cache may be shared,
since entries are written to a temporary file and renamed into place.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gcnsmt", default="gcnsmt", help="the gcnsmt binary (same path on every node)")
    p.add_argument("--shards", type=int, default=0, help="number of shards (default: 4 per cluster CPU)")
    p.add_argument("--cache", default=None, help="result cache directory shared by the tasks")
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local cluster)")
    p.add_argument("--cpus-per-task", type=int, default=1, help="CPUs (gcnsmt threads) per task")
    p.add_argument("verify_args", nargs=argparse.REMAINDER, help="-- then gcnsmt verify's arguments")
    a = p.parse_args(argv)
    if a.verify_args and a.verify_args[0] == "--":
        a.verify_args = a.verify_args[1:]
    if not a.verify_args:
        p.error("give gcnsmt verify's arguments after --")
    return a


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


def main(argv):
    a = parse_args(argv)
    import ray  # imported here so that --help works without Ray

    checks = list_checks(a.gcnsmt, a.verify_args)
    ray.init(address=a.address, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
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
