// Timers for the pages' unit tests: a setTimeout that fires only when the test says so.

/** Timers to hand a module in place of the page's: nothing fires until the test fires it. */
export function fakeTimers() {
  const pending = new Map();
  let next = 1;
  return {
    pending,
    setTimeout(fn, ms) { pending.set(next, { fn, ms }); return next++; },
    clearTimeout(id) { pending.delete(id); },
    /** Fires the oldest timer; its delay. */
    fire() {
      const [[id, t]] = pending;
      pending.delete(id);
      t.fn();
      return t.ms;
    },
    /** Fires every timer set so far. */
    fireAll() {
      for (const [id, t] of [...pending]) {
        pending.delete(id);
        t.fn();
      }
    },
    /** Fires the timers set for `ms`. */
    fireAfter(ms) {
      for (const [id, t] of [...pending]) {
        if (t.ms !== ms) continue;
        pending.delete(id);
        t.fn();
      }
    },
  };
}
