// tray-queue.js: a room's page tells its log in order, a live throw only once the tray has shown
// it or gone quiet. Run by `node --test web/tests/unit/` (tests/dicetable/web.rs runs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrayQueue } from '../../tray-queue.js';
import { fakeTimers } from './fake-timers.mjs';

const entry = (seq, kind) => ({ seq, event: { kind } });

function queue() {
  const told = [];
  const timers = fakeTimers();
  const q = new TrayQueue((e) => told.push(e.seq), { silenceMs: 100, timers });
  return { q, told, timers };
}

test('what the log held before the page went live is told at once, throws included', () => {
  const { q, told, timers } = queue();
  q.push(entry(1, 'joined'));
  q.push(entry(2, 'thrown'));
  q.goLive(2);
  q.push(entry(3, 'played'));
  assert.deepEqual(told, [1, 2, 3]);
  assert.equal(timers.pending.size, 0);
});

test('a live throw and what follows it wait for the tray, then go in order', () => {
  const { q, told } = queue();
  q.goLive(0);
  q.push(entry(1, 'thrown'));
  q.push(entry(2, 'played'));
  q.push(entry(3, 'revealed'));
  assert.deepEqual(told, []);
  q.shownOnTray(3); // shown early: still behind 1
  assert.deepEqual(told, []);
  q.shownOnTray(1);
  assert.deepEqual(told, [1, 2, 3]);
});

test('a quiet tray lets the entry go, a flight stretches the wait, and nothing is lost', () => {
  const { q, told, timers } = queue();
  q.goLive(0);
  q.push(entry(1, 'thrown'));
  q.push(entry(2, 'thrown'));
  q.flying(1, 400);
  assert.equal(timers.pending.size, 1);
  assert.equal(timers.fire(), 500, 'the flight and the silence');
  assert.deepEqual(told, [1]);
  assert.equal(timers.fire(), 100, 'the next throw waits the silence alone');
  assert.deepEqual(told, [1, 2]);
  assert.equal(timers.pending.size, 0);
  // A flight of an entry that is not first in line changes nothing.
  q.push(entry(3, 'thrown'));
  q.push(entry(4, 'thrown'));
  q.flying(4, 9000);
  assert.equal([...timers.pending.values()][0].ms, 100);
});
