// What a room's page checks of every log line it is sent, without the server's word for it:
// the chain (each line names the hash of the one before), each throw's seed (the secret
// revealed matches the commitment published before the throw, and the seed is the hash of that
// secret, the thrower's nonce and gesture, the room and the entry's place) and each reveal's
// seal. The hashes are the log's own (`src/online/seal.rs`): SHA-256 over a tag and
// length-prefixed parts, SHA-256 by @noble/hashes (audited; bundled in vendor/: a page served
// over plain http on a LAN has no `crypto.subtle`). The faces themselves come from the physics,
// which a page does not run: `dicetable verify` re-simulates them. The tests feed these
// functions the vectors `src/online/seal.rs` is tested with (tests/fixtures/seal-vectors.json).

import { sha256 } from './vendor/sha256.min.js';

const utf8 = (text) => new TextEncoder().encode(text);

function u32le(n) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

/** The log's hash: SHA-256 of the tag and each part, each after its length (u32, little end). */
function taggedHash(tag, parts) {
  const chunks = [u32le(utf8(tag).length), utf8(tag)];
  for (const p of parts) chunks.push(u32le(p.length), p);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return sha256(all);
}

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The seal of a hidden throw: its salt and its payload, hashed. */
export const sealOf = (salt, payload) => hex(taggedHash('dicetable hidden v1', [salt, utf8(payload)]));

export function unhex(text) {
  if (typeof text !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
  return new Uint8Array(text.match(/../g)?.map((b) => parseInt(b, 16)) || []);
}

const GENESIS = '0'.repeat(64);

/** The hash a log line is chained by. */
export const lineHash = (line) => hex(taggedHash('dicetable log v1', [utf8(line)]));

/** The commitment published for a secret before anyone throws with it. */
export const commitment = (secret) => hex(taggedHash('dicetable commitment v1', [secret]));

function gestureBytes(g) {
  if (!g) return new Uint8Array(0);
  const b = new Uint8Array(24);
  const view = new DataView(b.buffer);
  [...g.release, ...g.velocity].forEach((x, i) => view.setFloat32(4 * i, x, true));
  return b;
}

/** A throw's seed (the first 8 bytes of the hash, little end), as a BigInt. */
export function throwSeed(secret, nonce, gesture, room, seq) {
  const seqBytes = new Uint8Array(8);
  new DataView(seqBytes.buffer).setBigUint64(0, BigInt(seq), true);
  const hash = taggedHash('dicetable seed v1', [secret, nonce, gestureBytes(gesture), utf8(room), seqBytes]);
  return new DataView(hash.buffer, hash.byteOffset, hash.byteLength).getBigUint64(0, true);
}

/** Checks a seed's proof against the seed the record says it used (read from the raw text). */
function checkProof(proof, seedText, room, seq) {
  const secret = unhex(proof?.secret);
  const nonce = unhex(proof?.nonce);
  if (!secret || !nonce) return 'the proof is not hex';
  if (commitment(secret) !== proof.commitment) return 'the secret does not match its commitment';
  if (seedText === null) return 'no seed in the record';
  if (throwSeed(secret, nonce, proof.gesture, room, seq) !== BigInt(seedText)) {
    return 'the seed is not the hash of the secret, nonce and gesture';
  }
  return null;
}

/** The record's own seed as written (a u64: JSON numbers in JavaScript lose its last digits). */
function seedIn(text) {
  return /"seed":(\d+),"gesture":/.exec(text)?.[1] ?? null;
}

/**
 * Follows a room's log: `check(line, entry)` says what it checked of the line, or what is
 * wrong (`{ ok, what }`). `mine(nonce)` gives the commitment this page was given when it
 * chose that nonce (a throw of its own), to check that the server threw with them.
 */
export function logChecker(room) {
  let head = GENESIS;
  let last = 0;
  const sealedAt = new Map();
  return function check(line, e, mine) {
    const fail = (what) => ({ ok: false, what });
    if (e.seq !== last + 1) return fail(`entry ${e.seq} came after ${last}`);
    if (e.prev !== head) return fail('the chain is broken: it does not follow the line before');
    head = lineHash(line);
    last = e.seq;
    const ev = e.event;
    const done = ['the chain'];
    if (ev.kind === 'thrown') {
      const wrong = checkProof(ev.proof, seedIn(line), room, e.seq);
      if (wrong) return fail(wrong);
      done.push('the seed');
      const own = mine?.(ev.proof.nonce);
      if (own) {
        if (own !== ev.proof.commitment) {
          return fail('the server did not throw with the commitment and nonce this page sent');
        }
        done.push('your nonce');
      }
    } else if (ev.kind === 'hidden') {
      sealedAt.set(e.seq, ev);
    } else if (ev.kind === 'revealed') {
      const hidden = sealedAt.get(ev.of);
      const salt = unhex(ev.salt);
      if (!hidden || !salt) return fail(`nothing hidden at ${ev.of} to reveal`);
      if (sealOf(salt, ev.payload) !== hidden.sealed) {
        return fail('the reveal is not what was sealed');
      }
      let shown;
      try {
        shown = JSON.parse(ev.payload);
      } catch {
        return fail('the reveal is not readable');
      }
      if (shown.proof?.commitment !== hidden.commitment) return fail('the reveal was thrown with another commitment');
      const wrong = checkProof(shown.proof, seedIn(ev.payload), room, ev.of);
      if (wrong) return fail(wrong);
      done.push('the seal', 'the seed');
    }
    return { ok: true, what: done.join(', ') };
  };
}
