import { describe, expect, it } from 'vitest';
import { getSettings } from '../../src/modules/settings/settings.service';
import { createUser } from '../../src/modules/users/users.service';
import { deliveredShoes, ok } from '../commerce/return-fixtures';
import { adminKey, db, uid } from '../helpers';
import { errorOf, flashOf, get, signIn, submit } from './panel-client';

// The panel's Returns queue (docs/admin.md#returns): the list with its status filter, a return's page
// with approve, receive-with-restock and reject, and the order page listing its returns.

const PASSWORD = 'correct horse battery';

async function staff() {
  const email = `returns-${uid()}@example.com`;
  await createUser(db(), { email, password: PASSWORD, roleId: 'admin', vendorId: null });
  return (await signIn(email, PASSWORD)).session;
}

describe('admin panel returns', () => {
  it('lists returns by status, approves one and receives it restocking what staff typed', async () => {
    const shoes = await deliveredShoes();
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, {
      method: 'POST',
      key: shoes.token,
      json: { lines: [{ orderLineId: shoes.line.id, quantity: 2, reason: 'too_small' }] },
    });
    const session = await staff();

    const queue = await get(`/admin/returns?status=requested&order=${shoes.order.id}`, session);
    expect(queue.res.status).toBe(200);
    expect(queue.html).toContain(`href="/admin/returns/${ret.id}"`);
    expect(queue.html).toContain('href="/admin/returns"');
    expect((await get(`/admin/returns?status=approved&order=${shoes.order.id}`, session)).html).not.toContain(ret.id);
    const orderPage = (await get(`/admin/orders/${shoes.order.id}`, session)).html;
    expect(orderPage).toContain(`href="/admin/returns/${ret.id}"`);
    // The line's Returned column: both pairs are in the return.
    expect(orderPage).toMatch(/<td class="num">2<\/td>\s*<td class="num">2<\/td>\s*<td class="num">2<\/td>/);

    const here = `/admin/returns/${ret.id}`;
    const approved = await submit(here, here, { status: 'approved', resolution: 'Send to the warehouse' }, session);
    expect(approved.res.status).toBe(303);
    expect(flashOf(approved.res)?.text).toBe('Return approved.');
    const page = (await get(here, session)).html;
    expect(page).toContain('Send to the warehouse');
    expect(page).toContain(`name="restock.${ret.lines[0].id}"`);

    // More than came back is refused next to its field; then one of the two pairs goes back on sale.
    const tooMany = await submit(here, here, { status: 'received', [`restock.${ret.lines[0].id}`]: '3' }, session);
    expect(tooMany.res.status).toBe(422);
    expect(errorOf(tooMany.html, `restock-${ret.lines[0].id}`)).toMatch(/at most the 2/);
    const received = await submit(here, here, { status: 'received', [`restock.${ret.lines[0].id}`]: '1' }, session);
    expect(received.res.status).toBe(303);
    expect(await shoes.stock()).toBe(9);
    expect(await ok(`/api/returns/${ret.id}`, { key: shoes.key })).toMatchObject({ status: 'received', lines: [{ restockedQuantity: 1 }] });
  });

  it('receives a damaged line as the form prefills it, 0 restocked, or emptied', async () => {
    for (const typed of ['0', '']) {
      const shoes = await deliveredShoes();
      const ret = await ok(`/api/orders/${shoes.order.id}/returns`, {
        method: 'POST',
        key: shoes.token,
        json: { lines: [{ orderLineId: shoes.line.id, quantity: 1, reason: 'damaged' }] },
      });
      const session = await staff();
      const here = `/admin/returns/${ret.id}`;
      expect((await submit(here, here, { status: 'approved' }, session)).res.status).toBe(303);
      expect((await get(here, session)).html).toMatch(new RegExp(`name="restock\\.${ret.lines[0].id}"[^>]*value="0"`));
      const stock = await shoes.stock();
      const received = await submit(here, here, { status: 'received', [`restock.${ret.lines[0].id}`]: typed }, session);
      expect(received.res.status, typed).toBe(303);
      expect(await ok(`/api/returns/${ret.id}`, { key: shoes.key })).toMatchObject({ status: 'received', lines: [{ restockedQuantity: 0 }] });
      expect(await shoes.stock()).toBe(stock);
    }
  });

  it('rejects a return with the reason given, and shows a refused move as an error', async () => {
    const shoes = await deliveredShoes();
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, {
      method: 'POST',
      key: shoes.token,
      json: { lines: [{ orderLineId: shoes.line.id, quantity: 1, reason: 'changed_mind' }] },
    });
    const session = await staff();
    const here = `/admin/returns/${ret.id}`;
    expect((await submit(here, here, { status: 'rejected', resolution: 'Worn' }, session)).res.status).toBe(303);
    expect(await ok(`/api/returns/${ret.id}`, { key: shoes.key })).toMatchObject({ status: 'rejected', resolution: 'Worn' });
    const again = await submit(here, here, { status: 'approved' }, session);
    expect(again.res.status).toBe(409);
    expect(again.html).toMatch(/role="alert">\s*<p>A return cannot move from (&#39;|')rejected\1 to \1approved\1/);
  });

  it('refunds a received return by line from its page, and exchanges another for a SKU, the customer owing the difference', async () => {
    const session = await staff();
    const received = async () => {
      const shoes = await deliveredShoes();
      const ret = await ok(`/api/orders/${shoes.order.id}/returns`, {
        method: 'POST',
        key: shoes.token,
        json: { lines: [{ orderLineId: shoes.line.id, quantity: 1, reason: 'too_small' }] },
      });
      await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'approved' } });
      await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'received' } });
      return { shoes, here: `/admin/returns/${ret.id}`, ret };
    };

    const first = await received();
    const page = (await get(first.here, session)).html;
    expect(page).toContain(`action="${first.here}/refund"`);
    expect(page).toContain(`action="${first.here}/exchange"`);
    const refunded = await submit(first.here, `${first.here}/refund`, { destination: 'store_credit', reason: 'Too small' }, session);
    expect(refunded.res.status, refunded.html).toBe(303);
    expect(flashOf(refunded.res)?.text).toBe('Refunded 60.00 USD.');
    expect(await ok(`/api/returns/${first.ret.id}`, { key: first.shoes.key })).toMatchObject({ status: 'refunded' });

    const second = await received();
    const sku = `BIGGER-${uid()}`;
    await ok('/api/products', { method: 'POST', key: second.shoes.key, json: { name: 'Shoes, a size up', status: 'active', price: 70, variants: [{ sku, price: 70, stock: 3 }] } });
    const unknown = await submit(second.here, `${second.here}/exchange`, { 'sku.0': 'NO-SUCH-SKU', 'quantity.0': '1', balanceTo: 'payment' }, session);
    expect(unknown.res.status).toBe(422);
    expect(errorOf(unknown.html, 'sku.0')).toMatch(/no variant/);
    const exchanged = await submit(second.here, `${second.here}/exchange`, { 'sku.0': sku, 'quantity.0': '1', balanceTo: 'payment' }, session);
    expect(exchanged.res.status, exchanged.html).toBe(303);
    expect(flashOf(exchanged.res)?.text).toMatch(/^Exchanged for order #\d+: 10.00 USD to pay\.$/);
    const settled = await ok(`/api/returns/${second.ret.id}`, { key: second.shoes.key });
    expect(settled).toMatchObject({ status: 'refunded', exchangeOrderId: expect.any(String) });
    expect((await get(second.here, session)).html).toContain(`href="/admin/orders/${settled.exchangeOrderId}"`);
  });

  it('sets the return window on the settings page', async () => {
    const session = await staff();
    const current = await getSettings(db());
    expect((await get('/admin/settings', session)).html).toMatch(/name="returnWindowDays" type="number" value="30"/);
    const store = {
      name: current.name,
      contactEmail: current.contactEmail ?? '',
      defaultCurrency: current.defaultCurrency,
      weightUnit: current.weightUnit,
      lowStockThreshold: String(current.lowStockThreshold),
    };
    try {
      expect((await submit('/admin/settings', '/admin/settings', { ...store, returnWindowDays: '14' }, session)).res.status).toBe(303);
      expect((await getSettings(db())).returnWindowDays).toBe(14);
      const refused = await submit('/admin/settings', '/admin/settings', { ...store, returnWindowDays: '400' }, session);
      expect(refused.res.status).toBe(422);
      expect(errorOf(refused.html, 'returnWindowDays')).toBeTruthy();
    } finally {
      await ok('/api/settings', { method: 'PATCH', key: await adminKey(), json: { returnWindowDays: 30 } });
    }
  });
});
