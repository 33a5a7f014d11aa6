import { eq } from 'drizzle-orm';
import { productVariants, shipments } from '../../src/db/schema';
import { adminKey, api, createProduct, db, insertUser } from '../helpers';

/** Asserts a 2xx and returns the answer's data. */
export async function ok(path: string, init: Parameters<typeof api>[1]) {
  const res = await api(path, init);
  if (res.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * A signed-in customer's order of 2 pairs of shoes (stock 10 before, so 8 after), paid, shipped and
 * delivered now; `deliveredDaysAgo` moves the delivery back by writing the shipment's `delivered_at`.
 */
export async function deliveredShoes() {
  const key = await adminKey();
  const { user, token } = await insertUser();
  const shoes = await createProduct(key, { name: 'Shoes', price: 60, stock: 10 });
  const variantId = shoes.variants[0].id as string;
  const order = await ok('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines: [{ variantId, quantity: 2 }] } });
  await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  const shipment = await ok(`/api/orders/${order.id}/shipments`, { method: 'POST', key, json: { status: 'shipped' } });
  await ok(`/api/shipments/${shipment.id}`, { method: 'PATCH', key, json: { status: 'delivered' } });
  const line = order.lines[0] as { id: string };
  return {
    key,
    customer: user,
    token,
    order,
    line,
    variantId,
    deliveredDaysAgo: (days: number) =>
      db()
        .update(shipments)
        .set({ deliveredAt: new Date(Date.now() - days * 86_400_000).toISOString() })
        .where(eq(shipments.id, shipment.id)),
    stock: async () => (await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock,
  };
}
