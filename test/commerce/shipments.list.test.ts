import { describe, expect, it } from 'vitest';
import { adminKey, api, expectError, insertUser, insertVendorUser, uid } from '../helpers';
import { placeTestOrder, type TestOrderOptions } from './order-fixtures';

/** An order placed and paid in full (`processing`), with one shipment of every unit. */
async function shippedOrder(options: TestOrderOptions = {}, shipment: Record<string, unknown> = {}) {
  const placed = await placeTestOrder(options);
  expect((await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } })).status).toBe(201);
  const created = await api(`/api/orders/${placed.order.id}/shipments`, { method: 'POST', key: placed.key, json: shipment });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { ...placed, shipment: created.body.data };
}
const ids = (res: { body: any }) => res.body.data.map((s: { id: string }) => s.id) as string[];

describe('GET /api/shipments', () => {
  it('lists every shipment for staff, newest first, filtered by status, carrier, order and dates', async () => {
    const carrier = `Carrier-${uid()}`;
    const waiting = await shippedOrder({}, { carrier });
    const sent = await shippedOrder({}, { carrier, status: 'shipped', trackingNumber: '1Z999' });
    const key = await adminKey();
    const all = await api(`/api/shipments?carrier=${carrier}`, { key });
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([sent.shipment.id, waiting.shipment.id]);
    expect(all.body.pagination.total).toBe(2);
    expect(all.body.data[0].lines.length).toBeGreaterThan(0);
    expect(ids(await api(`/api/shipments?carrier=${carrier}&status=pending`, { key }))).toEqual([waiting.shipment.id]);
    expect(ids(await api(`/api/shipments?order=${sent.order.id}`, { key }))).toEqual([sent.shipment.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(await api(`/api/shipments?carrier=${carrier}&shipped_after=${today}`, { key }))).toEqual([sent.shipment.id]);
    expect(ids(await api(`/api/shipments?carrier=${carrier}&created_after=2999-01-01`, { key }))).toEqual([]);
    expect(ids(await api(`/api/shipments?carrier=${carrier}&sort=created_at:asc`, { key }))).toEqual([waiting.shipment.id, sent.shipment.id]);
    expect(ids(await api(`/api/shipments?carrier=${carrier}&sort=shipped_at:desc`, { key }))[0]).toBe(sent.shipment.id);
    expect((await api(`/api/shipments?carrier=${carrier}&fields=id,status`, { key })).body.data[0]).toEqual({ id: sent.shipment.id, status: 'shipped' });
  });

  it('scopes vendor users to orders holding their lines and customers to their own orders', async () => {
    const customer = await insertUser();
    const vendor = await insertVendorUser();
    const carrier = `Scoped-${uid()}`;
    const mine = await shippedOrder({ customer: customer.user.id, product: { vendorId: vendor.vendor.id } }, { carrier });
    const other = await shippedOrder({}, { carrier });
    expect(ids(await api(`/api/shipments?carrier=${carrier}`, { key: vendor.token }))).toEqual([mine.shipment.id]);
    expect(ids(await api(`/api/shipments?carrier=${carrier}`, { key: customer.token }))).toEqual([mine.shipment.id]);
    expect(ids(await api(`/api/shipments?carrier=${carrier}`, { key: await adminKey() }))).toEqual([other.shipment.id, mine.shipment.id]);
  });

  it('is 401 without a credential, and 400 for a filter it cannot read', async () => {
    expectError(await api('/api/shipments'), 401, 'AUTHENTICATION_ERROR');
    const key = await adminKey();
    expectError(await api('/api/shipments?status=lost', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/shipments?shipped_after=yesterday', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/shipments?sort=carrier:asc', { key }), 400, 'INVALID_REQUEST');
  });
});
