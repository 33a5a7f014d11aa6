import { describe, expect, it } from 'vitest';
import { catalogueVersion } from '../../src/db/schema';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createProduct, db, tick, uid } from '../helpers';

/**
 * Catalogue answers kept in the isolate per catalogue version (src/middleware/catalogue-cache.ts).
 * Tests run with CATALOGUE_CACHE_QUIET_MS=1, so a kept answer is tried a millisecond after the last change.
 */
const rowsRead = (res: { headers: Headers }) => Number(res.headers.get('X-D1-Rows-Read'));

async function readTwice(path: string, init: { key?: string } = {}) {
  const first = await api(path, init);
  await tick();
  const second = await api(path, init);
  return { first, second };
}

describe('catalogue answers kept in the isolate', () => {
  it('serve the same bytes again after reading only the version row', async () => {
    const product = await createProduct(await adminKey());
    await tick();
    const list = await readTwice(`/api/products?limit=3&sort=created_at:desc`);
    expect(list.first.headers.get('X-Store-Cache')).toBe('miss');
    expect(rowsRead(list.first)).toBeGreaterThan(1);
    expect(list.second.status).toBe(200);
    expect(list.second.headers.get('X-Store-Cache')).toBe('hit');
    expect(list.second.body).toEqual(list.first.body);
    expect(list.second.body.data[0].id).toBe(product.id);
    expect(list.second.headers.get('X-D1-Rows-Read')).toBe('1');
    expect(list.second.headers.get('X-D1-Round-Trips')).toBe('1');
    expect(list.second.headers.get('ETag')).toBe(list.first.headers.get('ETag'));
    expect(list.second.headers.get('Content-Type')).toContain('application/json');
    expect(list.second.headers.get('Cache-Control')).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(list.second.headers.get('X-RateLimit-Remaining')).toBeTruthy();
  });

  it('render anew after a product changes, and after an order takes stock', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { stock: 10 });
    const path = `/api/products/${product.id}`;
    await readTwice(path);
    const renamed = `Renamed ${uid()}`;
    expect((await api(path, { method: 'PATCH', key, json: { name: renamed } })).status).toBe(200);
    await tick();
    const afterRename = await api(path);
    expect(afterRename.headers.get('X-Store-Cache')).toBe('miss');
    expect(afterRename.body.data.name).toBe(renamed);
    await tick();
    expect((await api(path)).headers.get('X-Store-Cache')).toBe('hit');

    await placeOrder(db(), { customerId: null, email: `buyer-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 3 }], actor: 'system' });
    await tick();
    const afterOrder = await api(path);
    expect(afterOrder.headers.get('X-Store-Cache')).toBe('miss');
    expect(afterOrder.body.data.stock).toBe(7);
  });

  it('is skipped when the client asks for a fresh answer', async () => {
    await createProduct(await adminKey());
    await tick();
    const path = '/api/products?limit=2';
    await readTwice(path);
    const asks: Record<string, string>[] = [{ 'Cache-Control': 'no-cache' }, { 'Cache-Control': 'max-age=0, no-store' }, { Pragma: 'no-cache' }];
    for (const headers of asks) {
      const fresh = await api(path, { headers });
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('X-Store-Cache'), JSON.stringify(headers)).toBe('bypass');
      expect(rowsRead(fresh)).toBeGreaterThan(1);
    }
  });

  it('keeps one answer per view: the public never gets a staff answer, nor the reverse', async () => {
    const key = await adminKey();
    const draft = await createProduct(key, { status: 'draft' });
    await tick();
    const path = '/api/products?status=draft&limit=100';
    const staff = await readTwice(path, { key });
    expect(staff.second.headers.get('X-Store-Cache')).toBe('hit');
    expect(staff.second.headers.get('Cache-Control')).toBe('private, no-store');
    expect(staff.second.headers.get('ETag')).toBeNull();
    expect(staff.second.body.data.map((p: { id: string }) => p.id)).toContain(draft.id);
    // Anonymous callers see active products only, whatever the staff answer kept for the same URL.
    const pub = await readTwice(path);
    for (const res of [pub.first, pub.second]) {
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { id: string }) => p.id)).not.toContain(draft.id);
    }
    expect(pub.first.headers.get('X-Store-Cache')).toBe('miss');
    // Another key of the same role has its own entry.
    const other = await api(path, { key: await adminKey() });
    expect(other.headers.get('X-Store-Cache')).toBe('miss');
    expect(other.body.data.map((p: { id: string }) => p.id)).toContain(draft.id);
  });

  it('does not keep errors, and a kept answer never outlives a version it was not read at', async () => {
    const missing = await readTwice('/api/products/prod_missing');
    expect(missing.second.status).toBe(404);
    expect(missing.second.headers.get('X-Store-Cache')).toBeNull();
    // A version set underneath (as a restore would) is never mistaken for the kept one.
    const product = await createProduct(await adminKey());
    await tick();
    const path = `/api/products/${product.id}`;
    await readTwice(path);
    await db().update(catalogueVersion).set({ version: 12345 });
    await tick();
    const after = await api(path);
    expect(after.headers.get('X-Store-Cache')).toBe('miss');
    expect(after.headers.get('ETag')).toMatch(/^W\/"c12345-/);
  });

  it('gives every catalogue version a fresh random value', async () => {
    const key = await adminKey();
    const versions = new Set<number>();
    for (let i = 0; i < 3; i++) {
      await createProduct(key);
      const [row] = await db().select().from(catalogueVersion);
      versions.add(row!.version);
      expect(Number.isSafeInteger(row!.version)).toBe(true);
    }
    expect(versions.size).toBe(3);
    // A counter (what 0007 kept) would also give three values, all small; random ones in [0, 2^53) are not.
    expect(Math.max(...versions)).toBeGreaterThan(2 ** 32);
  });
});
