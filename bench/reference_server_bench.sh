#!/usr/bin/env bash
# Commits through `floe serve` against Iceberg's reference REST server (RESTCatalogServer of
# iceberg-open-api 1.11.0's test fixtures, a JdbcCatalog), each on a catalog database of its own
# of the same kind (SQLite: WAL, synchronous=FULL on both sides; or two databases of one
# PostgreSQL server), driven by the same client in the same run:
# bench/java/CommitRace.java (Iceberg Java 1.11.0's RESTCatalog, one per writer thread,
# appending one small data file per commit with Iceberg's default commit retries). Each server
# sits behind CommitRace's own delay proxy, which adds the round trip asked for (half on the
# request, half on the answer) and counts commit attempts by their answer's status.
#
#   bash bench/reference_server_bench.sh [BUILD_DIR] [WRITERS] [RTT_MS] [SECONDS] [sqlite|pg]
#        (defaults: build 1,2,4,8,16,32 0,20 4 sqlite)
#
# pg uses the PostgreSQL server of FLOE_TEST_PG_URI (scripts/pg.sh start; BUILD_DIR/pg.env is
# read when the variable is unset) and creates two databases in it for this run.
# Needs the peers (FLOE_PEERS_JAVA_JARS, bash scripts/peers.sh), Java 17 (java, javac) and
# Maven: the reference server needs Jetty 12.1 (bench/java/pom.xml), which Maven resolves once
# into ${FLOE_BENCH_JARS:-~/.cache/floe-bench/jars}. Without them it prints "skipped: ..." and
# exits 77. Both servers listen on 127.0.0.1 only. REFERENCE_BENCH_PROPERTIES='KEY=VALUE ...'
# sets table properties on every table made (e.g. commit.manifest-merge.enabled=false).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
writers=${2:-1,2,4,8,16,32}
rtts=${3:-0,20}
seconds=${4:-4}
backend=${5:-sqlite}
floe="$build/floe"
. "$here/bench/peers_env.sh"
need_peer FLOE_PEERS_JAVA_JARS
for tool in java javac mvn; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done

jetty="${FLOE_BENCH_JARS:-${HOME:-/root}/.cache/floe-bench/jars}"
stamp=$(sha256sum "$here/bench/java/pom.xml" | cut -d' ' -f1)
if [[ ! -f "$jetty/stamp" || "$(cat "$jetty/stamp")" != "$stamp" ]]; then
  rm -rf "$jetty"
  mkdir -p "$jetty"
  mvn -q -f "$here/bench/java/pom.xml" dependency:copy-dependencies -DoutputDirectory="$jetty" >/dev/null
  echo "$stamp" >"$jetty/stamp"
fi

work=$(mktemp -d /tmp/floe-refbench-XXXXXX)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  [[ "$(type -t drop_databases)" != function ]] || drop_databases
  rm -rf "$work"
}
trap cleanup EXIT
classpath="$work/classes:$FLOE_PEERS_JAVA_JARS/*:$jetty/*"
javac -nowarn -d "$work/classes" -cp "$classpath" "$here"/bench/java/*.java

wait_for_line() {  # FILE PATTERN PID: the URL after PATTERN in FILE, once it appears (30 s at most)
  local url="" _
  for _ in $(seq 1 300); do
    url=$(sed -n "s|^$2||p" "$1")
    [[ -n "$url" ]] && { echo "$url"; return 0; }
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  echo "server did not start; its output:" >&2
  cat "$1" "$1.err" >&2
  return 1
}

# Each server's catalog database.
mkdir -p "$work/ref/warehouse" "$work/floe/warehouse"
case "$backend" in
  sqlite)
    ref_catalog="jdbc:sqlite:$work/ref/catalog.db?journal_mode=WAL&synchronous=FULL"
    floe_catalog="sqlite://$work/floe/catalog.db?warehouse=$work/floe/warehouse"
    ;;
  pg)
    if [[ -z "${FLOE_TEST_PG_URI:-}" && -f "$build/pg.env" ]]; then
      FLOE_TEST_PG_URI=$(sed -n 's/^FLOE_TEST_PG_URI=//p' "$build/pg.env")
    fi
    [[ -n "${FLOE_TEST_PG_URI:-}" ]] || { echo "skipped: FLOE_TEST_PG_URI is not set (scripts/pg.sh start)"; exit 77; }
    command -v psql >/dev/null || { echo "skipped: psql is not installed"; exit 77; }
    # postgresql://USER@HOST:PORT/DB: a database for each server beside DB.
    pg_server=${FLOE_TEST_PG_URI%/*}
    pg_user=${pg_server#postgresql://}
    pg_user=${pg_user%%@*}
    run_id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
    for db in "refbench_ref_$run_id" "refbench_floe_$run_id"; do
      psql -q "$FLOE_TEST_PG_URI" -c "CREATE DATABASE $db" >/dev/null
    done
    drop_databases() {
      local db
      for db in "refbench_ref_$run_id" "refbench_floe_$run_id"; do
        psql -q "$FLOE_TEST_PG_URI" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
      done
    }
    ref_catalog="jdbc:postgresql://${pg_server#postgresql://*@}/refbench_ref_$run_id"
    export CATALOG_JDBC_USER="$pg_user"
    floe_catalog="$pg_server/refbench_floe_$run_id?warehouse=$work/floe/warehouse"
    ;;
  *) echo "reference_server_bench: unknown backend '$backend' (sqlite or pg)" >&2; exit 2 ;;
esac

# Iceberg's reference server: its catalog from CATALOG_* variables (a JdbcCatalog).
CATALOG_URI="$ref_catalog" CATALOG_WAREHOUSE="$work/ref/warehouse" \
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" \
  org.apache.iceberg.rest.LoopbackReferenceServer 0 \
  >"$work/ref.out" 2>"$work/ref.out.err" &
pids+=($!)
ref_url=$(wait_for_line "$work/ref.out" "reference server: listening on " "${pids[-1]}")

"$floe" --catalog "$floe_catalog" serve \
  --listen 127.0.0.1:0 --log-format off >"$work/floe.out" 2>"$work/floe.out.err" &
pids+=($!)
floe_url=$(wait_for_line "$work/floe.out" "floe serve: listening on " "${pids[-1]}")

iceberg=$(ls "$FLOE_PEERS_JAVA_JARS" | sed -n 's/^iceberg-open-api-\([0-9.]*\)-test-fixtures\.jar$/\1/p')
echo "reference: Iceberg $iceberg RESTCatalogServer (JdbcCatalog, $backend) at $ref_url; $("$floe" --version) serve ($backend) at $floe_url"
echo "client: Iceberg Java $iceberg RESTCatalog, $seconds s per row"
properties=()
for p in ${REFERENCE_BENCH_PROPERTIES:-}; do properties+=(--property "$p"); done
[ -z "${REFERENCE_BENCH_PROPERTIES:-}" ] || echo "table properties: $REFERENCE_BENCH_PROPERTIES"
echo "load before: $(uptime)"
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" CommitRace --server "reference=$ref_url" --server "floe=$floe_url" \
  --writers "$writers" --latency-ms "$rtts" --seconds "$seconds" "${properties[@]}" 2>"$work/client.err" || {
  tail -n 40 "$work/client.err" >&2
  exit 1
}
echo "load after: $(uptime)"
# Iceberg's client logs a warning with a stack trace for each commit attempt it retries.
echo "client: $(grep -c "Retrying task after failure" "$work/client.err" || true) commit attempts retried (its warnings)"
# Why attempts were refused (both servers together; ids and times as N).
grep 'Retrying task after failure' "$work/client.err" |
  sed 's/.*Retrying task after failure: //; s/sleepTimeMs=[0-9]* //; s/[0-9]\{4,\}/N/g' |
  sort | uniq -c | sort -rn | head -5 | sed 's/^/  /' || true
