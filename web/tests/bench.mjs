// The stream benchmark's browser half, run by scripts/stream-bench.sh:
//   node web/tests/bench.mjs BASE_URL ROLLS
// Opens the overlay in headless chromium and measures (1) the latency from "all dice settled"
// in the table to the result drawn in the page, over ROLLS rolls of 2d6 (median and p99), and
// (2) the feed's bytes for one roll of 1, 10 and 100 dice. Prints one JSON line.
import { launch, post } from './browser.mjs';

const [base, rollsText] = process.argv.slice(2);
const rolls = Number(rollsText ?? 100);
const context = await launch();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
try {
  const page = await context.newPage();
  await page.goto(new URL('/overlay?history=5', base).href);
  await page.waitForFunction(() => window.overlay && window.overlay.connected, null, { timeout: 60000 });
  const roll = async (notation, seed) => {
    const before = await page.evaluate(() => ({ bytes: window.overlay.bytes, events: window.overlay.events }));
    const r = await post(base, '/api/roll', { notation, seed });
    if (r.status !== 200) throw new Error(`${notation}: ${r.status} ${JSON.stringify(r.body)}`);
    await page.waitForFunction((code) => window.overlay.shown && window.overlay.shown.code === code, r.body.code, { timeout: 300000 });
    const after = await page.evaluate(() => ({ bytes: window.overlay.bytes, events: window.overlay.events }));
    return { bytes: after.bytes - before.bytes, events: after.events - before.events };
  };
  const bytes = {};
  for (const n of [1, 10, 100]) {
    bytes[`${n}d6`] = await roll(`${n}d6`, 1000 + n);
  }
  const start = await page.evaluate(() => window.overlay.latencies.length);
  for (let i = 0; i < rolls; i += 1) {
    await roll('2d6', 2000 + i);
  }
  const latencies = (await page.evaluate(() => window.overlay.latencies)).slice(start);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(JSON.stringify({
    rolls: latencies.length,
    latency_ms: { median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), min: sorted[0], max: sorted.at(-1) },
    feed_bytes_per_roll: bytes,
  }));
} finally {
  await context.close();
}
