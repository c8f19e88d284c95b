#!/usr/bin/env bash
# Installs what building floe needs (not the test tools), builds only the `floe` command (not
# the tests and benchmarks) and runs its main job, `floe demo`, in a fresh folder (floe's
# default catalog and warehouse live under ./warehouse of the working folder).
# The folder is kept so its tables can be looked at afterwards; set
# FLOE_DEMO_DIR to choose it.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_BUILD_DIR:-$repo/build}"
export FLOE_BUILD_DIR="$build"

bash "$repo/scripts/install-deps.sh" build
bash "$repo/scripts/build.sh" floe

if [[ -n "${FLOE_DEMO_DIR:-}" ]]; then
  demo_dir="$FLOE_DEMO_DIR"
  mkdir -p "$demo_dir"
else
  demo_dir="$(mktemp -d /tmp/floe-demo.XXXXXX)"
fi
echo "demo: running floe demo in $demo_dir"
cd "$demo_dir"
exec "$build/floe" demo "$@"
