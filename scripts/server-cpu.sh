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
source scripts/table-server.sh
rooms=${1:-100} clients=${2:-6} seconds=${3:-60}
[ "$seconds" -gt 20 ] || { echo "error: SECONDS must be over 20 (the first 12 are not counted)" >&2; exit 2; }
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release --no-default-features
start_table_server "$rooms" "$clients"
load=$(mktemp)
scratch_files+=("$load")
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
cpu0=$(server_cpu) n0=$(entries)
wait $loader
cpu1=$(server_cpu) n1=$(entries)
tail -1 "$load"
echo "server, from 12 s to the end: $(echo "$cpu1 - $cpu0" | bc) s of CPU for $((n1 - n0)) throws stored: $(echo "scale=2; ($cpu1 - $cpu0) * 1000 / ($n1 - $n0)" | bc) ms a throw"
