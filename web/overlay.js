// dicetable's overlay page: draws what the feed says, nothing else. The dice are the table's
// own meshes and numbered atlases (/dice/...), placed at the poses the physics simulated; the
// result appears only once the dice have settled on the faces the program read, with each
// die's value over it, and the camera frames the settled dice clear of the result card.
//
// Two feeds speak the same events: the window's (/overlay, fed by /feed, live as the window
// throws), and a table server's room (/ROOM/watch, fed by /ROOM/feed): there each throw comes
// whole, with its motion, and the page plays it, then shows the outcome.
//
// URL options: dice=0 (results only), history=N (0-20, default 5), odds=1 (the chance of success
// before the throw), size=S (the card's and the values' type, 0.25-4; default: 1 on a page 720
// pixels high, growing with the page, 1.5 at 1080p), table=W (the tray's width, a share of the
// page's, 0.2-1; default 560 pixels times size), scale=S (the settled dice drawn up to S times
// as large, 0.5-3, default 1), pos=tl|tr|bl|br|top|bottom (default br),
// values=0 (no value over each settled die), quality=full|light (default: light on a phone or
// a software renderer: cheaper shadows, no multisampling, a lower pixel ratio), token=T (when
// the table has one), passcode=P (a room's, on a table server: best in the address's fragment,
// /ROOM/watch#passcode=P, which no request, log or referrer carries; the page sends it as the
// feed's first message, never in a URL), fill=1 (the dice fill the page
// and the card sits at its foot: a room's page shows the tray so, on felt), top=PX (pixels at
// the top the page around this one draws over: settled dice are framed below them).
//
// Inside a page of the same origin (a room's page), the page is told what the tray shows as it
// shows it: a throw starting to play (and for how long), each outcome once its dice have
// landed, hidden rolls, the table, errors.

import { writtenOut, totalText } from '/written.js';
import { legible } from '/legible.js';
import { layLabels, listed } from '/labels.js';
import { namedWait } from '/patient.js';
import { lookKey, dieMaterial, putAtlas, dieGeometries } from '/die-look.js';

// Options come in the query or the fragment (#passcode=P&fill=1); the fragment's win.
const params = new URLSearchParams(location.search);
for (const [name, value] of new URLSearchParams(location.hash.slice(1))) params.set(name, value);
const number = (name, fallback, lo, hi) => {
  const v = Number(params.get(name));
  return params.has(name) && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
};
const opts = {
  dice: params.get('dice') !== '0',
  history: Math.round(number('history', 5, 0, 20)),
  odds: params.get('odds') === '1',
  // A stream's page is read at its own height: 1 at 720 pixels, 1.5 at 1080 (a room's tray,
  // drawn to fill its frame, reads at 1).
  size: number('size', params.get('fill') === '1' ? 1 : Math.min(4, Math.max(1, window.innerHeight / 720)), 0.25, 4),
  table: number('table', null, 0.2, 1),
  scale: number('scale', 1, 0.5, 3),
  pos: ['tl', 'tr', 'bl', 'br', 'top', 'bottom'].includes(params.get('pos')) ? params.get('pos') : 'br',
  values: params.get('values') !== '0',
  quality: ['full', 'light'].includes(params.get('quality')) ? params.get('quality') : null,
  token: params.get('token'),
  passcode: params.get('passcode'),
  fill: params.get('fill') === '1',
  top: number('top', 0, 0, 200),
};

// What the page has done, for tests and benchmarks to read.
const overlay = {
  connected: false,
  // Whether the feed has greeted the page (its passcode checked, every later line coming).
  greeted: false,
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
  // Each throw played: its roll and throw, how long its motion lasts (ms), and when it started
  // and ended playing (ms since the epoch).
  motions: [],
  // Each settled die's value as shown over it, and where (page pixels).
  labels: [],
  // A pool too crowded for values beside its dice: the values listed in the card instead.
  listed: [],
  // The last hidden roll the card told (its roll).
  hiddenShown: null,
  // The last hidden roll whose result the card told (this member may see it).
  secretShown: null,
  // Each hidden roll whose dice the feed was asked for: its roll, and why none came (null:
  // they came and were thrown).
  unsealed: [],
  // Every settled die as drawn, labelled or listed: its centre and radius (page pixels).
  discs: [],
  // How the dice are drawn: 'full' or 'light', and the pixel ratio now.
  quality: null,
  pixelRatio: null,
  error: null,
  // The dice's atlases: asked for, come, the busy answers waited out, and any that failed.
  atlases: { asked: 0, loaded: 0, retried: 0, failed: [] },
  // The dice on the tray now: each one's kind, whether it is drawn with its numerals, its
  // colours and its material as drawn.
  dice: () => meshes.map((m) => ({
    kind: m.userData.die?.kind,
    numbered: Boolean(m.material.map),
    body: m.userData.die?.body,
    ink: m.userData.die?.ink,
    material: m.userData.die?.material ?? 'plastic',
    typeface: m.userData.die?.typeface ?? 'sans',
    roughness: m.material.roughness ?? null,
    metalness: m.material.metalness ?? null,
    opacity: m.material.opacity,
    drawnAs: m.material.type,
    // A game's own die: its faces' marks as its atlas was asked for (null: numbers).
    marks: m.userData.die?.marks ?? null,
    // ... and each face read in words, face 1 first (null: numbers).
    reads: m.userData.die?.reads ?? null,
  })),
};
window.overlay = overlay;

const $ = (id) => document.getElementById(id);
const stage = $('stage');
stage.className = opts.fill ? 'fill' : opts.pos;
stage.style.setProperty('--size', String(opts.size));
if (opts.table !== null) stage.style.setProperty('--table', `${opts.table * 100}vw`);
const canvas = $('dice');
const now = () => performance.timeOrigin + performance.now();

// The page around this one (a room's page), told what the tray shows.
const embedded = window.parent !== window;
function tell(e) {
  if (embedded) window.parent.postMessage(e, location.origin);
}

function notice(text) {
  overlay.notice = text;
  $('notice').textContent = text;
  $('card').classList.remove('empty');
}

function byline(by) {
  const who = $('who');
  who.textContent = by.who ?? '';
  who.style.color = legible(by.colour ?? '#ece4d2');
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
let blobs = [];
let blobMaterial = null;
let dirty = true;
let current = { roll: 0, throw: 0 };
let afterRender = [];
// The values over the settled dice: [{ text, body, ink }], shown once the outcome is.
let values = [];

/** Whether WebGL here is drawn in software (SwiftShader, llvmpipe): then the light quality. */
function softwareRenderer() {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software|softpipe/i.test(name);
  } catch {
    return false;
  }
}

/** 'light' on a phone-sized or touch screen or a software renderer, 'full' otherwise. */
function chooseQuality() {
  if (opts.quality) return opts.quality;
  const small = Math.min(window.innerWidth, window.innerHeight) < 520;
  const coarse = window.matchMedia?.('(pointer: coarse)').matches;
  return small || coarse || softwareRenderer() ? 'light' : 'full';
}

// The pixel ratio: at most the screen's, capped (a phone's 3 is more than dice need). While
// dice fly it is lowered when frames come slowly (each frame then costs less), and the ratio
// learnt is kept for the next throw; the settled dice are drawn at the full ratio, sharp.
let ratioCap = 1;
let flyingScale = 1;
const frameGaps = [];

function setRatio(scale) {
  const ratio = Math.max(0.35, ratioCap * scale);
  if (renderer && Math.abs(renderer.getPixelRatio() - ratio) > 0.01) {
    renderer.setPixelRatio(ratio);
    resize();
  }
  overlay.pixelRatio = ratio;
}

/** After each few frames of flight: slower than 30 a second lowers the ratio, faster than 50
 * raises it back. */
function adaptRatio(gap) {
  frameGaps.push(gap);
  if (frameGaps.length < 3) return;
  const mean = frameGaps.reduce((a, b) => a + b, 0) / frameGaps.length;
  frameGaps.length = 0;
  if (mean > 34 && flyingScale > 0.3) flyingScale *= 0.75;
  else if (mean < 20 && flyingScale < 1) flyingScale = Math.min(1, flyingScale * 1.15);
  else return;
  setRatio(flyingScale);
}

async function startDice() {
  if (!opts.dice) {
    $('view').classList.add('off');
    return;
  }
  try {
    THREE = await import('/three/three.min.js');
  } catch (e) {
    notice(`three.js could not be loaded (${e.message}): results only`);
    $('view').classList.add('off');
    return;
  }
  const quality = chooseQuality();
  overlay.quality = quality;
  const full = quality === 'full';
  renderer = new THREE.WebGLRenderer({
    canvas,
    alpha: true,
    antialias: full,
    powerPreference: 'high-performance',
  });
  renderer.setClearColor(0x000000, 0);
  scene = new THREE.Scene();
  // The tray is 28 x 20 cm (x across, z deep); the camera looks down from the near side.
  camera = new THREE.PerspectiveCamera(30, 7 / 5, 1, 500);
  aim(TRAY_VIEW, 0, 0, TILT.flying, true);
  ratioCap = Math.min(window.devicePixelRatio || 1, full ? 2 : 1.25);
  setRatio(1);
  overlay.flying = () => flyingScale;
  scene.add(new THREE.HemisphereLight(0xfff6e8, 0x302a28, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 2.2);
  key.position.set(-12, 40, 18);
  scene.add(key);
  if (full) {
    // Shadows on an invisible floor: the dice sit on the stream, not in a box.
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFShadowMap;
    key.castShadow = true;
    key.shadow.mapSize.set(1024, 1024);
    Object.assign(key.shadow.camera, { left: -20, right: 20, top: 20, bottom: -20, near: 1, far: 100 });
    const floor = new THREE.Mesh(new THREE.PlaneGeometry(80, 80), new THREE.ShadowMaterial({ opacity: 0.3 }));
    floor.rotation.x = -Math.PI / 2;
    floor.receiveShadow = true;
    scene.add(floor);
  } else {
    // A soft round shadow under each die: drawn only where the dice are, not over the page.
    blobMaterial = new THREE.MeshBasicMaterial({
      map: blobTexture(), transparent: true, depthWrite: false, color: 0x000000,
    });
  }
  geometries = await dieGeometries(THREE);
  resize();
  const resized = () => { resize(); if (values.length) frameSettled(); };
  window.addEventListener('resize', resized);
  // A phone's tray lays the card under the dice: the view shrinks when a card comes.
  if (window.ResizeObserver) new ResizeObserver(resized).observe($('view'));
  requestAnimationFrame(frame);
}

/** A radial shadow: dark in the middle, gone at the edge. */
function blobTexture() {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d');
  const grad = g.createRadialGradient(32, 32, 2, 32, 32, 32);
  grad.addColorStop(0, 'rgba(255,255,255,0.55)');
  grad.addColorStop(0.6, 'rgba(255,255,255,0.22)');
  grad.addColorStop(1, 'rgba(255,255,255,0)');
  g.fillStyle = grad;
  g.fillRect(0, 0, 64, 64);
  const t = new THREE.CanvasTexture(c);
  // The gradient is the shadow's opacity; the material's colour is black.
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

// The camera, as the window's: the whole tray while dice fly, then it glides in on the settled
// dice, from higher up so their top faces are seen nearly square, as close as keeps every die
// and its value in view and clear of the result card, no closer than a 12 cm view.
const TRAY_VIEW = 30;
const CLOSEST_VIEW = 12;
// Wide enough to show the tray's whole 20 cm depth on a phone's short tray over its card
// (375 x 180 px needs about 56 cm): every die stays in view, smaller.
const WIDEST_VIEW = 64;
/** The camera's rise over its run towards the viewer: while dice fly, and over settled dice. */
const TILT = { flying: 2, settled: 3.5 };
let shot = { view: TRAY_VIEW, x: 0, z: 0, tilt: TILT.flying };
let goal = { ...shot };

function aim(view, x, z, tilt, at = false) {
  goal = { view, x, z, tilt };
  if (at) shot = { ...goal };
  dirty = true;
}

/** Puts `cam` where `s` says: looking at (x, 0, z), `view` cm wide there, from its tilt. */
function placeAt(cam, s) {
  const fit = s.view / cam.aspect / (2 * Math.tan((cam.fov * Math.PI) / 360));
  const n = Math.hypot(s.tilt, 1);
  cam.position.set(s.x, (fit * s.tilt) / n, s.z + fit / n);
  cam.lookAt(s.x, 0, s.z);
  cam.updateMatrixWorld();
}

function placeCamera() {
  const k = 0.14;
  const keys = ['view', 'x', 'z', 'tilt'];
  for (const key of keys) shot[key] += (goal[key] - shot[key]) * k;
  const moving = keys.some((key) => Math.abs(goal[key] - shot[key]) > 0.01);
  if (!moving) shot = { ...goal };
  placeAt(camera, shot);
  return moving;
}

/** Where a world point falls on the canvas, in CSS pixels. */
function onCanvas(cam, p, w, h) {
  const v = new THREE.Vector3(p[0], p[1], p[2]).project(cam);
  return [((v.x + 1) / 2) * w, ((1 - v.y) / 2) * h];
}

/** The parts of the canvas the card leaves free (CSS pixels), largest first. */
function freeAreas(w, h) {
  const card = $('card');
  const pad = Math.max(6, 0.03 * Math.min(w, h));
  const whole = { l: pad, t: pad + opts.top, r: w - pad, b: h - pad };
  if (card.classList.contains('empty')) return [whole];
  const c = card.getBoundingClientRect();
  const v = canvas.getBoundingClientRect();
  const box = { l: c.left - v.left, t: c.top - v.top, r: c.right - v.left, b: c.bottom - v.top };
  if (box.r <= 0 || box.l >= w || box.b <= 0 || box.t >= h) return [whole];
  const gap = pad;
  return [
    { ...whole, b: Math.min(whole.b, box.t - gap) }, // above the card
    { ...whole, t: Math.max(whole.t, box.b + gap) }, // below it
    { ...whole, l: Math.max(whole.l, box.r + gap) }, // right of it
    { ...whole, r: Math.min(whole.r, box.l - gap) }, // left of it
  ].filter((a) => a.r - a.l > 40 && a.b - a.t > 40)
    .sort((a, b) => (b.r - b.l) * (b.b - b.t) - (a.r - a.l) * (a.b - a.t));
}

/** The points that must be seen of each settled die: its extent, and its value above it. */
function settledPoints() {
  const points = [];
  meshes.forEach((m) => {
    const r = (m.geometry.boundingSphere?.radius ?? 1.2) * 0.9;
    const [x, y, z] = [m.position.x, m.position.y, m.position.z];
    points.push([x - r, y, z], [x + r, y, z], [x, y, z - r], [x, y, z + r]);
    // Its value stands above it: room for the label's height and width (a pool whose values
    // are listed in the card has none on the felt).
    if (opts.values && !overlay.listed.length) points.push([x - r, y + 2.2 * r, z - r], [x + r, y + 2.2 * r, z - r]);
  });
  return points;
}

/** The shot that shows every point inside `area` of a `w` x `h` canvas: found by moving and
 * zooming a trial camera a few times (a perspective view is not a linear map). */
function fit(points, area, w, h) {
  const cam = camera.clone();
  let s = { view: TRAY_VIEW, x: 0, z: 0, tilt: TILT.settled };
  const xs = points.map((p) => p[0]);
  const zs = points.map((p) => p[2]);
  s.x = (Math.min(...xs) + Math.max(...xs)) / 2;
  s.z = (Math.min(...zs) + Math.max(...zs)) / 2;
  for (let i = 0; i < 12; i += 1) {
    placeAt(cam, s);
    const seen = points.map((p) => onCanvas(cam, p, w, h));
    const [l, r] = [Math.min(...seen.map((p) => p[0])), Math.max(...seen.map((p) => p[0]))];
    const [t, b] = [Math.min(...seen.map((p) => p[1])), Math.max(...seen.map((p) => p[1]))];
    // Move the dice's middle onto the area's (cm per pixel at the look point; down the screen
    // the felt is foreshortened by the tilt).
    const cmPerPx = s.view / w;
    const foreshortened = Math.hypot(s.tilt, 1) / s.tilt;
    s.x -= (((area.l + area.r) / 2) - ((l + r) / 2)) * cmPerPx;
    s.z -= (((area.t + area.b) / 2) - ((t + b) / 2)) * cmPerPx * foreshortened;
    const grow = Math.max((r - l) / (area.r - area.l), (b - t) / (area.b - area.t));
    s.view = Math.min(WIDEST_VIEW, Math.max(CLOSEST_VIEW / opts.scale, s.view * grow));
  }
  placeAt(cam, s);
  const seen = points.map((p) => onCanvas(cam, p, w, h));
  const within = seen.filter(([x, y]) => x >= area.l - 2 && x <= area.r + 2 && y >= area.t - 2 && y <= area.b + 2);
  return { shot: s, inside: within.length === seen.length, seen: within.length };
}

function frameSettled() {
  if (!renderer || !meshes.length) return;
  const w = canvas.clientWidth || 560;
  const h = canvas.clientHeight || 400;
  const points = settledPoints();
  const tries = freeAreas(w, h).map((area) => fit(points, area, w, h));
  // The closest view that shows everything; failing that, the one that shows the most.
  const best = tries.filter((t) => t.inside).sort((a, b) => a.shot.view - b.shot.view)[0]
    ?? tries.sort((a, b) => b.seen - a.seen || b.shot.view - a.shot.view)[0];
  if (best) aim(best.shot.view, best.shot.x, best.shot.z, best.shot.tilt);
  framed = true;
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

// A die is drawn in its body colour until its numbered atlas has come (never black for want
// of it); a server that is busy for a moment is asked again after the wait it names. Its
// material's surface comes with it from the server (plastic when none does).
function material(die) {
  const key = lookKey(die);
  if (!materials.has(key)) {
    const made = dieMaterial(THREE, die, overlay.quality === 'light');
    materials.set(key, made);
    overlay.atlases.asked += 1;
    loadAtlas(die, made);
  }
  return materials.get(key);
}

/** Fetches a die's atlas and puts it on `made` once it has come. */
async function loadAtlas(die, made) {
  try {
    await putAtlas(THREE, die, made, () => { overlay.atlases.retried += 1; });
    overlay.atlases.loaded += 1;
    dirty = true;
  } catch (err) {
    overlay.atlases.failed.push(`${die.kind} ${die.body}/${die.ink}: ${err.message}`);
  }
}

function showDice(dice, poses) {
  if (!scene) return;
  for (const m of [...meshes, ...blobs]) scene.remove(m);
  meshes = dice.map((die) => {
    const mesh = new THREE.Mesh(geometries[die.kind], material(die));
    mesh.castShadow = true;
    mesh.userData.die = die;
    scene.add(mesh);
    return mesh;
  });

  blobs = blobMaterial ? meshes.map(() => {
    const blob = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), blobMaterial);
    blob.rotation.x = -Math.PI / 2;
    blob.renderOrder = -1;
    scene.add(blob);
    return blob;
  }) : [];
  place(poses);
}

function place(poses, which = null) {
  if (!scene) return;
  poses.forEach((p, k) => {
    const i = which ? which[k] : k;
    const m = meshes[i];
    if (!m || !p) return;
    m.position.set(p[0], p[1], p[2]);
    m.quaternion.set(p[3], p[4], p[5], p[6]);
    const blob = blobs[i];
    if (blob) {
      // Wider and fainter as the die rises.
      const r = (m.geometry.boundingSphere?.radius ?? 1.2) * 2.4 + Math.max(0, p[1]) * 0.25;
      blob.position.set(p[0] + Math.max(0, p[1]) * 0.15, 0.02, p[2] + Math.max(0, p[1]) * 0.1);
      blob.scale.set(r, r, 1);
    }
  });
  dirty = true;
}

// ---- The values over the settled dice ----

/** What a settled die shows: a game's own die its face's mark, others their reading. */
function markOf(die, reading) {
  const face = Number(reading);
  return die?.reads && Number.isInteger(face) ? (die.reads[face - 1] ?? reading) : reading;
}

function showValues(readings) {
  values = opts.values && meshes.length === readings.length
    ? readings.map((text, i) => ({ text: markOf(meshes[i].userData.die, text), die: meshes[i].userData.die }))
    : [];
  listValues([]);
  const layer = $('values');
  layer.replaceChildren(...values.map((v) => {
    const span = document.createElement('span');
    span.textContent = v.text;
    dieColours(span, v.die);
    return span;
  }));
  // Each value's box in type of REFERENCE px, without its least width: the layout scales
  // what grows with the type (the text, its padding) and not what does not (the border).
  for (const [i, span] of [...layer.children].entries()) {
    span.style.fontSize = `${REFERENCE}px`;
    span.style.minWidth = '0';
    values[i].box = [span.offsetWidth, span.offsetHeight];
    span.style.minWidth = '';
  }
  placeValues();
}

/** A value's chip in its die's colours. */
function dieColours(el, die) {
  el.style.background = die?.body ?? '#efe6d2';
  el.style.color = die?.ink ?? '#1b1405';
  el.style.borderColor = die?.ink ?? '#1b1405';
}

// Whether the camera is framing the settled dice (not the throw), and moving this frame.
let framed = false;
let cameraMoving = false;

// The type a value's box is measured in, its border (px, both sides), which does not scale,
// and its least width (em, border included: overlay.css's min-width).
const REFERENCE = 20;
const BORDER = 4;
const LEAST_WIDTH_EM = 1.6;
// Pixels to spare each way: type does not scale exactly (hinting, rounding).
const SPARE = 2;

/** The box of value `i` in type of `font` px. */
function boxOf(i, font) {
  const [w, h] = values[i].box;
  const k = font / REFERENCE;
  const natural = (w - BORDER) * k + BORDER;
  return [Math.max(natural, LEAST_WIDTH_EM * font) + SPARE, (h - BORDER) * k + BORDER + SPARE];
}

function hideValues() {
  values = [];
  framed = false;
  $('values').replaceChildren();
  overlay.labels = [];
  overlay.discs = [];
  listValues([]);
}

/** Lists the values of a pool too crowded to label beside its dice (none: clears the list). */
function listValues(shown) {
  overlay.listed = shown.map((v) => v.text);
  $('values-list').replaceChildren(...shown.map((v) => {
    const li = document.createElement('li');
    li.textContent = v.text;
    dieColours(li, v.die);
    return li;
  }));
  $('values-list').hidden = !shown.length;
}

function placeValues() {
  if (!renderer || !values.length) return;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  const spans = $('values').children;
  const v = canvas.getBoundingClientRect();
  // Each die as the camera sees it: its centre and its radius on screen.
  const dice = values.map((value, i) => {
    const m = meshes[i];
    const r = (m.geometry.boundingSphere?.radius ?? 1.2) * 0.9;
    const p = [m.position.x, m.position.y, m.position.z];
    const [cx, cy] = onCanvas(camera, p, w, h);
    const [ex] = onCanvas(camera, [p[0] + r, p[1], p[2]], w, h);
    return { x: cx, y: cy, r: Math.abs(ex - cx) };
  });
  overlay.discs = dice.map((d) => ({ x: v.left + d.x, y: v.top + d.y, r: d.r }));
  // Beside its die, touching no die, no other value and not the card; a crowded pool's
  // values shrink together, and one too crowded for that is listed in the card.
  // A pool once listed stays listed until the next throw (the camera's glide does not make
  // the values jump between the felt and the card).
  if (overlay.listed.length) return;
  const c = $('card').getBoundingClientRect();
  const card = { x: c.left - v.left, y: c.top - v.top, w: c.width, h: c.height };
  const keepOut = c.width > 0 ? [card] : [];
  // The strip a room's page keeps over the tray's top edge (whose turn it is).
  if (opts.top > 0) keepOut.push({ x: 0, y: 0, w, h: opts.top });
  const rects = layLabels(dice, boxOf, { bounds: { w, h }, keepOut, scale: opts.size });
  if (!rects) {
    for (const span of spans) span.hidden = true;
    overlay.labels = [];
    // While the camera glides in, the values wait; once it rests on the settled dice, a pool
    // with no room beside its dice is listed.
    if (!framed || cameraMoving) return;
    listValues(listed(values));
    // The card has grown by the list: the dice are framed clear of it again.
    requestAnimationFrame(() => frameSettled());
    return;
  }
  listValues([]);
  overlay.labels = values.map((value, i) => {
    const r = rects[i];
    spans[i].hidden = false;
    spans[i].style.left = `${r.x}px`;
    spans[i].style.top = `${r.y}px`;
    spans[i].style.fontSize = `${r.font}px`;
    return {
      text: value.text,
      x: v.left + r.x + r.w / 2,
      y: v.top + r.y + r.h,
      font: r.font,
      die: [v.left + dice[i].x, v.top + dice[i].y],
      r: dice[i].r,
      box: { x: v.left + r.x, y: v.top + r.y, w: r.w, h: r.h },
    };
  });
}

// Dice leave the hand (a `throw`, or a `motion` about to play): the card says "rolling…" on a
// roll's first throw, the chance of success stays only when asked for.
function startThrow(e, poses, keepChance) {
  current = { roll: e.roll, throw: e.throw };
  showingHidden = null;
  hideValues();
  if (e.throw === 0) {
    byline(e.by);
    const result = $('result');
    result.className = 'rolling';
    result.textContent = 'rolling…';
    showWorking(null);
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
    } else if (e.type === 'unsealed') {
      showUnsealed(e);
    }
  }
}

function startMotion(e) {
  overlay.received += e.frames.length;
  startThrow(e, e.frames[0], false);
  const ms = ((e.frames.length - 1) / e.hz) * 1000;
  tell({ type: 'playing', roll: e.roll, throw: e.throw, ms: renderer ? ms : 0 });
  if (!renderer) return false;
  aim(TRAY_VIEW, 0, 0, TILT.flying);
  setRatio(flyingScale);
  frameGaps.length = 0;
  playing = { e, start: performance.now(), ms, motion: { roll: e.roll, throw: e.throw, ms, started: now() } };
  return true;
}

// Where the dice are at the playing throw's time: between two samples, positions eased
// linearly and orientations along the shortest arc.
function playFrame(at) {
  const { e, start } = playing;
  const last = e.frames.length - 1;
  // A frame's time may come from just before the throw arrived.
  const t = Math.max(0, ((at - start) / 1000) * e.hz);
  if (t >= last) {
    place(e.frames[last]);
    playing.motion.ended = now();
    overlay.motions.push(playing.motion);
    overlay.played += 1;
    playNext();
    return;
  }
  const i = Math.floor(t);
  const f = t - i;
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
  showWorking(null);
  hideValues();
  // An empty tray for that moment: no die of an earlier roll stands in for this one's.
  showDice([], []);
  dirty = true;
  showingHidden = e.roll;
  overlay.hiddenShown = e.roll;
  if (secrets.has(e.roll)) drawSecret(e.roll);
  remember(e, 'hidden');
  tell(e);
}

// ---- Hidden rolls this member may see: told by the room's page, never by the feed ----

const secrets = new Map();
/** The hidden roll the card shows now (null: none). */
let showingHidden = null;
/** The hidden rolls whose dice the feed was asked for: each one's answer, once it came. */
const unsealAsked = new Map();

/** Throws hidden roll `roll`'s dice on this tray, as any roll's: its page gave the roll's salt,
 * which the feed asks for before it sends their motions. The card tells the result once they
 * land (`unsealed`); at once where nothing can be drawn or it was asked for before. */
function drawSecret(roll) {
  const s = secrets.get(roll);
  if (!s) return;
  // Asked already: the answer shows it, or showed it.
  if (unsealAsked.has(roll)) {
    if (unsealAsked.get(roll)) showSecret(s);
    return;
  }
  const open = feedSocket?.readyState === WebSocket.OPEN;
  if (!renderer || !s.salt || !open) {
    showSecret(s);
    return;
  }
  unsealAsked.set(roll, null);
  feedSocket.send(JSON.stringify({ type: 'unseal', roll, salt: s.salt }));
}

/** The feed closed: asks it never answered are forgotten, and the card tells the roll it was
 * waiting to throw. */
function unsealsLost() {
  for (const [roll, answer] of unsealAsked) {
    if (answer) continue;
    unsealAsked.delete(roll);
    // Waiting on it, or its dice thrown and the answer lost: the card tells it.
    const onCard = showingHidden === roll || current.roll === roll;
    if (onCard && secrets.has(roll)) showSecret(secrets.get(roll));
  }
}

/** The feed's answer to an `unseal`, after the roll's motions played: the card tells the roll
 * as this member may see it. */
function showUnsealed(e) {
  overlay.unsealed.push({ roll: e.roll, refused: e.refused ?? null });
  unsealAsked.set(e.roll, e);
  const s = secrets.get(e.roll);
  if (!s) return;
  showingHidden = e.roll;
  showSecret(s);
  // Each die's value beside it, as any roll's, once its dice are drawn.
  if (e.readings?.length && meshes.length === e.readings.length) showSettled(e.readings);
}

/** The card of a hidden roll as the member it shows to sees it: its result, its label, who
 * else sees it. */
function showSecret(s) {
  overlay.secretShown = s.roll;
  const result = $('result');
  result.className = '';
  result.replaceChildren(document.createTextNode(totalText(s.total)));
  if (s.outcome) {
    const o = document.createElement('span');
    o.className = 'outcome';
    o.textContent = s.outcome;
    result.append(o);
  }
  $('label').textContent = s.label ? `${s.label} (${s.how})` : s.how;
  $('chance').textContent = s.sees;
}

if (embedded) {
  window.addEventListener('message', (m) => {
    if (m.origin !== location.origin || m.source !== window.parent) return;
    const s = m.data;
    if (!s || s.type !== 'secret' || typeof s.roll !== 'number') return;
    secrets.set(s.roll, s);
    if (showingHidden === s.roll) drawSecret(s.roll);
  });
}

let lastFrame = null;

function frame(at) {
  // Asked first: a frame that fails must not stop the page.
  requestAnimationFrame(frame);
  if (playing) {
    if (lastFrame !== null) adaptRatio(at - lastFrame);
    lastFrame = at;
    playFrame(at);
  } else {
    lastFrame = null;
  }
  let moved = false;
  if (renderer && placeCamera()) {
    dirty = true;
    moved = true;
  }
  // The camera has just come to rest: where the values go is settled now.
  const cameStill = cameraMoving && !moved;
  cameraMoving = moved;
  if (cameStill && values.length) placeValues();
  if (dirty && renderer) {
    renderer.render(scene, camera);
    overlay.rendered += 1;
    dirty = false;
    overlay.drawn = meshes.map((m) => [m.position.x, m.position.y, m.position.z,
      m.quaternion.x, m.quaternion.y, m.quaternion.z, m.quaternion.w]);
    if (values.length || moved) placeValues();
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
    who.style.color = legible(h.colour);
    li.append(who, document.createTextNode(`${h.label} → ${h.result}`));
    list.append(li);
  });
}

function resultText(e) {
  const { total, outcome } = cardWords(e);
  return outcome ? `${total} ${outcome}`.trim() : String(total);
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

/** A move's working on the card: the rules' steps, what they trigger, what changed. */
function showWorking(explained) {
  const rows = [
    ...(explained?.lines || []).map((text) => ['step', text]),
    ...(explained?.tags || []).map((text) => ['tag', text]),
    ...(explained?.changed || []).map((text) => ['changed', text]),
  ];
  $('working').replaceChildren(...rows.map(([kind, text]) => {
    const li = document.createElement('li');
    li.className = kind;
    li.textContent = text;
    return li;
  }));
}

/** The card's words: the total, then the outcome, unless the outcome already says the total
 * ("1 success" is not written "1 1 success"). */
function cardWords(e) {
  const total = totalText(e.total);
  const says = e.outcome && total !== '' && e.outcome.startsWith(`${total} `);
  return { total: says ? '' : total, outcome: e.outcome };
}

/** Each settled die's value beside it, and the camera drawn in to them at full sharpness. */
function showSettled(readings) {
  showValues(readings);
  // The card is drawn first: the settled dice are framed clear of it.
  requestAnimationFrame(() => frameSettled());
  setRatio(1);
}

function showOutcome(e) {
  showingHidden = null;
  byline(e.by);
  const result = $('result');
  result.className = '';
  const words = cardWords(e);
  result.replaceChildren(document.createTextNode(words.total));
  showWorking(e.explained);
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
    place(last.poses.map((p) => [...p.t, ...p.r]));
    showSettled(e.readings ?? []);
  }
  remember(e);
  tell(e);
  afterRender.push(() => {
    overlay.shown = { roll: e.roll, total: e.total, outcome: e.outcome, code: e.code, at: now() };
    overlay.outcomes += 1;
    overlay.latencies.push(Date.now() - e.settled_at_ms);
  });
}

// ---- The feed ----

function handle(e) {
  switch (e.type) {
    case 'hello':
      overlay.greeted = true;
      if (overlay.notice === JOINING) {
        overlay.notice = null;
        $('notice').textContent = '';
      }
      for (const o of e.recent) remember(o);
      tell(e);
      break;
    case 'error':
      // Busy for a moment (a household's pages opening at once): the page opens again after
      // the wait the server names, saying so, not showing an error.
      if (e.code === 'busy') {
        busyWaitMs = namedWait(e.retry_after_ms);
        notice(JOINING);
        break;
      }
      tell(e);
      overlay.error = e.error;
      notice(e.error);
      break;
    case 'table':
      tell(e);
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
      if (renderer) aim(TRAY_VIEW, 0, 0, TILT.flying);
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
    case 'unsealed':
      enqueue(e);
      break;
    default:
      break;
  }
}

// The wait a `busy` answer named, for the next try to open the feed (ms), or null; what the
// page says meanwhile.
let busyWaitMs = null;
/** The feed's socket now (a hidden roll's dice are asked for on it). */
let feedSocket = null;
const JOINING = 'Joining the table…';

function connect(delay = 500) {
  // /overlay follows /feed; /ROOM/watch follows /ROOM/feed.
  const url = new URL('feed', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  if (opts.token) url.searchParams.set('token', opts.token);
  const ws = new WebSocket(url);
  feedSocket = ws;
  ws.onopen = () => {
    // A room's passcode goes as the first message, not in the socket's URL.
    if (opts.passcode) ws.send(JSON.stringify({ type: 'passcode', passcode: opts.passcode }));
    overlay.connected = true;
    if (overlay.notice !== JOINING) $('notice').textContent = '';
  };
  ws.onmessage = (m) => {
    overlay.events += 1;
    overlay.bytes += m.data.length;
    try {
      handle(JSON.parse(m.data));
    } catch (err) {
      console.error('feed event not understood', err, err.stack);
    }
  };
  ws.onclose = () => {
    overlay.connected = false;
    unsealsLost();
    // A wrong passcode or a missing room does not mend itself: say so and stop.
    if (overlay.error) return;
    if (busyWaitMs !== null) {
      const wait = busyWaitMs;
      busyWaitMs = null;
      setTimeout(() => connect(delay), wait);
      return;
    }
    setTimeout(() => connect(Math.min(delay * 2, 5000)), delay);
  };
}

startDice().finally(() => connect());
