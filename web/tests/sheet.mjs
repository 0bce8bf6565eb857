// A contact sheet of screenshots, for the docs: each picture cropped, captioned with its name,
// in a grid, laid out and saved by headless chromium (no image tools needed).
//   node web/tests/sheet.mjs DIR OUT COLUMNS CROP NAME...
// CROP is `W,H,SCALE,X,Y`: each DIR/NAME.png drawn at SCALE, its W x H box from (X, Y) of the
// scaled picture shown. OUT ending in .jpg is saved as JPEG (quality 85), else PNG.
import { launch } from './browser.mjs';
import { readFileSync } from 'node:fs';

const [dir, out, columns, crop, ...names] = process.argv.slice(2);
const [w, h, scale, x, y] = crop.split(',').map(Number);
const cells = names.map((name) => {
  const png = readFileSync(`${dir}/${name}.png`);
  // A PNG's width and height are big-endian at bytes 16 and 20.
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  const style = `width:${w}px;height:${h}px;background-image:url(data:image/png;base64,${png.toString('base64')});`
    + `background-size:${width * scale}px ${height * scale}px;background-position:${-x}px ${-y}px`;
  return `<figure><div role="img" aria-label="${name}" style="${style}"></div><figcaption>${name}</figcaption></figure>`;
}).join('');
const html = `<!doctype html><title>sheet</title><style>body{margin:0;background:#1b1b1b;
font:600 15px sans-serif;color:#eee}main{display:grid;grid-template-columns:repeat(${columns},${w}px);
gap:4px;padding:4px}figure{margin:0}figcaption{text-align:center;padding:2px}</style>
<main>${cells}</main>`;
const context = await launch();
const page = await context.newPage();
await page.setViewportSize({ width: Number(columns) * (w + 4) + 4, height: 800 });
await page.setContent(html);
const jpeg = out.endsWith('.jpg');
await page.locator('main').screenshot({ path: out, type: jpeg ? 'jpeg' : 'png', quality: jpeg ? 85 : undefined });
await context.close();
