// A hidden move and the room's roll modes from the room page, run by tests/dicetable/seat.rs:
//   node web/tests/secret-moves.mjs BASE_URL OUT_DIR
// In headless chromium, three phones (375 x 667) found by role and accessible name: Gwen, the
// game master, opens a d20-check room and sets the room's roll modes (every form starts at "You
// and the game master"; players may not roll for themselves alone); Pat and Sam join. Pat makes
// the move his form drafts, for the game master: what each page's newest history line says, its
// tray's card and dice, whether it offers a Reveal; the game master's move form while the table
// waits; then Gwen reveals it and every page tells it. Then Pat's public roll, as each phone
// shows it. A screenshot of each phone at each step; axe-core on every page. Prints one JSON
// line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, freeRoll, moveForm, answered, waitAnswer, trayGreeted,
  phonePage, newestLine as newest } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];

const phone = (name) => phonePage(context, errors, name);

const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));

/** What a page shows of roll `seq` once told: its line, its tray's card and dice; and a
 * screenshot named `shot`. `shows`: whether the roll's mode shows it to this member. */
async function seenOn(page, seq, shows, shot) {
  const seen = await newest(page, seq);
  const tray = trayOf(page);
  if (shows) {
    await tray.waitForFunction((n) => window.overlay.secretShown === n || window.overlay.shown?.roll === n, seq, WAIT);
    await tray.waitForFunction(() => window.overlay.labels.length + window.overlay.listed.length > 0, null, WAIT);
  } else {
    await tray.waitForFunction((n) => window.overlay.hiddenShown === n, seq, WAIT);
  }
  seen.card = await tray.evaluate(() => ['label', 'result', 'chance']
    .map((id) => document.getElementById(id).textContent));
  seen.onTray = await tray.evaluate(() => window.overlay.dice().length);
  await page.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(out, shot) });
  return seen;
}

try {
  const front = await context.newPage();
  const { link, toTable } = await openRoom(front, base, 'stealth', 'd20-check-crypt');
  await front.close();
  const gwen = await phone('Gwen');
  await joinAs(gwen, toTable, { name: 'Gwen', passcode: 'gm-secret' });

  // The game master sets the room's roll modes.
  await gwen.getByText("The room's roll modes").click();
  await gwen.getByRole('combobox', { name: 'Every form starts at' }).selectOption({ label: 'The player and the game master' });
  await gwen.getByRole('checkbox', { name: 'For themselves alone' }).uncheck();
  // Scrolled to just under the tray, which stays at the top of a phone's screen.
  await gwen.evaluate(() => {
    const top = document.getElementById('room-modes').getBoundingClientRect().top;
    window.scrollTo(0, top + window.scrollY - window.innerHeight * 0.52);
  });
  await gwen.screenshot({ path: join(out, 'secret-modes-gwen-phone.png') });
  const modesViolations = await axe(gwen);
  const before = await answered(gwen);
  await gwen.getByRole('button', { name: 'Set the roll modes' }).click();
  await waitAnswer(gwen, before);
  const modesSeq = await gwen.evaluate(() => window.seat.acked);
  const modesLine = (await newest(gwen, modesSeq)).text;

  const pat = await phone('Pat');
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  const sam = await phone('Sam');
  await joinAs(sam, link, { name: 'Sam', passcode: 'friends', seats: ['Bea'] });
  for (const page of [gwen, pat, sam]) await trayGreeted(page);
  await pat.waitForFunction((n) => window.seat.seq >= n, modesSeq, WAIT);
  const patModes = await pat.getByRole('combobox', { name: 'Who sees it' }).evaluate((s) => ({
    value: s.value,
    offered: [...s.options].filter((o) => !o.disabled).map((o) => o.textContent),
  }));

  // Pat's move, for the game master (the room's default).
  await moveForm(pat);
  await pat.waitForFunction(() => window.seat.moves && !window.seat.moves.refused, null, WAIT);
  const move = await pat.evaluate(() => window.seat.moves.describe);
  const sent = await answered(pat);
  await pat.getByRole('button', { name: 'Make the move' }).click();
  await waitAnswer(pat, sent);
  const seq = await pat.evaluate(() => window.seat.acked);
  await gwen.waitForFunction((n) => document.querySelector('#history li')?.textContent.includes('→')
    && window.seat.told[n], seq, WAIT);
  const hidden = {};
  const violations = { modes: modesViolations };
  for (const [who, page] of Object.entries({ pat, sam, gwen })) {
    hidden[who] = await seenOn(page, seq, who !== 'sam', `secret-move-${who}-phone.png`);
    violations[`move-${who}`] = await axe(page);
  }
  // The table waits: the game master's move form says so.
  await moveForm(gwen);
  await gwen.waitForFunction(() => window.seat.moves?.refused, null, WAIT);
  const held = await gwen.evaluate(() => window.seat.moves.refused);

  // Revealed: every page tells it, and the table moves on.
  await gwen.getByRole('button', { name: `Reveal hidden roll ${seq}` }).click();
  const revealed = {};
  for (const [who, page] of Object.entries({ pat, sam, gwen })) {
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('#history li')].some((li) => li.textContent.includes(`roll #${n} revealed: `)),
      seq, WAIT,
    );
    revealed[who] = await page.evaluate((n) => [...document.querySelectorAll('#history li')]
      .map((li) => li.textContent).find((t) => t.includes(`roll #${n} revealed: `)), seq);
  }
  await gwen.waitForFunction(() => window.seat.moves && !window.seat.moves.refused, null, WAIT);

  // Pat's public roll, as each phone shows it.
  await freeRoll(pat);
  await pat.getByRole('combobox', { name: 'Who sees it' }).selectOption({ label: 'Everyone, at once' });
  await pat.getByRole('textbox', { name: 'Notation' }).fill('1d20');
  await pat.getByRole('textbox', { name: 'Label' }).fill('zq-in-the-open');
  const thrown = await answered(pat);
  await pat.getByRole('button', { name: 'Throw', exact: true }).click();
  await waitAnswer(pat, thrown);
  const open = await pat.evaluate(() => window.seat.acked);
  const pub = {};
  for (const [who, page] of Object.entries({ pat, sam, gwen })) {
    pub[who] = await seenOn(page, open, true, `secret-public-${who}-phone.png`);
    violations[`public-${who}`] = await axe(page);
  }
  const checks = await Promise.all([pat, sam, gwen].map((p) => p.evaluate(
    () => ({ checked: window.seat.checked, unchecked: window.seat.unchecked }),
  )));
  await context.close();
  console.log(JSON.stringify({
    modesLine, patModes, move, seq, hidden, held, revealed, open, pub, checks, violations, errors,
  }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
