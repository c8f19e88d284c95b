#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang in their own build folder and runs each for
# a bounded time on seeds taken from the fixtures (read where they are, never copied into the
# repository). A crash leaves its input in $build/crashes/<target>/ and fails the run; make
# it a regression test (a unit test with the bytes inline or in tests/data).
#
#   FLOE_FUZZ_SECONDS   seconds per target (default 25; nine targets)
#   FLOE_FUZZ_BUILD_DIR the clang build folder (default build-fuzz)
#   FLOE_FIXTURES       the fixtures folder (default ../shared/fixtures)
# Skips (exit 0, saying so) when no clang with libFuzzer and std::expected support is found.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_FUZZ_BUILD_DIR:-$repo/build-fuzz}"
seconds="${FLOE_FUZZ_SECONDS:-25}"
fixtures="${FLOE_FIXTURES:-$repo/../shared/fixtures}"
targets=(fuzz_rest_body fuzz_table_metadata fuzz_manifest fuzz_parquet fuzz_puffin fuzz_where fuzz_variant fuzz_wkb fuzz_schema_text)

# floe needs std::expected: clang 16 (P0848) or newer with libstdc++ 12.
cxx=""
for candidate in clang++-19 clang++-18 clang++-17 clang++-16; do
  if command -v "$candidate" >/dev/null; then cxx="$candidate"; break; fi
done
if [[ -z "$cxx" ]]; then
  echo "fuzz: skipped: no clang++ 16 or newer (scripts/install-deps.sh installs clang-16)"
  exit 0
fi
cc="${cxx/clang++/clang}"
# libstdc++ 12 offers std::expected only when __cpp_concepts says C++20 concepts in full;
# clang 16 implements them (P0848) but still reports the older value.
concepts="$(echo | "$cxx" -std=c++2b -dM -E -x c++ - | sed -n 's/#define __cpp_concepts //p')"
extra=""
if [[ "${concepts%L}" -lt 202002 ]]; then
  extra="-U__cpp_concepts -D__cpp_concepts=202002L -Wno-builtin-macro-redefined"
fi

cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo --log-level=WARNING \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" -DFLOE_FUZZ=ON -DCMAKE_CXX_FLAGS="$extra" >/dev/null
if ! ninja -C "$build" -j"${FLOE_FUZZ_JOBS:-2}" "${targets[@]}" >"$build/build.log" 2>&1; then
  # The targets are part of the suite: a tree clang cannot build is a failure, not a skip.
  echo "fuzz: NOT RUN: the clang build failed (log: $build/build.log):"
  tail -n 20 "$build/build.log"
  exit 1
fi

# Seeds: every fixture file of each kind, listed (not copied) into a seed folder per target.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
link_seeds() {  # target, find arguments...
  local target="$1"
  shift
  mkdir -p "$seeds/$target"
  if [[ -d "$fixtures" ]]; then
    find "$fixtures" -type f "$@" -size -2M 2>/dev/null | head -n 200 | while read -r f; do
      ln -sf "$f" "$seeds/$target/$(echo "$f" | md5sum | cut -c1-16)"
    done
  fi
}
link_seeds fuzz_table_metadata -name '*.json'
link_seeds fuzz_parquet -name '*.parquet'
# The manifest target reads its first byte as the kind: seeds get it prepended (copies in the
# build folder only).
mkdir -p "$seeds/fuzz_manifest" "$seeds/fuzz_rest_body" "$seeds/fuzz_where"
if [[ -d "$fixtures" ]]; then
  find "$fixtures" -type f -name '*.avro' -size -2M | head -n 200 | while read -r f; do
    kind=$'\x00'
    [[ "$(basename "$f")" == snap-* ]] && kind=$'\x01'
    { printf '%s' "$kind"; cat "$f"; } >"$seeds/fuzz_manifest/$(echo "$f" | md5sum | cut -c1-16)"
  done
fi
i=0
for body in \
  '{"namespace":["a"],"properties":{"owner":"x"}}' \
  '{"name":"t","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":true},{"id":2,"name":"m","type":{"type":"map","key-id":3,"key":"string","value-id":4,"value":"int","value-required":false},"required":false}]},"partition-spec":{"spec-id":0,"fields":[{"source-id":1,"field-id":1000,"name":"b","transform":"bucket[4]"}]},"properties":{"k":"v"}}' \
  '{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null}],"updates":[{"action":"set-properties","updates":{"a":"b"}},{"action":"add-snapshot","snapshot":{"snapshot-id":5,"sequence-number":1,"timestamp-ms":1,"summary":{"operation":"append"},"manifest-list":"/w/db/t/metadata/snap-5.avro","schema-id":0}},{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":5}]}' \
  '{"table-changes":[{"identifier":{"namespace":["db"],"name":"t"},"requirements":[],"updates":[{"action":"remove-properties","removals":["a"]}]}]}' \
  '{"source":{"namespace":["db"],"name":"t"},"destination":{"namespace":["db"],"name":"u"}}' \
  '{"updates":{"a":"1"},"removals":["b"]}'; do
  # The first byte picks the route (0..5); printf writes it itself, so the NUL byte is kept.
  { printf "\\x$(printf %02x "$i")"; printf '%s' "$body"; } >"$seeds/fuzz_rest_body/seed$i"
  i=$((i + 1))
done
# Puffin seeds (fuzz/fuzz_puffin.cc reads the first byte as the kind): a deletion-vector blob of
# positions 1, 2 and 3 as floe writes it, a Puffin file holding it, and positions to round-trip.
mkdir -p "$seeds/fuzz_puffin"
blob=0000001fd1d339640100000000000000000000003b30000001000002000100010002005027488f
puffin=504641310000001fd1d339640100000000000000000000003b30000001000002000100010002005027488f504641317b22626c6f6273223a5b7b2274797065223a2264656c6574696f6e2d766563746f722d7631222c226669656c6473223a5b323134373438333534355d2c22736e617073686f742d6964223a2d312c2273657175656e63652d6e756d626572223a2d312c226f6666736574223a342c226c656e677468223a33392c2270726f70657274696573223a7b2263617264696e616c697479223a2233222c227265666572656e6365642d646174612d66696c65223a22646174612f612e70617271756574227d7d5d2c2270726f70657274696573223a7b22637265617465642d6279223a22666c6f65227d7de80000000000000050464131
positions=0100000000000000020000000000000000000100010000000700000000000000
for seed in "00$blob" "01$puffin" "02$positions"; do
  printf "$(echo "$seed" | sed 's/../\\x&/g')" >"$seeds/fuzz_puffin/seed${seed:0:2}"
done
# Variant seeds (fuzz/fuzz_variant.cc: metadata length in 2 bytes, metadata, value): an object
# {"a":1,"b":[true,"x"]}, the string "example" and the decimal 123.4.
mkdir -p "$seeds/fuzz_variant" "$seeds/fuzz_wkb"
for seed in 0700110200010261620202000100020a0c010302000103040578 \
  03000100001d6578616d706c65 03000100002001d2040000; do
  printf "$(echo "$seed" | sed 's/../\\x&/g')" >"$seeds/fuzz_variant/$(echo "$seed" | md5sum | cut -c1-16)"
done
# WKB seeds (fuzz/fuzz_wkb.cc: first byte even = bytes, odd = hex text): POINT (1 2), a
# LINESTRING Z in big-endian order, a MULTIPOLYGON, and the point as hex text.
for seed in 000101000000000000000000f03f0000000000000040 \
  0000000003ea00000002000000000000000000000000000000003ff00000000000003ff00000000000003ff00000000000004000000000000000 \
  000106000000010000000103000000010000000400000000000000000000000000000000000000000000000000f03f0000000000000000000000000000f03f000000000000f03f00000000000000000000000000000000; do
  printf "$(echo "$seed" | sed 's/../\\x&/g')" >"$seeds/fuzz_wkb/$(echo "$seed" | md5sum | cut -c1-16)"
done
printf '\x01%s' 0101000000000000000000f03f0000000000000040 >"$seeds/fuzz_wkb/hex"
# Schema text seeds (fuzz/fuzz_schema_text.cc: schema text, newline, a JSON value of the first
# column in the human form).
mkdir -p "$seeds/fuzz_schema_text"
i=0
for seed in $'id long not null, tags list<string>\n5' \
  $'p list<struct<x: long, tags: list<int not null>>>, b int\n[{"x": 1, "tags": [1, 2]}, null, {"x": null, "tags": []}]' \
  $'attrs map<string, list<decimal(9,2)>>\n{"a": ["1.50", null], "b": []}' \
  $'m map<int, struct<`a b`: date, c: binary>>\n[{"key": 1, "value": {"a b": "2024-01-02", "c": "00FF"}}]' \
  $'s struct<a: map<string, int> not null, u: uuid> not null\n{"a": {"k": 1}, "u": "f79c3e09-677c-4bbd-a479-3f349cb785e7"}' \
  $'s struct<a: map<string, int> not null, u: uuid> not null\n{"a": {"k": 1}, "u": "f79c3e44-677c-4bbd-a479-3f34-677c-43"}' \
  $'m map<string, list<decimal(4,4)>>\n{"": [1, 0.5]}'; do
  printf '%s' "$seed" >"$seeds/fuzz_schema_text/seed$i"
  i=$((i + 1))
done
i=0
for where in "id = 1" "a > 2 AND b IS NULL" "name LIKE 'x%' OR ts < TIMESTAMP '2024-01-01 00:00:00'" \
  "x IN (1, 2, 3) AND NOT (y <> 'z')" "d BETWEEN 1.5 AND 2e3"; do
  printf '%s' "$where" >"$seeds/fuzz_where/seed$i"
  i=$((i + 1))
done

status=0
for target in "${targets[@]}"; do
  work="$build/corpus/$target"
  crashes="$build/crashes/$target"
  mkdir -p "$work" "$crashes"
  echo "fuzz: $target for ${seconds}s ($(ls "$seeds/$target" | wc -l) seeds)"
  binary="$build/fuzz/$target"
  if [[ ! -x "$binary" ]]; then
    echo "fuzz: $target NOT BUILT ($binary missing)"
    status=1
    continue
  fi
  if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
    -artifact_prefix="$crashes/" -print_final_stats=0 "$work" "$seeds/$target" \
    >"$build/$target.log" 2>&1; then
    echo "fuzz: $target FAILED; input in $crashes, log in $build/$target.log"
    tail -n 30 "$build/$target.log"
    status=1
  else
    echo "fuzz: $target ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$target.log" | tail -1 || true)$(tail -n 1 "$build/$target.log" | cut -c1-120))"
  fi
done
exit "$status"
