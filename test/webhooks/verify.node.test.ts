import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getHeader, timingSafeEqual, verifyStandardWebhook, verifyStoreSignature, verifyWebhook } from '../../clients/typescript/src/webhooks.js';

// The receiver's verifier under Node 20, checked against node:crypto's createHmac (an implementation
// independent of Web Crypto) and against fixed vectors. The vectors are written out on purpose: if
// either the signing scheme or the verifier changes, this fails. They were also checked with
// `openssl dgst -sha256 -hmac`. test/webhooks/verify.test.ts has the same vectors inside workerd.

const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='; // base64 of bytes 0..31
const PREVIOUS_SECRET = 'whsec_q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s='; // 32 bytes of 0xab
// Not ASCII on purpose ("Café ☕"): the MAC is over UTF-8 bytes.
const BODY =
  '{"id":"evt_01JTESTVECTOR000000000000","event":"order.placed","data":{"orderId":"ord_01JTESTORDER0000000000000","customerId":"cus_1","total":42.5,"currency":"EUR","status":"pending","note":"Café ☕"},"timestamp":"2026-01-02T03:04:05.000Z"}';
const EXPECTED_HEX = '0560470429022e94ab8661cb68f42bcb1008e6df5fb612f42f58e98e30a38144';
const EXPECTED_PREVIOUS_HEX = 'cabb8d864dfb3d63b6a47c7200674acc1e7a195f7324882cfbad6e1db98cb005';
const DELIVERY_ID = 'dlv_01JTESTDELIVERY00000000';
const TIMESTAMP = 1767323045; // 2026-01-02T03:04:05Z
const EXPECTED_STANDARD = 'v1,wP30mJi4El0OOO+U78b4ay9tCZA/wV6f9/S20BZeH8s=';
const NOW = new Date(TIMESTAMP * 1000);

const hex = (secret: string, body: string | Buffer) => createHmac('sha256', secret).update(body).digest('hex');
const standard = (secret: string, id: string, ts: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${ts}.${body}`)
    .digest('base64')}`;

/** A delivery's headers as Node's http server hands them over: lower-case keys. */
function nodeHeaders(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    'content-type': 'application/json',
    'x-store-event': 'order.placed',
    'x-store-delivery': DELIVERY_ID,
    'x-store-signature': EXPECTED_HEX,
    'webhook-id': DELIVERY_ID,
    'webhook-timestamp': String(TIMESTAMP),
    'webhook-signature': EXPECTED_STANDARD,
    ...overrides,
  };
}

describe('test vectors', () => {
  it('node:crypto agrees with the fixed vectors (so the vectors themselves are right)', () => {
    expect(hex(SECRET, BODY)).toBe(EXPECTED_HEX);
    expect(hex(PREVIOUS_SECRET, BODY)).toBe(EXPECTED_PREVIOUS_HEX);
    expect(standard(SECRET, DELIVERY_ID, TIMESTAMP, BODY)).toBe(EXPECTED_STANDARD);
  });
});

describe('verifyStoreSignature', () => {
  it('accepts the vector, from a string, a Buffer and an ArrayBuffer body', async () => {
    expect(await verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
    const buffer = Buffer.from(BODY, 'utf8');
    expect(await verifyStoreSignature({ body: buffer, signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
    const arrayBuffer = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    expect(await verifyStoreSignature({ body: arrayBuffer, signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
  });

  it('accepts what node:crypto computes for random secrets and bodies', async () => {
    for (let i = 0; i < 20; i++) {
      const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
      const body = JSON.stringify({ id: `evt_${i}`, event: 'product.updated', data: { n: Math.random(), s: 'ü'.repeat(i) }, timestamp: new Date().toISOString() });
      expect(await verifyStoreSignature({ body, signature: hex(secret, body), secret })).toBe(true);
    }
  });

  it('rejects a body with one byte changed', async () => {
    const bytes = Buffer.from(BODY, 'utf8');
    for (const index of [0, 57, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = tampered[index]! ^ 0x01;
      expect(await verifyStoreSignature({ body: tampered, signature: EXPECTED_HEX, secret: SECRET })).toBe(false);
    }
    // Re-serialised JSON is different bytes: verify the raw body, never JSON.stringify(JSON.parse(body)).
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(await verifyStoreSignature({ body: reserialised, signature: EXPECTED_HEX, secret: SECRET })).toBe(false);
  });

  it('rejects a wrong secret, including the secret without its prefix and the base64-decoded key', async () => {
    for (const secret of [PREVIOUS_SECRET, SECRET.slice('whsec_'.length), `${SECRET} `, SECRET.toUpperCase()]) {
      expect(await verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret })).toBe(false);
    }
  });

  it('rejects truncated, extended, non-hex, empty and missing signatures', async () => {
    const bad = [
      EXPECTED_HEX.slice(0, 63),
      EXPECTED_HEX.slice(0, 32),
      `${EXPECTED_HEX}00`,
      `${EXPECTED_HEX.slice(0, 63)}g`,
      `sha256=${EXPECTED_HEX}`,
      Buffer.from(EXPECTED_HEX, 'hex').toString('base64'),
      '',
      undefined,
      null,
    ];
    for (const signature of bad) {
      expect(await verifyStoreSignature({ body: BODY, signature, secret: SECRET })).toBe(false);
    }
  });

  it('throws on a missing secret (a configuration error, not a bad delivery)', async () => {
    await expect(verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret: '' })).rejects.toThrow(TypeError);
    await expect(verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret: undefined as unknown as string })).rejects.toThrow(TypeError);
  });
});

describe('verifyStandardWebhook', () => {
  it('accepts the vector at its timestamp and within the tolerance either way', async () => {
    for (const now of [NOW, TIMESTAMP * 1000 + 299_000, TIMESTAMP * 1000 - 299_000]) {
      expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders(), secret: SECRET, now })).toBe(true);
    }
  });

  it('accepts a match anywhere in a space-separated list (rotation), and ignores other versions', async () => {
    const other = standard(PREVIOUS_SECRET, DELIVERY_ID, TIMESTAMP, BODY);
    const headers = nodeHeaders({ 'webhook-signature': `v2,abc ${other} ${EXPECTED_STANDARD}` });
    expect(await verifyStandardWebhook({ body: BODY, headers, secret: SECRET, now: NOW })).toBe(true);
    expect(await verifyStandardWebhook({ body: BODY, headers, secret: PREVIOUS_SECRET, now: NOW })).toBe(true);
    const wrongVersion = nodeHeaders({ 'webhook-signature': EXPECTED_STANDARD.replace('v1,', 'v2,') });
    expect(await verifyStandardWebhook({ body: BODY, headers: wrongVersion, secret: SECRET, now: NOW })).toBe(false);
  });

  it('rejects an old or future timestamp, and a non-numeric one', async () => {
    for (const now of [TIMESTAMP * 1000 + 301_000, TIMESTAMP * 1000 - 301_000, new Date()]) {
      expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders(), secret: SECRET, now })).toBe(false);
    }
    expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders(), secret: SECRET, now: TIMESTAMP * 1000 + 3_600_000, toleranceSeconds: 3600 })).toBe(true);
    const headers = nodeHeaders({ 'webhook-timestamp': `${TIMESTAMP}.0` });
    expect(await verifyStandardWebhook({ body: BODY, headers, secret: SECRET, now: NOW })).toBe(false);
  });

  it('rejects a changed body, id or timestamp, a wrong secret and a truncated signature', async () => {
    expect(await verifyStandardWebhook({ body: BODY.replace('42.5', '42.6'), headers: nodeHeaders(), secret: SECRET, now: NOW })).toBe(false);
    expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders({ 'webhook-id': 'dlv_other' }), secret: SECRET, now: NOW })).toBe(false);
    expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders({ 'webhook-timestamp': String(TIMESTAMP + 1) }), secret: SECRET, now: NOW })).toBe(false);
    expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders(), secret: PREVIOUS_SECRET, now: NOW })).toBe(false);
    const truncated = nodeHeaders({ 'webhook-signature': EXPECTED_STANDARD.slice(0, -4) });
    expect(await verifyStandardWebhook({ body: BODY, headers: truncated, secret: SECRET, now: NOW })).toBe(false);
  });

  it('rejects when any of its three headers is missing', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      expect(await verifyStandardWebhook({ body: BODY, headers: nodeHeaders({ [name]: undefined }), secret: SECRET, now: NOW })).toBe(false);
    }
  });
});

describe('verifyWebhook', () => {
  it('accepts a delivery and returns its delivery id and event', async () => {
    expect(await verifyWebhook({ body: BODY, headers: nodeHeaders(), secret: SECRET })).toEqual({
      valid: true,
      deliveryId: DELIVERY_ID,
      event: 'order.placed',
    });
  });

  it('looks headers up case-insensitively in plain objects and in Headers', async () => {
    const mixed = { 'X-Store-Signature': EXPECTED_HEX, 'X-STORE-DELIVERY': DELIVERY_ID, 'x-Store-Event': 'order.placed' };
    expect(await verifyWebhook({ body: BODY, headers: mixed, secret: SECRET })).toMatchObject({ valid: true, deliveryId: DELIVERY_ID, event: 'order.placed' });
    const headers = new Headers({ 'X-Store-Signature': EXPECTED_HEX, 'X-Store-Delivery': DELIVERY_ID });
    expect(await verifyWebhook({ body: BODY, headers, secret: SECRET })).toMatchObject({ valid: true, deliveryId: DELIVERY_ID, event: 'order.placed' });
    expect(getHeader({ 'X-A': ['1', '2'] }, 'x-a')).toBe('1, 2');
    expect(getHeader({}, 'x-a')).toBeUndefined();
  });

  it('during a rotation, accepts the previous-secret header with the old secret, and either secret from a list', async () => {
    const rotating = nodeHeaders({ 'x-store-signature': hex(SECRET, BODY), 'x-store-signature-previous': EXPECTED_PREVIOUS_HEX });
    // A receiver that still has only the old secret.
    expect((await verifyWebhook({ body: BODY, headers: rotating, secret: PREVIOUS_SECRET })).valid).toBe(true);
    // One that already has the new one.
    expect((await verifyWebhook({ body: BODY, headers: rotating, secret: SECRET })).valid).toBe(true);
    // One that holds both while it switches, in either order; and before the store has rotated.
    expect((await verifyWebhook({ body: BODY, headers: rotating, secrets: [SECRET, PREVIOUS_SECRET] })).valid).toBe(true);
    expect((await verifyWebhook({ body: BODY, headers: nodeHeaders(), secrets: [PREVIOUS_SECRET, SECRET] })).valid).toBe(true);
    // A previous-secret header alone is still a signature by that secret.
    const previousOnly = nodeHeaders({ 'x-store-signature': undefined, 'x-store-signature-previous': EXPECTED_PREVIOUS_HEX });
    expect((await verifyWebhook({ body: BODY, headers: previousOnly, secret: PREVIOUS_SECRET })).valid).toBe(true);
    // A third secret matches neither.
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(await verifyWebhook({ body: BODY, headers: rotating, secret: other })).toMatchObject({ valid: false, reason: 'invalid signature' });
  });

  it('says why a delivery is refused, and still reports its delivery id', async () => {
    expect(await verifyWebhook({ body: `${BODY} `, headers: nodeHeaders(), secret: SECRET })).toEqual({
      valid: false,
      reason: 'invalid signature',
      deliveryId: DELIVERY_ID,
      event: 'order.placed',
    });
    expect(await verifyWebhook({ body: BODY, headers: nodeHeaders(), secret: PREVIOUS_SECRET })).toMatchObject({ valid: false, reason: 'invalid signature' });
    expect(await verifyWebhook({ body: BODY, headers: nodeHeaders({ 'x-store-signature': undefined }), secret: SECRET })).toMatchObject({
      valid: false,
      reason: 'missing X-Store-Signature header',
    });
    for (const signature of [EXPECTED_HEX.slice(0, 40), `${EXPECTED_HEX.slice(0, 63)}z`]) {
      expect(await verifyWebhook({ body: BODY, headers: nodeHeaders({ 'x-store-signature': signature }), secret: SECRET })).toMatchObject({
        valid: false,
        reason: 'malformed signature (expected 64 hex characters)',
      });
    }
  });

  it('throws without any secret', async () => {
    await expect(verifyWebhook({ body: BODY, headers: nodeHeaders() })).rejects.toThrow(/secret/);
    await expect(verifyWebhook({ body: BODY, headers: nodeHeaders(), secrets: [] })).rejects.toThrow(/secret/);
  });
});

describe('timingSafeEqual', () => {
  it('compares every byte and refuses different lengths', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([0, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array(), new Uint8Array())).toBe(true);
  });
});
