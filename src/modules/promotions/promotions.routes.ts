import { crudRoutes } from '../../lib/crud-routes';
import { promotionListQuery } from './promotions.query';
import { CreatePromotionBody, PROMOTION_RULES, PromotionSchema, UpdatePromotionBody } from './promotions.schemas';

const rules =
  '`value` is required for `percentage` (a percent) and `fixed` (major units of the default currency); `buyXGetY` for `buy_x_get_y`; `freeShipping` only for ' +
  '`free_shipping`; the `value` of a `currencyAmounts` entry only for `fixed` (other types give own minimums alone). Every id must exist and `currencies` be currencies of the store (422 `not_found` naming the field); ' +
  '`endsAt` must be after `startsAt`. A code already used by another promotion or a coupon, in any case, is 409. Carts and orders priced afterwards apply the change.';

export const promotionRoutes = crudRoutes({
  path: '/promotions',
  tag: 'Promotions',
  sdk: { group: 'promotions', singular: 'Promotion', plural: 'Promotions' },
  noun: 'promotion',
  nouns: 'promotions',
  schema: PromotionSchema,
  createBody: CreatePromotionBody,
  updateBody: UpdatePromotionBody,
  listQuery: promotionListQuery,
  resource: 'promotions',
  reads: 'permission',
  slug: { field: 'code' },
  notes: {
    list: `Newest first by default; coupons are listed too (\`isCoupon\`). ${PROMOTION_RULES}`,
    get: 'By id, or by code in any case.',
    create: rules,
    update: `By id or code. ${rules} \`usageLimit\` cannot go below \`timesUsed\` (422). A coupon (\`isCoupon\`) is 409: change it with \`PATCH /api/coupons/{id}\`.`,
    delete: 'By id or code. Orders placed with it keep its name and amounts on their lines. A coupon (`isCoupon`) is 409: use `DELETE /api/coupons/{id}`.',
  },
});
