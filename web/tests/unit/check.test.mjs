// check.js, the room page's own checks of a log, on the vectors `src/online/seal.rs` is tested
// with (tests/fixtures/seal-vectors.json) and on a stored room log: the page and the server hash
// alike. Run by `node --test web/tests/unit/` (tests/dicetable/web.rs runs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commitment, lineHash, logChecker, sealOf, throwSeed, unhex } from '../../check.js';

const fixtures = new URL('../../../tests/fixtures/', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('seal-vectors.json', fixtures), 'utf8'));
const utf8 = (text) => new TextEncoder().encode(text);

test('a log line hashes as the server hashes it', () => {
  for (const v of vectors.line_hash) assert.equal(lineHash(v.line), v.hash, v.line);
});

test('a secret commits as the server commits it', () => {
  for (const v of vectors.commitment) assert.equal(commitment(unhex(v.secret)), v.commitment);
});

test('a hidden throw seals as the server seals it', () => {
  for (const v of vectors.seal) assert.equal(sealOf(unhex(v.salt), v.payload), v.sealed);
});

test('a throw seed is the one the server throws with', () => {
  assert.equal(vectors.throw_seed.length, 4);
  for (const v of vectors.throw_seed) {
    const seed = throwSeed(unhex(v.secret), unhex(v.nonce), v.gesture, v.room, BigInt(v.seq));
    assert.equal(seed.toString(), v.seed, JSON.stringify(v));
  }
});

test('every line of a stored room log checks, and a changed one does not', () => {
  const lines = readFileSync(new URL('room-d4-pool.jsonl', fixtures), 'utf8').trim().split('\n');
  const check = logChecker('ambush');
  const seen = lines.map((line) => check(line, JSON.parse(line)));
  assert.deepEqual(seen.filter((s) => !s.ok), []);
  assert.ok(seen.some((s) => s.what.includes('the seed')), 'throws were checked');
  // The same log with one throw's seed changed: the chain and that seed fail.
  const again = logChecker('ambush');
  const at = lines.findIndex((l) => l.includes('"kind":"thrown"'));
  const forged = lines[at].replace(/"seed":(\d+)/, (_, n) => `"seed":${BigInt(n) + 1n}`);
  lines.slice(0, at).forEach((line) => again(line, JSON.parse(line)));
  assert.equal(again(forged, JSON.parse(forged)).what,
    'the seed is not the hash of the secret, nonce and gesture');
});

test('a forged reveal is refused: another face, or another seed', () => {
  const lines = readFileSync(new URL('room-d4-pool.jsonl', fixtures), 'utf8').trim().split('\n');
  const at = lines.findIndex((l) => l.includes('"kind":"revealed"'));
  assert.ok(at > 0, 'the stored log reveals a roll');
  const forge = (change) => {
    const e = JSON.parse(lines[at]);
    const roll = JSON.parse(e.event.payload);
    change(roll.record);
    e.event.payload = JSON.stringify(roll);
    return JSON.stringify(e);
  };
  const otherFace = (r) => { r.faces[0][0] = r.faces[0][0] === 4 ? 3 : 4; };
  const otherSeed = (r) => { r.seed = 12345; };
  for (const change of [otherFace, otherSeed]) {
    const check = logChecker('ambush');
    lines.slice(0, at).forEach((line) => check(line, JSON.parse(line)));
    const forged = forge(change);
    const seen = check(forged, JSON.parse(forged));
    assert.equal(seen.ok, false);
    assert.equal(seen.what, 'the reveal is not what was sealed');
  }
});

test('utf8 of the vectors is what the page encodes', () => {
  assert.equal(utf8('é').length, 2);
});
