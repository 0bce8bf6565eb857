// Large pools read at a glance, run by tests/dicetable/seat.rs:
//   node web/tests/pools.mjs BASE_URL OUT_DIR
// On the table server at BASE_URL, in headless chromium: a step-dice room, its OBS page at
// 1920 x 1080 with its scale set (`size=1.5&table=0.5&scale=1.5`), and a player on a phone (375 x 667) who throws
// 8d10, 20d6 and 7d4. For each pool, on the phone's tray and on the OBS page once the camera
// has come to rest: every value's box as the page laid it out (getBoundingClientRect), every
// die's disc on screen, the values listed in the card instead (a pool too crowded to label), and
// the card's words, its box and its smallest type; a screenshot of each. Prints one JSON line.
import { launch, axe } from './browser.mjs';
import { WAIT, openRoom, joinAs, throwNotation } from './room-page.mjs';
import { join } from 'node:path';

const [base, out] = process.argv.slice(2);
const context = await launch();
const errors = [];
const POOLS = ['8d10', '20d6', '7d4'];

async function open(ctx, name, size) {
  const page = await ctx.newPage();
  await page.setViewportSize(size);
  page.on('pageerror', (e) => errors.push(`${name}: ${e}`));
  return page;
}

/** What a tray shows of roll `seq` once its camera is at rest. */
async function layout(frame, seq) {
  await frame.waitForFunction((n) => window.overlay.shown?.roll === n, seq, WAIT);
  await frame.waitForFunction(
    () => window.overlay.labels.length > 0 || window.overlay.listed.length > 0, null, WAIT,
  );
  // The camera glides in; the layout follows it, and is read once the view has stopped.
  let last = null;
  for (let i = 0; i < 40; i += 1) {
    const now = await frame.evaluate(() => JSON.stringify(window.overlay.drawn) + window.overlay.rendered);
    if (now === last) break;
    last = now;
    await frame.waitForTimeout(300);
  }
  return frame.evaluate(() => ({
    boxes: [...document.querySelectorAll('#values span')].filter((s) => !s.hidden).map((s) => {
      const r = s.getBoundingClientRect();
      return { text: s.textContent, x: r.left, y: r.top, w: r.width, h: r.height, font: parseFloat(s.style.fontSize) };
    }),
    discs: window.overlay.labels.map((l) => ({ x: l.die[0], y: l.die[1], r: l.r })),
    // Every die drawn (labelled or listed), and the card as laid out with its smallest type.
    dice: window.overlay.discs,
    card: (() => {
      const c = document.getElementById('card');
      const r = c.getBoundingClientRect();
      const fonts = [...c.querySelectorAll('*')].filter((el) => el.childNodes.length
        && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
        .map((el) => parseFloat(getComputedStyle(el).fontSize));
      return { x: r.left, y: r.top, w: r.width, h: r.height, least_font: Math.min(...fonts) };
    })(),
    listed: window.overlay.listed,
    result: document.getElementById('result').textContent,
    size: [innerWidth, innerHeight],
  }));
}

try {
  const front = await context.newPage();
  const { link } = await openRoom(front, base, 'pools', 'step-dice-vault');
  await front.close();
  const obs = await open(await context.another(), 'obs', { width: 1920, height: 1080 });
  await obs.goto(new URL('pools/watch#passcode=friends&size=1.5&table=0.5&scale=1.5', base).href);
  await obs.waitForFunction(() => window.overlay?.greeted, null, WAIT);
  const phone = await open(await context.phone(), 'phone', { width: 375, height: 667 });
  await joinAs(phone, link, { name: 'Pat', passcode: 'friends', seats: ['Bo'] });
  // The tray (the room's watch page in a frame) comes once the member is at the table.
  await phone.waitForFunction(() => document.querySelector('iframe')?.src.includes('/watch'), null, WAIT);
  let tray = null;
  while (!(tray = phone.frames().find((f) => f.url().includes('/watch')))) await phone.waitForTimeout(100);
  await tray.waitForFunction(() => window.overlay?.greeted, null, WAIT);

  // The hint on how to throw, shown a moment after joining, has gone.
  await phone.waitForFunction(() => document.getElementById('tray-hint').hidden, null, WAIT);
  const pools = [];
  for (const notation of POOLS) {
    await throwNotation(phone, notation);
    const seq = await phone.evaluate(() => window.seat.acked);
    const entry = await phone.waitForFunction(
      (n) => window.seat.entries.find((e) => e.seq === n), seq, WAIT,
    ).then((h) => h.jsonValue());
    const onPhone = await layout(tray, seq);
    await phone.screenshot({ path: join(out, `pool-phone-${notation}.png`) });
    const onObs = await layout(obs.mainFrame(), seq);
    await obs.screenshot({ path: join(out, `pool-obs-${notation}.png`) });
    pools.push({ notation, seq, record: entry.event.record, phone: onPhone, obs: onObs });
  }
  // axe-core on the OBS page (its heading included) and on the phone's page with its tray.
  const violations = { obs: await axe(obs), phone: await axe(phone) };
  await context.close();
  console.log(JSON.stringify({ pools, errors, violations }));
} catch (err) {
  console.error(err);
  await context.close().catch(() => {});
  process.exit(1);
}
