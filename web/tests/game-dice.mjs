// A game's own dice on the room page, run by tests/dicetable/seat.rs:
//   node web/tests/game-dice.mjs BASE_URL OUT_DIR
// In headless chromium, for each of the two shipped system files with dice of their own
// (narrative symbol dice, bone dice with pips and a skull): Gwen opens a room of its scene, Pat
// joins on a phone (375 x 667) for the first character, and an OBS page watches. Pat makes the
// move the form offers first. What Pat's tray and the OBS page draw of it (`overlay.dice()`,
// the pages' own state: each die's marks and its faces read in words), the values shown over
// the dice, Pat's history line, a screenshot of Pat's phone, axe-core on it. One JSON line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, trayGreeted, phonePage, makeMove } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];

const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));

/** What `frame` (a tray, or the OBS page) draws of roll `seq` at rest: its dice and values. */
async function drawnOn(frame, seq) {
  await frame.waitForFunction((n) => window.overlay.shown?.roll === n
    && window.overlay.dice().length > 0 && window.overlay.dice().every((d) => d.numbered),
  seq, WAIT);
  return frame.evaluate(() => ({
    dice: window.overlay.dice(),
    values: [...document.querySelectorAll('#values span')].map((s) => s.textContent),
  }));
}

try {
  const games = {};
  for (const [room, scene, seat] of [
    ['smugglers', 'system-narrative-dice', 'Vessa'],
    ['barrow', 'system-bone-dice', 'Hild'],
  ]) {
    const front = await context.newPage();
    const { link } = await openRoom(front, base, room, scene);
    await front.close();
    const pat = await phonePage(context, errors, `pat in ${room}`);
    await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: [seat] });
    const obs = await (await context.another()).newPage();
    obs.on('pageerror', (e) => errors.push(`obs of ${room}: ${e}`));
    await obs.setViewportSize({ width: 1280, height: 720 });
    await obs.goto(new URL(`${room}/watch#passcode=friends`, base).href);
    await trayGreeted(pat);
    await obs.waitForFunction(() => window.overlay?.greeted, null, WAIT);
    const seq = await makeMove(pat);
    const tray = await drawnOn(trayOf(pat), seq);
    const watched = await drawnOn(obs, seq);
    await pat.waitForFunction((n) => window.seat.told[n], seq, WAIT);
    const history = await pat.evaluate((n) => [...document.querySelectorAll('#history li')]
      .map((li) => li.textContent).find((t) => t.startsWith(`#${n} `)), seq);
    await pat.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
    await pat.evaluate(() => window.scrollTo(0, 0));
    await pat.screenshot({ path: join(out, `game-dice-${room}-phone.png`) });
    const violations = await axe(pat);
    games[room] = { seq, tray, obs: watched, history, violations };
    await pat.close();
    await obs.close();
  }
  await context.close();
  console.log(JSON.stringify({ games, errors }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
