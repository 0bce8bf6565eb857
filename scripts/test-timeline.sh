#!/usr/bin/env bash
# Runs the integration test binary (tests/dicetable) once, as ./check does, and prints when each
# test started and ended, in the order they started: what holds a run up (a lane waiting, a long
# test at the end). Arguments go to the test binary (a filter, `--test-threads 2`).
#
#   scripts/test-timeline.sh              the whole binary
#   scripts/test-timeline.sh shares::     the abuse tests only
#
# Libtest's JSON events are unstable: RUSTC_BOOTSTRAP=1 is given to the test binary alone, never
# to cargo (cargo would rebuild every crate with it, and again without it).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(cargo test --no-run --test dicetable --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and message["target"]["name"] == "dicetable" and message["profile"]["test"]:
        print(message["executable"])
')
[ -n "$binary" ] || { echo "no test binary: does 'cargo test --no-run' build?" >&2; exit 1; }
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-16}"
RUSTC_BOOTSTRAP=1 "$binary" -Z unstable-options --format json --report-time "$@" 2>/dev/null | python3 -c '
import json, sys, time
began, started, rows = time.monotonic(), {}, []
for line in sys.stdin:
    now = time.monotonic() - began
    try:
        event = json.loads(line)
    except ValueError:
        continue
    if event.get("type") != "test":
        continue
    if event["event"] == "started":
        started[event["name"]] = now
    elif event["event"] in ("ok", "failed", "ignored"):
        rows.append((started.get(event["name"], now), now, event["event"], event["name"]))
print("%7s %7s %6s  result  test" % ("start", "end", "secs"))
for start, end, result, name in sorted(rows):
    print(f"{start:7.1f} {end:7.1f} {end - start:6.1f}  {result:6}  {name}")
failed = sum(1 for row in rows if row[2] == "failed")
print(f"{len(rows)} tests, {failed} failed, {max((r[1] for r in rows), default=0):.1f} s in all")
sys.exit(1 if failed else 0)
'
