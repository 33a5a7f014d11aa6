import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { planEventNotifications } from '../../src/notifications/planner';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, db, insertUser } from '../helpers';

const shippedEvent = (orderId: string) => ({
  id: `evt_${crypto.randomUUID()}`,
  type: 'shipment.shipped',
  data: { orderId, shipmentId: 'ship_x', carrier: 'UPS', trackingNumber: '1Z999', trackingUrl: null, lines: [] },
});

describe('opt-outs', () => {
  it('customers set their own through /api/customers/me; staff through /api/customers/{id}', async () => {
    const { user, token } = await insertUser();
    const me = await api('/api/customers/me', { method: 'PATCH', key: token, json: { smsOptOut: true, marketingEmailOptOut: true } });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ smsOptOut: true, marketingEmailOptOut: true });
    expect((await api('/api/auth/me', { key: token })).body.data).toMatchObject({ smsOptOut: true, marketingEmailOptOut: true });
    const staff = await api(`/api/customers/${user.id}`, { method: 'PATCH', key: await adminKey(), json: { smsOptOut: false } });
    expect(staff.body.data).toMatchObject({ smsOptOut: false, marketingEmailOptOut: true });
  });

  it('an SMS opt-out records the shipping SMS as skipped and sends the email', async () => {
    const { user } = await insertUser();
    await db().update(users).set({ phone: '+1 555 0100' }).where(eq(users.id, user.id));
    const { order } = await placeTestOrder({ customer: user.id });
    const before = await planEventNotifications(db(), shippedEvent(order.id));
    expect(before.map((r) => [r.channel, r.status, r.recipient])).toEqual(
      expect.arrayContaining([
        ['email', 'queued', order.email],
        ['sms', 'queued', '+15550100'],
      ]),
    );
    expect(before.find((r) => r.channel === 'sms')!.body).toContain('tracking 1Z999');

    await db().update(users).set({ smsOptOut: true }).where(eq(users.id, user.id));
    const after = await planEventNotifications(db(), shippedEvent(order.id));
    expect(after.find((r) => r.channel === 'email')!.status).toBe('queued');
    expect(after.find((r) => r.channel === 'sms')).toMatchObject({ status: 'skipped', lastError: 'the recipient opted out of SMS' });
  });

  it('a marketing opt-out skips marketing email (the welcome) but never transactional email', async () => {
    const { user } = await insertUser();
    const welcome = () => planEventNotifications(db(), { id: `evt_${crypto.randomUUID()}`, type: 'customer.registered', data: { customerId: user.id } });
    expect((await welcome()).map((r) => [r.template, r.status, r.category])).toEqual([['welcome', 'queued', 'marketing']]);
    await db().update(users).set({ marketingEmailOptOut: true, smsOptOut: true }).where(eq(users.id, user.id));
    expect((await welcome())[0]).toMatchObject({ status: 'skipped', lastError: 'the recipient opted out of marketing email' });

    const { order } = await placeTestOrder({ customer: user.id });
    const confirmation = await planEventNotifications(db(), { id: `evt_${crypto.randomUUID()}`, type: 'order.placed', data: { orderId: order.id } });
    expect(confirmation.map((r) => [r.template, r.status])).toEqual([['order_confirmation', 'queued']]);
  });

  it('guests get transactional email only: no SMS, no marketing', async () => {
    const { order } = await placeTestOrder({ customer: null });
    const rows = await planEventNotifications(db(), shippedEvent(order.id));
    expect(rows.map((r) => [r.channel, r.recipient])).toEqual([['email', order.email]]);
  });

  it('low stock goes to staff who may read inventory, not to customers or vendor users', async () => {
    const admin = await insertUser({ role: 'admin' });
    await insertUser({ role: 'customer' });
    const key = await adminKey();
    const product = await (await import('../helpers')).createProduct(key, { stock: 10, sku: `LOW-${crypto.randomUUID().slice(0, 6)}` });
    const rows = await planEventNotifications(db(), {
      id: `evt_${crypto.randomUUID()}`,
      type: 'inventory.low',
      data: { productId: product.id, variantId: product.variants[0].id, sku: product.variants[0].sku, quantity: 2, threshold: 5 },
    });
    expect(rows.map((r) => r.recipient)).toContain(admin.user.email);
    expect(rows.every((r) => r.template === 'low_stock' && r.channel === 'email')).toBe(true);
    expect(rows[0]!.subject).toBe(`Low stock: ${product.name} (${product.variants[0].sku ?? ''})`);
    expect(rows[0]!.body).toContain('down to 2 in stock; the threshold is 5');
  });
});
