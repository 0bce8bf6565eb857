// How a die's look becomes a three.js material: its body colour at once (never black for want
// of its atlas), then the atlas the server draws for its colours, grain, typeface and marks.
// The overlay's dice and the room page's live die in the picker share it, so a die looks the
// same in both.

import { patientFetch } from '/patient.js';

/** The address of a die's atlas (a feed die: kind, body, ink, and what it has of material,
 * surface, typeface and marks). */
export function atlasUrl(die) {
  // A game's own die asks for its marks instead of numbers.
  const marks = die.marks ? `&marks=${encodeURIComponent(die.marks)}` : '';
  // Stone and wood carry their grain in the atlas; a typeface other than the first is asked.
  const grain = die.surface?.grain > 0 ? `&material=${die.material}` : '';
  const face = die.typeface ? `&typeface=${die.typeface}` : '';
  return `/dice/atlas/${die.kind}?body=${die.body.slice(1)}&ink=${die.ink.slice(1)}${grain}${face}${marks}`;
}

/** The key two dice drawn alike share. */
export function lookKey(die) {
  return `${die.kind}/${die.body}/${die.ink}/${die.material ?? 'plastic'}/${die.typeface ?? 'sans'}/${die.marks ?? ''}`;
}

/** A material for `die` in its body colour, lit as its material is (plastic when none is
 * given); `light` draws it more cheaply (no specular reflections). */
export function dieMaterial(THREE, die, light) {
  const color = die.body;
  const surface = die.surface ?? { roughness: 0.18, metalness: 0, opacity: 1 };
  const see = surface.opacity < 1 ? { transparent: true, opacity: surface.opacity } : {};
  return light
    ? new THREE.MeshLambertMaterial({ color, ...see })
    : new THREE.MeshStandardMaterial({
      color, roughness: surface.roughness, metalness: surface.metalness, ...see,
    });
}

/** Fetches `die`'s atlas (asking again while the server is busy: `waiting` is told) and puts
 * it on `made`; throws when it cannot be had. */
export async function putAtlas(THREE, die, made, waiting = () => {}) {
  const answer = await patientFetch(atlasUrl(die), {}, { waiting });
  if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
  const image = await createImageBitmap(await answer.blob());
  // A texture of a decoded image (the bundle's CanvasTexture takes any image source).
  const map = new THREE.CanvasTexture(image);
  // The atlas is laid out as the window's (v runs down the image).
  map.flipY = false;
  map.colorSpace = THREE.SRGBColorSpace;
  map.anisotropy = 4;
  map.needsUpdate = true;
  made.map?.dispose();
  made.map = map;
  made.color.set(0xffffff);
  made.needsUpdate = true;
}

/** Every die's render mesh, by kind, as three.js geometries (the window's vertex lists). */
export async function dieGeometries(THREE) {
  const response = await fetch('/dice/geometry.json');
  const arrays = await response.json();
  const geometries = {};
  // A die that shares an earlier die's solid names it ("d3": "d6"): one geometry for both.
  for (const [kind, a] of Object.entries(arrays)) {
    if (typeof a === 'string') continue;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(a.positions.flat(), 3));
    g.setAttribute('normal', new THREE.Float32BufferAttribute(a.normals.flat(), 3));
    g.setAttribute('uv', new THREE.Float32BufferAttribute(a.uvs.flat(), 2));
    g.setIndex(a.indices);
    g.computeBoundingSphere();
    geometries[kind] = g;
  }
  for (const [kind, a] of Object.entries(arrays)) {
    if (typeof a === 'string') geometries[kind] = geometries[a];
  }
  return geometries;
}
