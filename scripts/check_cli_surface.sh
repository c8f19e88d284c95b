#!/usr/bin/env bash
# Checks that the `floe` command's files named as arguments stand on include/floe alone: each,
# and every cli/ header it includes (followed through), includes only floe/ and cli/ headers
# of floe's own (and system or third-party <...> headers). Used by the ctest cli_public_surface
# with CMakeLists.txt's FLOE_CLI_PUBLIC_SOURCES.
#   check_cli_surface.sh SRC_DIR FILE...   (FILE relative to SRC_DIR/cli)
set -euo pipefail
src="${1:?usage: check_cli_surface.sh SRC_DIR FILE...}"
shift
declare -A seen=()
bad=0
check() {
  local file="$1" from="$2"
  [[ -n "${seen[$file]:-}" ]] && return 0
  seen[$file]=1
  if [[ ! -f "$src/$file" ]]; then echo "check_cli_surface: $file (from $from) does not exist" >&2; bad=1; return 0; fi
  local inc
  while IFS= read -r inc; do
    case "$inc" in
      floe/*) ;;
      cli/*) check "$inc" "$file" ;;
      *) echo "check_cli_surface: $file includes internal header \"$inc\"${from:+ (reached from $from)}" >&2; bad=1 ;;
    esac
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$src/$file")
}
for f in "$@"; do check "cli/$f" ""; done
if [[ $bad -ne 0 ]]; then exit 1; fi
echo "check_cli_surface: $# files stand on include/floe alone"
