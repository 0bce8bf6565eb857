// Bundles the parts of three.js the overlay page draws with (three-entry.js) into one minified
// module, vendor/three.min.js, with esbuild from the lockfile: the file the servers compile in
// and serve (compressed, under its content hash). Run it after changing three-entry.js or
// upgrading three:
//   node web/bundle.mjs           writes web/vendor/three.min.js
//   node web/bundle.mjs --check   fails when the committed file is not what esbuild makes
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'vendor', 'three.min.js');
const made = await build({
  entryPoints: [join(here, 'three-entry.js')],
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'eof',
  write: false,
});
const bytes = made.outputFiles[0].contents;
if (process.argv.includes('--check')) {
  let committed = null;
  try {
    committed = readFileSync(out);
  } catch {
    // Missing: told below.
  }
  if (!committed || !Buffer.from(bytes).equals(committed)) {
    console.error(`${out} is not what esbuild makes of web/three-entry.js: run node web/bundle.mjs`);
    process.exit(1);
  }
  console.log(`${out}: as esbuild makes it (${bytes.length} bytes)`);
} else {
  writeFileSync(out, bytes);
  console.log(`wrote ${out} (${bytes.length} bytes)`);
}
