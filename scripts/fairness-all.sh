#!/usr/bin/env bash
# The published fairness figures: `dicetable fairness` for every die, THROWS throws each (default
# 100,000), seed 2026, on every core, JSON into docs/fairness/, then the table rows of docs/fairness.md.
# Usage: scripts/fairness-all.sh [THROWS [DIE...]]   (default: every die, the marked cubes too;
# DICETABLE_BIN picks the binary; default: release)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
throws=${1:-100000}
shift || true
dice=("$@")
[ ${#dice[@]} -gt 0 ] || dice=(d4 d6 d8 d10 d12 d20 d2 d3 dF)
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
for die in "${dice[@]}"; do
  "$bin" fairness --die "$die" --throws "$throws" --seed 2026 --json > "docs/fairness/$die.json"
  echo "$die done" >&2
done
python3 - "${dice[@]}" <<'PY'
import json, sys
for die in sys.argv[1:]:
    f = json.load(open(f"docs/fairness/{die}.json"))
    n = f["throws"]; s = f["settle_time"]; m = f["memory"]
    print(f"| {die} | {n} | {f['chi_square']:.2f} ({f['degrees_of_freedom']}) | {f['p_value']:.3f} "
          f"| {f['cocked']} ({100 * f['cocked_rate']:.3f}%) | {f['escaped']} "
          f"| {s['mean']:.2f} / {s['median']:.2f} / {s['p99']:.2f} | {f['bounces']['mean']:.2f} "
          f"| {m['p_value']:.3f} | {100 * m['same_face_rate']:.2f}% ({100 * m['fair_same_face_rate']:.2f}%) "
          f"| {f['throws_per_second']:.0f} |")
PY
