// dicetable's overlay page: draws what the feed says, nothing else. The dice are the table's
// own meshes and numbered atlases (/dice/...), placed at the poses the physics simulated; the
// result appears only once the dice have settled on the faces the program read.
//
// Two feeds speak the same events: the window's (/overlay, fed by /feed, live as the window
// throws), and a table server's room (/ROOM/watch, fed by /ROOM/feed): there each throw comes
// whole, with its motion, and the page plays it, then shows the outcome.
//
// URL options: dice=0 (results only), history=N (0-20, default 5), odds=1 (the chance of success
// before the throw), size=S (0.25-4, default 1), pos=tl|tr|bl|br|top|bottom (default br),
// token=T (when the table has one), passcode=P (a room's, on a table server), fill=1 (the dice
// fill the page and the card sits at its foot: a room's page shows the tray so, on felt).
//
// Inside a page of the same origin (a room's page), the page is told what the feed says (the
// table, each outcome, hidden rolls), so it need not follow the feed a second time.

import { writtenOut } from '/written.js';

const params = new URLSearchParams(location.search);
const number = (name, fallback, lo, hi) => {
  const v = Number(params.get(name));
  return params.has(name) && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
};
const opts = {
  dice: params.get('dice') !== '0',
  history: Math.round(number('history', 5, 0, 20)),
  odds: params.get('odds') === '1',
  size: number('size', 1, 0.25, 4),
  pos: ['tl', 'tr', 'bl', 'br', 'top', 'bottom'].includes(params.get('pos')) ? params.get('pos') : 'br',
  token: params.get('token'),
  passcode: params.get('passcode'),
  fill: params.get('fill') === '1',
};

// What the page has done, for tests and benchmarks to read.
const overlay = {
  connected: false,
  events: 0,
  bytes: 0,
  rendered: 0,
  shown: null,
  drawn: [],
  latencies: [],
  notice: null,
  outcomes: 0,
  // Room pages: throws played through to rest, the motion samples received, and the frames
  // drawn between samples while playing.
  played: 0,
  received: 0,
  samples: 0,
  error: null,
};
window.overlay = overlay;

const $ = (id) => document.getElementById(id);
const stage = $('stage');
stage.className = opts.fill ? 'fill' : opts.pos;
stage.style.setProperty('--size', String(opts.size));
const canvas = $('dice');

function notice(text) {
  overlay.notice = text;
  $('notice').textContent = text;
  $('card').classList.remove('empty');
}

function byline(by) {
  const who = $('who');
  who.textContent = by.who ?? '';
  who.style.color = by.colour ?? '#ece4d2';
  $('label').textContent = by.label ?? by.what ?? '';
  $('card').classList.remove('empty');
}

// ---- The dice (three.js) ----

let THREE = null;
let renderer = null;
let scene = null;
let camera = null;
let geometries = {};
const materials = new Map();
let meshes = [];
let dirty = true;
let current = { roll: 0, throw: 0 };
let afterRender = [];

async function startDice() {
  if (!opts.dice) {
    canvas.classList.add('off');
    return;
  }
  try {
    THREE = await import('/three/three.module.js');
  } catch (e) {
    notice('three.js is not installed on the table (run ./play, or npm ci --prefix web): results only');
    canvas.classList.add('off');
    return;
  }
  renderer = new THREE.WebGLRenderer({ canvas, alpha: true, antialias: true, preserveDrawingBuffer: true });
  renderer.setClearColor(0x000000, 0);
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  scene = new THREE.Scene();
  // The tray is 28 x 20 cm (x across, z deep); the camera looks down from the near side.
  camera = new THREE.PerspectiveCamera(30, 7 / 5, 1, 500);
  aim(TRAY_VIEW, 0, 0, true);
  scene.add(new THREE.HemisphereLight(0xfff6e8, 0x302a28, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(-12, 40, 18);
  key.castShadow = true;
  key.shadow.mapSize.set(1024, 1024);
  Object.assign(key.shadow.camera, { left: -20, right: 20, top: 20, bottom: -20, near: 1, far: 100 });
  scene.add(key);
  // Shadows on an invisible floor: the dice sit on the stream, not in a box.
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(80, 80), new THREE.ShadowMaterial({ opacity: 0.3 }));
  floor.rotation.x = -Math.PI / 2;
  floor.receiveShadow = true;
  scene.add(floor);
  const response = await fetch('/dice/geometry.json');
  const arrays = await response.json();
  for (const [kind, a] of Object.entries(arrays)) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(a.positions.flat(), 3));
    g.setAttribute('normal', new THREE.Float32BufferAttribute(a.normals.flat(), 3));
    g.setAttribute('uv', new THREE.Float32BufferAttribute(a.uvs.flat(), 2));
    g.setIndex(a.indices);
    geometries[kind] = g;
  }
  resize();
  window.addEventListener('resize', resize);
  requestAnimationFrame(frame);
}

// The camera, as the window's: the whole tray while dice fly, then it glides in on the
// settled dice (as close as keeps them all in view, no closer than a 12 cm view).
const TRAY_VIEW = 30;
const CLOSEST_VIEW = 12;
const LOOK = { y: 2, z: 1 };
let shot = { view: TRAY_VIEW, x: 0, z: 0 };
let goal = { ...shot };

function aim(view, x, z, now = false) {
  goal = { view, x, z };
  if (now) shot = { ...goal };
  dirty = true;
}

function placeCamera() {
  const k = 0.12;
  for (const key of ['view', 'x', 'z']) shot[key] += (goal[key] - shot[key]) * k;
  const moving = ['view', 'x', 'z'].some((key) => Math.abs(goal[key] - shot[key]) > 0.01);
  // `view` is the width to show; the height follows from the canvas's shape.
  const fit = shot.view / camera.aspect / (2 * Math.tan((camera.fov * Math.PI) / 360));
  const n = Math.hypot(LOOK.y, LOOK.z);
  camera.position.set(shot.x, (fit * LOOK.y) / n, shot.z + (fit * LOOK.z) / n);
  camera.lookAt(shot.x, 0, shot.z);
  return moving;
}

function frameSettled(poses) {
  if (!poses.length) return;
  const xs = poses.map((p) => p[0]);
  const zs = poses.map((p) => p[2]);
  const [x0, x1, z0, z1] = [Math.min(...xs), Math.max(...xs), Math.min(...zs), Math.max(...zs)];
  const view = Math.min(TRAY_VIEW, Math.max(CLOSEST_VIEW, x1 - x0 + 5, (z1 - z0 + 5) * camera.aspect));
  aim(view, (x0 + x1) / 2, (z0 + z1) / 2);
}

function resize() {
  if (!renderer) return;
  const w = canvas.clientWidth || 560;
  const h = canvas.clientHeight || 400;
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  dirty = true;
}

function material(die) {
  const key = `${die.kind}/${die.body}/${die.ink}`;
  if (!materials.has(key)) {
    const url = `/dice/atlas/${die.kind}?body=${die.body.slice(1)}&ink=${die.ink.slice(1)}`;
    const map = new THREE.TextureLoader().load(url, () => { dirty = true; });
    // The atlas is laid out as the window's (v runs down the image).
    map.flipY = false;
    map.colorSpace = THREE.SRGBColorSpace;
    map.anisotropy = 4;
    materials.set(key, new THREE.MeshStandardMaterial({ map, roughness: 0.18, metalness: 0 }));
  }
  return materials.get(key);
}

function showDice(dice, poses) {
  if (!scene) return;
  for (const m of meshes) scene.remove(m);
  meshes = dice.map((die) => {
    const mesh = new THREE.Mesh(geometries[die.kind], material(die));
    mesh.castShadow = true;
    scene.add(mesh);
    return mesh;
  });
  place(poses);
}

function place(poses, which = null) {
  if (!scene) return;
  poses.forEach((p, k) => {
    const m = meshes[which ? which[k] : k];
    if (!m || !p) return;
    m.position.set(p[0], p[1], p[2]);
    m.quaternion.set(p[3], p[4], p[5], p[6]);
  });
  dirty = true;
}

// Dice leave the hand (a `throw`, or a `motion` about to play): the card says "rolling…" on a
// roll's first throw, the chance of success stays only when asked for.
function startThrow(e, poses, keepChance) {
  current = { roll: e.roll, throw: e.throw };
  if (e.throw === 0) {
    byline(e.by);
    const result = $('result');
    result.className = 'rolling';
    result.textContent = 'rolling…';
    if (!keepChance) $('chance').textContent = '';
  }
  showDice(e.dice, poses);
}

// ---- Throws that come whole (a room's page): played one after another, each outcome after
// its throws, at the speed they were simulated ----

const queue = [];
let playing = null;

function enqueue(e) {
  queue.push(e);
  if (!playing) playNext();
}

function playNext() {
  playing = null;
  while (queue.length) {
    const e = queue.shift();
    if (e.type === 'motion') {
      if (startMotion(e)) return;
    } else if (e.type === 'outcome') {
      showOutcome(e);
    } else if (e.type === 'hidden') {
      showHidden(e);
    }
  }
}

function startMotion(e) {
  overlay.received += e.frames.length;
  startThrow(e, e.frames[0], false);
  if (!renderer) return false;
  aim(TRAY_VIEW, 0, 0);
  playing = { e, start: performance.now() };
  return true;
}

// Where the dice are at the playing throw's time: between two samples, positions eased
// linearly and orientations along the shortest arc.
function playFrame(now) {
  const { e, start } = playing;
  const last = e.frames.length - 1;
  // A frame's time may come from just before the throw arrived.
  const at = Math.max(0, ((now - start) / 1000) * e.hz);
  if (at >= last) {
    place(e.frames[last]);
    overlay.played += 1;
    playNext();
    return;
  }
  const i = Math.floor(at);
  const f = at - i;
  const [a, b] = [e.frames[i], e.frames[i + 1]];
  const poses = a.map((p, k) => {
    const q = b[k] ?? p;
    const out = [p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f, p[2] + (q[2] - p[2]) * f, 0, 0, 0, 1];
    THREE.Quaternion.slerpFlat(out, 3, p, 3, q, 3, f);
    return out;
  });
  place(poses);
  overlay.samples += 1;
}

function showHidden(e) {
  byline(e.by);
  const result = $('result');
  result.className = 'rolling';
  result.textContent = `${e.by.what}, hidden`;
  $('chance').textContent = '';
  remember(e, 'hidden');
}

function frame(now) {
  // Asked first: a frame that fails must not stop the page.
  requestAnimationFrame(frame);
  if (playing) playFrame(now);
  if (renderer && placeCamera()) dirty = true;
  if (dirty && renderer) {
    renderer.render(scene, camera);
    overlay.rendered += 1;
    dirty = false;
    overlay.drawn = meshes.map((m) => [m.position.x, m.position.y, m.position.z,
      m.quaternion.x, m.quaternion.y, m.quaternion.z, m.quaternion.w]);
  }
  const done = afterRender;
  afterRender = [];
  for (const f of done) f();
}

// ---- Results ----

const history = [];

function drawHistory() {
  const list = $('history');
  list.replaceChildren();
  history.slice(0, opts.history).forEach((h, rank) => {
    const li = document.createElement('li');
    li.className = 'card';
    li.style.opacity = String(Math.max(0.25, 1 - rank * 0.18));
    const who = document.createElement('b');
    who.textContent = h.who ? `${h.who}: ` : '';
    who.style.color = h.colour;
    li.append(who, document.createTextNode(`${h.label} → ${h.result}`));
    list.append(li);
  });
}

function resultText(e) {
  const total = e.total ?? '';
  return e.outcome ? `${total} ${e.outcome}`.trim() : String(total);
}

function remember(e, result = resultText(e)) {
  history.unshift({
    who: e.by.who,
    colour: e.by.colour,
    label: e.by.label ?? e.by.what,
    result,
  });
  history.length = Math.min(history.length, 20);
  drawHistory();
}

function showOutcome(e) {
  byline(e.by);
  const result = $('result');
  result.className = '';
  result.replaceChildren(document.createTextNode(String(e.total ?? '')));
  if (e.outcome) {
    const o = document.createElement('span');
    o.className = 'outcome';
    o.textContent = e.outcome;
    result.append(o);
  }
  // A free roll written out: rerolled faces ~struck~, explosions !, drops (in brackets).
  $('chance').replaceChildren(writtenOut(e.shown ?? ''));
  const last = e.record.throws.at(-1);
  if (last && meshes.length === last.poses.length) {
    const poses = last.poses.map((p) => [...p.t, ...p.r]);
    place(poses);
    if (renderer) frameSettled(poses);
  }
  remember(e);
  afterRender.push(() => {
    overlay.shown = { roll: e.roll, total: e.total, outcome: e.outcome, code: e.code };
    overlay.outcomes += 1;
    overlay.latencies.push(Date.now() - e.settled_at_ms);
  });
}

// ---- The feed ----

function handle(e) {
  switch (e.type) {
    case 'hello':
      for (const o of e.recent) remember(o);
      break;
    case 'drafted':
      if (opts.odds && e.chance) {
        byline(e.by);
        $('result').textContent = '';
        $('chance').textContent = `Chance of success: ${e.chance.percent}`;
      }
      break;
    case 'throw':
      startThrow(e, e.poses, opts.odds);
      if (renderer) aim(TRAY_VIEW, 0, 0);
      break;
    case 'poses':
      if (e.roll === current.roll && e.throw === current.throw) place(e.poses, e.dice);
      break;
    case 'settled':
      if (e.roll === current.roll && e.throw === current.throw) place(e.poses);
      break;
    case 'outcome':
      if (playing || queue.length) enqueue(e);
      else showOutcome(e);
      break;
    case 'motion':
    case 'hidden':
      enqueue(e);
      break;
    case 'error':
      overlay.error = e.error;
      notice(e.error);
      break;
    default:
      break;
  }
}

// The events a room's page around this one is told of.
const embedded = window.parent !== window;
const TOLD = new Set(['hello', 'table', 'outcome', 'hidden', 'error']);

function connect(delay = 500) {
  // /overlay follows /feed; /ROOM/watch follows /ROOM/feed.
  const url = new URL('feed', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (opts.token) url.searchParams.set('token', opts.token);
  if (opts.passcode) url.searchParams.set('passcode', opts.passcode);
  const ws = new WebSocket(url);
  ws.onopen = () => { overlay.connected = true; $('notice').textContent = ''; };
  ws.onmessage = (m) => {
    overlay.events += 1;
    overlay.bytes += m.data.length;
    try {
      const e = JSON.parse(m.data);
      handle(e);
      if (embedded && TOLD.has(e.type)) window.parent.postMessage(e, location.origin);
    } catch (err) {
      console.error('feed event not understood', err, err.stack);
    }
  };
  ws.onclose = () => {
    overlay.connected = false;
    // A wrong passcode or a missing room does not mend itself: say so and stop.
    if (overlay.error) return;
    setTimeout(() => connect(Math.min(delay * 2, 5000)), delay);
  };
}

startDice().finally(() => connect());
