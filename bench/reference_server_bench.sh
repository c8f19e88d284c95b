#!/usr/bin/env bash
# Commits through `floe serve` against Iceberg's reference REST server (RESTCatalogServer of
# iceberg-open-api 1.11.0's test fixtures, a JdbcCatalog), both on a SQLite catalog database of
# their own (WAL, synchronous=FULL on both sides), driven by the same client in the same run:
# bench/java/CommitRace.java (Iceberg Java 1.11.0's RESTCatalog, one per writer thread,
# appending one small data file per commit with Iceberg's default commit retries). Each server
# sits behind CommitRace's own delay proxy, which adds the round trip asked for (half on the
# request, half on the answer) and counts commit attempts by their answer's status.
#
#   bash bench/reference_server_bench.sh [BUILD_DIR] [WRITERS] [RTT_MS] [SECONDS]
#        (defaults: build 1,2,4,8,16,32 0,20 4)
#
# Needs the peers (FLOE_PEERS_JAVA_JARS, bash scripts/peers.sh), Java 17 (java, javac) and
# Maven: the reference server needs Jetty 12.1 (bench/java/pom.xml), which Maven resolves once
# into ${FLOE_BENCH_JARS:-~/.cache/floe-bench/jars}. Without them it prints "skipped: ..." and
# exits 77. Both servers listen on 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
writers=${2:-1,2,4,8,16,32}
rtts=${3:-0,20}
seconds=${4:-4}
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

# Iceberg's reference server: its catalog from CATALOG_* variables (JdbcCatalog on SQLite).
mkdir -p "$work/ref/warehouse" "$work/floe/warehouse"
CATALOG_URI="jdbc:sqlite:$work/ref/catalog.db?journal_mode=WAL&synchronous=FULL" \
  CATALOG_WAREHOUSE="$work/ref/warehouse" \
  java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" \
  org.apache.iceberg.rest.LoopbackReferenceServer 0 \
  >"$work/ref.out" 2>"$work/ref.out.err" &
pids+=($!)
ref_url=$(wait_for_line "$work/ref.out" "reference server: listening on " "${pids[-1]}")

"$floe" --catalog "sqlite://$work/floe/catalog.db?warehouse=$work/floe/warehouse" serve \
  --listen 127.0.0.1:0 --log-format off >"$work/floe.out" 2>"$work/floe.out.err" &
pids+=($!)
floe_url=$(wait_for_line "$work/floe.out" "floe serve: listening on " "${pids[-1]}")

echo "reference: Iceberg $(unzip -p "$FLOE_PEERS_JAVA_JARS"/iceberg-open-api-*-test-fixtures.jar META-INF/MANIFEST.MF 2>/dev/null |
  sed -n 's/^Implementation-Version: //p' | tr -d '\r' | head -1) RESTCatalogServer at $ref_url; $("$floe" --version) serve at $floe_url"
echo "client: Iceberg Java $(ls "$FLOE_PEERS_JAVA_JARS" | sed -n 's/^iceberg-core-\([0-9.]*\)\.jar$/\1/p') RESTCatalog, $seconds s per row"
echo "load before: $(uptime)"
java -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" CommitRace --server "reference=$ref_url" --server "floe=$floe_url" \
  --writers "$writers" --latency-ms "$rtts" --seconds "$seconds" 2>"$work/client.err" || {
  tail -n 40 "$work/client.err" >&2
  exit 1
}
echo "load after: $(uptime)"
if grep -q . "$work/client.err"; then
  echo "client's standard error (last 10 lines):"
  tail -n 10 "$work/client.err"
fi
