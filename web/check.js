// What a room's page checks of every log line it is sent, without the server's word for it:
// the chain (each line names the hash of the one before), each throw's seed (the secret
// revealed matches the commitment published before the throw, and the seed is the hash of that
// secret, the thrower's nonce and gesture, the room and the entry's place) and each reveal's
// seal. The hashes are the log's own (`src/online/seal.rs`): SHA-256 over a tag and
// length-prefixed parts. The faces themselves come from the physics, which a page does not run:
// `dicetable verify` re-simulates them.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of bytes (pages served over plain http have no `crypto.subtle`). */
export function sha256(bytes) {
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] = (h[i] + x) >>> 0; });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((x, i) => outView.setUint32(4 * i, x));
  return out;
}

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

function unhex(text) {
  if (typeof text !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
  return new Uint8Array(text.match(/../g)?.map((b) => parseInt(b, 16)) || []);
}

const GENESIS = '0'.repeat(64);

/** The hash a log line is chained by. */
export const lineHash = (line) => hex(taggedHash('dicetable log v1', [utf8(line)]));

/** The commitment published for a secret before anyone throws with it. */
const commitment = (secret) => hex(taggedHash('dicetable commitment v1', [secret]));

function gestureBytes(g) {
  if (!g) return new Uint8Array(0);
  const b = new Uint8Array(24);
  const view = new DataView(b.buffer);
  [...g.release, ...g.velocity].forEach((x, i) => view.setFloat32(4 * i, x, true));
  return b;
}

/** A throw's seed (the first 8 bytes of the hash, little end), as a BigInt. */
function throwSeed(secret, nonce, gesture, room, seq) {
  const seqBytes = new Uint8Array(8);
  new DataView(seqBytes.buffer).setBigUint64(0, BigInt(seq), true);
  const hash = taggedHash('dicetable seed v1', [secret, nonce, gestureBytes(gesture), utf8(room), seqBytes]);
  return new DataView(hash.buffer).getBigUint64(0, true);
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
      if (hex(taggedHash('dicetable hidden v1', [salt, utf8(ev.payload)])) !== hidden.sealed) {
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
