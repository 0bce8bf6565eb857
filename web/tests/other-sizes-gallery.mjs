// The dice of other sizes on a phone's room page, run by tests/dicetable/seat.rs:
//   node web/tests/other-sizes-gallery.mjs BASE_URL OUT_DIR
// In headless chromium: Gwen opens a d20-check room; Pat joins on a phone (375 x 667) and throws
// the 21 dice of other sizes (d5 to d30), three at a time, waits for them at rest and takes a
// screenshot of the tray. For each throw: what the tray draws (`overlay.dice()`), the values
// written over the dice, and what the page announces (its `role=status` line, read by screen
// readers). One JSON line.
import { launch } from './browser.mjs';
import { patOnAPhone, throwNotation, trayAtRest } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];
const GROUPS = [
  [5, 7, 9], [11, 13, 14], [15, 16, 17], [18, 19, 21], [22, 23, 24], [25, 26, 27], [28, 29, 30],
];

try {
  const pat = await patOnAPhone(context, errors, base, 'sizes');
  const shots = {};
  for (const group of GROUPS) {
    const notation = group.map((n) => `1d${n}`).join('+');
    await throwNotation(pat, notation);
    const tray = await trayAtRest(pat);
    const name = `other-sizes-${group.map((n) => `d${n}`).join('-')}-phone.png`;
    await pat.screenshot({ path: join(out, name), clip: { x: 0, y: 0, width: 375, height: 340 } });
    shots[name] = {
      notation,
      dice: await tray.evaluate(() => window.overlay.dice()),
      labels: await tray.evaluate(() => window.overlay.labels ?? []),
      listed: await tray.evaluate(() => window.overlay.listed ?? []),
      announced: await pat.evaluate(() => document.getElementById('status').textContent),
    };
  }
  await context.close();
  console.log(JSON.stringify({ shots, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
