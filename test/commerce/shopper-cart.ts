import { expect } from 'vitest';
import { api, createProduct, uid } from '../helpers';

/** A shopper's cart through the API, for the tests of what promotions and prices do to it. */

export type Cart = { id: string; token: string };

/** An active product in stock at `price`, and its default variant. */
export async function variantOf(key: string, price: number, body: Record<string, unknown> = {}) {
  const product = await createProduct(key, { price, stock: 100, ...body });
  return { productId: product.id as string, variantId: product.variants[0].id as string };
}

/** A call on the cart (`''`: read it), with its token; `as`: a signed-in customer's token. */
export const call = (cart: Cart, path: string, method = 'GET', json?: unknown, as?: string) =>
  api(`/api/carts/${cart.id}${path}`, { method, json, key: as, headers: { 'X-Cart-Token': cart.token } });

/** A guest's (or `as`'s) cart holding `lines` (variant id, quantity), shipped to `shippingAddress` if given; `body` adds to its creation (a currency). */
export async function cartOf(lines: [string, number][], shippingAddress?: Record<string, string>, as?: string, body: Record<string, unknown> = {}): Promise<Cart> {
  const created = await api('/api/carts', { method: 'POST', key: as, json: { email: `promo-${uid()}@example.test`, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const cart = { id: created.body.data.id, token: created.body.data.token };
  if (shippingAddress) expect((await call(cart, '', 'PATCH', { shippingAddress }, as)).status).toBe(200);
  for (const [variantId, quantity] of lines) expect((await call(cart, '/lines', 'POST', { variantId, quantity }, as)).status).toBe(200);
  return cart;
}

/** Each line's discount, in the cart's order. */
export const discounts = (body: any) => body.data.lines.map((l: any) => l.discount);
