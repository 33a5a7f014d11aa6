import { SHIPMENT_STATUSES, shipments } from '../../db/schema';
import { createdAfterFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema } from '../../lib/query';
import { ShipmentSchema } from './shipments.schemas';

const selectable = fieldTreeFromSchema(ShipmentSchema);
const status = enumFilter(shipments.status, SHIPMENT_STATUSES, 'Shipment status.');

/** One order's shipments (`/orders/{id}/shipments`), oldest first. */
export const shipmentListQuery = defineListQuery({
  resource: 'shipment',
  id: shipments.id,
  sortable: { createdAt: shipments.createdAt, id: shipments.id },
  defaultSort: [{ field: 'createdAt', direction: 'asc' }],
  selectable,
  filters: { status },
});

/** Every shipment the caller reaches (`/shipments`): what is waiting to ship, what went out, newest first. */
export const allShipmentsListQuery = defineListQuery({
  resource: 'shipment',
  id: shipments.id,
  sortable: { createdAt: shipments.createdAt, shippedAt: shipments.shippedAt, id: shipments.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable,
  filters: {
    status,
    carrier: exactFilter(shipments.carrier, 'Carrier, exactly as recorded (`UPS`).'),
    order: exactFilter(shipments.orderId, 'The order shipped (`ord_...`).'),
    created_after: createdAfterFilter(shipments.createdAt),
    shipped_after: createdAfterFilter(shipments.shippedAt, 'Shipped on or after this day (YYYY-MM-DD, UTC), inclusive.'),
  },
});
