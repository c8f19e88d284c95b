#!/usr/bin/env bash
# Table scans, not file scans: `floe scan T --where ... --format csv --output F` of a table
# partitioned by country, filtered and with merge-on-read deletes, against DuckDB reading the
# same data and delete files with read_parquet and applying the deletes by hand in SQL
# (bench/duckdb_peer.py table-scan: an anti-join on (file_path, pos) for position deletes, on the
# key for equality deletes of later commits). DuckDB is timed by itself: the COPY statement
# alone, inside the peers' Python (DuckDB 1.4.4, 2 threads, a fresh in-memory database per run);
# floe as a whole process with the same binary doing nothing (`floe --version`, the median of its
# runs) subtracted (bench/duckdb_peer.py pair). A second DuckDB figure in the same rounds is DuckDB reading the
# table itself: COPY (SELECT * FROM iceberg_scan(metadata.json[, snapshot_from_id])) TO F, with
# the iceberg extension loaded from the peers' package (manifests read by DuckDB), for the
# first snapshot only unless TABLE_SCAN_ICEBERG=all: on the last snapshot
# DuckDB 1.4.4's iceberg_scan ran over 4 minutes for 3M rows (position and equality deletes)
# where the by-hand query takes 2 s.
# Both directions: table b.f's data files were written by floe (`floe append`), table b.d's by
# DuckDB (COPY ... PARTITION_BY, added as they are by build/add_data_files); both then get the
# same deletes from floe:
#   commit 2  `floe delete --where "order_id % 20 = 0"`         position deletes (5% of the rows)
#   commit 3  `floe upsert --key order_id,country` of 0.1% rows   equality deletes + new rows
# Each scan is timed at the first snapshot (no deletes) and at the last (both kinds):
#   partition + residual, most of DE  country = 'DE' AND amount_cents > 5000
#   partition + residual, selective   country = 'DE' AND amount_cents < 50
#   no filter                         every live row
# Rounds interleave floe, its no-op (and the before binary) and DuckDB, so the machine's load hits
# every side; each output is first checked by DuckDB against its own by-hand query (rows, and rows
# missing / extra as multisets).
#
#   bash bench/table_scan_bench.sh [BUILD_DIR] [ROWS] [RUNS] [BEFORE_FLOE]
#        (defaults: build 10000000 3, no before binary)
#
# Needs the peers (bash scripts/peers.sh; without them it prints "skipped: no peers" and exits 77)
# and `ninja -C BUILD_DIR add_data_files`. SCAN_BENCH_DIR=DIR keeps
# the tables in DIR and reuses them (making them takes minutes on a busy machine).
# TABLE_SCAN_CASES chooses cases by name (default: all), e.g. 'f:last:none d:first:most'; 'setup'
# only makes the tables.
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
need_peer FLOE_PEERS_DUCKDB_EXTENSIONS
duck=("$FLOE_PEERS_PYTHON" "$here/bench/duckdb_peer.py")
[ -x "$build/add_data_files" ] || { echo "build $build/add_data_files first (ninja add_data_files)" >&2; exit 1; }
if [ -n "${SCAN_BENCH_DIR:-}" ]; then
  mkdir -p "$SCAN_BENCH_DIR"
  work=$(cd "$SCAN_BENCH_DIR" && pwd)
else
  work=$(mktemp -d /tmp/floe-table-scan-XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
echo "DuckDB $("$FLOE_PEERS_PYTHON" -c 'import duckdb; print(duckdb.__version__)') (peers' Python), $("$floe" --version)"
echo "load before: $(uptime)"

# Files under DIR not in the list file LIST (then LIST is brought up to date): a commit's new files.
new_files() {  # DIR LIST OUT
  find "$1" -name '*.parquet' | sort >"$work/now.list"
  comm -13 "$2" "$work/now.list" >"$3"
  cp "$work/now.list" "$2"
}

# The deletes of both tables: commits 2 and 3 above, recording each commit's new files.
add_deletes() {  # TABLE DATA_DIR SEEN_LIST
  local t=$1 dir=$2 seen=$3
  "$floe" properties "b.$t" --set write.delete.mode=merge-on-read --set write.merge.mode=merge-on-read >/dev/null
  "$floe" delete "b.$t" --where "order_id % 20 = 0" >/dev/null
  new_files "$dir" "$seen" "$work/$t.step2"
  "$floe" upsert "b.$t" "$work/upsert.parquet" --key order_id,country >/dev/null
  new_files "$dir" "$seen" "$work/$t.step3"
}

if [ ! -f "$work/ready" ]; then
  rm -rf "$work/warehouse" "$work/duck" "$work"/*.step* "$work"/*.seen
  [ -f "$work/src.parquet" ] || "${duck[@]}" make "$work/src.parquet" - "$rows"
  # 0.1% of the rows, amount_cents changed: every key already there.
  "${duck[@]}" upsert-input "$work/src.parquet" "$work/upsert.parquet"
  "$floe" namespace create b >/dev/null
  schema='order_id long, country string, amount_cents long, ts timestamp'
  "$floe" create b.f --schema "$schema" --partition-by country >/dev/null
  "$floe" create b.d --schema "$schema" --partition-by country >/dev/null
  : >"$work/f.seen"
  "$floe" append b.f src.parquet >/dev/null
  new_files "$work/warehouse/b/f/data" "$work/f.seen" "$work/f.step1"
  "${duck[@]}" copy-ids "$work/src.parquet" "$work/duck"
  find "$work/duck" -name '*.parquet' | sort >"$work/d.step1"
  "$build/add_data_files" "sqlite:///$work/warehouse/catalog.db" b.d $(cat "$work/d.step1") >/dev/null
  mkdir -p "$work/warehouse/b/d/data"
  : >"$work/d.seen"
  add_deletes f "$work/warehouse/b/f/data" "$work/f.seen"
  add_deletes d "$work/warehouse/b/d/data" "$work/d.seen"
  rm src.parquet
  touch "$work/ready"
fi
for t in f d; do
  echo "table b.$t: $(wc -l <"$work/$t.step1") data files; commit 2 added $(wc -l <"$work/$t.step2") files," \
    "commit 3 $(wc -l <"$work/$t.step3")"
done

first_snapshot() {  # TABLE: the id of its first snapshot
  "$floe" snapshots "b.$1" --format json |
    python3 -c 'import json, sys; print(next(s["snapshot_id"] for s in json.load(sys.stdin) if s["parent_id"] is None))'
}

declare -A filters=(
  [most]="country = 'DE' AND amount_cents > 5000"
  [few]="country = 'DE' AND amount_cents < 50"
  [none]=""
)
cases=${TABLE_SCAN_CASES:-"f:first:most f:first:few f:last:none f:last:most d:first:most d:first:few d:last:none d:last:most"}
[ "$cases" != setup ] || exit 0
out="$work/out.csv"
for c in $cases; do
  IFS=: read -r t when filter <<<"$c"
  where=${filters[$filter]}
  args=(scan "b.$t" --format csv --output "$out")
  [ -z "$where" ] || args+=(--where "$where")
  steps=("$work/$t.step1")
  metadata=$(ls "$work/warehouse/b/$t/metadata/"*.metadata.json | sort | tail -1)
  snapshot=-
  if [ "$when" = first ]; then
    snapshot=$(first_snapshot "$t")
    args+=(--snapshot "$snapshot")
  else
    steps+=("$work/$t.step2" "$work/$t.step3")
  fi
  echo "== b.$t ($( [ "$t" = f ] && echo floe || echo DuckDB)'s data files), $when snapshot, filter: ${where:-none}"
  rm -f "$out"
  "$floe" "${args[@]}" 2>/dev/null
  echo "  floe output vs DuckDB's by-hand query: $("${duck[@]}" table-same csv "$out" "${where:--}" "${steps[@]}")"
  statements=(-- table-scan csv "$out" "${where:--}" "${steps[@]}")
  if [ "$when" = first ] || [ "${TABLE_SCAN_ICEBERG:-first}" = all ]; then
    rm -f "$out"
    "${duck[@]}" run iceberg-scan csv "$out" "${where:--}" "$metadata" "$snapshot"
    echo "  DuckDB iceberg_scan vs the query: $("${duck[@]}" table-same csv "$out" "${where:--}" "${steps[@]}")"
    statements+=(-- iceberg-scan csv "$out" "${where:--}" "$metadata" "$snapshot")
  fi
  "${duck[@]}" pair "$runs" --clean "$out" "${before[@]}" -- "$floe" "${args[@]}" "${statements[@]}"
  rm -f "$out"
done
echo "load after: $(uptime)"
