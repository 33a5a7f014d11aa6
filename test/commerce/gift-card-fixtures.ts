import { env } from 'cloudflare:workers';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { giftCards, giftCardTransactions } from '../../src/db/schema';
import { giftCardCode, giftCardSecret } from '../../src/modules/ledger/gift-card-code';
import { api, createProduct, db, uid } from '../helpers';

/** Gift cards bought as products (docs/gift-cards.md, Rules): what the tests of their value and refunds share. */

/** An active gift-card product at `price`, and its default variant. */
export async function giftCardProduct(key: string, price: number) {
  const product = await createProduct(key, { name: `Gift card ${uid()}`, price, stock: 100, giftCard: true });
  return { productId: product.id as string, variantId: product.variants[0].id as string };
}

/** An automatic promotion taking `percent` off `productId` alone (so it touches no other test's orders). */
export async function percentOff(key: string, productId: string, percent: number) {
  const res = await api('/api/promotions', {
    method: 'POST',
    key,
    json: { name: `${percent}% off ${uid()}`, type: 'percentage', value: percent, target: 'items', include: { productIds: [productId] } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string };
}

/** Places an order (staff, for `customerId` when given) of `lines` and pays what it owes with a manual payment. */
export async function paidOrder(key: string, lines: { variantId: string; quantity: number }[], body: Record<string, unknown> = {}) {
  const placed = await api('/api/orders', { method: 'POST', key, json: { email: `gifter-${uid()}@example.test`, lines, ...body } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order = placed.body.data;
  const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { order, line: order.lines[0] as { id: string; total: number }, payment: paid.body.data as { id: string; amount: number } };
}

/** The cards an order bought, in the order of their units. */
export async function cardsOf(orderId: string) {
  const rows = await db().select().from(giftCards).where(eq(giftCards.orderId, orderId));
  return rows.sort((a, b) => Number(a.id.split('_').at(-1)) - Number(b.id.split('_').at(-1)));
}

export const cardRow = async (id: string) => (await db().select().from(giftCards).where(eq(giftCards.id, id)))[0]!;

/** A card's transactions, oldest first, as [kind, minor amount]. */
export const movesOf = async (id: string) =>
  (await db().select().from(giftCardTransactions).where(eq(giftCardTransactions.giftCardId, id)).orderBy(asc(giftCardTransactions.createdAt), asc(giftCardTransactions.id))).map(
    (t) => [t.kind, t.amount] as const,
  );

/** A bought card's code, derived as the store derives it for the recipient's email. */
export const codeOf = (cardId: string) => giftCardCode(giftCardSecret(env), cardId);

let ip = 0;
/** Pays `orderId` with the card, from a network of its own (wrong codes elsewhere lock nothing here). */
export const payWithCard = async (key: string, orderId: string, cardId: string, amount?: number) =>
  api(`/api/orders/${orderId}/payments`, {
    method: 'POST',
    key,
    headers: { 'CF-Connecting-IP': `198.51.100.${(++ip % 250) + 1}` },
    json: { provider: 'gift_card', code: await codeOf(cardId), ...(amount === undefined ? {} : { amount }) },
  });
