// The hosted table's browser half, run by tests/dicetable/hosting.rs:
//   node web/tests/hosted.mjs BASE_URL SPKI
// BASE_URL is https://…: a `dicetable serve` with TLS, started from a folder that has only the
// binary. Chromium is told to trust exactly the server's key (SPKI: the base64 SHA-256 of its
// public key) and nothing else. Gwen opens a room from the front page (which shows the key
// that signs the server's exports); Pat joins from its link over wss:// and throws 1d6 from
// the free-roll form; his tray draws the dice with three.js served by the binary itself. An OBS overlay page of the room stays open while a silent TLS
// connection is closed by the server's idle timeout, and keeps its socket. Prints one JSON line.
import { launch } from './browser.mjs';
import { openRoom, joinAs, throwNotation, WAIT } from './room-page.mjs';
import tls from 'node:tls';

const [base, spki] = process.argv.slice(2);
const context = await launch([`--ignore-certificate-errors-spki-list=${spki}`]);
const errors = [];

/** Opens a TLS connection to the server that then says nothing: when the server closes it. */
function silentConnection() {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = tls.connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false });
    // The limit's timer goes once the socket closes: a pending timer would keep node alive.
    const limit = setTimeout(() => reject(new Error('a silent connection was kept for 60 s')), 60000);
    socket.on('secureConnect', () => {});
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(limit);
      resolve(Date.now() - started);
    });
  });
}

try {
  const front = await context.newPage();
  front.on('pageerror', (e) => errors.push(`front: ${e}`));
  const { link } = await openRoom(front, base, `hosted${Date.now() % 100000}`, 'd20-check-crypt');
  // The key that signs the server's exports, as its front page shows it.
  const frontKey = await front.getByRole('contentinfo').locator('code').first().textContent();

  const pat = await (await context.another()).newPage();
  pat.on('pageerror', (e) => errors.push(`pat: ${e}`));
  const sockets = [];
  const three = [];
  pat.on('websocket', (ws) => sockets.push(ws.url()));
  pat.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/three/')) three.push({ url: r.url(), status: r.status() });
  });
  await joinAs(pat, link, { name: 'Pat', passcode: 'friends', seats: ['Ash'] });
  await pat.waitForFunction(() => window.seat?.connected, null, WAIT);
  // Pat's tray is up before he throws: a tray that connects after the dice landed has nothing
  // left to animate (the page still tells the outcome, from the tray's `hello`).
  await pat.waitForFunction(() => document.getElementById('tray').contentWindow?.overlay?.greeted, null, WAIT);
  await throwNotation(pat, '1d6');
  const tray = pat.frames().find((f) => f.url().includes('/watch'));
  await tray.waitForFunction(() => window.overlay.played > 0 && window.overlay.labels.length > 0, null, WAIT);
  const drawn = await tray.evaluate(() => ({
    played: window.overlay.played,
    rendered: window.overlay.rendered,
    values: window.overlay.labels.map((l) => l.text),
    error: window.overlay.error,
  }));
  const said = await pat.evaluate(() => ({
    secure: window.isSecureContext,
    subtle: Boolean(window.crypto?.subtle),
    status: document.querySelector('[role="status"]')?.textContent ?? '',
  }));

  // The OBS overlay of the room, open past the idle timeout: it answers the server's pings.
  const obs = await (await context.another()).newPage();
  obs.on('pageerror', (e) => errors.push(`overlay: ${e}`));
  let overlayClosed = 0;
  obs.on('websocket', (ws) => ws.on('close', () => { overlayClosed += 1; }));
  await obs.goto(`${link}/watch#passcode=friends`);
  await obs.waitForFunction(() => window.overlay?.connected, null, WAIT);
  const silentClosedAfterMs = await silentConnection();
  const overlayConnected = await obs.evaluate(() => window.overlay.connected);

  console.log(JSON.stringify({
    errors,
    front_key: frontKey,
    sockets,
    three,
    drawn,
    ...said,
    silent_closed_after_ms: silentClosedAfterMs,
    overlay_closed: overlayClosed,
    overlay_connected: overlayConnected,
  }));
} finally {
  await context.close();
}
