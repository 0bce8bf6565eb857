// The foreign-page test's browser half, run by tests/dicetable/security.rs:
//   node web/tests/foreign.mjs BASE_URL
// A page of another site (http://attacker.test, served by the browser itself) tries the
// window's server at BASE_URL (http://127.0.0.1:PORT) every way a page can without asking:
// a text/plain POST (no preflight), a JSON POST (preflight), the feed's WebSocket. Then the
// same site re-points its own name at 127.0.0.1 (DNS rebinding: rebind.test) and asks as a
// page of "the same origin". Prints one JSON line: what each attempt got.
import { launch } from './browser.mjs';

const [base] = process.argv.slice(2);
const port = new URL(base).port;
const context = await launch(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
try {
  await context.route('http://attacker.test/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>a page of another site</title>' }));
  const page = await context.newPage();
  await page.goto('http://attacker.test/');
  const foreign = await page.evaluate(async (base) => {
    const body = JSON.stringify({ notation: '1d20', who: 'Mallory', label: 'thrown by another site' });
    const outcome = async (promise) => {
      try {
        const r = await promise;
        return { type: r.type, status: r.status };
      } catch (e) {
        return { error: String(e) };
      }
    };
    const simple = await outcome(fetch(`${base}/api/roll`, {
      method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body,
    }));
    const preflighted = await outcome(fetch(`${base}/api/roll`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body,
    }));
    const feed = await new Promise((resolve) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/feed`);
      const seen = { opened: false, messages: 0 };
      ws.onopen = () => { seen.opened = true; };
      ws.onmessage = () => { seen.messages += 1; };
      ws.onclose = () => resolve(seen);
      ws.onerror = () => {};
      setTimeout(() => { ws.close(); resolve(seen); }, 5000);
    });
    return { simple, preflighted, feed };
  }, base);
  // The rebinding: the attacker's own name, now 127.0.0.1, so the page is "same-origin".
  const rebound = await context.newPage();
  const answer = await rebound.goto(`http://rebind.test:${port}/overlay`);
  const page_status = answer ? answer.status() : null;
  const page_code = answer ? (await answer.json().catch(() => ({}))).code ?? null : null;
  const api = await rebound.evaluate(async () => {
    try {
      const r = await fetch('/api/roll', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ notation: '1d20', who: 'Mallory' }),
      });
      return { status: r.status, code: (await r.json()).code };
    } catch (e) {
      return { error: String(e) };
    }
  });
  console.log(JSON.stringify({ foreign, rebound: { page_status, page_code, api } }));
} finally {
  await context.close();
}
