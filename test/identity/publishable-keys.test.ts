import { beforeAll, describe, expect, it } from 'vitest';
import { forgetPublishableKey } from '../../src/middleware/credentials/publishable-keys-kept';
import type { Principal } from '../../src/lib/access';
import { createApiKeyFor } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertVendor, uid } from '../helpers';

const SHOP = 'https://shop.example';
let admin: string;
let pk: string;
let pkId: string;

const mint = (json: Record<string, unknown>) => api('/api/settings/api-keys', { method: 'POST', key: admin, json });
const asShop = (path: string, init: RequestInit & { json?: unknown } = {}, origin: string | undefined = SHOP) =>
  api(path, { ...init, key: pk, headers: { ...(origin ? { Origin: origin } : {}), ...(init.headers as Record<string, string> | undefined) } });

beforeAll(async () => {
  admin = await adminKey();
  const res = await mint({ name: 'Storefront', type: 'publishable', allowedOrigins: [SHOP, 'https://*.preview.shop.example'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  pk = res.body.data.key;
  pkId = res.body.data.id;
});

describe('minting a publishable key', () => {
  it('gives a pk_ key with its origins and no permissions', async () => {
    expect(pk).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    const listed = await api(`/api/settings/api-keys/${pkId}`, { key: admin });
    expect(listed.body.data).toMatchObject({ type: 'publishable', allowedOrigins: [SHOP, 'https://*.preview.shop.example'], permissions: [], role: null, prefix: pk.slice(0, 11) });
  });

  it('refuses a role, permissions or a vendor, no origins, and origins on a secret key (422 naming the field)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'publishable', allowedOrigins: [SHOP], role: 'admin' }, 'role'],
      [{ type: 'publishable', allowedOrigins: [SHOP], permissions: ['products:write'] }, 'permissions'],
      [{ type: 'publishable' }, 'allowedOrigins'],
      [{ type: 'publishable', allowedOrigins: [] }, 'allowedOrigins'],
      [{ type: 'publishable', allowedOrigins: ['https://shop.example/path'] }, 'allowedOrigins'],
      [{ role: 'admin', allowedOrigins: [SHOP] }, 'allowedOrigins'],
    ];
    for (const [body, field] of cases) {
      const res = await mint({ name: `bad ${uid()}`, ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error.details), JSON.stringify(body)).toContain(field);
    }
  });
});

describe('minting a publishable key under the grant rule', () => {
  const input = { name: 'pk', type: 'publishable' as const, allowedOrigins: [SHOP] };
  it('is open to any minter of keys, but not to one acting for a single vendor', async () => {
    const keysOnly: Principal = { kind: 'api_key', id: 'key_minter', role: null, permissions: ['api-keys:write'], vendorId: null, ownerId: null };
    const minted = await createApiKeyFor(db(), keysOnly, input);
    expect(minted.key).toMatch(/^pk_/);
    const vendor = await insertVendor();
    const vendorMinter: Principal = { kind: 'api_key', id: 'key_vendor', role: null, permissions: ['api-keys:write'], vendorId: vendor.id, ownerId: null };
    await expect(createApiKeyFor(db(), vendorMinter, input)).rejects.toMatchObject({ status: 403 });
  });
});

describe('a request with a publishable key', () => {
  it('reads the catalogue from its origins, and from no origin (a server), with the public view', async () => {
    const product = await createProduct(admin, { status: 'active' });
    const draft = await createProduct(admin, { status: 'draft' });
    for (const origin of [SHOP, 'https://pr-12.preview.shop.example', undefined]) {
      const res = await asShop(`/api/products/${product.id}`, {}, origin);
      expect(res.status, `${origin}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expectError(await asShop(`/api/products/${draft.id}`), 404, 'NOT_FOUND');
  });

  it('costs no D1 round trip of its own once confirmed: rendered afresh, it costs what an anonymous request costs', async () => {
    await createProduct(admin, { status: 'active' });
    const path = '/api/products?limit=2';
    await api(path);
    forgetPublishableKey(pkId);
    const roundTrips = async (init: { key?: string }) =>
      Number((await api(path, { ...init, headers: { Origin: SHOP, 'Cache-Control': 'no-cache' } })).headers.get('X-D1-Round-Trips'));
    const first = await roundTrips({ key: pk });
    const again = await roundTrips({ key: pk });
    const anonymous = await roundTrips({});
    expect(first).toBe(anonymous + 1);
    expect(again).toBe(anonymous);
  });

  it('is refused (403) from another origin', async () => {
    for (const origin of ['https://evil.example', 'http://shop.example', 'https://preview.shop.example']) {
      const res = await asShop('/api/products', {}, origin);
      expectError(res, 403, 'AUTHORIZATION_ERROR');
      expect(res.body.error.message).toContain(origin);
    }
  });

  it("cannot write the catalogue or read anyone else's data (403, not 401)", async () => {
    expectError(await asShop('/api/products', { method: 'POST', json: { name: 'Nope', price: 1 } }), 403, 'AUTHORIZATION_ERROR');
    for (const path of ['/api/orders', '/api/customers', '/api/settings', '/api/settings/api-keys', '/api/carts', '/api/audit-log']) {
      expectError(await asShop(path), 403, 'AUTHORIZATION_ERROR');
    }
    // Minting another key with it is refused too.
    expectError(await asShop('/api/settings/api-keys', { method: 'POST', json: { name: 'escalate', role: 'admin' } }), 403, 'AUTHORIZATION_ERROR');
  });

  it('takes a guest cart through checkout, and signs a shopper up and in', async () => {
    const { variants } = await createProduct(admin, { status: 'active', price: 12.5, stock: 5 });
    const created = await asShop('/api/carts', { method: 'POST', json: { email: `pk-${uid()}@example.test` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, token } = created.body.data;
    const cartHeaders = { 'X-Cart-Token': token };
    expect((await asShop(`/api/carts/${id}/lines`, { method: 'POST', headers: cartHeaders, json: { variantId: variants[0].id, quantity: 2 } })).status).toBe(200);
    const order = await asShop(`/api/carts/${id}/checkout`, { method: 'POST', headers: cartHeaders, json: {} });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data).toMatchObject({ status: 'pending', subtotal: 25 });

    const email = `pk-shopper-${uid()}@example.test`;
    const registered = await asShop('/api/auth/register', { method: 'POST', json: { email, password: 'correct horse battery', name: 'Pat Shopper' } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const login = await asShop('/api/auth/login', { method: 'POST', json: { email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    // The shopper's own token then reaches the shopper's account.
    expect((await api('/api/customers/me', { key: login.body.data.token })).status).toBe(200);
  });

  it('is refused once revoked (401), whatever the origin', async () => {
    const res = await mint({ name: `short-lived ${uid()}`, type: 'publishable', allowedOrigins: [SHOP] });
    const key = res.body.data.key;
    expect((await api('/api/products', { key, headers: { Origin: SHOP } })).status).toBe(200);
    expect((await api(`/api/settings/api-keys/${res.body.data.id}`, { method: 'DELETE', key: admin })).status).toBe(204);
    expectError(await api('/api/products', { key, headers: { Origin: SHOP } }), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/products', { key }), 401, 'AUTHENTICATION_ERROR');
  });

  it('is 401 when malformed or unknown', async () => {
    expectError(await api('/api/products', { key: 'pk_short' }), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/products', { key: `pk_${'a'.repeat(40)}` }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('X-Buyer-IP', () => {
  it('needs storefront:buyer-ip (403) and an address (400)', async () => {
    const plain = (await mint({ name: `no buyer ip ${uid()}`, permissions: ['products:read'] })).body.data.key;
    expectError(await api('/api/products', { key: plain, headers: { 'X-Buyer-IP': '203.0.113.7' } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/products', { headers: { 'X-Buyer-IP': '203.0.113.7' } }), 403, 'AUTHORIZATION_ERROR');
    const server = (await mint({ name: `storefront server ${uid()}`, permissions: ['storefront:buyer-ip'] })).body.data.key;
    expect((await api('/api/products', { key: server, headers: { 'X-Buyer-IP': '203.0.113.7' } })).status).toBe(200);
    const bad = await api('/api/products', { key: server, headers: { 'X-Buyer-IP': 'not-an-address' } });
    expectError(bad, 400, 'INVALID_REQUEST');
    expect(bad.body.error.details.field).toBe('X-Buyer-IP');
    expect(bad.body.error.message).toContain("header 'X-Buyer-IP'");
  });

  it("locks a shopper out of an account by the shopper's network, not the storefront server's", async () => {
    const server = (await mint({ name: `ssr ${uid()}`, permissions: ['storefront:buyer-ip'] })).body.data.key;
    const email = `ssr-${uid()}@example.test`;
    expect((await api('/api/auth/register', { method: 'POST', json: { email, password: 'correct horse battery', name: 'Sam' } })).status).toBe(201);
    const login = (buyer: string, password: string) =>
      api('/api/auth/login', { method: 'POST', key: server, headers: { 'X-Buyer-IP': buyer, 'CF-Connecting-IP': '192.0.2.99' }, json: { email, password } });
    for (let i = 0; i < 4; i++) expect((await login('203.0.113.50', 'wrong password')).status).toBe(401);
    expectError(await login('203.0.113.50', 'wrong password'), 429, 'RATE_LIMITED');
    expectError(await login('203.0.113.50', 'correct horse battery'), 429, 'RATE_LIMITED');
    // Another shopper behind the same server signs in.
    expect((await login('203.0.113.51', 'correct horse battery')).status).toBe(200);
  });

  it('is not a permission a narrower key can grant', async () => {
    const narrow = (await mint({ name: `keys only ${uid()}`, permissions: ['api-keys:write', 'api-keys:read'] })).body.data.key;
    const res = await api('/api/settings/api-keys', { method: 'POST', key: narrow, json: { name: 'server', permissions: ['storefront:buyer-ip'] } });
    expectError(res, 403, 'AUTHORIZATION_ERROR');
    expect(res.body.error.message).toContain('storefront:buyer-ip');
  });
});
