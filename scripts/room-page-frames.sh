#!/usr/bin/env bash
# How smoothly a phone's room page draws thrown dice, the page as it was and as it is now, in one
# run on this machine: `dicetable serve` on a free loopback port with a fresh SQLite folder, then
# web/tests/frames-bench.mjs in headless chromium (SwiftShader's software WebGL): the frames the
# tray draws while a throw's dice move, per throw and per second of motion, for the room page
# of BASE (its files served in place of the server's own) and for the server's.
# Usage: scripts/room-page-frames.sh [THROWS] [NOTATION] [LOOKS] (BASE=commit, default b723296: the
# page before #43; DICETABLE_BIN picks the binary; default: the release build). With LOOKS
# (`plain,translucent,stone-serif`), today's page once per look of the thrower's dice instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
throws=${1:-10}
notation=${2:-1d20+1d10+1d6+1d4}
base=${BASE:-b723296}
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
ensure_web
old=$(mktemp -d)
for f in room.html room.js table.css common.js check.js written.js overlay.html overlay.js; do
    git show "$base:web/$f" > "$old/$f"
done
# The old page loaded three.js unbundled, as npm installs it.
mkdir -p "$old/three"
cp web/node_modules/three/build/three.module.js web/node_modules/three/build/three.core.js "$old/three/"
source scripts/table-server.sh
# Four browser windows on one address, each with up to six keep-alive connections beside its
# sockets: the per-address limit must hold them all.
start_table_server 1 48
scratch_files+=("$old")
node web/tests/frames-bench.mjs "http://${url#ws://}/" "$old" "$throws" "$notation" "${3:-}"
