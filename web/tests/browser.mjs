// Starts Debian's chromium headless through playwright-core, the way every browser test here
// does: no network beyond this machine, WebGL on SwiftShader, a fresh profile. Also: a phone's
// context (375 x 667, touch), axe-core run in a page and its frames, and the bytes a page
// loads as the browser's own network events count them.
import { chromium } from 'playwright-core';
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
  const watched = async (options) => {
    const ctx = await browser.newContext(options);
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
  const close = context.close.bind(context);
  context.close = async () => {
    await close().catch(() => {});
    await browser.close();
    if (refused.length > 0) {
      throw new Error(`the pages' Content-Security-Policy refused:\n${refused.join('\n')}`);
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
