import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { adminKey, api, createBrand, createProduct, db, expectError, tick, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const fieldsOf = (res: { body: any }) => (res.body.error.details as { field: string }[]).map((d) => d.field).sort();

describe('brands CRUD', () => {
  it('creates a brand: 201, Location and the full representation', async () => {
    const token = uid();
    const res = await api('/api/brands', { method: 'POST', key, json: { name: `Acme & Sons ${token}`, logoUrl: 'https://cdn.test/acme.png' } });
    expect(res.status).toBe(201);
    const b = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/brands/${b.id}`);
    expect(b).toEqual({
      id: expect.stringMatching(/^brand_/),
      name: `Acme & Sons ${token}`,
      slug: `acme-sons-${token}`,
      description: null,
      logoUrl: 'https://cdn.test/acme.png',
      createdAt: expect.any(String),
      updatedAt: b.createdAt,
    });
    expect((await api(`/api/brands/${b.id}`)).body.data).toEqual(b);
    expect((await api(`/api/brands/${b.slug}`)).body.data).toEqual(b);
  });

  it('de-duplicates a slug made from the name', async () => {
    const first = await createBrand(key, { name: 'Nike' });
    const second = await createBrand(key, { name: 'NIKE' });
    expect([first.slug, second.slug]).toEqual(['nike', 'nike-2']);
  });

  it('lists brands by name, with search and pagination', async () => {
    const token = uid();
    const b = await createBrand(key, { name: `B list ${token}` });
    const a = await createBrand(key, { name: `A list ${token}` });
    const c = await createBrand(key, { name: `C list ${token}` });
    const res = await api(`/api/brands?q=${token}&limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: any) => x.id)).toEqual([a.id, b.id]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    expect((await api(`/api/brands?q=${token}&sort=name:desc&fields=name`)).body.data).toEqual([c, b, a].map((x) => ({ name: x.name })));
  });

  it('updates the given fields and moves updatedAt; an empty patch changes nothing', async () => {
    const b = await createBrand(key, { description: 'old' });
    await tick();
    const res = await api(`/api/brands/${b.slug}`, { method: 'PATCH', key, json: { description: 'new', logoUrl: null } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...b, description: 'new', logoUrl: null, updatedAt: expect.any(String) });
    expect(res.body.data.updatedAt > b.updatedAt).toBe(true);
    expect((await api(`/api/brands/${b.id}`)).body.data).toEqual(res.body.data);
    const empty = await api(`/api/brands/${b.id}`, { method: 'PATCH', key, json: {} });
    expect(empty.body.data).toEqual(res.body.data);
  });

  it('answers 422 listing every invalid field', async () => {
    const res = await api('/api/brands', { method: 'POST', key, json: { name: '', logoUrl: 'ftp://cdn.test/x.png', slug: '-bad-', extra: 1 } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['extra', 'logoUrl', 'name', 'slug']);
  });

  it('answers 409 CONFLICT on slug for a taken slug, on create and on patch', async () => {
    const taken = await createBrand(key);
    const res = await api('/api/brands', { method: 'POST', key, json: { name: 'Copy', slug: taken.slug } });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('slug');
    const other = await createBrand(key);
    const patch = await api(`/api/brands/${other.id}`, { method: 'PATCH', key, json: { slug: taken.slug } });
    expectError(patch, 409, 'CONFLICT');
    expect(patch.body.error.details[0].field).toBe('slug');
  });

  it('deletes a brand: 204 with no body, then 404', async () => {
    const b = await createBrand(key);
    const res = await api(`/api/brands/${b.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`/api/brands/${b.id}`), 404, 'NOT_FOUND');
    expectError(await api(`/api/brands/${b.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/brands/${b.id}`, { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
  });

  it('leaves the products of a deleted brand in place, without a brand', async () => {
    const b = await createBrand(key);
    const p = await createProduct(key, { brandId: b.id });
    expect(p.brand).toEqual({ id: b.id, name: b.name, slug: b.slug });
    expect((await api(`/api/brands/${b.id}`, { method: 'DELETE', key })).status).toBe(204);
    const read = await api(`/api/products/${p.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...p, brand: null });
    expect((await db().query.products.findFirst({ where: eq(products.id, p.id) }))!.brandId).toBeNull();
    expect((await api(`/api/products?brand=${b.slug}`)).body.data).toEqual([]);
  });

  it('answers 401 to writes without a key', async () => {
    const b = await createBrand(key);
    for (const res of [
      await api('/api/brands', { method: 'POST', json: { name: 'Anon' } }),
      await api(`/api/brands/${b.id}`, { method: 'PATCH', json: { name: 'Anon' } }),
      await api(`/api/brands/${b.id}`, { method: 'DELETE' }),
    ]) {
      expectError(res, 401, 'AUTHENTICATION_ERROR');
    }
    expect((await api(`/api/brands/${b.id}`)).body.data).toEqual(b);
  });
});
