import { describe, expect, it } from 'vitest';
import { roles } from '../../src/db/schema';
import { createUser } from '../../src/modules/users/users.service';
import { db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

const PASSWORD = 'correct horse battery';

async function panelUser(role: string | string[]) {
  const roleId = typeof role === 'string' ? role : `audit-${uid()}`;
  if (typeof role !== 'string') await db().insert(roles).values({ id: roleId, name: roleId, permissions: role });
  const email = `audit-${uid()}@example.com`;
  const user = await createUser(db(), { email, password: PASSWORD, roleId, vendorId: null });
  const { session } = await signIn(email, PASSWORD);
  expect(session).not.toBe('');
  return { session, user, email };
}

/** Entry ids linked from a list page, in order. */
const entryIds = (html: string) => [...html.matchAll(/href="\/admin\/audit-log\/(\d+)"/g)].map((m) => Number(m[1]));

describe('admin panel audit log', () => {
  it('lists what panel users wrote, filtered by actor, resource, action and dates as the API list is', async () => {
    const admin = await panelUser('admin');
    // A coupon created and switched off through the panel: a create and an update entry.
    const code = `AUDIT-${uid()}`.toUpperCase();
    const coupons = await get('/admin/coupons', admin.session);
    expect((await post('/admin/coupons', { _csrf: csrfIn(coupons.html), code, type: 'percentage', value: '10' }, admin.session)).res.status).toBe(303);
    const listed = await get(`/admin/coupons?q=${code}`, admin.session);
    const couponId = /action="\/admin\/coupons\/([^/]+)\/active"/.exec(listed.html)![1]!;
    expect((await post(`/admin/coupons/${couponId}/active`, { _csrf: csrfIn(listed.html), active: 'false' }, admin.session)).res.status).toBe(303);

    const mine = await get(`/admin/audit-log?actor=${encodeURIComponent(admin.email)}`, admin.session);
    expect(mine.res.status).toBe(200);
    expect(entryIds(mine.html)).toHaveLength(2);
    expect(mine.html).toContain(admin.email);
    expect(mine.html.replace(/<wbr\/>/g, '')).toContain('POST /admin/coupons');

    const updates = await get(`/admin/audit-log?actor=${admin.user.id}&resource=coupon&action=update`, admin.session);
    expect(entryIds(updates.html)).toHaveLength(1);
    expect(updates.html).toContain('<option value="coupon" selected="">');
    expect(updates.html).toContain('<option value="update" selected="">');

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(entryIds((await get(`/admin/audit-log?actor=${admin.user.id}&created_after=${today}&created_before=${tomorrow}`, admin.session)).html)).toHaveLength(2);
    expect(entryIds((await get(`/admin/audit-log?actor=${admin.user.id}&created_before=${today}`, admin.session)).html)).toHaveLength(0);
    expect((await get(`/admin/audit-log?actor=${admin.user.id}&limit=1&page=2`, admin.session)).html).toContain('Page 2 of 2');

    // A bad filter is the API's 400 naming it.
    const bad = await get('/admin/audit-log?created_after=yesterday', admin.session);
    expect(bad.res.status).toBe(400);
    expect((await get('/admin/audit-log?action=rename', admin.session)).res.status).toBe(400);
  });

  it("shows an entry's changed fields first, highlighted, before and after side by side", async () => {
    const admin = await panelUser('admin');
    const id = 'tmpl_shipment_shipped_email';
    const page = await get(`/admin/notifications/${id}`, admin.session);
    const body = /<textarea id="f-body" name="body"[^>]*>([^<]*)<\/textarea>/
      .exec(page.html)![1]!
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const saved = await post(`/admin/notifications/${id}`, { _csrf: csrfIn(page.html), subject: 'On its way: {{orderId}}', body: `${body}\nSee you soon.` }, admin.session);
    expect(saved.res.status).toBe(303);

    const list = await get(`/admin/audit-log?resource=notification_template&resource_id=${id}&actor=${admin.user.id}`, admin.session);
    const [entryId] = entryIds(list.html);
    expect(entryId).toBeDefined();
    const entry = await get(`/admin/audit-log/${entryId}`, admin.session);
    expect(entry.res.status).toBe(200);
    expect(entry.html).toContain(`<h1>Audit entry ${entryId}</h1>`);
    // Subject, body, HTML (cleared: no bodyHtml was posted) and active (unticked) changed.
    expect(entry.html).toContain('Changed fields (4)');
    expect(entry.html).toMatch(
      /<tr class="changed"><td class="field-name"><mark><code>subject<\/code><\/mark><\/td><td class="before"><del>\{\{storeName\}\}[^<]*<\/del><\/td><td class="after"><ins>On its way: \{\{orderId\}\}<\/ins><\/td><\/tr>/,
    );
    expect(entry.html).toMatch(/<td class="after"><ins>[\s\S]*?<br\/>See you soon\.<\/ins>/);
    expect(entry.html).toMatch(/<code>active<\/code><\/mark><\/td><td class="before"><del><code>true<\/code><\/del><\/td><td class="after"><ins><code>false<\/code><\/ins>/);
    expect(entry.html).toContain(`href="/admin/notifications/${id}"`);
    expect(entry.html).toContain(`POST /admin/notifications/${id}`);
    expect(entry.html).toContain('href="/admin/audit-log?resource=notification_template&amp;resource_id=tmpl_shipment_shipped_email"');

    // A create shows every field once, none highlighted.
    const code = `SEEN-${uid()}`.toUpperCase();
    expect((await post('/admin/coupons', { _csrf: csrfIn(entry.html), code, type: 'fixed', value: '5' }, admin.session)).res.status).toBe(303);
    const [createdId] = entryIds((await get(`/admin/audit-log?actor=${admin.user.id}&resource=coupon&action=create`, admin.session)).html);
    const createEntry = await get(`/admin/audit-log/${createdId}`, admin.session);
    expect(createEntry.html).toContain('Fields as created');
    expect(createEntry.html).toContain(code);
    expect(createEntry.html).not.toContain('class="changed"');

    const reset = await post(`/admin/notifications/${id}/reset`, { _csrf: csrfIn(entry.html) }, admin.session);
    expect(reset.res.status).toBe(303);
    expect((await get('/admin/audit-log/999999999', admin.session)).res.status).toBe(404);
    expect((await get('/admin/audit-log/not-a-number', admin.session)).res.status).toBe(404);
  });

  it('is for those holding audit-log:read only: others get 403 and no link', async () => {
    const reader = await panelUser(['audit-log:read']);
    expect((await get('/admin', reader.session)).html).toContain('href="/admin/audit-log"');
    expect((await get('/admin/audit-log', reader.session)).res.status).toBe(200);

    const other = await panelUser(['notifications:read', 'notifications:write', 'coupons:read']);
    expect((await get('/admin', other.session)).html).not.toContain('href="/admin/audit-log"');
    expect((await get('/admin/audit-log', other.session)).res.status).toBe(403);
    expect((await get('/admin/audit-log/1', other.session)).res.status).toBe(403);
  });
});
