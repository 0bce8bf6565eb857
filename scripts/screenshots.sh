#!/usr/bin/env bash
# Retakes every screenshot under docs/screenshots/ at 1280×800 under Xvfb (software rendering),
# and prints, for each, what was thrown and how large the settled dice came out on screen.
# Run from the repository root after a build; DICETABLE_BIN picks the binary (default: release).
set -euo pipefail
bin=${DICETABLE_BIN:-${CARGO_TARGET_DIR:-target}/release/dicetable}
out=docs/screenshots
mkdir -p "$out"

shot() {
    local name=$1
    shift
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin" "$@" \
        --no-listen --screenshot "$out/$name.png" --exit-after-frames 12 2>/dev/null |
        grep -E "^(played|rolled|dice on screen)" | sed "s/^/$name: /" || true
}

shot empty-table play
shot dice-on-the-table play --roll "d4+d6+d8+d10+d12+d20+d100" --seed 3
shot table-with-overlays play --roll "{3d6+2,0d0}>=12" --seed 11
for pair in d4-pool:d4-pool-goblin-ambush action-dice:action-dice-knight-and-magician \
    step-dice:step-dice-vault open-d6:open-d6-fred-and-peter d20-check:d20-check-crypt; do
    ruleset=${pair%%:*}
    scene=scenes/${pair#*:}.ron
    shot "$ruleset-before" play --scene "$scene"
    shot "$ruleset-after" play --scene "$scene" --throw 1 --seed 1
done
for step in d4-pool:4 d4-pool:6 action-dice:3 action-dice:5 step-dice:1 step-dice:2 \
    open-d6:2 open-d6:4 d20-check:2 d20-check:7; do
    shot "demo-${step%%:*}-step${step#*:}" demo "${step%%:*}" --steps "${step#*:}"
done
# The window at the two sizes docs/window.md shows: a d4-pool attack thrown.
shot window-1280x800 play --scene scenes/d4-pool-goblin-ambush.ron --throw 1 --seed 1
xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" play --width 1920 --height 1080 \
    --scene scenes/d4-pool-goblin-ambush.ron --throw 1 --seed 1 --no-listen \
    --screenshot "$out/window-1920x1080.png" --exit-after-frames 12 >/dev/null 2>&1 || true
# A close-up of each die type: one die thrown, framed close.
for die in d4 d6 d8 d10 d12 d20 d100; do
    shot "closeup-$die" play --roll "1$die" --seed 2 --closeup
done
# The dice of other sizes (#68): each thrown alone, framed close, on one contact sheet (the
# dice thrown again above their size at seed 7, so that none is its body's picture again).
sizes=$(mktemp -d)
for n in 5 7 9 11 13 14 15 16 17 18 19 21 22 23 24 25 26 27 28 29 30; do
    seed=5
    case $n in 17 | 19 | 21 | 23 | 25 | 27 | 29) seed=7 ;; esac
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin" play --roll "1d$n" --seed $seed --closeup \
        --no-listen --no-history --mute --screenshot "$sizes/d$n.png" --exit-after-frames 20 |
        grep -E "^dice on screen" | sed "s/^/d$n: /" || true
done
node web/tests/sheet.mjs "$sizes" "$out/other-sizes-window.jpg" 7 240,240,0.6,260,92 \
    d5 d7 d9 d11 d13 d14 d15 d16 d17 d18 d19 d21 d22 d23 d24 d25 d26 d27 d28 d29 d30
rm -rf "$sizes"
# Dice of one's own: every material in a light and a dark colour, every kind thrown; pips.
for tone in light:#f4f1ea:#1a1a1a dark:#1c1c22:#f0ece2; do
    IFS=: read -r name body ink <<<"$tone"
    for material in plastic translucent metal stone wood; do
        shot "own-dice-$material-$name" play --roll "d4+d6+d8+d10+d12+d20+d100" --seed 3 \
            --dice "$body,$ink,$material" --no-history
    done
done
shot own-dice-pips play --roll 4d6 --seed 5 --dice "#96182a,#faf4ec,plastic,pips" --no-history
# The numerals' other typefaces, on stone and wood; a serif stone d20 up close.
shot own-dice-serif-stone play --roll "d4+d6+d8+d10+d12+d20+d100" --seed 3 \
    --dice "#8a8580,#101010,stone,serif" --no-history
shot own-dice-mono-wood play --roll "d4+d6+d8+d10+d12+d20+d100" --seed 3 \
    --dice "#6b3e1f,#f0e0c0,wood,mono" --no-history
shot closeup-d20-serif-stone play --roll 1d20 --seed 2 --closeup \
    --dice "#8a8580,#101010,stone,serif" --no-history
# A game's own dice: the narrative and the bone dice of two shipped system files.
shot demo-system-narrative-dice-step2 demo system-narrative-dice --steps 2
shot demo-system-bone-dice-step1 demo system-bone-dice --steps 1
# Stream mode: the dice over the chroma key, the outcome in a banner.
shot stream-mode play --stream --roll "{d20+5}>=15" --seed 3
# The overlay page in headless chromium, over a checkerboard to show its transparency.
log=$(mktemp)
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" play --listen 127.0.0.1:0 --mute --width 640 --height 400 >"$log" 2>/dev/null &
app=$!
for _ in $(seq 1 600); do
    grep -q "^listening on " "$log" && break
    sleep 0.2
done
base=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)
node web/tests/shoot.mjs "$base" "$out" || echo "overlay pictures failed" >&2
kill $app 2>/dev/null; pkill -P $app 2>/dev/null || true
rm -f "$log"
