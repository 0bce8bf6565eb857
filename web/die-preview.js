// The live die of the dice picker: a d20 and a d6 in the look being picked, drawn by the same
// code as the tray's dice (die-look.js) from what the server says the look will be drawn as
// (`/dice/look`: the numerals' colour the contrast rule gives, the material's surface, pips on
// the d6), turning slowly while the picker is open, still where motion is to be reduced.

import { dieMaterial, putAtlas, dieGeometries } from '/die-look.js';

/** The live die drawn on `canvas`; `told(words)` is given the look in words once drawn. */
export class DiePreview {
  constructor(canvas, told = () => {}) {
    this.canvas = canvas;
    this.told = told;
    this.three = null;
    this.meshes = [];
    this.asked = 0;
    this.running = false;
    /** What the page's tests read: the dice last drawn, and atlases loaded. */
    this.state = { dice: [], loaded: 0, words: '' };
  }

  /** Loads three.js and the dice's shapes (once). */
  async start() {
    if (this.three) return true;
    let THREE;
    try {
      THREE = await import('/three/three.min.js');
    } catch {
      return false;
    }
    const renderer = new THREE.WebGLRenderer({ canvas: this.canvas, alpha: true, antialias: true });
    renderer.setClearColor(0x000000, 0);
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    const scene = new THREE.Scene();
    scene.add(new THREE.HemisphereLight(0xfff6e8, 0x302a28, 1.6));
    const key = new THREE.DirectionalLight(0xffffff, 2.2);
    key.position.set(-12, 40, 18);
    scene.add(key);
    const camera = new THREE.PerspectiveCamera(30, 2, 1, 100);
    camera.position.set(0, 6, 7.5);
    camera.lookAt(0, 0, 0);
    const geometries = await dieGeometries(THREE);
    this.three = { THREE, renderer, scene, camera, geometries };
    return true;
  }

  /** Draws `look` (body, ink, material, pips, typeface as the picker has them). */
  async show(look) {
    if (!(await this.start())) return;
    const query = new URLSearchParams({ body: look.body.slice(1), ink: look.ink.slice(1) });
    if (look.material) query.set('material', look.material);
    if (look.pips) query.set('pips', 'true');
    if (look.typeface) query.set('typeface', look.typeface);
    const asked = ++this.asked;
    const answer = await fetch(`/dice/look?${query}`).catch(() => null);
    if (!answer?.ok || asked !== this.asked) return;
    const { dice, words } = await answer.json();
    const { THREE, scene, geometries } = this.three;
    for (const m of this.meshes) {
      scene.remove(m);
      m.material.map?.dispose();
      m.material.dispose();
    }
    this.meshes = dice.map((die, i) => {
      const mesh = new THREE.Mesh(geometries[die.kind], dieMaterial(THREE, die, false));
      mesh.position.set(i === 0 ? -2.2 : 2.2, 0, 0);
      mesh.rotation.set(0.5, i * 0.8, 0.2);
      scene.add(mesh);
      return mesh;
    });
    this.state = { dice, loaded: 0, words };
    this.fit();
    this.draw();
    await Promise.all(dice.map((die, i) => putAtlas(THREE, die, this.meshes[i].material)
      .then(() => { if (asked === this.asked) this.state.loaded += 1; })
      .catch(() => {})));
    if (asked !== this.asked) return;
    this.draw();
    this.told(words);
    this.spin();
  }

  /** Sizes the drawing to the canvas as laid out. */
  fit() {
    const { renderer, camera } = this.three;
    const w = this.canvas.clientWidth || 240;
    const h = this.canvas.clientHeight || 120;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }

  draw() {
    const { renderer, scene, camera } = this.three;
    renderer.render(scene, camera);
  }

  /** Turns the dice slowly while the canvas is shown, unless motion is to be reduced. */
  spin() {
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (this.running || still) return;
    this.running = true;
    let last = performance.now();
    const turn = (at) => {
      // Stops when the picker is closed (no layout: nothing to see) and starts again with it.
      if (!this.canvas.offsetParent) {
        this.running = false;
        return;
      }
      const dt = Math.min(0.1, (at - last) / 1000);
      last = at;
      for (const m of this.meshes) m.rotation.y += dt * 0.6;
      this.draw();
      requestAnimationFrame(turn);
    };
    requestAnimationFrame(turn);
  }
}
