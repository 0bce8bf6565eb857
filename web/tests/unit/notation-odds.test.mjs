// notation-odds.js: a free roll's odds asked as the notation is written: an estimate first, the
// exact odds over it, a notice only when slow, an older text's answers dropped. Run by
// `node --test web/tests/unit/` (tests/dicetable/web.rs runs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotationOdds, SLOW_MS, TYPING_PAUSE_MS } from '../../notation-odds.js';
import { fakeTimers } from './fake-timers.mjs';

/** A server whose answers the test gives, one request at a time. */
function server() {
  const requests = [];
  const fetch = (url, { signal }) => new Promise((resolve, reject) => {
    const request = { url, signal };
    request.answer = (status, body) => resolve({
      ok: status === 200, json: async () => body,
    });
    signal.addEventListener('abort', () => reject(new Error('aborted')));
    requests.push(request);
  });
  return { requests, fetch };
}

function odds() {
  const shown = [];
  const show = {
    clear: () => shown.push('clear'),
    slow: (n) => shown.push(`slow ${n}`),
    estimate: (b) => shown.push(`estimate ${b.title}`),
    exact: (b) => shown.push(`exact ${b.title}`),
    failed: (r) => shown.push(`failed ${r}`),
  };
  const { requests, fetch } = server();
  const timers = fakeTimers();
  return { o: new NotationOdds({ show, fetch, timers }), shown, requests, timers };
}

const tick = () => new Promise((ok) => setImmediate(ok));

test('the estimate first, then the exact odds over it; no notice for a quick answer', async () => {
  const { o, shown, requests, timers } = odds();
  const done = o.ask(' 2d6 ');
  assert.deepEqual(requests.map((r) => r.url), [
    '/api/odds?notation=2d6&estimate=1', '/api/odds?notation=2d6',
  ]);
  requests[0].answer(200, { title: '2d6' });
  await tick();
  timers.fireAfter(SLOW_MS);
  requests[1].answer(200, { title: '2d6' });
  await done;
  assert.deepEqual(shown, ['estimate 2d6', 'exact 2d6']);
});

test('a slow answer says it is coming; an estimate after the exact odds is dropped', async () => {
  const { o, shown, requests, timers } = odds();
  const done = o.ask('100d20!!kh75');
  timers.fireAfter(SLOW_MS);
  requests[1].answer(200, { title: 'exact' });
  await done;
  requests[0].answer(200, { title: 'late' });
  await tick();
  assert.deepEqual(shown, ['slow 100d20!!kh75', 'exact exact']);
});

test('a refused notation says why in one line', async () => {
  const { o, shown, requests } = odds();
  const done = o.ask('2d');
  requests[0].answer(400, { error: 'no' });
  requests[1].answer(400, { error: 'bad notation at 2: a die needs sides\n  2d\n   ^' });
  await done;
  assert.deepEqual(shown, ['failed bad notation at 2: a die needs sides']);
});

test('typing asks once it pauses; a new text aborts the old one; an empty text clears', async () => {
  const { o, shown, requests, timers } = odds();
  o.typed('1');
  o.typed('1d');
  o.typed('1d6');
  assert.equal(requests.length, 0);
  timers.fireAfter(TYPING_PAUSE_MS);
  assert.deepEqual(requests.map((r) => r.url), [
    '/api/odds?notation=1d6&estimate=1', '/api/odds?notation=1d6',
  ]);
  o.ask('');
  assert.equal(requests[0].signal.aborted, true);
  assert.equal(requests[1].signal.aborted, true);
  await tick();
  assert.deepEqual(shown, ['clear']);
  assert.equal(timers.pending.size, 0, 'no notice left to come');
});
