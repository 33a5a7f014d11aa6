import { describe, expect, it } from 'vitest';
import { api, expectError } from '../helpers';
import { placeTwoVendorOrder, twoParcels, vendorKey } from './order-fixtures';

// A vendor reads only the shipments that carry one of its lines, and in them only its lines
// (docs/api.md, Vendors and orders): never another vendor's parcel or tracking number.

const ids = (res: { body: any }) => res.body.data.map((s: { id: string }) => s.id) as string[];
const linesIn = (shipment: { lines: { orderLineId: string }[] }) => shipment.lines.map((l) => l.orderLineId).sort();

describe('shipments seen by a vendor', () => {
  it('lists only the shipments carrying its lines, with only its lines, in GET /api/shipments', async () => {
    const { order, vendorA, lineA, carrier, mixed } = await twoParcels();
    for (const credential of [vendorA.token, await vendorKey(vendorA.vendor.id)]) {
      const list = await api(`/api/shipments?order=${order.id}`, { key: credential });
      expect(list.status).toBe(200);
      expect(ids(list)).toEqual([mixed.id]);
      expect(list.body.pagination.total).toBe(1);
      expect(linesIn(list.body.data[0])).toEqual([lineA.id]);
      expect(ids(await api(`/api/shipments?carrier=${carrier}`, { key: credential }))).toEqual([mixed.id]);
      // A selection of lines keeps to its lines too.
      const picked = await api(`/api/shipments?order=${order.id}&fields=id,lines(order_line_id)`, { key: credential });
      expect(picked.body.data).toEqual([{ id: mixed.id, lines: [{ orderLineId: lineA.id }] }]);
    }
  });

  it("answers 404 for another vendor's shipment by id, and shows its own with only its lines", async () => {
    const { vendorA, lineA, onlyB, mixed } = await twoParcels();
    for (const credential of [vendorA.token, await vendorKey(vendorA.vendor.id)]) {
      expectError(await api(`/api/shipments/${onlyB.id}`, { key: credential }), 404, 'NOT_FOUND');
      const own = await api(`/api/shipments/${mixed.id}`, { key: credential });
      expect(own.status).toBe(200);
      expect(linesIn(own.body.data)).toEqual([lineA.id]);
    }
  });

  it("shows under its order only the shipments carrying its lines; another vendor's order stays 404", async () => {
    const { order, vendorA, vendorB, lineA, lineB, onlyB, mixed } = await twoParcels();
    const underA = await api(`/api/orders/${order.id}/shipments`, { key: vendorA.token });
    expect(underA.status).toBe(200);
    expect(ids(underA)).toEqual([mixed.id]);
    expect(underA.body.pagination.total).toBe(1);
    expect(linesIn(underA.body.data[0])).toEqual([lineA.id]);
    // Vendor B carries a line in both parcels.
    const underB = await api(`/api/orders/${order.id}/shipments`, { key: vendorB.token });
    expect(ids(underB).sort()).toEqual([onlyB.id, mixed.id].sort());
    expect(underB.body.data.map(linesIn)).toEqual([[lineB.id], [lineB.id]]);
    const elsewhere = await placeTwoVendorOrder();
    expectError(await api(`/api/orders/${elsewhere.order.id}/shipments`, { key: vendorA.token }), 404, 'NOT_FOUND');
  });

  it('leaves staff every shipment of the order with every line', async () => {
    const { key, order, lineA, lineB, onlyB, mixed } = await twoParcels();
    const all = await api(`/api/orders/${order.id}/shipments`, { key });
    const byId = new Map(all.body.data.map((s: { id: string; lines: { orderLineId: string }[] }) => [s.id, linesIn(s)]));
    expect(byId).toEqual(
      new Map([
        [onlyB.id, [lineB.id]],
        [mixed.id, [lineA.id, lineB.id].sort()],
      ]),
    );
    expect(ids(await api(`/api/shipments?order=${order.id}`, { key })).sort()).toEqual([mixed.id, onlyB.id].sort());
    expect(linesIn((await api(`/api/shipments/${mixed.id}`, { key })).body.data)).toEqual([lineA.id, lineB.id].sort());
  });
});
