// The order a room's page tells its log in. An entry that throws dice, arriving live, waits until
// the tray has shown its outcome, and the entries after it wait behind it: the page never tells
// an outcome before its dice land, and never tells the log out of order. Entries from before the
// page went live (a page joining late, or coming back) are told at once. A tray that says
// nothing for `silenceMs` (or for a motion's length and that) lets the entry go anyway: what it
// did not show is told, never lost. No DOM here, and the timers are handed in, so node tests it.

/** How long the tray may say nothing before the entry it holds is told anyway. */
export const TRAY_SILENCE_MS = 15000;

export class TrayQueue {
  /**
   * @param {(entry: object) => void} tell what telling an entry does on the page
   * @param {{ silenceMs?: number, timers?: { setTimeout: Function, clearTimeout: Function } }} [options]
   */
  constructor(tell, { silenceMs = TRAY_SILENCE_MS, timers = globalThis } = {}) {
    this.tell = tell;
    this.silenceMs = silenceMs;
    this.timers = timers;
    this.liveAfter = Infinity;
    this.waiting = [];
    this.shown = new Set();
    this.timer = null;
    this.timerFor = null;
  }

  /** The log's head when the page came (or came back): what follows it is live. */
  goLive(head) {
    this.liveAfter = head;
  }

  /** An entry of the log, in order: told now, or when the tray has shown what it waits for. */
  push(entry) {
    const kind = entry.event.kind;
    const onTray = entry.seq > this.liveAfter && (kind === 'thrown' || kind === 'revealed');
    this.waiting.push({ entry, onTray });
    this.release();
  }

  /** The tray showed (or hid) the outcomes of these entries. */
  shownOnTray(...seqs) {
    for (const seq of seqs) this.shown.add(seq);
    this.release();
  }

  /** The dice of entry `seq` are in the air for `ms`: its outcome is due when they land. */
  flying(seq, ms) {
    if (this.waiting[0]?.entry.seq === seq) this.wait(ms + this.silenceMs);
  }

  /** Tells every entry that waits for nothing, in order, up to the first that waits. */
  release() {
    while (this.waiting.length) {
      const w = this.waiting[0];
      if (w.onTray && !this.shown.has(w.entry.seq)) {
        if (this.timerFor !== w.entry.seq) this.wait(this.silenceMs);
        return;
      }
      this.waiting.shift();
      this.tell(w.entry);
    }
    this.timers.clearTimeout(this.timer);
    this.timerFor = null;
  }

  wait(ms) {
    this.timers.clearTimeout(this.timer);
    this.timerFor = this.waiting[0]?.entry.seq ?? null;
    this.timer = this.timers.setTimeout(() => {
      // The tray went quiet: what it did not show is told anyway.
      if (this.timerFor !== null) this.shown.add(this.timerFor);
      this.timerFor = null;
      this.release();
    }, ms);
  }
}
