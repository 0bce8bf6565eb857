#!/usr/bin/env bash
# The table server under load on this machine: `dicetable serve` on a free loopback port with a
# fresh SQLite folder, `dicetable loadtest` against it, then the server's CPU time and peak
# memory. The clients connect from addresses of their own (`loadtest --from each`; FROM=household
# or one changes it). Usage: scripts/online-bench.sh ROOMS CLIENTS [INTERVAL_MS] [SECONDS]
# (DICETABLE_BIN picks the binary; default: the release build). With UNLOAD_AFTER=SECONDS the
# server unloads idle rooms that soon, and the script also prints its memory once the load's
# rooms have all left memory. With STORE=nats the rooms are kept in a NATS JetStream of the
# script's own (`serve --nats`), and NATS's CPU is printed too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
source scripts/table-server.sh
rooms=${1:-100} clients=${2:-6} interval=${3:-10000} seconds=${4:-30}
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
start_table_server "$rooms" "$clients" ${UNLOAD_AFTER:+--unload-after "$UNLOAD_AFTER"}
before=$(server_cpu) nats_before=$(nats_cpu)
start=$(date +%s.%N)
"$bin" loadtest --url "$url" --rooms "$rooms" --clients "$clients" --interval-ms "$interval" --seconds "$seconds" --from "${FROM:-each}" | tail -4
end=$(date +%s.%N)
after=$(server_cpu) nats_after=$(nats_cpu)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
awk -v a="$after" -v b="$before" -v s="$start" -v e="$end" -v p=$((peak / 1024)) \
  'BEGIN { printf "server: %.2f s of CPU over %.1f s (connecting included), peak memory %d MiB\n", a - b, e - s, p }'
if [ -n "$nats" ]; then
  awk -v a="$nats_after" -v b="$nats_before" 'BEGIN { printf "nats-server: %.2f s of CPU the same time\n", a - b }'
fi
if [ -n "${UNLOAD_AFTER:-}" ]; then
  rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
  loaded=$(rss)
  for _ in $(seq $((UNLOAD_AFTER * 10 + 600))); do
    [ "$(grep -c ': unloaded (idle)' "$log")" -ge "$rooms" ] && break
    sleep 0.1
  done
  echo "server memory: $((loaded / 1024)) MiB with the $rooms rooms loaded and idle, $(($(rss) / 1024)) MiB once $(grep -c ': unloaded (idle)' "$log") were unloaded"
fi
