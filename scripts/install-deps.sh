#!/usr/bin/env bash
# Installs what floe's build, tests and demo need on Debian 12, then the npm
# packages of the cross-engine tests (tests/js).
#
# Idempotent and quiet: when everything is present it runs no package manager
# and prints nothing. apt-get update runs only when a package is missing, so a
# machine that has everything never touches the network.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Every one of these exists in Debian 12 (checked with apt-cache policy). `install-deps.sh build`
# (scripts/demo.sh) installs only what building floe needs, not the tools and servers the tests
# and benchmarks use (PostgreSQL, Node.js and npm's ~400 packages, ...).
packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  libavro-dev nlohmann-json3-dev libcli11-dev libfmt-dev libcpp-httplib-dev
  libzstd-dev libsnappy-dev zlib1g-dev libdeflate-dev libroaring-dev libssl-dev
  libsqlite3-dev libpq-dev libgtest-dev libgmock-dev googletest
  ccache libcurl4-openssl-dev
)
build_only=false
[[ "${1:-}" == "build" ]] && build_only=true
if ! $build_only; then
  packages+=(zstd sqlite3 postgresql postgresql-contrib libbenchmark-dev wrk hyperfine clang-16 libclang-rt-16-dev chromium)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$package")
  fi
done
# Node.js and npm are judged by their commands, not by package names: a machine
# may carry a Node.js build that bundles npm and conflicts with Debian's npm
# package, and installing Debian's would then fail.
if ! $build_only; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  # The real engines of tests/interop (scripts/peers.sh): a Python venv, Java 17 and Maven.
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
  command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  elif ((${#missing[@]})); then
    echo "install-deps: missing packages (${missing[*]}) and not root; run as root" >&2
    exit 1
  fi
fi

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  log="$(mktemp /tmp/floe-install-deps.XXXXXX.log)"
  export DEBIAN_FRONTEND=noninteractive
  if ! { "${as_root[@]}" apt-get update -qq &&
         "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
           --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    echo "install-deps: apt-get failed; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  rm -f "$log"
fi

# npm packages: install when node_modules is missing or package.json changed
# since the last install (npm writes node_modules/.package-lock.json).
js="$repo/tests/js"
if ! $build_only && [[ -f "$js/package.json" ]]; then
  stamp="$js/node_modules/.package-lock.json"
  if [[ ! -f "$stamp" || "$js/package.json" -nt "$stamp" ]]; then
    echo "install-deps: npm install in tests/js"
    log="$(mktemp /tmp/floe-npm-install.XXXXXX.log)"
    if ! (cd "$js" && npm install --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
      echo "install-deps: npm install failed; last lines of $log:" >&2
      tail -n 40 "$log" >&2
      exit 1
    fi
    rm -f "$log"
    touch "$stamp"
  fi
fi

# The real engines the tests judge floe with (PyIceberg, DuckDB, Spark, Iceberg Java and its
# REST Compatibility Kit, moto), pinned, in a folder outside the clone; quiet when present.
if ! $build_only; then
  bash "$repo/scripts/peers.sh"
fi
