// The overlay test's browser half, run by tests/dicetable/stream.rs:
//   node web/tests/overlay.mjs BASE_URL OUT_DIR
// Opens BASE_URL/overlay in headless chromium, throws through the roll API, waits for the page
// to show the result, saves a screenshot without a background (OUT_DIR/overlay.png), and prints
// one JSON line: the API's answer, what the page showed, and the poses it drew last.
import { launch, post } from './browser.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
try {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(new URL('/overlay?history=3&odds=1&pos=tl', base).href);
  await page.waitForFunction(() => window.overlay && window.overlay.connected, null, { timeout: 60000 });
  const roll = await post(base, '/api/roll', { notation: '3d6+2', who: 'Vex', label: 'attack with dagger against the Goblin', seed: 7 });
  if (roll.status !== 200) throw new Error(`the roll API answered ${roll.status}: ${JSON.stringify(roll.body)}`);
  await page.waitForFunction((code) => window.overlay.shown && window.overlay.shown.code === code, roll.body.code, { timeout: 120000 });
  // Let the camera glide in on the settled dice, as a viewer sees them.
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(out, 'overlay.png'), omitBackground: true });
  const state = await page.evaluate(() => ({
    shown: window.overlay.shown,
    drawn: window.overlay.drawn,
    rendered: window.overlay.rendered,
    notice: window.overlay.notice,
    result: document.getElementById('result').textContent,
    who: document.getElementById('who').textContent,
    label: document.getElementById('label').textContent,
    history: [...document.querySelectorAll('#history li')].map((li) => li.textContent),
  }));
  // A total with a half (3d6/2, an odd sum at seed 7 or not): shown as the player reads it.
  const half = await post(base, '/api/roll', { notation: '3d6/2', who: 'Vex', seed: 7 });
  if (half.status !== 200) throw new Error(`the roll API answered ${half.status}: ${JSON.stringify(half.body)}`);
  await page.waitForFunction((code) => window.overlay.shown && window.overlay.shown.code === code, half.body.code, { timeout: 120000 });
  const halfShown = await page.evaluate(() => document.getElementById('result').textContent);
  console.log(JSON.stringify({ api: roll.body, ...state, half: { api: half.body, result: halfShown }, errors }));
} finally {
  await context.close();
}
