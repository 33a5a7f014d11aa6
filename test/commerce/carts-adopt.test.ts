import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { newId } from '../../src/lib/ids';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const variant = async () => (await createProduct(key, { price: 2, stock: 50 })).variants[0].id as string;
const guestCart = async (lines: [string, number][], json: Record<string, unknown> = {}) => {
  const { id, token } = (await api('/api/carts', { method: 'POST', json })).body.data;
  for (const [variantId, quantity] of lines) {
    const res = await api(`/api/carts/${id}/lines`, { method: 'POST', headers: { 'X-Cart-Token': token }, json: { variantId, quantity } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { id: id as string, token: token as string };
};
const adopt = (cart: { id: string; token: string }, userToken: string) =>
  api(`/api/carts/${cart.id}/adopt`, { method: 'POST', key: userToken, headers: { 'X-Cart-Token': cart.token } });
const quantities = (cart: any) => Object.fromEntries(cart.lines.map((l: any) => [l.variantId, l.quantity]));

describe('POST /api/carts/{id}/adopt', () => {
  it('hands the guest cart itself to a customer without a cart; its token stops working', async () => {
    const a = await variant();
    const guest = await guestCart([[a, 2]], { email: 'g@example.test' });
    const { user, token } = await insertUser();
    const res = await adopt(guest, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: guest.id, customerId: user.id, email: 'g@example.test' });
    expect(quantities(res.body.data)).toEqual({ [a]: 2 });
    expectError(await api(`/api/carts/${guest.id}`, { headers: { 'X-Cart-Token': guest.token } }), 404, 'NOT_FOUND');
    expect((await api('/api/carts/me', { key: token })).body.data.id).toBe(guest.id);
  });

  it("merges the guest lines into the customer's active cart, adding quantities, and deletes the guest cart", async () => {
    const [a, b, c] = [await variant(), await variant(), await variant()];
    const { token } = await insertUser();
    const own = (await api('/api/carts', { method: 'POST', key: token })).body.data;
    for (const [variantId, quantity] of [
      [a, 2],
      [c, 1],
    ] as const) {
      await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId, quantity } });
    }
    const code = `ADOPT${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'percentage', value: '10' }));
    const guest = await guestCart([
      [a, 1],
      [b, 2],
    ]);
    await api(`/api/carts/${guest.id}/coupon`, { method: 'POST', headers: { 'X-Cart-Token': guest.token }, json: { code } });

    const res = await adopt(guest, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.id).toBe(own.id);
    expect(quantities(res.body.data)).toEqual({ [a]: 3, [b]: 2, [c]: 1 });
    expect(res.body.data.couponCode).toBe(code);
    expect(await db().select().from(carts).where(eq(carts.id, guest.id))).toEqual([]);
    expectError(await adopt(guest, token), 404, 'NOT_FOUND');
  });

  it('needs the right token and a signed-in user; vendor users and API keys are refused', async () => {
    const guest = await guestCart([]);
    const { token } = await insertUser();
    expectError(await api(`/api/carts/${guest.id}/adopt`, { method: 'POST', key: token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${guest.id}/adopt`, { method: 'POST', headers: { 'X-Cart-Token': guest.token } }), 401, 'AUTHENTICATION_ERROR');
    expectError(await adopt(guest, key), 403, 'AUTHORIZATION_ERROR');
    expectError(await adopt(guest, (await insertVendorUser()).token), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('POST /api/auth/login with cartToken', () => {
  it('adopts the guest cart at sign-in, merging into the existing cart', async () => {
    const [a, b] = [await variant(), await variant()];
    const { user, token, password } = await insertUser();
    await api('/api/carts', { method: 'POST', key: token });
    await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId: a, quantity: 1 } });
    const guest = await guestCart([
      [a, 4],
      [b, 1],
    ]);
    const login = await api('/api/auth/login', { method: 'POST', json: { email: user.email, password, cartToken: guest.token } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const mine = await api('/api/carts/me', { key: login.body.data.token });
    expect(quantities(mine.body.data)).toEqual({ [a]: 5, [b]: 1 });
    expectError(await api(`/api/carts/${guest.id}`, { headers: { 'X-Cart-Token': guest.token } }), 404, 'NOT_FOUND');
  });

  it('signs in whatever the token opens: nothing at all is fine', async () => {
    const { user, password } = await insertUser();
    const res = await api('/api/auth/login', { method: 'POST', json: { email: user.email, password, cartToken: 'ct_unknown' } });
    expect(res.status).toBe(200);
    expectError(await api('/api/carts/me', { key: res.body.data.token }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/auth/register with cartToken', () => {
  it("takes the guest cart along: it becomes the new customer's cart and its token stops working", async () => {
    const [a, b] = [await variant(), await variant()];
    const guest = await guestCart(
      [
        [a, 2],
        [b, 1],
      ],
      { email: 'guest@example.test' },
    );
    const email = `new-${uid()}@example.test`;
    const res = await api('/api/auth/register', { method: 'POST', json: { email, password: 'correct horse battery', cartToken: guest.token } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const mine = await api('/api/carts/me', { key: res.body.data.token });
    expect(mine.body.data).toMatchObject({ id: guest.id, customerId: res.body.data.user.id });
    expect(quantities(mine.body.data)).toEqual({ [a]: 2, [b]: 1 });
    expectError(await api(`/api/carts/${guest.id}`, { headers: { 'X-Cart-Token': guest.token } }), 404, 'NOT_FOUND');
  });

  it('signs up whatever the token opens: an unknown token leaves the new customer without a cart', async () => {
    const res = await api('/api/auth/register', { method: 'POST', json: { email: `new-${uid()}@example.test`, password: 'correct horse battery', cartToken: 'ct_unknown' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectError(await api('/api/carts/me', { key: res.body.data.token }), 404, 'NOT_FOUND');
  });

  it("adopts nothing when the sign-up itself fails (409): the guest cart stays the guest's", async () => {
    const { user } = await insertUser();
    const guest = await guestCart([[await variant(), 1]]);
    expectError(await api('/api/auth/register', { method: 'POST', json: { email: user.email, password: 'correct horse battery', cartToken: guest.token } }), 409, 'CONFLICT');
    expect((await api(`/api/carts/${guest.id}`, { headers: { 'X-Cart-Token': guest.token } })).status).toBe(200);
  });
});
