import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, giftCards, loginFailures } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

type Guest = { id: string; token: string };
let ipCounter = 0;
/** A client network of its own per test, so the lock-outs of one test never reach another's. */
const freshIp = () => `198.51.100.${++ipCounter}`;
const issue = (json: Record<string, unknown>) => api('/api/gift-cards', { method: 'POST', key, json });
const call = (cart: Guest, path: string, method = 'GET', json?: unknown, ip = '203.0.113.1') =>
  api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token, 'CF-Connecting-IP': ip } });
const guestCart = async (price: number, json: Record<string, unknown> = {}): Promise<Guest> => {
  const variantId = (await createProduct(key, { price, stock: 100 })).variants[0].id;
  const { id, token } = (await api('/api/carts', { method: 'POST', json })).body.data;
  expect((await call({ id, token }, '/lines', 'POST', { variantId, quantity: 1 })).status).toBe(200);
  return { id, token };
};

describe('POST /api/gift-cards', () => {
  it('shows the code once and keeps only its hash; list and get never show it', async () => {
    const res = await issue({ amount: 50, currency: 'usd', recipientEmail: 'Friend@Example.test', recipientName: 'Friend', message: 'Enjoy' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const card = res.body.data;
    expect(card.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(card).toMatchObject({ currency: 'USD', initialAmount: 50, balance: 50, status: 'active', last4: card.code.slice(-4), recipientEmail: 'friend@example.test' });
    expect(res.headers.get('Location')).toBe(`/api/gift-cards/${card.id}`);

    const [row] = await db().select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(row!.codeHash).toBe(await sha256Hex(card.code.replace(/-/g, '')));
    expect(JSON.stringify(row)).not.toContain(card.code.replace(/-/g, '').slice(0, 12));

    const got = await api(`/api/gift-cards/${card.id}`, { key });
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty('code');
    expect(got.body.data).not.toHaveProperty('codeHash');
    expect(got.body.data.transactions).toEqual([expect.objectContaining({ kind: 'issued', amount: 50, balanceAfter: 50 })]);
    const listed = await api(`/api/gift-cards?q=${card.last4}`, { key });
    expect(listed.body.data.map((c: any) => c.id)).toContain(card.id);
    expect(JSON.stringify(listed.body)).not.toContain(card.code);

    const [event] = await db().select().from(events).where(eq(events.type, 'gift_card.issued'));
    expect(JSON.stringify(event)).not.toContain(card.code.slice(0, 9));
  });

  it('refuses an unknown currency, too many decimals, and callers without orders:write', async () => {
    expectError(await issue({ amount: 10, currency: 'XQZ' }), 422, 'VALIDATION_ERROR');
    expectError(await issue({ amount: 10.001, currency: 'USD' }), 422, 'VALIDATION_ERROR');
    expectError(await api('/api/gift-cards', { method: 'POST', json: { amount: 10, currency: 'USD' } }), 401, 'AUTHENTICATION_ERROR');
  });

  it('PATCH disables and enables a card and changes its expiry', async () => {
    const card = (await issue({ amount: 5, currency: 'USD' })).body.data;
    const off = await api(`/api/gift-cards/${card.id}`, { method: 'PATCH', key, json: { status: 'disabled' } });
    expect(off.body.data).toMatchObject({ status: 'disabled', balance: 5 });
    expect(off.body.data).not.toHaveProperty('code');
    const on = await api(`/api/gift-cards/${card.id}`, { method: 'PATCH', key, json: { status: 'active', expiresAt: '2099-01-01T00:00:00Z' } });
    expect(on.body.data).toMatchObject({ status: 'active', expiresAt: '2099-01-01T00:00:00.000Z' });
    expectError(await api('/api/gift-cards/gc_nope', { method: 'PATCH', key, json: { status: 'disabled' } }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/carts/{id}/gift-cards', () => {
  it('applies a card (in any case, without dashes): the cart shows what it takes and the amount due; DELETE removes it', async () => {
    const card = (await issue({ amount: 8, currency: 'USD' })).body.data;
    const cart = await guestCart(20);
    const typed = card.code.replace(/-/g, ' ').toLowerCase();
    const res = await call(cart, '/gift-cards', 'POST', { code: typed }, freshIp());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.giftCards).toEqual([{ id: card.id, last4: card.last4, balance: 8, amount: 8, problem: null }]);
    expect(res.body.data.amountDue).toBe(res.body.data.totals.total - 8);

    const removed = await call(cart, `/gift-cards/${card.id}`, 'DELETE');
    expect(removed.body.data).toMatchObject({ giftCards: [], amountDue: removed.body.data.totals.total });
    expectError(await call(cart, `/gift-cards/${card.id}`, 'DELETE'), 404, 'NOT_FOUND');
  });

  it('refuses a card in another currency, a disabled one and an expired one (409), without counting them as guesses', async () => {
    const other = `G${uid()
      .slice(0, 2)
      .toUpperCase()
      .replace(/[^A-Z]/g, 'Q')}`;
    expect(
      (await api('/api/settings/currencies', { method: 'POST', key, json: { code: other, name: 'Gift test money', symbol: 'G', minorUnits: 2, exchangeRate: 2 } })).status,
    ).toBe(201);
    const foreign = (await issue({ amount: 10, currency: other })).body.data;
    const disabled = (await issue({ amount: 10, currency: 'USD' })).body.data;
    await api(`/api/gift-cards/${disabled.id}`, { method: 'PATCH', key, json: { status: 'disabled' } });
    const expired = (await issue({ amount: 10, currency: 'USD' })).body.data;
    await db().update(giftCards).set({ expiresAt: '2000-01-01T00:00:00.000Z' }).where(eq(giftCards.id, expired.id));

    const cart = await guestCart(5);
    const ip = freshIp();
    const refused = [];
    for (const card of [foreign, disabled, expired, foreign, disabled, expired]) refused.push(await call(cart, '/gift-cards', 'POST', { code: card.code }, ip));
    for (const res of refused) expectError(res, 409, 'CONFLICT');
    expect(refused.map((r) => r.body.error.message)).toEqual([
      expect.stringContaining(`in ${other}, not USD`),
      expect.stringContaining('disabled'),
      expect.stringContaining('expired'),
      expect.anything(),
      expect.anything(),
      expect.anything(),
    ]);
  });

  it('locks a network out after 5 wrong codes, the right code too, with Retry-After; other networks still redeem', async () => {
    const card = (await issue({ amount: 10, currency: 'USD' })).body.data;
    const cart = await guestCart(5);
    const ip = freshIp();
    for (let i = 0; i < 4; i++) expectError(await call(cart, '/gift-cards', 'POST', { code: `AAAA-BBBB-CCCC-${1000 + i}` }, ip), 422, 'VALIDATION_ERROR');
    const fifth = await call(cart, '/gift-cards', 'POST', { code: 'AAAA-BBBB-CCCC-2000' }, ip);
    expectError(fifth, 429, 'RATE_LIMITED');
    const right = await call(cart, '/gift-cards', 'POST', { code: card.code }, ip);
    expectError(right, 429, 'RATE_LIMITED');
    expect(Number(right.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await call(cart, '')).body.data.giftCards).toEqual([]);

    expect((await call(cart, '/gift-cards', 'POST', { code: card.code }, freshIp())).status).toBe(200);
  });

  it('a right code neither counts nor clears the wrong ones before it', async () => {
    const card = (await issue({ amount: 10, currency: 'USD' })).body.data;
    const cart = await guestCart(5);
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await call(cart, '/gift-cards', 'POST', { code: `DDDD-EEEE-FFFF-${1000 + i}` }, ip);
    expect((await call(cart, '/gift-cards', 'POST', { code: card.code }, ip)).status).toBe(200);
    const [counter] = await db()
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.email, `gift-card:${ip}`), eq(loginFailures.ip, ip)));
    expect(counter!.failures).toBe(4);
    expectError(await call(cart, '/gift-cards', 'POST', { code: 'DDDD-EEEE-FFFF-9999' }, ip), 429, 'RATE_LIMITED');
  });

  it('20 shoppers behind one address redeeming right codes at once all succeed and lock nothing', async () => {
    const cards = await Promise.all(Array.from({ length: 20 }, () => issue({ amount: 1, currency: 'USD' }).then((r) => r.body.data)));
    const cart = await guestCart(50);
    const ip = freshIp();
    const applied = await Promise.all(cards.map((card) => call(cart, '/gift-cards', 'POST', { code: card.code }, ip)));
    expect(applied.map((r) => r.status)).toEqual(cards.map(() => 200));
    expect((await call(cart, '')).body.data.giftCards.map((c: { id: string }) => c.id).sort()).toEqual(cards.map((c) => c.id).sort());
    const counters = await db()
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.email, `gift-card:${ip}`));
    expect(counters).toEqual([]);

    const wrong = await call(cart, '/gift-cards', 'POST', { code: 'GGGG-HHHH-JJJJ-1000' }, ip);
    expectError(wrong, 422, 'VALIDATION_ERROR');
    expect((await call(cart, '/gift-cards', 'POST', { code: cards[0].code }, ip)).status).toBe(200);
  });

  it('wrong codes sent at once are answered as wrong 4 times, then locked, the right code too', async () => {
    const card = (await issue({ amount: 10, currency: 'USD' })).body.data;
    const cart = await guestCart(5);
    const ip = freshIp();
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => call(cart, '/gift-cards', 'POST', { code: `KKKK-MMMM-NNNN-${1000 + i}` }, ip)));
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(4).fill(422), ...Array(8).fill(429)]);
    const right = await call(cart, '/gift-cards', 'POST', { code: card.code }, ip);
    expectError(right, 429, 'RATE_LIMITED');
    expect(Number(right.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await call(cart, '')).body.data.giftCards).toEqual([]);
  });

  it("keeps the cards of a guest cart merged into a signed-in customer's cart", async () => {
    const card = (await issue({ amount: 4, currency: 'USD' })).body.data;
    const guest = await guestCart(5);
    expect((await call(guest, '/gift-cards', 'POST', { code: card.code }, freshIp())).status).toBe(200);
    const { token } = await insertUser();
    const variantId = (await createProduct(key, { price: 3, stock: 10 })).variants[0].id;
    expect((await api('/api/carts', { method: 'POST', key: token, json: {} })).status).toBe(201);
    expect((await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId, quantity: 1 } })).status).toBe(200);

    const merged = await api(`/api/carts/${guest.id}/adopt`, { method: 'POST', key: token, headers: { 'X-Cart-Token': guest.token } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data.lines).toHaveLength(2);
    expect(merged.body.data.giftCards).toEqual([expect.objectContaining({ id: card.id, amount: 4 })]);
  });
});
