// Every material in a light and a dark colour on a phone's room page, run by
// tests/dicetable/seat.rs:
//   node web/tests/own-dice-gallery.mjs BASE_URL OUT_DIR
// In headless chromium: Gwen opens a d20-check room; Pat joins on a phone (375 x 667) and, for
// each of the five materials in a light and a dark colour, picks the dice with "Your dice"
// (found by role and name), throws one die of every kind, waits for them at rest and takes a
// screenshot of the tray. What the tray draws of each throw (`overlay.dice()`). One JSON line.
import { launch } from './browser.mjs';
import { patOnAPhone, throwNotation, pickDice, trayAtRest } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];

try {
  const pat = await patOnAPhone(context, errors, base, 'gallery');
  const shots = {};
  for (const [tone, body, ink] of [['light', '#f4f1ea', '#1a1a1a'], ['dark', '#1c1c22', '#f0ece2']]) {
    for (const material of ['plastic', 'translucent', 'metal', 'stone', 'wood']) {
      await pickDice(pat, { body, ink, material });
      await throwNotation(pat, 'd4+d6+d8+d10+d12+d20+d100');
      const tray = await trayAtRest(pat);
      const name = `own-dice-${material}-${tone}-phone.png`;
      await pat.screenshot({ path: join(out, name), clip: { x: 0, y: 0, width: 375, height: 340 } });
      shots[name] = await tray.evaluate(() => window.overlay.dice());
    }
  }
  await context.close();
  console.log(JSON.stringify({ shots, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
