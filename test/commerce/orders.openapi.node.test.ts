import { describe, expect, it } from 'vitest';
import { ordersRouter } from '../../src/modules/orders/router';

// The orders routes' part of the OpenAPI document (the whole document is validated in test/openapi.node.test.ts).
const doc = () => ordersRouter.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'orders', version: 'v1' } }) as any;

describe('OpenAPI document of orders', () => {
  it('documents the five routes, the Idempotency-Key header where it is taken, and the optional cancel body', () => {
    const paths = doc().paths;
    expect(Object.keys(paths).sort()).toEqual(['/orders', '/orders/{id}', '/orders/{id}/cancel']);
    expect(Object.keys(paths['/orders']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/orders/{id}']).sort()).toEqual(['get', 'patch']);
    for (const op of [paths['/orders'].post, paths['/orders/{id}/cancel'].post]) {
      expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '409', '422', '500']));
    }
    expect(paths['/orders/{id}/cancel'].post.requestBody.required).toBe(false);
    const list = paths['/orders'].get.parameters.map((p: { name: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(['page', 'limit', 'sort', 'fields', 'status', 'created_after', 'created_before', 'customer']));
  });

  it('shows the derived payment fields on orders and the history on single reads', () => {
    const schemas = doc().components.schemas;
    expect(Object.keys(schemas.Order.properties)).toEqual(expect.arrayContaining(['amountDue', 'paymentStatus', 'lines', 'cancelledAt']));
    expect(schemas.Order.properties).not.toHaveProperty('minorUnits');
    expect(JSON.stringify(schemas.OrderDetail)).toContain('history');
    expect(schemas.CreateOrder.properties.shippingAddress.type).toBe('object');
  });
});
