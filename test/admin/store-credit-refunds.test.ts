import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orderLines, storeCreditBalances } from '../../src/db/schema';
import { api, db, insertUser } from '../helpers';
import { orderRow, placeTestOrder } from '../commerce/order-fixtures';
import { get, post } from './panel-client';
import { signedIn } from './people-client';

// The panel: store credit on the customer page (balance, entries, an adjustment), and the order
// page's refund form by line and units, to the payment or to store credit.

const balanceOf = async (customerId: string) => (await db().select().from(storeCreditBalances).where(eq(storeCreditBalances.customerId, customerId)))[0]?.balance ?? 0;

describe('admin: store credit and refunds by line', () => {
  it('shows and adjusts a customer store credit, refusing to take it below zero', async () => {
    const admin = await signedIn('admin');
    const { user } = await insertUser();
    const page = await get(`/admin/customers/${user.id}`, admin.session);
    expect(page.html).toContain('Store credit');
    expect(page.html).toContain('No store credit.');

    const added = await post(`/admin/customers/${user.id}/credit`, { _csrf: admin.csrf, amount: '15', currency: 'USD', note: 'Goodwill' }, admin.session);
    expect(added.res.status).toBe(303);
    expect(await balanceOf(user.id)).toBe(1500);
    const after = await get(`/admin/customers/${user.id}`, admin.session);
    expect(after.html).toContain('15.00 USD');
    expect(after.html).toContain('Goodwill');

    const over = await post(`/admin/customers/${user.id}/credit`, { _csrf: admin.csrf, amount: '-20', currency: 'USD', note: 'Too much' }, admin.session);
    expect(over.res.status).toBe(409);
    expect(over.html).toContain('store credit is less than 20');
    expect(await balanceOf(user.id)).toBe(1500);
  });

  it('refunds units of a line to store credit from the order page', async () => {
    const admin = await signedIn('admin');
    const { user } = await insertUser();
    const placed = await placeTestOrder({ customer: user.id, price: 10, quantity: 3 });
    const paid = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } });
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, placed.order.id));
    const page = await get(`/admin/orders/${placed.order.id}`, admin.session);
    expect(page.html).toContain(`name="line-${line!.id}"`);
    expect(page.html).toContain('Store credit');

    const refunded = await post(
      `/admin/orders/${placed.order.id}/payments/${paid.body.data.id}/refund`,
      { _csrf: admin.csrf, [`line-${line!.id}`]: '2', amount: '', reason: 'Two broken', destination: 'store_credit' },
      admin.session,
    );
    expect(refunded.res.status).toBe(303);
    expect(await orderRow(placed.order.id)).toMatchObject({ amountRefunded: 2000 });
    expect((await db().select().from(orderLines).where(eq(orderLines.id, line!.id)))[0]).toMatchObject({ quantityRefunded: 2 });
    expect(await balanceOf(user.id)).toBe(2000);
    const after = await get(`/admin/orders/${placed.order.id}`, admin.session);
    expect(after.html).toContain('store credit');
    expect(after.html).toContain('Two broken');

    const tooMany = await post(
      `/admin/orders/${placed.order.id}/payments/${paid.body.data.id}/refund`,
      { _csrf: admin.csrf, [`line-${line!.id}`]: '2', reason: 'Again' },
      admin.session,
    );
    expect(tooMany.res.status).toBe(409);
  });
});
