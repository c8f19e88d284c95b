#!/usr/bin/env bash
# `floe append` of a Parquet file and of a CSV file into a zstd table, against DuckDB's
# COPY (SELECT * FROM src) TO ... (FORMAT parquet, COMPRESSION zstd) of the same file, as whole
# processes, paired A/B by farm-bench (A = floe, B = DuckDB through node; the machine's noise
# hits both sides). Also times `node duckdb_copy.mjs noop` (node + DuckDB start-up, DuckDB's
# floor) and prints the output sizes.
#
#   bash bench/ingest_bench.sh [BUILD_DIR] [ROWS] [RUNS] [partitioned]   (defaults: build 3000000 5)
#
# With `partitioned`, the tables are partitioned by country (3 values) and DuckDB's COPY writes
# PARTITION_BY (country); only the Parquet input is timed then.
#
# Needs tests/js/node_modules (scripts/install-deps.sh). Inputs are made by DuckDB
# (tests/js/duckdb_copy.mjs make): an uncompressed Parquet file and a CSV file with a header.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rows=${2:-3000000}
runs=${3:-5}
partitioned=${4:-}
floe="$build/floe"
js="$here/tests/js"
work=$(mktemp -d /tmp/floe-ingest-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
uptime
(cd "$js" && node duckdb_copy.mjs make "$work/src.parquet" "$work/src.csv" "$rows")
"$floe" namespace create b >/dev/null
schema='order_id long, country string, amount_cents long, ts timestamp'
if [ "$partitioned" = partitioned ]; then
  for t in size_parquet parquet; do "$floe" create "b.$t" --schema "$schema" --partition-by country >/dev/null; done
  "$floe" append b.size_parquet src.parquet >/dev/null
  (cd "$js" && node duckdb_copy.mjs copy-partitioned "$work/src.parquet" "$work/duck_p")
  echo "sizes (bytes): floe $(du -cb warehouse/b/size_parquet/data | tail -1 | cut -f1)," \
    "DuckDB $(du -cb duck_p | tail -1 | cut -f1)"
  farm-bench -n "$runs" --timeout 1200 --vs "node $js/duckdb_copy.mjs copy-partitioned $work/src.parquet $work/out_p" -- \
    "$floe" append b.parquet src.parquet
  uptime
  exit 0
fi
for t in size_parquet size_csv parquet csv; do "$floe" create "b.$t" --schema "$schema" >/dev/null; done

# Sizes: one append each into an empty table, one COPY each.
"$floe" append b.size_parquet src.parquet >/dev/null
"$floe" append b.size_csv src.csv >/dev/null
(cd "$js" && node duckdb_copy.mjs copy "$work/src.parquet" "$work/duck_p.parquet" &&
  node duckdb_copy.mjs copy "$work/src.csv" "$work/duck_c.parquet")
echo "sizes (bytes): floe from parquet $(du -cb warehouse/b/size_parquet/data | tail -1 | cut -f1)," \
  "DuckDB from parquet $(stat -c %s duck_p.parquet); floe from csv $(du -cb warehouse/b/size_csv/data | tail -1 | cut -f1)," \
  "DuckDB from csv $(stat -c %s duck_c.parquet)"

duck="node $js/duckdb_copy.mjs"
farm-bench -n "$runs" --timeout 1200 --vs "$duck copy $work/src.parquet $work/out_p.parquet" -- \
  "$floe" append b.parquet src.parquet
farm-bench -n "$runs" --timeout 1200 --vs "$duck copy $work/src.csv $work/out_c.parquet" -- \
  "$floe" append b.csv src.csv
farm-bench -n "$runs" -- node "$js/duckdb_copy.mjs" noop
uptime
