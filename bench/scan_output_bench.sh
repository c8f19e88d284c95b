#!/usr/bin/env bash
# `floe scan T --format csv|jsonl|parquet --output F` of a table partitioned by country, against
# DuckDB's COPY (SELECT * FROM read_parquet([the table's data files])) TO F of the same files.
# DuckDB is timed by itself: the COPY statement alone, inside the peers' Python
# (bench/duckdb_peer.py pair, DuckDB 1.4.4, 2 threads, a fresh in-memory database per run).
# floe is timed as a whole process with the same binary doing nothing (`floe --version`)
# subtracted (the median of its runs); rounds interleave floe, its no-op and DuckDB, so the machine's
# load hits all three. Each output is first checked against the data files' rows by DuckDB
# (rows, and rows missing / extra as multisets).
#
#   bash bench/scan_output_bench.sh [BUILD_DIR] [ROWS] [RUNS] [BEFORE_FLOE]
#        (defaults: build 10000000 3, no before binary)
#
# BEFORE_FLOE, when given, is another `floe` binary (e.g. main's) timed in the same rounds on
# the same table, net of its own `--version`.
# Needs the peers (bash scripts/peers.sh): without them it prints "skipped: no peers" and exits
# 77. The rows are those of bench/ingest_bench.sh (order_id long, country of 3 values,
# amount_cents long, ts timestamp), made by DuckDB as an uncompressed Parquet file and appended
# by floe into a zstd table.
# SCAN_BENCH_FORMATS='csv jsonl parquet' (the default) chooses the outputs timed.
# SCAN_BENCH_DIR=DIR keeps the table in DIR and reuses it when DIR already holds one (making
# 10M rows takes DuckDB minutes on a busy machine).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rows=${2:-10000000}
runs=${3:-3}
before=()
[ -z "${4:-}" ] || before=(--before "$4")
floe="$build/floe"
. "$here/bench/peers_env.sh"
need_peer FLOE_PEERS_PYTHON
duck=("$FLOE_PEERS_PYTHON" "$here/bench/duckdb_peer.py")
if [ -n "${SCAN_BENCH_DIR:-}" ]; then
  mkdir -p "$SCAN_BENCH_DIR"
  work=$(cd "$SCAN_BENCH_DIR" && pwd)
else
  work=$(mktemp -d /tmp/floe-scan-out-XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
echo "DuckDB $("$FLOE_PEERS_PYTHON" -c 'import duckdb; print(duckdb.__version__)') (peers' Python), $("$floe" --version)"
echo "load before: $(uptime)"
if [ ! -d "$work/warehouse/b/t/data" ]; then
  "${duck[@]}" make "$work/src.parquet" - "$rows"
  "$floe" namespace create b >/dev/null
  "$floe" create b.t --schema 'order_id long, country string, amount_cents long, ts timestamp' \
    --partition-by country >/dev/null
  "$floe" append b.t src.parquet >/dev/null
  rm src.parquet
fi
mapfile -t files < <(find "$work/warehouse/b/t/data" -name '*.parquet' | sort)
echo "table b.t: $rows rows in ${#files[@]} data files, $(du -cb "${files[@]}" | tail -1 | cut -f1) bytes"

for format in ${SCAN_BENCH_FORMATS:-csv jsonl parquet}; do
  out="$work/out.$format"
  echo "== --format $format"
  rm -f "$out"
  "$floe" scan b.t --format "$format" --output "$out" 2>/dev/null
  echo "  floe output vs the data files: $("${duck[@]}" same "$format" "$out" "${files[@]}")"
  rm -f "$out"
  "${duck[@]}" run scan "$format" "$out" "${files[@]}"
  echo "  DuckDB output vs the data files: $("${duck[@]}" same "$format" "$out" "${files[@]}")"
  # floe creates its Parquet output only if absent (invariant 1): each run starts without it.
  "${duck[@]}" pair "$runs" --clean "$out" "${before[@]}" -- "$floe" scan b.t --format "$format" --output "$out" \
    -- scan "$format" "$out" "${files[@]}"
  rm -f "$out"
done
echo "load after: $(uptime)"
