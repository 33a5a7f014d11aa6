import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { catalogueVersion, products } from '../../src/db/schema';
import { coloMatch, coloPut } from '../../src/lib/colo-cache';
import { bumpForScheduledContent } from '../../src/modules/pages/scheduled-content';
import { adminKey, createProduct, db, tick, uid } from '../helpers';

/**
 * The version-trusting levels of src/middleware/catalogue-cache.ts: answers served with no D1
 * round trip while the isolate's version is trusted, and the colo's cache (caches.default).
 * The suite runs with CATALOGUE_CACHE_QUIET_MS=1 (nothing is ever trusted), so these requests go
 * to an app of their own, in this isolate, with the setting a test chooses.
 */
const app = createApp();

/** A request to `app`; `settle` waits for its background work (the colo's put), which rate-limit leases can make last a second. */
async function request(
  path: string,
  {
    quietMs = 60_000,
    key,
    method = 'GET',
    json,
    headers = {},
    settle = false,
  }: { quietMs?: number; key?: string; method?: string; json?: unknown; headers?: Record<string, string>; settle?: boolean } = {},
) {
  const ctx = createExecutionContext();
  const all = new Headers(headers);
  if (key) all.set('Authorization', `Bearer ${key}`);
  if (json) all.set('Content-Type', 'application/json');
  const res = await app.fetch(
    new Request(`http://store.test${path}`, { method, headers: all, body: json ? JSON.stringify(json) : undefined }),
    { ...env, CATALOGUE_CACHE_QUIET_MS: String(quietMs) },
    ctx,
  );
  const text = await res.text();
  if (settle) await waitOnExecutionContext(ctx);
  const body = res.headers.get('Content-Type')?.includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body, text, cache: res.headers.get('X-Store-Cache'), trips: Number(res.headers.get('X-D1-Round-Trips')) };
}

const versionOf = (etag: string | null) => Number(/^W\/"c(\d+)-/.exec(etag ?? '')?.[1]);

describe('catalogue answers by trusted version', () => {
  it('are served from the isolate with no D1 round trip once the version is known', async () => {
    const product = await createProduct(await adminKey());
    const path = `/api/products/${product.id}`;
    // The isolate's first request also reads the settings it keeps (src/middleware/edge-settings.ts): not counted here.
    await request('/api');
    const first = await request(path);
    expect(first.cache, `${first.status} ${first.text}`).toBe('miss');
    expect(first.trips).toBe(1);
    const second = await request(path);
    expect(second.status).toBe(200);
    expect(second.cache).toBe('hit');
    expect(second.trips).toBe(0);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    // A matching If-None-Match costs nothing either.
    const revalidated = await request(path, { headers: { 'If-None-Match': first.headers.get('ETag')! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.trips).toBe(0);
  });

  it('answer If-None-Match: * with 304 only for a product that is there, while the version is trusted', async () => {
    const key = await adminKey();
    const draft = await createProduct(key, { status: 'draft' });
    const active = await createProduct(key);
    expect((await request(`/api/products/${active.id}`)).status).toBe(200);
    // The version is now trusted: these requests are decided with no D1 round trip before the handler.
    const star = { headers: { 'If-None-Match': '*' } };
    expect((await request(`/api/products/${active.id}`, star)).status).toBe(304);
    const missing = await request('/api/products/prod_missing', star);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await request(`/api/products/${draft.id}`, star)).status).toBe(404);
  });

  it("answer from the colo's cache what another isolate rendered, and put there what they render", async () => {
    await createProduct(await adminKey());
    // What this isolate renders goes to the colo's cache, under its version and URL.
    const target = `/api/products?limit=3&page=${Math.floor(Math.random() * 1e6)}`;
    const mine = await request(target, { settle: true });
    expect(new TextDecoder().decode((await coloMatch('http://store.test', versionOf(mine.headers.get('ETag')), target))!.body)).toBe(mine.text);
    // An answer another isolate put there for a URL this one never rendered: served from the colo.
    const other = `/api/products?limit=4&page=${Math.floor(Math.random() * 1e6)}`;
    const body = JSON.stringify({ success: true, data: [], from: 'another isolate' });
    const puts: Promise<unknown>[] = [];
    coloPut((put) => puts.push(put), 'http://store.test', versionOf(mine.headers.get('ETag')), other, {
      body: new TextEncoder().encode(body).buffer as ArrayBuffer,
      contentType: 'application/json',
    });
    await Promise.all(puts);
    const served = await request(other);
    expect(served.cache).toBe('colo-hit');
    expect(served.trips).toBe(0);
    expect(served.body.from).toBe('another isolate');
    // Credentialed callers never read the colo's (public) answers.
    const staff = await request(other, { key: await adminKey() });
    expect(staff.cache).toBe('miss');
    expect(staff.body.from).toBeUndefined();
  });

  it('show a write made elsewhere at most CATALOGUE_CACHE_QUIET_MS plus one version check later', async () => {
    const product = await createProduct(await adminKey());
    const path = `/api/products/${product.id}`;
    const quietMs = 300;
    await request(path, { quietMs });
    // Another isolate renames it (a write this isolate does not see go by).
    const renamed = `Renamed ${uid()}`;
    await db().update(products).set({ name: renamed }).where(eq(products.id, product.id));
    const within = await request(path, { quietMs });
    expect(within.cache).toBe('hit');
    expect(within.body.data.name).toBe(product.name);
    await tick(quietMs + 50);
    const after = await request(path, { quietMs });
    expect(after.body.data.name).toBe(renamed);
    expect(after.cache).toBe('miss');
  });

  it('show a write made through this isolate at once, and trust no version for a request with a bookmark', async () => {
    const key = await adminKey();
    const product = await createProduct(key);
    const path = `/api/products/${product.id}`;
    await request(path);
    expect((await request(path)).cache).toBe('hit');
    const renamed = `Renamed ${uid()}`;
    const patched = await request(path, { method: 'PATCH', key, json: { name: renamed } });
    expect(patched.status).toBe(200);
    const read = await request(path);
    expect(read.body.data.name).toBe(renamed);
    expect(read.trips).toBe(1);
    expect((await request(path)).trips).toBe(0);
    const bookmarked = await request(path, { headers: { 'X-D1-Bookmark': patched.headers.get('X-D1-Bookmark')! } });
    expect(bookmarked.body.data.name).toBe(renamed);
    expect(bookmarked.trips).toBe(1);
    expect((await request(path, { headers: { 'Cache-Control': 'no-cache' } })).cache).toBe('bypass');
  });

  it('cover published pages and menus: kept, and rendered anew after a content write', async () => {
    const key = await adminKey();
    const slug = `about-${uid()}`;
    const page = await request('/api/pages', { method: 'POST', key, json: { title: 'About', slug, body: 'We sell *things*.', status: 'published' } });
    expect(page.status).toBe(201);
    const menu = await request('/api/menus', {
      method: 'POST',
      key,
      json: { name: 'Footer', handle: `footer-${uid()}`, items: [{ label: 'About', type: 'page', targetId: slug }] },
    });
    expect(menu.status).toBe(201);
    for (const path of [`/api/pages/${slug}`, `/api/menus/${menu.body.data.handle}`, '/api/pages']) {
      const first = await request(path);
      expect(first.status, `${path} ${first.text}`).toBe(200);
      expect(first.headers.get('ETag'), path).toMatch(/^W\/"c\d+-/);
      const second = await request(path);
      expect([second.cache, second.trips], path).toEqual(['hit', 0]);
    }
    expect((await request(`/api/pages/${page.body.data.id}`, { method: 'PATCH', key, json: { title: 'About us' } })).status).toBe(200);
    const after = await request(`/api/pages/${slug}`);
    expect(after.cache).toBe('miss');
    expect(after.body.data.title).toBe('About us');
  });
});

describe('content that the clock publishes', () => {
  it('changes the catalogue version on the cron after a page or banner came due, and not otherwise', async () => {
    const version = async () => (await db().select().from(catalogueVersion).where(eq(catalogueVersion.id, 1)))[0]?.version;
    const key = await adminKey();
    const at = new Date(Date.now() + 3_600_000);
    const scheduled = await request('/api/pages', {
      method: 'POST',
      key,
      json: { title: 'Sale', slug: `sale-${uid()}`, body: 'Soon.', status: 'published', publishedAt: at.toISOString() },
    });
    expect(scheduled.status).toBe(201);
    const before = await version();
    // An hour before the page's time nothing is due (unless another test's content is: then it bumps, which is harmless).
    expect(await bumpForScheduledContent(db(), new Date(at.getTime() + 1000))).toBe(true);
    expect(await version()).not.toBe(before);
    const later = await version();
    expect(await bumpForScheduledContent(db(), new Date(at.getTime() + 10 * 60_000))).toBe(false);
    expect(await version()).toBe(later);
  });
});
