import { toHex } from '../lib/crypto';

/**
 * How deliveries are signed (docs/webhooks.md). Two schemes over the exact body bytes:
 * - `X-Store-Signature`: lowercase hex HMAC-SHA256 of the body, keyed with the whole secret string
 *   as UTF-8 (what the spec's receivers compute with `hash_hmac('sha256', $body, $secret)`).
 * - Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 *   keyed with the base64-decoded part of the secret after `whsec_`, so their libraries verify it.
 * During a rotation's overlap the previous secret signs too: `X-Store-Signature-Previous`, and a
 * second `v1,` entry in `webhook-signature`. The receivers' side is the TypeScript client's verifier,
 * clients/typescript/src/webhooks.js.
 */

export const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

export function mintWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return SECRET_PREFIX + btoa(String.fromCharCode(...bytes));
}

async function hmac(key: Uint8Array, message: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
}

/** `X-Store-Signature`: hex HMAC-SHA256 of the body keyed with the secret string. */
export async function storeSignature(secret: string, body: string): Promise<string> {
  return toHex(await hmac(encoder.encode(secret), body));
}

/** The key bytes Standard Webhooks uses: the base64 after `whsec_`. */
function standardKey(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Uint8Array.from(atob(encoded), (ch) => ch.charCodeAt(0));
}

/** One `v1,<base64>` entry of `webhook-signature`. */
export async function standardSignature(secret: string, messageId: string, timestamp: number, body: string): Promise<string> {
  const mac = new Uint8Array(await hmac(standardKey(secret), `${messageId}.${timestamp}.${body}`));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

export interface SigningInput {
  /** The current secret first, then the previous one while its overlap lasts. */
  secrets: string[];
  deliveryId: string;
  eventType: string;
  body: string;
  now?: Date;
  /** Set on a delivery a replay queued: sent as `X-Store-Replay`. */
  replayId?: string | null;
}

/** Every header of a delivery request, signatures included. */
export async function deliveryHeaders(input: SigningInput): Promise<Record<string, string>> {
  const [current, previous] = input.secrets;
  if (!current) throw new Error('a delivery needs a signing secret');
  const timestamp = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const standard = await Promise.all(input.secrets.map((s) => standardSignature(s, input.deliveryId, timestamp, input.body)));
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'store-api-webhooks/1',
    'X-Store-Event': input.eventType,
    'X-Store-Delivery': input.deliveryId,
    ...(input.replayId ? { 'X-Store-Replay': input.replayId } : {}),
    'X-Store-Signature': await storeSignature(current, input.body),
    ...(previous ? { 'X-Store-Signature-Previous': await storeSignature(previous, input.body) } : {}),
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
}
