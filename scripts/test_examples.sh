#!/usr/bin/env bash
# Installs the floe of a build folder into a temporary prefix, then builds every examples/*
# program against that install alone (find_package(floe CONFIG)), runs each, and compiles one
# of them through pkg-config too. Used by the ctest test examples_against_install.
#   scripts/test_examples.sh <build folder>
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: test_examples.sh <build folder>}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/floe-examples.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
"$prefix/bin/floe" --version
test -f "$prefix/include/floe/floe.h"
test -f "$prefix/lib/cmake/floe/floeConfig.cmake" || test -f "$prefix"/lib/*/cmake/floe/floeConfig.cmake
# Only include/floe/ is installed: no internal header may have leaked into it.
if grep -rhoE '#include "[a-z]+/[a-z_]+\.h"' "$prefix/include/floe" | grep -v '"floe/'; then
  echo "test_examples: a public header includes an internal one" >&2
  exit 1
fi

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
for dir in "$repo"/examples/*/; do
  name="$(basename "$dir")"
  echo "== $name"
  cmake -S "$dir" -B "$work/build-$name" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" --log-level=WARNING >/dev/null
  cmake --build "$work/build-$name" >/dev/null
  mkdir -p "$work/run-$name"
  timeout 120 "$work/build-$name/$name" "$work/run-$name"
done

echo "== create_and_append through pkg-config"
pcdir="$(dirname "$(find "$prefix" -name floe.pc | head -n 1)")"
# The install went to a temporary prefix, not the one floe.pc was configured with.
# shellcheck disable=SC2046
${CXX:-c++} -std=c++23 "$repo/examples/create_and_append/main.cc" -o "$work/pc-example" \
  $(PKG_CONFIG_PATH="$pcdir" pkg-config --define-variable=prefix="$prefix" --cflags --libs floe)
mkdir -p "$work/run-pc"
timeout 120 "$work/pc-example" "$work/run-pc"
echo "test_examples: every example built against the install and ran"
