#!/usr/bin/env bash
# Prints the path of a Python that has icepool (the version and hash pinned in
# scripts/icepool-requirements.txt), making its virtual environment the first time
# (~/.cache/dicetable/icepool-2.1.3; needs python3-venv, which ./check installs).
# Used by tests/icepool.rs; `$(scripts/icepool-python.sh) scripts/notation-vs-icepool.py` by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${DICETABLE_ICEPOOL_VENV:-$HOME/.cache/dicetable/icepool-2.1.3}"
if ! "$venv/bin/python" -c "import icepool" 2>/dev/null; then
    echo "making $venv with icepool (pip, from scripts/icepool-requirements.txt)" >&2
    python3 -m venv --clear "$venv" >&2 || {
        echo "error: python3 -m venv failed: install python3-venv" >&2
        exit 1
    }
    "$venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
        -r scripts/icepool-requirements.txt >&2
fi
echo "$venv/bin/python"
