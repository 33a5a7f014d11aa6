import { beforeAll, describe, expect, it } from 'vitest';
import { bumpForScheduledContent } from '../../src/modules/pages/scheduled-content';
import { adminKey, api, createProduct, db, insertUser, uid } from '../helpers';
import { countedOrder } from './order-fixtures';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const post = (path: string, json: unknown) => api(path, { method: 'POST', key, json });

/** A product at 10.00, a customer in a wholesale group whose list sells it at 9.00, and at 8.50 from 10 units. */
async function wholesale(list: Record<string, unknown> = {}) {
  const product = await createProduct(key, { price: 10, stock: 100 });
  const variantId = product.variants[0].id as string;
  const group = (await post('/api/customer-groups', { name: `Wholesale ${uid()}` })).body.data;
  const customer = await insertUser();
  expect((await post(`/api/customer-groups/${group.id}/members`, { customerIds: [customer.user.id] })).status).toBe(200);
  const created = await post('/api/price-lists', {
    name: `Wholesale ${uid()}`,
    customerGroupId: group.id,
    currency: 'USD',
    status: 'active',
    prices: [
      { variantId, amount: 9 },
      { variantId, minQuantity: 10, amount: 8.5 },
    ],
    ...list,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { product, variantId, group, customer, list: created.body.data };
}

const shownPrices = (body: any) => ({
  price: body.data.price,
  compareAtPrice: body.data.compareAtPrice,
  variant: [body.data.variants[0].price, body.data.variants[0].compareAtPrice],
});
const PUBLIC = { price: 10, compareAtPrice: null, variant: [10, null] };
const LISTED = { price: 9, compareAtPrice: 10, variant: [9, 10] };

describe('price lists applied', () => {
  it('shows a wholesale customer its price with the public one as compareAtPrice, while the anonymous answer of the same URL stays public, before and after', async () => {
    const { product, variantId, customer } = await wholesale();
    const url = `/api/products/${product.id}`;
    const before = await api(url);
    expect(shownPrices(before.body)).toEqual(PUBLIC);
    const mine = await api(url, { key: customer.token });
    expect(mine.status).toBe(200);
    expect(shownPrices(mine.body)).toEqual(LISTED);
    expect(mine.headers.get('Cache-Control')).toBe('private, no-store');
    // Asked again anonymously: from the cache or not, the public price.
    const after = await api(url);
    expect(shownPrices(after.body)).toEqual(PUBLIC);
    expect(after.headers.get('Cache-Control')).toContain('public');
    // The variant reads and the list show the same.
    const variant = await api(`${url}/variants/${variantId}`, { key: customer.token });
    expect([variant.body.data.price, variant.body.data.compareAtPrice]).toEqual([9, 10]);
    expect([(await api(`${url}/variants/${variantId}`)).body.data.price]).toEqual([10]);
    const listed = await api(`/api/products?q=${encodeURIComponent(product.name)}`, { key: customer.token });
    expect(listed.body.data.find((p: { id: string }) => p.id === product.id).price).toBe(9);
    // Another signed-in customer, in no group, sees the public price.
    const stranger = await insertUser();
    expect(shownPrices((await api(url, { key: stranger.token })).body)).toEqual(PUBLIC);
  });

  it('prices the cart and the order at the list, by the tier the line quantity reaches', async () => {
    const { variantId, customer } = await wholesale();
    await api('/api/carts', { method: 'POST', key: customer.token });
    const cart = await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId, quantity: 4 } });
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    expect(cart.body.data.totals.subtotal).toBe(36);
    const tiered = await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId, quantity: 6 } });
    expect(tiered.body.data.lines[0]).toMatchObject({ quantity: 10, unitPrice: 8.5 });
    expect(tiered.body.data.totals.subtotal).toBe(85);
    const order = await api('/api/carts/me/checkout', { method: 'POST', key: customer.token });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data).toMatchObject({ subtotal: 85, total: 85 });
    expect(order.body.data.lines[0]).toMatchObject({ unitPrice: 8.5, quantity: 10 });
    // Placed directly, twice (the second from this isolate's kept inputs): the same prices.
    for (const quantity of [12, 2]) {
      const direct = await api('/api/orders', { method: 'POST', key: customer.token, json: { lines: [{ variantId, quantity }] } });
      expect(direct.status, JSON.stringify(direct.body)).toBe(201);
      expect(direct.body.data.lines[0].unitPrice).toBe(quantity >= 10 ? 8.5 : 9);
    }
    // A guest pays the public price.
    const guest = await api('/api/orders', { method: 'POST', key, json: { email: `g-${uid()}@example.test`, lines: [{ variantId, quantity: 10 }] } });
    expect(guest.body.data.lines[0].unitPrice).toBe(10);
  });

  it('stops applying at once when the customer leaves the group, and never outside the list window', async () => {
    const { product, variantId, group, customer } = await wholesale();
    const url = `/api/products/${product.id}`;
    const order = (quantity: number) => api('/api/orders', { method: 'POST', key: customer.token, json: { lines: [{ variantId, quantity }] } });
    expect(shownPrices((await api(url, { key: customer.token })).body)).toEqual(LISTED);
    expect((await order(1)).body.data.lines[0].unitPrice).toBe(9);
    expect((await api(`/api/customer-groups/${group.id}/members/${customer.user.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect(shownPrices((await api(url, { key: customer.token })).body)).toEqual(PUBLIC);
    expect((await order(1)).body.data.lines[0].unitPrice).toBe(10);

    const hour = 3_600_000;
    const future = await wholesale({ startsAt: new Date(Date.now() + hour).toISOString() });
    const past = await wholesale({ startsAt: new Date(Date.now() - 2 * hour).toISOString(), endsAt: new Date(Date.now() - hour).toISOString() });
    const draft = await wholesale({ status: 'draft' });
    for (const w of [future, past, draft]) {
      expect(shownPrices((await api(`/api/products/${w.product.id}`, { key: w.customer.token })).body)).toEqual(PUBLIC);
      const placed = await api('/api/orders', { method: 'POST', key: w.customer.token, json: { lines: [{ variantId: w.variantId, quantity: 10 }] } });
      expect(placed.body.data.lines[0].unitPrice).toBe(10);
    }
  });

  it('takes the lowest of several lists (a group list and one for every customer) and never raises a price', async () => {
    const { product, variantId, customer } = await wholesale();
    const everyone = await post('/api/price-lists', { name: `All ${uid()}`, currency: 'USD', status: 'active', prices: [{ variantId, amount: 8.75 }] });
    expect(everyone.status).toBe(201);
    expect(shownPrices((await api(`/api/products/${product.id}`, { key: customer.token })).body)).toMatchObject({ price: 8.75, compareAtPrice: 10 });
    const dearer = await wholesale({ prices: [{ variantId: (await createProduct(key, { price: 5, stock: 5 })).variants[0].id, amount: 6 }] });
    const dear = dearer.list.prices[0].variantId;
    const placed = await api('/api/orders', { method: 'POST', key: dearer.customer.token, json: { lines: [{ variantId: dear, quantity: 1 }] } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data.lines[0].unitPrice).toBe(5);
  });

  it("keeps a customer's order at one D1 round trip once its inputs are kept, and reprices it when its groups change", async () => {
    const { variantId, group, customer } = await wholesale();
    const o = countedOrder({ customerId: customer.user.id });
    expect((await o.place(variantId, 10)).lines[0]!.unitPrice).toBe(850);
    o.reset();
    expect((await o.place(variantId, 1)).lines[0]!.unitPrice).toBe(900);
    expect(o.calls()).toBe(1);
    expect((await api(`/api/customer-groups/${group.id}/members/${customer.user.id}`, { method: 'DELETE', key })).status).toBe(204);
    o.reset();
    expect((await o.place(variantId, 10)).lines[0]!.unitPrice).toBe(1000);
    // The kept write (aborted by the quote_version guard), the fresh read, the write.
    expect(o.calls()).toBe(3);
  });

  it("moves the catalogue version by the cron when an active list's start or end comes, so kept answers show it", async () => {
    const startsAt = new Date(Date.now() + 3_600_000);
    await wholesale({ startsAt: startsAt.toISOString() });
    expect(await bumpForScheduledContent(db(), new Date(startsAt.getTime() + 1000))).toBe(true);
    expect(await bumpForScheduledContent(db(), new Date(startsAt.getTime() + 10 * 60_000))).toBe(false);
  });
});
