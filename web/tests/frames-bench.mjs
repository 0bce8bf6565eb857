// How smoothly a phone's room page draws the dice, the page as it was and as it is, in one run;
// run by scripts/room-page-frames.sh:
//   node web/tests/frames-bench.mjs BASE_URL OLD_WEB_DIR THROWS NOTATION [LOOKS]
// Opens a room (d20-check) from the front page. For each page (OLD_WEB_DIR's files, served in
// place of the server's own through the browser's request routing, then the server's), three
// spectators join as a group at one table does in the room's tests (a phone: 375 x 667, device
// pixel ratio 2, touch; a 1280 x 800 laptop; a 1920 x 1080 screen) and watch THROWS throws of
// NOTATION, thrown one at a time by a bare socket client speaking the room's protocol. For each
// throw, the frames the phone's tray drew while the dice moved (`overlay.samples`) and how long
// the motion lasted. Prints one JSON line: per page, frames per throw (mean, min, max) and frames a
// second of motion. With LOOKS (e.g. `plain,translucent,stone-serif`), today's page only, once
// per look the thrower's dice are chosen in (plain: the room's dice; MATERIAL[-TYPEFACE] in blue
// with white numerals), one after the other in the same run.
import { launch } from './browser.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [base, oldDir, throwsArg, notation = '1d20+1d10+1d6+1d4', looksArg = ''] = process.argv.slice(2);
const THROWS = Number(throwsArg || 10);
const WAIT = { timeout: 180000 };
// A page the browser's routing served counts as from no address of this machine: let it reach
// the server on loopback as the real page does.
const context = await launch(['--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks']);
const room = `frames${Date.now() % 100000}`;

/** The old page's files, by the path the browser asks for. */
function oldFiles() {
  const read = (name) => readFileSync(join(oldDir, name));
  const files = {
    [`/${room}`]: ['text/html', read('room.html')],
    [`/${room}/watch`]: ['text/html', read('overlay.html')],
  };
  for (const name of ['room.js', 'common.js', 'check.js', 'written.js', 'overlay.js']) {
    files[`/${name}`] = ['text/javascript', read(name)];
  }
  files['/table.css'] = ['text/css', read('table.css')];
  for (const name of ['three.module.js', 'three.core.js']) {
    files[`/three/${name}`] = ['text/javascript', read(`three/${name}`)];
  }
  return files;
}

/** A spectator's page on `ctx` (`size`: a desktop's viewport; none: the phone's own). */
async function watcher(old, ctx, name, size = null) {
  const phone = ctx;
  if (old) {
    const files = oldFiles();
    await phone.route((url) => Object.hasOwn(files, url.pathname), (route) => {
      const [type, body] = files[new URL(route.request().url()).pathname];
      return route.fulfill({ status: 200, contentType: type, body });
    });
  }
  const page = await phone.newPage();
  if (size) await page.setViewportSize(size);
  page.on('pageerror', (e) => console.error(`${old ? 'old' : 'new'} page: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') console.error(`${old ? 'old' : 'new'} console: ${m.text()}`); });
  // How long each roll's motion lasts, from the feed the tray follows (the same for both pages).
  const motions = {};
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/feed')) return;
    ws.on('framereceived', (f) => {
      try {
        const e = JSON.parse(String(f.payload));
        if (e.type === 'motion') motions[e.roll] = (motions[e.roll] ?? 0) + ((e.frames.length - 1) / e.hz) * 1000;
      } catch { /* not a feed event */ }
    });
  });
  await page.goto(new URL(`/${room}`, base).href);
  await page.getByRole('radio', { name: 'a spectator' }).check();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByLabel('Passcode', { exact: true }).fill('friends');
  await page.getByRole('button', { name: 'Join' }).click();
  await page.waitForFunction(() => window.seat?.joined, null, WAIT);
  await page.waitForFunction(() => document.getElementById('tray')?.contentWindow?.overlay?.greeted, null, WAIT);
  return { phone, page, motions, tray: () => page.frames().find((f) => f.url().includes('/watch')) };
}

/** A bare client in the room: joins, and throws `notation` when asked (protocol 3). */
async function thrower(page) {
  await page.goto(new URL('/api/scenes', base).href);
  await page.evaluate(async ({ room, url }) => {
    const ws = new WebSocket(url);
    const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    let commitment = null;
    let answered = 0;
    let seq = null;
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === 'welcome' || msg.type === 'ack') commitment = msg.commitment;
      if (msg.type === 'ack') seq = msg.seq;
      if (msg.type === 'ack' || msg.type === 'refused') answered += 1;
    };
    await new Promise((ok) => { ws.onopen = ok; });
    ws.send(JSON.stringify({ type: 'join', v: 3, room, name: 'Tess', role: 'player', seats: [], passcode: 'friends' }));
    await new Promise((ok) => { const look = () => (commitment ? ok() : setTimeout(look, 20)); look(); });
    // Chooses the thrower's dice (null: the room's) and waits for the room's answer.
    window.chooseDice = (look) => new Promise((ok) => {
      const before = answered;
      ws.send(JSON.stringify({ type: 'dice', id: before + 1, look }));
      const wait = () => (answered > before ? ok(seq) : setTimeout(wait, 20));
      wait();
    });
    window.throwOnce = (notation) => new Promise((ok) => {
      const before = answered;
      const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
      ws.send(JSON.stringify({ type: 'throw', id: before + 1, what: { notation }, commitment, nonce }));
      const look = () => (answered > before ? ok(seq) : setTimeout(look, 20));
      look();
    });
  }, { room, url: new URL(`/${room}`, base).href.replace('http', 'ws') });
}

try {
  const front = await context.newPage();
  await front.goto(base);
  await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
  await front.getByRole('textbox', { name: 'Room' }).fill(room);
  await front.getByRole('combobox', { name: 'Scene' }).selectOption('d20-check-crypt');
  await front.getByRole('textbox', { name: 'Name' }).fill('Gwen');
  await front.getByRole('textbox', { name: 'Passcode', exact: true }).fill('friends');
  await front.getByLabel("Game master's passcode").fill('gm-secret');
  await front.getByRole('button', { name: 'Open the room' }).click();
  await front.waitForFunction(() => window.front.opened, null, WAIT);
  const hand = await context.newPage();
  await thrower(hand);
  await front.close();

  const pages = {};
  // The cases measured: the page before and today's, or today's in each look.
  const looks = looksArg ? looksArg.split(',') : [];
  const lookOf = (name) => {
    if (name === 'plain') return null;
    const [material, typeface] = name.split('-');
    return { body: '#1e40aa', ink: '#ffffff', material, ...(typeface ? { typeface } : {}) };
  };
  const cases = looks.length
    ? looks.map((name) => ({ old: false, tag: name, look: lookOf(name) }))
    : [{ old: true, tag: 'old' }, { old: false, tag: 'new' }];
  for (const { old, tag, look } of cases) {
    // The group at the table in one browser, as the room's tests play it: a phone (measured), a
    // game master's laptop and a player's large screen, every tray drawing every throw.
    const phone = await context.phone();
    // Each in a window of its own: headless chromium pauses a window's background tabs.
    if (looks.length) await hand.evaluate((l) => window.chooseDice(l), look);
    const laptop = await context.another();
    const screen = await context.another();
    const w = await watcher(old, phone, `Phone-${tag}`);
    await watcher(old, laptop, `Laptop-${tag}`, { width: 1280, height: 800 });
    await watcher(old, screen, `Screen-${tag}`, { width: 1920, height: 1080 });
    const perThrow = [];
    for (let i = 0; i < THROWS; i += 1) {
      const before = await w.tray().evaluate(() => ({ samples: window.overlay.samples, played: window.overlay.played }));
      const seq = await hand.evaluate((n) => window.throwOnce(n), notation);
      await w.tray().waitForFunction((n) => window.overlay.played > n, before.played, WAIT);
      const after = await w.tray().evaluate(() => window.overlay.samples);
      perThrow.push({ roll: seq, frames: after - before.samples, ms: Math.round(w.motions[seq] ?? 0) });
    }
    const frames = perThrow.map((t) => t.frames);
    const mean = frames.reduce((a, b) => a + b, 0) / frames.length;
    const timed = perThrow.filter((t) => t.ms);
    const fps = timed.length
      ? timed.reduce((a, t) => a + t.frames, 0) / (timed.reduce((a, t) => a + t.ms, 0) / 1000)
      : null;
    const quality = await w.tray().evaluate(() => ({ quality: window.overlay.quality ?? 'full (the old page)', pixelRatio: window.overlay.pixelRatio ?? window.devicePixelRatio }));
    pages[tag] = {
      frames_per_throw: Math.round(mean * 10) / 10,
      min: Math.min(...frames),
      max: Math.max(...frames),
      frames_per_second: fps && Math.round(fps * 10) / 10,
      ...quality,
      throws: perThrow,
    };
    for (const c of [phone, laptop, screen]) await c.close();
  }
  const ratio = pages.old
    ? Math.round((pages.new.frames_per_throw / pages.old.frames_per_throw) * 100) / 100
    : undefined;
  console.log(JSON.stringify({ throws: THROWS, notation, ...pages, ratio }));
} finally {
  await context.close();
}
