// Where each settled die's value goes on the tray: next to its die, clear of every die and of
// every other value, in type that shrinks with the dice; or, for a pool too crowded for that,
// nowhere on the felt (the page lists the values beside the tray instead). Pure: overlay.js
// hands it the dice as the camera sees them and a measure of each value's box;
// web/tests/unit/labels.test.mjs runs it on crowded pools.

/** The smallest type a value is drawn in (px): below it, a pool is listed instead. */
export const LEAST_FONT = 11;
/** The largest (px, before the page's size setting). */
export const MOST_FONT = 30;
/** Space kept between a value and any die or other value (px). */
export const GAP = 3;

/** Whether rectangles `a` and `b` ({ x, y, w, h }) overlap, `gap` apart counting as touching. */
export function rectsMeet(a, b, gap = 0) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/** Whether rectangle `a` overlaps the disc `d` ({ x, y, r }) grown by `gap`. */
export function rectMeetsDisc(a, d, gap = 0) {
  const nx = Math.max(a.x, Math.min(d.x, a.x + a.w));
  const ny = Math.max(a.y, Math.min(d.y, a.y + a.h));
  return Math.hypot(d.x - nx, d.y - ny) < d.r + gap;
}

/** The places tried for a value of size `w` x `h` beside die `d`, best first: above it, below,
 * right, left, then the four corners. */
function around(d, w, h, gap) {
  const reach = d.r + gap;
  const diag = reach * Math.SQRT1_2;
  return [
    { x: d.x - w / 2, y: d.y - reach - h },
    { x: d.x - w / 2, y: d.y + reach },
    { x: d.x + reach, y: d.y - h / 2 },
    { x: d.x - reach - w, y: d.y - h / 2 },
    { x: d.x + diag, y: d.y - diag - h },
    { x: d.x - diag - w, y: d.y - diag - h },
    { x: d.x + diag, y: d.y + diag },
    { x: d.x - diag - w, y: d.y + diag },
  ];
}

/**
 * Lays out the values of `dice` ([{ x, y, r }]: each die's centre and radius on screen, px).
 * `measure(i, font)` is the box [w, h] of die i's value in type of `font` px; `bounds` the
 * tray ({ w, h }); `keepOut` rectangles nothing may cover (the result card); `scale` the
 * page's size setting. Each value's type starts at its die's size (0.55 of its radius, within
 * 15..MOST_FONT px, times `scale`) and the whole pool shrinks together (to LEAST_FONT) until every value
 * fits beside its own die, touching no die and no other value. Returns the rectangles with
 * their type ([{ x, y, w, h, font }], in the dice's order), or null when even the smallest type
 * does not fit: the values are then listed, not drawn over the dice.
 */
export function layLabels(dice, measure, { bounds, keepOut = [], scale = 1, gap = GAP }) {
  if (!dice.length) return [];
  const least = LEAST_FONT;
  const wanted = dice.map((d) => Math.max(least, Math.min(MOST_FONT, Math.max(15, d.r * 0.55)) * scale));
  // The crowded dice first: each takes its best place while there is room.
  const order = dice.map((_, i) => i).sort((a, b) => crowd(dice, b) - crowd(dice, a) || a - b);
  for (let shrink = 1; ; shrink *= 0.85) {
    const fonts = wanted.map((f) => Math.max(least, Math.round(f * shrink)));
    const placed = tryLay(dice, measure, fonts, order, bounds, keepOut, gap);
    if (placed) return placed;
    if (fonts.every((f) => f <= least)) return null;
  }
}

/** How many other dice lie within three radii of die `i`. */
function crowd(dice, i) {
  const d = dice[i];
  return dice.filter((o, j) => j !== i && Math.hypot(o.x - d.x, o.y - d.y) < 3 * Math.max(o.r, d.r)).length;
}

function tryLay(dice, measure, fonts, order, bounds, keepOut, gap) {
  const placed = new Array(dice.length);
  const taken = [];
  for (const i of order) {
    const [w, h] = measure(i, fonts[i]);
    const spot = around(dice[i], w, h, gap).find((p) => {
      const r = { x: p.x, y: p.y, w, h };
      return r.x >= 0 && r.y >= 0 && r.x + w <= bounds.w && r.y + h <= bounds.h
        && !dice.some((d) => rectMeetsDisc(r, d, gap))
        && !taken.some((t) => rectsMeet(r, t, gap))
        && !keepOut.some((k) => rectsMeet(r, k, gap));
    });
    if (!spot) return null;
    placed[i] = { x: spot.x, y: spot.y, w, h, font: fonts[i] };
    taken.push(placed[i]);
  }
  return placed;
}

/** The values of a pool listed beside the tray: numbers highest first (a pool is read by
 * its high dice), anything else in the dice's order; each with its place in the pool (`at`). */
export function listed(values) {
  const numbers = values.every((v) => /^-?\d+$/.test(v.text));
  const out = values.map((v, i) => ({ ...v, at: i }));
  return numbers ? out.sort((a, b) => Number(b.text) - Number(a.text) || a.at - b.at) : out;
}
