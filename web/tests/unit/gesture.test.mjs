// gesture.js, the hand over a room page's tray: which pointer paths throw, and the swing a
// flick gives, checked against the server's own tray (its `/contract.js`, made by the Rust
// side: the path is given in CONTRACT by tests/dicetable/web.rs). Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { FLICK, readGesture, swingOf, tossSwing } from '../../gesture.js';

const { TRAY } = await import(pathToFileURL(process.env.CONTRACT).href);
const rect = { left: 0, top: 0, width: 280, height: 200 };
/** A straight path from `from` to `to` in `ms`, a sample every 8 ms. */
function path(from, to, ms) {
  const n = Math.max(1, Math.round(ms / 8));
  return Array.from({ length: n + 1 }, (_, i) => ({
    t: 1000 + (ms * i) / n,
    x: from[0] + ((to[0] - from[0]) * i) / n,
    y: from[1] + ((to[1] - from[1]) * i) / n,
  }));
}

test('a tap, a slow drag and a flick', () => {
  assert.equal(readGesture([]).kind, 'tap');
  assert.equal(readGesture(path([100, 100], [110, 100], 50)).kind, 'tap');
  assert.equal(readGesture(path([20, 100], [200, 100], 2000)).kind, 'drag');
  const flick = readGesture(path([20, 100], [200, 100], 200));
  assert.equal(flick.kind, 'flick');
  assert.ok(flick.speed >= FLICK.speed && flick.distance >= FLICK.distance);
});

test('a flick throws from within reach, at a hand\'s speed, over the server\'s tray', () => {
  // Released at the tray's right edge, very fast: kept within reach and at the fastest flick.
  const fast = swingOf(path([20, 100], [280, 200], 60), rect, TRAY);
  assert.deepEqual(fast.release, [TRAY.reach[0], TRAY.height, TRAY.reach[1]]);
  const speed = Math.hypot(fast.velocity[0], fast.velocity[2]);
  assert.ok(Math.abs(speed - TRAY.speed[1]) < 0.02, `${speed}`);
  assert.equal(fast.velocity[1], -TRAY.drop);
  // Released in the middle, slowly: the slowest flick, from the middle.
  const slow = swingOf(path([139.5, 100], [140, 100], 500), rect, TRAY);
  assert.deepEqual(slow.release, [0, TRAY.height, 0]);
  assert.ok(Math.abs(Math.hypot(slow.velocity[0], slow.velocity[2]) - TRAY.speed[0]) < 0.02);
});

test('the button\'s toss: from the tray\'s left end, within reach, across the felt at the slowest flick', () => {
  // The two ends of the random numbers and the middle: each a swing the server takes.
  for (const [a, b] of [[0, 0], [0, 0.999], [0.5, 0.5], [0.999, 0], [0.999, 0.999]]) {
    const values = [a, b];
    const toss = tossSwing(TRAY, () => values.shift());
    assert.equal(toss.release[0], -TRAY.reach[0]);
    assert.equal(toss.release[1], TRAY.height);
    assert.ok(Math.abs(toss.release[2]) <= TRAY.reach[1] / 2, `${toss.release}`);
    const speed = Math.hypot(toss.velocity[0], toss.velocity[2]);
    assert.ok(Math.abs(speed - TRAY.speed[0]) < 0.02, `${speed}`);
    // Across the tray, never back at its own wall: at most 0.75 rad off straight across.
    assert.ok(toss.velocity[0] >= speed * Math.cos(0.75), `${toss.velocity}`);
    assert.equal(toss.velocity[1], -TRAY.drop);
  }
  // Straight across from the middle of the end.
  assert.deepEqual(tossSwing(TRAY, () => 0.5), { release: [-TRAY.reach[0], TRAY.height, 0], velocity: [TRAY.speed[0], -TRAY.drop, 0] });
});
