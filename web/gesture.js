// The hand over a room page's tray: a throw is always meant. A tap or a slow drag throws
// nothing; a vertical swipe of a finger scrolls the page (the tray lets the browser pan
// vertically, `touch-action: pan-y`); a flick that starts on the tray and travels at least
// FLICK.distance CSS pixels, leaving it at FLICK.speed pixels a second or faster, throws. Its
// speed is read from the pointer events' own timestamps (and the coalesced events between
// frames), so a page too busy to run its handlers on time cannot slow a flick down.

/** What makes a flick a throw (documented in docs/online.md). */
export const FLICK = {
  /** The least straight-line travel from press to release, CSS pixels. */
  distance: 40,
  /** The least speed at release, CSS pixels a second. */
  speed: 400,
  /** The time before release the release speed is measured over, ms. */
  window: 80,
};


/**
 * A pointer's path read as a gesture: `{ kind, distance, speed, velocity }`, where `kind` is
 * 'tap' (it hardly moved), 'drag' (it moved, but left slowly) or 'flick' (a throw); distance
 * in CSS pixels, speed in pixels a second and velocity `[vx, vy]` in pixels a second at release.
 * `path` is `[{ t, x, y }]` in event time (ms) and client pixels, oldest first.
 */
export function readGesture(path) {
  if (!path.length) return { kind: 'tap', distance: 0, speed: 0, velocity: [0, 0] };
  const first = path[0];
  const last = path[path.length - 1];
  const distance = Math.hypot(last.x - first.x, last.y - first.y);
  // The release speed: from the last sample at least FLICK.window before the release (or the
  // first), to the release.
  let from = path.length - 1;
  while (from > 0 && last.t - path[from].t < FLICK.window) from -= 1;
  const start = path[from];
  const dt = (last.t - start.t) / 1000;
  const velocity = dt > 0 ? [(last.x - start.x) / dt, (last.y - start.y) / dt] : [0, 0];
  const speed = Math.hypot(...velocity);
  let kind = 'flick';
  if (distance < FLICK.distance) kind = 'tap';
  else if (speed < FLICK.speed) kind = 'drag';
  return { kind, distance, speed, velocity };
}

const round2 = (x) => Math.round(x * 100) / 100;
const clamp = (v, r) => Math.min(Math.max(v, -r), r);

/**
 * The swing of a flick over a tray drawn in `rect` (the hand's box on screen): released where
 * it let go (kept within reach), along the felt at the flick's velocity (kept between the
 * slowest and the fastest flick), slightly downwards. Tray x runs across the screen, z down it.
 * `tray` is the server's (`TRAY` of `/contract.js`): its felt, reach, hand height, flick speeds
 * and drop, the numbers a table server checks a gesture against.
 */
export function swingOf(path, rect, tray) {
  const { velocity } = readGesture(path);
  const last = path[path.length - 1];
  const cmX = tray.width / rect.width;
  const cmZ = tray.depth / rect.height;
  const x = ((last.x - rect.left) / rect.width - 0.5) * tray.width;
  const z = ((last.y - rect.top) / rect.height - 0.5) * tray.depth;
  let [vx, vz] = [velocity[0] * cmX, velocity[1] * cmZ];
  const speed = Math.hypot(vx, vz);
  if (speed === 0) [vx, vz] = [tray.speed[0], 0];
  else {
    const [lo, hi] = tray.speed;
    const s = Math.min(Math.max(speed, lo), hi) / speed;
    [vx, vz] = [vx * s, vz * s];
  }
  return {
    release: [round2(clamp(x, tray.reach[0])), tray.height, round2(clamp(z, tray.reach[1]))],
    velocity: [round2(vx), -tray.drop, round2(vz)],
  };
}

/**
 * The swing of a throw from the button, Space or Enter: a gentle toss across the tray, as a
 * hand lets dice go over its left end, at the slowest flick, heading up to 0.5 rad either side
 * of straight across (`random` in [0, 1) picks where along that end and which way). The seed's
 * own swing throws hard at the far wall, where a pool piles up and hides its faces; this one
 * leaves the dice spread over the middle of the felt (docs/online.md has the measurement).
 */
export function tossSwing(tray, random = Math.random) {
  const z = (random() - 0.5) * tray.reach[1];
  const heading = (random() - 0.5) - z / tray.reach[1] / 2;
  const speed = tray.speed[0];
  return {
    release: [-tray.reach[0], tray.height, round2(z)],
    velocity: [round2(speed * Math.cos(heading)), -tray.drop, round2(speed * Math.sin(heading))],
  };
}

/**
 * Follows the pointer on `el` (the hand over `tray`): `onFlick(swing, gesture)` when a press
 * that started there ends in a flick, `onMiss(gesture)` when it ends in a tap or a drag;
 * `enabled()` says whether the hand may throw now. A touch the browser takes for a scroll
 * (pointercancel) is nothing.
 */
export function attachHand(el, { tray, enabled, onFlick, onMiss }) {
  let path = null;
  let pointer = null;
  const sample = (e) => ({ t: e.timeStamp, x: e.clientX, y: e.clientY });
  el.addEventListener('pointerdown', (e) => {
    if (!enabled() || (e.pointerType === 'mouse' && e.button !== 0)) return;
    pointer = e.pointerId;
    path = [sample(e)];
    if (e.pointerType === 'mouse') {
      // A mouse keeps its press on the tray while it moves; a finger is left to the browser,
      // which scrolls a vertical swipe.
      e.preventDefault();
      el.setPointerCapture?.(e.pointerId);
    }
    el.classList.add('holding');
  });
  el.addEventListener('pointermove', (e) => {
    if (!path || e.pointerId !== pointer) return;
    const samples = e.getCoalescedEvents?.() ?? [];
    for (const c of samples.length ? samples : [e]) path.push(sample(c));
    // The press and the latest moves are all a gesture needs.
    if (path.length > 96) path.splice(1, path.length - 64);
  });
  const end = () => {
    path = null;
    pointer = null;
    el.classList.remove('holding');
  };
  el.addEventListener('pointerup', (e) => {
    if (!path || e.pointerId !== pointer) return;
    path.push(sample(e));
    const taken = path;
    end();
    const gesture = readGesture(taken);
    if (gesture.kind === 'flick') onFlick(swingOf(taken, el.getBoundingClientRect(), tray), gesture);
    else onMiss(gesture);
  });
  el.addEventListener('pointercancel', end);
  el.addEventListener('lostpointercapture', () => {
    if (path && pointer !== null) end();
  });
}
