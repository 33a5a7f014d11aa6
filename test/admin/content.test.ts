import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staff(roleId: string) {
  const email = `${roleId.slice(0, 20)}-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId, vendorId: null });
  return (await signIn(email, password)).session;
}

/** A signed-in user whose role holds only these permissions. */
async function withPermissions(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  return staff(role.id);
}

/** Posts a form of the panel with the CSRF token of the page it is on. */
async function submit(from: string, to: string, form: Record<string, string>, session: string) {
  const token = csrfIn((await get(from, session)).html);
  return post(to, { _csrf: token, ...form }, session);
}

const PAGES = '/admin/content/pages';
const idFrom = (location: string | null) => location!.split('/').pop()!;
/** How many page.published events the outbox holds for the page. */
const publishedEvents = async (pageId: string) =>
  (await db().select().from(events).where(eq(events.type, 'page.published'))).filter((e) => JSON.stringify(e.data).includes(pageId)).length;

describe('admin panel content pages', () => {
  it('creates a draft from Markdown, previews it with the API renderer, saves, and lists it by status and search', async () => {
    const session = await staff('admin');
    const title = `Shipping ${uid()}`;
    const body = '# Shipping\n\nFree over **50**. <script>alert(1)</script>';

    // Preview renders without saving, the form refilled.
    const preview = await submit(`${PAGES}/new`, `${PAGES}/new`, { title, body, intent: 'preview' }, session);
    expect(preview.res.status).toBe(200);
    expect(preview.html).toContain('<h1>Shipping</h1>');
    expect(preview.html).toContain('<strong>50</strong>');
    expect(preview.html).not.toContain('<script>alert(1)');
    expect(preview.html).toContain(`value="${title}"`);
    expect(preview.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');

    const created = await submit(`${PAGES}/new`, `${PAGES}/new`, { title, body, intent: 'save' }, session);
    expect(created.res.status).toBe(303);
    const id = idFrom(created.res.headers.get('Location'));
    expect(id).toMatch(/^page_/);
    const apiPage = await api(`/api/pages/${id}`);
    expect(apiPage.status).toBe(404); // a draft: not public

    const edit = await get(`${PAGES}/${id}`, session);
    expect(edit.res.status).toBe(200);
    expect(edit.html).toContain('b-draft');
    expect(edit.html).toContain('<strong>50</strong>');

    // Editing: the preview of the edit form shows the unsaved text; saving stores it.
    const previewEdit = await submit(`${PAGES}/${id}`, `${PAGES}/${id}`, { title, body: 'A *new* text', intent: 'preview' }, session);
    expect(previewEdit.html).toContain('<em>new</em>');
    const saved = await submit(`${PAGES}/${id}`, `${PAGES}/${id}`, { title, slug: '', body: 'A *new* text', seoTitle: 'SEO', intent: 'save' }, session);
    expect(saved.res.status).toBe(303);

    const list = await get(`${PAGES}?status=draft&q=${encodeURIComponent(title)}`, session);
    expect(list.html).toContain(`href="${PAGES}/${id}"`);
    const published = await get(`${PAGES}?status=published&q=${encodeURIComponent(title)}`, session);
    expect(published.html).not.toContain(`href="${PAGES}/${id}"`);
  });

  it('schedules, publishes now (emitting page.published) and unpublishes, as the API would', async () => {
    const session = await staff('admin');
    const title = `Returns ${uid()}`;
    const created = await submit(`${PAGES}/new`, `${PAGES}/new`, { title, body: 'Thirty days.' }, session);
    const id = idFrom(created.res.headers.get('Location'));
    expect((await api(`/api/pages/${id}`)).status).toBe(404);

    const future = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    const scheduled = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/schedule`, { scheduleAt: future }, session);
    expect(scheduled.res.status).toBe(303);
    const view = await get(`${PAGES}/${id}`, session);
    expect(view.html).toContain('b-scheduled');
    expect(view.html).toContain(`value="${future}"`);
    expect((await api(`/api/pages/${id}`)).status).toBe(404);

    const now = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/publish`, {}, session);
    expect(now.res.status).toBe(303);
    const read = await api(`/api/pages/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.bodyHtml).toBe('<p>Thirty days.</p>');
    expect(await publishedEvents(id)).toBeGreaterThan(0);

    const off = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/unpublish`, {}, session);
    expect(off.res.status).toBe(303);
    expect((await api(`/api/pages/${id}`)).status).toBe(404);
  });

  it('shows the API validation messages next to the fields (422), and deletes a page', async () => {
    const session = await staff('admin');
    const bad = await submit(`${PAGES}/new`, `${PAGES}/new`, { title: '', slug: 'Not A Slug', body: 'x' }, session);
    expect(bad.res.status).toBe(422);
    expect(bad.html).toMatch(/id="f-title-error">is required/);
    expect(bad.html).toMatch(/id="f-slug-error">must be lowercase/);

    const title = `Taken ${uid()}`;
    const first = await submit(`${PAGES}/new`, `${PAGES}/new`, { title, body: '' }, session);
    const id = idFrom(first.res.headers.get('Location'));
    const slug = title.toLowerCase().replace(/\s+/g, '-');
    const conflict = await submit(`${PAGES}/new`, `${PAGES}/new`, { title: 'Other', slug, body: '' }, session);
    expect(conflict.res.status).toBe(409);
    expect(conflict.html).toMatch(/id="f-slug-error">/);

    const badDate = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/schedule`, { scheduleAt: 'tomorrow' }, session);
    expect(badDate.res.status).toBe(422);
    expect(badDate.html).toMatch(/id="f-scheduleAt-error">/);
    const noDate = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/schedule`, { scheduleAt: '' }, session);
    expect(noDate.res.status).toBe(422);
    expect(noDate.html).toMatch(/id="f-scheduleAt-error">is required/);

    const deleted = await submit(`${PAGES}/${id}`, `${PAGES}/${id}/delete`, {}, session);
    expect(deleted.res.status).toBe(303);
    expect((await get(`${PAGES}/${id}`, session)).res.status).toBe(404);
  });

  it('is for content:write: a content:read user gets 403 and no link, a writer sees the link', async () => {
    const reader = await withPermissions(['content:read', 'products:read']);
    expect((await get('/admin', reader)).html).not.toContain(`href="${PAGES}"`);
    expect((await get(PAGES, reader)).res.status).toBe(403);
    expect((await get(`${PAGES}/new`, reader)).res.status).toBe(403);
    const token = csrfIn((await get('/admin', reader)).html);
    expect((await post(`${PAGES}/new`, { _csrf: token, title: 'Nope' }, reader)).res.status).toBe(403);

    const writer = await withPermissions(['content:write']);
    expect((await get('/admin', writer)).html).toContain(`href="${PAGES}"`);
    expect((await get(PAGES, writer)).res.status).toBe(200);
  });
});

const MENUS = '/admin/content/menus';

describe('admin panel menus', () => {
  it('creates a menu, adds items linking a URL and a page, nests, reorders, un-nests and removes them', async () => {
    const session = await staff('admin');
    const handle = `nav-${uid()}`;
    const created = await submit(MENUS, MENUS, { name: 'Main navigation', handle }, session);
    expect(created.res.status).toBe(303);
    const id = idFrom(created.res.headers.get('Location'));
    const edit = `${MENUS}/${id}`;
    const pageTitle = `About ${uid()}`;
    const made = await submit(`${PAGES}/new`, `${PAGES}/new`, { title: pageTitle, body: 'Us.' }, session);
    const pageId = idFrom(made.res.headers.get('Location'));
    const pageSlug = pageTitle.toLowerCase().replace(/\s+/g, '-');

    const add = (form: Record<string, string>) => submit(edit, `${edit}/items`, form, session);
    expect((await add({ label: 'Shop', type: 'url', target: '/shop' })).res.status).toBe(303);
    expect((await add({ label: 'About', type: 'page', target: pageSlug })).res.status).toBe(303);
    expect((await add({ label: 'Sale', type: 'url', target: 'https://example.com/sale', parent: '0' })).res.status).toBe(303);

    const items = async () => (await api(`/api/menus/${id}`, { key: await adminKeyOnce() })).body.data.items;
    let tree = await items();
    expect(tree.map((i: any) => i.label)).toEqual(['Shop', 'About']);
    expect(tree[0].children.map((i: any) => i.label)).toEqual(['Sale']);
    expect(tree[1]).toMatchObject({ type: 'page', targetId: pageId, url: `/pages/${pageSlug}` });

    // Reorder: About up; then nest Shop (now second) under About; then back out; then remove Sale.
    const op = (name: string, path: string) => submit(edit, `${edit}/items/${name}`, { path }, session);
    expect((await op('up', '1')).res.status).toBe(303);
    tree = await items();
    expect(tree.map((i: any) => i.label)).toEqual(['About', 'Shop']);
    expect((await op('indent', '1')).res.status).toBe(303);
    tree = await items();
    expect(tree.map((i: any) => i.label)).toEqual(['About']);
    expect(tree[0].children[0].label).toBe('Shop');
    expect(tree[0].children[0].children[0].label).toBe('Sale');
    const page = await get(edit, session);
    expect(page.html).toContain('data-path="0.0.0"');

    expect((await op('outdent', '0.0')).res.status).toBe(303);
    tree = await items();
    expect(tree.map((i: any) => i.label)).toEqual(['About', 'Shop']);
    expect((await op('remove', '1.0')).res.status).toBe(303);
    tree = await items();
    expect(tree[1].children).toEqual([]);

    const renamed = await submit(edit, edit, { name: 'Main', handle }, session);
    expect(renamed.res.status).toBe(303);
    expect((await api(`/api/menus/${handle}`)).body.data.name).toBe('Main');
  });

  it("refuses a fourth level with the API's error, and a bad item with messages next to its fields", async () => {
    const session = await staff('admin');
    const created = await submit(MENUS, MENUS, { name: `Deep ${uid()}` }, session);
    const id = idFrom(created.res.headers.get('Location'));
    const edit = `${MENUS}/${id}`;
    const add = (form: Record<string, string>) => submit(edit, `${edit}/items`, form, session);
    await add({ label: 'One', type: 'url', target: '/1' });
    await add({ label: 'Two', type: 'url', target: '/2', parent: '0' });
    await add({ label: 'Three', type: 'url', target: '/3', parent: '0.0' });

    const deep = await add({ label: 'Four', type: 'url', target: '/4', parent: '0.0.0' });
    expect(deep.res.status).toBe(422);
    expect(deep.html).toMatch(/id="f-parent-error">is not a known field: menus nest at most three levels/);
    expect(deep.html).toContain('value="Four"');

    await add({ label: 'Sibling', type: 'url', target: '/5', parent: '0.0' });
    const indent = await submit(edit, `${edit}/items/indent`, { path: '0.0.1' }, session);
    expect(indent.res.status).toBe(422);
    expect(indent.html).toContain('items.0.children.0.children.0.children');
    expect(indent.html).toContain('menus nest at most three levels');

    const noLabel = await add({ label: '', type: 'url', target: '/x' });
    expect(noLabel.res.status).toBe(422);
    expect(noLabel.html).toMatch(/id="f-label-error">is required/);
    const bad = await add({ label: 'Bad', type: 'url', target: 'javascript:alert(1)' });
    expect(bad.res.status).toBe(422);
    expect(bad.html).toMatch(/id="f-target-error">must be an http\(s\)/);
    const missing = await add({ label: 'Ghost', type: 'product', target: 'no-such-product' });
    expect(missing.res.status).toBe(422);
    expect(missing.html).toMatch(/id="f-target-error">no product (&#39;|')no-such-product/);

    const top = await submit(edit, `${edit}/items/outdent`, { path: '0' }, session);
    expect(top.res.status).toBe(409);

    const dup = await submit(MENUS, MENUS, { name: 'Dup', handle: (await api(`/api/menus/${id}`)).body.data.handle }, session);
    expect(dup.res.status).toBe(409);
    expect(dup.html).toMatch(/id="f-handle-error">/);

    const deleted = await submit(edit, `${edit}/delete`, {}, session);
    expect(deleted.res.status).toBe(303);
    expect((await api(`/api/menus/${id}`)).status).toBe(404);
  });

  it('is for content:write', async () => {
    const reader = await withPermissions(['content:read']);
    expect((await get(MENUS, reader)).res.status).toBe(403);
    const token = csrfIn((await get('/admin', reader)).html);
    expect((await post(MENUS, { _csrf: token, name: 'Nope' }, reader)).res.status).toBe(403);
  });
});

const BANNERS = '/admin/content/banners';

describe('admin panel banners', () => {
  it('creates banners with a schedule and lists them with the status the API computes, filtered by placement and status', async () => {
    const session = await staff('admin');
    const placement = `spot-${uid()}`.toLowerCase();
    const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString().slice(0, 16);
    const base = { imageUrl: 'https://cdn.example.com/a.jpg', placement, active: 'on' };
    const future = await submit(`${BANNERS}/new`, `${BANNERS}/new`, { ...base, title: 'Soon', startsAt: inHours(24), endsAt: inHours(48) }, session);
    expect(future.res.status).toBe(303);
    const futureId = idFrom(future.res.headers.get('Location'));
    await submit(`${BANNERS}/new`, `${BANNERS}/new`, { ...base, title: 'Now', position: '1', linkUrl: '/sale' }, session);
    await submit(`${BANNERS}/new`, `${BANNERS}/new`, { ...base, title: 'Past', startsAt: inHours(-48), endsAt: inHours(-24) }, session);
    const off = await submit(`${BANNERS}/new`, `${BANNERS}/new`, { imageUrl: base.imageUrl, placement, title: 'Off' }, session);
    expect(off.res.status).toBe(303);

    const list = await get(`${BANNERS}?placement=${placement}`, session);
    const statusOf = (title: string) => new RegExp(`>${title}</a>[\\s\\S]*?class="badge b-(\\w+)"`).exec(list.html)?.[1];
    expect([statusOf('Soon'), statusOf('Now'), statusOf('Past'), statusOf('Off')]).toEqual(['scheduled', 'live', 'expired', 'inactive']);
    expect(await apiList(placement)).toEqual(['Now']); // the public sees only the live one

    const scheduled = await get(`${BANNERS}?placement=${placement}&status=scheduled`, session);
    expect(scheduled.html).toContain('>Soon</a>');
    expect(scheduled.html).not.toContain('>Now</a>');

    // Editing: clearing the schedule makes it live; switching it off, inactive.
    const edit = await get(`${BANNERS}/${futureId}`, session);
    expect(edit.html).toContain(`value="${inHours(24)}"`);
    const live = await submit(`${BANNERS}/${futureId}`, `${BANNERS}/${futureId}`, { ...base, title: 'Soon', startsAt: '', endsAt: '' }, session);
    expect(live.res.status).toBe(303);
    expect((await get(`${BANNERS}/${futureId}`, session)).html).toContain('badge b-live');
    await submit(`${BANNERS}/${futureId}`, `${BANNERS}/${futureId}`, { imageUrl: base.imageUrl, placement, title: 'Soon' }, session);
    expect((await get(`${BANNERS}/${futureId}`, session)).html).toContain('badge b-inactive');

    const deleted = await submit(`${BANNERS}/${futureId}`, `${BANNERS}/${futureId}/delete`, {}, session);
    expect(deleted.res.status).toBe(303);
    expect((await get(`${BANNERS}/${futureId}`, session)).res.status).toBe(404);
  });

  it('shows the API validation messages next to the fields (422)', async () => {
    const session = await staff('admin');
    const bad = await submit(
      `${BANNERS}/new`,
      `${BANNERS}/new`,
      { title: 'Bad', imageUrl: 'ftp://x', placement: 'Not Valid', linkUrl: 'javascript:alert(1)', position: 'x', active: 'on' },
      session,
    );
    expect(bad.res.status).toBe(422);
    expect(bad.html).toMatch(/id="f-imageUrl-error">/);
    expect(bad.html).toMatch(/id="f-placement-error">must be lowercase/);
    expect(bad.html).toMatch(/id="f-linkUrl-error">must be an http\(s\) URL or a path/);
    expect(bad.html).toMatch(/id="f-position-error">/);
    expect(bad.html).toContain('value="Bad"');

    const backwards = await submit(
      `${BANNERS}/new`,
      `${BANNERS}/new`,
      { title: 'Backwards', imageUrl: 'https://x.example/a.png', placement: 'home', startsAt: '2030-01-02T00:00', endsAt: '2030-01-01T00:00' },
      session,
    );
    expect(backwards.res.status).toBe(422);
    expect(backwards.html).toMatch(/id="f-endsAt-error">must be after startsAt/);
  });

  it('is for content:write', async () => {
    const reader = await withPermissions(['content:read']);
    expect((await get(BANNERS, reader)).res.status).toBe(403);
    expect((await get(`${BANNERS}/new`, reader)).res.status).toBe(403);
  });
});

async function apiList(placement: string) {
  return (await api(`/api/banners?placement=${placement}`)).body.data.map((b: any) => b.title);
}

let key: string | undefined;
async function adminKeyOnce() {
  key ??= await adminKey();
  return key;
}
