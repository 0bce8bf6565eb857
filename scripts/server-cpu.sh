#!/usr/bin/env bash
# The table server's CPU per 1d20 throw, storage included, in the steady state: `dicetable serve`
# on a free loopback port with a fresh SQLite folder, `dicetable loadtest` against it, and the
# server's CPU time (/proc/PID/stat) and the log's stored entries (one per throw once every
# client has joined) from 12 s after the start to the end, so connecting is not counted. The
# clients connect from addresses of their own (`loadtest --from each`; FROM=household or one
# changes it), as players across the internet would. With STORE=nats the rooms are kept in a
# NATS JetStream of the script's own instead, and NATS's CPU is printed beside the server's.
# MODE=self|gamemaster|blind throws every roll hidden in that mode (`loadtest --mode`), for a
# secret roll's cost beside a public one's; the load tool prints the bytes each client was sent.
# Usage: scripts/server-cpu.sh ROOMS CLIENTS SECONDS   (DICETABLE_BIN picks the binary; default:
# the release build without the window; WARMUP=SECONDS the part not counted, 12 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
source scripts/table-server.sh
rooms=${1:-100} clients=${2:-6} seconds=${3:-60} warmup=${WARMUP:-12}
[ "$seconds" -gt $((warmup + 2)) ] || { echo "error: SECONDS must be over $((warmup + 2)) (the first $warmup are not counted)" >&2; exit 2; }
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release --no-default-features
start_table_server "$rooms" "$clients"
load=$(mktemp)
scratch_files+=("$load")
"$bin" loadtest --url "$url" --rooms "$rooms" --clients "$clients" --interval-ms 10000 --seconds "$seconds" --from "${FROM:-each}" ${MODE:+--mode "$MODE"} > "$load" 2>&1 &
loader=$!
sleep "$warmup"
cpu0=$(server_cpu) nats0=$(nats_cpu) n0=$(stored_entries)
wait $loader || { cat "$load"; exit 1; }
cpu1=$(server_cpu) nats1=$(nats_cpu) n1=$(stored_entries)
grep -E "clients in|load tool:|each client was sent" "$load" || { cat "$load"; exit 1; }
[ $((n1 - n0)) -gt 0 ] || { echo "error: no throw was stored after the first $warmup s" >&2; exit 1; }
awk -v c0="$cpu0" -v c1="$cpu1" -v n=$((n1 - n0)) -v w="$warmup" -v s="${STORE:-sqlite}" \
  'BEGIN { printf "server (%s), from %d s to the end: %.2f s of CPU for %d throws stored: %.2f ms a throw\n", s, w, c1 - c0, n, (c1 - c0) * 1000 / n }'
if [ -n "$nats" ]; then
  awk -v c0="$nats0" -v c1="$nats1" -v n=$((n1 - n0)) \
    'BEGIN { printf "nats-server, the same time: %.2f s of CPU: %.2f ms a throw\n", c1 - c0, (c1 - c0) * 1000 / n }'
fi
