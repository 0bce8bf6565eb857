// The table server's front page: open a room with a scene (one of the server's, or a RON file
// from this computer), then give out its links. The room is opened the way the window opens
// one, over the room's WebSocket: the server checks the scene, the name and the right to open
// rooms, and says what is wrong (a bad scene: its line, its column, what was expected).

import { socketUrl, keepKey, reasonOf } from '/common.js';
import { PROTOCOL, LIMITS } from '/contract.js';

const $ = (id) => document.getElementById(id);
// The longest text each field takes: the server's own limits.
$('room').maxLength = LIMITS.room;
$('name').maxLength = LIMITS.name;
const FILE = '';
let scenes = [];

/** What the page has done, for the tests to read: `preview` is the scene previewed last (the
 * server's answer), `previewError` why the last one could not be. */
window.front = { scenes: 0, opened: null, error: null, preview: null, previewError: null };

function say(text, isError = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', isError);
  if (isError) window.front.error = text;
}

function describe() {
  const chosen = scenes.find((s) => s.id === $('scene').value);
  $('upload').hidden = $('scene').value !== FILE;
  $('scene-about').textContent = chosen
    ? `${chosen.ruleset} (${chosen.rules}): ${chosen.description}`
    : 'A scene file (RON) from this computer.';
}

let previewing = 0;
/** Shows what the chosen scene seats, read by the server as opening a room would read it, or
 * why it would not open (its line and column): before anyone opens a room with it. */
async function showPreview() {
  const asked = ++previewing;
  const shown = (preview, error) => {
    if (asked !== previewing) return;
    if (preview) drawPreview(preview);
    window.front.preview = preview;
    window.front.previewError = error;
    $('scene-preview').hidden = !preview;
    $('preview-error').hidden = !error;
    $('preview-error').textContent = error ? `This scene would not open: ${error}` : '';
  };
  if ($('scene').value === FILE && !$('scene-file').files[0]) {
    shown(null, null);
    return;
  }
  try {
    const text = await sceneText();
    const answer = await fetch('/api/scene-preview', { method: 'POST', body: text });
    const body = await answer.json();
    if (!answer.ok) {
      shown(null, reasonOf(body));
      return;
    }
    shown(body, null);
  } catch (err) {
    shown(null, err.message);
  }
}

/** Writes a scene's preview into the page. */
function drawPreview(p) {
  $('preview-title').textContent = `${p.title}`;
  $('preview-game').textContent = p.game
    ? `Playing ${p.game.name} (a system file): ${p.game.about}`
    : `Playing ${p.ruleset} (${p.rules}).`;
  // A server's scene is described under the menu already; a file's only here.
  const file = $('scene').value === FILE;
  $('preview-game').hidden = !file && !p.game;
  $('preview-about').textContent = p.description;
  $('preview-about').hidden = !file || !p.description;
  $('preview-heading').textContent = `As the room opens: ${p.heading}.`;
  const list = $('preview-cast');
  list.replaceChildren();
  for (const c of p.characters) {
    const item = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = c.name;
    const by = document.createTextNode(c.players_play ? ', played by a player' : ', played by the game master');
    item.append(who, by);
    if (c.status.length) {
      const status = document.createElement('span');
      status.className = 'status';
      status.textContent = `: ${c.status.join('; ')}`;
      item.append(status);
    }
    list.append(item);
  }
}

async function loadScenes() {
  try {
    const answer = await fetch('/api/scenes');
    const body = await answer.json();
    scenes = body.scenes || [];
    $('owner').hidden = body.opening !== 'passcode';
    if (body.server_key) {
      $('server-key').textContent = body.server_key;
      $('key-note').hidden = false;
    }
    window.front.serverKey = body.server_key ?? null;
    if (body.opening === 'closed') {
      say('This server opens rooms only for its own machine: ask its owner for a room.', true);
      $('open-room').disabled = true;
    }
  } catch (err) {
    say(`The server's scenes could not be read: ${err.message}`, true);
  }
  const select = $('scene');
  select.replaceChildren();
  for (const s of scenes) {
    const own = s.rules === 'shipped rules' ? '' : ', own rules';
    select.append(new Option(`${s.title} (${s.ruleset}${own})`, s.id));
  }
  select.append(new Option('A file from this computer…', FILE));
  window.front.scenes = scenes.length;
  describe();
  showPreview();
}

async function sceneText() {
  if ($('scene').value === FILE) {
    const file = $('scene-file').files[0];
    if (!file) throw new Error('Choose a scene file, or one of the server\'s scenes.');
    return file.text();
  }
  const answer = await fetch(`/api/scenes/${encodeURIComponent($('scene').value)}`);
  if (!answer.ok) throw new Error(reasonOf(await answer.json()));
  return answer.text();
}

/** The first field a person still has to fill, named. */
function missing() {
  for (const [id, what] of [
    ['room', 'a room name'],
    ['name', 'your name'],
    ['passcode', 'a passcode for the players'],
    ['gm-passcode', 'a passcode of your own'],
  ]) {
    if (!$(id).value.trim()) return [id, `Give ${what}.`];
  }
  if (!$('room').checkValidity()) {
    return ['room', 'A room name is letters, digits, "-", "_" and ".", with a letter or a digit.'];
  }
  return null;
}

function showLinks(room, passcode, name) {
  const roomUrl = new URL(`/${encodeURIComponent(room)}`, location.href).href;
  const watchUrl = new URL(`/${encodeURIComponent(room)}/watch`, location.href);
  // In the fragment: no request, log or referrer carries it.
  watchUrl.hash = new URLSearchParams({ passcode }).toString();
  $('room-link').href = roomUrl;
  $('room-link').textContent = roomUrl;
  $('passcode-shown').textContent = passcode;
  $('watch-link').href = watchUrl.href;
  $('watch-link').textContent = watchUrl.href;
  $('join-command').textContent =
    `dicetable play --join ${socketUrl(room)} --name NAME --passcode ${passcode}`;
  const table = new URL(roomUrl);
  table.hash = `gamemaster=${encodeURIComponent(name)}`;
  $('to-table').href = table.href;
  $('links').hidden = false;
  $('links-title').focus?.();
}

function open(event) {
  event.preventDefault();
  const gap = missing();
  if (gap) {
    say(gap[1], true);
    $(gap[0]).focus();
    return;
  }
  const room = $('room').value.trim();
  const name = $('name').value.trim();
  const passcode = $('passcode').value;
  $('open-room').disabled = true;
  say('Opening the room…');
  sceneText()
    .then((scene) => new Promise((resolve, reject) => {
      const ws = new WebSocket(socketUrl(room));
      const create = {
        type: 'create', v: PROTOCOL, room, name, scene, passcode,
        gm_passcode: $('gm-passcode').value,
      };
      if ($('room-passcode').value) create.room_passcode = $('room-passcode').value;
      ws.onopen = () => ws.send(JSON.stringify(create));
      ws.onmessage = (m) => {
        const msg = JSON.parse(m.data);
        if (msg.type === 'welcome') {
          if (msg.key) keepKey(room, msg.name, msg.key);
          ws.close();
          resolve(msg);
        } else if (msg.type === 'error') {
          ws.close();
          reject(new Error(reasonOf(msg)));
        }
      };
      ws.onerror = () => reject(new Error('The server could not be reached.'));
    }))
    .then((welcome) => {
      window.front.opened = room;
      showLinks(room, passcode, welcome.name);
      say(`The room ${room} is open. Give its link and passcode to your players.`);
    })
    .catch((err) => say(err.message, true))
    .finally(() => { $('open-room').disabled = false; });
}

$('scene').addEventListener('change', () => { describe(); showPreview(); });
$('scene-file').addEventListener('change', showPreview);
$('open').addEventListener('submit', open);
loadScenes();
