#!/usr/bin/env bash
# Builds floe and runs every test: installs what is missing, builds, starts a
# throwaway PostgreSQL cluster and a moto S3 server for the catalog and S3
# tests, runs ctest, stops both. Exits with ctest's status.
#
# Environment the tests receive:
#   FLOE_TEST_PG_URI  postgresql://postgres@127.0.0.1:PORT/floe_test
#   FLOE_TEST_S3_ENDPOINT  http://127.0.0.1:PORT (moto, scripts/s3.sh)
#   FLOE_TEST_S3_AUTH_ENDPOINT  a moto that refuses every credential (scripts/s3.sh)
#   FLOE_FIXTURES     ../shared/fixtures beside the repository, when it exists
# FLOE_CTEST_ARGS adds ctest arguments (for example "-R io" to run a subset).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_BUILD_DIR:-$repo/build}"
export FLOE_BUILD_DIR="$build"
cd "$repo"
start=$(date +%s)

bash scripts/install-deps.sh
bash scripts/build.sh

# The peers' paths (scripts/peers.sh): FLOE_PEERS_PYTHON, FLOE_PEERS_JAVA_JARS, ...
while IFS='=' read -r key value; do
  [[ "$key" == FLOE_PEERS_* ]] && export "$key=$value"
done < <(bash scripts/peers.sh env)

trap 'bash "$repo/scripts/pg.sh" stop >/dev/null 2>&1 || true; bash "$repo/scripts/s3.sh" stop >/dev/null 2>&1 || true' EXIT
bash scripts/pg.sh start
FLOE_TEST_PG_URI="$(sed -n 's/^FLOE_TEST_PG_URI=//p' "$build/pg.env")"
export FLOE_TEST_PG_URI
bash scripts/s3.sh start
FLOE_TEST_S3_ENDPOINT="$(sed -n 's/^FLOE_TEST_S3_ENDPOINT=//p' "$build/s3.env")"
FLOE_TEST_S3_AUTH_ENDPOINT="$(sed -n 's/^FLOE_TEST_S3_AUTH_ENDPOINT=//p' "$build/s3.env")"
export FLOE_TEST_S3_ENDPOINT FLOE_TEST_S3_AUTH_ENDPOINT

if [[ -z "${FLOE_FIXTURES:-}" && -d "$repo/../shared/fixtures" ]]; then
  FLOE_FIXTURES="$(cd "$repo/../shared/fixtures" && pwd)"
fi
if [[ -n "${FLOE_FIXTURES:-}" ]]; then
  export FLOE_FIXTURES
  echo "test: fixtures in $FLOE_FIXTURES"
else
  echo "test: no fixtures found; fixture-based tests will be skipped"
fi

# tests/demo_script_test builds `floe` cold in a fresh folder through scripts/demo.sh (about
# 4 minutes of both cores): the check that the demo builds only what it needs.
export FLOE_TEST_DEMO_SCRIPT="${FLOE_TEST_DEMO_SCRIPT:-1}"

# Each test has a TIMEOUT property from CMakeLists.txt; --timeout covers any
# test registered without one.
set +e
# shellcheck disable=SC2086
ctest --test-dir "$build" --output-on-failure -j2 --timeout 900 ${FLOE_CTEST_ARGS:-} 2>&1 |
  tee "$build/ctest.log"
status=${PIPESTATUS[0]}
set -e

bash scripts/pg.sh stop >/dev/null || true
bash scripts/s3.sh stop >/dev/null || true
trap - EXIT

# The fuzz targets, each for a bounded time (scripts/fuzz.sh; a clang build folder of its own).
set +e
FLOE_FIXTURES="${FLOE_FIXTURES:-}" bash scripts/fuzz.sh 2>&1 | tee "$build/fuzz.log"
fuzz_status=${PIPESTATUS[0]}
set -e
# A crash (or a target that did not build) fails the run; its input is kept for a regression test.
if [[ "$fuzz_status" -ne 0 ]]; then
  echo "test: FUZZING FAILED (see $build/fuzz.log and the crash-* inputs it names)"
  if [[ "$status" -eq 0 ]]; then status=$fuzz_status; fi
fi

# One closing line in the plain "N passed, N failed, N skipped" form, from
# ctest's counts (ctest counts a skipped test as passed; this line does not).
log="$build/ctest.log"
total="$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)"
failed="$(sed -n 's/.*, \([0-9][0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)"
skipped="$(grep -c '(Skipped)$' "$log" || true)"
echo "test: ctest exit $status after $(( $(date +%s) - start ))s; log in $log"
if [[ -n "$total" && -n "$failed" ]]; then
  echo "test: $(( total - failed - skipped )) passed, $failed failed, $skipped skipped"
fi
exit "$status"
