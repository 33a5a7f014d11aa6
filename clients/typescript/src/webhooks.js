// Verifying the store's webhook deliveries on the receiving side: part of @store-api/client
// (`import { verifyWebhook } from '@store-api/client'`, or '@store-api/client/webhooks' alone), and
// the one copy the repository uses (scripts/webhooks-listen.mjs, the bench, the tests).
//
// Plain ESM JavaScript with Web Crypto only (globalThis.crypto.subtle), so it runs unchanged in
// Node 20+, Deno, Bun, browsers and Cloudflare Workers, needs no build step, and can be copied into a
// receiver's code base as one file. Types are in webhooks.d.ts. The signing side is the Worker's
// src/webhooks/signature.ts.
//
// Two schemes sign every delivery, both over the exact body bytes as received (never re-serialise
// the JSON before verifying):
//   X-Store-Signature           lowercase hex HMAC-SHA256 of the body, keyed with the whole secret
//                               string ("whsec_...") as UTF-8 bytes.
//   X-Store-Signature-Previous  the same with the previous secret, while a rotation overlaps.
//   webhook-id / webhook-timestamp / webhook-signature   Standard Webhooks: "v1,<base64 HMAC-SHA256
//                               of `${id}.${timestamp}.${body}`>" entries separated by spaces, keyed
//                               with the base64-decoded part of the secret after "whsec_".
//
// Malformed input from the network never throws: it is a failed verification. A missing or
// non-string secret is the caller's mistake and throws a TypeError.

const encoder = new TextEncoder();
const SECRET_PREFIX = 'whsec_';
/** Bytes in an HMAC-SHA256. */
const MAC_BYTES = 32;

/** Standard Webhooks' default: a timestamp more than five minutes away from now is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Constant-time equality of two byte arrays of the same length: every byte is compared (XOR, then
 * OR into an accumulator) with no early exit, so the time taken does not depend on where they differ.
 * Arrays of different lengths are unequal at once (a length is not a secret: a MAC's is fixed).
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {boolean}
 */
export function timingSafeEqual(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * The body as bytes: strings are encoded as UTF-8, byte arrays and buffers are taken as they are.
 * @param {string | Uint8Array | ArrayBuffer} body
 * @returns {Uint8Array}
 */
function bodyBytes(body) {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('body must be the raw request body: a string, a Uint8Array (Node Buffer) or an ArrayBuffer');
}

/**
 * @param {Uint8Array} key
 * @param {Uint8Array} message
 * @returns {Promise<Uint8Array>}
 */
async function hmacSha256(key, message) {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message));
}

/**
 * Hex text to bytes, or undefined unless it is an even number of hex digits.
 * @param {string} hex
 * @returns {Uint8Array | undefined}
 */
function hexToBytes(hex) {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Standard base64 text to bytes, or undefined when it is not base64.
 * @param {string} text
 * @returns {Uint8Array | undefined}
 */
function base64ToBytes(text) {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** @param {unknown} secret @param {string} what */
function assertSecret(secret, what = 'secret') {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError(`${what} must be the endpoint's signing secret (a non-empty string, "whsec_...")`);
  }
}

/**
 * Verifies `X-Store-Signature` (or `X-Store-Signature-Previous`): the lowercase hex HMAC-SHA256 of the
 * exact body bytes, keyed with the whole secret string as UTF-8. Resolves false for a missing,
 * truncated or non-hex signature and for any mismatch.
 * @param {{ body: string | Uint8Array | ArrayBuffer, signature: string | null | undefined, secret: string }} input
 * @returns {Promise<boolean>}
 */
export async function verifyStoreSignature({ body, signature, secret }) {
  assertSecret(secret);
  const bytes = bodyBytes(body);
  if (typeof signature !== 'string') return false;
  const given = hexToBytes(signature.trim());
  if (!given || given.length !== MAC_BYTES) return false;
  const expected = await hmacSha256(encoder.encode(secret), bytes);
  return timingSafeEqual(given, expected);
}

/**
 * The key Standard Webhooks signs with: the base64 after `whsec_`.
 * @param {string} secret
 * @returns {Uint8Array}
 */
function standardKey(secret) {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = base64ToBytes(encoded);
  if (!key || key.length === 0) throw new TypeError('secret must be "whsec_" followed by base64 for Standard Webhooks verification');
  return key;
}

/**
 * A header's value from a Headers object (case-insensitive by itself), or from a plain object such
 * as Node's IncomingHttpHeaders, matched case-insensitively. Repeated values are joined with ", ".
 * @param {import('./webhooks').WebhookHeaders} headers
 * @param {string} name
 * @returns {string | undefined}
 */
export function getHeader(headers, name) {
  if (!headers) return undefined;
  /** @type {unknown} */
  let value;
  if (typeof (/** @type {any} */ (headers).get) === 'function') {
    value = /** @type {any} */ (headers).get(name);
  } else {
    const wanted = name.toLowerCase();
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === wanted) {
        value = /** @type {Record<string, unknown>} */ (headers)[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value.join(', ');
  return typeof value === 'string' ? value : undefined;
}

/**
 * @param {Date | number | undefined} now
 * @returns {number} milliseconds since the epoch
 */
function nowMs(now) {
  if (now === undefined) return Date.now();
  if (now instanceof Date) return now.getTime();
  return now;
}

/**
 * Verifies the Standard Webhooks headers: `webhook-timestamp` (Unix seconds) within
 * `toleranceSeconds` of `now` either way, and at least one `v1,<base64>` entry of the space-separated
 * `webhook-signature` matching HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` keyed with
 * the base64-decoded secret after `whsec_`. Entries of other versions are ignored.
 * @param {{ body: string | Uint8Array | ArrayBuffer, headers: import('./webhooks').WebhookHeaders, secret: string, toleranceSeconds?: number, now?: Date | number }} input
 * @returns {Promise<boolean>}
 */
export async function verifyStandardWebhook({ body, headers, secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now }) {
  assertSecret(secret);
  const key = standardKey(secret);
  const bytes = bodyBytes(body);
  const id = getHeader(headers, 'webhook-id');
  const timestamp = getHeader(headers, 'webhook-timestamp');
  const signatures = getHeader(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return false;
  if (!/^\d{1,12}$/.test(timestamp.trim())) return false;
  const seconds = Number(timestamp.trim());
  if (Math.abs(nowMs(now) / 1000 - seconds) > toleranceSeconds) return false;

  const prefix = encoder.encode(`${id}.${timestamp.trim()}.`);
  const message = new Uint8Array(prefix.length + bytes.length);
  message.set(prefix, 0);
  message.set(bytes, prefix.length);
  const expected = await hmacSha256(key, message);

  let matched = false;
  for (const entry of signatures.trim().split(/\s+/)) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const given = base64ToBytes(entry.slice(comma + 1));
    if (given && given.length === MAC_BYTES && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

/**
 * Verifies a delivery the way a receiver should: `X-Store-Signature` or, during a secret rotation,
 * `X-Store-Signature-Previous` must match one of the given secrets (give both the old and the new
 * secret while you rotate, so it does not matter which one the store has switched to). Also returns
 * the delivery id (`X-Store-Delivery`, else `webhook-id`): deduplicate on it, since every retry of a
 * delivery carries the same id. Resolves `{ valid: false, reason }` for a missing header, a malformed
 * signature or a mismatch ("invalid signature").
 * @param {{ body: string | Uint8Array | ArrayBuffer, headers: import('./webhooks').WebhookHeaders, secret?: string, secrets?: string[] }} input
 * @returns {Promise<import('./webhooks').WebhookVerification>}
 */
export async function verifyWebhook({ body, headers, secret, secrets }) {
  /** @type {string[]} */
  const keys = [...(secret !== undefined ? [secret] : []), ...(secrets ?? [])];
  if (keys.length === 0) throw new TypeError('verifyWebhook needs secret or secrets');
  keys.forEach((s, i) => assertSecret(s, `secrets[${i}]`));
  const bytes = bodyBytes(body);

  const deliveryId = getHeader(headers, 'x-store-delivery') ?? getHeader(headers, 'webhook-id');
  const event = getHeader(headers, 'x-store-event');
  const base = { deliveryId, event };

  const candidates = ['x-store-signature', 'x-store-signature-previous'].map((name) => getHeader(headers, name)?.trim()).filter((value) => value !== undefined && value !== '');
  if (candidates.length === 0) return { valid: false, reason: 'missing X-Store-Signature header', ...base };
  if (!candidates.some((value) => value.length === MAC_BYTES * 2 && hexToBytes(value))) {
    return { valid: false, reason: 'malformed signature (expected 64 hex characters)', ...base };
  }

  let valid = false;
  for (const key of keys) {
    for (const signature of candidates) {
      if (await verifyStoreSignature({ body: bytes, signature, secret: key })) valid = true;
    }
  }
  if (!valid) return { valid: false, reason: 'invalid signature', ...base };
  // Without X-Store-Event, the (now trusted) body names the event.
  return { valid: true, deliveryId, event: event ?? eventFromBody(bytes) };
}

/**
 * @param {Uint8Array} bytes
 * @returns {string | undefined}
 */
function eventFromBody(bytes) {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed?.event === 'string' ? parsed.event : undefined;
  } catch {
    return undefined;
  }
}
