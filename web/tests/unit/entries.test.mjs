// entries.js, a room's log in words for its page's history, on a stored room log
// (tests/fixtures/room-d4-pool.jsonl) and on a hidden roll and its reveal. Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describeEntry, inFull, result, sceneName } from '../../entries.js';

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
  // Logged by a build before roll modes: its label in the open.
  const hidden = { seq: 5, event: { kind: 'hidden', by: 'Gwen', notation: '1d20', label: 'perception' } };
  assert.deepEqual(describeEntry(hidden, { entries: [hidden], name: 'Pat' }),
    { text: 'Gwen: perception, hidden', faces: undefined, reveal: false });
  const mine = describeEntry(hidden, { entries: [hidden], name: 'Gwen', gamemaster: true, mine: { record } });
  assert.equal(mine.text, 'Gwen: perception, hidden → 12 (only you see it)');
  assert.equal(mine.reveal, true);
  const reveal = { seq: 6, event: { kind: 'revealed', of: 5, payload: JSON.stringify({ notation: '1d20', record }) } };
  const entries = [hidden, reveal];
  assert.equal(describeEntry(hidden, { entries, name: 'Gwen' }).text, 'Gwen: perception, hidden → 12 (revealed)');
  assert.equal(describeEntry(reveal, { entries, name: 'Pat' }).text, "Gwen's roll #5 revealed: perception → 12");
});

test('a secret roll in each mode: its label sealed, told to whom it shows, revealed by whom it may', () => {
  const record = { what: { notation: '1d20' }, label: 'lie detected?', total: 7, outcome: null, faces: [[7]] };
  const roll = (mode) => ({ seq: 9, event: { kind: 'hidden', by: 'Pat', notation: '1d20', label: null, mode } });
  const asPat = { name: 'Pat', gamemaster: false };
  const asGwen = { name: 'Gwen', gamemaster: true };
  const asSam = { name: 'Sam', gamemaster: false };
  const told = (mode, who, mine) => describeEntry(roll(mode), { entries: [roll(mode)], ...who, mine });
  // Nobody else reads its label or its result.
  assert.deepEqual(told('gamemaster', asSam), { text: 'Pat: 1d20, for the game master', faces: undefined, reveal: false });
  assert.deepEqual(told('blind', asPat), { text: 'Pat: 1d20, blind', faces: undefined, reveal: false });
  assert.equal(told(undefined, asSam).text, 'Pat: 1d20, hidden');
  // Whoever it shows to reads it, and the game master may reveal any.
  assert.equal(told('gamemaster', asPat, { record }).text,
    'Pat: lie detected?, for the game master → 7 (only you and the game master see it)');
  assert.equal(told('gamemaster', asGwen, { record }).text,
    'Pat: lie detected?, for the game master → 7 (only you and Pat see it)');
  assert.equal(told('blind', asGwen, { record }).text, 'Pat: lie detected?, blind → 7 (only you see it; Pat does not)');
  assert.equal(told('self', asPat, { record }).text, 'Pat: lie detected?, hidden → 7 (only you see it)');
  assert.equal(told('gamemaster', asPat, { record }).reveal, false);
  assert.equal(told('self', asPat, { record }).reveal, true);
  assert.equal(told('blind', asGwen, { record }).reveal, true);
  assert.equal(told('self', asGwen).reveal, true);
});

test('a hidden move: "a move" to whom it does not show; the move, its outcome and what it changed to whom it does', () => {
  const record = { what: { action: 'Ash: Check (Stealth)' }, label: null, total: 14, outcome: 'Success', faces: [[11]] };
  const shown = { move: { D20Check: {} }, record, said: ["Ash's Stealth succeeded"] };
  const hidden = { seq: 7, event: { kind: 'hidden', by: 'Pat', mode: 'gamemaster' } };
  assert.deepEqual(describeEntry(hidden, { entries: [hidden], name: 'Sam', gamemaster: false }),
    { text: 'Pat: a move, for the game master', faces: undefined, reveal: false });
  assert.deepEqual(describeEntry(hidden, { entries: [hidden], name: 'Gwen', gamemaster: true, mine: shown }), {
    text: 'Pat: Ash: Check (Stealth), for the game master → 14 (Success) (only you and Pat see it)',
    faces: [[11]],
    said: ["Ash's Stealth succeeded"],
    reveal: true,
  });
  const reveal = { seq: 8, event: { kind: 'revealed', of: 7, payload: JSON.stringify(shown) } };
  assert.deepEqual(describeEntry(reveal, { entries: [hidden, reveal], name: 'Sam' }), {
    text: "Pat's roll #7 revealed: Ash: Check (Stealth) → 14 (Success)",
    faces: [[11]],
    said: ["Ash's Stealth succeeded"],
  });
});

test("the room's roll modes in words", () => {
  const modes = { seq: 4, event: { kind: 'modes', by: 'Gwen', default: 'gamemaster', players: ['gamemaster', 'blind'] } };
  assert.deepEqual(describeEntry(modes, { entries: [modes], name: 'Pat' }), {
    text: 'Gwen set the roll modes: for the game master by default; players may roll for the game master, blind',
  });
});

test("a member's dice in words, as the room's history tells them", () => {
  const mine = { seq: 5, event: { kind: 'dice', by: 'Pat', look: { body: '#1e40aa', ink: '#ffffff', material: 'stone' } } };
  const bea = { seq: 6, event: { kind: 'dice', by: 'Gwen', character: 'Bea', look: { body: '#ffffff', ink: '#ffff00' } } };
  const back = { seq: 7, event: { kind: 'dice', by: 'Pat', look: null } };
  const serif = { seq: 8, event: { kind: 'dice', by: 'Sam', look: { body: '#6b3e1f', ink: '#f0e0c0', material: 'wood', typeface: 'serif', pips: true } } };
  const page = { entries: [mine, bea, back, serif], name: 'Sam' };
  assert.equal(describeEntry(mine, page).text, 'Pat chose stone dice: #1e40aa with #ffffff numerals');
  assert.equal(describeEntry(bea, page).text, 'Gwen chose plastic dice for Bea: #ffffff with #ffff00 numerals');
  assert.equal(describeEntry(back, page).text, "Pat went back to the room's dice");
  // As the log's own words (`DiceLook::colours`): the typeface but the first, then the pips.
  assert.equal(describeEntry(serif, page).text, 'Sam chose wood dice: #6b3e1f with #f0e0c0 serif numerals, pips on the d6');
});

test("a scene's name is read with its RON escapes", () => {
  assert.equal(sceneName('(name: "The smugglers\\\' moon", cast: D20Check([]))'), "The smugglers' moon");
  assert.equal(sceneName('(name: "A \\"quoted\\" \\u{2019}name\\u{1F409}")'), 'A "quoted" \u2019name\u{1F409}');
  assert.equal(sceneName('(name: "back\\\\u{41}")'), 'back\\u{41}');
  assert.equal(sceneName('(cast: D20Check([]))'), '');
});
