#!/usr/bin/env bash
# PyIceberg's own catalog suite (tests/integration/test_catalog.py of PyIceberg 0.12.0, from its
# source package: scripts/peers.sh unpacks it) against `floe serve`, on each catalog floe serves:
# SQLite with a local warehouse, and PostgreSQL (FLOE_TEST_PG_URI) when the test command started one.
#
#   pyiceberg_catalog_suite_test.sh FLOE_BINARY
#
# Exit 0 when every test of the suite that runs against a REST catalog passes, 77 (ctest's skip)
# without the peers, 1 otherwise. The suite drops every namespace it made (and only those).
#
# Left out (deselected by name; the suite's own feature flags cannot be set from the environment):
#   test_namespace_with_dot, test_table_name_with_dot: floe's names are NS.TABLE on the command line and in the
#     web view, and its SQL catalogs join namespace levels with dots as Java's JDBC catalog does, so
#     a name may not contain a dot (floe serve refuses it with 400); the RCK's default agrees
set -euo pipefail

floe="${1:?usage: pyiceberg_catalog_suite_test.sh FLOE_BINARY}"
python="${FLOE_PEERS_PYTHON:-}"
suite="${FLOE_PEERS_PYICEBERG_TESTS:-}"
if [[ -z "$python" || -z "$suite" || ! -f "$suite/tests/integration/test_catalog.py" ]]; then
  echo "skipped: no peers (FLOE_PEERS_PYTHON / FLOE_PEERS_PYICEBERG_TESTS unset; scripts/peers.sh installs them)"
  exit 77
fi

work="$(mktemp -d /tmp/floe-pyiceberg-suite.XXXXXX)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# pytest writes caches beside the tests: run a copy, never the peers' folder.
cp -r "$suite/tests" "$work/tests"

source "$(dirname "${BASH_SOURCE[0]}")/floe_serve.sh"

# Starts floe serve on CATALOG_URI at a free port; sets server_pid and server_url.
start_server() {
  local uri="$1" log="$work/serve-$2.log"
  floe_serve_start "$log" "$log.err" "$floe" --catalog "$uri" serve --listen 127.0.0.1:0 --log-format off || {
    server_pid="$FLOE_SERVE_PID"
    exit 1
  }
  server_pid="$FLOE_SERVE_PID"
  server_url="$FLOE_SERVE_URL"
}

stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

run_suite() {  # run_suite NAME CATALOG_URI WAREHOUSE
  local name="$1" uri="$2" warehouse="$3"
  start_server "$uri" "$name"
  echo "== PyIceberg's catalog suite against floe serve on $name ($server_url)"
  local status=0
  (cd "$work" && env PYTHONDONTWRITEBYTECODE=1 \
      PYICEBERG_TEST_CATALOG=floe \
      PYICEBERG_CATALOG__FLOE__URI="$server_url" \
      PYICEBERG_CATALOG__FLOE__WAREHOUSE="$warehouse" \
      "$python" -m pytest tests/integration/test_catalog.py -m integration -k "rest_test_catalog and not with_dot" \
        -p no:cacheprovider -W ignore -q -rfEs) || status=$?
  stop_server
  return "$status"
}

failed=0
mkdir -p "$work/sqlite-wh"
run_suite sqlite "sqlite:///$work/sqlite-wh/catalog.db" "$work/sqlite-wh" || failed=1
if [[ -n "${FLOE_TEST_PG_URI:-}" ]]; then
  # A database of its own, so that the suite's namespaces never meet another test's.
  db="pyiceberg_suite_$$"
  base="${FLOE_TEST_PG_URI%/*}"
  if psql "$base/postgres" -qc "CREATE DATABASE $db" >/dev/null 2>&1; then
    mkdir -p "$work/pg-wh"
    run_suite postgresql "$base/$db?warehouse=$work/pg-wh" "$work/pg-wh" || failed=1
    psql "$base/postgres" -qc "DROP DATABASE $db" >/dev/null 2>&1 || true
  else
    echo "PostgreSQL at $base refused CREATE DATABASE; ran SQLite only" >&2
    failed=1
  fi
fi
exit "$failed"
