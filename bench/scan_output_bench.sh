#!/usr/bin/env bash
# `floe scan T --format csv|jsonl|parquet --output F` of a table partitioned by country, against
# DuckDB's COPY (SELECT * FROM read_parquet([the table's data files])) TO F of the same files, as
# whole processes timed by /usr/bin/time (wall, user+sys CPU, peak RSS). Runs alternate
# (before, floe, DuckDB, before, floe, DuckDB, ...) so the machine's drift hits every side; the
# medians and the median of the per-round ratios are printed. Each output is first checked
# against the data files' rows by DuckDB (rows, and rows missing / extra as multisets).
#
#   bash bench/scan_output_bench.sh [BUILD_DIR] [ROWS] [RUNS] [BEFORE_FLOE]
#        (defaults: build 10000000 3, no before binary)
#
# BEFORE_FLOE, when given, is another `floe` binary (e.g. main's) timed in the same rounds on
# the same table. Needs tests/js/node_modules (scripts/install-deps.sh). The rows are those of
# bench/ingest_bench.sh (order_id long, country of 3 values, amount_cents long, ts timestamp),
# made by DuckDB as an uncompressed Parquet file and appended by floe into a zstd table.
# SCAN_BENCH_FORMATS='csv jsonl parquet' (the default) chooses the outputs timed.
# SCAN_BENCH_DIR=DIR keeps the table in DIR and reuses it when DIR already holds one (making
# 10M rows takes DuckDB minutes on a busy machine).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rows=${2:-10000000}
runs=${3:-3}
before=${4:-}
floe="$build/floe"
js="$here/tests/js"
duck="node $js/duckdb_copy.mjs"
if [ -n "${SCAN_BENCH_DIR:-}" ]; then
  mkdir -p "$SCAN_BENCH_DIR"
  work=$(cd "$SCAN_BENCH_DIR" && pwd)
else
  work=$(mktemp -d /tmp/floe-scan-out-XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
uptime
if [ ! -d "$work/warehouse/b/t/data" ]; then
  (cd "$js" && node duckdb_copy.mjs make "$work/src.parquet" - "$rows")
  "$floe" namespace create b >/dev/null
  "$floe" create b.t --schema 'order_id long, country string, amount_cents long, ts timestamp' \
    --partition-by country >/dev/null
  "$floe" append b.t src.parquet >/dev/null
  rm src.parquet
fi
mapfile -t files < <(find "$work/warehouse/b/t/data" -name '*.parquet' | sort)
echo "table b.t: $rows rows in ${#files[@]} data files, $(du -cb "${files[@]}" | tail -1 | cut -f1) bytes"

. "$here/bench/timed_runs.sh"

for format in ${SCAN_BENCH_FORMATS:-csv jsonl parquet}; do
  out="$work/out.$format"
  duck_mode=scan
  [ "$format" = csv ] || duck_mode="scan-$format"
  echo "== --format $format"
  rm -f "$out"
  "$floe" scan b.t --format "$format" --output "$out" 2>/dev/null
  echo "  floe output vs the data files: $($duck same "$format" "$out" "${files[@]}")"
  $duck "$duck_mode" "$out" "${files[@]}"
  echo "  DuckDB output vs the data files: $($duck same "$format" "$out" "${files[@]}")"
  rm -f "$work"/t_*
  for ((i = 0; i < runs; i++)); do
    # floe creates its Parquet output only if absent (invariant 1): each run starts without it.
    if [ -n "$before" ]; then
      rm -f "$out"
      timed "$work/t_before" "$before" scan b.t --format "$format" --output "$out"
    fi
    rm -f "$out"
    timed "$work/t_floe" "$floe" scan b.t --format "$format" --output "$out"
    timed "$work/t_duck" $duck "$duck_mode" "$out" "${files[@]}"
  done
  [ -z "$before" ] || report "floe before" "$work/t_before"
  report "floe" "$work/t_floe"
  report "DuckDB COPY" "$work/t_duck"
  [ -z "$before" ] || ratio "$work/t_before" "$work/t_duck" "before" "DuckDB"
  ratio "$work/t_floe" "$work/t_duck" "floe" "DuckDB"
  rm -f "$out"
done
echo "== node + DuckDB start-up only (duckdb_copy.mjs noop)"
rm -f "$work/t_noop"
for ((i = 0; i < runs; i++)); do timed "$work/t_noop" $duck noop; done
report "noop" "$work/t_noop"
uptime
