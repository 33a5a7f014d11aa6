import { describe, expect, it, onTestFinished } from 'vitest';
import { parseCsv } from '../../src/lib/csv';
import { newId } from '../../src/lib/ids';
import { taxRates } from '../../src/db/schema';
import { api, db, expectError, uid } from '../helpers';
import { placeTwoVendorOrder, vendorKey } from './order-fixtures';

// The money of an order a vendor caller is shown: its own lines' only (docs/api.md, Vendors and
// orders). The order: vendor A's line 22.00 and vendor B's 35.00 (subtotal 57.00).

const WHOLE = { subtotal: 57, discountTotal: 0, shippingTotal: 0, taxTotal: 0, total: 57 };
const OWN_A = { subtotal: 22, discountTotal: 0, shippingTotal: 0, taxTotal: 0, total: 22 };
/** Payments are for the whole order: a vendor sees none of the amounts. */
const NO_PAYMENT_AMOUNTS = { amountPaid: null, amountRefunded: null, amountDue: null };

/** Pays the order in full (manual); the payment's id. */
async function pay(key: string, orderId: string): Promise<string> {
  const res = await api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The cells of a CSV answer by column name, one object per row. */
function csvRows(text: string) {
  const [header, ...rows] = parseCsv(text).map((r) => r.cells);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]])));
}

describe('the money of an order a vendor reads', () => {
  it("is its own lines' in a single read, a list and a fields= selection, for its users and its keys", async () => {
    const { key, order, vendorA, lineA } = await placeTwoVendorOrder();
    await pay(key, order.id);
    const keyA = await vendorKey(vendorA.vendor.id);
    for (const credential of [vendorA.token, keyA]) {
      const single = await api(`/api/orders/${order.id}`, { key: credential });
      expect(single.status).toBe(200);
      expect(single.body.data).toMatchObject({ ...OWN_A, ...NO_PAYMENT_AMOUNTS, paymentStatus: 'paid' });
      expect(single.body.data.lines.map((l: { id: string }) => l.id)).toEqual([lineA.id]);

      const list = await api(`/api/orders?number=${order.number}`, { key: credential });
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({ ...OWN_A, ...NO_PAYMENT_AMOUNTS });

      // Without its lines selected, the amounts are still those of its lines.
      const selected = await api(`/api/orders/${order.id}?fields=id,subtotal,total,amountPaid,amountDue`, { key: credential });
      expect(selected.body.data).toEqual({ id: order.id, subtotal: 22, total: 22, amountPaid: null, amountDue: null });
      const listed = await api(`/api/orders?number=${order.number}&fields=subtotal,tax_total,total`, { key: credential });
      expect(listed.body.data).toEqual([{ subtotal: 22, taxTotal: 0, total: 22 }]);
    }
    // Staff still read the whole order.
    const whole = await api(`/api/orders/${order.id}`, { key });
    expect(whole.body.data).toMatchObject({ ...WHOLE, amountPaid: 57, amountRefunded: 0, amountDue: 0 });
    expect(whole.body.data.lines).toHaveLength(2);
  });

  it("is its own lines' in a CSV export, with no payment amounts", async () => {
    const { key, order, vendorA } = await placeTwoVendorOrder();
    await pay(key, order.id);
    const all = await api(`/api/orders?format=csv&number=${order.number}`, { key: vendorA.token });
    expect(all.status).toBe(200);
    const [row] = csvRows(all.body as string);
    expect(row).toMatchObject({ subtotal: '22', total: '22', taxTotal: '0', shippingTotal: '0', amountPaid: '', amountDue: '' });
    const picked = await api(`/api/orders?format=csv&number=${order.number}&fields=number,subtotal,total`, { key: vendorA.token });
    expect(csvRows(picked.body as string)).toEqual([{ number: String(order.number), subtotal: '22', total: '22' }]);
    // Staff export the whole order.
    const staff = await api(`/api/orders?format=csv&number=${order.number}&fields=subtotal,total,amountPaid`, { key });
    expect(csvRows(staff.body as string)).toEqual([{ subtotal: '57', total: '57', amountPaid: '57' }]);
  });

  it('takes the discount and tax each line was priced with, and leaves shipping out', async () => {
    const region = `V${uid().slice(0, 2).toUpperCase()}`;
    await db()
      .insert(taxRates)
      .values({ id: newId('tax'), name: 'Vendor money tax', country: 'US', region, rate: '8.875', shippingTaxable: true });
    const staffKey = (await placeTwoVendorOrder()).key;
    expect((await api('/api/settings', { method: 'PATCH', key: staffKey, json: { shippingFlatRate: 4.95, freeShippingThreshold: null } })).status).toBe(200);
    onTestFinished(async () => void (await api('/api/settings', { method: 'PATCH', key: staffKey, json: { shippingFlatRate: 0 } })));
    const code = `VM${uid().slice(0, 6).toUpperCase()}`;
    expect((await api('/api/coupons', { method: 'POST', key: staffKey, json: { code, type: 'percentage', value: 10 } })).status).toBe(201);
    const address = { firstName: 'Ada', line1: '1 Main St', city: 'Springfield', region, postalCode: '12345', country: 'US' };
    const { key, order, vendorA, vendorB } = await placeTwoVendorOrder({ couponCode: code, shippingAddress: address });

    // Whole order: 57.00 - 5.70 + 4.95 shipping + tax (1.76 + 2.80 on the lines, 0.44 on shipping) = 61.25.
    expect((await api(`/api/orders/${order.id}`, { key })).body.data).toMatchObject({ subtotal: 57, discountTotal: 5.7, shippingTotal: 4.95, taxTotal: 5, total: 61.25 });
    // Each vendor: its line as the order priced it (10% off, then 8.875% tax, half-up per line).
    const seenA = (await api(`/api/orders/${order.id}`, { key: vendorA.token })).body.data;
    expect(seenA).toMatchObject({ subtotal: 22, discountTotal: 2.2, shippingTotal: 0, taxTotal: 1.76, total: 21.56, couponCode: code });
    expect(seenA.total).toBe(seenA.lines[0].total);
    const seenB = (await api(`/api/orders/${order.id}`, { key: vendorB.token })).body.data;
    expect(seenB).toMatchObject({ subtotal: 35, discountTotal: 3.5, shippingTotal: 0, taxTotal: 2.8, total: 34.3 });
  });

  it("sorts by the total it is shown, not the whole order's", async () => {
    const { key, order, vendorA, lineA, lineB } = await placeTwoVendorOrder();
    const [variantA, variantB] = [lineA.variantId, lineB.variantId];
    const place = async (lines: { variantId: string; quantity: number }[]) => {
      const res = await api('/api/orders', { method: 'POST', key, json: { email: `sort-${uid()}@example.test`, lines } });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    // To vendor A: 11.00 (whole 46.00), 22.00 (whole 57.00), 33.00 (whole 33.00).
    const small = await place([
      { variantId: variantA, quantity: 1 },
      { variantId: variantB, quantity: 5 },
    ]);
    const large = await place([{ variantId: variantA, quantity: 3 }]);
    const sorted = async (sort: string) => (await api(`/api/orders?sort=${sort}`, { key: vendorA.token })).body.data.map((o: { id: string }) => o.id);
    expect(await sorted('total')).toEqual([small, order.id, large]);
    expect(await sorted('total:desc')).toEqual([large, order.id, small]);
    // Staff sort the whole totals.
    const whole = (await api('/api/orders?sort=total&limit=100', { key })).body.data.map((o: { id: string }) => o.id);
    expect(whole.filter((id: string) => [small, order.id, large].includes(id))).toEqual([large, small, order.id]);
  });

  it('leaves payments closed to vendors: their amounts are the whole order', async () => {
    const { key, order, vendorA } = await placeTwoVendorOrder();
    const paymentId = await pay(key, order.id);
    for (const credential of [vendorA.token, await vendorKey(vendorA.vendor.id)]) {
      expectError(await api(`/api/orders/${order.id}/payments`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api('/api/payments', { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`/api/payments/${paymentId}`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`/api/payments/${paymentId}/refunds`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
    }
    expect((await api(`/api/payments/${paymentId}`, { key })).body.data.amount).toBe(57);
  });
});
