import { desc, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
let customer: string;
beforeAll(async () => {
  key = await adminKey();
  customer = (await insertUser()).token;
});

const addPage = (json: Record<string, unknown>, k = key) => api('/api/pages', { method: 'POST', key: k, json });
const patchPage = (id: string, json: Record<string, unknown>, k = key) => api(`/api/pages/${id}`, { method: 'PATCH', key: k, json });
const draft = async (extra: Record<string, unknown> = {}) => {
  const res = await addPage({ title: `Page ${uid()}`, body: '# Hello\n\nSome *text*.', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const slugsListed = async (query: string, k?: string) => {
  const res = await api(`/api/pages?limit=100${query}`, k ? { key: k } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((p: { slug: string }) => p.slug) as string[];
};
const eventsFor = async (pageId: string) =>
  (
    await db()
      .select()
      .from(events)
      .where(like(events.data, `%${pageId}%`))
      .orderBy(desc(events.createdAt))
  )
    .map((e) => e.type)
    .reverse();

describe('drafting and publishing a page', () => {
  it('drafts a page: Markdown kept, sanitized HTML rendered, slug from the title, no publish date', async () => {
    const res = await addPage({ title: 'About Us!', body: '# About\n\nWe sell **tea**.', seoTitle: 'About the shop', seoDescription: 'Who we are' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^page_[0-9A-Z]{26}$/),
      title: 'About Us!',
      slug: expect.stringMatching(/^about-us/),
      body: '# About\n\nWe sell **tea**.',
      bodyHtml: '<h1>About</h1>\n<p>We sell <strong>tea</strong>.</p>',
      status: 'draft',
      seoTitle: 'About the shop',
      seoDescription: 'Who we are',
      publishedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/pages/${res.body.data.id}`);
  });

  it('keeps drafts private: 404 to anonymous readers and customers, left out of their lists; staff see them', async () => {
    const page = await draft();
    for (const k of [undefined, customer]) {
      expectError(await api(`/api/pages/${page.id}`, k ? { key: k } : {}), 404, 'NOT_FOUND');
      expectError(await api(`/api/pages/${page.slug}`, k ? { key: k } : {}), 404, 'NOT_FOUND');
      expect(await slugsListed('', k)).not.toContain(page.slug);
      // Asking for drafts explicitly does not reveal them either.
      expect(await slugsListed('&status=draft', k)).toEqual([]);
    }
    const vendor = await insertVendorUser();
    expectError(await api(`/api/pages/${page.slug}`, { key: vendor.token }), 404, 'NOT_FOUND');
    expect((await api(`/api/pages/${page.slug}`, { key })).body.data.status).toBe('draft');
    expect(await slugsListed('&status=draft', key)).toContain(page.slug);
    const reader = (await createApiKey(db(), { name: 'content reader', permissions: ['content:read'] })).key;
    expect((await api(`/api/pages/${page.id}`, { key: reader })).status).toBe(200);
    expectError(await patchPage(page.id, { title: 'x' }, reader), 403, 'AUTHORIZATION_ERROR');
  });

  it('publishes a page: readable anonymously by slug and listed, publishedAt set, page.published emitted', async () => {
    const page = await draft();
    const before = Date.now();
    const res = await patchPage(page.id, { status: 'published' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('published');
    expect(Date.parse(res.body.data.publishedAt)).toBeGreaterThanOrEqual(before - 1000);
    const anonymous = await api(`/api/pages/${page.slug}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toMatchObject({ id: page.id, bodyHtml: page.bodyHtml, status: 'published' });
    expect(await slugsListed('')).toContain(page.slug);
    expect((await api(`/api/pages/${page.slug}`, { key: customer })).status).toBe(200);

    expect((await patchPage(page.id, { title: 'Renamed' })).status).toBe(200);
    expect((await patchPage(page.id, { status: 'draft' })).status).toBe(200);
    expectError(await api(`/api/pages/${page.slug}`), 404, 'NOT_FOUND');
    expect(await eventsFor(page.id)).toEqual(['page.published', 'page.updated', 'page.unpublished']);
  });

  it('keeps a scheduled page private until its publishedAt', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const page = await draft({ status: 'published', publishedAt: future });
    expect(page.publishedAt).toBe(future);
    expectError(await api(`/api/pages/${page.slug}`), 404, 'NOT_FOUND');
    expect(await slugsListed('')).not.toContain(page.slug);
    const past = await draft({ status: 'published', publishedAt: '2026-01-02T03:04:05Z' });
    expect((await api(`/api/pages/${past.slug}`)).body.data.publishedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(await slugsListed('&published_after=2026-01-02&published_before=2026-01-03')).toEqual([past.slug]);
  });

  it('answers a slug in use with 409, on create and on update', async () => {
    const slug = `taken-${uid()}`;
    await draft({ slug });
    const conflict = await addPage({ title: 'Other', slug });
    expectError(conflict, 409, 'CONFLICT');
    expect(conflict.body.error.details).toEqual([{ field: 'slug', code: 'already_exists', message: expect.stringMatching(/^slug /) }]);
    const other = await draft();
    expectError(await patchPage(other.id, { slug }), 409, 'CONFLICT');
    // Without a slug, a free one is made from the title.
    const again = await addPage({ title: slug });
    expect(again.body.data.slug).toBe(`${slug}-2`);
  });

  it('strips scripts, handlers and javascript: URLs from the body, also on update', async () => {
    const page = await draft({ body: 'Hi <script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))' });
    expect(page.bodyHtml).toBe('<p>Hi <img> <a>x</a></p>');
    const res = await patchPage(page.id, { body: '<a href="https://ok.test" onmouseover="steal()">ok</a><iframe src="https://evil.test"></iframe>' });
    expect(res.body.data.bodyHtml).toBe('<p><a href="https://ok.test">ok</a></p>');
    expect(res.body.data.body).toContain('onmouseover');
  });

  it('validates the body and needs content:write', async () => {
    const res = await addPage({ title: '', slug: 'Not A Slug', status: 'live', publishedAt: 'soon', bodyHtml: '<b>x</b>' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['bodyHtml', 'publishedAt', 'slug', 'status', 'title']);
    expectError(await addPage({ title: 'x' }, customer), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/pages', { method: 'POST', json: { title: 'x' } }), 401, 'AUTHENTICATION_ERROR');
    expectError(await addPage({ title: 'x' }, (await insertVendorUser()).token), 403, 'AUTHORIZATION_ERROR');
  });

  it('deletes a page', async () => {
    const page = await draft({ status: 'published' });
    expect((await api(`/api/pages/${page.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/pages/${page.id}`, { key }), 404, 'NOT_FOUND');
    expect(await eventsFor(page.id)).toEqual(['page.published', 'page.unpublished']);
    expect((await db().select().from(events).where(eq(events.type, 'page.unpublished'))).length).toBeGreaterThan(0);
  });

  it('searches and sorts for staff', async () => {
    const tag = uid();
    const a = await draft({ title: `Alpha ${tag}` });
    const b = await draft({ title: `Beta ${tag}`, status: 'published' });
    expect(await slugsListed(`&q=${tag}&sort=title:desc`, key)).toEqual([b.slug, a.slug]);
    expect(await slugsListed(`&q=${tag}`)).toEqual([b.slug]);
    expectError(await api('/api/pages?sort=body:asc'), 400, 'INVALID_REQUEST');
  });
});
