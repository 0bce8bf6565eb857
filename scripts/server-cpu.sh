#!/usr/bin/env bash
# The table server's CPU per 1d20 throw, storage included, in the steady state: `dicetable serve`
# on a free loopback port with a fresh SQLite folder, `dicetable loadtest` against it, and the
# server's CPU time (/proc/PID/stat) and the log's stored entries (one per throw once every
# client has joined) from 12 s after the start to the end, so connecting is not counted.
# Usage: scripts/server-cpu.sh ROOMS CLIENTS SECONDS   (DICETABLE_BIN picks the binary; default:
# the release build without the window)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
rooms=${1:-100} clients=${2:-6} seconds=${3:-60}
[ "$seconds" -gt 20 ] || { echo "error: SECONDS must be over 20 (the first 12 are not counted)" >&2; exit 2; }
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release --no-default-features
data=$(mktemp -d) log=$(mktemp) load=$(mktemp)
"$bin" serve --listen 127.0.0.1:0 --data "$data" --per-address $((rooms * clients + 16)) > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data" "$log" "$load"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$log")
ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{print ($14+$15)/t}' "/proc/$server/stat"; }
entries() {
  python3 - "$data" <<'PY'
import glob, sqlite3, sys
print(sum(sqlite3.connect(f"file:{f}?mode=ro", uri=True).execute("select count(*) from entries").fetchone()[0]
          for f in set(glob.glob(f"{sys.argv[1]}/**/*.sqlite", recursive=True))))
PY
}
"$bin" loadtest --url "$url" --rooms "$rooms" --clients "$clients" --interval-ms 10000 --seconds "$seconds" > "$load" 2>&1 &
loader=$!
sleep 12
cpu0=$(cpu) n0=$(entries)
wait $loader
cpu1=$(cpu) n1=$(entries)
tail -1 "$load"
echo "server, from 12 s to the end: $(echo "$cpu1 - $cpu0" | bc) s of CPU for $((n1 - n0)) throws stored: $(echo "scale=2; ($cpu1 - $cpu0) * 1000 / ($n1 - $n0)" | bc) ms a throw"
