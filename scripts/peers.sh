#!/usr/bin/env bash
# Installs the real Iceberg engines that judge floe's tables in the tests (tests/interop/),
# pinned, into a folder this script owns, and prints nothing when they are already there.
#
#   bash scripts/peers.sh          install (or check) every peer
#   bash scripts/peers.sh env      also print the peers' environment (KEY=VALUE lines)
#
# The folder is $FLOE_PEERS_DIR, else ~/.cache/floe-peers: outside the clone, so that a fresh
# clone on the same machine (CI) finds them installed. In it:
#   venv/          Python: PyIceberg, DuckDB with its iceberg, avro and httpfs extensions
#                  (loaded from the installed package, never downloaded at run time), pyspark,
#                  moto, pytest (scripts/peers/requirements.txt, exact versions in constraints.txt)
#   jars/java/     Iceberg Java 1.11.0, its REST Compatibility Kit and reference REST server,
#                  JUnit's console launcher, JDBC drivers (scripts/peers/pom.xml)
#   jars/spark/    iceberg-spark-runtime for pyspark's Spark line
#   peers.env      the paths above as FLOE_PEERS_* variables, read by scripts/test.sh
#   stamp          a hash of the pins: a changed pin reinstalls, an unchanged one does nothing
#
# Spark: pyspark 4.0.1 with iceberg-spark-runtime-4.0_2.13 1.11.0. Iceberg 1.11.0 ships runtimes
# for Spark 3.5, 4.0 and 4.1; 4.0 is the oldest Spark 4 line it supports, runs on the machine's
# Java 17, and pyspark's wheel carries Spark's own jars, so nothing else is downloaded.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pins="$repo/scripts/peers"
dir="${FLOE_PEERS_DIR:-${HOME:-/root}/.cache/floe-peers}"
spark_runtime="org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.11.0"

die() { echo "peers: $*" >&2; exit 1; }

stamp_of() {
  cat "$pins/requirements.txt" "$pins/constraints.txt" "$pins/pom.xml" <(echo "$spark_runtime") |
    sha256sum | cut -d' ' -f1
}

write_env() {
  local site
  site="$("$dir/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  local ext="$site/duckdb_ext/extensions/v1.4.4/linux_amd64"
  local spark_jar
  spark_jar="$(ls "$dir"/jars/spark/iceberg-spark-runtime-*.jar | head -n 1)"
  cat >"$dir/peers.env" <<ENV
FLOE_PEERS_DIR=$dir
FLOE_PEERS_PYTHON=$dir/venv/bin/python
FLOE_PEERS_JAVA_JARS=$dir/jars/java
FLOE_PEERS_SPARK_ICEBERG_JAR=$spark_jar
FLOE_PEERS_AWS_BUNDLE_JAR=$(ls "$dir"/jars/java/iceberg-aws-bundle-*.jar | head -n 1)
FLOE_PEERS_DUCKDB_EXTENSIONS=$ext
ENV
}

run_logged() {  # run_logged WHAT COMMAND...: quiet unless it fails
  local what="$1" log
  shift
  log="$(mktemp /tmp/floe-peers.XXXXXX.log)"
  if ! "$@" >"$log" 2>&1; then
    echo "peers: $what failed; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  rm -f "$log"
}

install() {
  command -v python3 >/dev/null || die "python3 is missing (scripts/install-deps.sh installs it)"
  command -v java >/dev/null || die "java is missing (scripts/install-deps.sh installs it)"
  command -v mvn >/dev/null || die "mvn is missing (scripts/install-deps.sh installs it)"
  echo "peers: installing the Python and Java peers into $dir (once; later runs reuse them)"
  mkdir -p "$dir"
  rm -f "$dir/stamp"
  if [[ ! -x "$dir/venv/bin/python" ]]; then
    run_logged "python3 -m venv" python3 -m venv "$dir/venv"
  fi
  run_logged "pip install" "$dir/venv/bin/pip" install --disable-pip-version-check -q \
    -r "$pins/requirements.txt" -c "$pins/constraints.txt"
  rm -rf "$dir/jars.new"
  mkdir -p "$dir/jars.new/spark"
  run_logged "mvn (Iceberg Java)" mvn -q -B -f "$pins/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$dir/jars.new/java"
  run_logged "mvn (Spark runtime)" mvn -q -B -f "$pins/pom.xml" dependency:copy \
    -Dartifact="$spark_runtime" -DoutputDirectory="$dir/jars.new/spark"
  rm -rf "$dir/jars"
  mv "$dir/jars.new" "$dir/jars"
  write_env
  stamp_of >"$dir/stamp"
}

want="$(stamp_of)"
if [[ ! -f "$dir/stamp" || "$(cat "$dir/stamp")" != "$want" || ! -f "$dir/peers.env" ]]; then
  install
fi
if [[ "${1:-}" == "env" ]]; then
  cat "$dir/peers.env"
fi
