import { beforeAll, describe, expect, it } from 'vitest';
import { taxRates } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { adminKey, api, createProduct, db, insertUser, uid } from '../helpers';

let key: string;
/** A region of its own with a 10% tax, so no other test's rates apply. */
const region = `D${uid().slice(0, 2).toUpperCase()}`;
beforeAll(async () => {
  key = await adminKey();
  await db()
    .insert(taxRates)
    .values({ id: newId('tax'), name: 'Default-address tax', country: 'US', region, rate: '10' });
});

const home = { firstName: 'Ada', line1: '1 Default Way', city: 'Springfield', region, postalCode: '12345', country: 'US' };
const office = { company: 'Ada Ltd', line1: '2 Billing Rd', city: 'Springfield', region, country: 'US' };

/** A signed-in customer with default addresses, and its cart holding one line of 2 x 10.00. */
async function customerWithCart(defaults: { shipping?: object; billing?: object }) {
  const { user, token } = await insertUser();
  const addresses = `/api/customers/${user.id}/addresses`;
  if (defaults.shipping) expect((await api(addresses, { method: 'POST', key: token, json: { ...defaults.shipping, isDefaultShipping: true } })).status).toBe(201);
  if (defaults.billing) expect((await api(addresses, { method: 'POST', key: token, json: { ...defaults.billing, isDefaultBilling: true } })).status).toBe(201);
  const variantId = (await createProduct(key, { price: 10, stock: 10 })).variants[0].id;
  expect((await api('/api/carts', { method: 'POST', key: token, json: {} })).status).toBe(201);
  expect((await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId, quantity: 2 } })).status).toBe(200);
  return { user, token };
}

describe("a customer's default addresses at checkout", () => {
  it('are shown and taxed in the cart, and the order ships to them with that tax', async () => {
    const { token } = await customerWithCart({ shipping: home, billing: office });
    const cart = await api('/api/carts/me', { key: token });
    expect(cart.status).toBe(200);
    expect(cart.body.data.shippingAddress).toMatchObject(home);
    expect(cart.body.data.billingAddress).toMatchObject(office);
    expect(cart.body.data.totals).toMatchObject({ subtotal: 20, taxTotal: 2, total: 22 });

    const res = await api('/api/carts/me/checkout', { method: 'POST', key: token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ shippingAddress: home, billingAddress: office, taxTotal: 2, total: 22 });
  });

  it('bills to the shipping default when there is no billing default', async () => {
    const { token } = await customerWithCart({ shipping: home });
    const res = await api('/api/carts/me/checkout', { method: 'POST', key: token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ shippingAddress: home, billingAddress: home, taxTotal: 2 });
  });

  it("give way to the cart's own address", async () => {
    const { token } = await customerWithCart({ shipping: home });
    const own = { line1: '3 Untaxed St', city: 'Portland', region: 'OR', country: 'US' };
    const patched = await api('/api/carts/me', { method: 'PATCH', key: token, json: { shippingAddress: own } });
    expect(patched.body.data.shippingAddress).toMatchObject(own);
    expect(patched.body.data.totals.taxTotal).toBe(0);
    const res = await api('/api/carts/me/checkout', { method: 'POST', key: token });
    expect(res.body.data).toMatchObject({ shippingAddress: own, taxTotal: 0 });
  });
});
