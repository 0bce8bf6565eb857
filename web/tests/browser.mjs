// Starts Debian's chromium headless through playwright-core, the way every browser test here
// does: no network beyond this machine, WebGL on SwiftShader, a fresh profile. Also: a phone's
// context (375 x 667, touch), axe-core run in a page and its frames, and the bytes a page
// loads as the browser's own network events count them.
import { chromium, request } from 'playwright-core';
import Ajv2020 from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The browser's first context (1280 x 720, a mouse); `context.phone()` opens a phone's and
 * `context.another()` another desktop's (a window of its own: headless chromium pauses the
 * animation frames of a window's background tabs). */
export async function launch(extraArgs = []) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      ...extraArgs,
    ],
  });
  // Whatever a page's Content-Security-Policy refuses, in any frame of any window: the pages
  // must need nothing it forbids, so closing the browser fails the test when it refused any.
  const refused = [];
  // Every message of a room's WebSocket (`ws://HOST/ROOM`), each way, as the page sent or got
  // it: checked against the protocol's published schema when the browser closes.
  const frames = [];
  const record = (page) => page.on('websocket', (ws) => {
    const url = new URL(ws.url());
    if (url.pathname.split('/').filter(Boolean).length !== 1) return;
    ws.on('framesent', (f) => frames.push({ url, side: 'client', payload: f.payload }));
    ws.on('framereceived', (f) => frames.push({ url, side: 'server', payload: f.payload }));
  });
  const watched = async (options) => {
    const ctx = await browser.newContext(options);
    ctx.on('page', record);
    await ctx.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP refused: ${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    ctx.on('console', (msg) => {
      if (msg.text().startsWith('CSP refused:')) refused.push(`${msg.location().url}: ${msg.text()}`);
    });
    return ctx;
  };
  const context = await watched({ viewport: { width: 1280, height: 720 } });
  /** Checks every room message so far against the schemas the server publishes
   * (`/protocol/client.schema.json`, `/protocol/server.schema.json`): how many of each side
   * were checked, and what did not fit. */
  context.checkProtocol = async () => {
    const checked = { client: 0, server: 0, errors: [] };
    const validators = new Map();
    const validator = async (url, side) => {
      const key = `${url.host} ${side}`;
      if (!validators.has(key)) {
        const http = new URL(`/protocol/${side}.schema.json`, url);
        http.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
        // The tests' servers on loopback may serve a test certificate.
        const asker = await request.newContext({ ignoreHTTPSErrors: true });
        const schema = await (await asker.get(http.href)).json();
        await asker.dispose();
        const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
        validators.set(key, ajv.compile(schema));
      }
      return validators.get(key);
    };
    for (const f of frames.splice(0)) {
      const valid = await validator(f.url, f.side);
      let message;
      try {
        message = JSON.parse(f.payload);
      } catch {
        checked.errors.push(`${f.side}: not JSON: ${f.payload}`);
        continue;
      }
      checked[f.side] += 1;
      if (!valid(message)) {
        const why = valid.errors.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`).join('; ');
        checked.errors.push(`${f.side} ${message.type}: ${why}: ${f.payload.slice(0, 300)}`);
      }
    }
    return checked;
  };
  const close = context.close.bind(context);
  context.close = async () => {
    // Whatever the test did not check itself is checked now.
    const left = await context.checkProtocol().catch((e) => ({ errors: [`${e}`] }));
    await close().catch(() => {});
    await browser.close();
    if (refused.length > 0) {
      throw new Error(`the pages' Content-Security-Policy refused:\n${refused.join('\n')}`);
    }
    if (left.errors.length > 0) {
      throw new Error(`room messages that do not fit the protocol's schema:\n${left.errors.join('\n')}`);
    }
  };
  /** What the pages' policy refused so far. */
  context.refused = refused;
  /** Another desktop, 1280 x 720, in a window of its own. */
  context.another = () => watched({ viewport: { width: 1280, height: 720 } });
  /** A phone: 375 x 667 CSS pixels at a device pixel ratio of 2, touch, no mouse. */
  context.phone = () => watched({
    viewport: { width: 375, height: 667 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  return context;
}

// POSTs JSON to the table and returns the parsed answer and its status.
export async function post(base, path, body) {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations in `page` and its same-origin frames (WCAG 2 A and AA, and best
 * practice): `[{ id, impact, help, targets }]`, empty when there are none.
 */
export async function axe(page) {
  for (const frame of page.frames()) {
    try {
      const has = await frame.evaluate(() => typeof window.axe !== 'undefined');
      // Evaluated by the browser's own devtools protocol, as a test's tool: a script tag
      // would be (rightly) refused by the page's Content-Security-Policy.
      if (!has) await frame.evaluate(`${AXE}\n;0`);
    } catch {
      // A frame that is gone or not ours.
    }
  }
  const result = await page.evaluate(async () => window.axe.run(document, {
    resultTypes: ['violations'],
    iframes: true,
  }));
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
  }));
}

/**
 * Counts the bytes `page` receives over the wire (bodies as sent, compressed, and headers), by
 * the browser's own network events (`Network.loadingFinished`'s encodedDataLength), with each
 * file's share: `{ bytes(), files(), reset() }`.
 */
export async function wireBytes(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  let files = {};
  let total = 0;
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => {
    total += e.encodedDataLength;
    const url = urls.get(e.requestId) ?? '?';
    const name = url.startsWith('data:') ? 'data:' : new URL(url).pathname;
    files[name] = (files[name] ?? 0) + e.encodedDataLength;
  });
  return {
    bytes: () => total,
    files: () => ({ ...files }),
    reset: () => { total = 0; files = {}; },
  };
}
