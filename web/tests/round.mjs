// A round at the table from pages and a window, run by tests/dicetable/seat.rs:
//   node web/tests/round.mjs BASE_URL OUT_DIR
// For each of three rooms (a step-dice scene, a d4-pool one, and a system file's: counting sixes), in headless chromium, found by
// role and accessible name: the game master opens the room from the front page and sits at it;
// Pat (a phone) and Sam (a desktop) join, each playing one character. Then it prints
// "window ROOM CHARACTER" and waits for OUT_DIR/window-ROOM: the test starts a window client
// (`play --join`) playing the first character, which throws a notation and that character's
// move. The game master ends the turn from the move form; Pat builds a move in the form (a
// choice changed, its exact odds shown) and makes it, and throws a notation; Sam's form says
// why it is not Sam's turn, and a move Sam's page sends for a character Sam does not play is
// refused with its reason; the game master ends the turn; Sam throws the move from the
// keyboard (Space on the tray; a flick of the mouse in the second room) and a notation with a
// flick of the mouse on the tray; in the system file's room Sam ends Tam's turn. In the first
// room the game master also rolls hidden and reveals it. Prints one JSON line of what each page
// showed.
import { launch } from './browser.mjs';
import {
  WAIT, joinAs, trayGreeted, throwNotation, freeRoll, moveForm, answered, waitAnswer, line, stroke,
} from './room-page.mjs';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

const [base, out] = process.argv.slice(2);
// The pictures of a phone and a desktop are taken only for whoever keeps them (seat.rs copies
// them to DICETABLE_SHOTS): each waits for its page's drawing to settle.
const SHOTS = Boolean(process.env.DICETABLE_SHOTS);
const context = await launch();
const errors = [];

const ROOMS = [
  { room: 'vault', scene: 'step-dice-vault', first: 'Ana', pat: 'Bo', sam: 'Cass', change: ['Skill set', 'Athletics'] },
  { room: 'ambush', scene: 'd4-pool-goblin-ambush', first: 'Vex the Rogue', pat: 'Pim', sam: 'Bram', change: ['Target', 'DC'] },
  { room: 'derelict', scene: 'system-count-sixes', first: 'Okoye', pat: 'Lind', sam: 'Tam', change: ['Attribute', 'Wits'] },
];

async function open(size) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize(size);
  return page;
}

const status = (page) => page.getByRole('status').first().textContent();
/** A room page's tray (its iframe of the room's watch page). */
const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));
const until = (page, text) => page.waitForFunction(
  (t) => document.querySelector('[role="status"]')?.textContent.includes(t), text, WAIT,
);
const waitSeq = (page, seq) => page.waitForFunction((n) => window.seat.seq >= n, seq, WAIT);
/** Waits until the page's draft is the move it shows (the server answered the last change). */
const drafted = (page, allowed) => page.waitForFunction(
  (ok) => window.seat.moves && (ok === null || !window.seat.moves.refused === ok), allowed, WAIT,
);

/** Picks a kind of move in the form and waits for its fields. */
async function kind(page, label) {
  await moveForm(page);
  await drafted(page, null);
  const option = await page.getByRole('combobox', { name: 'Move', exact: true }).locator('option')
    .filter({ hasText: label }).first().getAttribute('value');
  await page.getByRole('combobox', { name: 'Move', exact: true }).selectOption(option);
  await page.waitForFunction(
    (l) => window.seat.moves?.kinds[window.seat.moves.kind]?.label === l, label, WAIT,
  );
}

/** What a page's form did lately (`seat.trail`), for a wait that did not end as it should. */
const trailOf = (page) => page.evaluate(() => JSON.stringify({
  kind: window.seat.moves?.kind, seq: window.seat.seq, trail: window.seat.trail,
}));
// Picks that had to be made again, with the form's trail of each: the test prints them.
const picksAgain = [];

/**
 * Picks the ruleset's first kind of move (the action) and waits for the rules' verdict. A pick
 * that the form has not shown after a while is made again, as a person would pick it again, and
 * the form's trail is kept: CI once waited 120 s for a pick the form never showed.
 */
async function firstKind(page) {
  for (let attempt = 1; ; attempt += 1) {
    await moveForm(page);
    await drafted(page, null);
    await page.getByRole('combobox', { name: 'Move', exact: true }).selectOption('0');
    try {
      await page.waitForFunction(() => window.seat.moves?.kind === 0, null, { timeout: 30000 });
      return;
    } catch (failed) {
      picksAgain.push(await trailOf(page));
      if (attempt === 3) throw failed;
    }
  }
}

async function makeMove(page) {
  await moveForm(page);
  await drafted(page, true);
  const before = await answered(page);
  await page.getByRole('button', { name: 'Make the move' }).click();
  await waitAnswer(page, before);
}

async function endTurn(gm) {
  await kind(gm, 'End turn');
  await makeMove(gm);
}

const front = await open({ width: 1280, height: 900 });
const rooms = [];
// The room being played and its pages: what each page's form did is printed if a wait fails.
let playing = null;
try {
  for (const r of ROOMS) {
    // The game master opens the room and sits at it.
    await front.goto(base);
    await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
    await front.getByRole('textbox', { name: 'Room' }).fill(r.room);
    await front.getByRole('combobox', { name: 'Scene' }).selectOption(r.scene);
    await front.getByRole('textbox', { name: 'Name' }).fill('Gwen');
    await front.getByRole('textbox', { name: 'Passcode', exact: true }).fill('friends');
    await front.getByLabel("Game master's passcode").fill('gm-secret');
    await front.getByRole('button', { name: 'Open the room' }).click();
    await until(front, 'is open');
    const link = await front.getByRole('link', { name: new RegExp(`/${r.room}$`) }).getAttribute('href');
    const toTable = await front.getByRole('link', { name: 'Go to the table as the game master' }).getAttribute('href');
    const gm = await open({ width: 1280, height: 800 });
    await joinAs(gm, toTable, { name: 'Gwen', passcode: 'gm-secret' });
    const pat = await open({ width: 375, height: 667 });
    await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: [r.pat] });
    const sam = await open({ width: 1920, height: 1080 });
    await joinAs(sam, link, { name: 'Sam', passcode: 'friends', seats: [r.sam] });
    await trayGreeted(pat);
    playing = { room: r.room, pages: { gm, pat, sam } };
    const seen = {};
    // Pat's form before anything: the moves of the ruleset, and why Pat may not act yet.
    await drafted(pat, null);
    seen.patKinds = await pat.getByRole('combobox', { name: 'Move', exact: true }).locator('option').allTextContents();
    seen.patVerdictFirst = await pat.locator('#move-verdict').textContent();

    // The window plays the first character: a notation and its move.
    const head = await gm.evaluate(() => window.seat.seq);
    console.log(`window ${r.room} ${r.first}`);
    while (!existsSync(join(out, `window-${r.room}`))) await new Promise((ok) => setTimeout(ok, 100));
    await waitSeq(gm, head + 2);

    // The game master ends the turn from the form; it is Pat's character's turn.
    await endTurn(gm);
    await waitSeq(pat, head + 3);
    await firstKind(pat);
    await drafted(pat, true);
    // Pat changes a choice: the form follows, the rules allow it, the odds come before the throw.
    const [field, choice] = r.change;
    const option = await pat.getByRole('combobox', { name: field, exact: true }).locator('option')
      .filter({ hasText: choice }).first().getAttribute('value');
    await pat.getByRole('combobox', { name: field, exact: true }).selectOption(option);
    // The odds are read as they are shown, in the same look: an entry the tray tells late (the
    // window's throws land on Pat's tray in their own time) asks the draft again, and the form
    // says "Working out…" until the odds come back.
    const shownOdds = await pat.waitForFunction(
      ([f, c]) => window.seat.moves.fields.some((x) => x.label === f && x.options?.[x.selected]?.label === c)
        && window.seat.moveOdds
        && document.querySelector('#move-odds-text').textContent,
      [field, choice], WAIT,
    );
    seen.patOdds = await shownOdds.jsonValue();
    seen.patLegend = await pat.locator('#move-odds-legend li').allTextContents();
    seen.patFields = await pat.evaluate(() => window.seat.moves.fields.map((f) => f.label));
    seen.patVerdict = await pat.locator('#move-verdict').textContent();
    seen.patDescribe = await pat.evaluate(() => window.seat.moves.describe);
    seen.patTracker = await pat.locator('#tracker-rows li').allTextContents();
    seen.patTurn = await pat.locator('#turn').textContent();
    if (rooms.length === 0 && SHOTS) {
      // The picture of a phone: a move drafted, allowed, its odds shown.
      await pat.waitForTimeout(2500);
      await pat.screenshot({ path: join(out, 'round-phone.png'), fullPage: true });
    }
    await makeMove(pat);
    await until(pat, 'Pat: ');
    seen.patMoved = await status(pat);
    if (SHOTS) {
      // The picture of an outcome in full on a phone, one per ruleset: the tray's card.
      await trayOf(pat).locator('#working li').first().waitFor(WAIT);
      // Once the camera has come to rest on the dice, with their values beside them or listed.
      await trayOf(pat).waitForFunction(
        () => window.overlay.labels.length > 0 || window.overlay.listed.length > 0, null, WAIT,
      );
      await pat.waitForTimeout(2500);
      await pat.screenshot({ path: join(out, `outcome-${r.room}-phone.png`) });
    }
    // The outcome in full, as the window shows it: on the tray's card (each step, what it
    // triggers, what changed) and on the move's history line; the scene and the game played.
    seen.patCard = await trayOf(pat).evaluate(
      () => [...document.querySelectorAll('#working li')].map((li) => ({ kind: li.className, text: li.textContent })),
    );
    seen.patWorking = await pat.evaluate(
      () => [...document.querySelectorAll('#history li .working')].map((w) => w.textContent)[0] ?? null,
    );
    seen.sceneLine = await pat.locator('#scene-line').textContent();
    seen.sceneAbout = await pat.locator('#scene-about').textContent();
    await throwNotation(pat, '2d6+1');
    await until(pat, 'Pat: 2d6+1');

    // Sam's form says why not; a move for a character Sam does not play is refused. Sam's page
    // first tells every entry so far (its tray lands Pat's dice in its own time): an entry told
    // after Sam picks a move asks the draft again as the table moved, and a refused draft then
    // gives way to the first move allowed.
    const patHead = await pat.evaluate(() => window.seat.seq);
    await sam.waitForFunction((n) => window.seat.told[n], patHead, WAIT);
    await firstKind(sam);
    await drafted(sam, false);
    seen.samVerdict = await sam.locator('#move-verdict').textContent();
    const theirs = await sam.evaluate(() => {
      const k = window.seat.moves.kinds[0].template;
      return k;
    });
    const forFirst = structuredClone(theirs);
    Object.values(Object.values(forFirst)[0])[0].actor = 0;
    const before = await answered(sam);
    await sam.evaluate((m) => window.seat.propose(m), forFirst);
    await waitAnswer(sam, before);
    seen.samRefused = await status(sam);
    seen.samRefusedCode = await sam.evaluate(() => window.seat.refused.at(-1).code);

    // The game master ends the turn with Sam's page on the free roll: the page says it is Sam's
    // turn and the form on screen is the move. Sam moves from the keyboard, and flicks a notation.
    await freeRoll(sam);
    const turnsBefore = await sam.evaluate(() => window.seat.turns);
    await endTurn(gm);
    await sam.waitForFunction(
      (n) => window.seat.turns > n && window.seat.drafting === 'move', turnsBefore, WAIT,
    );
    seen.samTurn = await status(sam);
    seen.samFocus = await sam.evaluate(() => document.activeElement?.id);
    if (SHOTS) {
      // The picture of the turn passing: Sam's page says it is Sam's turn, the move drafted.
      await sam.waitForTimeout(1500);
      await sam.screenshot({ path: join(out, `turn-${r.room}-desktop.png`) });
    }
    await drafted(sam, true);
    if (rooms.length === 0 && SHOTS) {
      // The picture of a desktop: Sam's move allowed, with its odds.
      await sam.waitForFunction(() => window.seat.moveOdds, null, WAIT);
      await sam.waitForTimeout(2500);
      await sam.screenshot({ path: join(out, 'round-desktop.png') });
    }
    // The move the turn brought: from the keyboard (Space on the tray), or in the second room
    // with a flick of the mouse across the tray.
    const beforeMove = await answered(sam);
    if (rooms.length === 1) {
      seen.samMoveBy = 'flick';
      const tray = await sam.getByRole('button', { name: /^Throw the move/ }).boundingBox();
      await stroke(sam, line(
        [tray.x + tray.width * 0.3, tray.y + tray.height * 0.6],
        [tray.x + tray.width * 0.6, tray.y + tray.height * 0.42], 6,
      ), 16, { touch: false });
      seen.samMoveSwing = await sam.evaluate(() => window.seat.lastSwing);
    } else {
      seen.samMoveBy = 'space';
      await sam.getByRole('combobox', { name: 'Move', exact: true }).focus();
      await sam.getByRole('button', { name: /^Throw the move/ }).focus();
      await sam.keyboard.press('Space');
    }
    await waitAnswer(sam, beforeMove);
    await until(sam, 'Sam: ');
    seen.samMoved = await status(sam);
    await freeRoll(sam);
    await sam.getByRole('textbox', { name: 'Notation' }).fill('3d6');
    const box = await sam.getByRole('button', { name: /^Throw the free roll/ }).boundingBox();
    const beforeFlick = await answered(sam);
    await stroke(sam, line(
      [box.x + box.width * 0.3, box.y + box.height * 0.6],
      [box.x + box.width * 0.6, box.y + box.height * 0.42], 6,
    ), 16, { touch: false });
    await waitAnswer(sam, beforeFlick);
    await until(sam, 'Sam: 3d6');
    seen.samSwing = await sam.evaluate(() => window.seat.lastSwing);
    if (r.room === 'derelict') {
      // A system file's turns go in order: Sam ends Tam's turn from Sam's own form.
      await endTurn(sam);
      const ended = await sam.evaluate(() => window.seat.acked);
      await sam.waitForFunction((n) => window.seat.told[n], ended, WAIT);
      seen.samEnded = await status(sam);
    }

    if (rooms.length === 0) {
      // Hidden, then revealed.
      await freeRoll(gm);
      await gm.getByRole('combobox', { name: 'Who sees it' }).selectOption('self');
      await throwNotation(gm, '1d20');
      await until(pat, 'Gwen: 1d20, hidden');
      await gm.getByRole('button', { name: /Reveal hidden roll/ }).click();
      await until(pat, "Gwen's roll #");
      seen.patSawReveal = await status(pat);
    }

    // Every page holds the same log, and checked every line of it.
    const heads = await Promise.all([gm, pat, sam].map((p) => p.evaluate(() => window.seat.seq)));
    for (const p of [gm, pat, sam]) await waitSeq(p, Math.max(...heads));
    const logs = await Promise.all([gm, pat, sam].map((p) => p.evaluate(
      () => window.seat.entries.map((e) => JSON.stringify(e)),
    )));
    seen.sameLogs = logs.every((l) => JSON.stringify(l) === JSON.stringify(logs[0]));
    seen.entries = logs[0].map((l) => JSON.parse(l));
    seen.checks = await Promise.all([gm, pat, sam].map((p) => p.evaluate(
      () => ({ checked: window.seat.checked, unchecked: window.seat.unchecked }),
    )));
    seen.room = r.room;
    rooms.push(seen);
    // Done with this room: its pages close (the next room's drawing has the cores to itself);
    // its window stays, and the test reads what it showed.
    await Promise.all([gm, pat, sam].map((p) => p.close()));
  }
  console.log(JSON.stringify({ rooms, errors, picksAgain }));
} catch (failed) {
  if (playing) {
    console.error(`in room ${playing.room}, each page's form (seq, kind, last catalogues and drafts):`);
    for (const [who, page] of Object.entries(playing.pages)) {
      const state = await page.evaluate(() => ({
        seq: window.seat.seq,
        kind: window.seat.moves?.kind,
        connected: window.seat.connected,
        reconnects: window.seat.reconnects,
        refused: window.seat.refused,
        trail: window.seat.trail,
      })).catch((e) => String(e));
      console.error(who, JSON.stringify(state));
    }
  }
  throw failed;
} finally {
  await context.close();
}
