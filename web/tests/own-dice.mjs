// Dice of one's own from the room page, run by tests/dicetable/seat.rs:
//   node web/tests/own-dice.mjs BASE_URL OUT_DIR
// In headless chromium: Gwen, the game master (a desktop), opens a d20-check room; Pat and Sam
// join on phones (375 x 667), and an OBS page watches. Each picks dice with "Your dice" (found
// by role and accessible name): Pat stone with serif numerals (its live die looked at), Sam metal (white with yellow numerals, which do not
// read), Gwen translucent for Bea. Each throws; then Pat makes Ash's check and Sam Bea's. What every
// tray and the OBS page draw of each roll (`overlay.dice()`, the pages' own state), each
// page's history line of each choice, a screenshot of Pat's picker and of each phone's dice,
// axe-core on the picker. Prints one JSON line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, trayGreeted, phonePage, throwNotation, pickDice, makeMove }
  from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];

const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));

/** Picks dice in the page's "Your dice" form and waits for the room to log them: the line. */
async function pick(page, look) {
  await pickDice(page, look);
  const seq = await page.evaluate(() => window.seat.acked);
  await page.waitForFunction((n) => window.seat.told[n], seq, WAIT);
  return page.evaluate((n) => [...document.querySelectorAll('#history li')]
    .map((li) => li.textContent).find((t) => t.startsWith(`#${n} `)), seq);
}

/** What `frame` (a tray, or the OBS page) draws of roll `seq`, once its dice are at rest. */
async function drawnOn(frame, seq) {
  await frame.waitForFunction((n) => window.overlay.shown?.roll === n
    && window.overlay.dice().length > 0, seq, WAIT);
  return frame.evaluate(() => window.overlay.dice());
}

/** A roll's dice on every page: each tray and the OBS page. */
async function everywhere(pages, obs, seq) {
  const seen = {};
  for (const [who, page] of Object.entries(pages)) seen[who] = await drawnOn(trayOf(page), seq);
  seen.obs = await drawnOn(obs, seq);
  return seen;
}

try {
  const front = await context.newPage();
  const { link, toTable } = await openRoom(front, base, 'colours', 'd20-check-crypt');
  await front.close();
  const gwen = await (await context.another()).newPage();
  gwen.on('pageerror', (e) => errors.push(`gwen: ${e}`));
  await gwen.setViewportSize({ width: 1280, height: 800 });
  await joinAs(gwen, toTable, { name: 'Gwen', passcode: 'gm-secret' });
  const pat = await phonePage(context, errors, 'pat');
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  const sam = await phonePage(context, errors, 'sam');
  await joinAs(sam, link, { name: 'Sam', passcode: 'friends', seats: ['Bea'] });
  const obs = await (await context.another()).newPage();
  obs.on('pageerror', (e) => errors.push(`obs: ${e}`));
  await obs.setViewportSize({ width: 1280, height: 720 });
  await obs.goto(new URL('colours/watch#passcode=friends', base).href);
  const pages = { gwen, pat, sam };
  for (const page of Object.values(pages)) await trayGreeted(page);
  await obs.waitForFunction(() => window.overlay?.greeted, null, WAIT);

  const lines = {};
  lines.pat = await pick(pat, { body: '#1e40aa', ink: '#ffffff', material: 'stone', typeface: 'serif' });
  // The picker's live die, drawn as the look picked (both atlases come).
  await pat.waitForFunction(() => window.seat.preview?.loaded === 2
    && window.seat.preview.dice[0].typeface === 'serif', null, WAIT);
  const preview = await pat.evaluate(() => ({
    ...window.seat.preview,
    label: document.getElementById('dice-preview').getAttribute('aria-label'),
  }));
  // The picker on a phone, open, for the docs.
  // Scrolled so the live die sits just under the tray (which stays at the top of a phone).
  await pat.evaluate(() => {
    const under = document.getElementById('tray').getBoundingClientRect().bottom;
    const top = document.getElementById('dice-preview').getBoundingClientRect().top;
    window.scrollBy(0, top - under - 12);
  });
  await pat.screenshot({ path: join(out, 'own-dice-picker-pat-phone.png') });
  await pat.locator('#dice-preview').screenshot({ path: join(out, 'own-dice-live-die.png') });
  const pickerViolations = await axe(pat);
  lines.sam = await pick(sam, { body: '#ffffff', ink: '#ffff00', material: 'metal' });
  lines.gwen = await pick(gwen, { whose: "Bea's (their moves)", body: '#2e8b57', ink: '#ffffff', material: 'translucent' });

  // A free roll each: the thrower's own dice.
  const rolls = {};
  for (const [who, page] of Object.entries(pages)) {
    await throwNotation(page, '2d6');
    const seq = await page.evaluate(() => window.seat.acked);
    rolls[who] = { seq, seen: await everywhere(pages, obs, seq) };
  }
  // Ash's check (Pat's character: Pat's dice) and Bea's (Sam's, in the dice Gwen chose for her).
  const moves = {};
  for (const [who, page] of Object.entries({ pat, sam })) {
    const seq = await makeMove(page);
    moves[who] = { seq, seen: await everywhere(pages, obs, seq) };
    // The thrower's phone with its character's die at rest.
    await page.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(out, `own-dice-${who}-phone.png`) });
  }
  const checks = await Promise.all([gwen, pat, sam].map((p) => p.evaluate(
    () => ({ checked: window.seat.checked, unchecked: window.seat.unchecked }),
  )));
  await context.close();
  console.log(JSON.stringify({ lines, preview, rolls, moves, checks, violations: { picker: pickerViolations }, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
