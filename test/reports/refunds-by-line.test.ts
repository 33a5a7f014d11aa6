import { describe, expect, it } from 'vitest';
import { adminKey, api, createProduct, uid } from '../helpers';

// The product report nets out refunds by line (migration 0058): a refunded unit leaves the units and
// the revenue of the day its order was placed, and a later cancellation takes out only the rest.

const today = () => new Date().toISOString().slice(0, 10);
async function productFigures(key: string, productId: string) {
  const res = await api(`/api/reports/products?from=${today()}&to=${today()}&limit=100`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.products.find((p: { productId: string }) => p.productId === productId) ?? { units: 0, revenue: 0 };
}

describe('product report and refunds by line', () => {
  it('leaves out refunded units and their revenue, and a cancellation only what is left', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { price: 10, stock: 50 });
    const order = await api('/api/orders', {
      method: 'POST',
      key,
      json: { email: `rl-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 3 }] },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(await productFigures(key, product.id)).toMatchObject({ units: 3, revenue: 30 });

    // Part paid (the order stays pending), and that unit refunded by line.
    const paid = await api(`/api/orders/${order.body.data.id}/payments`, { method: 'POST', key, json: { provider: 'manual', amount: 10 } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const refund = await api(`/api/payments/${paid.body.data.id}/refunds`, {
      method: 'POST',
      key,
      json: { lines: [{ orderLineId: order.body.data.lines[0].id, quantity: 1 }] },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(await productFigures(key, product.id)).toMatchObject({ units: 2, revenue: 20 });

    const cancelled = await api(`/api/orders/${order.body.data.id}/cancel`, { method: 'POST', key, json: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await productFigures(key, product.id)).toMatchObject({ units: 0, revenue: 0 });
  });

  it('leaves a product whose every unit was refunded out of the best sellers', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { price: 10, stock: 50 });
    const order = await api('/api/orders', {
      method: 'POST',
      key,
      json: { email: `rl-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 2 }] },
    });
    const paid = await api(`/api/orders/${order.body.data.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const listed = async () =>
      (await api(`/api/reports/products?from=${today()}&to=${today()}&limit=100`, { key })).body.data.products.map((p: { productId: string }) => p.productId);
    expect(await listed()).toContain(product.id);
    const refund = await api(`/api/payments/${paid.body.data.id}/refunds`, {
      method: 'POST',
      key,
      json: { lines: [{ orderLineId: order.body.data.lines[0].id, quantity: 2 }] },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(await listed()).not.toContain(product.id);
  });
});
