// The room page test's browser half, run by tests/dicetable/online.rs:
//   node web/tests/room.mjs BASE_URL ROOM PASSCODE OUTCOMES OUT_DIR
// Opens BASE_URL/ROOM/watch#passcode=PASSCODE in headless chromium (and once with a wrong
// passcode, in the older ?passcode= form), prints "ready" once the page follows the room, then waits until the page has
// shown OUTCOMES new outcomes (the test throws them meanwhile), saves a screenshot without a
// background (OUT_DIR/room.png), and prints one JSON line of what the page did and showed.
import { launch } from './browser.mjs';
import { join } from 'node:path';

const [base, room, passcode, outcomes, out] = process.argv.slice(2);
const context = await launch();
try {
  const wrong = await context.newPage();
  await wrong.goto(new URL(`/${room}/watch?passcode=not-it`, base).href);
  await wrong.waitForFunction(() => window.overlay && window.overlay.error, null, { timeout: 60000 });
  const refused = await wrong.evaluate(() => ({ error: window.overlay.error, notice: document.getElementById('notice').textContent }));
  await wrong.close();

  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const consoled = [];
  const frames = [];
  // Every address the page asks for: the passcode is in none of them.
  const asked = [];
  page.on('request', (r) => asked.push(r.url()));
  page.on('websocket', (ws) => {
    asked.push(ws.url());
    ws.on('framereceived', (f) => frames.push(String(f.payload).slice(0, 300)));
  });
  page.on('console', (m) => consoled.push(m.text()));
  await page.goto(new URL(`/${room}/watch#passcode=${encodeURIComponent(passcode)}&history=4&pos=tl`, base).href);
  await page.waitForFunction(() => window.overlay && window.overlay.connected && window.overlay.events > 0, null, { timeout: 60000 });
  const before = await page.evaluate(() => [...document.querySelectorAll('#history li')].map((li) => li.textContent));
  console.log('ready');
  try {
    await page.waitForFunction((n) => window.overlay.outcomes >= n, Number(outcomes), { timeout: Number(process.env.ROOM_WAIT_MS ?? 240000) });
  } catch (e) {
    const seen = await page.evaluate(() => JSON.stringify({ ...window.overlay, drawn: undefined }));
    throw new Error(`the page did not show ${outcomes} outcomes: ${seen}; console: ${consoled.join(' | ')}; received: ${frames.join('\n')}; ${errors.join(' | ')}`);
  }
  // Let the camera glide in on the settled dice, as a viewer sees them.
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(out, 'room.png'), omitBackground: true });
  const state = await page.evaluate(() => ({
    shown: window.overlay.shown,
    outcomes: window.overlay.outcomes,
    played: window.overlay.played,
    received: window.overlay.received,
    samples: window.overlay.samples,
    events: window.overlay.events,
    bytes: window.overlay.bytes,
    drawn: window.overlay.drawn,
    notice: window.overlay.notice,
    result: document.getElementById('result').textContent,
    who: document.getElementById('who').textContent,
    label: document.getElementById('label').textContent,
    history: [...document.querySelectorAll('#history li')].map((li) => li.textContent),
  }));
  const leaked = asked.filter((url) => url.includes(encodeURIComponent(passcode)) || url.includes('passcode'));
  console.log(JSON.stringify({ refused, before, ...state, errors, leaked }));
} finally {
  await context.close();
}
