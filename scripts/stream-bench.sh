#!/usr/bin/env bash
# The stream benchmark: the table (release) under an Xvfb of its own, serving on a free port,
# and the overlay in headless chromium. Prints the latency from "all dice settled" in the table
# to the result drawn in the page (median, p99 over ROLLS rolls, default 100) and the feed's
# bytes per roll for 1, 10 and 100 dice.
#   scripts/stream-bench.sh [ROLLS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_packages $BEVY_PACKAGES $HEADLESS_PACKAGES $BROWSER_PACKAGES
ensure_web
# DICETABLE_BIN picks the binary (default: a release build).
if [ -z "${DICETABLE_BIN:-}" ]; then
    cargo build --release
fi
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
log=$(mktemp)
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" play --listen 127.0.0.1:0 --mute --width 640 --height 400 >"$log" 2>/dev/null &
app=$!
trap 'kill $app 2>/dev/null; pkill -P $app 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 600); do
    grep -q "^listening on " "$log" && break
    sleep 0.2
done
base=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)
[ -n "$base" ] || { echo "the table did not start" >&2; exit 1; }
echo "table at $base" >&2
node web/tests/bench.mjs "$base" "${1:-100}"
