import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../src/db/schema';
import { notificationTemplates } from '../../src/db/schema/notifications';
import { DEFAULT_TEMPLATES } from '../../src/notifications/defaults';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { planEventNotifications, planNotifications } from '../../src/notifications/planner';
import { placeholders, renderMessage } from '../../src/notifications/render';
import { triggerVariables } from '../../src/notifications/triggers';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, db, expectError, insertUser } from '../helpers';

describe('the template language', () => {
  it('fills {{variables}}, escapes them in HTML only, and evaluates nothing', () => {
    const out = renderMessage(
      { subject: 'Hi {{ name }}', body: 'Total {{total}} {{missing}}{{constructor}}', bodyHtml: '<p>{{name}}</p>' },
      { name: '<b>Ada</b> & "co"', total: 12.5 },
    );
    expect(out).toEqual({ subject: 'Hi <b>Ada</b> & "co"', body: 'Total 12.5', bodyHtml: '<p>&lt;b&gt;Ada&lt;/b&gt; &amp; &quot;co&quot;</p>' });
    expect(renderMessage({ subject: null, body: '{{a}}{{ a }}{{b.c}}', bodyHtml: null }, { a: '{{b}}', b: 'x' }).body).toBe('{{b}}{{b}}{{b.c}}');
  });

  it('an SMS ends with its last word: every SMS template, with any one of its variables empty, has no whitespace at either end', () => {
    const sms = DEFAULT_TEMPLATES.filter((t) => t.channel === 'sms');
    expect(sms.length).toBeGreaterThan(0);
    for (const t of sms) {
      const names = placeholders(t.body);
      for (const empty of [undefined, ...names]) {
        const data = Object.fromEntries(names.map((name) => [name, name === empty ? '' : `<${name}>`]));
        const { body } = renderMessage({ subject: null, body: t.body, bodyHtml: null }, data);
        expect(body, `${t.id} with ${empty ?? 'nothing'} empty`).toBe(body.trim());
      }
    }
  });

  it("every default template uses only its trigger's variables, and the migration seeded exactly the defaults", async () => {
    for (const t of DEFAULT_TEMPLATES) {
      const known = triggerVariables(t.event);
      expect(known.length, t.id).toBeGreaterThan(0);
      for (const text of [t.subject, t.body, t.bodyHtml])
        expect(
          placeholders(text).filter((v) => !known.includes(v)),
          t.id,
        ).toEqual([]);
    }
    const seeded = await db().select().from(notificationTemplates);
    expect(seeded.map(({ createdAt: _c, updatedAt: _u, active, ...rest }) => ({ ...rest, active }))).toEqual(
      expect.arrayContaining(DEFAULT_TEMPLATES.map((t) => ({ ...t, active: true }))),
    );
    expect(seeded).toHaveLength(DEFAULT_TEMPLATES.length);
  });
});

describe("rendering with an event's data", () => {
  it("renders the order confirmation with the order's number, lines and totals, to the order's email", async () => {
    const { user } = await insertUser({ name: 'Grace Hopper' });
    const { order, product } = await placeTestOrder({ customer: user.id, quantity: 3, price: 12.5 });
    const rows = await planEventNotifications(db(), { id: 'evt_test_placed', type: 'order.placed', data: { orderId: order.id } });
    const email = rows.find((r) => r.template === 'order_confirmation')!;
    expect(email).toMatchObject({ channel: 'email', recipient: order.email, status: 'queued', category: 'transactional', eventId: 'evt_test_placed', recipientUserId: user.id });
    expect(email.subject).toBe(`Demo Store: order #${order.number} confirmed`.replace('Demo Store', String(email.data.storeName)));
    expect(email.body).toContain('Hello Grace Hopper');
    expect(email.body).toContain(`3 x ${product.name}`);
    expect(email.body).toContain('Total: 37.50 EUR'.replace('EUR', order.currency));
    expect(order.number).toBeGreaterThanOrEqual(1001);
    expect(email.bodyHtml).toContain(`<strong>#${order.number}</strong>`);
    expect(email.dedupeKey).toBe(`evt_test_placed|order_confirmation.email|${order.email}`);
  });

  it('messages planned together get ids in the order of their events, so a list sorted by time ties in that order', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => insertUser()));
    const t0 = Date.now();
    const events = users.map(({ user }, i) => ({ id: newId(ID_PREFIX.event, t0 + i), type: 'customer.registered', data: { customerId: user.id } }));
    const templates = await db().select().from(notificationTemplates).where(eq(notificationTemplates.active, true));
    // Handed over newest first, as a queue batch may; planned with one `now`.
    const planned = await planNotifications(db(), [...events].reverse(), templates, new Date(t0));
    const ids = events.map((event) => {
      const rows = planned.get(event.id);
      if (!Array.isArray(rows) || rows.length !== 1) throw new Error(`${event.id}: ${JSON.stringify(rows)}`);
      return rows[0]!.id;
    });
    expect(ids).toEqual([...ids].sort());
  });
});

describe('/api/notifications/templates', () => {
  it('lists the templates with their variables; customers cannot', async () => {
    const key = await adminKey();
    const res = await api('/api/notifications/templates?channel=sms', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: any) => t.id)).toEqual(['tmpl_shipment_shipped_sms']);
    expect(res.body.data[0].variables).toEqual(expect.arrayContaining(['trackingNumber', 'carrier', 'orderId']));
    const { token } = await insertUser();
    expectError(await api('/api/notifications/templates', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/notifications', { key: token }), 403, 'AUTHORIZATION_ERROR');
  });

  it('refuses unknown variables (422 naming them), a subject on SMS and a missing one on email', async () => {
    const key = await adminKey();
    const bad = await api('/api/notifications/templates/tmpl_order_confirmation_email', {
      method: 'PATCH',
      key,
      json: { body: 'Order {{orderId}} for {{creditCard}}', subject: null },
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'body', code: 'invalid_value', message: expect.stringContaining('{{creditCard}}') },
        { field: 'subject', code: 'required', message: 'subject is required for an email template' },
      ]),
    );
    const sms = await api('/api/notifications/templates/tmpl_shipment_shipped_sms', { method: 'PATCH', key, json: { subject: 'Shipped' } });
    expectError(sms, 422, 'VALIDATION_ERROR');
    expectError(await api('/api/notifications/templates/tmpl_nope', { method: 'PATCH', key, json: { active: false } }), 404, 'NOT_FOUND');
  });

  it('saves an edit that new messages use, previews drafts, and resets to the default', async () => {
    const key = await adminKey();
    const edited = await api('/api/notifications/templates/tmpl_order_cancelled_email', { method: 'PATCH', key, json: { subject: 'Cancelled: {{orderId}} ({{total}})' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.subject).toBe('Cancelled: {{orderId}} ({{total}})');
    const { order } = await placeTestOrder({ price: 5 });
    const [row] = await planEventNotifications(db(), { id: 'evt_test_cancel', type: 'order.cancelled', data: { orderId: order.id } });
    expect(row!.subject).toBe(`Cancelled: ${order.id} (5.00 ${order.currency})`);

    const preview = await api('/api/notifications/templates/tmpl_order_cancelled_email/preview', {
      method: 'POST',
      key,
      json: { bodyHtml: '<p>{{customerName}}</p>', data: { customerName: '<script>' } },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ subject: expect.stringMatching(/^Cancelled: ord_/), bodyHtml: '<p>&lt;script&gt;</p>' });
    expectError(await api('/api/notifications/templates/tmpl_order_cancelled_email/preview', { method: 'POST', key, json: { data: { nope: 1 } } }), 422, 'VALIDATION_ERROR');

    const reset = await api('/api/notifications/templates/tmpl_order_cancelled_email/reset', { method: 'POST', key });
    expect(reset.body.data.subject).toBe(DEFAULT_TEMPLATES.find((t) => t.id === 'tmpl_order_cancelled_email')!.subject);
  });

  it('an inactive template plans nothing', async () => {
    const key = await adminKey();
    await api('/api/notifications/templates/tmpl_order_confirmation_email', { method: 'PATCH', key, json: { active: false } });
    const { order } = await placeTestOrder();
    expect(await planEventNotifications(db(), { id: 'evt_off', type: 'order.placed', data: { orderId: order.id } })).toEqual([]);
    await api('/api/notifications/templates/tmpl_order_confirmation_email', { method: 'PATCH', key, json: { active: true } });
    expect(await db().select().from(notifications).where(eq(notifications.eventId, 'evt_off'))).toEqual([]);
  });
});
