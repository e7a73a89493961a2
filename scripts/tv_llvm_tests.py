#!/usr/bin/env python3
"""Run `gcnsmt tv` over LLVM's own AMDGPU CodeGen tests as their RUN lines spell them.

    tv_llvm_tests.py plan  FILE|DIR...                     the jobs, one JSON object a line
    tv_llvm_tests.py run   [--shard K/N] --out DIR [opts] FILE|DIR...
    tv_llvm_tests.py merge DIR...                          the tables of one or more runs

A test is read from a local copy (never from this repository: LLVM's tests are not copied
into it). Its RUN lines give the job:
- a `.mir` file whose RUN line runs passes (`-run-pass=P1,P2`, `-run-pass P`, `-passes=P`,
  or `-start-before P`) is `gcnsmt tv --pass P1,P2 FILE` on that line's processors;
- a `.ll` file is `gcnsmt tv --pipeline FILE --until UNTIL` (default `si-form-memory-clauses`,
  the last pass before register allocation that tv checks) on its RUN lines' processors.
Processors come from `-mcpu=NAME` (any name LLVM has: `tahiti`, `fiji`, `gfx902`, ...) or from
LLVM main's folded triples (`-mtriple=amdgpu9.00-amd-amdhsa`, `amdgpu9.0a`, `amdgpu12.50`),
both resolved by `gcnsmt` itself (`Target::parse`); a RUN line with neither is llc's default
processor for amdgcn, which is tahiti (gfx600). A RUN line for another target (r600), GlobalISel,
or a tool other than llc is skipped. The `-mattr` and `-amdgpu-*` options of a RUN line are
passed on to llc; RUN lines that differ only in processor are one job per processor.

Each job is one target of one (file, options) pair, so `--shard K/N` (jobs K, K+N, ...) splits
the run evenly over machines; `merge` reads the output directories of all shards. A test
written for a newer LLVM than llc-22 is respelled in a scratch copy, not edited: register
tuples `$sgpr10_64` / `$sgpr0_128` become `$sgpr10_sgpr11` / `$sgpr0_sgpr1_sgpr2_sgpr3`.
"""

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time

UNTIL = "si-form-memory-clauses"
# Targets every `.ll` test also runs on (`--ll-targets`), besides its RUN lines' processors.
LL_TARGETS = []


def run_lines(text):
    """The RUN commands of a test, continuation lines (`\\` at the end) joined."""
    out, cur = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*[;#/]+\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        body = m.group(1).rstrip()
        if body.endswith("\\"):
            cur += body[:-1] + " "
            continue
        out.append(cur + body)
        cur = ""
    return out


def llc_part(cmd):
    """The llc invocation of a RUN command (before the first pipe), or None."""
    first = cmd.split("|")[0].strip()
    toks = first.split()
    if not toks or toks[0] not in ("llc", "%llc", "not"):
        return None
    if toks[0] == "not":
        return None  # a RUN line that expects llc to fail
    return toks[1:]


def option(toks, name):
    """The value of `-name=V`, `--name=V` or `-name V`."""
    for i, t in enumerate(toks):
        for p in (f"-{name}=", f"--{name}="):
            if t.startswith(p):
                return t[len(p):]
        if t in (f"-{name}", f"--{name}") and i + 1 < len(toks):
            return toks[i + 1]
    return None


def processor(toks):
    """The RUN line's processor name as written, or None for another architecture."""
    cpu = option(toks, "mcpu")
    triple = option(toks, "mtriple") or ""
    march = option(toks, "march") or ""
    arch = triple.split("-")[0] or march
    if arch.startswith("r600") or march == "r600":
        return None
    if cpu:
        return cpu
    if re.match(r"amdgpu\d+\.[0-9a-f]{2}$", arch):
        return arch  # a folded triple: gcnsmt reads `amdgpu9.00` as gfx900
    if arch in ("amdgcn", ""):
        return "tahiti"  # llc's default amdgcn processor
    return None


def llc_extra(toks):
    """The options of a RUN line that change what llc generates, to pass on."""
    keep = []
    for t in toks:
        if t.startswith(("-mattr=", "--mattr=", "-amdgpu-", "--amdgpu-", "-O", "-enable-misched",
                         "-enable-aa-sched-mi", "-misched=")):
            keep.append(t)
    return keep


def passes(toks):
    """The machine passes a `.mir` RUN line runs, as one `-run-pass` list, or None."""
    for name in ("run-pass", "passes"):
        v = option(toks, name)
        if v:
            return v
    return option(toks, "start-before")


def jobs_of(path):
    """The jobs of one test file, and why lines were skipped."""
    text = open(path, errors="replace").read()
    jobs, skipped = {}, []
    for cmd in run_lines(text):
        toks = llc_part(cmd)
        if toks is None:
            skipped.append(("not an llc run", cmd))
            continue
        if any(t.startswith(("-global-isel", "--global-isel")) and not t.endswith(("=0", "=false"))
               for t in toks):
            skipped.append(("GlobalISel", cmd))
            continue
        cpu = processor(toks)
        if cpu is None:
            skipped.append(("not amdgcn", cmd))
            continue
        extra = llc_extra(toks)
        if path.endswith(".mir"):
            p = passes(toks)
            if not p:
                skipped.append(("no -run-pass", cmd))
                continue
            key = ("pass", p, tuple(extra))
        else:
            if option(toks, "stop-after") or option(toks, "stop-before"):
                skipped.append(("stops the pipeline", cmd))
                continue
            key = ("pipeline", UNTIL, tuple(extra))
        jobs.setdefault(key, [])
        if cpu not in jobs[key]:
            jobs[key].append(cpu)
    if not path.endswith(".mir") and jobs:
        # Issue 28's measure: every .ll also on these targets, with no RUN-line options.
        for cpu in LL_TARGETS:
            jobs.setdefault(("pipeline", UNTIL, ()), [])
            if cpu not in jobs[("pipeline", UNTIL, ())]:
                jobs[("pipeline", UNTIL, ())].append(cpu)
    out = []
    for (mode, p, extra), cpus in jobs.items():
        by_target = {}
        for cpu in cpus:
            t = resolve(cpu)
            if t in by_target and cpu not in by_target[t]:
                by_target[t].append(cpu)
                continue
            if t is None:
                skipped.append(("not a gcnsmt target", cpu))
            else:
                by_target.setdefault(t, []).append(cpu)
        for t, names in by_target.items():
            out.append({"file": os.path.abspath(path), "mode": mode, "pass": p,
                        "extra": list(extra), "cpu": t, "run_line_names": names})
    return out, skipped


GCNSMT = os.environ.get("GCNSMT", "gcnsmt")
# A pass's place in llc's pipeline (its `index` in `tv --pipeline` records), to print the
# merged table in pipeline order whatever order the shards' files are read in.
ORDER = {}
_RESOLVED = {}


def resolve(name):
    """gcnsmt's target for an LLVM processor name or folded triple (`gcnsmt targets`), so
    that the names are mapped in one place, the Rust `Target::parse`."""
    if name not in _RESOLVED:
        r = subprocess.run([GCNSMT, "targets", name], capture_output=True, text=True)
        _RESOLVED[name] = r.stdout.split()[1] if r.returncode == 0 else None
    return _RESOLVED[name]


def test_files(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith((".ll", ".mir")):
                    yield os.path.join(a, n)
        else:
            yield a


def plan(args):
    jobs = []
    for f in test_files(args):
        js, _ = jobs_of(f)
        jobs.extend(js)
    return jobs


def job_id(j):
    key = json.dumps(j, sort_keys=True)
    base = os.path.basename(j["file"])
    return f"{base}.{j['mode']}.{j['cpu']}.{hashlib.sha1(key.encode()).hexdigest()[:8]}"


def respell(text):
    """llc-22 spellings of names a newer LLVM writes differently (register tuples)."""
    def tup(m):
        kind, first, bits = m.group(1), int(m.group(2)), int(m.group(3))
        n = bits // 32
        return "$" + "_".join(f"{kind}{first + i}" for i in range(n))
    return re.sub(r"\$(sgpr|vgpr|agpr|ttmp)(\d+)_(64|96|128|160|192|256|512|1024)\b", tup, text)


def run_job(j, out, gcnsmt, llc, timeout):
    jid = job_id(j)
    src = j["file"]
    text = open(src, errors="replace").read()
    fixed = respell(text)
    if fixed != text:
        src = os.path.join(out, "respelled", os.path.basename(j["file"]))
        os.makedirs(os.path.dirname(src), exist_ok=True)
        open(src, "w").write(fixed)
    keep = os.path.join(out, "mir", jid)
    cmd = [gcnsmt, "tv", "--format", "json", "--llc", llc, "--target", j["cpu"],
           "--timeout", str(timeout), "--keep-mir", keep]
    if j["mode"] == "pass":
        cmd += ["--pass", j["pass"], src]
    else:
        cmd += ["--pipeline", "--until", j["pass"], src]
    if j["extra"]:
        cmd += ["--", *j["extra"]]
    t0 = time.time()
    with open(os.path.join(out, jid + ".jsonl"), "w") as fo, \
            open(os.path.join(out, jid + ".err"), "w") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
    meta = dict(j, id=jid, exit=os.waitstatus_to_exitcode(status), wall_s=time.time() - t0,
                max_rss_kb=ru.ru_maxrss, cmd=cmd)
    with open(os.path.join(out, jid + ".meta.json"), "w") as f:
        json.dump(meta, f)
    return meta


def cmd_run(a):
    jobs = plan(a.files)
    k, n = (int(x) for x in a.shard.split("/"))
    if not 1 <= k <= n:
        sys.exit(f"error: --shard {a.shard}: need 1 <= K <= N")
    mine = [j for i, j in enumerate(jobs) if i % n == k - 1]
    os.makedirs(a.out, exist_ok=True)
    for i, j in enumerate(mine, 1):
        m = run_job(j, a.out, a.gcnsmt, a.llc, a.timeout)
        print(f"[{i}/{len(mine)}] {m['id']}: exit {m['exit']}, {m['wall_s']:.1f}s, "
              f"{m['max_rss_kb'] // 1024} MB", file=sys.stderr)
    return 0


def block_records(path, meta):
    """(pass, target, block record) for every changed block of one job's output; a job that
    printed nothing is one `error` with its first stderr line."""
    if os.path.getsize(path) == 0:
        err = open(path[: -len(".jsonl")] + ".err").read().strip().splitlines()
        yield meta["pass"], meta["cpu"], {"verdict": "error", "function": "", "block": "",
                                          "reason": err[0] if err else f"exit {meta['exit']}"}
        return
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("type") == "block" and (r.get("changed") or r.get("verdict") == "error"):
            yield meta["pass"], r.get("target", meta["cpu"]), r
        elif r.get("type") == "pass":
            ORDER.setdefault(r["pass"], r.get("index", 0))
            for b in r.get("blocks", []):
                yield r["pass"], r["target"], b
            if r.get("error") and r.get("reason"):
                # A pair llc could not produce or tv could not read: one `error` for the pass
                # (the errors of single blocks are among its blocks).
                yield r["pass"], r["target"], {"verdict": "error", "reason": r.get("reason"),
                                               "function": "", "block": "", "time_ms": 0}


def cmd_merge(a):
    rows, refs, reasons, metas = {}, [], {}, []
    for d in a.dirs:
        for n in sorted(os.listdir(d)):
            if not n.endswith(".meta.json"):
                continue
            meta = json.load(open(os.path.join(d, n)))
            if a.mode and meta["mode"] != a.mode:
                continue
            metas.append(meta)
            jl = os.path.join(d, meta["id"] + ".jsonl")
            for p, t, b in block_records(jl, meta):
                r = rows.setdefault(p, {"changed": 0, "times": []})
                v = b["verdict"]
                r[v] = r.get(v, 0) + 1
                if v != "error":
                    r["changed"] += 1
                    r["times"].append(b.get("time_ms", 0))
                fn = os.path.basename(meta["file"])
                if v in ("refuted", "unknown"):
                    refs.append((v, fn, p, t, b.get("function"), b.get("block"), b.get("reason")))
                if v in ("unsupported", "error"):
                    why = normalise(b.get("reason") or "")
                    reasons.setdefault((v, why), []).append(f"{fn}:{b.get('function')}")
    kinds = ["proved", "refuted", "unknown", "unsupported", "inapplicable", "error"]
    print("| pass | changed | " + " | ".join(kinds) + " | median ms | p99 ms |")
    print("|---|" + "---:|" * (len(kinds) + 3))
    total = {"changed": 0, "times": []}
    for p, r in rows.items():
        total["changed"] += r["changed"]
        total["times"] += r["times"]
        for k in kinds:
            total[k] = total.get(k, 0) + r.get(k, 0)
    ordered = sorted(rows.items(), key=lambda kv: (ORDER.get(kv[0], 0), kv[0]))
    for p, r in ordered + [("**total**", total)]:
        ts = sorted(r["times"])
        med = statistics.median(ts) if ts else 0
        p99 = ts[min(len(ts) - 1, int(len(ts) * 0.99))] if ts else 0
        print(f"| `{p}` | {r['changed']} | " + " | ".join(str(r.get(k, 0)) for k in kinds)
              + f" | {med:.0f} | {p99:.0f} |")
    files = sorted({os.path.basename(m["file"]) for m in metas})
    rss = max((m["max_rss_kb"] for m in metas), default=0)
    wall = sum(m["wall_s"] for m in metas)
    print(f"\n{len(files)} files, {len(metas)} jobs (file x options x target), "
          f"{wall:.0f} s summed wall time, peak RSS {rss // 1024} MB (one gcnsmt process)")
    print("\nrefuted and unknown blocks:")
    for r in sorted(refs, key=lambda x: [str(v) for v in x]):
        print("  " + " ".join(str(x) for x in r))
    print("\nunsupported and error reasons, by blocks:")
    for (v, why), where in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {len(where):5} {v}: {why}  (e.g. {min(where)})")
    return 0


def normalise(reason):
    """A reason without register numbers, so that equal causes count together."""
    reason = str(reason or "")
    r = re.sub(r"%\d+", "%N", reason.splitlines()[0] if reason else "")
    r = re.sub(r"^\S+\.mir:\d+:\d+: ", "", r)
    r = re.sub(r"bb\.\d+", "bb.N", r)
    return r[:160]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("plan")
    pl.add_argument("--skipped", action="store_true", help="also print the RUN lines skipped")
    pl.add_argument("--ll-targets", default="", help="targets every .ll also runs on")
    pl.add_argument("files", nargs="+")
    r = sub.add_parser("run")
    r.add_argument("--shard", default="1/1")
    r.add_argument("--out", required=True)
    r.add_argument("--gcnsmt", default="gcnsmt")
    r.add_argument("--llc", default="llc-22")
    r.add_argument("--timeout", type=float, default=20.0)
    r.add_argument("--ll-targets", default="",
                   help="targets every .ll also runs on (issue 28: gfx900,gfx90a,gfx1100,gfx1200)")
    r.add_argument("files", nargs="+")
    m = sub.add_parser("merge")
    m.add_argument("--mode", choices=["pass", "pipeline"], default=None,
                   help="only the .mir (`tv --pass`) or only the .ll (`tv --pipeline`) jobs")
    m.add_argument("dirs", nargs="+")
    a = p.parse_args(argv)
    global GCNSMT, LL_TARGETS
    if a.cmd == "run":
        GCNSMT = a.gcnsmt
    if a.cmd in ("run", "plan"):
        LL_TARGETS = [t for t in a.ll_targets.split(",") if t]
    if a.cmd == "plan":
        for f in test_files(a.files):
            js, skipped = jobs_of(f)
            for j in js:
                print(json.dumps(j))
            if a.skipped:
                for why, what in skipped:
                    print(f"skipped {os.path.basename(f)}: {why}: {what}", file=sys.stderr)
        return 0
    if a.cmd == "run":
        return cmd_run(a)
    return cmd_merge(a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
