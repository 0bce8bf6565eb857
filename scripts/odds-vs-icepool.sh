#!/usr/bin/env bash
# Exact odds: dicetable against icepool (the Python reference), same machine, same run.
# Usage: scripts/odds-vs-icepool.sh [LIMIT_SECONDS [NOTATION...]]
#   (default 120 s per icepool case; default notations: those of `bench --odds-only`)
# Needs a release build (cargo build --release); icepool comes from scripts/icepool-python.sh.
# Prints a Markdown table: dicetable's mean per distribution (`bench --odds-only`), icepool's
# time for the same notation in a fresh process, and how many times faster dicetable is.
# A keep among exploding dice (each explosion a die of its own) has no icepool form: said so.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
shift || true
bin=${DICETABLE_BIN:-${CARGO_TARGET_DIR:-target}/release/dicetable}
py=$(scripts/icepool-python.sh)
[ -x "$bin" ] || { echo "no release binary at $bin: cargo build --release" >&2; exit 2; }
echo "icepool $("$py" -c 'import icepool; print(icepool.__version__)'), $(nproc) cores, $(date -u +%F)"
asked=()
for notation in "$@"; do asked+=(--notation "$notation"); done
bench=$("$bin" bench --odds-only --json "${asked[@]}")
echo
echo "| notation | dicetable | icepool | icepool / dicetable |"
echo "|---|---|---|---|"
cases=$(python3 -c "import json,sys; print(' '.join(r['name'] for r in json.loads(sys.argv[1])['odds'] if 'default action' not in r['name']))" "$bench")
for notation in $cases; do
    ours=$(python3 -c "import json,sys; rows=json.loads(sys.argv[1])['odds']; print(next(r['mean_ms'] for r in rows if r['name']==sys.argv[2]))" "$bench" "$notation")
    status=0
    theirs=$(timeout "$limit" "$py" scripts/icepool_case.py "$notation") || status=$?
    if [ "$status" -eq 0 ]; then
        python3 -c "import sys; o=float(sys.argv[2]); t=float(sys.argv[3])*1e3; print(f'| {sys.argv[1]} | {o:.3f} ms | {t:.1f} ms | {t/o:.0f}x |')" "$notation" "$ours" "$theirs"
    elif [ "$status" -eq 3 ]; then
        python3 -c "import sys; o=float(sys.argv[2]); print(f'| {sys.argv[1]} | {o:.3f} ms | no icepool form | |')" "$notation" "$ours"
    else
        python3 -c "import sys; o=float(sys.argv[2]); print(f'| {sys.argv[1]} | {o:.3f} ms | over {sys.argv[3]} s | over {float(sys.argv[3])*1e3/o:.0f}x |')" "$notation" "$ours" "$limit"
    fi
done
