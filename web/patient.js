// Asking again when the server is busy. A server shares its work by address: a household or a
// streamer's three pages behind one address can find that share taken for a moment, and the
// server then answers 429 with the code `busy` and how long to wait (`retry_after_ms` in the
// body, `Retry-After` in the headers). A page waits that long and asks again by itself, rather
// than showing an error (or a die drawn black for want of its atlas).

/** How many times a request is sent again after a `busy` answer before the answer is kept. */
export const BUSY_TRIES = 40;
/** The wait when a `busy` answer names none, ms. */
export const BUSY_WAIT_MS = 500;
/** The longest wait between two tries, ms, whatever the server names. */
const LONGEST_WAIT_MS = 10_000;

/**
 * The wait a `busy` answer names (`retry_after_ms`, of an HTTP body or a socket's `error`
 * message), within bounds, or the default when it names none, in ms.
 */
export function namedWait(retryAfterMs) {
  return Number.isFinite(retryAfterMs)
    ? Math.min(LONGEST_WAIT_MS, Math.max(0, retryAfterMs))
    : BUSY_WAIT_MS;
}

/**
 * How long to wait before asking again after an answer (`status`, its JSON `body` or null, and
 * its `Retry-After` header or null), in ms; null when asking again will not help.
 */
export function busyWait(status, body, retryAfterHeader) {
  const busy = status === 429 && (!body || !body.code || body.code === 'busy');
  if (!busy && status !== 503) return null;
  if (body && Number.isFinite(body.retry_after_ms)) return namedWait(body.retry_after_ms);
  const seconds = Number(retryAfterHeader);
  if (retryAfterHeader !== null && retryAfterHeader !== undefined && Number.isFinite(seconds)) {
    return Math.min(LONGEST_WAIT_MS, Math.max(0, seconds * 1000));
  }
  return busy ? BUSY_WAIT_MS : null;
}

/**
 * `fetch(url, options)`, sent again after each `busy` answer once its wait has passed, up to
 * `tries` times; `waiting(ms)` is told of each wait. The last answer is returned, its body
 * unread.
 */
export async function patientFetch(url, options = {}, {
  tries = BUSY_TRIES,
  waiting = () => {},
  fetch = (...args) => globalThis.fetch(...args),
  timers = globalThis,
} = {}) {
  for (let tried = 0; ; tried += 1) {
    const response = await fetch(url, options);
    if (response.ok || tried >= tries) return response;
    const body = await response.clone().json().catch(() => null);
    const wait = busyWait(response.status, body, response.headers?.get?.('retry-after') ?? null);
    if (wait === null) return response;
    waiting(wait);
    await new Promise((resume) => timers.setTimeout(resume, wait));
  }
}
