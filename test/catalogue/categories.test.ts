import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { categories } from '../../src/db/schema';
import { adminKey, api, createCategory, createProduct, db, expectError, tick, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const fieldsOf = (res: { body: any }) => (res.body.error.details as { field: string }[]).map((d) => d.field).sort();

async function listIds(query: string) {
  const res = await api(`/api/categories?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((c: { id: string }) => c.id) as string[];
}

describe('categories CRUD', () => {
  it('creates a category: 201, Location and the full representation', async () => {
    const token = uid();
    const res = await api('/api/categories', { method: 'POST', key, json: { name: `Outdoor Gear ${token}`, description: 'Tents.' } });
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/categories/${c.id}`);
    expect(c).toEqual({
      id: expect.stringMatching(/^cat_/),
      name: `Outdoor Gear ${token}`,
      slug: `outdoor-gear-${token}`,
      description: 'Tents.',
      parentId: null,
      position: 0,
      createdAt: expect.any(String),
      updatedAt: c.createdAt,
    });
    expect((await api(`/api/categories/${c.id}`)).body.data).toEqual(c);
    expect((await api(`/api/categories/${c.slug}`)).body.data).toEqual(c);
  });

  it('de-duplicates a slug made from the name', async () => {
    const first = await createCategory(key, { name: 'Shoes' });
    const second = await createCategory(key, { name: 'Shoes' });
    expect([first.slug, second.slug]).toEqual(['shoes', 'shoes-2']);
  });

  it('updates the given fields and moves updatedAt', async () => {
    const c = await createCategory(key, { description: 'old' });
    await tick();
    const res = await api(`/api/categories/${c.id}`, { method: 'PATCH', key, json: { name: 'Renamed', position: 4 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...c, name: 'Renamed', position: 4, updatedAt: expect.any(String) });
    expect(res.body.data.updatedAt > c.updatedAt).toBe(true);
    expect((await api(`/api/categories/${c.id}`)).body.data).toEqual(res.body.data);
  });

  it('deletes a category: 204 with no body, then 404', async () => {
    const c = await createCategory(key);
    const res = await api(`/api/categories/${c.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`/api/categories/${c.id}`), 404, 'NOT_FOUND');
    expectError(await api(`/api/categories/${c.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/categories/${c.id}`, { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
  });

  it('answers 422 listing every invalid field', async () => {
    const res = await api('/api/categories', { method: 'POST', key, json: { slug: 'Not A Slug', position: -1, colour: 'red' } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['colour', 'name', 'position', 'slug']);
  });

  it('answers 409 CONFLICT on slug for a taken slug, on create and on patch', async () => {
    const taken = await createCategory(key);
    const res = await api('/api/categories', { method: 'POST', key, json: { name: 'Copy', slug: taken.slug } });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('slug');
    const other = await createCategory(key);
    const patch = await api(`/api/categories/${other.id}`, { method: 'PATCH', key, json: { slug: taken.slug } });
    expectError(patch, 409, 'CONFLICT');
    expect(patch.body.error.details[0].field).toBe('slug');
    expect((await api(`/api/categories/${other.id}`)).body.data.slug).toBe(other.slug);
  });

  it('answers 401 to writes without a key', async () => {
    const c = await createCategory(key);
    for (const res of [
      await api('/api/categories', { method: 'POST', json: { name: 'Anon' } }),
      await api(`/api/categories/${c.id}`, { method: 'PATCH', json: { name: 'Anon' } }),
      await api(`/api/categories/${c.id}`, { method: 'DELETE' }),
    ]) {
      expectError(res, 401, 'AUTHENTICATION_ERROR');
    }
    expect((await api(`/api/categories/${c.id}`)).body.data).toEqual(c);
  });
});

describe('the category tree', () => {
  it('filters children with parent=root, parent=<slug> and parent=<id>', async () => {
    const token = uid();
    const top = await createCategory(key, { name: `Tree ${token} top` });
    const top2 = await createCategory(key, { name: `Tree ${token} top2` });
    const kid = await createCategory(key, { name: `Tree ${token} kid`, parentId: top.id });
    const kid2 = await createCategory(key, { name: `Tree ${token} kid2`, parentId: top.id });
    await createCategory(key, { name: `Tree ${token} grandkid`, parentId: kid.id });
    expect(kid.parentId).toBe(top.id);

    expect(await listIds(`parent=root&q=${token}`)).toEqual([top.id, top2.id]);
    expect(await listIds(`parent=${top.slug}`)).toEqual([kid.id, kid2.id]);
    expect(await listIds(`parent=${top.id}`)).toEqual([kid.id, kid2.id]);
    expect(await listIds(`parent=${top2.slug}`)).toEqual([]);
    expect(await listIds(`parent=no-such-${uid()}`)).toEqual([]);
  });

  it('sorts by position, then name, by default', async () => {
    const parent = await createCategory(key);
    const c = await createCategory(key, { name: 'c', parentId: parent.id, position: 0 });
    const a = await createCategory(key, { name: 'a', parentId: parent.id, position: 1 });
    const b = await createCategory(key, { name: 'b', parentId: parent.id, position: 0 });
    expect(await listIds(`parent=${parent.id}`)).toEqual([b.id, c.id, a.id]);
    expect(await listIds(`parent=${parent.id}&sort=name:desc`)).toEqual([c.id, b.id, a.id]);
  });

  it('answers 422 on parentId for an unknown parent, itself, or one of its descendants', async () => {
    const missing = await api('/api/categories', { method: 'POST', key, json: { name: 'Lost', parentId: 'cat_nope' } });
    expectError(missing, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(missing)).toEqual(['parentId']);

    const root = await createCategory(key);
    const child = await createCategory(key, { parentId: root.id });
    const grand = await createCategory(key, { parentId: child.id });
    for (const parentId of [root.id, child.id, grand.id, 'cat_nope']) {
      const res = await api(`/api/categories/${root.id}`, { method: 'PATCH', key, json: { parentId } });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(fieldsOf(res)).toEqual(['parentId']);
    }
    expect((await api(`/api/categories/${root.id}`)).body.data.parentId).toBeNull();

    // Moving within the tree the other way, and back to the top level, is fine.
    const moved = await api(`/api/categories/${grand.id}`, { method: 'PATCH', key, json: { parentId: root.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.parentId).toBe(root.id);
    const top = await api(`/api/categories/${child.id}`, { method: 'PATCH', key, json: { parentId: null } });
    expect(top.body.data.parentId).toBeNull();
    expect((await db().query.categories.findFirst({ where: eq(categories.id, child.id) }))!.parentId).toBeNull();
  });

  it('answers 409 to deleting a category with children, and deletes it once they are gone', async () => {
    const parent = await createCategory(key);
    const child = await createCategory(key, { parentId: parent.id });
    expectError(await api(`/api/categories/${parent.id}`, { method: 'DELETE', key }), 409, 'CONFLICT');
    expect((await api(`/api/categories/${parent.id}`)).status).toBe(200);
    expect((await api(`/api/categories/${child.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await api(`/api/categories/${parent.id}`, { method: 'DELETE', key })).status).toBe(204);
  });

  it('removes a deleted category from its products, which stay', async () => {
    const doomed = await createCategory(key);
    const kept = await createCategory(key);
    const p = await createProduct(key, { categoryIds: [doomed.id, kept.id] });
    expect(p.categories).toHaveLength(2);
    expect((await api(`/api/categories/${doomed.id}`, { method: 'DELETE', key })).status).toBe(204);
    const read = await api(`/api/products/${p.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.categories).toEqual([{ id: kept.id, name: kept.name, slug: kept.slug }]);
    expect((await api(`/api/products?category=${doomed.id}`)).body.data).toEqual([]);
    expect((await api(`/api/products?category=${kept.id}`)).body.data.map((x: any) => x.id)).toEqual([p.id]);
  });
});

describe('category list parameters', () => {
  it('supports fields and rejects unknown parameters', async () => {
    const token = uid();
    const c = await createCategory(key, { name: `Sel ${token}` });
    expect((await api(`/api/categories?q=${token}&fields=id,parent_id`)).body.data).toEqual([{ id: c.id, parentId: null }]);
    expect((await api(`/api/categories/${c.slug}?fields=name`)).body.data).toEqual({ name: c.name });
    for (const [query, field] of [
      ['sort=price', 'sort'],
      ['fields=nope', 'fields'],
      ['limit=0', 'limit'],
      ['brand=x', 'brand'],
    ]) {
      const res = await api(`/api/categories?${query}`);
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.error.details.field).toBe(field);
    }
  });
});
