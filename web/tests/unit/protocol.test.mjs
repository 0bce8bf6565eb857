// The room protocol's published schemas (docs/protocol/, made from the Rust types) take the
// messages the protocol takes and refuse what it refuses. The browser tests check every real
// message against the schemas the server serves (web/tests/browser.mjs). Run by `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';

const docs = new URL('../../../docs/protocol/', import.meta.url);
const compile = (file) => new Ajv2020({ strict: false, validateFormats: false })
  .compile(JSON.parse(readFileSync(new URL(file, docs), 'utf8')));
const client = compile('client.schema.json');
const server = compile('server.schema.json');

test('a join fits, and one with an unknown field or a wrong role does not', () => {
  const join = { type: 'join', v: 3, room: 'heist', name: 'Pat', role: 'player', seats: ['Bo'], passcode: 'x' };
  assert.ok(client(join), JSON.stringify(client.errors));
  assert.ok(!client({ ...join, cheat: true }), 'an unknown field');
  assert.ok(!client({ ...join, role: 'dragon' }), 'no such role');
  assert.ok(!client({ type: 'teleport' }), 'no such message');
});

test('a throw of a move fits with its move, and a move of no ruleset does not', () => {
  const move = { StepDice: 'EndTurn' };
  const thrown = { type: 'throw', id: 1, what: { move }, commitment: 'c', nonce: 'n' };
  assert.ok(client(thrown), JSON.stringify(client.errors));
  assert.ok(!client({ ...thrown, what: { move: { Chess: 'Castle' } } }));
});

test('the server\'s error carries a known code', () => {
  assert.ok(server({ type: 'error', code: 'bad_name', message: 'no' }), JSON.stringify(server.errors));
  assert.ok(!server({ type: 'error', code: 'no_such_code', message: 'no' }));
  assert.ok(!server({ type: 'error', message: 'no code' }));
});
