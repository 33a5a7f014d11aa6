import { eq } from 'drizzle-orm';
import { orders } from '../../src/db/schema';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, createProduct, db, uid } from '../helpers';

export interface TestOrderOptions {
  /** Units of each product ordered; one product (one line) unless `products` says more. */
  quantity?: number;
  /** Unit price in major units. */
  price?: number;
  /** The customer's user id; a guest order without it. */
  customer?: string | null;
  /** Lines (each a new product); 1 by default. */
  products?: number;
  stock?: number;
  /** Body of the products created, e.g. `{ vendorId }`. */
  product?: Record<string, unknown>;
  key?: string;
}

/** Places an order through placeOrder (no shipping or tax configured: total = price x quantity per line). */
export async function placeTestOrder(options: TestOrderOptions = {}) {
  const key = options.key ?? (await adminKey());
  const quantity = options.quantity ?? 1;
  const created = [];
  for (let i = 0; i < (options.products ?? 1); i++) {
    created.push(await createProduct(key, { price: options.price ?? 10, stock: options.stock ?? 100, ...options.product }));
  }
  const placed = await placeOrder(db(), {
    customerId: options.customer ?? null,
    email: `buyer-${uid()}@example.test`,
    lines: created.map((p) => ({ variantId: p.variants[0].id, quantity })),
    actor: 'system',
  });
  return { ...placed, product: created[0], products: created, key };
}

/** The order as stored now. */
export async function orderRow(id: string) {
  return (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
}
