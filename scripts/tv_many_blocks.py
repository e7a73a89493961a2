#!/usr/bin/env python3
"""Write a before/after MIR pair of one function of N blocks in a chain, differing in one
block (issue 33's scaling measurement of `gcnsmt tv`).

Block k computes %(k+1) = %k + %k; in the middle block the after-file has the same value as
%k << 1 (V_LSHLREV_B32_e32 1, %k): a left shift by one is doubling, so that block is proved
and every other block is unchanged.

    scripts/tv_many_blocks.py 10000 DIR   # DIR/many.before.mir, DIR/many.after.mir
    time gcnsmt tv DIR/many.before.mir DIR/many.after.mir --target gfx900
"""
import os
import sys


def mir(n: int, changed: int, after: bool) -> str:
    out = ["---", "name: many", "tracksRegLiveness: true", "body: |"]
    for k in range(n):
        out.append(f"  bb.{k}:")
        if k + 1 < n:
            out.append(f"    successors: %bb.{k + 1}")
        if k == 0:
            out += ["    liveins: $vgpr0", "    %0:vgpr_32 = COPY $vgpr0"]
        if after and k == changed:
            out.append(f"    %{k + 1}:vgpr_32 = V_LSHLREV_B32_e32 1, %{k}, implicit $exec")
        else:
            out.append(f"    %{k + 1}:vgpr_32 = V_ADD_U32_e32 %{k}, %{k}, implicit $exec")
    out += [f"    $vgpr0 = COPY %{n}", "    SI_RETURN implicit $vgpr0", "..."]
    return "\n".join(out) + "\n"


def main() -> None:
    n, d = int(sys.argv[1]), sys.argv[2]
    os.makedirs(d, exist_ok=True)
    for side in ("before", "after"):
        with open(os.path.join(d, f"many.{side}.mir"), "w") as f:
            f.write(mir(n, n // 2, side == "after"))


if __name__ == "__main__":
    main()
