// A streaming game master's pages and a household's phones, all from one address, run by
// tests/dicetable/seat.rs:
//   node web/tests/household.mjs BASE_URL OUT_DIR
// On the table server at BASE_URL, in headless chromium (every page from 127.0.0.1): the game
// master opens a step-dice room and sits at it on a desktop (1280 x 800), her OBS page watches
// it (/ROOM/watch, 1920 x 1080), and two players join on phones (375 x 667). Every page's first
// request for a die's atlas is answered 429 `busy` (a forced refusal, as a server whose share
// for the address is taken answers), and three free rolls of every kind of die in three seats'
// colours need fresh atlases on every page. Then on every page's tray: every die of the last
// roll is drawn with its numerals (the page's own state), the refused atlas was asked again,
// none failed; a screenshot of each. One phone's first join is answered `busy` too: it joins
// by itself, saying so, with no error shown. Prints one JSON line of what it saw.
import { launch } from './browser.mjs';
import { WAIT, openRoom, joinAs, throwNotation } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];
// The atlases asked for, by page, and which were refused.
const asked = {};

/** Answers the first atlas `name`'s page asks for with 429 `busy`, the rest as the server does. */
async function refuseFirstAtlas(ctx, name) {
  asked[name] = { refused: 0, passed: 0 };
  await ctx.route('**/dice/atlas/**', async (route) => {
    if (asked[name].refused === 0) {
      asked[name].refused += 1;
      await route.fulfill({
        status: 429,
        headers: { 'retry-after': '1' },
        contentType: 'application/json',
        body: JSON.stringify({ code: 'busy', error: 'forced by the test', retry_after_ms: 200 }),
      });
      return;
    }
    asked[name].passed += 1;
    await route.continue();
  });
}

async function open(ctx, name, size) {
  await refuseFirstAtlas(ctx, name);
  const page = await ctx.newPage();
  if (size) await page.setViewportSize(size);
  page.on('pageerror', (e) => errors.push(`${name}: ${e}`));
  // Errors a page logs, but the browser's own line for the refusal this test forces.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('status of 429')) errors.push(`${name}: ${m.text()}`);
  });
  return page;
}

/** Answers the first `join` a page of `ctx` sends on a room's socket with `busy` (and a wait of
 * 200 ms) in the server's place; everything else passes both ways. */
async function answerFirstJoinBusy(ctx) {
  let answered = false;
  await ctx.routeWebSocket(/\/house$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (!answered && JSON.parse(message).type === 'join') {
        answered = true;
        ws.send(JSON.stringify({
          type: 'error', code: 'busy', message: 'forced by the test', retry_after_ms: 200,
        }));
        return;
      }
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
}

/** Every text the room page's status line said, in order. */
const watchStatus = () => {
  if (window.top !== window) return;
  window.statusLog = [];
  new MutationObserver(() => {
    const s = document.querySelector('[role="status"]');
    if (s && s.textContent !== window.statusLog.at(-1)) window.statusLog.push(s.textContent);
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

/** The page's tray: the page itself for the OBS page, its iframe for a room page. */
const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));

try {
  const front = await context.newPage();
  const { link, toTable } = await openRoom(front, base, 'house', 'step-dice-vault');
  await front.close();

  const gm = await open(await context.another(), 'desktop', { width: 1280, height: 800 });
  await joinAs(gm, toTable, { name: 'Gwen', passcode: 'gm-secret' });

  const obs = await open(await context.another(), 'obs', { width: 1920, height: 1080 });
  await obs.goto(new URL('house/watch#passcode=friends', base).href);

  const phones = [];
  for (const [name, seat] of [['Pat', 'Ana'], ['Lee', 'Bo']]) {
    const ctx = await context.phone();
    // Lee's first join is answered `busy` (as a server whose passcode checks for the address
    // are all taken answers): the page says it is joining and sends it again by itself.
    if (name === 'Lee') await answerFirstJoinBusy(ctx);
    const page = await open(ctx, `phone ${name}`);
    await page.addInitScript(watchStatus);
    await joinAs(page, link, { name, passcode: 'friends', seats: [seat] });
    phones.push(page);
  }
  const leeJoined = await phones[1].evaluate(() => ({
    busy: window.seat.busy,
    refused: window.seat.refused,
    said: window.statusLog,
  }));
  const pages = { desktop: gm, obs, 'phone Pat': phones[0], 'phone Lee': phones[1] };
  for (const page of Object.values(pages)) {
    await trayOf(page).waitForFunction(() => window.overlay?.greeted, null, WAIT);
  }

  // Every kind of die, in three seats' colours: fresh atlases on every page.
  await throwNotation(gm, '1d4+1d6+1d8+1d10+1d12+1d20+1d100');
  await throwNotation(phones[0], '1d4+1d6+1d8+1d10+1d12+1d20');
  await throwNotation(phones[1], '2d10+1d100+1d8');
  // The last throw's entry, as its thrower was told: another page may not have it yet.
  const last = await phones[1].evaluate(() => window.seat.acked);

  const seen = {};
  for (const [name, page] of Object.entries(pages)) {
    const tray = trayOf(page);
    await tray.waitForFunction((n) => window.overlay.shown?.roll >= n, last, WAIT);
    await tray.waitForFunction(
      () => window.overlay.dice().length > 0 && window.overlay.dice().every((d) => d.numbered),
      null,
      WAIT,
    ).catch(() => {});
    // The camera glides in over the settled dice.
    await page.waitForTimeout(1200);
    const state = await tray.evaluate(() => ({
      dice: window.overlay.dice(),
      atlases: window.overlay.atlases,
      notice: window.overlay.notice,
      error: window.overlay.error,
    }));
    const shot = join(out, `household-${name.replace(' ', '-')}.png`);
    await page.screenshot({ path: shot });
    seen[name] = { ...state, asked: asked[name], shot };
  }
  await context.close();
  console.log(JSON.stringify({ pages: seen, last, leeJoined, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
