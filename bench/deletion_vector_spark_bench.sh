#!/usr/bin/env bash
# floe's deletion vectors against Spark's for the same deletes on the same data files: the
# bytes each engine writes per delete (bench/deletion_vector_spark_bench.py says what it does).
#
#   bash bench/deletion_vector_spark_bench.sh [BUILD_DIR] [ROWS] [DELETES] [PATTERN]
#        (defaults: build 10000000 10 spread; PATTERN spread or range)
#
# Needs the peers (bash scripts/peers.sh): their Python with DuckDB and pyspark, Iceberg's Spark
# runtime and the SQLite JDBC driver; without them it prints "skipped: no peers" and exits 77.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
. "$here/bench/peers_env.sh"
need_peer FLOE_PEERS_PYTHON
need_peer FLOE_PEERS_SPARK_ICEBERG_JAR
need_peer FLOE_PEERS_JAVA_JARS
export FLOE_BINARY="$build/floe"
exec "$FLOE_PEERS_PYTHON" -B -u "$here/bench/deletion_vector_spark_bench.py" "${2:-10000000}" "${3:-10}" "${4:-spread}"
