// labels.js: each die's value beside its die, touching no die and no other value, on pools a
// phone and an OBS page show (8d10, 20d6, 7d4 heaped and spread); a pool too crowded is listed.
// Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layLabels, listed, rectMeetsDisc, rectsMeet, GAP, LEAST_FONT } from '../../labels.js';

/** A value's box as the page draws it: 0.62 em a character, padding and a 2 px border. */
const box = (text) => (font) => [Math.max(1.6 * font, 0.62 * font * text.length + 0.7 * font) + 4, 1.3 * font + 4];

/** `n` dice of radius `r` on a grid `step` apart from (x0, y0), `across` to a row. */
function grid(n, r, step, across, x0 = 40, y0 = 60) {
  return Array.from({ length: n }, (_, i) => ({
    x: x0 + (i % across) * step, y: y0 + Math.floor(i / across) * step, r,
  }));
}

/** Every rectangle clear of every die and every other rectangle, inside the bounds. */
function clear(dice, rects, bounds) {
  rects.forEach((a, i) => {
    assert.ok(a.x >= 0 && a.y >= 0 && a.x + a.w <= bounds.w && a.y + a.h <= bounds.h, `value ${i} in the tray`);
    dice.forEach((d, k) => assert.ok(!rectMeetsDisc(a, d), `value ${i} over die ${k}`));
    rects.forEach((b, j) => assert.ok(i === j || !rectsMeet(a, b), `value ${i} over value ${j}`));
    assert.ok(a.font >= LEAST_FONT, `value ${i} in ${a.font} px`);
  });
}

const phone = { w: 375, h: 330 };
const obs = { w: 1920, h: 1080 };

test('8d10, 20d6 and 7d4 spread on a phone: every value beside its die', () => {
  for (const [n, across] of [[8, 4], [20, 5], [7, 4]]) {
    const dice = grid(n, 16, 64, across);
    const texts = dice.map((_, i) => String((i % 10) + 1));
    const rects = layLabels(dice, (i, f) => box(texts[i])(f), { bounds: phone });
    assert.ok(rects, `${n} dice placed`);
    clear(dice, rects, phone);
    // Each beside its own die: nearer it than any other.
    rects.forEach((r, i) => {
      const cx = r.x + r.w / 2;
      const cy = r.y + r.h / 2;
      const dist = (d) => Math.hypot(d.x - cx, d.y - cy);
      assert.equal(dice.reduce((best, d, k) => (dist(d) < dist(dice[best]) ? k : best), 0), i, `value ${i} by its die`);
    });
  }
});

test('values shrink with the pool before they would cover anything, and keep out of the card', () => {
  // 20 dice 26 px apart edge to edge: a value fits between two rows only in smaller type.
  const dice = grid(20, 12, 50, 5, 30, 40);
  const card = { x: 0, y: 262, w: 375, h: 68 };
  const rects = layLabels(dice, (i, f) => box('6')(f), { bounds: phone, keepOut: [card] });
  assert.ok(rects);
  clear(dice, rects, phone);
  rects.forEach((r) => assert.ok(!rectsMeet(r, card, GAP)));
  // Three dice in a strip with room for their values only between them: the middle one's
  // fits in smaller type, and the pool shrinks together.
  const strip = [50, 100, 150].map((x) => ({ x, y: 25, r: 10 }));
  const small = layLabels(strip, (i, f) => box('6')(f), { bounds: { w: 200, h: 50 } });
  assert.ok(small);
  clear(strip, small, { w: 200, h: 50 });
  assert.deepEqual(small.map((r) => r.font), [11, 11, 11]);
});

test('the OBS page at 1080p with its scale: the type grows, nothing covers anything', () => {
  const dice = grid(8, 30, 130, 4, 200, 200);
  const rects = layLabels(dice, (i, f) => box('10')(f), { bounds: obs, scale: 1.5 });
  assert.ok(rects);
  clear(dice, rects, obs);
  assert.ok(rects.every((r) => r.font >= 22), rects.map((r) => r.font).join(' '));
});

test('a heap with no room between its dice is listed, highest first', () => {
  // 20 dice touching each other: no value fits beside any of them without covering another.
  const dice = grid(20, 16, 30, 5, 40, 40);
  assert.equal(layLabels(dice, (i, f) => box('6')(f), { bounds: { w: 200, h: 160 } }), null);
  assert.deepEqual(
    listed([{ text: '3' }, { text: '6', die: 'red' }, { text: '1' }, { text: '6' }]).map((v) => `${v.text}:${v.at}`),
    ['6:1', '6:3', '3:0', '1:2'],
  );
  // Each keeps its die's colours.
  assert.equal(listed([{ text: '3' }, { text: '6', die: 'red' }])[0].die, 'red');
  // Fate dice and a tens die's 00 keep their order: only numbers are sorted.
  assert.deepEqual(listed([{ text: '+' }, { text: '−' }]).map((v) => v.text), ['+', '−']);
  assert.deepEqual(layLabels([], () => [0, 0], { bounds: phone }), []);
});
