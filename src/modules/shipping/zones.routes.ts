import { crudRoutes } from '../../lib/crud-routes';
import { shippingZoneListQuery } from './zones.query';
import { CreateShippingZoneBody, ShippingZoneSchema, UpdateShippingZoneBody } from './zones.schemas';

const keptNote = 'Orders already placed keep the shipping method and charge they were placed with.';
const restNote = 'A second rest-of-world zone is 409.';
const capNote = 'A store has at most 100 zones (409 past that): every uncached quote reads them all.';

export const shippingZoneRoutes = crudRoutes({
  path: '/settings/shipping-zones',
  tag: 'Shipping',
  sdk: { group: 'shippingZones', singular: 'ShippingZone', plural: 'ShippingZones' },
  noun: 'shipping zone',
  nouns: 'shipping zones',
  schema: ShippingZoneSchema,
  createBody: CreateShippingZoneBody,
  updateBody: UpdateShippingZoneBody,
  listQuery: shippingZoneListQuery,
  resource: 'settings',
  reads: 'permission',
  conflicts: ['create', 'update'],
  slug: null,
  notes: {
    list: 'Oldest first. Storefronts read the options of a cart instead: `GET /api/carts/{id}/shipping-options`.',
    create: `${restNote} ${capNote}`,
    update: `${restNote} ${keptNote}`,
    delete: `Deletes its methods too; a cart that chose one of them falls back to the cheapest option left. ${keptNote}`,
  },
});
