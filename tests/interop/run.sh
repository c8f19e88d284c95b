#!/usr/bin/env bash
# Runs one cross-engine test script with the peers' Python (scripts/peers.sh env prints
# FLOE_PEERS_PYTHON; scripts/test.sh exports it). Without it the test reports the skip marker
# ctest looks for (SKIP_REGULAR_EXPRESSION in CMakeLists.txt).
set -euo pipefail
if [[ -z "${FLOE_PEERS_PYTHON:-}" || ! -x "${FLOE_PEERS_PYTHON}" ]]; then
  echo "skipped: no peers (FLOE_PEERS_PYTHON unset; bash scripts/peers.sh env)"
  exit 0
fi
exec "$FLOE_PEERS_PYTHON" -B -u "$@"  # -B: no __pycache__ in the source tree
