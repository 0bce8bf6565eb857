// Secret rolls from the room page, run by tests/dicetable/seat.rs:
//   node web/tests/secrets.mjs BASE_URL OUT_DIR
// In headless chromium, three phones (375 x 667) found by role and accessible name: Gwen, the
// game master, opens a d20-check room from the front page and sits at it; Pat and Sam join.
// Pat throws a free roll in each mode ("You and the game master", "The game master alone",
// "You alone"), each with a label of its own; after each, what every page's newest history
// line says and whether it offers a Reveal button, and a screenshot of each phone. Then Gwen
// reveals the blind roll and Sam's page tells it. The roll's dice are thrown on the trays it
// shows to, never on the others. axe-core on every page in every mode. Prints one JSON line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, freeRoll, answered, waitAnswer, trayGreeted,
  phonePage, newestLine as newest } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];
const MODES = [
  { mode: 'gamemaster', option: 'You and the game master', label: 'zq-lie-detected' },
  { mode: 'blind', option: 'The game master alone (blind: not you)', label: 'zq-perception' },
  { mode: 'self', option: 'You alone', label: 'zq-my-fate' },
];

const phone = (name) => phonePage(context, errors, name);

try {
  const front = await context.newPage();
  const { link, toTable } = await openRoom(front, base, 'whispers', 'd20-check-crypt');
  await front.close();
  const gwen = await phone('Gwen');
  await joinAs(gwen, toTable, { name: 'Gwen', passcode: 'gm-secret' });
  const pat = await phone('Pat');
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  const sam = await phone('Sam');
  await joinAs(sam, link, { name: 'Sam', passcode: 'friends', seats: ['Bea'] });
  // Every tray follows the room before the first throw: a roll thrown earlier is history there.
  for (const page of [gwen, pat, sam]) await trayGreeted(page);
  await freeRoll(gwen);
  const gmModes = await gwen.getByRole('combobox', { name: 'Who sees it' }).locator('option').allTextContents();

  const rolls = [];
  const violations = {};
  for (const m of MODES) {
    await freeRoll(pat);
    await pat.getByRole('combobox', { name: 'Who sees it' }).selectOption({ label: m.option });
    await pat.getByRole('textbox', { name: 'Notation' }).fill('1d20');
    await pat.getByRole('textbox', { name: 'Label' }).fill(m.label);
    const before = await answered(pat);
    await pat.getByRole('button', { name: 'Throw', exact: true }).click();
    await waitAnswer(pat, before);
    const seq = await pat.evaluate(() => window.seat.acked);
    // The game master's page is told its content on its own: wait until the line says it.
    if (m.mode !== 'self') {
      await gwen.waitForFunction((l) => document.querySelector('#history li')?.textContent.includes(l), m.label, WAIT);
    }
    const seen = {};
    for (const [who, page] of Object.entries({ pat, sam, gwen })) {
      seen[who] = await newest(page, seq);
      // The tray's card, once it shows this roll (as the member may see it).
      const tray = page.frames().find((f) => f.url().includes('/watch'));
      await tray.waitForFunction((n) => window.overlay.hiddenShown === n, seq, WAIT);
      const mayShow = m.mode === 'gamemaster' ? who !== 'sam' : m.mode === 'blind' ? who === 'gwen' : who === 'pat';
      // Where the roll shows, its dice are thrown on the tray, then the card tells it.
      if (mayShow) {
        await tray.waitForFunction((n) => window.overlay.secretShown === n, seq, WAIT).catch(async (e) => {
          // What the tray and its page had, to tell which half never came.
          const state = await tray.evaluate(() => {
            const { hiddenShown, secretShown, unsealed, connected, greeted } = window.overlay;
            return { hiddenShown, secretShown, unsealed, connected, greeted };
          });
          const held = await page.evaluate((n) => ({
            entry: window.seat.entries.some((x) => x.seq === n), acked: window.seat.acked,
          }), seq);
          throw new Error(`${who}'s tray never told the ${m.mode} roll #${seq}: ${JSON.stringify({ state, held })}: ${e}`);
        });
        // Its die's value beside it (or listed in the card), as any roll's.
        await tray.waitForFunction(() => window.overlay.labels.length + window.overlay.listed.length > 0, null, WAIT);
      }
      seen[who].card = await tray.evaluate(() => ['label', 'result', 'chance']
        .map((id) => document.getElementById(id).textContent));
      seen[who].thrown = await tray.evaluate((n) => ({
        motions: window.overlay.motions.filter((x) => x.roll === n).length,
        unsealed: window.overlay.unsealed.filter((x) => x.roll === n),
        onTray: window.overlay.dice().length,
        values: window.overlay.labels.length + window.overlay.listed.length,
      }), seq);
      await page.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
      await page.screenshot({ path: join(out, `secret-${m.mode}-${who}-phone.png`) });
    }
    for (const [who, page] of Object.entries({ pat, sam, gwen })) violations[`${m.mode}-${who}`] = await axe(page);
    rolls.push({ ...m, seq, seen });
  }

  // Sam, a player, saves the room's log as his page holds it (Rust verifies the file).
  const [download] = await Promise.all([
    sam.waitForEvent('download', WAIT),
    sam.getByRole('button', { name: "Save the room's log" }).click(),
  ]);
  const savedAs = download.suggestedFilename();
  await download.saveAs(join(out, 'sam-saved.jsonl'));

  // Gwen reveals the blind roll; Sam's page tells it, with its label.
  const blind = rolls.find((r) => r.mode === 'blind');
  await gwen.getByRole('button', { name: `Reveal hidden roll ${blind.seq}` }).click();
  await sam.waitForFunction(
    (t) => document.querySelector('[role="status"]')?.textContent.includes(t), 'zq-perception', WAIT,
  );
  const samSawReveal = await sam.getByRole('status').first().textContent();

  // The session's end: Gwen reveals the two rolls left at once; every page tells them, and
  // the button goes.
  const revealAll = gwen.getByRole('button', { name: /^Reveal all \d+ hidden rolls?$/ });
  const revealAllLabel = await revealAll.textContent();
  // Scrolled to just under the tray, which stays at the top of a phone's screen.
  await gwen.evaluate(() => {
    const top = document.getElementById('reveal-all').getBoundingClientRect().top;
    window.scrollTo(0, top + window.scrollY - window.innerHeight * 0.6);
  });
  await gwen.screenshot({ path: join(out, 'secret-reveal-all-gwen-phone.png') });
  await revealAll.click();
  const revealedOn = async (page) => {
    await page.waitForFunction(() => [...document.querySelectorAll('#history li')]
      .filter((li) => li.textContent.includes(' revealed: ')).length === 3, null, WAIT);
    // The reveals' history lines, oldest first.
    return page.evaluate(() => [...document.querySelectorAll('#history li')]
      .map((li) => li.textContent).filter((t) => t.includes(' revealed: ')).reverse());
  };
  const afterAll = {};
  for (const [who, page] of Object.entries({ pat, sam, gwen })) afterAll[who] = await revealedOn(page);
  await gwen.waitForFunction(() => document.getElementById('reveal-all').hidden, null, WAIT);
  const checks = await Promise.all([pat, sam, gwen].map((p) => p.evaluate(
    () => ({ checked: window.seat.checked, unchecked: window.seat.unchecked }),
  )));
  await context.close();
  console.log(JSON.stringify({
    gmModes, rolls, savedAs, samSawReveal, revealAllLabel, afterAll, checks, violations, errors,
  }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
