#!/usr/bin/env bash
# `floe ingest` of many small files (each its own commit), one floe binary against another:
# what a writer's catalog loads cost per commit (commit/commit_base.h). Two catalogs:
#   sqlite  the embedded SQL catalog (a load reads the pointer row; the parse is cached)
#   rest    `floe serve` on that SQLite catalog (a load is an HTTP round trip and the parse of
#           the whole metadata document by the client)
# For each: the table loads the server saw per file (its access log: GET of the table), then
# the whole ingest timed by farm-bench, A (FLOE_A) against B (FLOE_B) in turn. Every run
# ingests the same files into a table of its own, so neither binary inherits the other's
# history. --producers 1: the files commit one after another, as a loop of AppendFiles calls.
#
#   bash bench/ingest_loads_bench.sh FLOE_A FLOE_B [FILES=60] [RUNS=7]
#
# The server is FLOE_B's binary for both clients: only the client side differs.
set -euo pipefail
floe_a=$(realpath "$1")
floe_b=$(realpath "$2")
files=${3:-60}
runs=${4:-7}
work=$(mktemp -d /tmp/floe-ingest-loads-XXXXXX)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for i in $(seq 1 "$files"); do
  { echo "id,country,amount"; for r in $(seq 1 20); do echo "$((i * 100 + r)),DE,$r"; done; } >"$work/part-$i.csv"
done
export FLOE_CATALOG="sqlite://$work/catalog.db"
"$floe_b" namespace create b >/dev/null

# One run: a table of its own, then every file ingested into it.
cat >"$work/run.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
floe=$1 work=$2
table="b.t$(date +%s%N)$$"
"$floe" create "$table" --schema 'id long, country string, amount int' >/dev/null
"$floe" ingest "$table" "$work"/part-*.csv --producers 1 >/dev/null
EOF
chmod +x "$work/run.sh"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
FLOE_CATALOG="sqlite://$work/catalog.db" "$floe_b" serve --listen "127.0.0.1:$port" 2>"$work/access.log" &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/v1/config" >/dev/null 2>&1 && break
  sleep 0.1
done

echo "files: $files of 20 rows each; A: $floe_a; B: $floe_b"
echo "load before: $(uptime)"
for side in A B; do
  floe=$floe_a
  [ "$side" = B ] && floe=$floe_b
  table="b.count_$side"
  FLOE_CATALOG="http://127.0.0.1:$port" "$floe" create "$table" --schema 'id long, country string, amount int' >/dev/null
  before=$(grep -c " load-table b.count_$side " "$work/access.log" || true)
  FLOE_CATALOG="http://127.0.0.1:$port" "$floe" ingest "$table" "$work"/part-*.csv --producers 1 >/dev/null
  after=$(grep -c " load-table b.count_$side " "$work/access.log" || true)
  echo "rest, $side: $((after - before)) table loads for $files files"
done

echo "== sqlite"
FLOE_CATALOG="sqlite://$work/catalog.db" farm-bench -n "$runs" --timeout 1200 \
  --vs "$work/run.sh $floe_b $work" -- "$work/run.sh" "$floe_a" "$work"
echo "== rest (floe serve)"
FLOE_CATALOG="http://127.0.0.1:$port" farm-bench -n "$runs" --timeout 1200 \
  --vs "$work/run.sh $floe_b $work" -- "$work/run.sh" "$floe_a" "$work"
echo "load after: $(uptime)"
