import { access } from '../../lib/route-access';
import { apiRoute, errorResponses, IdParams, operation, successResponse } from '../../lib/openapi';
import { readQuerySchema } from '../../lib/query';
import { crudRoutes } from '../../lib/crud-routes';
import { giftCardListQuery } from './gift-cards.query';
import { CreateGiftCardBody, GiftCardDetailSchema, GiftCardSchema, IssuedGiftCardSchema, UpdateGiftCardBody } from './gift-cards.schemas';

// Gift cards are the store's money owed to shoppers: a permission resource of their own
// (`gift-cards:*`), which no vendor's credential reaches.
const tag = 'Gift cards';

export const giftCardRoutes = crudRoutes({
  path: '/gift-cards',
  tag,
  sdk: { group: 'giftCards', singular: 'GiftCard', plural: 'GiftCards' },
  noun: 'gift card',
  nouns: 'gift cards',
  schema: GiftCardSchema,
  createBody: CreateGiftCardBody,
  updateBody: UpdateGiftCardBody,
  listQuery: giftCardListQuery,
  resource: 'gift-cards',
  reads: 'permission',
  operations: ['list', 'create', 'update'],
  conflicts: [],
  slug: null,
  created: { schema: IssuedGiftCardSchema, description: 'The card, with its code: the only time the API shows it.' },
  summaries: { create: 'Issue a gift card', update: 'Disable, enable or change the expiry of a gift card' },
  notes: {
    list: 'Newest first by default: the last four characters of each code, balances and status; never a code.',
    create:
      "`amount` is in major units of `currency`, one of the store's enabled currencies (422 otherwise, or for more decimals than it has). " +
      'The response carries the code in `code`, the only time the API shows it: the card keeps only its hash. With `recipientEmail`, the code is ' +
      'also emailed there (notification template `gift_card.issued`). Emits `gift_card.issued` (without the code).',
    update: 'A disabled card pays nothing (applied to a cart, it shows why) until enabled again; its balance changes only by payments.',
  },
});

export const getGiftCard = apiRoute({
  ...operation('giftCards', 'get', 'getGiftCard'),
  method: 'get',
  path: '/gift-cards/{id}',
  tags: [tag],
  summary: 'Get a gift card with its transactions',
  description: 'The card and every change of its balance (`issued`, `spent` by a payment, ...), oldest first; never its code.',
  policy: { access: access.permission('gift-cards:read') },
  request: { params: IdParams, query: readQuerySchema(giftCardListQuery.selectable) },
  responses: { 200: successResponse(GiftCardDetailSchema, 'The gift card.'), ...errorResponses(400, 401, 403, 404) },
});
