#!/usr/bin/env bash
# The table server under load on this machine: `dicetable serve` on a free loopback port with a
# fresh SQLite folder, `dicetable loadtest` against it, then the server's CPU time and peak
# memory. Usage: scripts/online-bench.sh ROOMS CLIENTS [INTERVAL_MS] [SECONDS]
# (DICETABLE_BIN picks the binary; default: the release build). With UNLOAD_AFTER=SECONDS the
# server unloads idle rooms that soon, and the script also prints its memory once the load's
# rooms have all left memory.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
rooms=${1:-100} clients=${2:-6} interval=${3:-10000} seconds=${4:-30}
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
data=$(mktemp -d ${BENCH_DATA_DIR:+-p "$BENCH_DATA_DIR"})
log=$(mktemp)
# Every client connects from 127.0.0.1: the per-address limit is raised to hold them all.
"$bin" serve --listen 127.0.0.1:0 --data "$data" --per-address $((rooms * clients + 16)) ${UNLOAD_AFTER:+--unload-after "$UNLOAD_AFTER"} > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data" "$log"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$log")
ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{print ($14+$15)/t}' "/proc/$server/stat"; }
before=$(cpu)
start=$(date +%s.%N)
"$bin" loadtest --url "$url" --rooms "$rooms" --clients "$clients" --interval-ms "$interval" --seconds "$seconds" | tail -4
end=$(date +%s.%N)
after=$(cpu)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
echo "server: $(echo "$after - $before" | bc) s of CPU over $(echo "$end - $start" | bc | cut -c1-6) s (connecting included), peak memory $((peak / 1024)) MiB"
if [ -n "${UNLOAD_AFTER:-}" ]; then
  rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
  loaded=$(rss)
  for _ in $(seq $((UNLOAD_AFTER * 10 + 600))); do
    [ "$(grep -c ': unloaded (idle)' "$log")" -ge "$rooms" ] && break
    sleep 0.1
  done
  echo "server memory: $((loaded / 1024)) MiB with the $rooms rooms loaded and idle, $(($(rss) / 1024)) MiB once $(grep -c ': unloaded (idle)' "$log") were unloaded"
fi
