// A room's page: a seat at the table in the browser. The page only draws and asks: it joins
// over the room's WebSocket (the protocol the window speaks), proposes throws with the
// commitment the server gave it and a nonce of its own, and shows the room's log as the server
// stores it. The tray is the room's watch page (the overlay's renderer, dice exactly as the
// server threw them), on felt; it tells this page what its feed says (the turn, each roll's
// replay code).

import { PROTOCOL, socketUrl, keyOf, keepKey, reasonOf } from '/common.js';
import { writtenOut } from '/written.js';
import { logChecker } from '/check.js';

const $ = (id) => document.getElementById(id);
const room = decodeURIComponent(location.pathname.split('/')[1] || '');

/** What the page has done, for the tests to read. */
const seat = {
  joined: false,
  connected: false,
  name: null,
  role: null,
  seq: 0,
  entries: [],
  acks: 0,
  refused: [],
  reconnects: 0,
  lastOutcome: null,
  // Lines this page checked itself (chain, seeds, seals), and what failed.
  checked: 0,
  unchecked: [],
  // The latest move catalogue and draft the server sent, and the draft's odds.
  moves: null,
  moveOdds: null,
  // What Space or Enter throws: 'move' or 'notation'.
  drafting: 'notation',
};
window.seat = seat;

let socket = null;
let commitment = null;
let joinMsg = null;
let nextId = 1;
let leaving = false;
const sealed = new Map();
const codes = new Map();
const items = new Map();
const checks = new Map();
// A free roll's dice written out, as the server read the line (struck rerolls, explosions,
// successes): shown with the entry, never checked in its place.
const rolledText = new Map();
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
}

function join(event) {
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
  const seats = role() === 'player'
    ? $('seats').value.split(',').map((s) => s.trim()).filter(Boolean)
    : [];
  joinMsg = {
    type: 'join', v: PROTOCOL, room, name, role: role(), seats,
    passcode: $('passcode').value,
  };
  $('join-button').disabled = true;
  say('Joining…');
  connect();
}

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
    // A dropped connection comes back by itself, and asks for what it missed.
    $('connection').textContent = 'The connection dropped: joining again…';
    setTimeout(() => connect(Math.min(delay * 2, 5000)), delay);
  };
}

function welcomed(msg) {
  commitment = msg.commitment;
  seat.connected = true;
  if (msg.key) keepKey(room, msg.name, msg.key);
  $('connection').textContent = '';
  if (seat.joined) {
    seat.reconnects += 1;
    return;
  }
  seat.joined = true;
  seat.name = msg.name;
  seat.role = msg.role;
  $('join').hidden = true;
  $('play').hidden = false;
  $('log').hidden = false;
  const as = msg.role === 'player' ? `playing ${msg.seats.join(', ') || 'no one yet'}`
    : msg.role === 'gamemaster' ? 'the game master' : 'watching';
  $('you').textContent = `${msg.name}, ${as}`;
  $('hidden-field').hidden = msg.role !== 'gamemaster';
  $('free-roll').hidden = msg.role === 'spectator';
  $('move-form').hidden = msg.role === 'spectator';
  $('hand').hidden = msg.role === 'spectator';
  askDraft(null, false);
  const tray = new URL(`/${encodeURIComponent(room)}/watch`, location.href);
  tray.searchParams.set('passcode', joinMsg.passcode);
  tray.searchParams.set('fill', '1');
  tray.searchParams.set('history', '0');
  $('tray').src = tray.href;
  $('tray').hidden = false;
  $('tray-empty').hidden = true;
  say(`You are at the table in ${room}.`);
  askOdds();
  $('you').focus();
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
      $('throw').disabled = false;
      $('make-move').disabled = false;
      break;
    case 'moves':
      if (msg.id === draftAsked) showMoves(msg);
      break;
    case 'draft_odds':
      if (msg.id === draftAsked) showMoveOdds(msg);
      break;
    case 'sealed':
      sealed.set(msg.seq, JSON.parse(msg.payload));
      redraw(msg.seq);
      break;
    case 'refused':
      seat.refused.push({ code: msg.code, reason: msg.reason });
      $('throw').disabled = false;
      $('make-move').disabled = false;
      say(`Refused: ${msg.reason}`);
      break;
    case 'error':
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
  return true;
}
// For the tests: a move as a stale or hand-made page might send it (the server decides).
seat.propose = (move) => propose({ move });

function throwNotation(gesture) {
  const notation = $('notation').value.trim();
  if (!notation) {
    say('Write the dice to throw, such as 2d6+1.');
    $('notation').focus();
    return;
  }
  const extra = { hidden: seat.role === 'gamemaster' && $('hidden-roll').checked };
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
  if (propose({ move: m.draft }, {}, gesture)) {
    $('make-move').disabled = true;
    say(`${m.describe}…`);
  }
}

/** Throws what was drafted last: the move or the notation. */
function throwDrafted(event, gesture = null) {
  event?.preventDefault();
  if (!seat.joined || seat.role === 'spectator') return;
  if (seat.drafting === 'move') makeMove(gesture);
  else throwNotation(gesture);
}

function reveal(of) {
  if (socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: 'reveal', id: nextId++, of }));
  }
}

// ---- The odds of what is drafted (worked out by the server, never waited on) ----

let oddsAsked = null;
let oddsTimer = null;

function showOdds(odds, where = 'odds') {
  const dist = odds.distribution || [];
  const chart = $(`${where}-chart`);
  chart.replaceChildren();
  if (!dist.length) return;
  const lo = dist[0].value;
  const hi = dist[dist.length - 1].value;
  const top = Math.max(...dist.map((d) => d.p));
  // At most 60 bars: a wide range is shown by its likelier part.
  const shown = dist.length > 60 ? dist.filter((d) => d.p >= top / 200).slice(0, 60) : dist;
  for (const d of shown) {
    const bar = document.createElement('span');
    bar.style.height = `${Math.max(2, (100 * d.p) / top)}%`;
    if (odds.target !== undefined && d.value >= odds.target) bar.className = 'pass';
    bar.title = `${d.value}: ${(100 * d.p).toFixed(2)}%`;
    chart.append(bar);
  }
  const likeliest = dist.reduce((a, b) => (b.p > a.p ? b : a));
  let text = `${odds.title}: ${lo} to ${hi}${odds.truncated?.p > 0 ? '+' : ''}, average ` +
    `${odds.mean.toFixed(2)}, most often ${likeliest.value} (${(100 * likeliest.p).toFixed(1)}%)`;
  if (odds.p_success !== undefined) text += `; success ${(100 * odds.p_success).toFixed(1)}%`;
  $(`${where}-text`).textContent = text;
  chart.setAttribute('aria-label', `The chance of each total: ${text}`);
}

function askOdds() {
  const notation = $('notation').value.trim();
  oddsAsked?.abort();
  clearTimeout(oddsTimer);
  if (!notation) {
    $('odds-text').textContent = '';
    $('odds-chart').replaceChildren();
    return;
  }
  const asked = new AbortController();
  oddsAsked = asked;
  let exact = false;
  // Only a slow answer says it is coming; the page goes on meanwhile.
  oddsTimer = setTimeout(() => { $('odds-text').textContent = `Working out the odds of ${notation}…`; }, 200);
  const query = encodeURIComponent(notation);
  // A quick estimate (≈) within 50 ms, replaced by the exact odds when they come.
  fetch(`/api/odds?notation=${query}&estimate=1`, { signal: asked.signal })
    .then((answer) => (answer.ok ? answer.json() : null))
    .then((body) => {
      if (asked !== oddsAsked || exact || !body) return;
      clearTimeout(oddsTimer);
      showOdds({ ...body, title: `≈ ${body.title}` });
      $('odds-text').textContent += ` (≈: from ${body.samples} rolls on paper; every cumulative ` +
        `chance within ±${(100 * body.error).toFixed(1)}%, 99.9% sure; exact odds coming)`;
    })
    .catch(() => {});
  fetch(`/api/odds?notation=${query}`, { signal: asked.signal })
    .then(async (answer) => ({ ok: answer.ok, body: await answer.json() }))
    .then(({ ok, body }) => {
      if (asked !== oddsAsked) return;
      exact = true;
      clearTimeout(oddsTimer);
      if (ok) {
        showOdds(body);
      } else {
        $('odds-chart').replaceChildren();
        $('odds-text').textContent = (body.error || '').split('\n')[0];
      }
    })
    .catch(() => {});
}

let oddsDebounce = null;
$('notation').addEventListener('input', () => {
  clearTimeout(oddsDebounce);
  oddsDebounce = setTimeout(askOdds, 150);
});

// ---- The moves of the scene (the rules' catalogue, rendered; the server decides) ----

let draftAsked = 0;
let draftTimer = null;

/** Asks the server for the catalogue and its verdict on `move` (null: the first allowed). */
function askDraft(move, fresh) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  draftAsked = nextId++;
  const msg = { type: 'draft', id: draftAsked, fresh };
  if (move) msg.what = move;
  socket.send(JSON.stringify(msg));
}

/** Puts `value` at `path` in a move's JSON (a number is a place in a list). */
function setPath(json, path, value) {
  let at = json;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key];
  }
  at[path[path.length - 1]] = value;
}

function changed(field, value) {
  const move = structuredClone(seat.moves.draft);
  setPath(move, field.path, value);
  seat.drafting = 'move';
  askDraft(move, false);
}

const fieldKey = (f) => `${f.path.join('/')}|${f.label}`;

function fieldControl(f, i) {
  const id = `move-field-${i}`;
  const wrap = document.createElement('div');
  wrap.dataset.key = fieldKey(f);
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = f.label;
  switch (f.input) {
    case 'choice': {
      const select = document.createElement('select');
      select.id = id;
      if (f.selected === null || f.selected === undefined) {
        select.append(new Option('(choose)', '', true, true));
      }
      f.options.forEach((o, k) => select.append(new Option(o.label, String(k), false, k === f.selected)));
      select.addEventListener('change', () => {
        const o = f.options[Number(select.value)];
        if (o) changed(f, o.value);
      });
      wrap.append(label, select);
      break;
    }
    case 'number': {
      const input = document.createElement('input');
      input.type = 'number';
      input.id = id;
      input.min = String(f.min);
      input.max = String(f.max);
      input.step = '1';
      input.value = f.value === null || f.value === undefined ? '' : String(f.value);
      input.addEventListener('change', () => {
        const text = input.value.trim();
        if (text === '' && f.optional) changed(f, null);
        else if (/^-?\d+$/.test(text)) changed(f, Number(text));
      });
      wrap.append(label, input);
      break;
    }
    case 'flag': {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = id;
      box.checked = f.value;
      box.addEventListener('change', () => changed(f, box.checked));
      label.prepend(box, ' ');
      label.style.fontWeight = 'normal';
      wrap.append(label);
      break;
    }
    case 'tally': {
      const set = document.createElement('fieldset');
      set.className = 'tally';
      const legend = document.createElement('legend');
      legend.textContent = f.label;
      set.append(legend);
      const counts = [...f.counts];
      const value = () => f.options.flatMap((o, k) => Array(counts[k]).fill(o.value));
      f.options.forEach((o, k) => {
        const l = document.createElement('label');
        const input = document.createElement('input');
        input.id = `${id}-${k}`;
        if (f.max === 1) {
          input.type = 'checkbox';
          input.checked = counts[k] > 0;
          input.addEventListener('change', () => { counts[k] = input.checked ? 1 : 0; changed(f, value()); });
          l.append(input, ` ${o.label}`);
        } else {
          input.type = 'number';
          input.min = '0';
          input.max = String(f.max);
          input.value = String(counts[k]);
          input.addEventListener('change', () => {
            const n = Number(input.value);
            if (Number.isInteger(n) && n >= 0 && n <= f.max) { counts[k] = n; changed(f, value()); }
          });
          l.append(`${o.label} `, input);
        }
        set.append(l);
      });
      wrap.append(set);
      break;
    }
    case 'words': {
      const input = document.createElement('input');
      input.id = id;
      input.value = f.value.join(', ');
      input.placeholder = f.hint;
      input.addEventListener('change', () => {
        changed(f, input.value.split(',').map((w) => w.trim()).filter(Boolean));
      });
      wrap.append(label, input);
      break;
    }
    default: {
      const p = document.createElement('p');
      p.className = 'help';
      p.textContent = f.text;
      wrap.append(p);
    }
  }
  return wrap;
}

function showTracker(t) {
  if (!t) return;
  $('turn').textContent = t.heading;
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

function showMoves(m) {
  showTracker(m.tracker);
  seat.moves = m;
  seat.moveOdds = null;
  // The control in focus keeps the focus when the form is drawn again.
  const focused = document.activeElement;
  const focusKey = focused?.closest('#move-fields [data-key]')?.dataset.key;
  const focusIndex = focused?.id?.match(/-(\d+)$/)?.[1];
  const kind = $('move-kind');
  kind.replaceChildren(...m.kinds.map((k, i) => new Option(
    k.refused ? `${k.label} (not now)` : k.label, String(i), false, i === m.kind,
  )));
  const current = m.kinds[m.kind];
  $('move-hint').textContent = current ? current.hint : '';
  const fields = m.fields.map(fieldControl);
  $('move-fields').replaceChildren(...fields);
  if (focusKey) {
    const again = [...$('move-fields').querySelectorAll('[data-key]')].find((d) => d.dataset.key === focusKey);
    const inputs = again?.querySelectorAll('input, select') || [];
    const target = inputs.length > 1 && focusIndex !== undefined
      ? [...inputs].find((x) => x.id.endsWith(`-${focusIndex}`)) || inputs[0] : inputs[0];
    target?.focus();
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
}

function showMoveOdds(msg) {
  seat.moveOdds = msg;
  if (msg.odds) {
    showOdds(msg.odds, 'move-odds');
  } else {
    $('move-odds-chart').replaceChildren();
    $('move-odds-text').textContent = msg.error || 'This move throws no dice.';
  }
}

$('move-kind').addEventListener('change', () => {
  const k = seat.moves?.kinds[Number($('move-kind').value)];
  if (!k) return;
  seat.drafting = 'move';
  askDraft(k.template, false);
});
$('move-form').addEventListener('submit', (event) => {
  event.preventDefault();
  seat.drafting = 'move';
  makeMove(null);
});
$('move-form').addEventListener('focusin', () => { seat.drafting = 'move'; });
$('free-roll').addEventListener('focusin', () => { seat.drafting = 'notation'; });

// ---- The hand: press on the tray, drag and let go to throw with a flick ----

/** The tray as the hand sees it, cm: its felt, how far from the middle a hand may open (along,
 * across), the hand's height, and the slowest and fastest flick (as the window's hand). */
const TRAY = { width: 28, depth: 20, reach: [7.5, 2], height: 16, speed: [45, 170] };
const FLICK_WINDOW = 0.1;
let handPath = null;

function handAt(event) {
  const r = $('hand').getBoundingClientRect();
  return [
    performance.now() / 1000,
    ((event.clientX - r.left) / r.width - 0.5) * TRAY.width,
    ((event.clientY - r.top) / r.height - 0.5) * TRAY.depth,
  ];
}

const round2 = (x) => Math.round(x * 100) / 100;

/** The swing of the hand's path: released where it let go (kept within reach), at the flick's
 * velocity along the felt, slightly downwards; a still hand tosses towards the middle. */
function swingOf(path) {
  const [t1, x1, z1] = path[path.length - 1];
  const [t0, x0, z0] = path.find(([t]) => t1 - t <= FLICK_WINDOW) || path[path.length - 1];
  const dt = t1 - t0;
  let [vx, vz] = dt > 0 ? [(x1 - x0) / dt, (z1 - z0) / dt] : [0, 0];
  let speed = Math.hypot(vx, vz);
  if (speed <= 1) {
    [vx, vz] = Math.hypot(x1, z1) > 0 ? [-x1, -z1] : [1, 0];
    speed = Math.hypot(vx, vz);
  }
  const [lo, hi] = TRAY.speed;
  const s = Math.min(Math.max(speed, lo), hi) / speed;
  const clamp = (v, r) => Math.min(Math.max(v, -r), r);
  return {
    release: [round2(clamp(x1, TRAY.reach[0])), TRAY.height, round2(clamp(z1, TRAY.reach[1]))],
    velocity: [round2(vx * s), -15, round2(vz * s)],
  };
}

$('hand').addEventListener('pointerdown', (event) => {
  if (!seat.joined || seat.role === 'spectator') return;
  event.preventDefault();
  $('hand').setPointerCapture(event.pointerId);
  $('hand').classList.add('holding');
  handPath = [handAt(event)];
});
$('hand').addEventListener('pointermove', (event) => {
  if (!handPath) return;
  handPath.push(handAt(event));
  if (handPath.length > 64) handPath.shift();
});
$('hand').addEventListener('pointerup', (event) => {
  if (!handPath) return;
  handPath.push(handAt(event));
  const swing = swingOf(handPath);
  handPath = null;
  $('hand').classList.remove('holding');
  seat.lastSwing = swing;
  throwDrafted(null, swing);
});
$('hand').addEventListener('pointercancel', () => {
  handPath = null;
  $('hand').classList.remove('holding');
});

// ---- The log ----

function what(record) {
  return record.label || record.what.action || record.what.notation || 'a roll';
}

function result(record) {
  const total = record.total === null || record.total === undefined ? '' : ` → ${record.total}`;
  return `${total}${record.outcome ? ` (${record.outcome})` : ''}`;
}

function describe(e, seq) {
  const ev = e.event;
  switch (ev.kind) {
    case 'created': {
      const title = /name:\s*"([^"]*)"/.exec(ev.scene)?.[1] || 'a scene';
      return { text: `${ev.gamemaster} opened the room: ${title}`, title };
    }
    case 'joined':
      return {
        text: `${ev.name} joined as ${ev.role === 'gamemaster' ? 'the game master' : ev.role}` +
          (ev.seats.length ? ` (${ev.seats.join(', ')})` : ''),
      };
    case 'played':
      return { text: `${ev.by}: ${ev.said.join('; ') || 'a move'}` };
    case 'thrown':
      return {
        text: `${ev.by}: ${what(ev.record)}${result(ev.record)}`,
        rolled: rolledText.get(seq),
        faces: ev.record.faces,
        said: ev.said,
        outcome: true,
      };
    case 'hidden': {
      const mine = sealed.get(seq);
      const revealed = seat.entries.find((x) => x.event.kind === 'revealed' && x.event.of === seq);
      const shown = revealed ? JSON.parse(revealed.event.payload) : null;
      const seen = shown || mine;
      return {
        text: `${ev.by}: ${ev.label || ev.notation}, hidden` +
          (seen ? `${result(seen.record)}${shown ? ' (revealed)' : ' (only you see it)'}` : ''),
        faces: seen?.record.faces,
        reveal: ev.by === seat.name && !shown,
      };
    }
    case 'revealed': {
      const hidden = seat.entries.find((x) => x.seq === ev.of)?.event;
      let shown = null;
      try {
        shown = JSON.parse(ev.payload);
      } catch {
        // Told as it is below: the server checked the seal when it stored the reveal.
      }
      return {
        text: `${hidden?.by || 'The game master'} revealed #${ev.of}: ` +
          `${hidden?.label || shown?.notation || 'a hidden roll'}${shown ? result(shown.record) : ''}`,
        faces: shown?.record.faces,
      };
    }
    default:
      return { text: ev.kind };
  }
}

function draw(e) {
  const seq = e.seq;
  const d = describe(e, seq);
  const li = items.get(seq) || document.createElement('li');
  li.replaceChildren();
  const head = document.createElement('span');
  head.textContent = `#${seq} ${d.text}`;
  li.append(head);
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
  const checked = checks.get(seq);
  if (checked) {
    const mark = document.createElement('span');
    mark.className = checked.ok ? 'checked' : 'unchecked';
    mark.textContent = checked.ok ? ` ✓ checked here: ${checked.what}` : ` ✗ NOT as logged: ${checked.what}`;
    li.append(mark);
  }
  if (codes.has(seq)) {
    const code = document.createElement('code');
    code.className = 'code';
    code.textContent = codes.get(seq);
    code.title = 'The replay code: `dicetable replay CODE` throws it again';
    li.append(' ', code);
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
  const e = seat.entries.find((x) => x.seq === seq);
  if (e) draw(e);
}

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
  if (typeof shown === 'string') rolledText.set(e.seq, shown);
  const verdict = checkLine(line, e, (nonce) => myNonces.get(nonce));
  checks.set(e.seq, verdict);
  if (verdict.ok) seat.checked += 1;
  else seat.unchecked.push({ seq: e.seq, what: verdict.what });
  const d = draw(e);
  if (d.title) $('heading').textContent = d.title;
  if (e.event.kind === 'revealed') redraw(e.event.of);
  // What the table just did, for everyone and for screen readers.
  if (d.outcome || e.event.kind === 'hidden' || e.event.kind === 'revealed'
      || e.event.kind === 'played') {
    seat.lastOutcome = d.text;
    say(d.text);
  }
  // The table moved on: the draft's verdict, choices and odds are asked again (a draft the
  // table no longer allows gives way to one it does).
  if (seat.joined && seat.moves) {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => askDraft(seat.moves.draft, true), 50);
  }
}

// ---- The tray's feed ----

function showTable(table) {
  if (table.ruleset) $('scene-line').textContent = `Room ${room}, playing by ${table.ruleset}`;
  // The room's tracker (from the draft's answer) says more than the feed's line.
  if (!seat.moves) $('turn').textContent = table.turn || '';
}

window.addEventListener('message', (m) => {
  if (m.origin !== location.origin || !m.data || typeof m.data !== 'object') return;
  const e = m.data;
  if (e.type === 'table') {
    showTable(e);
  } else if (e.type === 'hello') {
    if (e.table) showTable(e.table);
    for (const o of e.recent || []) { codes.set(o.roll, o.code); redraw(o.roll); }
  } else if (e.type === 'outcome') {
    codes.set(e.roll, e.code);
    redraw(e.roll);
  }
});

// ---- Controls ----

for (const r of document.querySelectorAll('input[name="role"]')) r.addEventListener('change', showSeatsField);
$('join').addEventListener('submit', join);
$('free-roll').addEventListener('submit', throwDrafted);
$('table').addEventListener('keydown', (k) => {
  if (k.key === ' ' || k.key === 'Enter') throwDrafted(k);
});

$('heading').textContent = room ? `Room ${room}` : 'dicetable';
document.title = `${room} · dicetable`;
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.has('gamemaster')) {
  document.querySelector('input[value="gamemaster"]').checked = true;
  $('name').value = hash.get('gamemaster');
}
showSeatsField();
