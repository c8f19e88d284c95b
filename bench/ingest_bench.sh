#!/usr/bin/env bash
# `floe append` of a Parquet file and of a CSV file into a zstd table, against DuckDB's
# COPY (SELECT * FROM src) TO ... (FORMAT parquet, COMPRESSION zstd) of the same file.
# DuckDB is timed by itself: the COPY statement alone, inside the peers' Python
# (bench/duckdb_peer.py pair, DuckDB 1.4.4, 2 threads, fresh in-memory database per run).
# floe is timed as a whole process, and the same binary doing nothing (`floe --version`) is
# subtracted (the median of its runs). Rounds interleave floe, its no-op and DuckDB, so the machine's
# load hits all three. Also prints the output sizes.
#
#   bash bench/ingest_bench.sh [BUILD_DIR] [ROWS] [RUNS] [partitioned|parquet]   (defaults: build 3000000 5)
#
# With `partitioned`, the tables are partitioned by country (3 values) and DuckDB's COPY writes
# PARTITION_BY (country); only the Parquet input is timed then. With `parquet`, the table is not
# partitioned and only the Parquet input is made and timed (no CSV: at 30M rows making it is
# most of the bench's time).
#
# Needs the peers (bash scripts/peers.sh): without them it prints "skipped: no peers" and exits 77.
# Inputs are made by DuckDB: an uncompressed Parquet file and a CSV file with a header. With
# FLOE_INGEST_INPUT set to such a Parquet file (`duckdb_peer.py make F - ROWS`), the `partitioned`
# and `parquet` modes link it instead of making it again (30M rows take minutes to make).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rows=${2:-3000000}
runs=${3:-5}
partitioned=${4:-}
floe="$build/floe"
. "$here/bench/peers_env.sh"
need_peer FLOE_PEERS_PYTHON
duck=("$FLOE_PEERS_PYTHON" "$here/bench/duckdb_peer.py")
work=$(mktemp -d /tmp/floe-ingest-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "DuckDB $("$FLOE_PEERS_PYTHON" -c 'import duckdb; print(duckdb.__version__)') (peers' Python), $("$floe" --version)"
echo "load before: $(uptime)"
if [ -n "${FLOE_INGEST_INPUT:-}" ] && { [ "$partitioned" = partitioned ] || [ "$partitioned" = parquet ]; }; then
  ln -s "$(realpath "$FLOE_INGEST_INPUT")" "$work/src.parquet"
elif [ "$partitioned" = partitioned ] || [ "$partitioned" = parquet ]; then
  "${duck[@]}" make "$work/src.parquet" - "$rows"
else
  "${duck[@]}" make "$work/src.parquet" "$work/src.csv" "$rows"
fi
"$floe" namespace create b >/dev/null
# Each floe run appends into the same table (as before): its history grows by one commit a run.
schema='order_id long, country string, amount_cents long, ts timestamp'

if [ "$partitioned" = partitioned ]; then
  "$floe" create b.size_parquet --schema "$schema" --partition-by country >/dev/null
  "$floe" append b.size_parquet src.parquet >/dev/null
  "${duck[@]}" run copy-partitioned "$work/src.parquet" "$work/duck_p"
  echo "sizes (bytes): floe $(du -cb warehouse/b/size_parquet/data | tail -1 | cut -f1)," \
    "DuckDB $(du -cb duck_p | tail -1 | cut -f1)"
  echo "== Parquet input, partitioned by country"
  "$floe" create b.parquet --schema "$schema" --partition-by country >/dev/null
  "${duck[@]}" pair "$runs" --clean "$work/out_p" -- "$floe" append b.parquet src.parquet \
    -- copy-partitioned "$work/src.parquet" "$work/out_p"
  echo "load after: $(uptime)"
  exit 0
fi
for t in size_parquet size_csv parquet csv; do "$floe" create "b.$t" --schema "$schema" >/dev/null; done
if [ "$partitioned" = parquet ]; then
  "$floe" append b.size_parquet src.parquet >/dev/null
  "${duck[@]}" run copy "$work/src.parquet" "$work/duck_p.parquet"
  echo "sizes (bytes): floe from parquet $(du -cb warehouse/b/size_parquet/data | tail -1 | cut -f1)," \
    "DuckDB from parquet $(stat -c %s duck_p.parquet)"
  echo "== Parquet input"
  "${duck[@]}" pair "$runs" --clean "$work/out_p.parquet" -- "$floe" append b.parquet src.parquet \
    -- copy "$work/src.parquet" "$work/out_p.parquet"
  echo "load after: $(uptime)"
  exit 0
fi

# Sizes: one append each into an empty table, one COPY each.
"$floe" append b.size_parquet src.parquet >/dev/null
"$floe" append b.size_csv src.csv >/dev/null
"${duck[@]}" run copy "$work/src.parquet" "$work/duck_p.parquet"
"${duck[@]}" run copy "$work/src.csv" "$work/duck_c.parquet"
echo "sizes (bytes): floe from parquet $(du -cb warehouse/b/size_parquet/data | tail -1 | cut -f1)," \
  "DuckDB from parquet $(stat -c %s duck_p.parquet); floe from csv $(du -cb warehouse/b/size_csv/data | tail -1 | cut -f1)," \
  "DuckDB from csv $(stat -c %s duck_c.parquet)"

echo "== Parquet input"
"${duck[@]}" pair "$runs" --clean "$work/out_p.parquet" -- "$floe" append b.parquet src.parquet \
  -- copy "$work/src.parquet" "$work/out_p.parquet"
echo "== CSV input"
"${duck[@]}" pair "$runs" --clean "$work/out_c.parquet" -- "$floe" append b.csv src.csv \
  -- copy "$work/src.csv" "$work/out_c.parquet"
echo "load after: $(uptime)"
