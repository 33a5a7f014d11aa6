import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createCategory, createProduct, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const addMenu = (json: Record<string, unknown>, k = key) => api('/api/menus', { method: 'POST', key: k, json });
const addPage = async (json: Record<string, unknown>) => (await api('/api/pages', { method: 'POST', key, json: { title: `Page ${uid()}`, ...json } })).body.data;

describe('navigation menus', () => {
  it('stores ordered, nested items linking to URLs, pages, categories and products, read publicly by handle', async () => {
    const page = await addPage({ status: 'published' });
    const category = await createCategory(key);
    const product = await createProduct(key);
    const handle = `main-${uid()}`;
    const res = await addMenu({
      name: 'Main',
      handle,
      items: [
        { label: 'Shop', type: 'category', targetId: category.slug, children: [{ label: 'Featured', type: 'product', targetId: product.id }] },
        { label: 'About', type: 'page', targetId: page.slug },
        {
          label: 'Sale',
          type: 'url',
          url: '/sale',
          children: [{ label: 'Blog', type: 'url', url: 'https://blog.example.com', children: [{ label: 'Deep', type: 'url', url: '#x' }] }],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expected = [
      {
        label: 'Shop',
        type: 'category',
        url: `/categories/${category.slug}`,
        targetId: category.id,
        children: [{ label: 'Featured', type: 'product', url: `/products/${product.slug}`, targetId: product.id, children: [] }],
      },
      { label: 'About', type: 'page', url: `/pages/${page.slug}`, targetId: page.id, children: [] },
      {
        label: 'Sale',
        type: 'url',
        url: '/sale',
        targetId: null,
        children: [
          { label: 'Blog', type: 'url', url: 'https://blog.example.com', targetId: null, children: [{ label: 'Deep', type: 'url', url: '#x', targetId: null, children: [] }] },
        ],
      },
    ];
    expect(res.body.data).toMatchObject({ name: 'Main', handle, items: expected });
    const anonymous = await api(`/api/menus/${handle}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.items).toEqual(expected);
    // A renamed target is followed: links are resolved when read.
    await api(`/api/pages/${page.id}`, { method: 'PATCH', key, json: { slug: `renamed-${uid()}` } });
    const renamed = (await api(`/api/menus/${handle}`)).body.data.items[1];
    expect(renamed.url).toMatch(/^\/pages\/renamed-/);
  });

  it('hides links to drafts and missing targets from the public, not from staff', async () => {
    const draft = await addPage({});
    const gone = await createProduct(key);
    const res = await addMenu({
      name: 'Footer',
      items: [
        { label: 'Draft', type: 'page', targetId: draft.id, children: [{ label: 'Under draft', type: 'url', url: '/x' }] },
        { label: 'Gone', type: 'product', targetId: gone.id },
        { label: 'Home', type: 'url', url: '/' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await api(`/api/products/${gone.id}`, { method: 'DELETE', key })).status).toBe(204);
    const handle = res.body.data.handle;
    expect(handle).toMatch(/^footer/);
    const { token } = await insertUser();
    for (const k of [undefined, token]) {
      const items = (await api(`/api/menus/${handle}`, k ? { key: k } : {})).body.data.items;
      expect(items.map((i: { label: string }) => i.label)).toEqual(['Home']);
    }
    const staff = (await api(`/api/menus/${handle}`, { key })).body.data.items;
    expect(staff.map((i: { label: string; url: string | null }) => [i.label, i.url])).toEqual([
      ['Draft', `/pages/${draft.slug}`],
      ['Gone', null],
      ['Home', '/'],
    ]);
    const listed = (await api(`/api/menus?q=${handle}`)).body.data;
    expect(listed.map((m: { items: unknown[] }) => m.items.length)).toEqual([1]);
  });

  it('validates items: link kinds, unsafe URLs, unknown targets, depth; handles are unique', async () => {
    const bad = await addMenu({
      name: 'Bad',
      items: [
        { label: 'No url', type: 'url' },
        { label: 'Script', type: 'url', url: 'javascript:alert(1)' },
        { label: 'Both', type: 'page', targetId: 'x', url: '/x' },
        { label: 'Deep', type: 'url', url: '/a', children: [{ label: 'b', type: 'url', url: '/b', children: [{ label: 'c', type: 'url', url: '/c', children: [] }] }] },
      ],
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['items.0.url', 'items.1.url', 'items.2.url', 'items.3.children.0.children.0.children']));
    const missing = await addMenu({ name: 'Missing', items: [{ label: 'x', type: 'product', targetId: 'prod_nope' }] });
    expectError(missing, 422, 'VALIDATION_ERROR');
    expect(missing.body.error.details).toEqual([{ field: 'items.0.targetId', code: 'not_found', message: "items.0.targetId: no product 'prod_nope'" }]);

    const handle = `h-${uid()}`;
    expect((await addMenu({ name: 'One', handle })).status).toBe(201);
    expectError(await addMenu({ name: 'Two', handle }), 409, 'CONFLICT');
    expectError(await addMenu({ name: 'x' }, (await insertUser()).token), 403, 'AUTHORIZATION_ERROR');
  });

  it('replaces items on update and deletes', async () => {
    const menu = (await addMenu({ name: 'Temp', items: [{ label: 'A', type: 'url', url: '/a' }] })).body.data;
    const res = await api(`/api/menus/${menu.id}`, { method: 'PATCH', key, json: { items: [{ label: 'B', type: 'url', url: '/b' }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.items.map((i: { label: string }) => i.label)).toEqual(['B']);
    expect((await api(`/api/menus/${menu.handle}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/menus/${menu.handle}`), 404, 'NOT_FOUND');
  });
});
