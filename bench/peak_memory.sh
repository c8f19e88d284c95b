#!/usr/bin/env bash
# Runs a command and prints its peak RssAnon (the process's own memory) and peak RssFile (its
# resident pages of mapped files), sampled from /proc/PID/status every 50 ms; /usr/bin/time's
# peak RSS is their sum.
#
#   bash bench/peak_memory.sh build/floe append b.t src.parquet
set -u
"$@" > /dev/null &
pid=$!
max_anon=0
max_file=0
while kill -0 "$pid" 2>/dev/null; do
  anon=$(awk '/^RssAnon/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  file=$(awk '/^RssFile/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  [ -n "$anon" ] && [ "$anon" -gt "$max_anon" ] && max_anon=$anon
  [ -n "$file" ] && [ "$file" -gt "$max_file" ] && max_file=$file
  sleep 0.05
done
wait "$pid"
status=$?
echo "exit $status; peak RssAnon $((max_anon / 1024)) MiB, peak RssFile $((max_file / 1024)) MiB"
exit "$status"
