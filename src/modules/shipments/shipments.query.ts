import { SHIPMENT_STATUSES, shipments } from '../../db/schema';
import { defineListQuery, enumFilter, fieldTreeFromSchema } from '../../lib/query';
import { ShipmentSchema } from './shipments.schemas';

export const shipmentListQuery = defineListQuery({
  resource: 'shipment',
  id: shipments.id,
  sortable: { createdAt: shipments.createdAt, id: shipments.id },
  defaultSort: [{ field: 'createdAt', direction: 'asc' }],
  selectable: fieldTreeFromSchema(ShipmentSchema),
  filters: { status: enumFilter(shipments.status, SHIPMENT_STATUSES, 'Shipment status.') },
});
