// gesture.js, the hand over a room page's tray: which pointer paths throw, and the swing a
// flick gives, checked against the server's own tray (its `/contract.js`, made by the Rust
// side: the path is given in CONTRACT by tests/dicetable/web.rs). Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { FLICK, readGesture, swingOf } from '../../gesture.js';

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
