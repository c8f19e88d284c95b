# Sourced by the benches that time a peer (not run): finds the pinned peers that
# scripts/peers.sh installed, without installing anything, and skips the bench clearly when
# they are not there.
#
#   . "$here/bench/peers_env.sh"
#   need_peer FLOE_PEERS_PYTHON      # exits 77 with "skipped: no peers (...)" when unset
#
# Variables already set win; else they are read from the peers' own env file
# (${FLOE_PEERS_DIR:-~/.cache/floe-peers}/peers.env), which scripts/peers.sh writes.
peers_env_file="${FLOE_PEERS_DIR:-${HOME:-/root}/.cache/floe-peers}/peers.env"
if [[ -f "$peers_env_file" ]]; then
  while IFS='=' read -r key value; do
    [[ "$key" == FLOE_PEERS_* && -z "${!key:-}" ]] && export "$key=$value"
  done <"$peers_env_file"
fi

need_peer() {  # VARIABLE: the peer this bench cannot run without
  local value="${!1:-}"
  if [[ -z "$value" || ! -e "$value" ]]; then
    echo "skipped: no peers ($1 is not set or missing; install them with bash scripts/peers.sh)"
    exit 77
  fi
}
