// Ids in the format of src/lib/ids.ts newId: `prefix_` + 10 Crockford base32 characters of
// millisecond time + 16 random ones (80 bits).

import { createHash, randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function timePart(ms) {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

function base32(bytes) {
  let out = '';
  for (const b of bytes.subarray(0, 16)) out += CROCKFORD[b % 32];
  return out;
}

/** A fresh id, as the Worker makes them. */
export function newId(prefix, ms = Date.now()) {
  return `${prefix}_${timePart(ms)}${base32(randomBytes(16))}`;
}

/** A reproducible id: the same (prefix, ms, key) always gives the same id. For seed data. */
export function fixedId(prefix, ms, key) {
  return `${prefix}_${timePart(ms)}${base32(createHash('sha256').update(`${prefix}:${key}`).digest())}`;
}
