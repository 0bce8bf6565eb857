// A player on a phone, run by tests/dicetable/seat.rs:
//   node web/tests/phone.mjs BASE_URL OUT_DIR
// On the table server at BASE_URL, in headless chromium, found by role and accessible name: the
// game master (a desktop, 1280 x 800) opens a step-dice room from the front page and sits at
// it; Pat joins on a phone (375 x 667, touch, device pixel ratio 2) from the join form, which
// lists the free characters; Sam (1920 x 1080) watches. On Pat's phone:
// - the bytes loaded from the room's link until the tray is ready, as the browser's network
//   events count them;
// - the first Space on the tray after joining throws the move on screen;
// - a tap and a vertical swipe on the tray throw nothing (the log is unchanged; the swipe
//   scrolls the page); a flick throws the drafted move, with its swing;
// - no throw moves the page's scroll position;
// - each outcome reaches role="status" only after the last die of its throw stopped moving on
//   the tray, and each settled die's value over it is the log's face;
// then the game master's form after End turn, a free roll of 1d20+1d10+1d6+1d4 on the phone
// and the desktop (screenshots), and axe-core on the front page and the room page in each
// state. Prints one JSON line of what it saw.
import { launch, axe, wireBytes } from './browser.mjs';
import {
  WAIT, openRoom, joinAs, freeRoll, moveForm, answered, waitAnswer, line, stroke,
} from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];
const violations = {};

async function check(name, page) {
  violations[name] = await axe(page);
}

/** The room page's status line, each change with its time (ms since the epoch). */
const watchStatus = () => {
  if (window.top !== window) return;
  window.statusLog = [];
  new MutationObserver(() => {
    const s = document.querySelector('[role="status"]');
    if (s) window.statusLog.push({ t: performance.timeOrigin + performance.now(), text: s.textContent });
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

async function open(ctx, name) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`${name}: ${e}`));
  await page.addInitScript(watchStatus);
  return page;
}

/** Scrolls the page down until the free roll's form ends near the foot of the screen: its
 * Throw button clear of the tray, which stays at the top. */
const scrollAboveThrow = (page) => page.evaluate(() => {
  const form = document.getElementById('free-roll').getBoundingClientRect();
  window.scrollTo(0, Math.max(0, window.scrollY + form.bottom - (window.innerHeight - 24)));
});

const tray = (page) => page.frames().find((f) => f.url().includes('/watch'));
/** Waits until entry `seq` has been told on the page. */
const told = (page, seq) => page.waitForFunction((n) => window.seat.told[n], seq, WAIT);

/** What the page and its tray show of entry `seq` once told. */
async function shownOf(page, seq) {
  await told(page, seq);
  const seen = await page.evaluate((n) => ({
    entry: window.seat.entries.find((e) => e.seq === n),
    arrived: window.seat.arrived[n],
    told: window.seat.told[n],
    status: window.statusLog.filter((s) => s.text.startsWith('Pat: ') || s.text.startsWith('Gwen: '))
      .find((s) => s.t >= window.seat.told[n] - 1),
  }), seq);
  const frame = tray(page);
  await frame.waitForFunction((n) => window.overlay.shown?.roll === n, seq, WAIT);
  // The camera glides in, and the values stand over the dice.
  await frame.waitForFunction(() => window.overlay.labels.length > 0, null, WAIT);
  await page.waitForTimeout(1200);
  const tray2 = await frame.evaluate((n) => ({
    motions: window.overlay.motions.filter((m) => m.roll === n),
    labels: window.overlay.labels,
    card: (() => {
      const r = document.getElementById('card').getBoundingClientRect();
      return { l: r.left, t: r.top, r: r.right, b: r.bottom };
    })(),
    size: [innerWidth, innerHeight],
  }), seq);
  return { ...seen, ...tray2 };
}

try {
  // The game master opens the room and sits at it.
  const front = await open(context, 'front');
  await front.setViewportSize({ width: 1280, height: 800 });
  await front.goto(base);
  await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
  await check('front page', front);
  const { link, toTable } = await openRoom(front, base, 'heist', 'step-dice-vault');
  await check('front page, room opened', front);
  const gm = await open(context, 'gm');
  await gm.setViewportSize({ width: 1280, height: 800 });
  await joinAs(gm, toTable, { name: 'Gwen', passcode: 'gm-secret' });
  await gm.waitForFunction(() => window.seat.moves, null, WAIT);

  // Pat, on a phone: the join form lists the free characters once the passcode is given.
  const phone = await context.phone();
  const pat = await open(phone, 'pat');
  const wire = await wireBytes(pat);
  await pat.goto(link);
  await check('room page, join form', pat);
  await pat.getByRole('textbox', { name: 'Name' }).fill('Pat');
  await pat.getByLabel('Passcode', { exact: true }).fill('friends');
  await pat.getByLabel('Passcode', { exact: true }).blur();
  await pat.waitForFunction(() => window.seat.cast, null, WAIT);
  const listed = await pat.getByRole('group', { name: 'Characters you play' }).getByRole('checkbox').evaluateAll(
    (boxes) => boxes.map((b) => ({ name: b.labels[0].textContent.trim(), free: !b.disabled })),
  );
  await check('room page, characters listed', pat);
  await pat.getByRole('checkbox', { name: 'Ana' }).check();
  await pat.getByRole('checkbox', { name: 'Bo' }).check();
  await pat.getByRole('button', { name: 'Join' }).click();
  await pat.waitForFunction(() => window.seat.joined && window.seat.moves, null, WAIT);
  await pat.waitForFunction(() => {
    const o = document.getElementById('tray').contentWindow?.overlay;
    return o?.greeted && o.quality;
  }, null, WAIT);
  const firstLoad = { bytes: wire.bytes(), files: wire.files() };
  const afterJoin = await pat.evaluate(() => {
    const t = document.getElementById('table').getBoundingClientRect();
    const b = document.getElementById('make-move').getBoundingClientRect();
    return { scrollY: window.scrollY, tray: [t.top, t.bottom], makeMove: [b.top, b.bottom], height: innerHeight };
  });
  await check('room page, joined on a phone', pat);

  // Sam watches from a desktop.
  const sam = await open(context, 'sam');
  await sam.setViewportSize({ width: 1920, height: 1080 });
  await joinAs(sam, link, { name: 'Sam', role: 'a spectator', passcode: 'friends' });
  await check('room page, a spectator', sam);

  // The first Space after joining throws the move on screen (Ana's turn: Pat plays her).
  const head = await pat.evaluate(() => window.seat.seq);
  const onScreen = await pat.evaluate(() => ({
    draft: window.seat.moves.draft,
    shown: document.getElementById('move-kind').selectedOptions[0].textContent,
  }));
  await pat.getByRole('button', { name: /^Throw the move/ }).focus();
  let before = await answered(pat);
  await pat.keyboard.press('Space');
  await waitAnswer(pat, before);
  const spaceThrow = await shownOf(pat, head + 1);
  const scrolledTo = 400;
  await check('room page, after a throw', pat);

  // A tap on the tray, then a vertical swipe: nothing thrown; the swipe scrolls the page.
  const hand = await pat.locator('#hand').boundingBox();
  const mid = [hand.x + hand.width / 2, hand.y + hand.height / 2];
  const beforeGestures = await pat.evaluate(() => ({ seq: window.seat.seq, sent: window.seat.sent, taps: window.seat.misses.tap }));
  await pat.touchscreen.tap(mid[0], mid[1]);
  await pat.waitForFunction((n) => window.seat.misses.tap > n, beforeGestures.taps, WAIT);
  const scrollBeforeSwipe = await pat.evaluate(() => window.scrollY);
  await stroke(pat, line([mid[0], hand.y + hand.height * 0.85], [mid[0] + 4, hand.y + hand.height * 0.1], 12), 16, { touch: true });
  await pat.waitForFunction((y) => window.scrollY !== y, scrollBeforeSwipe, WAIT).catch(() => {});
  const swiped = await pat.evaluate(() => ({ seq: window.seat.seq, sent: window.seat.sent, scrollY: window.scrollY }));
  // A round-trip to the server: anything the tap or the swipe had sent would be answered first.
  await pat.evaluate(() => new Promise((ok) => {
    const n = window.seat.pongs;
    window.seat.ping();
    const look = () => (window.seat.pongs > n ? ok() : setTimeout(look, 20));
    look();
  }));
  const afterGestures = await pat.evaluate(() => ({ seq: window.seat.seq, sent: window.seat.sent, misses: window.seat.misses }));

  // The game master ends Ana's turn from the form: the form then offers another move.
  await gm.getByRole('combobox', { name: 'Move', exact: true }).selectOption({ label: 'End turn' });
  await gm.waitForFunction(() => window.seat.moves?.kinds[window.seat.moves.kind]?.label === 'End turn' && !window.seat.moves.refused, null, WAIT);
  before = await answered(gm);
  const endAt = await gm.evaluate(() => window.seat.seq);
  await gm.getByRole('button', { name: 'Make the move' }).click();
  await waitAnswer(gm, before);
  await told(gm, endAt + 1);
  await gm.waitForFunction((n) => window.seat.movesAt > window.seat.told[n], endAt + 1, WAIT);
  const gmAfterEnd = await gm.evaluate(() => window.seat.moves.kinds[window.seat.moves.kind]?.label);
  await check('room page, the game master', gm);

  // Bo's turn on Pat's phone: the page scrolled to the form; a flick throws the drafted move,
  // and the page stays where it is.
  await pat.waitForFunction(() => window.seat.moves && !window.seat.moves.refused, null, WAIT);
  await pat.evaluate((y) => window.scrollTo(0, y), scrolledTo);
  const scrollBefore = await pat.evaluate(() => window.scrollY);
  const flickDraft = await pat.evaluate(() => window.seat.moves.draft);
  const handNow = await pat.locator('#hand').boundingBox();
  before = await answered(pat);
  const flickAt = await pat.evaluate(() => window.seat.seq);
  // Every scroll away from where the page is (the scroll event of scrollTo itself may still
  // come, at the position it set).
  await pat.evaluate((y) => {
    window.scrolls = [];
    window.addEventListener('scroll', () => { if (window.scrollY !== y) window.scrolls.push(window.scrollY); });
  }, scrollBefore);
  await stroke(pat, line(
    [handNow.x + handNow.width * 0.2, handNow.y + handNow.height * 0.6],
    [handNow.x + handNow.width * 0.8, handNow.y + handNow.height * 0.45], 8,
  ), 12, { touch: true });
  await waitAnswer(pat, before);
  const flickThrow = await shownOf(pat, flickAt + 1);
  const flick = await pat.evaluate(() => ({ swing: window.seat.lastSwing, scrollY: window.scrollY, scrolls: window.scrolls }));

  // A free roll of four dice on the phone: the values over the dice, the pictures.
  await freeRoll(pat);
  await pat.getByRole('textbox', { name: 'Notation' }).fill('1d20+1d10+1d6+1d4');
  // The exact odds shown (the form's height is final), then the page scrolled down with the
  // Throw button clear of the tray, which stays at the top: a click on a control under it would
  // make Playwright scroll the page itself before clicking.
  await pat.waitForFunction(() => {
    const text = document.getElementById('odds-text').textContent;
    return text !== '' && !text.startsWith('≈') && !text.startsWith('Working');
  }, null, WAIT);
  await check('room page, a free roll drafted', pat);
  await scrollAboveThrow(pat);
  const scrollBeforeRoll = await pat.evaluate(() => window.scrollY);
  // Every change of the page's height from here to the roll's outcome, with what changed (for
  // the failure message when the page jumps).
  await pat.evaluate(() => {
    window.heights = [];
    const t0 = performance.now();
    const parts = [...document.querySelectorAll('#table, #panel > *, #play > *')];
    const seen = new Map();
    new ResizeObserver((changes) => {
      for (const c of changes) {
        const h = Math.round(c.contentRect.height);
        const id = c.target.id || c.target.tagName;
        if (seen.get(id) === h) continue;
        const was = seen.get(id);
        seen.set(id, h);
        if (was === undefined) continue;
        window.heights.push({ ms: Math.round(performance.now() - t0), id, from: was, to: h,
          page: document.scrollingElement.scrollHeight, scrollY: window.scrollY });
      }
    }).observe(document.body);
    for (const p of parts) new ResizeObserver((changes) => {
      for (const c of changes) {
        const h = Math.round(c.contentRect.height);
        const id = c.target.id || c.target.tagName;
        const was = seen.get(id);
        seen.set(id, h);
        if (was === undefined || was === h) continue;
        window.heights.push({ ms: Math.round(performance.now() - t0), id, from: was, to: h,
          page: document.scrollingElement.scrollHeight, scrollY: window.scrollY });
      }
    }).observe(p);
  });
  before = await answered(pat);
  const rollAt = await pat.evaluate(() => window.seat.seq);
  // The button pressed where it is, as a finger presses it: Playwright's own click scrolls the
  // page when its hit test finds the button covered for a moment (in CI it brought the
  // button's foot to the screen's, 33 px up, and this check read that as the throw's doing).
  await pat.getByRole('button', { name: 'Throw', exact: true }).evaluate((b) => b.click());
  await waitAnswer(pat, before);
  const fourDice = await shownOf(pat, rollAt + 1);
  const scrollAfterRoll = await pat.evaluate(() => window.scrollY);
  const rollHeights = await pat.evaluate(() => window.heights);
  await pat.evaluate(() => window.scrollTo(0, 0));
  await pat.waitForTimeout(300);
  await pat.screenshot({ path: join(out, 'room-phone-four-dice.png') });
  await shownOf(sam, rollAt + 1);
  await sam.screenshot({ path: join(out, 'room-desktop-four-dice.png') });
  await check('room page, history', sam);

  // The phone right after a throw, scrolled to the form: the tray in view.
  await moveForm(pat);
  await freeRoll(pat);
  await scrollAboveThrow(pat);
  before = await answered(pat);
  const lastAt = await pat.evaluate(() => window.seat.seq);
  await pat.getByRole('button', { name: 'Throw', exact: true }).click();
  await waitAnswer(pat, before);
  await shownOf(pat, lastAt + 1);
  await pat.screenshot({ path: join(out, 'room-phone-after-throw.png') });

  // Every message the pages sent and got over their rooms' sockets, against the schemas.
  const protocol = await context.checkProtocol();
  console.log(JSON.stringify({
    protocol,
    listed,
    firstLoad,
    afterJoin,
    onScreen,
    spaceThrow,
    head,
    gestures: { before: beforeGestures, swiped, afterGestures, scrollBeforeSwipe },
    gmAfterEnd,
    flickDraft,
    flickThrow,
    flick,
    scrollBefore,
    scrollBeforeRoll,
    scrollAfterRoll,
    rollHeights,
    fourDice,
    violations,
    errors,
  }));
} finally {
  await context.close();
}
