import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, notifications } from '../../src/db/schema';
import { insertNotifications, planEventNotifications } from '../../src/notifications/planner';
import { REDACTED } from '../../src/notifications/redaction';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, db, insertUser, uid } from '../helpers';
import { resendInbox, sendNotification } from './reset-inbox';

describe('after-sale messages', () => {
  it('payment.refunded sends the customer one refund email with the amount and where it went', async () => {
    const { user } = await insertUser({ name: 'Grace Hopper' });
    const { order } = await placeTestOrder({ customer: user.id, price: 20 });
    const rows = await planEventNotifications(db(), {
      id: `evt_${uid()}`,
      type: 'payment.refunded',
      data: { orderId: order.id, paymentId: 'pay_1', refundId: 're_1', amount: 7.5, currency: order.currency, destination: 'store_credit' },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'refund_issued', recipient: order.email, subject: `${rows[0]!.data.storeName}: refund for order #${order.number}` });
    expect(rows[0]!.body).toContain(`we have refunded 7.50 ${order.currency} for order #${order.number} to your store credit (refund re_1).`);
  });

  it('return.received sends the customer one email listing the returned items', async () => {
    const { user } = await insertUser({ name: 'Grace Hopper' });
    const { order, lines, product } = await placeTestOrder({ customer: user.id, quantity: 3, price: 4 });
    const rows = await planEventNotifications(db(), {
      id: `evt_${uid()}`,
      type: 'return.received',
      data: { orderId: order.id, returnId: 'ret_1', lines: [{ orderLineId: lines[0]!.id, quantity: 2 }] },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      template: 'return_received',
      recipient: order.email,
      subject: `${rows[0]!.data.storeName}: we received your return for order #${order.number}`,
    });
    expect(rows[0]!.body).toContain(`2 x ${product.name}`);
    expect(rows[0]!.body).toContain('Hello Grace Hopper');
  });

  it("gift_card.issued emails the recipient the card's code, which the stored message shows redacted", async () => {
    const recipientEmail = `friend-${uid()}@example.test`;
    const issued = await api('/api/gift-cards', { method: 'POST', key: await adminKey(), json: { amount: 25, currency: 'USD', recipientEmail, recipientName: 'Ada' } });
    expect(issued.status).toBe(201);
    const code = issued.body.data.code as string;
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const [event] = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'gift_card.issued'), sql`json_extract(${events.data}, '$.giftCardId') = ${issued.body.data.id}`));
    const rows = await planEventNotifications(db(), { ...event!, id: `evt_${uid()}` });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ template: 'gift_card_received', recipient: recipientEmail, subject: `${rows[0]!.data.storeName}: you received a gift card` });
    expect(rows[0]!.body).toContain(`Your code: ${REDACTED}`);
    expect(JSON.stringify(rows[0])).not.toContain(code);
    const [id] = await insertNotifications(db(), rows);

    const inbox = await resendInbox();
    await sendNotification(id!, inbox.settings);
    const [sent] = await inbox.emails();
    expect(sent).toMatchObject({ to: [recipientEmail], subject: rows[0]!.subject });
    expect(sent!.text).toContain(`Your code: ${code}`);
    expect(sent!.html).toContain(`<strong>${code}</strong>`);
    const [stored] = await db().select().from(notifications).where(eq(notifications.id, id!));
    expect(stored!.status).toBe('sent');
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored!.body).toContain(`Your code: ${REDACTED}`);
  });

  it('a gift card without a recipientEmail sends nothing', async () => {
    const rows = await planEventNotifications(db(), {
      id: `evt_${uid()}`,
      type: 'gift_card.issued',
      data: { giftCardId: 'gc_1', amount: 5, currency: 'USD', recipientEmail: null },
    });
    expect(rows).toEqual([]);
  });
});
