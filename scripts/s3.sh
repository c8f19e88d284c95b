#!/usr/bin/env bash
# A throwaway S3 server (moto) for floe's tests and benchmarks.
#
#   scripts/s3.sh start   start moto's S3 on 127.0.0.1:<free port>, one request
#                         at a time (scripts/s3_server.py says why), and write
#                         <build>/s3.env with FLOE_TEST_S3_ENDPOINT=http://127.0.0.1:PORT
#                         (with the test-only bulk seed of s3_server.py --bulk-seed, which
#                         benchmarks use to make many objects in one request);
#                         also a second one that checks credentials and refuses
#                         every key, FLOE_TEST_S3_AUTH_ENDPOINT (tests of wrong credentials)
#   scripts/s3.sh stop    stop those servers and remove s3.env
#
# moto keeps everything in memory: a restart starts empty. The first server accepts
# any credentials; tests use testing/testing-secret and region us-east-1.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_BUILD_DIR:-$repo/build}"
env_file="$build/s3.env"

die() { echo "s3.sh: $*" >&2; exit 1; }

find_python() {
  local py
  for py in "${FLOE_S3_PYTHON:-}" "${FLOE_PEERS_PYTHON:-}" "${FLOE_PEERS_DIR:-${HOME:-/root}/.cache/floe-peers}/venv/bin/python" /root/.pyenv/shims/python3 python3; do
    [[ -n "$py" ]] || continue
    if "$py" -c 'import moto.moto_server.werkzeug_app, werkzeug' >/dev/null 2>&1; then
      echo "$py"; return
    fi
  done
  die "no python with moto found (pip install 'moto[server]', or set FLOE_S3_PYTHON)"
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

cmd_stop() {
  if [[ -f "$env_file" ]]; then
    local pid
    for pid in $(sed -n 's/^FLOE_TEST_S3\(_AUTH\)\{0,1\}_PID=//p' "$env_file"); do
      # Only the servers this file names, and only if they are still our launchers.
      if [[ "$pid" =~ ^[0-9]+$ ]] && grep -q s3_server.py "/proc/$pid/cmdline" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do
          kill -0 "$pid" 2>/dev/null || break
          sleep 0.2
        done
        kill -9 "$pid" 2>/dev/null || true
      fi
    done
    rm -f "$env_file"
    echo "s3.sh: stopped"
  fi
}

# Starts one server (extra arguments go to s3_server.py); prints "PORT PID".
start_server() {
  local py="$1" log="$2" port pid attempt
  shift 2
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$(( 20000 + RANDOM % 20000 ))
    port_in_use "$port" && continue
    nohup "$py" "$repo/scripts/s3_server.py" "$port" "$@" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      if port_in_use "$port"; then  # listening
        echo "$port $pid"
        return
      fi
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
  done
  tail -n 20 "$log" >&2 || true
  die "moto did not start"
}

cmd_start() {
  cmd_stop >/dev/null
  local py server auth
  py="$(find_python)"
  mkdir -p "$build"
  server="$(start_server "$py" "$build/s3.log" --bulk-seed)"
  auth="$(start_server "$py" "$build/s3-auth.log" --check-auth)" || { kill "${server#* }" 2>/dev/null; exit 1; }
  cat >"$env_file" <<ENV
FLOE_TEST_S3_ENDPOINT=http://127.0.0.1:${server% *}
FLOE_TEST_S3_PID=${server#* }
FLOE_TEST_S3_AUTH_ENDPOINT=http://127.0.0.1:${auth% *}
FLOE_TEST_S3_AUTH_PID=${auth#* }
ENV
  echo "s3.sh: moto S3 at http://127.0.0.1:${server% *}, checking credentials at http://127.0.0.1:${auth% *} (settings in $env_file)"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
