// A room's page: a seat at the table in the browser. The page only draws and asks: it joins
// over the room's WebSocket (the protocol the window speaks), proposes throws with the
// commitment the server gave it and a nonce of its own, and shows the room's log as the server
// stores it. The tray is the room's watch page (the overlay's renderer, dice exactly as the
// server threw them), on felt; it tells this page what it shows as it shows it, and a throw's
// outcome, its announcement and its history line wait until its dice have landed there.

import { socketUrl, keyOf, keepKey, reasonOf } from '/common.js';
import { PROTOCOL, TRAY, LIMITS } from '/contract.js';
import { writtenOut } from '/written.js';
import { describeEntry, inFull, HOW, whoSees } from '/entries.js';
import { logChecker } from '/check.js';
import { attachHand, tossSwing } from '/gesture.js';
import { fieldControl, setPath } from '/fields.js';
import { drawBands, drawOdds, moveOddsWords } from '/odds-chart.js';
import { TrayQueue } from '/tray-queue.js';
import { DraftAsker } from '/draft-asker.js';
import { NotationOdds } from '/notation-odds.js';
import { patientFetch, namedWait } from '/patient.js';
import { DiePreview } from '/die-preview.js';

const $ = (id) => document.getElementById(id);
// The longest text each field takes: the server's own limits.
$('name').maxLength = LIMITS.name;
$('notation').maxLength = LIMITS.notation;
$('label').maxLength = LIMITS.label;
const room = decodeURIComponent(location.pathname.split('/')[1] || '');
const now = () => performance.timeOrigin + performance.now();

/** What the page has done, for the tests to read. */
const seat = {
  joined: false,
  connected: false,
  name: null,
  role: null,
  seq: 0,
  entries: [],
  acks: 0,
  // The entry of the latest throw this page had acknowledged.
  acked: 0,
  refused: [],
  reconnects: 0,
  // The log's head when this page first joined: what it held then is the room's past, told in
  // the history but not announced (a screen reader hears "You are at the table", then what
  // happens live).
  joinedAt: Infinity,
  // Joins the server answered busy, sent again after the wait it named.
  busy: 0,
  lastOutcome: null,
  // Lines this page checked itself (chain, seeds, seals), and what failed.
  checked: 0,
  unchecked: [],
  // The latest move catalogue and draft the server sent, and the draft's odds.
  moves: null,
  moveOdds: null,
  // What Space, Enter and a flick throw: the form on screen, 'move' or 'notation'.
  drafting: 'move',
  // The characters the join form listed (from the server), and the last flick's swing.
  cast: null,
  seats: [],
  lastSwing: null,
  // Gestures on the tray that threw nothing (taps, slow drags), by kind.
  misses: { tap: 0, drag: 0 },
  // When each entry arrived, and when it was told (status, history), ms since the epoch.
  arrived: {},
  told: {},
  // Throws sent, pongs received, and when the latest catalogue was shown.
  sent: 0,
  pongs: 0,
  movesAt: 0,
  // Times the turn came to this member's characters (the page said so).
  turns: 0,
  // The last catalogues shown and drafts asked (id, kind, fresh), oldest first: what a test
  // prints when the form did not reach what it waited for.
  trail: [],
  // The picker's live die: the dice drawn, atlases loaded, and the look in words.
  preview: null,
};
window.seat = seat;

let socket = null;
let commitment = null;
let joinMsg = null;
let nextId = 1;
let leaving = false;
/** Each hidden roll this member may see: its content (`roll`) and its seal's salt, which the
 * tray shows its feed to be sent the roll's dice. */
const sealed = new Map();
const codes = new Map();
const items = new Map();
const checks = new Map();
// A free roll's dice written out, as the server read the line (struck rerolls, explosions,
// successes): shown with the entry, never checked in its place.
const rolledText = new Map();
// A move's outcome as the rules worked it out ({ lines, tags, changed }), from the tray: shown
// with the entry as the window shows it, display only.
const explainedBy = new Map();
const checkLine = logChecker(room);
// The commitment this page was given for each nonce it sent: its own throws, checked.
const myNonces = new Map();

function say(text) {
  $('status').textContent = text;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---- Joining ----

function role() {
  return document.querySelector('input[name="role"]:checked').value;
}

function showSeatsField() {
  $('seats-field').hidden = role() !== 'player';
  if (role() === 'player' && $('passcode').value && !seat.cast) askCast();
}

/** The characters a player may take, from the server (the passcode is asked, as for the
 * room's page): each free one a checkbox, the taken ones said so. */
let castAsked = null;
async function askCast() {
  const passcode = $('passcode').value;
  if (!passcode || role() !== 'player') return;
  const asked = {};
  castAsked = asked;
  $('seats-help').textContent = 'Finding the characters…';
  try {
    const answer = await patientFetch(`/${encodeURIComponent(room)}/cast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ passcode }),
    });
    const body = await answer.json();
    if (castAsked !== asked) return;
    if (!answer.ok) {
      seat.cast = null;
      $('seats').replaceChildren();
      $('seats-help').textContent = `The characters cannot be listed: ${reasonOf(body)}.`;
      return;
    }
    seat.cast = body.characters;
    showCast();
  } catch (err) {
    if (castAsked === asked) $('seats-help').textContent = `The characters cannot be listed: ${err.message}.`;
  }
}

function showCast() {
  const mine = $('name').value.trim();
  const chosen = new Set([...document.querySelectorAll('#seats input:checked')].map((i) => i.value));
  $('seats').replaceChildren(...seat.cast.map((c, i) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `seat-${i}`;
    box.value = c.name;
    const theirs = c.played_by && c.played_by !== mine;
    box.disabled = Boolean(theirs);
    box.checked = !theirs && (chosen.has(c.name) || (Boolean(mine) && c.played_by === mine));
    label.append(box, ` ${c.name}`);
    if (theirs) {
      label.classList.add('taken');
      label.append(` (${c.played_by} plays)`);
    }
    return label;
  }));
  const free = seat.cast.filter((c) => !c.played_by || c.played_by === mine).map((c) => c.name);
  $('seats-help').textContent = free.length
    ? `Free: ${free.join(', ')}.`
    : 'Every character is taken: join as a spectator, or ask the game master.';
}

function chosenSeats() {
  return [...document.querySelectorAll('#seats input:checked')].map((i) => i.value);
}

async function join(event) {
  event.preventDefault();
  const name = $('name').value.trim();
  if (!name) {
    say('Give your name.');
    $('name').focus();
    return;
  }
  if (!$('passcode').value) {
    say('Give the passcode.');
    $('passcode').focus();
    return;
  }
  if (role() === 'player') {
    if (!seat.cast) await askCast();
    const seats = chosenSeats();
    const free = (seat.cast || []).some((c) => !c.played_by || c.played_by === name);
    if (seat.cast && !seats.length && free) {
      say('Choose the character you play.');
      document.querySelector('#seats input:not(:disabled)')?.focus();
      return;
    }
  }
  joinMsg = {
    type: 'join', v: PROTOCOL, room, name, role: role(),
    seats: role() === 'player' ? chosenSeats() : [],
    passcode: $('passcode').value,
  };
  $('join-button').disabled = true;
  say('Joining…');
  connect();
}

let dropped = false;

function connect(delay = 250) {
  const ws = new WebSocket(socketUrl(room));
  socket = ws;
  ws.onopen = () => {
    const key = keyOf(room, joinMsg.name);
    const hello = { ...joinMsg, since: seat.seq };
    if (key) hello.key = key;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    handle(msg);
  };
  ws.onclose = () => {
    if (socket !== ws || leaving) return;
    seat.connected = false;
    if (!seat.joined) {
      $('join-button').disabled = false;
      return;
    }
    // A dropped connection comes back by itself, and asks for what it missed. It is told once,
    // not at every try.
    if (!dropped) {
      dropped = true;
      $('connection').textContent = 'The connection dropped: joining again…';
    }
    setTimeout(() => connect(Math.min(delay * 2, 5000)), delay);
  };
}

function welcomed(msg) {
  commitment = msg.commitment;
  seat.connected = true;
  // What the log held when this page came (or came back) is told at once; what comes after is
  // told when its dice land on the tray.
  telling.goLive(msg.head);
  if (msg.key) keepKey(room, msg.name, msg.key);
  if (dropped) $('connection').textContent = 'Back at the table.';
  dropped = false;
  if (seat.joined) {
    seat.reconnects += 1;
    // A change made while the connection was down was never sent: asked now.
    drafts.reconnected();
    return;
  }
  seat.joined = true;
  seat.joinedAt = msg.head;
  seat.name = msg.name;
  seat.role = msg.role;
  seat.seats = msg.seats;
  document.body.classList.add('joined');
  $('join').hidden = true;
  $('play').hidden = false;
  $('log').hidden = false;
  const as = msg.role === 'player' ? `playing ${msg.seats.join(', ') || 'no one yet'}`
    : msg.role === 'gamemaster' ? 'the game master' : 'watching';
  $('you').textContent = `${msg.name}, ${as}`;
  const thrower = msg.role !== 'spectator';
  // The game master's own hidden roll is seen by the game master alone: one choice, "You alone".
  for (const o of [...$('secrecy').options]) {
    if (msg.role === 'gamemaster' && (o.value === 'gamemaster' || o.value === 'blind')) o.remove();
  }
  $('mode').hidden = !thrower;
  $('secrecy-field').hidden = !thrower;
  $('room-modes').hidden = msg.role !== 'gamemaster';
  $('my-dice').hidden = !thrower;
  if (msg.role === 'player') offerDiceFor(msg.seats);
  applyModes();
  $('move-form').hidden = !thrower;
  $('hand').hidden = !thrower;
  $('tray-hint').textContent = HOW_TO_THROW;
  if (thrower) hintFor(HOW_TO_THROW, 6000);
  setMode('move');
  drafts.ask(null);
  const tray = new URL(`/${encodeURIComponent(room)}/watch`, location.href);
  // In the fragment: the passcode reaches the tray's page, never a request, log or referrer.
  // The turn over the tray's top edge: the dice are framed below it.
  tray.hash = new URLSearchParams({
    passcode: joinMsg.passcode, fill: '1', history: '0', top: '36',
  }).toString();
  $('tray').src = tray.href;
  $('tray').hidden = false;
  $('tray-empty').hidden = true;
  say(`You are at the table in ${room}.`);
  notationOdds.ask($('notation').value);
  // The tray in view, the form under it: nothing scrolls away.
  window.scrollTo(0, 0);
  $('you').focus({ preventScroll: true });
}

function handle(msg) {
  switch (msg.type) {
    case 'welcome':
      welcomed(msg);
      break;
    case 'entry':
      entry(msg.line, msg.shown);
      break;
    case 'ack':
      commitment = msg.commitment;
      seat.acks += 1;
      seat.acked = msg.seq;
      $('throw').disabled = false;
      $('make-move').disabled = false;
      break;
    case 'moves':
      if (drafts.answers(msg.id)) showMoves(msg);
      break;
    case 'pong':
      seat.pongs += 1;
      break;
    case 'draft_odds':
      if (drafts.answers(msg.id)) showMoveOdds(msg);
      break;
    case 'sealed':
      sealed.set(msg.seq, { roll: JSON.parse(msg.payload), salt: msg.salt });
      redraw(msg.seq);
      tellTraySecret(msg.seq);
      break;
    case 'refused':
      seat.refused.push({ code: msg.code, reason: msg.reason });
      $('throw').disabled = false;
      $('make-move').disabled = false;
      say(`Refused: ${msg.reason}`);
      break;
    case 'error':
      // A join the server is too busy to check this moment (a household or a classroom all
      // opening the link at once) is sent again after the wait it names: "joining…", no error.
      if (msg.code === 'busy' && !seat.connected) {
        seat.busy += 1;
        // This socket is done with: its close starts nothing (see onclose).
        const done = socket;
        socket = null;
        done.close();
        say(seat.joined ? 'Joining again…' : 'Joining… the table is letting everyone in.');
        setTimeout(() => connect(), namedWait(msg.retry_after_ms));
        break;
      }
      seat.refused.push({ code: msg.code, reason: msg.message });
      if (!seat.joined) {
        leaving = true;
        socket.close();
        leaving = false;
        $('join-button').disabled = false;
      }
      say(reasonOf(msg));
      break;
    default:
      break;
  }
}

// ---- Throwing ----

/** Sends a throw of `what` (`{ notation }` or `{ move }`), with the hand's swing if any. */
function propose(what, extra = {}, gesture = null) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !commitment) {
    say('Not connected yet: try again in a moment.');
    return false;
  }
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  myNonces.set(nonce, commitment);
  const msg = { type: 'throw', id: nextId++, what, commitment, nonce, ...extra };
  if (gesture) msg.gesture = gesture;
  socket.send(JSON.stringify(msg));
  seat.sent += 1;
  return true;
}
// For the tests: a move as a stale or hand-made page might send it (the server decides), and a
// round trip to the server (whatever was sent before is answered first).
seat.propose = (move) => propose({ move });
seat.ping = () => socket?.send(JSON.stringify({ type: 'ping', id: nextId++ }));

/** The room's roll modes as its game master last set them (a `modes` entry): the mode every
 * form starts at and those players may use. */
const roomModes = { default: 'public', players: ['public', 'gamemaster', 'blind', 'self'] };

/** The "Who sees it" choices as the room's modes allow this member: a player sees only the
 * modes left to players, and the form starts at the room's default where the member may use
 * it. The game master's form shows its own (everyone, or itself alone). */
function applyModes() {
  const gamemaster = seat.role === 'gamemaster';
  for (const o of [...$('secrecy').options]) {
    const allowed = gamemaster || roomModes.players.includes(o.value || 'public');
    o.hidden = !allowed;
    o.disabled = !allowed;
  }
  const start = [...$('secrecy').options].find((o) => !o.disabled && (o.value || 'public') === roomModes.default)
    ?? [...$('secrecy').options].find((o) => !o.disabled);
  if (start) $('secrecy').value = start.value;
  $('modes-default').value = roomModes.default;
  for (const box of document.querySelectorAll('input[name="players-mode"]')) {
    box.checked = roomModes.players.includes(box.value);
  }
}

/** The game master's "Set the roll modes": sent to the server, which logs them. */
function setModes(event) {
  event.preventDefault();
  const players = [...document.querySelectorAll('input[name="players-mode"]:checked')].map((b) => b.value);
  if (socket?.readyState !== WebSocket.OPEN) {
    say('Not connected yet: try again in a moment.');
    return;
  }
  socket.send(JSON.stringify({ type: 'modes', id: nextId++, default: $('modes-default').value, players }));
}
$('modes-form').addEventListener('submit', setModes);

/** "Whose dice": the member's own, and each character it may choose dice for. */
function offerDiceFor(names) {
  const select = $('dice-for');
  const have = [...select.options].map((o) => o.value).slice(1);
  if (have.join('\n') === names.join('\n')) return;
  const chosen = select.value;
  select.replaceChildren(select.options[0], ...names.map((name) => {
    const o = document.createElement('option');
    o.value = name;
    o.textContent = `${name}'s (their moves)`;
    return o;
  }));
  select.value = names.includes(chosen) ? chosen : '';
}

/** "Use these dice" (or, with `look` null, "Back to the room's dice"): sent to the server,
 * which logs the choice; every page draws the member's dice so from then on. */
function chooseDice(look) {
  if (socket?.readyState !== WebSocket.OPEN) {
    say('Not connected yet: try again in a moment.');
    return;
  }
  const character = $('dice-for').value;
  socket.send(JSON.stringify({
    type: 'dice', id: nextId++, ...(character ? { character } : {}), look,
  }));
}
/** The look the picker has now, as the server takes it. */
function pickedLook() {
  const typeface = $('dice-typeface').value;
  return {
    body: $('dice-body').value,
    ink: $('dice-ink').value,
    material: $('dice-material').value,
    ...($('dice-pips').checked ? { pips: true } : {}),
    ...(typeface !== 'sans' ? { typeface } : {}),
  };
}
$('dice-form').addEventListener('submit', (event) => {
  event.preventDefault();
  chooseDice(pickedLook());
});
// The live die: drawn when the picker opens and again at each change, as the table will draw it.
const preview = new DiePreview($('dice-preview'), (words) => {
  $('dice-preview').setAttribute('aria-label', `A d20 and a d6 as they will be drawn: ${words}`);
  $('dice-preview-words').textContent = `As drawn: ${words}.`;
});
function showPreview() {
  if (!$('my-dice').open) return;
  preview.show(pickedLook()).then(() => { seat.preview = preview.state; });
}
$('my-dice').addEventListener('toggle', showPreview);
// A colour dragged through the picker asks the server for one look where it stops, not one
// atlas for every colour it passes.
let previewSoon = null;
$('dice-form').addEventListener('input', () => {
  clearTimeout(previewSoon);
  previewSoon = setTimeout(showPreview, 200);
});
$('room-dice').addEventListener('click', () => chooseDice(null));

/** Who sees the next throw, as the proposal carries it: nothing for everyone at once. */
function secrecy() {
  const mode = $('secrecy').value;
  return mode ? { hidden: true, mode } : {};
}

function throwNotation(gesture) {
  const notation = $('notation').value.trim();
  if (!notation) {
    say('Write the dice to throw, such as 2d6+1.');
    $('notation').focus();
    return;
  }
  const extra = secrecy();
  const label = $('label').value.trim();
  if (label) extra.label = label;
  if (propose({ notation }, extra, gesture)) {
    $('throw').disabled = true;
    say(`Throwing ${notation}…`);
  }
}

function makeMove(gesture) {
  const m = seat.moves;
  if (!m) {
    say('The moves are still coming from the server.');
    return;
  }
  // Even a move the rules refuse goes to the server, which says why (the page never decides).
  if (propose({ move: m.draft }, secrecy(), gesture)) {
    $('make-move').disabled = true;
    say(`${m.describe}…`);
  }
}

/** Throws what the form on screen shows: the drafted move, or the notation being written;
 * from the button or a key (no gesture), tossed across the tray. */
function throwDrafted(event, gesture = null) {
  event?.preventDefault();
  if (!seat.joined || seat.role === 'spectator') return;
  const swing = gesture ?? toss();
  if (seat.drafting === 'move') makeMove(swing);
  else throwNotation(swing);
}

/** The swing of a throw from a button or a key: tossed across the tray, its place and heading
 * drawn from the browser's cryptographic generator. */
function toss() {
  return tossSwing(TRAY, () => crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32);
}

function reveal(of) {
  if (socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: 'reveal', id: nextId++, of }));
  }
}

/** The game master's end of a session: every hidden roll not yet revealed shown to all. */
function revealAll() {
  if (socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: 'reveal_all', id: nextId++ }));
  }
}
$('reveal-all').addEventListener('click', revealAll);

/** Offers the game master "Reveal all N hidden rolls" while any is still sealed. */
function offerRevealAll() {
  const revealed = new Set(seat.entries.filter((x) => x.event.kind === 'revealed').map((x) => x.event.of));
  const sealedLeft = seat.entries.filter((x) => x.event.kind === 'hidden' && !revealed.has(x.seq)).length;
  const button = $('reveal-all');
  button.hidden = seat.role !== 'gamemaster' || sealedLeft === 0;
  button.textContent = `Reveal all ${sealedLeft} hidden roll${sealedLeft === 1 ? '' : 's'}`;
}

/** Shows the form of `mode` ('move' or 'notation'): what the tray throws from now on. */
function setMode(mode) {
  seat.drafting = mode;
  for (const r of document.querySelectorAll('input[name="mode"]')) r.checked = r.value === mode;
  $('move-form').hidden = mode !== 'move' || seat.role === 'spectator';
  $('free-roll').hidden = mode !== 'notation' || seat.role === 'spectator';
  nameHand();
}

/** The tray's button says what Space, Enter or a flick throws now. */
function nameHand() {
  const what = seat.drafting === 'move'
    ? (seat.moves ? `the move: ${seat.moves.describe}` : 'the move')
    : `the free roll: ${$('notation').value.trim() || 'no dice yet'}`;
  $('hand').setAttribute('aria-label', `Throw ${what}`);
}

let hintTimer = null;
/** Says over the tray for a while how to throw, or why a gesture threw nothing. */
function hintFor(text, ms = 3500) {
  $('tray-hint').textContent = text;
  $('tray-hint').hidden = false;
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => { $('tray-hint').hidden = true; }, ms);
}

// ---- The odds of what is drafted (worked out by the server, never waited on) ----

function showOdds(odds, where = 'odds') {
  drawOdds(odds, $(`${where}-chart`), $(`${where}-text`));
}

// The free roll's odds, asked as the notation is written.
const notationOdds = new NotationOdds({
  show: {
    clear: () => {
      $('odds-text').textContent = '';
      $('odds-chart').replaceChildren();
    },
    slow: (notation) => { $('odds-text').textContent = `Working out the odds of ${notation}…`; },
    estimate: (body) => {
      showOdds({ ...body, title: `≈ ${body.title}` });
      $('odds-text').textContent += ` (≈: from ${body.samples} rolls on paper; every cumulative ` +
        `chance within ±${(100 * body.error).toFixed(1)}%, 99.9% sure; exact odds coming)`;
    },
    exact: (body) => showOdds(body),
    failed: (reason) => {
      $('odds-chart').replaceChildren();
      $('odds-text').textContent = reason;
    },
  },
  // A household's pages asking at once may find the address's share busy: asked again.
  fetch: patientFetch,
});

$('notation').addEventListener('input', () => {
  nameHand();
  notationOdds.typed($('notation').value);
});

// ---- The moves of the scene (the rules' catalogue, rendered; the server decides) ----

// Which draft the form waits for, what this member changed, and asking again as the table moves.
const drafts = new DraftAsker({
  send: (draft) => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return null;
    const id = nextId++;
    socket.send(JSON.stringify({ type: 'draft', id, ...draft }));
    remember({ asked: id, fresh: draft.fresh, what: JSON.stringify(draft.what ?? null).slice(0, 80) });
    return id;
  },
  current: () => (seat.joined && seat.moves ? seat.moves.draft : null),
});

function changed(field, value) {
  const move = structuredClone(seat.moves.draft);
  setPath(move, field.path, value);
  drafts.change(move);
}

/** The characters among `acting` whose turn is this member's to play. */
function mineOf(acting) {
  return seat.role === 'gamemaster' ? acting : acting.filter((n) => seat.seats.includes(n));
}

function showTracker(t) {
  if (!t) return;
  // The game master chooses dice for any character of the scene.
  if (seat.role === 'gamemaster') offerDiceFor(t.rows.map((r) => r.name));
  $('turn').textContent = t.heading;
  $('turn-badge').textContent = t.heading;
  $('turn-badge').hidden = !t.heading;
  $('tracker-rows').replaceChildren(...t.rows.map((r) => {
    const li = document.createElement('li');
    if (r.acting) li.className = 'acting';
    const name = document.createElement('strong');
    name.textContent = `${r.acting ? '▶ ' : ''}${r.name}`;
    li.append(name, ` ${r.status.join(' · ')}`);
    return li;
  }));
  $('tracker-notes').textContent = t.notes.join(' · ');
  $('tracker').hidden = false;
}

/** Keeps the last few steps of the form's conversation in `seat.trail`. */
function remember(step) {
  seat.trail.push({ at: Math.round(now()), ...step });
  if (seat.trail.length > 40) seat.trail.shift();
}

function showMoves(m) {
  remember({ answered: m.id, kind: m.kind, refused: Boolean(m.refused) });
  if (!drafts.shown(m, mineOf)) return;
  showTracker(m.tracker);
  seat.moves = m;
  seat.moveOdds = null;
  // The control in focus keeps the focus when the form is drawn again, and the page does not
  // scroll to it.
  const focused = document.activeElement;
  const focusKey = focused?.closest('#move-fields [data-key]')?.dataset.key;
  const focusIndex = focused?.id?.match(/-(\d+)$/)?.[1];
  const kind = $('move-kind');
  kind.replaceChildren(...m.kinds.map((k, i) => new Option(
    k.refused ? `${k.label} (not now)` : k.label, String(i), false, i === m.kind,
  )));
  const current = m.kinds[m.kind];
  $('move-hint').textContent = current ? current.hint : '';
  const fields = m.fields.map((f, i) => fieldControl(f, i, changed));
  $('move-fields').replaceChildren(...fields);
  if (focusKey) {
    const again = [...$('move-fields').querySelectorAll('[data-key]')].find((d) => d.dataset.key === focusKey);
    const inputs = again?.querySelectorAll('input, select') || [];
    const target = inputs.length > 1 && focusIndex !== undefined
      ? [...inputs].find((x) => x.id.endsWith(`-${focusIndex}`)) || inputs[0] : inputs[0];
    target?.focus({ preventScroll: true });
  }
  const verdict = $('move-verdict');
  if (m.refused) {
    verdict.textContent = `Not now: ${m.refused.reason}`;
    verdict.className = 'verdict refused';
  } else {
    verdict.textContent = `Allowed: ${m.describe}`;
    verdict.className = 'verdict';
  }
  $('move-odds-chart').replaceChildren();
  $('move-odds-text').textContent = m.refused ? '' : `Working out the odds of ${m.describe}…`;
  nameHand();
  seat.movesAt = now();
  const turn = drafts.turnArrived();
  if (turn) yourTurn(turn);
}

/** The turn came to this member's characters: the page says so, the form on screen is their
 * move, and the tray (where Space or a flick throws it) has the focus. */
function yourTurn(names) {
  setMode('move');
  seat.turns += 1;
  say(`Your turn: ${names.join(' and ')}. Flick across the felt or press Space to throw the move.`);
  $('hand').focus({ preventScroll: true });
}

function showMoveOdds(msg) {
  seat.moveOdds = msg;
  if (msg.odds) {
    // Led by the chance that matters: success, or every outcome with its exact chance.
    drawOdds(msg.odds, $('move-odds-chart'), $('move-odds-text'), moveOddsWords);
    drawBands(msg.odds, $('move-odds-bands'), $('move-odds-legend'));
  } else {
    $('move-odds-chart').replaceChildren();
    drawBands({}, $('move-odds-bands'), $('move-odds-legend'));
    $('move-odds-text').textContent = msg.error || 'This move throws no dice.';
  }
}

$('move-kind').addEventListener('change', () => {
  const k = seat.moves?.kinds[Number($('move-kind').value)];
  if (!k) return;
  drafts.change(k.template);
});
$('move-form').addEventListener('submit', (event) => {
  event.preventDefault();
  setMode('move');
  makeMove(toss());
});
for (const r of document.querySelectorAll('input[name="mode"]')) {
  r.addEventListener('change', () => { if (r.checked) setMode(r.value); });
}

// ---- The hand: a flick across the tray throws; a tap or a vertical swipe does not ----

const HOW_TO_THROW = 'Flick across the felt to throw, or press Space';

attachHand($('hand'), {
  tray: TRAY,
  enabled: () => seat.joined && seat.role !== 'spectator',
  onFlick: (swing) => {
    seat.lastSwing = swing;
    throwDrafted(null, swing);
  },
  onMiss: (g) => {
    seat.misses[g.kind] = (seat.misses[g.kind] || 0) + 1;
    hintFor(g.kind === 'tap'
      ? 'A tap throws nothing: flick across the felt'
      : 'Too gentle to throw: flick faster');
  },
});
$('hand').addEventListener('keydown', (k) => {
  if (k.key === ' ' || k.key === 'Enter') throwDrafted(k);
});

// ---- The log: kept as it comes, told as the tray shows it ----

/** Entry `e` in words, with what this page knows of it (`entries.js`). */
function describe(e, seq) {
  return describeEntry(e, {
    rolled: rolledText.get(seq),
    explained: explainedBy.get(seq),
    mine: sealed.get(seq)?.roll,
    entries: seat.entries,
    name: seat.name,
    gamemaster: seat.role === 'gamemaster',
  });
}

/** Tells the tray (its card) hidden roll `seq` as this member may see it: the feed the tray
 * follows never carries it. */
function tellTraySecret(seq) {
  const { roll, salt } = sealed.get(seq) ?? {};
  const entry = seat.entries.find((x) => x.seq === seq);
  if (!roll || !entry) return;
  const mode = entry.event.mode || 'self';
  $('tray').contentWindow?.postMessage({
    type: 'secret',
    roll: seq,
    total: roll.record.total,
    outcome: roll.record.outcome,
    // A hidden move's card names the move (sealed with it), as a public move's does.
    label: roll.record.label || roll.record.what?.action,
    salt,
    how: HOW[mode],
    sees: whoSees(mode, entry.event.by, { gamemaster: seat.role === 'gamemaster' }),
  }, location.origin);
}

function draw(e) {
  const seq = e.seq;
  const d = describe(e, seq);
  const li = items.get(seq) || document.createElement('li');
  li.replaceChildren();
  const head = document.createElement('span');
  head.textContent = `#${seq} ${d.text}`;
  li.append(head);
  if (d.working && (d.working.lines.length || d.working.tags.length)) {
    // The rules' working, as the window shows it: each step, then what it triggers.
    const working = document.createElement('span');
    working.className = 'working';
    working.textContent = ` ${d.working.lines.join(' · ')}`;
    for (const tag of d.working.tags) {
      const b = document.createElement('strong');
      b.textContent = ` ${tag}`;
      working.append(b);
    }
    li.append(working);
  }
  if (d.rolled) {
    const rolled = document.createElement('span');
    rolled.className = 'rolled';
    rolled.append(' rolled ', writtenOut(d.rolled));
    li.append(rolled);
  }
  if (d.faces) {
    const faces = document.createElement('span');
    faces.className = 'faces';
    faces.textContent = ` faces ${d.faces.map((t) => t.join(' ')).join(' | ')}`;
    li.append(faces);
  }
  if (d.said?.length) {
    const said = document.createElement('span');
    said.className = 'said';
    said.textContent = ` ${d.said.join('; ')}`;
    li.append(said);
  }
  // The checks and the replay code, for whoever wants them: in a details view, so the line
  // reads as what happened. An entry that fails its check says so on the line itself.
  const checked = checks.get(seq);
  if (checked || codes.has(seq)) {
    const proof = document.createElement('details');
    proof.className = checked && !checked.ok ? 'proof bad' : 'proof';
    const summary = document.createElement('summary');
    summary.textContent = checked && !checked.ok ? '✗ NOT as logged' : '✓ checked';
    summary.setAttribute('aria-label', checked && !checked.ok
      ? `Entry ${seq} is NOT as logged: details` : `How entry ${seq} was checked`);
    proof.append(summary);
    if (checked) {
      const mark = document.createElement('span');
      mark.className = checked.ok ? 'checked' : 'unchecked';
      mark.textContent = checked.ok ? ` ✓ checked here: ${checked.what}` : ` ✗ NOT as logged: ${checked.what}`;
      proof.append(mark);
    }
    if (codes.has(seq)) {
      const code = document.createElement('code');
      code.className = 'code';
      code.textContent = codes.get(seq);
      code.title = 'The replay code: `dicetable replay CODE` throws it again';
      proof.append(' Replay code: ', code);
    }
    li.append(' ', proof);
  }
  if (d.reveal) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Reveal';
    button.setAttribute('aria-label', `Reveal hidden roll ${seq}`);
    button.addEventListener('click', () => reveal(seq));
    li.append(' ', button);
  }
  if (!items.has(seq)) {
    items.set(seq, li);
    $('history').prepend(li);
  }
  return d;
}

function redraw(seq) {
  if (!items.has(seq)) return;
  const e = seat.entries.find((x) => x.seq === seq);
  if (e) draw(e);
}

// The log is told in order, a live throw once its dice have landed on the tray (tray-queue.js).
const telling = new TrayQueue(tell);

/** Every line of the room's log this page was sent, exactly as sent: the player's own copy. */
const lines = [];

/** Saves the log this page holds as `ROOM.jsonl`: `dicetable verify ROOM.jsonl` checks it
 * (the chain, every seed, every throw again), and a hidden roll this member may not see is in
 * it only as its seal. */
function saveLog() {
  const file = new Blob(lines.map((l) => `${l}\n`), { type: 'application/x-ndjson' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = `${room}.jsonl`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  say(`The room's log saved: ${lines.length} entries, as ${room}.jsonl`);
}
$('save-log').addEventListener('click', saveLog);

function entry(line, shown) {
  let e;
  try {
    e = JSON.parse(line);
  } catch {
    return;
  }
  if (e.seq <= seat.seq) return;
  seat.seq = e.seq;
  seat.entries.push(e);
  lines.push(line);
  // A hidden roll's content may come before its line (the two travel apart): the tray is
  // handed it once both are here.
  if (e.event?.kind === 'hidden' && sealed.has(e.seq)) tellTraySecret(e.seq);
  if (e.event?.kind === 'modes') {
    roomModes.default = e.event.default;
    roomModes.players = e.event.players;
    if (seat.joined) applyModes();
  }
  seat.arrived[e.seq] = now();
  if (typeof shown === 'string') rolledText.set(e.seq, shown);
  const verdict = checkLine(line, e, (nonce) => myNonces.get(nonce));
  checks.set(e.seq, verdict);
  if (verdict.ok) seat.checked += 1;
  else seat.unchecked.push({ seq: e.seq, what: verdict.what });
  telling.push(e);
}

/** Tells an entry: its history line, the heading, the announcement, and the form follows. */
function tell(e) {
  const d = draw(e);
  seat.told[e.seq] = now();
  remember({ told: e.seq });
  if (d.title) $('heading').textContent = d.title;
  const ev = e.event;
  if (ev.kind === 'revealed') redraw(ev.of);
  if (ev.kind === 'revealed' || ev.kind === 'hidden') offerRevealAll();
  // What the table just did, for everyone and for screen readers.
  if (d.outcome || ['hidden', 'revealed', 'played'].includes(ev.kind)) {
    const full = inFull(explainedBy.get(e.seq));
    seat.lastOutcome = full ? `${d.text}. ${full}` : d.text;
    if (e.seq > seat.joinedAt) say(seat.lastOutcome);
  }
  // After this member's own move, the form offers what it may do next (a game master's End
  // turn never stays drafted); after anyone else's, the draft is asked again, giving way to one
  // the table allows. Asked once for a run of entries (a page catching up).
  const mine = ev.by === seat.name && (ev.kind === 'played' || (ev.kind === 'thrown' && ev.what?.move)
    || (ev.kind === 'hidden' && !ev.notation));
  drafts.tableMoved(Boolean(mine));
}

// ---- The tray: what it shows, as it shows it ----

/** The scene's line: the room, the scene and the game played (a system file by its own name),
 * and below it what is going on and how the game resolves it. */
function showTable(table) {
  if (!table.ruleset) return;
  const game = table.game ? `${table.game} (a system file)` : `the ${table.ruleset} rules`;
  $('scene-line').textContent = `Room ${room}${table.scene ? `: ${table.scene}` : ''}, playing ${game}`;
  $('scene-about').textContent = table.about || '';
  $('scene-about').hidden = !table.about;
}

window.addEventListener('message', (m) => {
  if (m.origin !== location.origin || !m.data || typeof m.data !== 'object') return;
  const e = m.data;
  if (e.type === 'table') {
    showTable(e);
  } else if (e.type === 'hello') {
    if (e.table) showTable(e.table);
    const recent = e.recent || [];
    for (const o of recent) {
      codes.set(o.roll, o.code);
      if (o.explained) explainedBy.set(o.roll, o.explained);
      redraw(o.roll);
    }
    telling.shownOnTray(...recent.map((o) => o.roll));
  } else if (e.type === 'playing') {
    // The dice are in the air: their outcome is due when they land.
    telling.flying(e.roll, e.ms);
  } else if (e.type === 'outcome') {
    codes.set(e.roll, e.code);
    if (e.explained) explainedBy.set(e.roll, e.explained);
    redraw(e.roll);
    telling.shownOnTray(e.roll);
  } else if (e.type === 'hidden') {
    telling.shownOnTray(e.roll);
    tellTraySecret(e.roll);
  }
});

// ---- Controls ----

for (const r of document.querySelectorAll('input[name="role"]')) r.addEventListener('change', showSeatsField);
$('passcode').addEventListener('change', () => { seat.cast = null; askCast(); });
$('name').addEventListener('input', () => { if (seat.cast) showCast(); });
$('join').addEventListener('submit', join);
$('free-roll').addEventListener('submit', (event) => {
  event.preventDefault();
  setMode('notation');
  throwNotation(toss());
});

$('heading').textContent = room ? `Room ${room}` : 'dicetable';
document.title = `${room} · dicetable`;
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.has('gamemaster')) {
  document.querySelector('input[value="gamemaster"]').checked = true;
  $('name').value = hash.get('gamemaster');
}
showSeatsField();
