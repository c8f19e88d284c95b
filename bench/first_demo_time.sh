#!/usr/bin/env bash
# Clone to first demo output on a fresh Debian 12, timed: a minimal Debian 12 root made by
# debootstrap, this repository cloned into it, then `scripts/demo.sh` run inside it (apt
# installs the build packages, the `floe` target is built cold, `floe demo` runs). Needs root,
# debootstrap and a reachable Debian mirror.
#
#   sudo bash bench/first_demo_time.sh [ROOT]     # ROOT: the folder for the Debian root
#
# A ROOT that already holds a Debian root is reused as it is (make a new one for every
# measurement: packages installed by an earlier run would make apt a no-op). Prints the time
# of each part, from the clone to the demo's last line.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="${1:-$(mktemp -d /tmp/floe-first-demo.XXXXXX)}"
mirror="${FLOE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [[ ! -x "$root/bin/bash" ]]; then
  echo "first-demo: debootstrap of Debian 12 into $root (not timed)"
  debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
rm -rf "$root/root/floe" "$root/root/demo"

echo "first-demo: $(uptime)"
start=$(date +%s.%N)
git clone -q "$repo" "$root/root/floe"
chroot "$root" /bin/bash -c 'cd /root/floe && FLOE_DEMO_DIR=/root/demo bash scripts/demo.sh' \
  > "$root.demo.log" 2>&1
end=$(date +%s.%N)
grep -E '^build: .* done in' "$root.demo.log" || true
tail -n 2 "$root.demo.log"
echo "first-demo: clone to demo output in $(awk "BEGIN { printf \"%.0f\", $end - $start }") s"
echo "first-demo: $(uptime)"
