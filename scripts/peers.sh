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
#   stamp.PART     a hash of each part's pins (python, java, sdist): a changed pin redoes that part,
#                  an unchanged one does nothing
#
# Spark: pyspark 4.0.1 with iceberg-spark-runtime-4.0_2.13 1.11.0. Iceberg 1.11.0 ships runtimes
# for Spark 3.5, 4.0 and 4.1; 4.0 is the oldest Spark 4 line it supports, runs on the machine's
# Java 17, and pyspark's wheel carries Spark's own jars, so nothing else is downloaded.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pins="$repo/scripts/peers"
dir="${FLOE_PEERS_DIR:-${HOME:-/root}/.cache/floe-peers}"
spark_runtime="org.apache.iceberg:iceberg-spark-runtime-4.0_2.13:1.11.0"
# PyIceberg's source package: only its tests/ folder is used (its catalog suite, run against
# floe serve by tests/interop/pyiceberg_catalog_suite.sh). Pinned by hash.
pyiceberg_sdist="https://files.pythonhosted.org/packages/85/08/bde71e0bbcf1a62c92d7fa457b508691596c65fa7e52c1982c78c461cd1c/pyiceberg-0.12.0.tar.gz"
pyiceberg_sdist_sha256="19f165d298054f9436108691098b60fa0fa99d0eff5fb884700c43b29334a39d"

die() { echo "peers: $*" >&2; exit 1; }

# Each part has its own stamp, a hash of its pins: a changed pin redoes that part alone.
stamp_python() { cat "$pins/requirements.txt" "$pins/constraints.txt" | sha256sum | cut -d' ' -f1; }
stamp_java() { cat "$pins/pom.xml" <(echo "$spark_runtime") | sha256sum | cut -d' ' -f1; }
stamp_sdist() { echo "$pyiceberg_sdist_sha256"; }
is_current() { [[ -f "$dir/stamp.$1" && "$(cat "$dir/stamp.$1")" == "$("stamp_$1")" ]]; }

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
FLOE_PEERS_PYICEBERG_TESTS=$dir/pyiceberg-tests
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

fetch_pyiceberg_tests() {
  local tmp
  tmp="$(mktemp -d /tmp/floe-peers-sdist.XXXXXX)"
  run_logged "download of PyIceberg's source package" curl -fsSL -o "$tmp/sdist.tar.gz" "$pyiceberg_sdist"
  if [[ "$(sha256sum "$tmp/sdist.tar.gz" | cut -d' ' -f1)" != "$pyiceberg_sdist_sha256" ]]; then
    rm -rf "$tmp"
    die "PyIceberg's source package does not have the pinned sha256"
  fi
  tar -xzf "$tmp/sdist.tar.gz" -C "$tmp"
  rm -rf "$dir/pyiceberg-tests"
  mkdir -p "$dir/pyiceberg-tests"
  mv "$tmp"/pyiceberg-*/tests "$dir/pyiceberg-tests/tests"
  rm -rf "$tmp"
}

install_python() {
  if [[ ! -x "$dir/venv/bin/python" ]]; then
    run_logged "python3 -m venv" python3 -m venv "$dir/venv"
  fi
  run_logged "pip install" "$dir/venv/bin/pip" install --disable-pip-version-check -q \
    -r "$pins/requirements.txt" -c "$pins/constraints.txt"
}

install_java() {
  rm -rf "$dir/jars.new"
  mkdir -p "$dir/jars.new/spark"
  run_logged "mvn (Iceberg Java)" mvn -q -B -f "$pins/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$dir/jars.new/java"
  run_logged "mvn (Spark runtime)" mvn -q -B -f "$pins/pom.xml" dependency:copy \
    -Dartifact="$spark_runtime" -DoutputDirectory="$dir/jars.new/spark"
  rm -rf "$dir/jars"
  mv "$dir/jars.new" "$dir/jars"
}

install_sdist() { fetch_pyiceberg_tests; }

# One install at a time: two test runs (or worktrees) starting together wait for each other
# instead of filling the same folders at once.
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
parts=()
for part in python java sdist; do
  is_current "$part" || parts+=("$part")
done
if ((${#parts[@]})); then
  command -v python3 >/dev/null || die "python3 is missing (scripts/install-deps.sh installs it)"
  command -v java >/dev/null || die "java is missing (scripts/install-deps.sh installs it)"
  command -v mvn >/dev/null || die "mvn is missing (scripts/install-deps.sh installs it)"
  echo "peers: installing ${parts[*]} into $dir (once; later runs reuse them)" >&2
  mkdir -p "$dir"
  for part in "${parts[@]}"; do
    rm -f "$dir/stamp.$part"
    "install_$part"
    "stamp_$part" >"$dir/stamp.$part"
  done
fi
[[ -f "$dir/peers.env" && -z "${parts[*]:-}" ]] || write_env
if [[ "${1:-}" == "env" ]]; then
  cat "$dir/peers.env"
fi
