import { crudRoutes } from '../../lib/crud-routes';
import { priceListListQuery } from './price-lists.query';
import { APPLY_RULE, CreatePriceListBody, MAX_PRICES_PER_LIST, PriceListSchema, UpdatePriceListBody } from './price-lists.schemas';

const rules =
  `\`customerGroupId\` must name a customer group and \`currency\` one of the store's currencies; each price names an existing variant, with at most the currency's decimals; ` +
  `at most ${MAX_PRICES_PER_LIST} prices, one per variant and \`minQuantity\`; \`endsAt\` after \`startsAt\` (422 naming each problem). ` +
  'Carts and orders placed afterwards are priced by it; orders already placed keep their prices.';

export const priceListRoutes = crudRoutes({
  path: '/price-lists',
  tag: 'Price lists',
  sdk: { group: 'priceLists', singular: 'PriceList', plural: 'PriceLists' },
  noun: 'price list',
  nouns: 'price lists',
  schema: PriceListSchema,
  createBody: CreatePriceListBody,
  updateBody: UpdatePriceListBody,
  listQuery: priceListListQuery,
  resource: 'price-lists',
  reads: 'permission',
  slug: null,
  conflicts: ['create', 'update'],
  notes: {
    list: `Newest first by default, each with its prices. ${APPLY_RULE}`,
    create: `${rules} A list is \`draft\` until made \`active\`.`,
    update: `${rules} \`prices\` replaces the whole set.`,
    delete: 'Its prices go with it; they stop applying at once.',
  },
});
