import { z } from '@hono/zod-openapi';
import { crudRoutes } from '../../lib/crud-routes';
import { IdParams } from '../../lib/openapi';
import { CreateShippingMethodBody, ShippingMethodSchema, UpdateShippingMethodBody } from './methods.schemas';

const ZoneParams = IdParams.extend({ id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'szone_01JD0000000000000000000000', description: 'The zone.' }) });
const MethodParams = z.object({
  methodId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'methodId', in: 'path' }, example: 'smeth_01JD0000000000000000000000' }),
});
const kept = 'Orders already placed keep the method and charge they were placed with; carts are priced anew.';

/** A zone's shipping methods: at most MAX_METHODS_PER_ZONE, listed whole. */
export const shippingMethodRoutes = crudRoutes({
  path: '/settings/shipping-zones/{id}/methods',
  parent: { params: ZoneParams },
  itemParams: MethodParams,
  tag: 'Shipping',
  sdk: { group: 'shippingZones.methods', singular: 'ShippingMethod', plural: 'ShippingMethods' },
  noun: 'method',
  nouns: 'methods',
  schema: ShippingMethodSchema,
  createBody: CreateShippingMethodBody,
  updateBody: UpdateShippingMethodBody,
  whole: {},
  resource: 'settings',
  reads: 'permission',
  conflicts: ['create'],
  slug: null,
  summaries: {
    list: "List a zone's shipping methods",
    create: 'Add a shipping method to a zone',
    get: 'Get a shipping method',
    update: 'Update a shipping method',
    delete: 'Delete a shipping method',
  },
  notes: {
    list: 'Every method of the zone, active or not, in one page, by `position`.',
    create:
      "Bands must ascend without duplicates; amounts are major units of the default currency with at most its decimals, and in `currencyRates` of the entry's currency " +
      '(a currency of the store, not the default, once each), with at most its decimals (422 otherwise). A zone holds at most 20 methods (409 past that).',
    update: `\`rate\` is replaced whole, and so is \`currencyRates\` (\`[]\` removes them). ${kept} Needs \`settings:write\`.`,
    delete: `A cart that chose it ships by the cheapest method left. ${kept} Needs \`settings:write\`.`,
  },
});
