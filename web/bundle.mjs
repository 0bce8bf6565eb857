// Bundles the libraries the pages use into minified modules with esbuild, from the lockfile:
// the parts of three.js the overlay page draws with (three-entry.js) into vendor/three.min.js,
// and @noble/hashes' SHA-256 (sha256-entry.js) into vendor/sha256.min.js: the files the servers
// compile in and serve (compressed; three.js under its content hash). Run it after changing an
// entry or upgrading a library:
//   node web/bundle.mjs           writes both
//   node web/bundle.mjs --check   fails when a committed file is not what esbuild makes
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundles = [
  ['three-entry.js', 'three.min.js'],
  ['sha256-entry.js', 'sha256.min.js'],
];
let stale = false;
for (const [entry, file] of bundles) {
  const out = join(here, 'vendor', file);
  const made = await build({
    entryPoints: [join(here, entry)],
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
      console.error(`${out} is not what esbuild makes of web/${entry}: run node web/bundle.mjs`);
      stale = true;
    } else {
      console.log(`${out}: as esbuild makes it (${bytes.length} bytes)`);
    }
  } else {
    writeFileSync(out, bytes);
    console.log(`wrote ${out} (${bytes.length} bytes)`);
  }
}
if (stale) process.exit(1);
