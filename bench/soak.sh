#!/usr/bin/env bash
# The soak: the REST API fuzzer (tests/interop/rest_api_fuzz_test.sh, schemathesis, on SQLite
# and PostgreSQL) and the kill test (tests/kill_mid_commit_test.sh, on PostgreSQL with its
# database crashed and its connections cut, and on SQLite) in turns, for a given time, then a
# summary: runs, failures, and every 5xx the fuzzer met.
#
#   bench/soak.sh [MINUTES] [FLOE_BINARY]      (defaults: 60, build/floe)
#
# Each fuzzer run gets FLOE_API_FUZZ_SECONDS (default 120) per catalog and each kill test run
# FLOE_KILL_TEST_SECONDS (default 60) of kills per scenario; a run is not started once the time
# is up, so the soak ends within one run's length of MINUTES. PostgreSQL for the fuzzer comes from
# FLOE_TEST_PG_URI, else scripts/pg.sh starts one for the soak (the kill test always starts its
# own). The fuzzer needs the peers (scripts/peers.sh) and the fixtures; without them it is
# counted as skipped. Logs of every run stay in the folder printed at the start.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes="${1:-60}"
floe="$(cd "$(dirname "${2:-$repo/build/floe}")" && pwd)/$(basename "${2:-$repo/build/floe}")"
[[ -x "$floe" ]] || { echo "soak: no floe binary at $floe (bash scripts/build.sh floe)" >&2; exit 2; }
[[ "$minutes" =~ ^[0-9]+$ && "$minutes" -ge 1 && "$minutes" -le 1440 ]] || { echo "soak: MINUTES is 1 to 1440" >&2; exit 2; }
export FLOE_API_FUZZ_SECONDS="${FLOE_API_FUZZ_SECONDS:-120}"
export FLOE_KILL_TEST_SECONDS="${FLOE_KILL_TEST_SECONDS:-60}"

logs="$(mktemp -d /tmp/floe-soak.XXXXXX)"
own_pg=""
cleanup() {
  [[ -n "$own_pg" ]] && FLOE_BUILD_DIR="$own_pg" bash "$repo/scripts/pg.sh" stop >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The peers' paths for the fuzzer (schemathesis), unless given, and the fixtures (the OpenAPI spec).
if [[ -z "${FLOE_PEERS_DIR:-}" ]]; then
  while IFS='=' read -r key value; do
    [[ "$key" == FLOE_PEERS_* ]] && export "$key=$value"
  done < <(bash "$repo/scripts/peers.sh" env 2>/dev/null)
fi
if [[ -z "${FLOE_FIXTURES:-}" && -d "$repo/../shared/fixtures" ]]; then
  FLOE_FIXTURES="$(cd "$repo/../shared/fixtures" && pwd)"
  export FLOE_FIXTURES
fi
if [[ -z "${FLOE_TEST_PG_URI:-}" ]] && bash "$repo/scripts/pg.sh" bindir >/dev/null 2>&1; then
  own_pg="$logs/pg"
  mkdir -p "$own_pg"
  FLOE_BUILD_DIR="$own_pg" bash "$repo/scripts/pg.sh" start >/dev/null && \
    FLOE_TEST_PG_URI="$(sed -n 's/^FLOE_TEST_PG_URI=//p' "$own_pg/pg.env")" && export FLOE_TEST_PG_URI
fi

echo "soak: $minutes minutes from $(date -u +%H:%M:%S) UTC; fuzzer ${FLOE_API_FUZZ_SECONDS}s per catalog, kill test ${FLOE_KILL_TEST_SECONDS}s per scenario; logs in $logs"
echo "soak: load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
start=$(date +%s)
end=$((start + minutes * 60))
declare -A runs=() failures=() skips=()
kinds=(fuzz kill-postgresql kill-sqlite)
n=0
while (( $(date +%s) < end && n < 10000 )); do
  kind="${kinds[$((n % ${#kinds[@]}))]}"
  n=$((n + 1))
  log="$logs/$(printf '%04d' "$n")-$kind.log"
  t0=$(date +%s)
  case "$kind" in
    fuzz) bash "$repo/tests/interop/rest_api_fuzz_test.sh" "$floe" >"$log" 2>&1 ;;
    kill-postgresql) FLOE_KILL_TEST_CATALOG=postgresql bash "$repo/tests/kill_mid_commit_test.sh" "$floe" >"$log" 2>&1 ;;
    kill-sqlite) FLOE_KILL_TEST_CATALOG=sqlite bash "$repo/tests/kill_mid_commit_test.sh" "$floe" >"$log" 2>&1 ;;
  esac
  status=$?
  runs[$kind]=$(( ${runs[$kind]:-0} + 1 ))
  if [[ $status -eq 77 ]]; then
    skips[$kind]=$(( ${skips[$kind]:-0} + 1 ))
    verdict="skipped: $(grep -m1 '^skipped' "$log")"
  elif [[ $status -ne 0 ]]; then
    failures[$kind]=$(( ${failures[$kind]:-0} + 1 ))
    verdict="FAILED (exit $status): $(grep -m1 -E 'FAIL|Failed|Error' "$log")"
  else
    verdict="passed"
  fi
  echo "soak: $(date -u +%H:%M:%S) run $n $kind: $verdict in $(( $(date +%s) - t0 ))s; load $(cut -d' ' -f1 /proc/loadavg)"
done

echo "soak: summary after $(( ($(date +%s) - start) / 60 )) minutes ($n runs):"
total_failures=0
for kind in "${kinds[@]}"; do
  echo "soak:   $kind: ${runs[$kind]:-0} runs, ${failures[$kind]:-0} failed, ${skips[$kind]:-0} skipped"
  total_failures=$(( total_failures + ${failures[$kind]:-0} ))
done
# schemathesis names a 5xx "Server error"; the kill test's clients may see 503 and 500
# CommitStateUnknown while the database is down (expected and counted in its own log).
fives="$(cat "$logs"/*-fuzz.log 2>/dev/null | grep -c -E 'Server error|5[0-9][0-9] (Internal|Server|Service)')"
echo "soak:   5xx answers the fuzzer met: $fives"
grep -h -E '(requests|generated), ' "$logs"/*-fuzz.log 2>/dev/null | awk '{g += $1; p += $3} END {if (g) print "soak:   fuzzer requests generated: " g ", passed: " p}'
grep -h 'batches landed' "$logs"/*-kill-*.log 2>/dev/null |
  awk '{l += $3} END {print "soak:   kill test batches landed (each checked exactly once): " l}'
echo "soak: load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if (( total_failures > 0 || fives > 0 )); then exit 1; fi
exit 0
