#!/usr/bin/env bash
# The published fairness figures: `dicetable fairness` for every die, THROWS throws each (default
# 1,000,000), seed 2026, on every core, JSON into docs/fairness/, then the table rows of
# docs/fairness.md, each with the run's wall time.
# Usage: scripts/fairness-all.sh [THROWS [DIE...]]   (default: every die, the tens die and the
# marked cubes too; DICETABLE_BIN picks the binary, default: release; HAND=softest or hardest
# throws with a gesture's extreme hand, into docs/fairness/<die>-<hand>.json). A DIE written
# `d14+d7` throws the d14 and reads the same throws as a d7 too (`fairness --also`: dice of one
# solid), one file each.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
throws=${1:-1000000}
shift || true
dice=("$@")
[ ${#dice[@]} -gt 0 ] || dice=(d4 d6 d8 d10 d10t d12 d20 d2 d3 dF)
hand=${HAND:-random}
suffix=""
[ "$hand" = random ] || suffix="-$hand"
bin=${DICETABLE_BIN:-$CARGO_TARGET_DIR/release/dicetable}
[ -x "$bin" ] || cargo build --release
read_as=()
for spec in "${dice[@]}"; do
  IFS=+ read -r -a alike <<<"$spec"
  die=${alike[0]}
  start=$(date +%s)
  if [ ${#alike[@]} -eq 1 ]; then
    "$bin" fairness --die "$die" --throws "$throws" --seed 2026 --hand "$hand" --json \
      > "docs/fairness/$die$suffix.json"
  else
    also=()
    for other in "${alike[@]:1}"; do also+=(--also "$other"); done
    "$bin" fairness --die "$die" "${also[@]}" --throws "$throws" --seed 2026 --hand "$hand" \
      --json | python3 -c '
import json, sys
for f in json.load(sys.stdin):
    with open("docs/fairness/" + f["die"] + sys.argv[1] + ".json", "w") as out:
        json.dump(f, out, indent=2)
' "$suffix"
  fi
  read_as+=("${alike[@]}")
  echo "$spec$suffix done in $(( $(date +%s) - start )) s" >&2
done
python3 - "$suffix" "${read_as[@]}" <<'PY'
import json, sys
suffix = sys.argv[1]
for die in sys.argv[2:]:
    f = json.load(open(f"docs/fairness/{die}{suffix}.json"))
    n = f["throws"]; s = f["settle_time"]; m = f["memory"]
    print(f"| {die} | {n} | {f['chi_square']:.2f} ({f['degrees_of_freedom']}) | {f['p_value']:.3f} "
          f"| {f['cocked']} ({100 * f['cocked_rate']:.3f}%) | {f['escaped']} "
          f"| {s['mean']:.2f} / {s['median']:.2f} / {s['p99']:.2f} | {f['bounces']['mean']:.2f} "
          f"| {m['p_value']:.3f} | {100 * m['same_face_rate']:.2f}% ({100 * m['fair_same_face_rate']:.2f}%) "
          f"| {f['throws_per_second']:.0f} | {n / f['throws_per_second'] / 60:.1f} min |")
PY
