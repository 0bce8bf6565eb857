// The overlay's pictures in docs/streaming.md, taken by scripts/screenshots.sh:
//   node web/tests/shoot.mjs BASE_URL OUT_DIR
// A roll through the API drawn by the overlay, saved as OBS composites it: over a checkerboard
// (overlay-checkerboard.png: the page's own background is transparent) and alone with its
// transparency (overlay-transparent.png).
import { launch, post } from './browser.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
try {
  const page = await context.newPage();
  await page.goto(new URL('/overlay?history=4&odds=1&pos=bl', base).href);
  await page.waitForFunction(() => window.overlay && window.overlay.connected, null, { timeout: 60000 });
  const rolls = [
    { notation: '2d6+3', who: 'Mira', label: 'healing word' },
    { notation: '{d20+4}>=13', who: 'Ana', label: 'Stealth check', colour: '#5ab4f0' },
    { notation: '3d6+2', who: 'Vex', label: 'attack with dagger against the Goblin', seed: 7 },
  ];
  for (const [i, r] of rolls.entries()) {
    const answer = await post(base, '/api/roll', { seed: 40 + i, ...r });
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    await page.waitForFunction((code) => window.overlay.shown && window.overlay.shown.code === code, answer.body.code, { timeout: 120000 });
    console.log(`overlay: ${r.notation} -> ${answer.body.total} (${answer.body.code})`);
  }
  await page.waitForTimeout(2000);
  await page.screenshot({ path: join(out, 'overlay-transparent.png'), omitBackground: true });
  await page.addStyleTag({ content: 'html { background: repeating-conic-gradient(#c8c8c8 0 25%, #969696 0 50%) 0 0 / 40px 40px; }' });
  await page.screenshot({ path: join(out, 'overlay-checkerboard.png') });
} finally {
  await context.close();
}
