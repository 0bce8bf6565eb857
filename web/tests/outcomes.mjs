// A move's outcome on a phone at the three rulesets the round test does not play, run by
// tests/dicetable/seat.rs:
//   node web/tests/outcomes.mjs BASE_URL OUT_DIR
// For each of an action-dice, an open-d6 and a d20-check room, in headless chromium, found by
// role and accessible name: the game master opens the room from the front page, sits at it on a
// phone (375 x 667) and makes the move the form drafts. Once the tray's camera rests on the
// dice: the card's working (each step, what it triggers, what changed), the move's history line,
// the announcement and the logged entry; a screenshot of each room (outcome-ROOM-phone.png) and
// axe-core on the last page. Prints one JSON line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, moveForm, answered, waitAnswer } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const ROOMS = [
  { room: 'knights', scene: 'action-dice-knight-and-magician' },
  { room: 'shootout', scene: 'open-d6-fred-and-peter' },
  { room: 'crypt', scene: 'd20-check-crypt' },
];
const context = await launch();
const errors = [];

try {
  const rooms = [];
  let violations = null;
  for (const r of ROOMS) {
    const front = await context.newPage();
    const { toTable } = await openRoom(front, base, r.room, r.scene);
    await front.close();
    const phone = await (await context.phone()).newPage();
    phone.on('pageerror', (e) => errors.push(`${r.room}: ${e}`));
    await phone.setViewportSize({ width: 375, height: 667 });
    await joinAs(phone, toTable, { name: 'Gwen', passcode: 'gm-secret' });
    let tray = null;
    while (!(tray = phone.frames().find((f) => f.url().includes('/watch')))) await phone.waitForTimeout(100);
    await tray.waitForFunction(() => window.overlay?.greeted, null, WAIT);

    // The move the form drafts for the acting character, allowed, with its odds.
    await moveForm(phone);
    await phone.waitForFunction(() => window.seat.moves && !window.seat.moves.refused && window.seat.moveOdds, null, WAIT);
    const move = await phone.evaluate(() => window.seat.moves.describe);
    const before = await answered(phone);
    await phone.getByRole('button', { name: 'Make the move' }).click();
    await waitAnswer(phone, before);
    const seq = await phone.evaluate(() => window.seat.acked);
    await phone.waitForFunction((n) => window.seat.told[n], seq, WAIT);
    const entry = await phone.evaluate((n) => window.seat.entries.find((e) => e.seq === n), seq);
    await phone.waitForFunction(
      () => document.querySelector('[role="status"]')?.textContent.includes('Gwen: '), null, WAIT,
    );

    // The tray's card once the camera rests on the dice, their values beside them or listed.
    await tray.waitForFunction((n) => window.overlay.shown?.roll === n, seq, WAIT);
    await tray.locator('#working li').first().waitFor(WAIT);
    await tray.waitForFunction(
      () => window.overlay.labels.length > 0 || window.overlay.listed.length > 0, null, WAIT,
    );
    let last = null;
    for (let i = 0; i < 40; i += 1) {
      const now = await tray.evaluate(() => JSON.stringify(window.overlay.drawn) + window.overlay.rendered);
      if (now === last) break;
      last = now;
      await tray.waitForTimeout(300);
    }
    // The hint on how to throw, shown a moment after joining, has gone.
    await phone.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
    await phone.screenshot({ path: join(out, `outcome-${r.room}-phone.png`) });
    rooms.push({
      room: r.room,
      move,
      entry,
      card: await tray.evaluate(
        () => [...document.querySelectorAll('#working li')].map((li) => ({ kind: li.className, text: li.textContent })),
      ),
      cardBox: await tray.evaluate(() => {
        const c = document.getElementById('card').getBoundingClientRect();
        return { x: c.left, y: c.top, w: c.width, h: c.height };
      }),
      dice: await tray.evaluate(() => window.overlay.discs),
      working: await phone.evaluate(
        () => [...document.querySelectorAll('#history li .working')].map((w) => w.textContent)[0] ?? null,
      ),
      announced: await phone.getByRole('status').first().textContent(),
    });
    if (r === ROOMS.at(-1)) violations = await axe(phone);
    await phone.close();
  }
  await context.close();
  console.log(JSON.stringify({ rooms, errors, violations }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
