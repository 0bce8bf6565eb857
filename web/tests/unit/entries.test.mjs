// entries.js, a room's log in words for its page's history, on a stored room log
// (tests/fixtures/room-d4-pool.jsonl) and on a hidden roll and its reveal. Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describeEntry, inFull, result } from '../../entries.js';

const log = readFileSync(new URL('../../../tests/fixtures/room-d4-pool.jsonl', import.meta.url), 'utf8')
  .trim().split('\n').map((line) => JSON.parse(line));
const page = { entries: log, name: 'Gwen' };

test('a stored room log told line by line', () => {
  const told = log.map((e) => describeEntry(e, page).text);
  assert.equal(told[0], 'Gwen opened the room: Goblin ambush at the trapped door');
  assert.equal(describeEntry(log[0], page).title, 'Goblin ambush at the trapped door');
  assert.ok(told.some((t) => /^\w+ joined as (a player|the game master|a spectator|player|spectator)/.test(t)), told.join('\n'));
  const thrown = log.filter((e) => e.event.kind === 'thrown');
  assert.ok(thrown.length > 0);
  for (const e of thrown) {
    const d = describeEntry(e, { ...page, rolled: '(1+2) = 3' });
    assert.ok(d.outcome && d.rolled === '(1+2) = 3');
    assert.deepEqual(d.faces, e.event.record.faces);
    assert.ok(d.text.startsWith(`${e.event.by}: `), d.text);
  }
});

test("a move's outcome in full: the rules' working and what it changed", () => {
  const e = log.find((x) => x.event.kind === 'thrown');
  const explained = {
    lines: ['6d4 [3, 3, 1, 1, 3, 3] = 14', 'd4: 4', 'total 18', '18 − Evasion 11 = 7 damage'],
    tags: ['damage 7'],
    changed: ["Vex the Rogue's Action Load -1 -> 0 (attack, cost 1)"],
  };
  const d = describeEntry(e, { ...page, explained });
  assert.deepEqual(d.working, { lines: explained.lines, tags: ['damage 7'] });
  assert.equal(describeEntry(e, page).working, undefined);
  assert.equal(inFull(explained),
    "18 − Evasion 11 = 7 damage. damage 7. Vex the Rogue's Action Load -1 -> 0 (attack, cost 1)");
  assert.equal(inFull(undefined), '');
  assert.equal(inFull({ lines: [], tags: [], changed: [] }), '');
});

test('what a record came to', () => {
  assert.equal(result({ total: 17, outcome: 'success' }), ' → 17 (success)');
  assert.equal(result({ total: null, outcome: null }), '');
});

test('a hidden roll: only its thrower sees it until it is revealed', () => {
  const record = { what: { notation: '1d20' }, total: 12, outcome: null, faces: [[12]] };
  const hidden = { seq: 5, event: { kind: 'hidden', by: 'Gwen', notation: '1d20', label: 'perception' } };
  assert.deepEqual(describeEntry(hidden, { entries: [hidden], name: 'Pat' }),
    { text: 'Gwen: perception, hidden', faces: undefined, reveal: false });
  const mine = describeEntry(hidden, { entries: [hidden], name: 'Gwen', mine: { record } });
  assert.equal(mine.text, 'Gwen: perception, hidden → 12 (only you see it)');
  assert.equal(mine.reveal, true);
  const reveal = { seq: 6, event: { kind: 'revealed', of: 5, payload: JSON.stringify({ notation: '1d20', record }) } };
  const entries = [hidden, reveal];
  assert.equal(describeEntry(hidden, { entries, name: 'Gwen' }).text, 'Gwen: perception, hidden → 12 (revealed)');
  assert.equal(describeEntry(reveal, { entries, name: 'Pat' }).text, 'Gwen revealed #5: perception → 12');
});
