import { describe, expect, it } from 'vitest';
import { deliveryHeaders, mintWebhookSecret, standardSignature, storeSignature } from '../../src/webhooks/signature';
import { verifyStandardWebhook, verifyStoreSignature, verifyWebhook } from '../../clients/typescript/src/webhooks.js';

// The receiver's verifier inside workerd, against the same fixed vectors as verify.node.test.ts
// (computed with node:crypto and openssl), and against what the Worker's own signer (signature.ts)
// puts on a delivery: if the two sides drift apart, this fails.

const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const PREVIOUS_SECRET = 'whsec_q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s=';
const BODY =
  '{"id":"evt_01JTESTVECTOR000000000000","event":"order.placed","data":{"orderId":"ord_01JTESTORDER0000000000000","customerId":"cus_1","total":42.5,"currency":"EUR","status":"pending","note":"Café ☕"},"timestamp":"2026-01-02T03:04:05.000Z"}';
const EXPECTED_HEX = '0560470429022e94ab8661cb68f42bcb1008e6df5fb612f42f58e98e30a38144';
const EXPECTED_PREVIOUS_HEX = 'cabb8d864dfb3d63b6a47c7200674acc1e7a195f7324882cfbad6e1db98cb005';
const DELIVERY_ID = 'dlv_01JTESTDELIVERY00000000';
const TIMESTAMP = 1767323045;
const EXPECTED_STANDARD = 'v1,wP30mJi4El0OOO+U78b4ay9tCZA/wV6f9/S20BZeH8s=';
const NOW = new Date(TIMESTAMP * 1000);

function headers(overrides: Record<string, string | undefined> = {}): Headers {
  const all: Record<string, string | undefined> = {
    'Content-Type': 'application/json',
    'X-Store-Event': 'order.placed',
    'X-Store-Delivery': DELIVERY_ID,
    'X-Store-Signature': EXPECTED_HEX,
    'webhook-id': DELIVERY_ID,
    'webhook-timestamp': String(TIMESTAMP),
    'webhook-signature': EXPECTED_STANDARD,
    ...overrides,
  };
  const result = new Headers();
  for (const [name, value] of Object.entries(all)) if (value !== undefined) result.set(name, value);
  return result;
}

describe('the signer matches the fixed vectors', () => {
  it('signature.ts computes the same hex and v1 signatures', async () => {
    expect(await storeSignature(SECRET, BODY)).toBe(EXPECTED_HEX);
    expect(await storeSignature(PREVIOUS_SECRET, BODY)).toBe(EXPECTED_PREVIOUS_HEX);
    expect(await standardSignature(SECRET, DELIVERY_ID, TIMESTAMP, BODY)).toBe(EXPECTED_STANDARD);
  });
});

describe('verify.js in workerd', () => {
  it('accepts the fixed vectors (string and byte bodies)', async () => {
    expect(await verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
    expect(await verifyStoreSignature({ body: new TextEncoder().encode(BODY), signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
    expect(await verifyStoreSignature({ body: new TextEncoder().encode(BODY).buffer as ArrayBuffer, signature: EXPECTED_HEX, secret: SECRET })).toBe(true);
    expect(await verifyStandardWebhook({ body: BODY, headers: headers(), secret: SECRET, now: NOW })).toBe(true);
    expect(await verifyWebhook({ body: BODY, headers: headers(), secret: SECRET })).toEqual({ valid: true, deliveryId: DELIVERY_ID, event: 'order.placed' });
  });

  it('rejects a changed body byte, a wrong secret, a truncated or non-hex signature', async () => {
    const bytes = new TextEncoder().encode(BODY);
    bytes[10] = bytes[10]! ^ 0x20;
    expect(await verifyStoreSignature({ body: bytes, signature: EXPECTED_HEX, secret: SECRET })).toBe(false);
    expect(await verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX, secret: PREVIOUS_SECRET })).toBe(false);
    expect(await verifyStoreSignature({ body: BODY, signature: EXPECTED_HEX.slice(0, 62), secret: SECRET })).toBe(false);
    expect(await verifyStoreSignature({ body: BODY, signature: `${EXPECTED_HEX.slice(0, 63)}x`, secret: SECRET })).toBe(false);
    expect(await verifyWebhook({ body: bytes, headers: headers(), secret: SECRET })).toMatchObject({ valid: false, reason: 'invalid signature', deliveryId: DELIVERY_ID });
    expect(await verifyStandardWebhook({ body: bytes, headers: headers(), secret: SECRET, now: NOW })).toBe(false);
  });

  it('rejects an old timestamp and a missing header', async () => {
    expect(await verifyStandardWebhook({ body: BODY, headers: headers(), secret: SECRET, now: TIMESTAMP * 1000 + 301_000 })).toBe(false);
    expect(await verifyStandardWebhook({ body: BODY, headers: headers({ 'webhook-timestamp': undefined }), secret: SECRET, now: NOW })).toBe(false);
    expect(await verifyWebhook({ body: BODY, headers: headers({ 'X-Store-Signature': undefined }), secret: SECRET })).toMatchObject({
      valid: false,
      reason: 'missing X-Store-Signature header',
    });
  });

  it('accepts the previous-secret header during a rotation', async () => {
    const rotating = headers({ 'X-Store-Signature': await storeSignature(SECRET, BODY), 'X-Store-Signature-Previous': EXPECTED_PREVIOUS_HEX });
    expect((await verifyWebhook({ body: BODY, headers: rotating, secret: PREVIOUS_SECRET })).valid).toBe(true);
    expect((await verifyWebhook({ body: BODY, headers: rotating, secrets: [SECRET, PREVIOUS_SECRET] })).valid).toBe(true);
  });
});

describe('what the Worker signs, the verifier accepts', () => {
  it('deliveryHeaders with one secret', async () => {
    const secret = mintWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', event: 'ping', data: {}, timestamp: new Date().toISOString() });
    const sent = await deliveryHeaders({ secrets: [secret], deliveryId: 'dlv_1', eventType: 'ping', body });
    const received = new Headers(sent);
    expect(await verifyWebhook({ body, headers: received, secret })).toEqual({ valid: true, deliveryId: 'dlv_1', event: 'ping' });
    expect(await verifyStandardWebhook({ body, headers: received, secret })).toBe(true);
    // Node-style lower-case plain object, too.
    const plain = Object.fromEntries([...received].map(([k, v]) => [k.toLowerCase(), v]));
    expect((await verifyWebhook({ body, headers: plain, secret })).valid).toBe(true);
    expect((await verifyWebhook({ body, headers: received, secret: mintWebhookSecret() })).valid).toBe(false);
  });

  it('deliveryHeaders during a rotation: the old secret, the new one, or both', async () => {
    const [current, previous] = [mintWebhookSecret(), mintWebhookSecret()];
    const body = JSON.stringify({ id: 'evt_2', event: 'order.updated', data: { orderId: 'ord_1' }, timestamp: new Date().toISOString() });
    const received = new Headers(await deliveryHeaders({ secrets: [current, previous], deliveryId: 'dlv_2', eventType: 'order.updated', body }));
    expect(received.get('X-Store-Signature-Previous')).toMatch(/^[0-9a-f]{64}$/);
    for (const secrets of [[current], [previous], [previous, current]]) {
      expect((await verifyWebhook({ body, headers: received, secrets })).valid).toBe(true);
      expect(await verifyStandardWebhook({ body, headers: received, secret: secrets[0]! })).toBe(true);
    }
  });
});
