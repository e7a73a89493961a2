#!/usr/bin/env python3
"""Run `gcnsmt waitcnt` (and `gcnsmt tv --pass si-insert-waitcnts`) over LLVM's own waitcnt
tests, as their RUN lines spell them (docs/timing.md, "LLVM's waitcnt tests").

    waitcnt_llvm_tests.py run --out DIR [--gcnsmt G] [--llc L] FILE|DIR...
    waitcnt_llvm_tests.py table DIR          the per-target table and every finding

The tests are read from a local copy (never from this repository: LLVM's tests are not
copied into it; docs/timing.md records which files were read at which commit). Each RUN line
of an llc command names a processor (`-mcpu=`, or LLVM main's folded triple
`-mtriple=amdgpu9.00-amd-amdhsa`); the RUN line parsing is tv_llvm_tests.py's. A job is one
(file, RUN-line options, processor):
- `.mir`: `llc -run-pass P` with the RUN line's passes P; when P does not end the wait
  insertion (`si-memory-legalizer` tests) `si-insert-waitcnts` is appended, since `gcnsmt
  waitcnt` checks final code and the legalizer's tests carry no waits of their own. Then
  `gcnsmt waitcnt` on llc's MIR; where P is `si-insert-waitcnts` also `gcnsmt tv --pass
  si-insert-waitcnts FILE` (before = the test's input, after = llc's output).
- `.ll`: `llc` to assembly, then `gcnsmt waitcnt` on the `.s`.
A test written for a newer LLVM is respelled in a scratch copy (tv_llvm_tests.py's register
tuples; LDS-DMA operands, `respell_lds`); RUN lines for gfx940 run on gfx942 (llc-22 lacks it).
gfx6-gfx8 (no GLOBAL instructions: llc uses FLAT for global pointers) run with
`--set flat-lds=never`, as in docs/timing.md "Our kernels"; the other targets with the default
(`flat-lds=may`). Every job writes DIR/JOB.json (commands, exit codes, gcnsmt's JSON).
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tv_llvm_tests as tvl  # noqa: E402  (RUN-line parsing and register respelling)

SIX = ["gfx900", "gfx90a", "gfx942", "gfx1100", "gfx1200", "gfx1250"]
OLD = ("gfx600", "gfx700", "gfx802")  # gcnsmt's profiles without GLOBAL instructions


def llc_cpu(name):
    """The -mcpu name llc-22 takes for a RUN line's processor: folded triples unfolded;
    gfx940/gfx941, which LLVM 22 no longer has (llc-22 warns and emits gfx000 code), as
    gfx942, the processor gcnsmt resolves them to."""
    m = re.match(r"amdgpu(\d+)\.([0-9a-f]{2})$", name)
    name = f"gfx{m.group(1)}{m.group(2)}" if m else name
    return "gfx942" if name in ("gfx940", "gfx941") else name


def respell_lds(text):
    """LLVM main's LDS-DMA MIR has one more trailing immediate on BUFFER_*_LDS_* and
    GLOBAL_LOAD_LDS_* than llc-22 reads ("Extra explicit operand"): drop the last one."""
    return re.sub(r"((?:BUFFER_LOAD_\w+_LDS_\w+|GLOBAL_LOAD_LDS_\w+) [^\n]*?), -?\d+(, implicit)",
                  r"\1\2", text)


def llc_triple(toks):
    """amdgcn with the RUN line's OS (amdhsa, amdpal), which changes the kernel ABI."""
    t = tvl.option(toks, "mtriple") or ""
    parts = t.split("-")
    os_ = next((p for p in parts[1:] if p in ("amdhsa", "amdpal", "mesa3d")), "")
    return "amdgcn-amd-" + os_ if os_ else "amdgcn"


def jobs_of(path):
    text = open(path, errors="replace").read()
    jobs, skipped = {}, []
    for cmd in tvl.run_lines(text):
        toks = tvl.llc_part(cmd)
        if toks is None:
            skipped.append(("not an llc run", cmd))
            continue
        cpu = tvl.processor(toks)
        if cpu is None:
            skipped.append(("not amdgcn", cmd))
            continue
        target = tvl.resolve(cpu)
        if target is None:
            skipped.append(("not a gcnsmt target", cmd))
            continue
        extra = tvl.llc_extra(toks)
        passes = tvl.passes(toks) if path.endswith(".mir") else None
        if path.endswith(".mir") and not passes:
            skipped.append(("no -run-pass", cmd))
            continue
        key = (target, passes, tuple(extra), llc_triple(toks))
        jobs.setdefault(key, llc_cpu(cpu))
    out = [{"file": os.path.abspath(path), "target": t, "cpu": c, "passes": p,
            "extra": list(e), "triple": tr} for (t, p, e, tr), c in jobs.items()]
    return out, skipped


def run(cmd, timeout=300):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


def run_job(j, out, gcnsmt, llc):
    base = os.path.basename(j["file"])
    key = json.dumps([j["passes"], j["extra"], j["triple"]])
    jid = f"{base}.{j['target']}.{hashlib.sha1(key.encode()).hexdigest()[:8]}"
    src = j["file"]
    text = open(src, errors="replace").read()
    fixed = respell_lds(tvl.respell(text))
    if fixed != text:
        src = os.path.join(out, "respelled", base)
        os.makedirs(os.path.dirname(src), exist_ok=True)
        open(src, "w").write(fixed)
    rec = dict(j, id=jid)
    llc_cmd = [llc, f"-mtriple={j['triple']}", f"-mcpu={j['cpu']}", *j["extra"]]
    if j["passes"] is not None:
        p = j["passes"]
        if "si-insert-waitcnts" not in p.split(","):
            p += ",si-insert-waitcnts"
        outf = os.path.join(out, jid + ".out.mir")
        llc_cmd += [f"-run-pass={p}", src, "-o", outf]
    else:
        outf = os.path.join(out, jid + ".s")
        llc_cmd += [src, "-o", outf]
    rec["llc"] = llc_cmd
    rc, _, err = run(llc_cmd)
    rec["llc_rc"] = rc
    if rc != 0:
        rec["llc_err"] = err.strip().splitlines()[:3]
        return rec
    w = [gcnsmt, "waitcnt", "--format", "json", "--target", j["target"]]
    if j["target"] in OLD:
        w += ["--set", "flat-lds=never"]
    rc, so, se = run(w + [outf])
    rec["waitcnt_rc"] = rc
    try:
        rec["waitcnt"] = json.loads(so)
    except ValueError:
        rec["waitcnt_err"] = (se or so).strip().splitlines()[:3]
    if j["passes"] is not None and j["passes"].split(",") == ["si-insert-waitcnts"]:
        t = [gcnsmt, "tv", "--format", "json", "--llc", llc, "--target", j["cpu"],
             "--pass", "si-insert-waitcnts", src]
        if j["extra"]:
            t += ["--", *j["extra"]]
        rc, so, se = run(t)
        rec["tv_rc"] = rc
        rec["tv"] = [json.loads(line) for line in so.splitlines() if line.startswith("{")]
        if not rec["tv"]:
            rec["tv_err"] = (se or so).strip().splitlines()[:3]
    return rec


def cmd_run(a):
    tvl.GCNSMT = a.gcnsmt
    os.makedirs(a.out, exist_ok=True)
    for f in tvl.test_files(a.files):
        jobs, skipped = jobs_of(f)
        for why, line in skipped:
            print(f"skip {os.path.basename(f)}: {why}: {line}", file=sys.stderr)
        for j in jobs:
            rec = run_job(j, a.out, a.gcnsmt, a.llc)
            with open(os.path.join(a.out, rec["id"] + ".json"), "w") as fo:
                json.dump(rec, fo, indent=1)
            print(summary_line(rec))


def fn_status(f):
    if f["hazards"]:
        return "hazards"
    return "unsupported" if f["unknown"] else "clean"


def summary_line(r):
    head = f"{os.path.basename(r['file'])} {r['target']}"
    if r.get("llc_rc"):
        return f"{head}: llc error: {' | '.join(r.get('llc_err', []))}"
    if "waitcnt" not in r:
        return f"{head}: waitcnt error: {' | '.join(r.get('waitcnt_err', []))}"
    fs = r["waitcnt"]["functions"]
    n = {s: sum(fn_status(f) == s for f in fs) for s in ("clean", "hazards", "unsupported")}
    tv = ""
    if "tv" in r:
        v = {}
        for rec in r["tv"]:
            if rec.get("type") == "block":
                v[rec["verdict"]] = v.get(rec["verdict"], 0) + 1
        tv = f"; tv rc {r['tv_rc']} {v or r.get('tv_err')}"
    return f"{head}: {len(fs)} functions, {n}{tv}"


def cmd_table(a):
    recs = [json.load(open(os.path.join(a.dir, n))) for n in sorted(os.listdir(a.dir))
            if n.endswith(".json")]
    rows = {}
    for r in recs:
        t = rows.setdefault(r["target"], {"files": set(), "functions": 0, "clean": 0,
                                          "hazards": 0, "unsupported": 0, "errors": 0})
        t["files"].add(os.path.basename(r["file"]))
        if "waitcnt" not in r:
            t["errors"] += 1  # one job: llc or gcnsmt rejected the file
            continue
        for f in r["waitcnt"]["functions"]:
            t["functions"] += 1
            t[fn_status(f)] += 1
    tv = {}
    for r in recs:
        for b in r.get("tv", []):
            if b.get("type") == "block":
                v = tv.setdefault(r["target"], {})
                v[b["verdict"]] = v.get(b["verdict"], 0) + 1
    order = SIX + sorted(set(rows) - set(SIX))
    print("| target | files | functions | clean | hazards | unsupported | errors (jobs) |"
          " tv blocks (si-insert-waitcnts) |")
    print("|---|---|---|---|---|---|---|---|")
    for k in order:
        if k in rows:
            t = rows[k]
            v = ", ".join(f"{n} {c}" for n, c in sorted(tv.get(k, {}).items())) or "-"
            print(f"| {k} | {len(t['files'])} | {t['functions']} | {t['clean']} | "
                  f"{t['hazards']} | {t['unsupported']} | {t['errors']} | {v} |")
    print()
    for r in recs:
        for b in r.get("tv", []):
            if b.get("type") == "block" and b["verdict"] in ("refuted", "unknown", "error"):
                print(f"TV {b['verdict'].upper()} {os.path.basename(r['file'])} {r['target']} "
                      f"{b['function']} {b['block']}: {(b.get('reason') or '')[:160]}")
    for r in recs:
        if "waitcnt" not in r:
            print(f"ERROR {summary_line(r)}")
            continue
        for f in r["waitcnt"]["functions"]:
            if fn_status(f) != "clean":
                hz = {(h["kind"], h["counter"], h["registers"]) for h in f["hazards"]}
                print(f"{fn_status(f).upper()} {os.path.basename(r['file'])} {r['target']} "
                      f"{f['name']}: {len(f['hazards'])} hazards {sorted(hz)[:4]} "
                      f"unknown {[u.get('text', u) if isinstance(u, dict) else u for u in f['unknown']][:2]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--gcnsmt", default=os.environ.get("GCNSMT", "gcnsmt"))
    r.add_argument("--llc", default="llc-22")
    r.add_argument("files", nargs="+")
    t = sub.add_parser("table")
    t.add_argument("dir")
    a = ap.parse_args()
    cmd_run(a) if a.cmd == "run" else cmd_table(a)


if __name__ == "__main__":
    main()
