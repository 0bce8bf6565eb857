// How fast a throw reaches the other players' pages, run by scripts/room-page-bench.sh:
//   node web/tests/seat-bench.mjs BASE_URL THROWS
// Opens a room from the front page; Pat and Sam join from its link in headless chromium. Pat
// throws 1d6 THROWS times (the Throw button); for each, the time from Pat's click to the first
// frame in which Sam's tray moves the dice, waiting for Sam's page to finish playing before the
// next throw. Also the bytes a page loads the first time over the wire (the room's page, joined,
// its tray ready), as the browser's network events count them. Prints one JSON line.
import { launch, wireBytes } from './browser.mjs';
import { joinAs, freeRoll } from './room-page.mjs';

const [base, throwsArg] = process.argv.slice(2);
const THROWS = Number(throwsArg || 100);
const WAIT = { timeout: 120000 };
const context = await launch();

async function join(page, link, name, seats) {
  await joinAs(page, link, { name, passcode: 'friends', seats: [seats] });
  await page.waitForFunction(() => window.seat?.connected, null, WAIT);
}

const tray = (page) => page.frames().find((f) => f.url().includes('/watch'));

try {
  const room = `bench${Date.now() % 100000}`;
  const front = await context.newPage();
  await front.goto(base);
  await front.waitForFunction(() => window.front && window.front.scenes > 0, null, WAIT);
  await front.getByRole('textbox', { name: 'Room' }).fill(room);
  await front.getByRole('combobox', { name: 'Scene' }).selectOption('d20-check-crypt');
  await front.getByRole('textbox', { name: 'Name' }).fill('Gwen');
  await front.getByRole('textbox', { name: 'Passcode', exact: true }).fill('friends');
  await front.getByLabel("Game master's passcode").fill('gm-secret');
  await front.getByRole('button', { name: 'Open the room' }).click();
  await front.waitForFunction(() => window.front.opened, null, WAIT);
  const link = new URL(`/${room}`, base).href;

  // Sam's page, loaded fresh in a window of its own (nothing cached from the front page): every
  // byte it takes over the wire until its tray is ready.
  const sam = await (await context.another()).newPage();
  const wire = await wireBytes(sam);
  await join(sam, link, 'Sam', 'Bea');
  await sam.waitForFunction(() => {
    const f = document.getElementById('tray');
    return f?.contentWindow?.overlay?.connected && f.contentWindow.overlay.quality;
  }, null, WAIT);
  const bytes = wire.bytes();
  const files = wire.files();
  // Pat in a window of its own, so that Sam's page stays in front and draws every frame.
  const pat = await (await context.another()).newPage();
  await join(pat, link, 'Pat', 'Ash');
  await freeRoll(pat);
  await pat.getByRole('textbox', { name: 'Notation' }).fill('1d6');

  const latencies = [];
  for (let i = 0; i < THROWS; i += 1) {
    const frame = tray(sam);
    const before = await frame.evaluate(() => ({ samples: window.overlay.samples, played: window.overlay.played }));
    // Sam's tray notes the moment its dice first move after this point, in the page itself so
    // that nothing is left waiting here if a step fails.
    await frame.evaluate((n) => {
      window.benchMovedAt = null;
      const look = () => {
        if (window.overlay.samples > n) window.benchMovedAt = performance.timeOrigin + performance.now();
        else requestAnimationFrame(look);
      };
      look();
    }, before.samples);
    const clicked = await pat.evaluate(() => {
      const t = performance.timeOrigin + performance.now();
      document.getElementById('throw').click();
      return t;
    });
    const moved = await frame.waitForFunction(() => window.benchMovedAt, null, WAIT);
    latencies.push((await moved.jsonValue()) - clicked);
    await frame.waitForFunction((n) => window.overlay.played > n, before.played, WAIT);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(JSON.stringify({
    throws: THROWS,
    p50_ms: Math.round(at(0.5)),
    p99_ms: Math.round(at(0.99)),
    max_ms: Math.round(sorted[sorted.length - 1]),
    first_load_bytes: bytes,
    files,
  }));
} finally {
  await context.close();
}
