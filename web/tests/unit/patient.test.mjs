// patient.js: a request answered `busy` is sent again after the wait the server names; other
// answers are kept as they are. Run by `node --test web/tests/unit/` (tests/dicetable/web.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { busyWait, namedWait, patientFetch, BUSY_WAIT_MS } from '../../patient.js';
import { fakeTimers } from './fake-timers.mjs';

/** An answer as fetch gives it: its status, JSON body and Retry-After header. */
function answer(status, body = null, retryAfter = null) {
  const response = {
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name) => (name === 'retry-after' ? retryAfter : null) },
    json: async () => {
      if (body === null) throw new Error('not JSON');
      return body;
    },
  };
  response.clone = () => response;
  return response;
}

const tick = () => new Promise((ok) => setImmediate(ok));

test('the wait: the body\'s retry_after_ms, else Retry-After, else a default for busy', () => {
  assert.equal(busyWait(429, { code: 'busy', retry_after_ms: 300 }, '1'), 300);
  assert.equal(busyWait(429, { code: 'busy' }, '2'), 2000);
  assert.equal(busyWait(429, { code: 'busy' }, null), BUSY_WAIT_MS);
  assert.equal(busyWait(429, null, null), BUSY_WAIT_MS);
  assert.equal(busyWait(503, { code: 'store_unavailable' }, '1'), 1000);
  assert.equal(busyWait(429, { code: 'busy', retry_after_ms: 3_600_000 }, null), 10_000);
  // Waiting does not mend these.
  assert.equal(busyWait(403, { code: 'wrong_passcode' }, null), null);
  assert.equal(busyWait(429, { code: 'backing_off', retry_after_ms: 4000 }, '4'), null);
  assert.equal(busyWait(503, null, null), null);
  assert.equal(busyWait(200, null, null), null);
});

test('the wait a socket\'s busy message names, bounded, else the default', () => {
  assert.equal(namedWait(200), 200);
  assert.equal(namedWait(undefined), BUSY_WAIT_MS);
  assert.equal(namedWait(-5), 0);
  assert.equal(namedWait(3_600_000), 10_000);
});

test('a busy answer is asked again after its wait; the first other answer is kept', async () => {
  const answers = [
    answer(429, { code: 'busy', retry_after_ms: 300 }, '1'),
    answer(429, { code: 'busy' }, '1'),
    answer(200),
  ];
  const asked = [];
  const waits = [];
  const timers = fakeTimers();
  const fetch = async (url, options) => {
    asked.push([url, options.method]);
    return answers.shift();
  };
  const done = patientFetch('/dice/atlas/d6', { method: 'GET' }, {
    fetch, timers, waiting: (ms) => waits.push(ms),
  });
  await tick();
  assert.deepEqual(waits, [300]);
  assert.equal(asked.length, 1);
  assert.equal(timers.fire(), 300);
  await tick();
  assert.deepEqual(waits, [300, 1000]);
  assert.equal(timers.fire(), 1000);
  const kept = await done;
  assert.equal(kept.status, 200);
  assert.deepEqual(asked, [['/dice/atlas/d6', 'GET'], ['/dice/atlas/d6', 'GET'], ['/dice/atlas/d6', 'GET']]);
});

test('a refusal that waiting cannot mend, or the last try, is returned at once', async () => {
  const timers = fakeTimers();
  const wrong = await patientFetch('/crypt/cast', {}, {
    fetch: async () => answer(403, { code: 'wrong_passcode' }), timers,
  });
  assert.equal(wrong.status, 403);
  assert.equal(timers.pending.size, 0);
  let tries = 0;
  const done = patientFetch('/dice/atlas/d6', {}, {
    tries: 2, timers, fetch: async () => { tries += 1; return answer(429, { code: 'busy', retry_after_ms: 5 }); },
  });
  for (let i = 0; i < 2; i += 1) {
    await tick();
    timers.fire();
  }
  const last = await done;
  assert.equal(last.status, 429);
  assert.equal(tries, 3);
});
