#!/usr/bin/env bash
# Whether every throw the table accepts comes to rest: `dicetable bench --settle` (release build)
# throws each die kind at 1, 10, 40 and 100 dice, and a mixed 100, over SEEDS seeds each (default
# 50), on every core; exits 1 when any throw did not settle. The figures of docs/performance.md,
# "Settling a hundred dice".
# Usage: scripts/settle-bench.sh [SEEDS] [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
seeds=${1:-50}
shift || true
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release --bin dicetable
exec "$bin" bench --settle --seeds "$seeds" "$@"
