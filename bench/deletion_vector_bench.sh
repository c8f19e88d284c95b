#!/usr/bin/env bash
# Merge-on-read deletes on format 3 (deletion vectors) against format 2 (position delete files):
# two tables holding the same ROWS rows (partitioned by country), each given the same DELETES
# deletes of 1% of the rows, k = 0, 1, ..., chosen by PATTERN:
#   spread  `order_id % 100 = k`: every 100th row of every data file, so each v3 delete rewrites
#           every file's vector (carrying the positions deleted before, the bitmaps fill up)
#           while each v2 delete adds new position delete files beside the old ones;
#   range   `order_id >= k * ROWS / 100 AND order_id < (k + 1) * ROWS / 100`: a run of rows in
#           each data file (they hold ascending order_ids), which Roaring stores as runs. Per delete: its wall time and the bytes of the delete files it wrote. Then
# `floe scan T --format csv --output /dev/null` before the deletes and after all of them
# (median of RUNS). The machine's load is printed before and after.
#
#   bash bench/deletion_vector_bench.sh [BUILD_DIR] [ROWS] [DELETES] [RUNS] [PATTERN]
#        (defaults: build 10000000 10 3 spread)
#
# Needs the peers' Python with DuckDB (bash scripts/peers.sh) to make the input rows
# (bench/duckdb_peer.py make); without it it prints "skipped: no peers" and exits 77.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rows=${2:-10000000}
deletes=${3:-10}
runs=${4:-3}
pattern=${5:-spread}
case "$pattern" in spread | range) ;; *) echo "PATTERN must be spread or range" >&2; exit 2 ;; esac
floe="$build/floe"
. "$here/bench/peers_env.sh"
need_peer FLOE_PEERS_PYTHON
work=$(mktemp -d /tmp/floe-dv-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "$("$floe" --version), $rows rows, $deletes deletes of 1% ($pattern), scans: median of $runs"
echo "load before: $(uptime)"

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# Bytes of the files under DIR not in LIST (LIST is then brought up to date): a commit's new files.
new_bytes() {  # DIR LIST
  find "$1" -type f \( -name '*-deletes.parquet' -o -name '*-deletes.puffin' \) | sort >"$work/now.list"
  comm -13 "$2" "$work/now.list" | xargs -r stat -c %s | awk '{ s += $1 } END { print s + 0 }'
  cp "$work/now.list" "$2"
}
scan_ms() {  # TABLE
  for _ in $(seq "$runs"); do
    local t0=$(now)
    "$floe" scan "$1" --format csv --output /dev/null
    ms "$t0" "$(now)"
  done | median
}

"$FLOE_PEERS_PYTHON" "$here/bench/duckdb_peer.py" make "$work/src.parquet" - "$rows"
"$floe" namespace create b >/dev/null
schema='order_id long, country string, amount_cents long, ts timestamp'
for v in 2 3; do
  "$floe" create "b.v$v" --schema "$schema" --partition-by country --format-version "$v" \
    --property write.delete.mode=merge-on-read >/dev/null
  t0=$(now)
  "$floe" append "b.v$v" src.parquet >/dev/null
  echo "v$v: append of $rows rows $(ms "$t0" "$(now)") ms, $(find "$work/warehouse/b/v$v/data" -name '*.parquet' | wc -l) data files"
  : >"$work/v$v.seen"
  echo "v$v: scan before the deletes $(scan_ms "b.v$v") ms"
done

printf '%-8s %14s %14s %16s %16s\n' delete "v2 ms" "v3 ms" "v2 bytes" "v3 bytes"
total2=0 total3=0 bytes2=0 bytes3=0
for k in $(seq 0 $((deletes - 1))); do
  line=()
  for v in 2 3; do
    t0=$(now)
    where="order_id % 100 = $k"
    [ "$pattern" = spread ] || where="order_id >= $((k * rows / 100)) AND order_id < $(((k + 1) * rows / 100))"
    "$floe" delete "b.v$v" --where "$where" >/dev/null
    line+=("$(ms "$t0" "$(now)")")
    line+=("$(new_bytes "$work/warehouse/b/v$v/data" "$work/v$v.seen")")
  done
  printf '%-8s %14s %14s %16s %16s\n' "$((k + 1))" "${line[0]}" "${line[2]}" "${line[1]}" "${line[3]}"
  total2=$((total2 + line[0])) total3=$((total3 + line[2])) bytes2=$((bytes2 + line[1])) bytes3=$((bytes3 + line[3]))
done
printf '%-8s %14s %14s %16s %16s\n' total "$total2" "$total3" "$bytes2" "$bytes3"
for v in 2 3; do
  live=$("$floe" delete-files "b.v$v" --format jsonl | wc -l)
  echo "v$v: after $deletes deletes: $live live delete entries; scan $(scan_ms "b.v$v") ms"
done
rows2=$("$floe" scan b.v2 --format csv --output "$work/v2.csv" && wc -l <"$work/v2.csv")
rows3=$("$floe" scan b.v3 --format csv --output "$work/v3.csv" && wc -l <"$work/v3.csv")
echo "rows left: v2 $((rows2 - 1)), v3 $((rows3 - 1))"
[ "$rows2" = "$rows3" ] || { echo "the two tables differ" >&2; exit 1; }
echo "load after: $(uptime)"
