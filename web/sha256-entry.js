// What a room's page takes of @noble/hashes (audited, no dependencies): SHA-256, for the log's
// hashes (check.js). Bundled by bundle.mjs into vendor/sha256.min.js.
export { sha256 } from '@noble/hashes/sha2.js';
