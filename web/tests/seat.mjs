// A seat at the table in the browser, run by tests/dicetable/online.rs:
//   node web/tests/seat.mjs BASE_URL OUT_DIR
// On the table server at BASE_URL, in headless chromium, found by role and accessible name:
// the game master opens a room from the front page (a broken scene file and two broken system
// files first: refused with their
// line and column); Pat (a phone, 375 x 667) and Sam (a desktop, 1920 x 1080) join from the
// room's link and throw notations, from the keyboard and with the Throw button; Sam's bad
// notation is refused with its reason; the game master rolls hidden and reveals it. Then it
// prints "kill" and waits for OUT_DIR/back (the test kills the server with SIGKILL, starts it
// again on the same data and writes it): every page comes back by itself and Pat throws again.
// Saves a
// screenshot of each size (OUT_DIR/seat-phone.png, seat-desktop.png) and prints one JSON line of
// what each page showed.
import { launch } from './browser.mjs';
import { WAIT, joinAs, throwNotation, freeRoll } from './room-page.mjs';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];

async function open(size) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize(size);
  return page;
}

const status = (page) => page.getByRole('status').first().textContent();
const until = (page, text) => page.waitForFunction(
  (t) => document.querySelector('[role="status"]')?.textContent.includes(t), text, WAIT,
);

const history = (page) => page.evaluate(
  () => [...document.querySelectorAll('#history li')].map((li) => li.textContent),
);

try {
  // The front page: a broken scene file, then one of the server's scenes.
  const front = await open({ width: 1280, height: 900 });
  await front.goto(base);
  await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
  const scenes = await front.getByRole('combobox', { name: 'Scene' }).locator('option').allTextContents();
  // A scene with rules of its own says which.
  await front.getByRole('combobox', { name: 'Scene' }).selectOption('step-dice-vault-dangerous');
  const ownRules = await front.locator('#scene-about').textContent();
  await front.getByRole('textbox', { name: 'Room' }).fill('broken');
  await front.getByRole('combobox', { name: 'Scene' }).selectOption({ label: 'A file from this computer…' });
  await front.getByLabel('Scene file').setInputFiles({
    name: 'broken.ron', mimeType: 'text/plain', buffer: Buffer.from('(\n  name: "Broken",\n  cast: Nothing([]),\n)\n'),
  });
  // Previewed before anything is opened: why it would not open.
  await front.waitForFunction(() => window.front.previewError, null, WAIT);
  const badPreview = await front.getByRole('alert').textContent();
  await front.getByRole('textbox', { name: 'Name' }).fill('Gwen');
  await front.getByRole('textbox', { name: 'Passcode', exact: true }).fill('friends');
  await front.getByLabel("Game master's passcode").fill('gm-secret');
  await front.getByRole('button', { name: 'Open the room' }).click();
  await front.waitForFunction(() => window.front.error, null, WAIT);
  const badScene = await status(front);
  // A scene with a system file of its own: broken, then with a number out of bounds.
  const systemScene = (rules) => Buffer.from(
    `(\n  name: "Tiny",\n  cast: SystemFile([(name: "Mia", traits: {"Hot": 2})]),\n  rules: SystemFile((\n    name: "Tiny",\n    traits: [(name: "Hot", least: -3, most: 3)],\n${rules}\n  )),\n)\n`,
  );
  const bands = 'bands: [(name: "hit", when: [AtLeast(7)]), (name: "miss")]';
  const uploads = [
    ['broken-system.ron', `    moves: [(name: "Go", throw: "2d6+$Hot", ${bands.replace('AtLeast', 'AtLest')})],`, 'AtLest'],
    ['far-system.ron', `    moves: [(name: "Go", throw: "2d6+$Hot", cap: Some(99999), ${bands})],`, 'out of bounds'],
  ];
  const badSystems = [];
  for (const [name, rules, marker] of uploads) {
    await front.getByLabel('Scene file').setInputFiles({ name, mimeType: 'text/plain', buffer: systemScene(rules) });
    await front.getByRole('button', { name: 'Open the room' }).click();
    await until(front, marker);
    badSystems.push(await status(front));
  }
  await front.getByRole('textbox', { name: 'Room' }).fill('keep');
  await front.getByRole('combobox', { name: 'Scene' }).selectOption('d20-check-crypt');
  // Its preview: the game, who sits at the table, as the room will open.
  await front.waitForFunction(() => window.front.preview?.title === 'Into the crypt', null, WAIT);
  const preview = await front.getByRole('region', { name: 'Into the crypt' }).evaluate((el) => ({
    game: el.querySelector('#preview-game').textContent,
    heading: el.querySelector('#preview-heading').textContent,
    cast: [...el.querySelectorAll('li')].map((li) => li.textContent),
  }));
  await front.screenshot({ path: join(out, 'front-preview.png'), fullPage: true });
  await front.getByRole('button', { name: 'Open the room' }).click();
  await until(front, 'is open');
  const opened = await status(front);
  const link = await front.getByRole('link', { name: /\/keep$/ }).getAttribute('href');
  const toTable = await front.getByRole('link', { name: 'Go to the table as the game master' }).getAttribute('href');

  // Pat on a phone, Sam on a desktop, the game master.
  const pat = await open({ width: 375, height: 667 });
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  const sam = await open({ width: 1920, height: 1080 });
  await joinAs(sam, link, { name: 'Sam', passcode: 'friends', seats: ['Bea'] });
  const gm = await open({ width: 1280, height: 800 });
  await joinAs(gm, toTable, { name: 'Gwen', passcode: 'gm-secret' });

  // The odds of what Pat drafts, before the throw.
  await freeRoll(pat);
  const oddsOf = async (notation) => {
    await pat.getByRole('textbox', { name: 'Notation' }).fill(notation);
    await pat.waitForFunction((n) => document.getElementById('odds-text').textContent.startsWith(`${n}:`), notation, WAIT);
    return pat.locator('#odds-text').textContent();
  };
  const odds = [await oddsOf('2d6+1'), await oddsOf('{1d20+5}>=15')];
  await throwNotation(pat, '2d6+1', 'enter');
  await until(pat, 'Pat: 2d6+1');
  const patSaw = await status(pat);
  await throwNotation(sam, '4dF', 'click');
  await until(pat, 'Sam: 4dF');
  await throwNotation(sam, '2d31', 'click');
  const samRefused = await status(sam);

  // Hidden, then revealed.
  await freeRoll(gm);
  await gm.getByRole('combobox', { name: 'Who sees it' }).selectOption('self');
  await throwNotation(gm, '1d6', 'click');
  await until(pat, 'Gwen: 1d6, hidden');
  const patSawHidden = await status(pat);
  const gmSawHidden = (await history(gm))[0];
  await gm.getByRole('button', { name: /Reveal hidden roll/ }).click();
  await until(pat, "Gwen's roll #");
  const patSawReveal = await status(pat);
  await pat.waitForFunction(() => [...document.querySelectorAll('#history li')].some((li) => li.textContent.includes('(revealed)')), null, WAIT);

  // The server is killed and started again: the pages come back by themselves.
  const beforeKill = await pat.evaluate(() => window.seat.seq);
  console.log('kill');
  while (!existsSync(join(out, 'back'))) await new Promise((r) => setTimeout(r, 100));
  for (const p of [pat, sam, gm]) {
    await p.waitForFunction(() => window.seat.reconnects >= 1 && window.seat.connected, null, WAIT);
  }
  await throwNotation(pat, '3d4', 'enter');
  await until(pat, 'Pat: 3d4');
  const afterRestart = await pat.evaluate(() => window.seat.entries.at(-1).seq);
  const reconnected = await Promise.all([pat, sam, gm].map((p) => p.evaluate(() => window.seat.reconnects)));

  // Every page holds the same log.
  const seqs = await Promise.all([pat, sam, gm].map((p) => p.evaluate(() => window.seat.seq)));
  await sam.waitForFunction((n) => window.seat.seq >= n, Math.max(...seqs), WAIT);
  await gm.waitForFunction((n) => window.seat.seq >= n, Math.max(...seqs), WAIT);
  const logs = await Promise.all([pat, sam, gm].map((p) => p.evaluate(
    () => window.seat.entries.map((e) => JSON.stringify(e)),
  )));

  // Let the dice land on the felt before the pictures.
  for (const p of [pat, sam]) {
    await p.frameLocator('#tray').locator('#card').waitFor(WAIT).catch(() => {});
  }
  // The drawing settles for whoever keeps the pictures (DICETABLE_SHOTS); else they are only
  // taken.
  if (process.env.DICETABLE_SHOTS) await pat.waitForTimeout(2500);
  await pat.screenshot({ path: join(out, 'seat-phone.png'), fullPage: true });
  await sam.screenshot({ path: join(out, 'seat-desktop.png') });

  console.log(JSON.stringify({
    scenes,
    ownRules,
    badScene,
    badPreview,
    preview,
    badSystems,
    opened,
    link,
    patSaw,
    odds,
    samRefused,
    patSawHidden,
    patSawReveal,
    gmSawHidden,
    patHistory: await history(pat),
    sameLogs: logs.every((l) => JSON.stringify(l) === JSON.stringify(logs[0])),
    entries: logs[0].length,
    beforeKill,
    afterRestart,
    reconnected,
    checks: await Promise.all([pat, sam, gm].map((p) => p.evaluate(
      () => ({ checked: window.seat.checked, unchecked: window.seat.unchecked }),
    ))),
    patMarks: await pat.evaluate(() => [...document.querySelectorAll('#history li .checked')].map((m) => m.textContent)),
    errors,
  }));
} finally {
  await context.close();
}
