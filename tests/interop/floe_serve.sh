# Sourced by the shell tests of tests/interop: starts `floe serve` on a free loopback port.
#
#   floe_serve_start OUT ERR FLOE [--catalog URI ...] serve [OPTIONS...]
#
# Runs the command given (its standard output to OUT, standard error to ERR) in the background,
# waits at most 10 s for its "listening on URL" line, and sets FLOE_SERVE_PID and FLOE_SERVE_URL.
# Returns 1, with ERR shown, if the server exits or never listens; the caller stops it.
floe_serve_start() {
  local out="$1" err="$2"
  shift 2
  "$@" >"$out" 2>"$err" &
  FLOE_SERVE_PID=$!
  FLOE_SERVE_URL=""
  local _
  for _ in $(seq 1 100); do
    FLOE_SERVE_URL="$(sed -n 's/^floe serve: listening on //p' "$out")"
    [[ -n "$FLOE_SERVE_URL" ]] && return 0
    kill -0 "$FLOE_SERVE_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "floe serve did not start: $*" >&2
  cat "$err" >&2
  return 1
}
