#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for floe's tests and benchmarks.
#
#   scripts/pg.sh start   initdb into a new temp folder, start the server on
#                         127.0.0.1:<free port> (and a Unix socket in that
#                         folder), create database floe_test, and write
#                         <build>/pg.env with FLOE_TEST_PG_URI=postgresql://postgres@127.0.0.1:PORT/floe_test
#   scripts/pg.sh stop    stop that server and remove its folder and pg.env
#   scripts/pg.sh crash   stop that server as a crash would (pg_ctl stop -m immediate: no
#                         checkpoint, clients cut; the next start replays the WAL)
#   scripts/pg.sh restart start it again on the same port and folder
#   scripts/pg.sh bindir  print the folder of the server binaries (exit 1 without them)
#
# FLOE_PG_TMP_PREFIX (default /tmp/floe-pg) names the cluster folders: a test that crashes its
# cluster on purpose uses another prefix, so that a concurrent `start` (which removes the folders
# of dead /tmp/floe-pg.* clusters) never takes its folder while it is down.
#
# fsync and synchronous_commit stay ON: the catalog benchmarks measure commits
# that are really durable. Authentication is trust, which is safe only because
# the server listens on loopback and a socket folder no one else uses.
# `start` first stops whatever an earlier run left behind, so it may be run
# again after a crash. Run as root, the server runs as the `postgres` OS user
# (PostgreSQL refuses to run as root).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLOE_BUILD_DIR:-$repo/build}"
env_file="$build/pg.env"

die() { echo "pg.sh: $*" >&2; exit 1; }

find_bindir() {
  local dir
  if command -v pg_config >/dev/null 2>&1; then
    dir="$(pg_config --bindir 2>/dev/null || true)"
    [[ -x "$dir/initdb" ]] && { echo "$dir"; return; }
  fi
  # Debian keeps the server binaries off PATH, one folder per major version.
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "$dir" && -x "$dir/initdb" ]] && { echo "$dir"; return; }
  dir="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
  [[ -x "$dir/initdb" ]] && { echo "$dir"; return; }
  die "no PostgreSQL server binaries found (install postgresql: scripts/install-deps.sh)"
}

# Runs a command as the cluster's owner, from inside the cluster folder (so the
# postgres user is never left in a folder it cannot read, such as /root).
as_owner() {
  local dir="$1"; shift
  if [[ $(id -u) -eq 0 ]]; then
    (cd "$dir" && runuser -u postgres -- "$@")
  else
    (cd "$dir" && "$@")
  fi
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The postmaster's pid from a data folder, if it is alive.
live_postmaster() {
  local pidfile="$1/data/postmaster.pid" pid
  [[ -f "$pidfile" ]] || return 1
  pid="$(head -n 1 "$pidfile" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

stop_cluster() {
  local dir="$1" bindir pid
  [[ -d "$dir" ]] || return 0
  if pid="$(live_postmaster "$dir")"; then
    bindir="$(find_bindir)"
    if ! as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1; then
      # Only the postmaster this folder names: it is ours.
      kill -9 "$pid" 2>/dev/null || true
      sleep 1
    fi
  fi
  rm -rf "$dir"
}

cmd_stop() {
  if [[ -f "$env_file" ]]; then
    local dir
    dir="$(sed -n 's/^FLOE_TEST_PG_DIR=//p' "$env_file")"
    [[ -n "$dir" ]] && stop_cluster "$dir"
    rm -f "$env_file"
    echo "pg.sh: stopped"
  fi
}

cmd_start() {
  # Whatever an earlier run of this build folder left behind goes first.
  cmd_stop >/dev/null
  # Folders of clusters whose server died with no `stop` (any build folder).
  local old
  # Also a live one that this build folder started but lost track of (its
  # pg.env was deleted): each cluster folder records which pg.env it belongs to.
  for old in /tmp/floe-pg.*; do
    [[ -d "$old" ]] || continue
    if ! live_postmaster "$old" >/dev/null; then
      # Dead: its server left a pid file, or it is too old to be a start in
      # progress (another run may be inside initdb right now).
      if [[ -f "$old/data/postmaster.pid" || -n "$(find "$old" -maxdepth 0 -mmin +10)" ]]; then
        rm -rf "$old"
      fi
    elif [[ "$(cat "$old/owner" 2>/dev/null)" == "$env_file" ]]; then
      stop_cluster "$old"
    fi
  done

  local bindir dir port attempt started=0
  bindir="$(find_bindir)"
  if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
    die "running as root but there is no 'postgres' OS user to own the cluster"
  fi
  dir="$(mktemp -d "${FLOE_PG_TMP_PREFIX:-/tmp/floe-pg}.XXXXXX")"
  mkdir -p "$dir/sock"
  echo "$env_file" >"$dir/owner"
  [[ $(id -u) -eq 0 ]] && chown -R postgres: "$dir"
  chmod 700 "$dir"

  # -N skips only initdb's own flush of the brand-new files; the server's
  # fsync setting is unaffected.
  if ! as_owner "$dir" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 \
       --locale=C -N >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    die "initdb failed"
  fi

  for attempt in 1 2 3 4 5 6 7 8; do
    port=$(( 20000 + RANDOM % 20000 ))
    port_in_use "$port" && continue
    cat >>"$dir/data/postgresql.conf" <<CONF

# floe test cluster
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/sock'
fsync = on
synchronous_commit = on
max_connections = 200
CONF
    if as_owner "$dir" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
         >/dev/null 2>&1; then
      started=1
      break
    fi
    # Most likely another process took the port between the check and the start.
  done
  if [[ $started -ne 1 ]]; then
    tail -n 20 "$dir/server.log" >&2 || true
    stop_cluster "$dir"
    die "the server did not start"
  fi

  if ! as_owner "$dir" "$bindir/psql" -X -q -h "$dir/sock" -p "$port" -U postgres -d postgres \
       -c 'CREATE DATABASE floe_test' >/dev/null; then
    stop_cluster "$dir"
    die "could not create database floe_test"
  fi

  local uri="postgresql://postgres@127.0.0.1:$port/floe_test"
  mkdir -p "$build"
  cat >"$env_file" <<ENV
FLOE_TEST_PG_URI=$uri
FLOE_TEST_PG_DIR=$dir
FLOE_TEST_PG_PORT=$port
FLOE_TEST_PG_SOCKET_DIR=$dir/sock
ENV
  echo "pg.sh: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') at $uri (settings in $env_file)"
}

# The cluster folder pg.env names.
env_dir() {
  local dir=""
  [[ -f "$env_file" ]] && dir="$(sed -n 's/^FLOE_TEST_PG_DIR=//p' "$env_file")"
  [[ -n "$dir" && -d "$dir/data" ]] || die "no cluster started from $env_file"
  echo "$dir"
}

cmd_crash() {
  local dir
  dir="$(env_dir)"
  as_owner "$dir" "$(find_bindir)/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null
}

cmd_restart() {
  local dir
  dir="$(env_dir)"
  as_owner "$dir" "$(find_bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  crash) cmd_crash ;;
  restart) cmd_restart ;;
  bindir) find_bindir ;;
  *) echo "usage: $0 start|stop|crash|restart|bindir" >&2; exit 2 ;;
esac
