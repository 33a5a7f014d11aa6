import { eq } from 'drizzle-orm';
import { orders } from '../../src/db/schema';
import { env } from 'cloudflare:workers';
import { createDb } from '../../src/db/client';
import { interceptD1 } from '../../src/d1/intercept';
import { type PlaceOrderInput, placeOrder } from '../../src/modules/orders/place-order';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, insertVendorUser, uid } from '../helpers';

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

/**
 * An order holding one line of each of two vendors, placed by staff: vendor A's 2 x 11.00 (22.00)
 * and vendor B's 5 x 7.00 (35.00), so a subtotal of 57.00. `body` adds to the order (a coupon, an
 * address). Each vendor has a signed-in user; `vendorKey` mints a key of the vendor role for one.
 */
export async function placeTwoVendorOrder(body: Record<string, unknown> = {}) {
  const key = await adminKey();
  const vendorA = await insertVendorUser();
  const vendorB = await insertVendorUser();
  const productA = await createProduct(key, { price: 11, stock: 100, vendorId: vendorA.vendor.id });
  const productB = await createProduct(key, { price: 7, stock: 100, vendorId: vendorB.vendor.id });
  const lines = [
    { variantId: productA.variants[0].id, quantity: 2 },
    { variantId: productB.variants[0].id, quantity: 5 },
  ];
  const res = await api('/api/orders', { method: 'POST', key, json: { email: `two-vendors-${uid()}@example.test`, lines, ...body } });
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${JSON.stringify(res.body)}`);
  const order = res.body.data;
  const lineOf = (product: { id: string }) => order.lines.find((l: { productId: string }) => l.productId === product.id) as { id: string; productId: string; variantId: string };
  return { key, order, vendorA, vendorB, lineA: lineOf(productA), lineB: lineOf(productB) };
}

/** A key of the built-in vendor role acting for `vendorId`. */
export async function vendorKey(vendorId: string) {
  return (await createApiKey(db(), { name: `vendor key ${uid()}`, role: 'vendor', vendorId })).key;
}

/**
 * The two-vendor order (vendor A: 2 units, vendor B: 5), paid in full, in two parcels: `onlyB`, three
 * of B's units with a tracking number, and `mixed`, A's two units and two of B's.
 */
export async function twoParcels() {
  const placed = await placeTwoVendorOrder();
  const { key, order, lineA, lineB } = placed;
  const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  if (paid.status !== 201) throw new Error(`paying answered ${paid.status}: ${JSON.stringify(paid.body)}`);
  const ship = async (json: Record<string, unknown>) => {
    const res = await api(`/api/orders/${order.id}/shipments`, { method: 'POST', key, json });
    if (res.status !== 201) throw new Error(`shipping answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string; trackingNumber: string | null };
  };
  const carrier = `Carrier-${uid()}`;
  const onlyB = await ship({ carrier, trackingNumber: `B-${uid()}`, lines: [{ orderLineId: lineB.id, quantity: 3 }] });
  const mixed = await ship({
    carrier,
    lines: [
      { orderLineId: lineA.id, quantity: 2 },
      { orderLineId: lineB.id, quantity: 2 },
    ],
  });
  return { ...placed, carrier, onlyB, mixed };
}

/** placeOrder (with `input` added) on a binding that counts D1 calls (a batch or a lone statement each). */
export function countedOrder(input: Partial<PlaceOrderInput> = {}) {
  let calls = 0;
  const binding = interceptD1(env.DB, {
    lone: ({ proceed }) => {
      calls++;
      return proceed();
    },
    batch: (statements, proceed) => {
      calls++;
      return proceed(statements.map((s) => s.statement));
    },
  });
  const counted = createDb(binding);
  return {
    place: (variantId: string, quantity = 1, email = `kept-${uid()}@example.test`) =>
      placeOrder(counted, { customerId: null, email, lines: [{ variantId, quantity }], actor: 'system', ...input }),
    calls: () => calls,
    reset: () => (calls = 0),
  };
}
