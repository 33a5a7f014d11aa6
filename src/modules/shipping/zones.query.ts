import { shippingZones } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema } from '../../lib/query';
import { ShippingZoneSchema } from './zones.schemas';

export const shippingZoneListQuery = defineListQuery({
  resource: 'shippingZone',
  id: shippingZones.id,
  sortable: { name: shippingZones.name, createdAt: shippingZones.createdAt, id: shippingZones.id },
  defaultSort: [
    { field: 'createdAt', direction: 'asc' },
    { field: 'id', direction: 'asc' },
  ],
  selectable: fieldTreeFromSchema(ShippingZoneSchema),
  filters: {},
});
