import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createProduct, expectError, insertVendor, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** Two vendors with a user each, and products of both (one draft each) tagged with a shared token. */
async function twoVendors() {
  const token = uid();
  const mine = await insertVendorUser();
  const other = await insertVendorUser();
  const own = await createProduct(key, { name: `Own ${token}`, vendorId: mine.vendor.id });
  const ownDraft = await createProduct(key, { name: `Own draft ${token}`, vendorId: mine.vendor.id, status: 'draft' });
  const theirs = await createProduct(key, { name: `Theirs ${token}`, vendorId: other.vendor.id });
  const unowned = await createProduct(key, { name: `Store ${token}` });
  return { token, mine, other, own, ownDraft, theirs, unowned };
}

const names = (res: { body: any }) => res.body.data.map((p: any) => p.name).sort();

describe('products seen by a vendor user', () => {
  it('lists only its own products, in every status, with a correct total', async () => {
    const { token, mine, own, ownDraft } = await twoVendors();
    const res = await api(`/api/products?q=${token}`, { key: mine.token });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([own.name, ownDraft.name].sort());
    expect(res.body.pagination.total).toBe(2);
    const drafts = await api(`/api/products?q=${token}&status=draft`, { key: mine.token });
    expect(names(drafts)).toEqual([ownDraft.name]);
  });

  it('finds nothing when filtering on another vendor', async () => {
    const { token, mine, other } = await twoVendors();
    const res = await api(`/api/products?q=${token}&vendor=${other.vendor.id}`, { key: mine.token });
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.total).toBe(0);
  });

  it("reads its own product (drafts included); another vendor's is 404, by id and by slug", async () => {
    const { mine, ownDraft, theirs, unowned } = await twoVendors();
    expect((await api(`/api/products/${ownDraft.id}`, { key: mine.token })).body.data.id).toBe(ownDraft.id);
    expectError(await api(`/api/products/${theirs.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${theirs.slug}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${unowned.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${theirs.id}/variants`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${theirs.id}/variants/${theirs.variants[0].id}`, { key: mine.token }), 404, 'NOT_FOUND');
  });

  it('anonymous callers and admins are unchanged', async () => {
    const { token, own, ownDraft, theirs, unowned } = await twoVendors();
    expect(names(await api(`/api/products?q=${token}`))).toEqual([own.name, theirs.name, unowned.name].sort());
    expect(names(await api(`/api/products?q=${token}`, { key }))).toEqual([own.name, ownDraft.name, theirs.name, unowned.name].sort());
  });
});

describe('products written by a vendor user', () => {
  it('creates products for its own vendor, with or without naming it', async () => {
    const { vendor, token } = await insertVendorUser();
    const implicit = await api('/api/products', { method: 'POST', key: token, json: { name: `Mine ${uid()}`, price: 5 } });
    expect(implicit.status, JSON.stringify(implicit.body)).toBe(201);
    expect(implicit.body.data.vendor.id).toBe(vendor.id);
    const explicit = await api('/api/products', { method: 'POST', key: token, json: { name: `Mine ${uid()}`, price: 5, vendorId: vendor.id } });
    expect(explicit.body.data.vendor.id).toBe(vendor.id);
  });

  it('refuses creating a product for another vendor, or for none, with 403', async () => {
    const { token } = await insertVendorUser();
    const other = await insertVendor();
    for (const vendorId of [other.id, null, 'vend_missing']) {
      const res = await api('/api/products', { method: 'POST', key: token, json: { name: `X ${uid()}`, price: 5, vendorId } });
      expectError(res, 403, 'AUTHORIZATION_ERROR');
    }
  });

  it('updates and deletes its own products; cannot move one to another vendor', async () => {
    const { mine, other, own } = await twoVendors();
    const updated = await api(`/api/products/${own.id}`, { method: 'PATCH', key: mine.token, json: { price: 12.5 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.price).toBe(12.5);
    expectError(await api(`/api/products/${own.id}`, { method: 'PATCH', key: mine.token, json: { vendorId: other.vendor.id } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/products/${own.id}`, { method: 'PATCH', key: mine.token, json: { vendorId: null } }), 403, 'AUTHORIZATION_ERROR');
    expect((await api(`/api/products/${own.id}`, { key })).body.data.vendor.id).toBe(mine.vendor.id);
    expect((await api(`/api/products/${own.id}`, { method: 'DELETE', key: mine.token })).status).toBe(204);
  });

  it("gets 404 for updates, deletes and variant writes on another vendor's product, which stays untouched", async () => {
    const { mine, theirs } = await twoVendors();
    const variant = theirs.variants[0].id;
    const attempts = [
      api(`/api/products/${theirs.id}`, { method: 'PATCH', key: mine.token, json: { price: 1 } }),
      api(`/api/products/${theirs.id}`, { method: 'DELETE', key: mine.token }),
      api(`/api/products/${theirs.id}/variants`, { method: 'POST', key: mine.token, json: { sku: `S-${uid()}` } }),
      api(`/api/products/${theirs.id}/variants/${variant}`, { method: 'PATCH', key: mine.token, json: { stock: 0 } }),
      api(`/api/products/${theirs.id}/variants/${variant}`, { method: 'DELETE', key: mine.token }),
    ];
    for (const res of await Promise.all(attempts)) expectError(res, 404, 'NOT_FOUND');
    const after = (await api(`/api/products/${theirs.id}`, { key })).body.data;
    expect(after).toMatchObject({ price: theirs.price, stock: theirs.stock, updatedAt: theirs.updatedAt });
    expect(after.variants).toHaveLength(1);
  });

  it('manages variants of its own products', async () => {
    const { mine, own } = await twoVendors();
    const res = await api(`/api/products/${own.id}/variants`, { method: 'POST', key: mine.token, json: { sku: `V-${uid()}`, stock: 3 } });
    expect(res.status).toBe(201);
    expect((await api(`/api/products/${own.id}/variants/${res.body.data.id}`, { method: 'PATCH', key: mine.token, json: { stock: 4 } })).body.data.stock).toBe(4);
    expect((await api(`/api/products/${own.id}/variants/${res.body.data.id}`, { method: 'DELETE', key: mine.token })).status).toBe(204);
  });

  it('leaves admins free to move products between vendors', async () => {
    const { other, own } = await twoVendors();
    const res = await api(`/api/products/${own.id}`, { method: 'PATCH', key, json: { vendorId: other.vendor.id } });
    expect(res.body.data.vendor.id).toBe(other.vendor.id);
  });
});

describe('a suspended vendor', () => {
  it('locks its users out with 403 until it is reinstated', async () => {
    const { mine, own } = await twoVendors();
    expect((await api(`/api/products/${own.id}`, { key: mine.token })).status).toBe(200);
    await api(`/api/vendors/${mine.vendor.id}`, { method: 'PATCH', key, json: { status: 'suspended' } });
    expectError(await api(`/api/products/${own.id}`, { key: mine.token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/products', { method: 'POST', key: mine.token, json: { name: `Blocked ${uid()}`, price: 1 } }), 403, 'AUTHORIZATION_ERROR');
    await api(`/api/vendors/${mine.vendor.id}`, { method: 'PATCH', key, json: { status: 'active' } });
    expect((await api(`/api/products/${own.id}`, { key: mine.token })).status).toBe(200);
  });
});
