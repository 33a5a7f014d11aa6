import { describe, expect, it } from 'vitest';
import { adminKey, api, createProduct } from '../helpers';

describe('POST /api/orders answers with the order as it was written', () => {
  it('is the same representation GET /api/orders/{id} gives, history included', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { stock: 4, price: 12.5 });
    const placed = await api('/api/orders', {
      method: 'POST',
      key,
      json: { lines: [{ variantId: product.variants[0].id, quantity: 2 }], email: 'same@example.com', notes: 'ring twice' },
    });
    expect(placed.status).toBe(201);
    const read = await api(`/api/orders/${placed.body.data.id}`, { key });
    expect(read.status).toBe(200);
    expect(placed.body.data).toEqual(read.body.data);
    expect(placed.body.data.history).toHaveLength(1);
    expect(placed.body.data.history[0]).toMatchObject({ fromStatus: null, toStatus: 'pending' });
  });
});
