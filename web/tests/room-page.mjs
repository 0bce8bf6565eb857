// What the room page's browser tests do on a page, found by role and accessible name: open a
// room from the front page, join from its link (the characters ticked in the join form's list),
// show the form the tray throws from, throw a notation, and flick the tray with a finger or a
// mouse through the browser's own input (each event at a time of the test's choosing, so a busy
// machine cannot change the flick's speed).

export const WAIT = { timeout: 120000 };

/** Opens `room` with `scene` from the front page (Gwen, passcodes friends and gm-secret): the
 * players' link and the game master's. */
export async function openRoom(front, base, room, scene) {
  await front.goto(base);
  await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
  await front.getByRole('textbox', { name: 'Room' }).fill(room);
  await front.getByRole('combobox', { name: 'Scene' }).selectOption(scene);
  await front.getByRole('textbox', { name: 'Name' }).fill('Gwen');
  await front.getByRole('textbox', { name: 'Passcode', exact: true }).fill('friends');
  await front.getByLabel("Game master's passcode").fill('gm-secret');
  await front.getByRole('button', { name: 'Open the room' }).click();
  await front.waitForFunction(() => window.front.opened, null, WAIT);
  const link = await front.getByRole('link', { name: new RegExp(`/${room}$`) }).getAttribute('href');
  const toTable = await front.getByRole('link', { name: 'Go to the table as the game master' }).getAttribute('href');
  return { link, toTable };
}

/** Joins from `link`: `seats` are the characters ticked in the join form's list. */
export async function joinAs(page, link, { name, role, passcode, seats = [] }) {
  await page.goto(link);
  if (role) await page.getByRole('radio', { name: role }).check();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByLabel('Passcode', { exact: true }).fill(passcode);
  if (seats.length) {
    // The list comes once the passcode is given.
    await page.getByLabel('Passcode', { exact: true }).blur();
    await page.waitForFunction(() => window.seat.cast, null, WAIT);
    for (const s of seats) await page.getByRole('checkbox', { name: s, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Join' }).click();
  // Welcomed (the status says "You are at the table"), and its tray (the room's watch page in
  // a frame, opened on the welcome) loaded: `page.frames()` holds it from then on.
  await page.waitForFunction(() => window.seat.joined, null, WAIT);
  const tray = await (await page.waitForSelector('#tray', { state: 'attached' })).contentFrame();
  await tray.waitForURL(/\/watch/, WAIT);
}

/** Waits until the page's tray is followed by its room's feed: a throw made before would
 * reach the tray only as history, never on its card. */
export const trayGreeted = (page) => page.waitForFunction(
  () => document.getElementById('tray')?.contentWindow?.overlay?.greeted, null, WAIT,
);

/** A phone's page (375 x 667, touch) of `context`, its script errors kept in `errors`
 * under `name`. */
export async function phonePage(context, errors, name) {
  const page = await (await context.phone()).newPage();
  page.on('pageerror', (e) => errors.push(`${name}: ${e}`));
  await page.setViewportSize({ width: 375, height: 667 });
  return page;
}

/** The page's newest history line once entry `seq` is told, and whether it offers a Reveal
 * button. */
export const newestLine = (page, seq) => page.waitForFunction((n) => window.seat.told[n], seq, WAIT)
  .then(() => page.evaluate(() => {
    const li = document.querySelector('#history li');
    return { text: li?.textContent ?? '', reveal: Boolean(li?.querySelector('button')) };
  }));

/** Shows the free-roll form: the tray throws the notation from now on. */
export const freeRoll = (page) => page.getByRole('radio', { name: 'A free roll' }).check();
/** Shows the move form: the tray throws the drafted move from now on. */
export const moveForm = (page) => page.getByRole('radio', { name: 'A move' }).check();

/** Throws and answers counted so far (a throw is answered by an ack or a refusal). */
export const answered = (page) => page.evaluate(() => window.seat.acks + window.seat.refused.length);
/** Waits for the next answer after `before`. */
export const waitAnswer = (page, before) => page.waitForFunction(
  (n) => window.seat.acks + window.seat.refused.length > n, before, WAIT,
);

/** Writes `notation` in the free-roll form and throws it: Enter, or the Throw button. */
export async function throwNotation(page, notation, how = 'click') {
  await freeRoll(page);
  const before = await answered(page);
  await page.getByRole('textbox', { name: 'Notation' }).fill(notation);
  if (how === 'enter') await page.getByRole('textbox', { name: 'Notation' }).press('Enter');
  else await page.getByRole('button', { name: 'Throw', exact: true }).click();
  await waitAnswer(page, before);
}

/** `n` + 1 points from `from` to `to`, evenly apart. */
export const line = (from, to, n) => Array.from({ length: n + 1 }, (_, i) => [
  from[0] + ((to[0] - from[0]) * i) / n, from[1] + ((to[1] - from[1]) * i) / n,
]);

/** Moves a finger (`touch`) or the mouse along `points` (page pixels), `ms` apart, pressing at
 * the first and letting go at the last, through the browser's own input events. */
export async function stroke(page, points, ms, { touch }) {
  const cdp = await page.context().newCDPSession(page);
  const t0 = Date.now() / 1000;
  const at = (i) => t0 + (i * ms) / 1000;
  const last = points.length - 1;
  for (let i = 0; i <= last; i += 1) {
    const [x, y] = points[i];
    if (touch) {
      const type = i === 0 ? 'touchStart' : 'touchMove';
      await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: [{ x, y }], timestamp: at(i) });
    } else {
      const type = i === 0 ? 'mousePressed' : 'mouseMoved';
      if (i === 0) await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, timestamp: at(0) });
      await cdp.send('Input.dispatchMouseEvent', {
        type, x, y, button: 'left', buttons: 1, clickCount: i === 0 ? 1 : 0, timestamp: at(i),
      });
    }
  }
  const [x, y] = points[last];
  if (touch) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: at(last) });
  } else {
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1, timestamp: at(last),
    });
  }
  await cdp.detach();
}

/** Picks dice in the page's "Your dice" form (found by role and accessible name) and waits for
 * the room's answer: `whose` a character's (null: the member's own). */
export async function pickDice(page, { whose = null, body, ink, material, typeface = null }) {
  const form = page.getByRole('form', { name: 'Your dice' });
  if (!(await form.isVisible())) await page.getByText('Your dice', { exact: true }).click();
  if (whose) await page.getByRole('combobox', { name: 'Whose dice' }).selectOption({ label: whose });
  await page.getByLabel('Colour', { exact: true }).fill(body);
  await page.getByLabel('Numerals', { exact: true }).fill(ink);
  await page.getByRole('combobox', { name: 'Material' }).selectOption(material);
  if (typeface) await page.getByRole('combobox', { name: "Numerals' typeface" }).selectOption(typeface);
  const before = await answered(page);
  await page.getByRole('button', { name: 'Use these dice' }).click();
  await waitAnswer(page, before);
}

/** Makes the move the page's move form offers (its defaults) and waits for the room's answer:
 * the `seq` it was logged at. */
export async function makeMove(page) {
  await moveForm(page);
  await page.waitForFunction(() => window.seat.moves && !window.seat.moves.refused, null, WAIT);
  const before = await answered(page);
  await page.getByRole('button', { name: 'Make the move' }).click();
  await waitAnswer(page, before);
  return page.evaluate(() => window.seat.acked);
}

/** The tray of a room page: its watch page's frame. */
export const trayOf = (page) => page.frames().find((f) => f.url().includes('/watch'));

/** Pat on a phone in a new d20-check room `room`, seated as Ash, the tray greeted: where the
 * galleries of dice throw from. */
export async function patOnAPhone(context, errors, base, room) {
  const front = await context.newPage();
  const { link } = await openRoom(front, base, room, 'd20-check-crypt');
  await front.close();
  const pat = await phonePage(context, errors, 'pat');
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  await trayGreeted(pat);
  return pat;
}

/** Waits until the page's tray shows its member's last throw at rest, every die numbered, and
 * the page is scrolled to the top for a picture of the tray: the tray's frame. */
export async function trayAtRest(page) {
  const seq = await page.evaluate(() => window.seat.acked);
  const tray = trayOf(page);
  await tray.waitForFunction((n) => window.overlay.shown?.roll === n
    && window.overlay.dice().length > 0 && window.overlay.dice().every((d) => d.numbered),
  seq, WAIT);
  await page.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
  await page.evaluate(() => window.scrollTo(0, 0));
  return tray;
}
