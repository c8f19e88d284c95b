#!/usr/bin/env bash
# Cold build times with and without precompiled headers (FLOE_PCH), in the same period: two
# fresh build folders of this source tree, ccache disabled, built one after the other.
#
#   bash bench/build_times.sh                    # everything (as scripts/build.sh)
#   bash bench/build_times.sh floe               # what scripts/demo.sh builds
#   bash bench/build_times.sh floe_expr floe_expr_tests
#
# Prints wall and CPU (user + system) seconds per configuration; on a shared machine the CPU
# figure is the one to compare. Build folders go to $FLOE_BUILD_TIMES_DIR (default: a new
# folder under /tmp), and are kept.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${FLOE_BUILD_TIMES_DIR:-$(mktemp -d /tmp/floe-build-times.XXXXXX)}"
jobs="${FLOE_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}"
export CCACHE_DISABLE=1

echo "build-times: $(uptime)"
for pch in OFF ON; do
  dir="$out/pch-$pch"
  cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOE_PCH="$pch" \
    --log-level=WARNING > "$dir.configure.log" 2>&1
  /usr/bin/time -f "%e %U %S" -o "$dir.time" ninja -C "$dir" -j"$jobs" "$@" > "$dir.build.log" 2>&1
  read -r wall user sys < "$dir.time"
  steps=$(grep -vc '^#' "$dir/.ninja_log")
  echo "build-times: FLOE_PCH=$pch ${*:-everything}: $steps steps, wall ${wall}s, CPU $(awk "BEGIN { print $user + $sys }")s"
done
echo "build-times: $(uptime)"
