// The move form's conversation with the server. The page never decides what the rules allow: it
// asks the server about a draft and shows the answer, so it must know which answer is the one
// it waits for (only the last draft asked), what this member asked about that has not come back
// yet (a change just made is never undone by a refresh), and when to ask again as the table
// moves: once for a run of entries, the first allowed move after this member's own move, and
// the acting character's first move when the turn comes to this member. No DOM here, and the
// timers are handed in, so node tests it.

/** How long after an entry the draft is asked again: a run of entries asks once. */
export const FOLLOW_MS = 50;

export class DraftAsker {
  /**
   * @param {{
   *   send: (draft: { fresh: boolean, what?: object }) => (number | null),
   *   current: () => (object | null),
   *   timers?: { setTimeout: Function, clearTimeout: Function },
   *   followMs?: number,
   * }} options `send` sends a draft request and gives its id (null when the page is not
   * connected); `current` is the draft the form shows (null before the first, or when the
   * page is not at the table).
   */
  constructor({ send, current, timers = globalThis, followMs = FOLLOW_MS }) {
    this.send = send;
    this.current = current;
    this.timers = timers;
    this.followMs = followMs;
    // The id of the last draft asked: only its answers are shown.
    this.asked = 0;
    // The move this member last asked about, until the server's answer shows it.
    this.wanted = null;
    // The table moved after this member's own move: the form offers what it may do next.
    this.afterOwnMove = false;
    this.followTimer = null;
    // The id of a plain refresh (no change pending), which gives way when the turn comes.
    this.refreshAsked = null;
    // Who was acting when the last catalogue came ('|'-joined names; null before the first).
    this.actingBefore = null;
    // The turn that came to this member: the draft asked for it, and its characters' names.
    this.turnAsked = null;
    this.turnShown = null;
  }

  /** The characters whose turn just came to this member, once, when the form first shows
   * their move (null otherwise): the page says so and makes the move the form on screen. */
  turnArrived() {
    const names = this.turnShown;
    this.turnShown = null;
    return names;
  }

  /** Asks the server about `move` (null: the first move the rules allow now). */
  ask(move, fresh = false) {
    const draft = { fresh };
    if (move) draft.what = move;
    const id = this.send(draft);
    if (id !== null) this.asked = id;
  }

  /** This member changed the form to `move`: asked, and kept until the answer shows it. */
  change(move) {
    this.wanted = move;
    this.ask(move, false);
  }

  /** The page is connected again: what it asked while it was not (`send` gave no id) is asked
   * now, the change pending or else the draft on screen, as it is. */
  reconnected() {
    const draft = this.wanted ?? this.current();
    if (draft) this.ask(draft, false);
  }

  /** Whether an answer with this id is the one the form waits for. */
  answers(id) {
    return id === this.asked;
  }

  /**
   * A catalogue `m` (the answer to the last draft asked) is about to be shown. False when the
   * turn has just come to a character this member moves (`mine(actingNames)` names them) on a
   * plain refresh: the form offers that character's first move instead, asked now.
   */
  shown(m, mine) {
    const acting = m.tracker.rows.filter((r) => r.acting).map((r) => r.name);
    const before = this.actingBefore;
    this.actingBefore = acting.join('|');
    const turnCame = m.id === this.refreshAsked && before !== null
      && before !== this.actingBefore && mine(acting).length > 0;
    if (turnCame) {
      this.ask(null, false);
      this.turnAsked = { id: this.asked, names: mine(acting) };
      return false;
    }
    if (this.turnAsked && m.id === this.turnAsked.id) this.turnShown = this.turnAsked.names;
    this.turnAsked = null;
    this.wanted = null;
    return true;
  }

  /** An entry was told (`own`: this member's move): the draft is asked again, once a run. */
  tableMoved(own) {
    this.afterOwnMove ||= own;
    this.timers.clearTimeout(this.followTimer);
    this.followTimer = this.timers.setTimeout(() => {
      const draft = this.current();
      if (!draft) return;
      const plain = !this.afterOwnMove && !this.wanted;
      // A change this member just made is asked about as it is (not fresh): a move the rules
      // refuse is shown refused, never swapped for the first move allowed.
      this.ask(this.afterOwnMove ? null : this.wanted ?? draft, this.afterOwnMove || !this.wanted);
      this.refreshAsked = plain ? this.asked : null;
      this.afterOwnMove = false;
    }, this.followMs);
  }
}
