#!/usr/bin/env bash
# Cold build times of several build configurations in the same period: one fresh build folder
# of this source tree per configuration, ccache disabled, built one after the other.
#
#   bash bench/build_times.sh                    # everything (as scripts/build.sh)
#   bash bench/build_times.sh floe               # what scripts/demo.sh builds
#   bash bench/build_times.sh floe_expr floe_expr_tests
#
# The configurations (CMake options, one set per word, commas between options) come from
# FLOE_BUILD_CONFIGS; the default compares file-by-file compiles with unity builds:
#   FLOE_BUILD_CONFIGS="-DFLOE_UNITY=OFF -DFLOE_UNITY=ON,-DFLOE_PCH=ON" bash bench/build_times.sh
#
# Prints wall and CPU (user + system) seconds per configuration; on a shared machine the CPU
# figure is the one to compare. Build folders go to $FLOE_BUILD_TIMES_DIR (default: a new
# folder under /tmp), and are kept.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${FLOE_BUILD_TIMES_DIR:-$(mktemp -d /tmp/floe-build-times.XXXXXX)}"
jobs="${FLOE_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}"
configs="${FLOE_BUILD_CONFIGS:--DFLOE_UNITY=OFF -DFLOE_UNITY=ON}"
export CCACHE_DISABLE=1

echo "build-times: $(uptime)"
n=0
for config in $configs; do
  n=$((n + 1))
  dir="$out/config-$n"
  IFS=, read -r -a options <<< "$config"
  cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="${FLOE_BUILD_TYPE:-RelWithDebInfo}" \
    "${options[@]}" --log-level=WARNING > "$dir.configure.log" 2>&1
  /usr/bin/time -f "%e %U %S" -o "$dir.time" ninja -C "$dir" -j"$jobs" "$@" > "$dir.build.log" 2>&1
  read -r wall user sys < "$dir.time"
  steps=$(grep -vc '^#' "$dir/.ninja_log")
  echo "build-times: ${options[*]} ${*:-everything}: $steps steps, wall ${wall}s, CPU $(awk "BEGIN { print $user + $sys }")s"
done
echo "build-times: $(uptime)"
