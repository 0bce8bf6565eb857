// A room's page: a seat at the table in the browser. The page only draws and asks: it joins
// over the room's WebSocket (the protocol the window speaks), proposes throws with the
// commitment the server gave it and a nonce of its own, and shows the room's log as the server
// stores it. The tray is the room's watch page (the overlay's renderer, dice exactly as the
// server threw them), on felt; it tells this page what its feed says (the turn, each roll's
// replay code).

import { PROTOCOL, socketUrl, keyOf, keepKey, reasonOf } from '/common.js';

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
      entry(msg.line);
      break;
    case 'ack':
      commitment = msg.commitment;
      seat.acks += 1;
      $('throw').disabled = false;
      break;
    case 'sealed':
      sealed.set(msg.seq, JSON.parse(msg.payload));
      redraw(msg.seq);
      break;
    case 'refused':
      seat.refused.push({ code: msg.code, reason: msg.reason });
      $('throw').disabled = false;
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

function throwDrafted(event) {
  event?.preventDefault();
  if (!seat.joined || seat.role === 'spectator') return;
  const notation = $('notation').value.trim();
  if (!notation) {
    say('Write the dice to throw, such as 2d6+1.');
    $('notation').focus();
    return;
  }
  if (!socket || socket.readyState !== WebSocket.OPEN || !commitment) {
    say('Not connected yet: try again in a moment.');
    return;
  }
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  const msg = {
    type: 'throw', id: nextId++, what: { notation }, commitment, nonce,
    hidden: seat.role === 'gamemaster' && $('hidden-roll').checked,
  };
  const label = $('label').value.trim();
  if (label) msg.label = label;
  $('throw').disabled = true;
  say(`Throwing ${notation}…`);
  socket.send(JSON.stringify(msg));
}

function reveal(of) {
  if (socket?.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: 'reveal', id: nextId++, of }));
  }
}

// ---- The odds of what is drafted (worked out by the server, never waited on) ----

let oddsAsked = null;
let oddsTimer = null;

function showOdds(odds) {
  const dist = odds.distribution || [];
  const chart = $('odds-chart');
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
  $('odds-text').textContent = text;
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
  // Only a slow answer says it is coming; the page goes on meanwhile.
  oddsTimer = setTimeout(() => { $('odds-text').textContent = `Working out the odds of ${notation}…`; }, 200);
  fetch(`/api/odds?notation=${encodeURIComponent(notation)}`, { signal: asked.signal })
    .then(async (answer) => ({ ok: answer.ok, body: await answer.json() }))
    .then(({ ok, body }) => {
      if (asked !== oddsAsked) return;
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

function entry(line) {
  let e;
  try {
    e = JSON.parse(line);
  } catch {
    return;
  }
  if (e.seq <= seat.seq) return;
  seat.seq = e.seq;
  seat.entries.push(e);
  const d = draw(e);
  if (d.title) $('heading').textContent = d.title;
  if (e.event.kind === 'revealed') redraw(e.event.of);
  // What the table just did, for everyone and for screen readers.
  if (d.outcome || e.event.kind === 'hidden' || e.event.kind === 'revealed'
      || e.event.kind === 'played') {
    seat.lastOutcome = d.text;
    say(d.text);
  }
}

// ---- The tray's feed ----

function showTable(table) {
  if (table.ruleset) $('scene-line').textContent = `Room ${room}, playing by ${table.ruleset}`;
  $('turn').textContent = table.turn || '';
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
