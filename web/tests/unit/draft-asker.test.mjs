// draft-asker.js: the move form asks the server about a draft, shows only the last answer,
// never undoes a change just made, and asks again as the table moves. Run by
// `node --test web/tests/unit/` (tests/dicetable/web.rs runs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DraftAsker } from '../../draft-asker.js';
import { fakeTimers } from './fake-timers.mjs';

/** A form on a connected page: what it sent, and the draft it shows. */
function form({ connected = true } = {}) {
  const sent = [];
  const timers = fakeTimers();
  const page = { draft: null, connected };
  let id = 10;
  const drafts = new DraftAsker({
    send: (draft) => {
      if (!page.connected) return null;
      id += 1;
      sent.push({ id, ...draft });
      return id;
    },
    current: () => page.draft,
    timers,
  });
  return { drafts, sent, timers, page };
}

/** A catalogue answering draft `id`, with `acting` the acting characters. */
const catalogue = (id, acting, draft = { kind: 'shown' }) => ({
  id,
  draft,
  tracker: { rows: ['Ana', 'Bo', 'Cass'].map((name) => ({ name, acting: acting.includes(name) })) },
});

const mine = (seats) => (acting) => acting.filter((n) => seats.includes(n));

test('only the last draft asked is answered; a page not connected asks nothing', () => {
  const { drafts, sent, page } = form();
  drafts.ask(null);
  drafts.change({ kind: 'attack' });
  assert.deepEqual(sent, [{ id: 11, fresh: false }, { id: 12, fresh: false, what: { kind: 'attack' } }]);
  assert.equal(drafts.answers(11), false);
  assert.equal(drafts.answers(12), true);
  page.connected = false;
  drafts.change({ kind: 'parry' });
  assert.equal(sent.length, 2);
  assert.equal(drafts.answers(12), true, 'the last draft sent is still the one waited for');
});

test('a change just made is what a refresh asks about until its answer is shown', () => {
  const { drafts, sent, timers, page } = form();
  page.draft = { kind: 'shown' };
  drafts.change({ kind: 'attack', target: 2 });
  // Two entries arrive before the answer: one refresh, of the change, not of the old draft, and
  // not fresh: a change the rules refuse is shown refused, never swapped for a move allowed.
  drafts.tableMoved(false);
  drafts.tableMoved(false);
  assert.equal(timers.pending.size, 1);
  timers.fireAll();
  assert.deepEqual(sent.at(-1), { id: 12, fresh: false, what: { kind: 'attack', target: 2 } });
  // Its answer is shown: the next refresh asks about the draft on screen.
  assert.equal(drafts.shown(catalogue(12, ['Bo']), mine(['Bo'])), true);
  page.draft = { kind: 'attack', target: 2, shown: true };
  drafts.tableMoved(false);
  timers.fireAll();
  assert.deepEqual(sent.at(-1), { id: 13, fresh: true, what: page.draft });
});

test('after this member\'s own move the refresh asks for the first move allowed now', () => {
  const { drafts, sent, timers, page } = form();
  page.draft = { kind: 'attack' };
  drafts.tableMoved(true);
  drafts.tableMoved(false);
  timers.fireAll();
  assert.deepEqual(sent, [{ id: 11, fresh: true }]);
  drafts.tableMoved(false);
  timers.fireAll();
  assert.deepEqual(sent.at(-1), { id: 12, fresh: true, what: page.draft });
});

test('the turn coming to this member on a plain refresh gives way to its first move', () => {
  const { drafts, sent, timers, page } = form();
  drafts.ask(null);
  assert.equal(drafts.shown(catalogue(11, ['Ana']), mine(['Bo'])), true);
  page.draft = { kind: 'shown' };
  drafts.tableMoved(false);
  timers.fireAll();
  // Bo acts now: the form asks for Bo's first move instead of showing the old draft.
  assert.equal(drafts.shown(catalogue(12, ['Bo']), mine(['Bo'])), false);
  assert.deepEqual(sent.at(-1), { id: 13, fresh: false });
  assert.equal(drafts.answers(13), true);
  assert.equal(drafts.turnArrived(), null, 'not before the move is shown');
  assert.equal(drafts.shown(catalogue(13, ['Bo']), mine(['Bo'])), true);
  // The page says it once: the turn is Bo's.
  assert.deepEqual(drafts.turnArrived(), ['Bo']);
  assert.equal(drafts.turnArrived(), null);
});

test('a change pending, or a turn that is someone else\'s, keeps the form as it is', () => {
  const { drafts, timers, page } = form();
  drafts.ask(null);
  drafts.shown(catalogue(11, ['Ana']), mine(['Bo']));
  page.draft = { kind: 'shown' };
  // Cass acts now, and Cass is not this member's.
  drafts.tableMoved(false);
  timers.fireAll();
  assert.equal(drafts.shown(catalogue(12, ['Cass']), mine(['Bo'])), true);
  // Bo acts now, but this member had just changed the form: the change stays.
  drafts.change({ kind: 'attack' });
  drafts.tableMoved(false);
  timers.fireAll();
  assert.equal(drafts.shown(catalogue(14, ['Bo']), mine(['Bo'])), true);
  assert.equal(drafts.turnArrived(), null, 'a change pending is not taken over');
});

test('a change made while the connection was down is asked once it is back', () => {
  const { drafts, sent, page } = form();
  page.draft = { kind: 'shown' };
  page.connected = false;
  drafts.change({ kind: 'attack' });
  assert.deepEqual(sent, []);
  page.connected = true;
  drafts.reconnected();
  assert.deepEqual(sent, [{ id: 11, fresh: false, what: { kind: 'attack' } }]);
  assert.equal(drafts.answers(11), true);
  // With no change pending, the draft on screen is asked again as it is.
  drafts.shown(catalogue(11, ['Ana']), mine(['Bo']));
  drafts.reconnected();
  assert.deepEqual(sent.at(-1), { id: 12, fresh: false, what: { kind: 'shown' } });
});

test('a page not at the table (no draft shown yet) does not refresh', () => {
  const { drafts, sent, timers } = form();
  drafts.tableMoved(false);
  timers.fireAll();
  assert.deepEqual(sent, []);
});
