// The odds of the notation a member is writing, asked of the server and never waited on: a
// quick estimate (≈) first, replaced by the exact odds when they come; a notice only when the
// answer is slow; what was asked for an older text dropped (and its requests aborted) as soon
// as the text changes, and typing asks once it pauses. No DOM here: what is shown is handed in,
// and so are `fetch` and the timers, so node tests it.

/** How long typing must pause before the odds are asked. */
export const TYPING_PAUSE_MS = 150;
/** How long an answer may take before the page says it is working the odds out. */
export const SLOW_MS = 200;

export class NotationOdds {
  /**
   * @param {{
   *   show: {
   *     clear: () => void,
   *     slow: (notation: string) => void,
   *     estimate: (body: object) => void,
   *     exact: (body: object) => void,
   *     failed: (reason: string) => void,
   *   },
   *   fetch?: Function,
   *   timers?: { setTimeout: Function, clearTimeout: Function },
   * }} options
   */
  constructor({ show, fetch = (...args) => globalThis.fetch(...args), timers = globalThis }) {
    this.show = show;
    // Called as `this.fetch`: the browser's own must not get this object as its `this`.
    this.fetch = fetch;
    this.timers = timers;
    this.asked = null;
    this.slowTimer = null;
    this.typingTimer = null;
  }

  /** The text changed: its odds are asked once typing pauses. */
  typed(notation) {
    this.timers.clearTimeout(this.typingTimer);
    this.typingTimer = this.timers.setTimeout(() => this.ask(notation), TYPING_PAUSE_MS);
  }

  /**
   * Asks the odds of `notation` now (an empty one clears them).
   * @returns {Promise<void>} settled once the exact answer (or its failure) is handled
   */
  ask(notation) {
    const text = notation.trim();
    this.asked?.abort();
    this.timers.clearTimeout(this.slowTimer);
    if (!text) {
      this.asked = null;
      this.show.clear();
      return Promise.resolve();
    }
    const asked = new AbortController();
    this.asked = asked;
    let exact = false;
    this.slowTimer = this.timers.setTimeout(() => this.show.slow(text), SLOW_MS);
    const query = encodeURIComponent(text);
    this.fetch(`/api/odds?notation=${query}&estimate=1`, { signal: asked.signal })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((body) => {
        if (asked !== this.asked || exact || !body) return;
        this.timers.clearTimeout(this.slowTimer);
        this.show.estimate(body);
      })
      .catch(() => {});
    return this.fetch(`/api/odds?notation=${query}`, { signal: asked.signal })
      .then(async (answer) => ({ ok: answer.ok, body: await answer.json() }))
      .then(({ ok, body }) => {
        if (asked !== this.asked) return;
        exact = true;
        this.timers.clearTimeout(this.slowTimer);
        if (ok) this.show.exact(body);
        else this.show.failed((body.error || '').split('\n')[0]);
      })
      .catch(() => {});
  }
}
