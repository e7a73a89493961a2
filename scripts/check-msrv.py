#!/usr/bin/env python3
"""Check that Cargo.toml's `rust-version` is the true minimum of the locked dependencies: the
highest `rust-version` any crate in Cargo.lock declares (read from cargo's registry sources,
which `cargo fetch` fills). Exit 0 when they are equal, 1 (with both versions) otherwise, 2
when a locked crate's sources are missing. Used by .ci/run where no older toolchain can be
installed to build with."""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
lock = open(os.path.join(root, "Cargo.lock")).read()
declared = re.search(r'^rust-version\s*=\s*"([^"]+)"', open(os.path.join(root, "Cargo.toml")).read(), re.M)
if not declared:
    sys.exit("Cargo.toml declares no rust-version")
cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
registries = glob.glob(os.path.join(cargo_home, "registry", "src", "*"))
pkgs = re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"\nsource = "registry', lock)


def parse(v):
    """`1.88` and `1.88.0` alike: (1, 88, 0)."""
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


need, by = (0,), []
for name, version in pkgs:
    tomls = [p for r in registries for p in [os.path.join(r, f"{name}-{version}", "Cargo.toml")] if os.path.exists(p)]
    if not tomls:
        print(f"{name} {version}: sources not fetched (run `cargo fetch`)", file=sys.stderr)
        sys.exit(2)
    m = re.search(r'^rust-version\s*=\s*"([^"]+)"', open(tomls[0]).read(), re.M)
    if m:
        v = parse(m.group(1))
        if v > need:
            need, by = v, [f"{name} {version}"]
        elif v == need:
            by.append(f"{name} {version}")
want = ".".join(map(str, need[:2] if need[2] == 0 else need))
if parse(declared.group(1)) != need:
    print(f"Cargo.toml rust-version = {declared.group(1)}, but the locked crates need {want} ({', '.join(by)})")
    sys.exit(1)
print(f"rust-version {want} ({', '.join(by)}): ok")
