import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notifications, users } from '../../src/db/schema';
import { adminKey, api, createProduct, db } from '../helpers';

// Through the API and the real queues: an order placed, paid and shipped leaves its email and SMS
// messages in the outbox (the default provider), sent and readable at /api/notifications.

it("placing, paying and shipping an order leaves readable email and SMS with the order's details", { timeout: 60_000 }, async () => {
  const key = await adminKey();
  // Signed up through the API, whose request publishes its own customer.registered (the welcome email).
  const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const registered = await api('/api/auth/register', { method: 'POST', json: { email, password: 'correct horse battery', name: 'Ada Lovelace' } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const user = registered.body.data.user;
  const token = registered.body.data.token;
  await db().update(users).set({ phone: '+44 20 7946 0000' }).where(eq(users.id, user.id));
  const product = await createProduct(key, { price: 20, stock: 50 });
  const placed = await api('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines: [{ variantId: product.variants[0].id, quantity: 2 }] } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order = placed.body.data;
  expect((await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } })).status).toBe(201);
  const shipped = await api(`/api/orders/${order.id}/shipments`, {
    method: 'POST',
    key,
    json: { carrier: 'UPS', trackingNumber: '1Z999AA1', trackingUrl: 'https://ups.example/1Z999AA1', status: 'shipped' },
  });
  expect(shipped.status, JSON.stringify(shipped.body)).toBe(201);

  const mine = async () => (await api(`/api/notifications?recipient=${encodeURIComponent(user.email)}&limit=100`, { key })).body.data as any[];
  await expect
    .poll(
      async () =>
        (await mine())
          .filter((n) => n.status === 'sent')
          .map((n) => n.template)
          .sort(),
      { timeout: 30_000, interval: 250 },
    )
    .toEqual(['order_confirmation', 'payment_receipt', 'shipment_shipped', 'welcome']);
  const emails = await mine();
  const confirmation = emails.find((n) => n.template === 'order_confirmation');
  expect(confirmation).toMatchObject({ channel: 'email', provider: 'outbox', attempts: 1, subject: expect.stringContaining(`order #${order.number} confirmed`) });
  expect(confirmation.body).toContain(`2 x ${product.name}`);
  expect(confirmation.body).toContain(`Total: ${order.total.toFixed(2)} ${order.currency}`);
  expect(emails.find((n) => n.template === 'shipment_shipped').body).toContain('Tracking number: 1Z999AA1');

  const sms = async () => (await api('/api/notifications?recipient=%2B442079460000&channel=sms', { key })).body.data as any[];
  await expect.poll(async () => (await sms()).map((n) => n.status), { timeout: 30_000, interval: 250 }).toEqual(['sent']);
  const [text] = await sms();
  expect(text.body).toContain(`order #${order.number} has shipped with UPS, tracking 1Z999AA1 https://ups.example/1Z999AA1`);
  expect(await db().select().from(notifications).where(eq(notifications.recipientUserId, user.id))).toHaveLength(5); // the sign-up's welcome too
  // The customer cannot read the store's message log.
  expect((await api('/api/notifications', { key: token })).status).toBe(403);
});
