#!/usr/bin/env bash
# The `--test NAME` arguments of the integration test binaries whose work depends on the tier
# (they read GCNSMT_SLOW through gcnsmt_testkit::slow() or ::tiered(), or the variable itself).
# CI runs the default tier in full, then the slow tier only for these: every other test binary
# would repeat exactly what the default tier just ran (docs/testing.md, "CI").
set -euo pipefail
cd "$(dirname "$0")/.."
grep -l -E 'slow\(\)|tiered\(|GCNSMT_SLOW' -- */tests/*.rs |
  sed -E 's|.*/([^/]+)\.rs$|--test \1|' | sort -u | tr '\n' ' '
echo
