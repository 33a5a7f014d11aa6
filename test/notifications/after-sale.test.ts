import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currencies, events, notifications } from '../../src/db/schema';
import { insertNotifications, planEventNotifications } from '../../src/notifications/planner';
import { REDACTED } from '../../src/notifications/redaction';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, db, insertUser, uid } from '../helpers';
import { deliveredShoes, ok } from '../commerce/return-fixtures';
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

  it('a return approved, received, and another rejected: each sends the customer one email, from the event its move emitted', async () => {
    const { key, order, line, customer } = await deliveredShoes();
    const messagesOf = async (returnId: string, type: string) => {
      const emitted = await db()
        .select()
        .from(events)
        .where(and(eq(events.type, type), sql`json_extract(${events.data}, '$.returnId') = ${returnId}`));
      expect(emitted, type).toHaveLength(1);
      return planEventNotifications(db(), { ...emitted[0]!, id: `evt_${uid()}` });
    };
    const ret = await ok(`/api/orders/${order.id}/returns`, { method: 'POST', key, json: { lines: [{ orderLineId: line.id, quantity: 1, reason: 'too_small' }] } });
    await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key, json: { status: 'approved', resolution: 'Send it to 1 Main St.' } });
    const [approved, ...moreApproved] = await messagesOf(ret.id, 'return.approved');
    expect(moreApproved).toEqual([]);
    expect(approved).toMatchObject({
      template: 'return_approved',
      recipient: customer.email,
      subject: `${approved!.data.storeName}: your return for order #${order.number} is approved`,
    });
    expect(approved!.body).toContain('1 x Shoes');
    expect(approved!.body).toContain('Send it to 1 Main St.');

    await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key, json: { status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 1 }] } });
    const received = await messagesOf(ret.id, 'return.received');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      template: 'return_received',
      recipient: customer.email,
      subject: `${received[0]!.data.storeName}: we received your return for order #${order.number}`,
    });
    expect(received[0]!.body).toContain(`we have received your return ${ret.id} for order #${order.number}:\n\n1 x Shoes`);

    const other = await ok(`/api/orders/${order.id}/returns`, { method: 'POST', key, json: { lines: [{ orderLineId: line.id, quantity: 1, reason: 'changed_mind' }] } });
    await ok(`/api/returns/${other.id}`, { method: 'PATCH', key, json: { status: 'rejected', resolution: 'Worn shoes cannot be returned.' } });
    const rejected = await messagesOf(other.id, 'return.rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({
      template: 'return_rejected',
      recipient: customer.email,
      subject: `${rejected[0]!.data.storeName}: your return for order #${order.number} was not accepted`,
    });
    expect(rejected[0]!.body).toContain('Worn shoes cannot be returned.');
    // A cancelled return emits nothing to send.
    const cancelled = await ok(`/api/orders/${order.id}/returns`, { method: 'POST', key, json: { lines: [{ orderLineId: line.id, quantity: 1, reason: 'other' }] } });
    await ok(`/api/returns/${cancelled.id}`, { method: 'PATCH', key, json: { status: 'cancelled' } });
    const afterCancel = await db().select().from(events).where(sql`json_extract(${events.data}, '$.returnId') = ${cancelled.id}`);
    expect(afterCancel.map((e) => e.type)).toEqual(['return.requested']);
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
    expect(rows[0]!.data.amount).toBe('25.00 USD');
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

  it("a gift card's amount has its currency's decimals from the store's table, not ISO 4217's", async () => {
    // Codes of this store's own (ISO 4217 would give most of them 2 decimals), kept with 3 and with 0.
    const code = (first: string) =>
      first +
      uid()
        .slice(-2)
        .toUpperCase()
        .replace(/[^A-Z]/g, 'X');
    const [three, none] = [code('Q'), code('Z')];
    await db()
      .insert(currencies)
      .values([
        { code: three, name: 'Three decimals', symbol: 'T', minorUnits: 3, exchangeRate: '1' },
        { code: none, name: 'No decimals', symbol: 'N', minorUnits: 0, exchangeRate: '100' },
      ]);
    const amountOf = async (amount: number, currency: string) => {
      const rows = await planEventNotifications(db(), {
        id: `evt_${uid()}`,
        type: 'gift_card.issued',
        data: { giftCardId: `gc_${uid()}`, amount, currency, recipientEmail: `friend-${uid()}@example.test` },
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body).toContain(`worth ${rows[0]!.data.amount}`);
      return rows[0]!.data.amount;
    };
    expect(await amountOf(1.5, three)).toBe(`1.500 ${three}`);
    expect(await amountOf(1200, none)).toBe(`1200 ${none}`);
    expect(await amountOf(1200, 'JPY')).toBe('1200 JPY'); // not in this store's table: ISO 4217's 0 decimals
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
