#!/usr/bin/env bash
# A room's page in the browser, measured on this machine: `dicetable serve` on a free loopback
# port with a fresh SQLite folder, then web/tests/seat-bench.mjs in headless chromium: from a
# throw's click on one player's page to the first frame its dice move on another player's page
# (p50, p99, max over THROWS throws of 1d6), and the bytes a page loads the first time.
# Usage: scripts/room-page-bench.sh [THROWS] (DICETABLE_BIN picks the binary; default: the
# release build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
throws=${1:-100}
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
[ -d web/node_modules/playwright-core ] || npm ci --prefix web
data=$(mktemp -d)
log=$(mktemp)
"$bin" serve --listen 127.0.0.1:0 --data "$data" > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data" "$log"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
addr=$(sed -n 's|^listening on ws://||p' "$log")
node web/tests/seat-bench.mjs "http://$addr/" "$throws"
