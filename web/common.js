// What the front page and the room page share: a room's socket address, the key to a
// member's name (kept in this browser, as the window keeps it in member-keys.json). The
// protocol's version and the limits come from the server itself (`/contract.js`).

/** The WebSocket address of `room` on this server. */
export function socketUrl(room) {
  const url = new URL(`/${encodeURIComponent(room)}`, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  url.hash = '';
  return url.href;
}

const keySlot = (room, name) => `dicetable-key:${location.host}/${room}:${name.normalize('NFKC')}`;

/** The key this browser holds to `name` in `room`, if it took the name. */
export function keyOf(room, name) {
  try {
    return localStorage.getItem(keySlot(room, name)) || null;
  } catch {
    return null;
  }
}

/** Keeps the key the room gave: without it the name cannot be taken back. */
export function keepKey(room, name, key) {
  try {
    localStorage.setItem(keySlot(room, name), key);
    return true;
  } catch {
    return false;
  }
}

/** A message of the server's, as words for a person: its text, or what went wrong. */
export function reasonOf(msg) {
  return msg.message || msg.reason || msg.error || `refused (${msg.code || 'no reason given'})`;
}
