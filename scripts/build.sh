#!/usr/bin/env bash
# Configures and builds into ./build, or into $FLOE_BUILD_DIR when set:
# everything (library, `floe`, tests, benchmarks), or only the targets named as
# arguments (`scripts/build.sh floe`). Quiet on success: the full compiler
# output goes to <build>/build.log and is shown only on failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_BUILD_DIR:-$repo/build}"
build_type="${FLOE_BUILD_TYPE:-RelWithDebInfo}"
jobs="$(nproc 2>/dev/null || echo 2)"

configure=(cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE="$build_type" --log-level=WARNING)
# The generator can only be chosen when the build folder is new; an existing
# one keeps whatever it was configured with.
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
  configure+=(-G Ninja)
fi

mkdir -p "$build"
log="$build/build.log"
targets=("$@")
what="${targets[*]:-everything}"
echo "build: building $what into $build with $jobs jobs (compiler output in $log)"
start=$(date +%s)
if ! "${configure[@]}" >"$log" 2>&1; then
  echo "build: cmake configure failed:" >&2
  tail -n 60 "$log" >&2
  exit 1
fi
target_args=()
((${#targets[@]})) && target_args=(--target "${targets[@]}")
if ! cmake --build "$build" -j"$jobs" "${target_args[@]}" >>"$log" 2>&1; then
  echo "build: compile failed; the errors (full log: $log):" >&2
  # The compiler's and linker's diagnostics; else the tail (CMake errors).
  if ! grep -E -A3 ' error:|undefined reference' "$log" | head -n 150 >&2; then
    tail -n 40 "$log" >&2
  fi
  exit 1
fi
echo "build: $build_type build of $what in $build done in $(( $(date +%s) - start ))s"
