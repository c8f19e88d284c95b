#!/usr/bin/env bash
# Killing the server, the database and the network in the middle of commits.
#
#   kill_mid_commit_test.sh FLOE_BINARY
#
# A PostgreSQL cluster of the test's own (scripts/pg.sh with its own folder prefix and port, so
# that crashing it disturbs no other test) holds the catalog; `floe serve` (group commit on, the
# default) reaches it through a TCP proxy (tests/tcp_proxy.py) that can cut every connection
# mid-stream. 8 client processes append keyed batches through the server with `floe append
# --idempotency-key KEY` (3 rows, each carrying KEY); a client re-runs a batch with the same key
# until it gets a definite answer (exit 0: landed or "already committed"; exit 2 or 3: refused);
# a quarter of the first attempts are themselves SIGKILLed 0.1-0.3 s in.
# A reader scans the table in a loop. Meanwhile the test, in turns: SIGKILLs `floe serve` and
# restarts it on the same port; stops PostgreSQL with `pg_ctl stop -m immediate` and restarts it;
# cuts the server's connections to PostgreSQL. Two scenarios: one server; two servers on the one
# catalog behind a round-robin proxy (one address), one of them killed at a time.
#
# Asserted, per scenario:
#   - every batch a client was told landed is in the table exactly once (3 rows of its key), and
#     no batch a client was told failed is there; the table holds no other rows; the snapshot a
#     client was answered carries its key, and no key is in two snapshots;
#   - every client got a definite answer for every batch it started (none gave up);
#   - no error a client saw, other than the server or the database being down or a commit's
#     outcome being unknown (no 404 for the table, no other 5xx, no missing file);
#   - the reader: every scan that answered reads every data file of the head, shows each batch
#     0 or 3 times, and never fewer rows than a scan before it; no error but the server down;
#   - afterwards, on the catalog directly: `floe remove-orphan-files --from-intents` deletes
#     what it names (what a killed attempt named but never wrote is named too) and nothing else,
#     the table reads identically after, and no write intent of the table is left; the listing sweep then finds the rest
#     of what killed attempts left (clients' data files of lost attempts: a REST client keeps no
#     intents), and the table still reads identically.
#
# FLOE_KILL_TEST_CATALOG=sqlite runs the same on a SQLite catalog (one database file shared by
# the servers): only the servers are killed there (bench/soak.sh runs both).
#
# Bounded: each scenario's chaos phase lasts FLOE_KILL_TEST_SECONDS (default 45) and at most 40
# batches per client; every command runs under `timeout`. Exit 77 without PostgreSQL binaries.
set -uo pipefail

floe="${1:?usage: kill_mid_commit_test.sh FLOE_BINARY}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
backend="${FLOE_KILL_TEST_CATALOG:-postgresql}"
[[ "$backend" == postgresql || "$backend" == sqlite ]] || { echo "FLOE_KILL_TEST_CATALOG: postgresql or sqlite" >&2; exit 2; }
if [[ "$backend" == postgresql ]] && ! bash "$repo/scripts/pg.sh" bindir >/dev/null 2>&1; then
  echo "skipped: no PostgreSQL server binaries (initdb, pg_ctl; scripts/install-deps.sh installs them)"
  exit 77
fi
command -v python3 >/dev/null || { echo "FAIL: python3 is needed for tests/tcp_proxy.py" >&2; exit 1; }

chaos_seconds="${FLOE_KILL_TEST_SECONDS:-45}"
clients=8
max_batches=40
rows_per_batch=3
work="$(mktemp -d /tmp/floe-kill.XXXXXX)"
export FLOE_BUILD_DIR="$work/pg" FLOE_PG_TMP_PREFIX=/tmp/floe-killpg
mkdir -p "$FLOE_BUILD_DIR"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
note() { echo "$(date +%T) $*"; }
nap() { sleep "$(($1 / 10)).$(($1 % 10))"; }  # nap TENTHS

# Every process this script starts is recorded here by pid; cleanup stops exactly those.
pids_file="$work/pids"
: >"$pids_file"
track() { echo "$1" >>"$pids_file"; }
cleanup() {
  local pid
  touch "$work/stop" "$work/reader-stop" 2>/dev/null
  if [[ -f "$pids_file" ]]; then
    while read -r pid; do kill -9 "$pid" 2>/dev/null; done <"$pids_file"
  fi
  wait 2>/dev/null
  [[ "$backend" == postgresql ]] && bash "$repo/scripts/pg.sh" stop >/dev/null 2>&1
  if [[ -n "${FLOE_KILL_TEST_KEEP:-}" ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

warehouse="$work/wh"
mkdir -p "$warehouse"
if [[ "$backend" == postgresql ]]; then
  bash "$repo/scripts/pg.sh" start || { echo "FAIL: could not start PostgreSQL" >&2; exit 1; }
  pg_port="$(sed -n 's/^FLOE_TEST_PG_PORT=//p' "$FLOE_BUILD_DIR/pg.env")"
  pg_uri="$(sed -n 's/^FLOE_TEST_PG_URI=//p' "$FLOE_BUILD_DIR/pg.env")"
  direct=(--catalog "$pg_uri?warehouse=$warehouse" --catalog-name kill)
else
  direct=(--catalog "sqlite:///$warehouse/catalog.db" --catalog-name kill)
fi
# The catalog the servers open: PostgreSQL through the proxy that cuts, or the SQLite file.
served_catalog() {
  if [[ "$backend" == postgresql ]]; then
    echo "postgresql://postgres@127.0.0.1:$db_proxy_port/floe_test?warehouse=$warehouse"
  else
    echo "sqlite:///$warehouse/catalog.db"
  fi
}

# Starts tests/tcp_proxy.py to the target ports; sets proxy_pid and proxy_port.
start_proxy() {
  local port_file="$work/proxy-$RANDOM$RANDOM" i
  python3 "$here/tcp_proxy.py" "$port_file" "$@" &
  proxy_pid=$!
  track "$proxy_pid"
  for i in $(seq 1 100); do [[ -s "$port_file" ]] && break; sleep 0.05; done
  proxy_port="$(cat "$port_file" 2>/dev/null)"
  [[ -n "$proxy_port" ]] || { echo "FAIL: the proxy did not start" >&2; exit 1; }
}

source "$here/interop/floe_serve.sh"
# start_server SLOT PORT: floe serve on 127.0.0.1:PORT (0: a free one) over the cut proxy;
# sets server_pid[SLOT] and server_port[SLOT]. A restart after SIGKILL may find the port still
# held for a moment: it tries again, at most 20 times.
declare -a server_pid server_port
starts=0
start_server() {
  local slot="$1" port="$2" try
  for try in $(seq 1 20); do
    starts=$((starts + 1))
    if floe_serve_start "$work/serve-$starts.out" "$work/serve-$starts.err" "$floe" \
        --catalog "$(served_catalog)" \
        --catalog-name kill serve --listen "127.0.0.1:$port" --log-format off 2>/dev/null; then
      track "$FLOE_SERVE_PID"
      server_pid[$slot]="$FLOE_SERVE_PID"
      server_port[$slot]="${FLOE_SERVE_URL##*:}"
      return 0
    fi
    kill -9 "$FLOE_SERVE_PID" 2>/dev/null
    sleep 0.25
  done
  echo "FAIL: floe serve did not start on port $port" >&2
  cat "$work/serve-$starts.err" >&2
  exit 1
}

kill_server() {  # SLOT
  kill -9 "${server_pid[$1]}" 2>/dev/null
  wait "${server_pid[$1]}" 2>/dev/null
}

# What a client or the reader may see while the server, the database or the network is down,
# or when a commit's outcome could not be learnt: anything else is a wrong answer.
transient='killed on purpose|failed: (Connection|Read|Write)|Could not establish connection|outcome is unknown|may or may not|ServiceUnavailableException|connection lost|cannot connect|cannot reconnect|CommitStateUnknownException'

# client C URL TABLE DIR: appends batches c<C>-b<B> until DIR/stop appears (or max_batches); one
# line per batch in DIR/client-C: "KEY landed SNAPSHOT ATTEMPTS", "KEY failed - ATTEMPTS" or
# "KEY gave-up - ATTEMPTS"; every unsuccessful attempt's message in DIR/errors-C.
client() {
  local c="$1" url="$2" table="$3" dir="$4" b key csv out rc attempt outcome snapshot patience child=""
  trap '[[ -n "$child" ]] && kill -9 "$child" 2>/dev/null; exit 0' TERM
  for ((b = 0; b < max_batches; b++)); do
    [[ -e "$dir/stop" ]] && break
    key="c$c-b$b"
    csv="$dir/$key.csv"
    { echo "batch,n"; for ((r = 0; r < rows_per_batch; r++)); do echo "$key,$r"; done; } >"$csv"
    outcome=gave-up snapshot=-
    # Retried with the same key until a definite answer: at most 150 attempts and 90 s after
    # the chaos ends (the servers are all up by then).
    for ((attempt = 1; attempt <= 150; attempt++)); do
      # A quarter of the batches have their first attempt killed 0.1-0.3 s in, as an orchestrator
      # kills a job it thinks hung: its request may still be on the server when the re-run starts.
      patience=60
      if ((attempt == 1 && RANDOM % 4 == 0)); then patience="0.$((1 + RANDOM % 3))"; fi
      timeout -s KILL "$patience" "$floe" --catalog "$url" append "$table" "$csv" --idempotency-key "$key" \
        >"$dir/out-$c" 2>&1 &
      child=$!
      wait "$child"
      rc=$?
      child=""
      out="$(cat "$dir/out-$c")"
      if [[ $rc -eq 0 ]]; then
        outcome=landed
        grep -q 'already committed' <<<"$out" && outcome=landed-replayed
        snapshot="$(sed -n 's/.*snapshot \([0-9-][0-9]*\).*/\1/p' <<<"$out" | head -n 1)"
        break
      elif [[ $rc -eq 2 || $rc -eq 3 ]]; then
        outcome=failed
        echo "$key attempt $attempt rc $rc: $(tr '\n' ' ' <<<"$out")" >>"$dir/errors-$c"
        break
      fi
      if [[ $rc -eq 137 && "$patience" != 60 ]]; then out="killed on purpose"; fi
      echo "$key attempt $attempt rc $rc: $(tr '\n' ' ' <<<"$out")" >>"$dir/errors-$c"
      if [[ -e "$dir/stop" && $(( $(date +%s) - $(stat -c %Y "$dir/stop") )) -gt 90 ]]; then break; fi
      sleep 0.2
    done
    echo "$key $outcome $snapshot $attempt" >>"$dir/client-$c"
  done
}

# reader URL TABLE DIR: scans in a loop until DIR/reader-stop (at most 3,000 scans); a line per
# scan in DIR/reader: "ok ROWS", "down" (a transient error) or "error MESSAGE" / "bad ...".
reader() {
  local url="$1" table="$2" dir="$3" i rc rows last=0 counts child=""
  trap '[[ -n "$child" ]] && kill -9 "$child" 2>/dev/null; exit 0' TERM
  for ((i = 0; i < 3000; i++)); do
    [[ -e "$dir/reader-stop" ]] && break
    timeout -s KILL 60 "$floe" --catalog "$url" scan "$table" --format csv --columns batch \
      >"$dir/scan.csv" 2>"$dir/scan.err" &
    child=$!
    wait "$child"
    rc=$?
    child=""
    if [[ $rc -eq 0 ]]; then
      rows=$(($(wc -l <"$dir/scan.csv") - 1))
      counts="$(tail -n +2 "$dir/scan.csv" | sort | uniq -c | awk -v n="$rows_per_batch" '$1 != n' | head -n 3)"
      if [[ -n "$counts" ]]; then
        echo "bad batch counts: $(tr '\n' ' ' <<<"$counts")" >>"$dir/reader"
      elif ((rows < last)); then
        echo "bad rows went back from $last to $rows" >>"$dir/reader"
      else
        echo "ok $rows" >>"$dir/reader"
        last=$rows
      fi
    elif grep -qE "$transient" "$dir/scan.err"; then
      echo "down" >>"$dir/reader"
    else
      echo "error rc $rc: $(tr '\n' ' ' <"$dir/scan.err")" >>"$dir/reader"
    fi
    sleep 0.2
  done
}

# scenario NAME SERVERS: the whole run on a table of its own.
scenario() {
  local name="$1" servers="$2" dir="$work/$1" table="kill.events_$1" url s i event end start_time
  mkdir -p "$dir"
  note "== scenario $name ($backend): $servers floe serve process(es), $clients clients, ${chaos_seconds}s of kills"
  db_proxy_pid=""
  if [[ "$backend" == postgresql ]]; then
    start_proxy "$pg_port"
    db_proxy_port="$proxy_port" db_proxy_pid="$proxy_pid"
  fi
  for ((s = 0; s < servers; s++)); do start_server "$s" 0; done
  if ((servers == 1)); then
    url="http://127.0.0.1:${server_port[0]}"
  else
    start_proxy "${server_port[@]:0:$servers}"
    url="http://127.0.0.1:$proxy_port"
  fi
  "$floe" --catalog "$url" namespace create kill >/dev/null 2>&1
  if ! "$floe" --catalog "$url" create "$table" --schema 'batch string, n long' >"$dir/create.log" 2>&1; then
    cat "$dir/create.log" >&2
    fail "$name: could not create $table"
    return
  fi

  local client_pids=() reader_pid
  for ((c = 0; c < clients; c++)); do
    # (the shell's own "Killed" notices for the attempts killed on purpose go to a file)
    client "$c" "$url" "$table" "$dir" 2>>"$dir/shell-notices.err" &
    client_pids+=($!)
    track "$!"
  done
  reader "$url" "$table" "$dir" &
  reader_pid=$!
  track "$reader_pid"

  # The chaos: one event every 1.5-3 s, in turns, for chaos_seconds.
  local kills=0 crashes=0 cuts=0 victim=0
  start_time=$(date +%s)
  end=$((start_time + chaos_seconds))
  for ((i = 0; i < 200 && $(date +%s) < end; i++)); do
    nap $((15 + RANDOM % 16))
    event=$((i % 5))
    [[ "$backend" == sqlite ]] && event=0  # no database server to crash, no connection to cut
    case $event in
      0|4)  # SIGKILL a server mid-commit, restart it on its port
        victim=$(( (kills) % servers ))
        kill_server "$victim"
        kills=$((kills + 1))
        nap $((3 + RANDOM % 8))
        start_server "$victim" "${server_port[$victim]}"
        ;;
      2)  # the database crashes and comes back
        if ! bash "$repo/scripts/pg.sh" crash; then fail "$name: pg_ctl stop -m immediate failed"; fi
        crashes=$((crashes + 1))
        nap $((5 + RANDOM % 10))
        if ! bash "$repo/scripts/pg.sh" restart; then fail "$name: PostgreSQL did not restart"; return; fi
        ;;
      1|3)  # the network between the servers and the database breaks
        kill -USR1 "$db_proxy_pid"
        cuts=$((cuts + 1))
        ;;
    esac
  done
  note "$name: chaos over: $kills server kills, $crashes database crashes, $cuts network cuts"
  touch "$dir/stop"
  for pid in "${client_pids[@]}"; do wait "$pid"; done
  touch "$dir/reader-stop"
  wait "$reader_pid"
  note "$name: clients done after $(( $(date +%s) - start_time ))s"

  # ---- what the clients were told against what the table holds ----
  cat "$dir"/client-* >"$dir/answers"
  "$floe" "${direct[@]}" scan "$table" --format csv --columns batch >"$dir/final.csv" 2>"$dir/final.err" ||
    fail "$name: the final scan failed: $(cat "$dir/final.err")"
  tail -n +2 "$dir/final.csv" | sort | uniq -c | awk '{print $2, $1}' >"$dir/in-table"
  local landed replayed failed gave_up attempts
  landed=$(awk '$2 ~ /^landed/' "$dir/answers" | wc -l)
  replayed=$(awk '$2 == "landed-replayed"' "$dir/answers" | wc -l)
  failed=$(awk '$2 == "failed"' "$dir/answers" | wc -l)
  gave_up=$(awk '$2 == "gave-up"' "$dir/answers" | wc -l)
  attempts=$(awk '{s += $4} END {print s + 0}' "$dir/answers")
  note "$name: $landed batches landed ($replayed of them found already committed by a retry), $failed told failed, $gave_up gave up, $attempts attempts in all"
  ((landed > 0)) || fail "$name: no batch landed"
  ((gave_up == 0)) || fail "$name: $gave_up batches got no definite answer: $(awk '$2 == "gave-up" {print $1}' "$dir/answers" | tr '\n' ' ')"
  local key outcome snapshot n
  while read -r key outcome snapshot _; do
    n="$(awk -v k="$key" '$1 == k {print $2}' "$dir/in-table")"
    n="${n:-0}"
    case "$outcome" in
      landed*) [[ "$n" == "$rows_per_batch" ]] || fail "$name: batch $key was told landed (snapshot $snapshot) but has $n rows" ;;
      failed) [[ "$n" == 0 ]] || fail "$name: batch $key was told failed but has $n rows in the table" ;;
    esac
  done <"$dir/answers"
  while read -r key n; do
    grep -q "^$key " "$dir/answers" || fail "$name: rows of batch $key that no client started"
    [[ "$n" == "$rows_per_batch" ]] || fail "$name: batch $key has $n rows (lands exactly once: $rows_per_batch)"
  done <"$dir/in-table"
  # The snapshot each client was answered is in the table's history and carries its key; no key
  # is in two snapshots.
  "$floe" "${direct[@]}" snapshots "$table" --format jsonl >"$dir/snapshots.jsonl" 2>&1 ||
    fail "$name: floe snapshots failed: $(head -c 300 "$dir/snapshots.jsonl")"
  local snapshot_check
  snapshot_check="$(python3 - "$dir/snapshots.jsonl" "$dir/answers" <<'PY'
import collections, json, sys
key_of, count = {}, collections.Counter()
for line in open(sys.argv[1]):
    s = json.loads(line)
    key = s.get("summary", {}).get("floe.idempotency-key")
    key_of[str(s["snapshot_id"])] = key
    if key:
        count[key] += 1
for key, n in count.items():
    if n > 1:
        print(f"key {key} is in {n} snapshots")
for line in open(sys.argv[2]):
    key, outcome, snapshot, _ = line.split()
    if outcome.startswith("landed") and key_of.get(snapshot) != key:
        print(f"batch {key} was answered snapshot {snapshot}, which holds {key_of.get(snapshot, 'no such snapshot')}")
PY
)"
  [[ -z "$snapshot_check" ]] || fail "$name: $(head -n 5 <<<"$snapshot_check")"
  local odd
  odd="$(cat "$dir"/errors-* 2>/dev/null | grep -vE "$transient" | head -n 5)"
  [[ -z "$odd" ]] || fail "$name: clients saw errors other than a server or database down: $odd"
  note "$name: client errors by kind: $(cat "$dir"/errors-* 2>/dev/null | grep -oE "$transient" | sort | uniq -c | awk '{$1=$1; print}' | tr '\n' ';')"

  local reads_ok reads_down
  reads_ok=$(grep -c '^ok' "$dir/reader")
  reads_down=$(grep -c '^down' "$dir/reader")
  note "$name: reader: $reads_ok scans read the table, $reads_down found the server or database down"
  ((reads_ok > 0)) || fail "$name: the reader never read the table"
  if grep -qvE '^(ok|down)' "$dir/reader"; then
    fail "$name: the reader saw: $(grep -vE '^(ok|down)' "$dir/reader" | head -n 3)"
  fi

  # ---- what the killed attempts left, reclaimed ----
  local location now
  location="$warehouse/kill/events_$name"
  find "$location" -type f | sort >"$dir/files-before"
  now="$(date +%s%3N)"
  psql_count() {
    local sql="SELECT count(*) FROM floe_write_intents WHERE catalog_name = 'kill' AND table_name = 'events_$name'"
    if [[ "$backend" == postgresql ]]; then
      psql -X -qtA "$pg_uri" -c "$sql" 2>/dev/null
    else
      python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' \
        "$warehouse/catalog.db" "$sql" 2>/dev/null
    fi
  }
  local intents_before intents_after
  intents_before="$(psql_count)"
  "$floe" "${direct[@]}" remove-orphan-files "$table" --from-intents --older-than "$now" --dry-run \
    >"$dir/intents-dry.log" 2>&1 || fail "$name: remove-orphan-files --from-intents --dry-run failed: $(cat "$dir/intents-dry.log")"
  sed -n 's/^ *orphan *//p' "$dir/intents-dry.log" | sed 's#^file://##' | sort >"$dir/intent-orphans"
  "$floe" "${direct[@]}" remove-orphan-files "$table" --from-intents --older-than "$now" \
    >"$dir/intents.log" 2>&1 || fail "$name: remove-orphan-files --from-intents failed: $(cat "$dir/intents.log")"
  intents_after="$(psql_count)"
  # An intent names a file before it is created: a killed attempt may have named files it never
  # wrote, and reclaiming "deletes" those too. What existed is gone, and nothing else went.
  local f existed=0
  while read -r f; do
    [[ -n "$f" ]] || continue
    grep -qxF "$f" "$dir/files-before" && existed=$((existed + 1))
    [[ ! -e "$f" ]] || fail "$name: --from-intents did not delete $f"
  done <"$dir/intent-orphans"
  find "$location" -type f | sort >"$dir/files-after-intents"
  comm -23 "$dir/files-before" "$dir/files-after-intents" >"$dir/gone-by-intents"
  [[ -z "$(comm -23 "$dir/gone-by-intents" "$dir/intent-orphans")" ]] ||
    fail "$name: --from-intents deleted files it did not name: $(comm -23 "$dir/gone-by-intents" "$dir/intent-orphans" | head -n 3)"
  "$floe" "${direct[@]}" scan "$table" --format csv --columns batch >"$dir/after-intents.csv" 2>&1 ||
    fail "$name: the scan after --from-intents failed: $(cat "$dir/after-intents.csv")"
  cmp -s <(sort "$dir/final.csv") <(sort "$dir/after-intents.csv") ||
    fail "$name: the table reads differently after --from-intents"
  [[ "$intents_after" == 0 ]] || fail "$name: $intents_after write intents of the table are left after --from-intents"
  note "$name: --from-intents: $(head -n 1 "$dir/intents.log"); $existed of them existed; intents $intents_before before, $intents_after after"

  "$floe" "${direct[@]}" remove-orphan-files "$table" --older-than "$now" --dry-run >"$dir/sweep-dry.log" 2>&1 ||
    fail "$name: remove-orphan-files --dry-run (listing) failed: $(cat "$dir/sweep-dry.log")"
  note "$name: the listing sweep finds besides: $(sed -n 's/^ *orphan *//p' "$dir/sweep-dry.log" | sed -E 's#.*/(data|metadata)/.*\.([a-z]+)$#\1 .\2#' | sort | uniq -c | awk '{$1=$1; print}' | tr '\n' ';')"
  "$floe" "${direct[@]}" remove-orphan-files "$table" --older-than "$now" >"$dir/sweep.log" 2>&1 ||
    fail "$name: remove-orphan-files (listing) failed: $(cat "$dir/sweep.log")"
  "$floe" "${direct[@]}" scan "$table" --format csv --columns batch >"$dir/after-sweep.csv" 2>&1 ||
    fail "$name: the scan after the listing sweep failed: $(cat "$dir/after-sweep.csv")"
  cmp -s <(sort "$dir/final.csv") <(sort "$dir/after-sweep.csv") ||
    fail "$name: the table reads differently after the listing sweep"
  note "$name: listing sweep after it: $(head -n 1 "$dir/sweep.log")"

  # Stop this scenario's processes (the database stays for the next).
  for ((s = 0; s < servers; s++)); do kill_server "$s"; done
  ((servers > 1)) && { kill "$proxy_pid" 2>/dev/null; wait "$proxy_pid" 2>/dev/null; }
  if [[ -n "$db_proxy_pid" ]]; then kill "$db_proxy_pid" 2>/dev/null; wait "$db_proxy_pid" 2>/dev/null; fi
}

started=$(date +%s)
scenario one 1
scenario two 2
note "done in $(( $(date +%s) - started ))s with $failures failures"
if ((failures > 0)); then
  exit 1
fi
echo "kill_mid_commit_test: passed"
