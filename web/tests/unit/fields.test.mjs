// fields.js, the drafted move's fields as the room page draws them: where a chosen value goes
// in the move's JSON (as the rules' catalogue::set_path puts it), what tells fields apart, and
// a tally's value. Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldKey, setPath, tallyValue } from '../../fields.js';

test('a value goes at its path, making objects on the way', () => {
  const move = { StepDice: { Act: { actor: 0, skill: 'Locks' } } };
  setPath(move, ['StepDice', 'Act', 'skill'], 'Climb');
  assert.deepEqual(move, { StepDice: { Act: { actor: 0, skill: 'Climb' } } });
  // A field of a variant the move does not have yet: its object is made.
  setPath(move, ['StepDice', 'Act', 'target', 'Dc'], 12);
  assert.deepEqual(move.StepDice.Act.target, { Dc: 12 });
  // A tuple variant's place in its list ("Named", "0"), as the catalogue writes it.
  const check = { D20Check: { Check: { dc: { Named: ['Hard', 0] } } } };
  setPath(check, ['D20Check', 'Check', 'dc', 'Named', '1'], 2);
  assert.deepEqual(check.D20Check.Check.dc.Named, ['Hard', 2]);
  // A value that is not an object on the way is replaced by one.
  const aim = { D4Pool: { Act: { target: 'None' } } };
  setPath(aim, ['D4Pool', 'Act', 'target', 'Attack'], 3);
  assert.deepEqual(aim.D4Pool.Act.target, { Attack: 3 });
});

test('fields are told apart by path and label', () => {
  const a = { path: ['D4Pool', 'Act', 'aspect'], label: 'Aspect' };
  assert.equal(fieldKey(a), 'D4Pool/Act/aspect|Aspect');
  assert.notEqual(fieldKey(a), fieldKey({ ...a, label: 'Aspect (again)' }));
});

test("a tally's value is each option as many times as counted", () => {
  const options = [{ label: 'torch', value: 'torch' }, { label: 'dark', value: 'dark' }];
  assert.deepEqual(tallyValue(options, [2, 1]), ['torch', 'torch', 'dark']);
  assert.deepEqual(tallyValue(options, [0, 0]), []);
});
